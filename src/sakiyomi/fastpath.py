"""The compiled engine behind the CLI for kernel games (Connect Four): solve, analyze, play.

A game declaring ``KernelGame`` is searched by the numba template of
``sakiyomi.compiled.template`` with the same algorithm and settings as the Python
``Searcher`` (the results, node counts included, are the same; tests prove it), only faster.
When numba is missing, or ``engine="python"`` is asked for, the Python engine runs instead.
Results come back as the core's records (``SearchResult``, ``MoveValue``).
"""

from __future__ import annotations

import time
from typing import Any

from sakiyomi.compiled.template import CompiledSearch, RootResult, build, numba_available
from sakiyomi.game import Game, KernelGame, SearchShortcuts, SolverSettings
from sakiyomi.score import INF, result_word
from sakiyomi.search.limits import Limits, StopSignal
from sakiyomi.search.result import SearchResult, SearchStats
from sakiyomi.search.searcher import SearchConfig
from sakiyomi.search.solve import FULL_DEPTH, MoveValue, analyze, solve

ENGINES = ("auto", "compiled", "python")
# Solver settings for games with shortcuts (Pons's Connect Four solver: his probe order, a
# 2**23-slot table); the Python engine gets the same so that both count the same nodes.
SOLVER_CONFIG = SearchConfig(tt_capacity=1 << 23, killers=False, history=False,
                             bisection="pons")
NODES_PER_SECOND = 2_000_000  # conservative compiled speed, turns --time into a node budget

_searches: dict[tuple[object, ...], CompiledSearch] = {}


def solver_config(game: Game[Any]) -> SearchConfig:
    """The settings the CLI solves ``game`` with (either engine)."""
    if isinstance(game, SolverSettings):
        return SearchConfig(**game.solver_settings())  # type: ignore[arg-type]
    return SOLVER_CONFIG if isinstance(game, SearchShortcuts) else SearchConfig()


def compiled_search(game: Game[Any], config: SearchConfig, engine: str = "auto",
                    fresh: bool = True) -> CompiledSearch | None:
    """A compiled search for ``game`` (reset unless ``fresh=False``), or None when the game has
    no kernels, the Python engine was asked for, or numba is missing (said once).
    """
    if engine == "python" or not isinstance(game, KernelGame):
        return None
    if not numba_available():
        return None
    module_name, params = game.kernel_spec()
    cache_key = (module_name, tuple(sorted(params.items())), config)
    search = _searches.get(cache_key)
    if search is None:
        module = build(module_name, params)
        search = CompiledSearch(module, config, shortcuts=isinstance(game, SearchShortcuts))
        _searches[cache_key] = search
    elif fresh:
        search.reset()
    return search


def root_state(search: CompiledSearch, game: Game[Any]) -> tuple[Any, ...]:
    """The compiled engine's root state for a kernel game's position."""
    assert isinstance(game, KernelGame)
    state: tuple[Any, ...] = search.module.make_state(*game.kernel_state())
    return state


def _stats(counters: dict[str, int]) -> SearchStats:
    return SearchStats(**counters)


def solve_game(game: Game[Any], weak: bool = False, engine: str = "auto",
               config: SearchConfig | None = None, with_pv: bool = True,
               stop: StopSignal | None = None) -> SearchResult[Any]:
    """``search.solve.solve`` on the compiled engine when it can run, else the Python one
    (``stop`` reaches only the Python engine: compiled code stops by node budgets).
    """
    config = config if config is not None else solver_config(game)
    search = compiled_search(game, config, engine)
    if search is None:
        return solve(game, config, weak=weak, stop=stop)
    state = root_state(search, game)
    stop = StopSignal()
    root = search.solve(state, weak=weak, with_pv=with_pv)
    return SearchResult(root.value, root.best_move, root.pv, FULL_DEPTH, _stats(root.stats),
                        stop.elapsed(), extra={"result": result_word(root.value),
                                               "engine": "compiled"})


def search_game(game: Game[Any], limits: Limits, engine: str = "auto",
                config: SearchConfig | None = None) -> SearchResult[Any] | None:
    """Iterative deepening on the compiled engine within ``limits`` (None when the game has no
    kernels).  Time becomes a node budget per iteration from the speed measured so far; an
    iteration that never met its depth limit is an exact result and ends the search (near the
    end of a game the search thus turns into exact solving by itself).
    """
    config = config if config is not None else solver_config(game)
    search = compiled_search(game, config, engine, fresh=False)
    if search is None:
        return None
    state = root_state(search, game)
    start = time.perf_counter()
    before = search.stats
    first = before["nodes"]
    best: RootResult | None = None
    depth_done = 0
    nps = float(NODES_PER_SECOND)
    for depth in range(1, limits.max_depth + 1):
        used = search.stats["nodes"] - first
        budget = limits.nodes - used if limits.nodes is not None else 1 << 60
        if limits.time is not None:
            remaining = limits.time - (time.perf_counter() - start)
            if remaining <= 0:
                break
            budget = min(budget, int(remaining * nps))
        if budget <= 0:
            break
        search.new_search()
        search.set_node_limit(search.stats["nodes"] + budget)
        result = search.search(state, depth, -INF, INF)
        elapsed = time.perf_counter() - start
        if elapsed > 0.05:
            nps = max(nps, (search.stats["nodes"] - first) / elapsed)
        if not result.complete:
            break
        best, depth_done = result, depth
        if not result.extra["hit_horizon"]:
            break
    search.set_node_limit(None)
    counters = {name: count - before.get(name, 0) for name, count in search.stats.items()}
    seconds = time.perf_counter() - start
    if best is None:  # not even depth 1 fitted: any legal move
        moves = list(game.legal_moves())
        return SearchResult(0, moves[0], (moves[0],), 0, _stats(counters), seconds,
                            complete=False, extra={"engine": "compiled"})
    exact = not best.extra["hit_horizon"]
    return SearchResult(best.value, best.best_move, best.pv, depth_done, _stats(counters),
                        seconds, extra={"engine": "compiled", "exact": exact})


def analyze_game(game: Game[Any], engine: str = "auto", config: SearchConfig | None = None,
                 node_limit: int | None = None, stop: StopSignal | None = None,
                 ) -> tuple[list[MoveValue[Any]], int] | None:
    """Exact value of every legal move, best first, and the node count (as
    ``search.solve.analyze``); None if ``node_limit`` stopped the compiled search.
    """
    config = config if config is not None else solver_config(game)
    search = compiled_search(game, config, engine)
    if search is None:
        return analyze(game, None, config, stop=stop)
    search.set_node_limit(node_limit)
    values = search.analyze(root_state(search, game))
    search.set_node_limit(None)
    if not values:
        return None
    return [MoveValue(m, v, pv) for m, v, pv in values], search.stats["nodes"]
