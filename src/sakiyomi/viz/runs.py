"""Run any of the CLI's algorithms on a game with a tracer attached (pictures, comparisons).

One table of runners so ``tree`` and ``compare`` name and run the algorithms the same way as
``search`` does (DESIGN.md §8 algorithm names).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from sakiyomi.game import Game
from sakiyomi.score import MAX_PLY
from sakiyomi.search import textbook
from sakiyomi.search.drivers import run
from sakiyomi.search.limits import Limits
from sakiyomi.search.result import SearchStats
from sakiyomi.search.searcher import SearchConfig, Searcher
from sakiyomi.search.tracing import NULL_TRACER, Tracer
from sakiyomi.viz.trace import View

ALGORITHMS = (
    "minimax", "negamax", "alphabeta-minmax-hard", "alphabeta-minmax", "alphabeta-hard",
    "alphabeta", "negascout", "and-or", "mtdf", "pvs",
)
# Values for the root's side to move at every node (and-or: 1 = forced win for it, else 0).
MINMAX_FORM = frozenset({"minimax", "alphabeta-minmax-hard", "alphabeta-minmax", "and-or"})
WINDOWED = frozenset(ALGORITHMS) - {"minimax", "negamax", "and-or"}
SEARCHER_BASED = frozenset({"mtdf", "pvs"})


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one traced run found: value (side to move at the root, or the root player for
    MinMax forms — the same thing at the root), PV, counters.
    """

    value: int
    pv: tuple[Hashable, ...]
    nodes: int
    leaves: int
    stats: SearchStats | None  # the Searcher's full counters (pvs, mtdf)
    depth: int


def view_of(algorithm: str) -> View:
    """How the algorithm reports values: MinMax form or NegaMax form."""
    return "minmax" if algorithm in MINMAX_FORM else "negamax"


def run_algorithm(
    game: Game[Any], algorithm: str, depth: int | None, tracer: Tracer = NULL_TRACER,
    config: SearchConfig | None = None,
) -> Outcome:
    """Search ``game`` itself (restored afterwards) with ``algorithm`` to ``depth`` plies
    (None: to the end of the game); the Searcher-based ones iterate 1..depth.
    """
    limit = depth if depth is not None else MAX_PLY - 1
    if algorithm in SEARCHER_BASED:
        searcher: Searcher[Any] = Searcher(game, config or SearchConfig(), tracer=tracer)
        result = run(searcher, Limits(depth=limit), use_mtdf=algorithm == "mtdf")
        return Outcome(result.value, tuple(result.pv), result.stats.nodes,
                       result.stats.leaves, result.stats, result.depth)
    runners: dict[str, Callable[[], textbook.TextbookResult[Any]]] = {
        "minimax": lambda: textbook.minimax(game, limit, tracer=tracer),
        "negamax": lambda: textbook.negamax(game, limit, tracer=tracer),
        "alphabeta-minmax-hard": lambda: textbook.alphabeta_minmax(
            game, limit, fail_soft=False, tracer=tracer),
        "alphabeta-minmax": lambda: textbook.alphabeta_minmax(game, limit, tracer=tracer),
        "alphabeta-hard": lambda: textbook.alphabeta(game, limit, fail_soft=False,
                                                     tracer=tracer),
        "alphabeta": lambda: textbook.alphabeta(game, limit, tracer=tracer),
        "negascout": lambda: textbook.negascout(game, limit, tracer=tracer),
        "and-or": lambda: textbook.and_or(game, limit, tracer=tracer),
    }
    if algorithm not in runners:
        raise ValueError(f"unknown algorithm {algorithm!r}; choose from {', '.join(ALGORITHMS)}")
    tb = runners[algorithm]()
    return Outcome(tb.value, tuple(tb.pv), tb.nodes, tb.leaves, None, limit)


class CountingTracer:
    """Counts cut-offs and re-searches of the textbook functions (which keep no such stats)."""

    enabled = True

    def __init__(self) -> None:
        self.cutoffs = 0
        self.researches = 0
        self.deepest = 0

    def enter(self, ply: int, move: object | None, depth: int, alpha: int, beta: int) -> None:
        """Keep the deepest ply (the result itself counts nodes)."""
        if ply > self.deepest:
            self.deepest = ply

    def leave(self, ply: int, value: int, bound: object) -> None:
        """Not counted."""

    def cutoff(self, ply: int, kind: str, pruned: Sequence[object]) -> None:
        """One more cut-off."""
        self.cutoffs += 1

    def tt_hit(self, ply: int, value: int, bound: object) -> None:
        """Textbook functions have no table."""

    def research(self, ply: int, move: object) -> None:
        """One more re-search."""
        self.researches += 1
