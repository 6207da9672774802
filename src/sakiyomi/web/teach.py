"""The teaching view: record one algorithm's search of a small tree and step through it, next
to the same picture and node-count table as ``sakiyomi tree`` and ``sakiyomi compare``.

Only small positions are accepted (the seeds' worked trees, tic-tac-toe, random trees): the
recorder stops at ``WebLimits.trace_nodes`` nodes and the table is run only when the full tree
to the chosen depth is at most ``WebLimits.compare_nodes`` positions.
"""

from __future__ import annotations

from typing import Any

from sakiyomi.game import Game, GameError
from sakiyomi.games import load
from sakiyomi.search.algorithms import NAMES as ALGORITHMS
from sakiyomi.viz.commands import trace_picture
from sakiyomi.viz.compare import compare
from sakiyomi.viz.svg import render_svg
from sakiyomi.web.settings import WebLimits
from sakiyomi.web.steps import build_steps

TEACH_GAMES = ("tree", "tictactoe")

# The source documents' three worked examples (docs/index.md): seed 000's NegaMax tree, seed
# 002's figure 1 tree and its best-first sorted version (figures 5 and 6).
EXAMPLES: list[dict[str, Any]] = [
    {"label": "seed 000: NegaMax tree R → E1 E2 E3", "game": "tree",
     "position": "[[3,5,1],[7,3,-4],[-3,0,3]]", "algorithm": "negamax", "depth": None},
    {"label": "seed 002 fig. 1/4: αβ skips K", "game": "tree",
     "position": "max:[[[40,55],[60,20]],[[70,80],[65,50]]]",
     "algorithm": "alphabeta-minmax", "depth": None},
    {"label": "seed 002 fig. 5/6: sorted, αβ skips L E K J", "game": "tree",
     "position": "max:[[[65,50],[80,70]],[[55,40],[60,20]]]",
     "algorithm": "alphabeta-minmax", "depth": None},
]


def tree_size(game: Game[Any], depth: int | None, cap: int) -> int:
    """Positions in the full tree to ``depth`` plies, counted up to ``cap`` + 1."""
    count = 0

    def visit(left: int) -> None:
        nonlocal count
        count += 1
        if count > cap or left == 0 or game.outcome() is not None:
            return
        for move in list(game.legal_moves()):
            game.play(move)
            visit(left - 1)
            game.undo()
            if count > cap:
                return

    visit(depth if depth is not None else 1 << 20)
    return count


def _checked(name: str, algorithm: str, depth: int | None) -> None:
    if name not in TEACH_GAMES:
        raise GameError(f"the tree view takes {' or '.join(TEACH_GAMES)}, not {name!r}")
    if algorithm not in ALGORITHMS:
        raise GameError(f"unknown algorithm {algorithm!r}; choose from {', '.join(ALGORITHMS)}")
    if depth is not None and not 1 <= depth <= 12:
        raise GameError("depth must be 1 to 12")


def trace(name: str, position: str, algorithm: str, depth: int | None,
          web: WebLimits) -> dict[str, Any]:
    """The recorded search: the final picture, the step picture and its events."""
    _checked(name, algorithm, depth)
    picture, recorder = trace_picture(name, position, algorithm, depth, cap=web.trace_nodes,
                                      max_drawn=web.step_nodes,
                                      pruned_budget=web.step_nodes // 2)
    result: dict[str, Any] = {
        "title": picture.title, "picture": render_svg(picture), "nodes": recorder.nodes,
        "pv": [str(m) for m in picture.pv], "steps": None, "events": [],
        "note": None,
    }
    drawn = len(picture.drawn())
    if picture.summarised or drawn > web.step_nodes:
        result["note"] = (f"{picture.searched} nodes: too many to step through here "
                          f"(at most {web.step_nodes}); lower the depth to step")
        return result
    steps = build_steps(picture)
    result["steps"] = steps.svg
    result["events"] = steps.events
    return result


def node_table(name: str, position: str, depth: int | None, web: WebLimits) -> dict[str, Any]:
    """``sakiyomi compare``'s rows for the position, when its tree is small enough."""
    _checked(name, "minimax", depth)
    game = load(name, position)
    if game.outcome() is not None:
        raise GameError("the position is already finished: there is nothing to compare")
    size = tree_size(game.copy(), depth, web.compare_nodes)
    if size > web.compare_nodes:
        raise GameError(f"the full tree has more than {web.compare_nodes} positions: "
                        "lower the depth for the node-count table")
    report = compare(game, depth)
    return {"depth": report.depth, **report.as_dict()}
