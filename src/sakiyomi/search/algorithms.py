"""The algorithm registry: every search algorithm the project names, one entry each.

The CLI (``--algorithm`` choices and runs), ``compare``, ``tree`` and the docs generator read
this table, so adding an algorithm is adding one ``Algorithm`` here.  An entry says what the
algorithm is (summary, MinMax or NegaMax form, whether it takes a window) and how to run it:
textbook algorithms are one function call on the game; Searcher-based ones are a driver over
the production node search (``sakiyomi.search.drivers``); Monte Carlo tree search
(``sakiyomi.search.mcts``) is a family of its own: no depth, no window, iterations instead.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Literal

from sakiyomi.game import Game
from sakiyomi.score import MAX_PLY
from sakiyomi.search import textbook
from sakiyomi.search.drivers import run
from sakiyomi.search.engine import Engine
from sakiyomi.search.limits import Limits, StopSignal
from sakiyomi.search.mcts import MCTS
from sakiyomi.search.result import SearchInfo, SearchResult, SearchStats
from sakiyomi.search.searcher import SearchConfig, Searcher
from sakiyomi.search.tracing import NULL_TRACER, Tracer

Form = Literal["minmax", "negamax"]
TextbookRunner = Callable[[Game[Any], int, Tracer], textbook.TextbookResult[Any]]
InfoCallback = Callable[[SearchInfo[Any]], None]
DriverRunner = Callable[[Engine[Any], Limits, "InfoCallback | None"], SearchResult[Any]]
Progress = Callable[[SearchInfo[Any]], object]
MonteCarloRunner = Callable[[MCTS[Any], "int | None", "Progress | None"], SearchResult[Any]]
MCTS_ITERATIONS = 10_000  # what ``Algorithm.run`` gives MCTS (it stops sooner once proven)
# ... and at most this many nodes (playout plies included): chess playouts run to hundreds of
# plies on python-chess, so 10,000 of them would take minutes in `compare chess`.
MCTS_NODES = 20_000


@dataclass(frozen=True, slots=True)
class AlgorithmRun:
    """What one run found: value for the root's side to move (MinMax forms report the root
    player's view, the same thing at the root), PV, node counts and the depth reached.
    """

    value: int
    pv: tuple[Hashable, ...]
    nodes: int
    leaves: int
    stats: SearchStats | None  # the Searcher's full counters (Searcher-based algorithms)
    depth: int


@dataclass(frozen=True, slots=True)
class Algorithm:
    """One registry entry: what the algorithm is, and how to run it.

    Exactly one of ``textbook`` (a call on the game, to a depth, with a tracer), ``driver``
    (iterative driving of an engine within limits: any ``search.engine.Engine``) and
    ``monte_carlo`` (running a ``search.mcts.MCTS`` for some iterations) is set.
    """

    name: str
    summary: str
    form: Form  # "minmax": values for the root player at every node; "negamax": side to move
    windowed: bool  # searches inside an (α, β) window, so pictures show windows
    textbook: TextbookRunner | None = None
    driver: DriverRunner | None = None
    monte_carlo: MonteCarloRunner | None = None

    def __post_init__(self) -> None:
        ways = (self.textbook, self.driver, self.monte_carlo)
        if sum(way is not None for way in ways) != 1:
            raise ValueError(f"algorithm {self.name!r} needs exactly one of textbook, driver, "
                             "monte_carlo")

    @property
    def searcher_based(self) -> bool:
        """True when the algorithm drives the production Searcher (TT, ordering, limits)."""
        return self.driver is not None

    @property
    def traceable(self) -> bool:
        """True when a tracer sees its node search (``tree`` pictures of the αβ family)."""
        return self.monte_carlo is None

    def run(self, game: Game[Any], depth: int | None, tracer: Tracer = NULL_TRACER,
            config: SearchConfig | None = None) -> AlgorithmRun:
        """Search ``game`` itself (restored afterwards) to ``depth`` plies (None: to the end
        of the game); Searcher-based algorithms iterate 1..depth with ``config``.  MCTS has
        no depth: it plays every line out and runs ``MCTS_ITERATIONS`` iterations or
        ``MCTS_NODES`` nodes (fewer once its solver proves the root), on the Python walker,
        with the default ``MCTSConfig``.
        """
        if self.monte_carlo is not None:
            if tracer.enabled:
                raise ValueError(f"{self.name} cannot be traced node by node")
            search: MCTS[Any] = MCTS(game, stop=StopSignal(nodes=MCTS_NODES))
            mc = self.monte_carlo(search, MCTS_ITERATIONS, None)
            return AlgorithmRun(mc.value, tuple(mc.pv), mc.stats.nodes, mc.stats.leaves,
                                mc.stats, mc.depth)
        limit = depth if depth is not None else MAX_PLY - 1
        if self.driver is not None:
            searcher: Searcher[Any] = Searcher(game, config or SearchConfig(), tracer=tracer)
            result = self.driver(searcher, Limits(depth=limit), None)
            return AlgorithmRun(result.value, tuple(result.pv), result.stats.nodes,
                                result.stats.leaves, result.stats, result.depth)
        assert self.textbook is not None
        tb = self.textbook(game, limit, tracer)
        return AlgorithmRun(tb.value, tuple(tb.pv), tb.nodes, tb.leaves, None, limit)


def _pvs(engine: Engine[Any], limits: Limits, on_info: InfoCallback | None
         ) -> SearchResult[Any]:
    return run(engine, limits, on_info=on_info)


def _mtdf(engine: Engine[Any], limits: Limits, on_info: InfoCallback | None
          ) -> SearchResult[Any]:
    return run(engine, limits, use_mtdf=True, on_info=on_info)


_ENTRIES = (
    Algorithm("minimax", "MinMax with two branches: MAX takes the largest child, MIN the "
              "smallest (seed 002)", "minmax", False,
              textbook=lambda g, d, t: textbook.minimax(g, d, tracer=t)),
    Algorithm("negamax", "NegaMax: a node's value is the largest negated child value "
              "(seed 000)", "negamax", False,
              textbook=lambda g, d, t: textbook.negamax(g, d, tracer=t)),
    Algorithm("alphabeta-minmax-hard", "αβ in MinMax form, fail-hard (values clamped to the "
              "window)", "minmax", True,
              textbook=lambda g, d, t: textbook.alphabeta_minmax(g, d, fail_soft=False,
                                                                 tracer=t)),
    Algorithm("alphabeta-minmax", "αβ in MinMax form, fail-soft", "minmax", True,
              textbook=lambda g, d, t: textbook.alphabeta_minmax(g, d, tracer=t)),
    Algorithm("alphabeta-hard", "αβ in NegaMax form (child window (-β, -α)), fail-hard",
              "negamax", True,
              textbook=lambda g, d, t: textbook.alphabeta(g, d, fail_soft=False, tracer=t)),
    Algorithm("alphabeta", "αβ in NegaMax form, fail-soft", "negamax", True,
              textbook=lambda g, d, t: textbook.alphabeta(g, d, tracer=t)),
    Algorithm("negascout", "NegaScout: null-window scouts after the first move, re-search "
              "inside the window", "negamax", True,
              textbook=lambda g, d, t: textbook.negascout(g, d, tracer=t)),
    Algorithm("and-or", "win/loss reading as an AND/OR tree: 1 if the side to move forces a "
              "win within the depth (seed 001)", "minmax", False,
              textbook=lambda g, d, t: textbook.and_or(g, d, tracer=t)),
    Algorithm("mtdf", "MTD(f): null-window searches of the Searcher converge on the value, "
              "iterative deepening", "negamax", True, driver=_mtdf),
    Algorithm("pvs", "the production Searcher: PVS, transposition table, move ordering, "
              "iterative deepening", "negamax", True, driver=_pvs),
    Algorithm("mcts", "Monte Carlo tree search: UCT over random playouts, MCTS-Solver, no "
              "evaluation function (iterations, not depth)", "negamax", False,
              monte_carlo=lambda search, iterations, on_info: search.search(iterations,
                                                                            on_info)),
)

ALGORITHMS: dict[str, Algorithm] = {a.name: a for a in _ENTRIES}
NAMES: tuple[str, ...] = tuple(ALGORITHMS)
TEXTBOOK: tuple[Algorithm, ...] = tuple(a for a in _ENTRIES if a.textbook is not None)
SEARCHER_BASED: tuple[Algorithm, ...] = tuple(a for a in _ENTRIES if a.searcher_based)
MONTE_CARLO: tuple[Algorithm, ...] = tuple(a for a in _ENTRIES if a.monte_carlo is not None)
DEFAULT = "pvs"


def get(name: str) -> Algorithm:
    """The entry called ``name``; ValueError naming the choices for an unknown one."""
    try:
        return ALGORITHMS[name]
    except KeyError:
        raise ValueError(f"unknown algorithm {name!r}; choose from {', '.join(NAMES)}") from None
