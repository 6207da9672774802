"""The ``tree`` and ``compare`` subcommands (registered lazily in ``sakiyomi.cli``)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from sakiyomi.game import GameError
from sakiyomi.games import load
from sakiyomi.score import format_score, is_decisive
from sakiyomi.search.algorithms import get
from sakiyomi.search.mcts import MCTSConfig
from sakiyomi.viz.compare import compare, compare_depths, format_table
from sakiyomi.viz.dot import render_dot
from sakiyomi.viz.mcts_tree import DEFAULT_ITERATIONS, mcts_picture, render_mcts, run_mcts
from sakiyomi.viz.mcts_tree import DEFAULT_MAX_DRAWN as DEFAULT_MCTS_DRAWN
from sakiyomi.viz.picture import DEFAULT_MAX_DRAWN, Picture
from sakiyomi.viz.svg import render_svg
from sakiyomi.viz.text import render_text
from sakiyomi.viz.trace import DEFAULT_CAP, DEFAULT_PRUNED_BUDGET, TraceCapError, TreeRecorder

FORMATS = ("svg", "dot", "text")
_SUFFIXES = {".svg": "svg", ".dot": "dot", ".gv": "dot", ".txt": "text"}


def _short(text: str, limit: int = 70) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def trace_picture(
    game_name: str, position: str, algorithm: str, depth: int | None,
    cap: int = DEFAULT_CAP, max_drawn: int = DEFAULT_MAX_DRAWN,
    pruned_budget: int = DEFAULT_PRUNED_BUDGET,
) -> tuple[Picture, TreeRecorder]:
    """Search the position with a recorder attached and describe the picture to draw."""
    game = load(game_name, position)
    if game.outcome() is not None:
        raise GameError("the position is already finished: there is no tree to draw")
    entry = get(algorithm)
    searched = game.copy()
    recorder = TreeRecorder(searched, view=entry.form, cap=cap, pruned_budget=pruned_budget)
    try:
        result = entry.run(searched, depth, recorder)
    except TraceCapError as exc:
        raise GameError(str(exc)) from None
    searcher_based = entry.searcher_based
    roots = recorder.final_roots() if searcher_based else [recorder.last_root]
    shown = sum(r.count() for r in roots)
    leaves = sum(1 for r in roots for n in r.walk() if n.searched and not n.children)
    reach = f"depth {result.depth}" if depth is not None or searcher_based else "to the end"
    title = (f"{algorithm} · {reach} · value {format_score(result.value)} · "
             f"{shown} nodes, {leaves} leaves")
    subtitle = f"{game_name} {_short(position, 110)}"
    notes: list[str] = []
    captions: list[str] = []
    if searcher_based:
        notes.append(f"Searcher with iterative deepening: the picture shows the last depth "
                     f"({shown} of {recorder.nodes} nodes over all iterations); the table holds "
                     "results of earlier iterations and of transpositions.")
        if len(roots) > 1:
            for i, root in enumerate(roots):
                window = f"({format_score(root.alpha)}, {format_score(root.beta)})"
                last = i == len(roots) - 1 and algorithm == "mtdf"
                captions.append(("PV search " if last else f"pass {i + 1} ") + window)
    if any(n.value is not None and is_decisive(n.value) for r in roots for n in r.walk()):
        notes.append("Wn / Ln: a win / loss for the side to move, n plies from the root "
                     "of the search.")
    if recorder.pruned_dropped:
        notes.append(f"{recorder.pruned_dropped} pruned positions are not drawn "
                     "(pruned-subtree budget reached).")
    picture = Picture(roots, entry.form, title, subtitle, windows=entry.windowed,
                      notes=notes, pv=result.pv, max_drawn=max_drawn, root_captions=captions)
    if picture.summarised:
        notes.append(f"Large tree: subtrees beyond {max_drawn} drawn nodes are collapsed "
                     "(▸ n more = searched nodes hidden below).")
    return picture, recorder


def render(picture: Picture, fmt: str) -> str:
    """The picture in one of FORMATS."""
    if fmt == "svg":
        return render_svg(picture)
    if fmt == "dot":
        return render_dot(picture)
    return render_text(picture)


def mcts_tree_text(args: argparse.Namespace, fmt: str) -> str:
    """The picture of a Monte Carlo search (``--algorithm mcts``): visits and means."""
    if args.depth is not None:
        raise GameError(f"{args.algorithm} has no depth: use --iterations")
    config = MCTSConfig.from_options(args.exploration, args.seed, args.rollout, args.reward)
    game = load(args.game, args.position)
    if game.outcome() is not None:
        raise GameError("the position is already finished: there is no tree to draw")
    iterations = args.iterations or DEFAULT_ITERATIONS
    try:
        search = run_mcts(game, iterations, config, args.engine)
    except ValueError as exc:
        raise GameError(str(exc)) from None
    label = f"{args.game} {_short(args.position, 110)} · c = {config.exploration:.3g}, " \
            f"seed {config.seed}"
    picture = mcts_picture(game, search, label, args.max_drawn or DEFAULT_MCTS_DRAWN)
    return render_mcts(picture, fmt)


def cmd_tree(args: argparse.Namespace) -> int:
    """Draw the tree one algorithm searched."""
    fmt = args.format
    if fmt is None:
        fmt = _SUFFIXES.get(Path(args.output).suffix.lower(), "text") if args.output else "text"
    if get(args.algorithm).monte_carlo is not None:
        text = mcts_tree_text(args, fmt)
    else:
        given = [f"--{name}" for name in ("iterations", "exploration", "seed", "rollout",
                                          "reward") if getattr(args, name, None) is not None]
        if given:
            raise GameError(f"{'/'.join(given)} need --algorithm mcts")
        picture, _ = trace_picture(args.game, args.position, args.algorithm, args.depth,
                                   cap=args.max_nodes,
                                   max_drawn=args.max_drawn or DEFAULT_MAX_DRAWN,
                                   pruned_budget=args.pruned_budget)
        text = render(picture, fmt)
    if args.output and args.output != "-":
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise GameError(f"cannot write {args.output}: {exc.strerror}") from None
    else:
        sys.stdout.write(text)
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    """Node counts of every algorithm and of the Searcher without each enhancement."""
    game = load(args.game, args.position)
    if game.outcome() is not None:
        raise GameError("the position is already finished: there is nothing to compare")
    report = compare(game, args.depth)
    record: dict[str, Any] = {"game": args.game, "position": args.position, **report.as_dict()}
    if args.plot:
        plot_file = Path(args.plot)
        if plot_file.suffix.lower() not in (".svg", ".png", ".pdf"):
            raise GameError(f"--plot needs a .svg, .png or .pdf file name, not {args.plot!r}")
        if args.depth is None:
            raise GameError("--plot needs --depth (nodes are plotted for depths 1..D)")
        series, branching = compare_depths(load(args.game, args.position), args.depth)
        from sakiyomi.viz.plot import plot_nodes  # matplotlib only when asked for

        plot_nodes(series, branching, plot_file,
                   f"{args.game} {_short(args.position, 40)}")
        record["plot"] = str(plot_file)
    if args.json:
        print(json.dumps(record, ensure_ascii=False), flush=True)
    else:
        print(format_table(report), flush=True)
    return 0
