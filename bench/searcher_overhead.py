"""The Searcher of this tree against the Searcher of a git revision, side by side in one run.

For changes to ``Searcher._search`` that must not cost anything per node (helpers moved out of
the node loop, exception unwinding): the anchor is ``src/sakiyomi/search/searcher.py`` as it
was at ``--base`` (default ``main``), read with ``git show`` and loaded as a separate module
beside the current one.  Both run the same fixed-depth searches (iterative deepening by hand)
on tic-tac-toe, Connect Four (the Python engine), chess and shogi (the engines' selective
settings), and must visit the same nodes (checked).  For chess and shogi it also prints the
cost of a node against one push + pop of the rules library (python-chess, cshogi) measured in
the same run: the search's overhead in units of the library's own move cost.  Runs alternate
between the two builds (ABBA order); ``time_ratio`` is the median of the paired CPU-time
ratios (current / base).  The machine load (``os.getloadavg``) is printed before and after.
Usage: python bench/searcher_overhead.py [--base REV] [--repeats N] [--only CASE]
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import time
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import sakiyomi.search.searcher as current
from sakiyomi.games import load

ROOT = Path(__file__).resolve().parent.parent
SEARCHER = "src/sakiyomi/search/searcher.py"


def base_module(rev: str) -> types.ModuleType:
    """``searcher.py`` as of git revision ``rev``, loaded as its own module."""
    source = subprocess.run(["git", "show", f"{rev}:{SEARCHER}"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout
    name = "sakiyomi.search._searcher_base"
    spec = importlib.util.spec_from_loader(name, loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up
    exec(compile(source, f"<{rev}:{SEARCHER}>", "exec"), module.__dict__)
    return module


def _config(module: types.ModuleType, config: Any) -> Any:
    """The same settings as ``config`` in ``module``'s SearchConfig (fields both know)."""
    known = {f.name for f in dataclasses.fields(module.SearchConfig)}
    values = {f.name: getattr(config, f.name) for f in dataclasses.fields(config)}
    return module.SearchConfig(**{k: v for k, v in values.items() if k in known})


def run_once(module: types.ModuleType, make_game: Callable[[], Any], config: Any,
             depth: int) -> tuple[int, float]:
    searcher = module.Searcher(make_game(), _config(module, config))
    start = time.process_time()
    for d in range(1, depth + 1):
        searcher.search(d)
    return searcher.stats.nodes, time.process_time() - start


def cases() -> dict[str, tuple[Callable[[], Any], int, Any]]:
    c4 = "4453"
    out: dict[str, tuple[Callable[[], Any], int, Any]] = {
        "tictactoe-start-d9": (lambda: load("tictactoe", "start"), 9, current.SearchConfig()),
        "tictactoe-start-d9-no-tt": (lambda: load("tictactoe", "start"), 9,
                                     current.SearchConfig(tt=False)),
        "connect4-4453-d10": (lambda: load("connect4", c4), 10, current.SearchConfig()),
        "tree-b5-d7": (lambda: load("tree", "random:5,7,3"), 7, current.SearchConfig()),
    }
    here = Path(__file__).resolve().parent  # bench/chess.py must not shadow python-chess
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != here]
    try:
        from sakiyomi.protocols.chess_engine import CHESS_CONFIG
    except ImportError:
        return out
    fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    out["chess-italian-d5-selective"] = (lambda: load("chess", fen), 5, CHESS_CONFIG)
    try:
        from sakiyomi.protocols.shogi_engine import CHECK_EVERY
    except ImportError:
        return out
    shogi = current.SearchConfig(check_every=CHECK_EVERY, check_extension=True,
                                 null_move=True, lmr=True, futility=True)
    out["shogi-yagura-d4-selective"] = (lambda: load("shogi", SFEN), 4, shogi)
    return out


SFEN = "ln1g3nl/1r1sgkb2/p1pppp1pp/1p4p2/7P1/2P6/PPBPPPP1P/2S1K2R1/LN1G1GSNL b - 13"


def rules_cost(name: str, repeats: int = 5) -> float | None:
    """CPU seconds of one push + pop in the rules library itself (python-chess, cshogi),
    every legal move of the case's root position in turn: the per-move cost a search node
    pays at least, to which its own overhead is compared.
    """
    if name.startswith("chess"):
        import chess

        board = chess.Board(cases()[name][0]().board.fen())
        push, pop = board.push, board.pop
    elif name.startswith("shogi"):
        import cshogi

        board = cshogi.Board(SFEN)
        push, pop = board.push, board.pop
    else:
        return None
    moves = list(board.legal_moves)
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        for _ in range(max(1, 20_000 // len(moves))):
            for move in moves:
                push(move)
                pop()
        best = min(best, (time.process_time() - start) / (max(1, 20_000 // len(moves))
                                                         * len(moves)))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--base", default="main")
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--only")
    args = parser.parse_args()
    base = base_module(args.base)
    print(json.dumps({"load_before": os.getloadavg(), "base": args.base}), flush=True)
    ratios = []
    for name, (make_game, depth, config) in cases().items():
        if args.only and args.only not in name:
            continue
        builds = [("current", current), ("base", base)]
        for _, module in builds:  # warm-up (numba kernels, imports)
            run_once(module, make_game, config, depth)
        times: dict[str, list[float]] = {"current": [], "base": []}
        nodes: dict[str, int] = {}
        pair_ratios = []
        for i in range(args.repeats):
            pair: dict[str, float] = {}
            for label, module in builds if i % 2 == 0 else builds[::-1]:  # ABBA
                count, seconds = run_once(module, make_game, config, depth)
                nodes[label] = count
                times[label].append(seconds)
                pair[label] = seconds
            pair_ratios.append(pair["current"] / pair["base"])
        assert nodes["current"] == nodes["base"], nodes
        med = {k: statistics.median(v) for k, v in times.items()}
        ratio = statistics.median(pair_ratios)
        ratios.append(ratio)
        move_cost = rules_cost(name)
        if move_cost is not None:  # the search's cost per node in units of the library's move
            per_node = {k: v / nodes["current"] for k, v in med.items()}
            print(json.dumps({
                "case": name, "rules_push_pop_us": round(move_cost * 1e6, 3),
                "node_us_current": round(per_node["current"] * 1e6, 2),
                "node_us_base": round(per_node["base"] * 1e6, 2),
                "node_over_push_pop_current": round(per_node["current"] / move_cost, 1),
                "node_over_push_pop_base": round(per_node["base"] / move_cost, 1),
                "load": os.getloadavg()}), flush=True)
        print(json.dumps({
            "case": name, "nodes": nodes["current"], "repeats": args.repeats,
            "median_cpu_s_current": round(med["current"], 5),
            "median_cpu_s_base": round(med["base"], 5),
            "nodes_per_s_current": int(nodes["current"] / med["current"]),
            "anchor": f"searcher.py at {args.base}",
            "ratio_of_medians": round(med["current"] / med["base"], 4),
            "time_ratio": round(ratio, 4),
        }), flush=True)
    print(json.dumps({"summary": "median of paired CPU-time ratios, current / base",
                      "median_ratio": round(statistics.median(ratios), 4) if ratios else None,
                      "max_ratio": round(max(ratios), 4) if ratios else None,
                      "load_after": os.getloadavg()}), flush=True)


if __name__ == "__main__":
    main()
