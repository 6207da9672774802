"""Drivers: they decide which depths and windows to ask the one node search for.

Written once against the ``Engine`` protocol (``search/engine.py``), so they run unchanged on
the Python ``Searcher`` and on the compiled engine.  Iterative deepening is a generator of
``SearchInfo`` (one per completed iteration) so that the CLI, engines and progress displays
can watch without the search printing anything.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from typing import TypeVar

from sakiyomi.score import INF, is_decisive, plies_to_end
from sakiyomi.search.engine import Engine
from sakiyomi.search.limits import Limits, SearchAborted
from sakiyomi.search.result import SearchInfo, SearchResult

M = TypeVar("M", bound=Hashable)


def _info(searcher: Engine[M], depth: int, value: int) -> SearchInfo[M]:
    return SearchInfo(depth, value, searcher.pv, searcher.stats.copy(), searcher.stop.elapsed(),
                      searcher.hashfull())


def aspiration(searcher: Engine[M], depth: int, guess: int, delta: int) -> int:
    """Search ``depth`` in a window around ``guess``, widening it (×4) on a fail low/high."""
    if delta <= 0:
        return searcher.search(depth)
    alpha, beta = guess - delta, guess + delta
    while True:
        value = searcher.search(depth, alpha, beta)
        if value <= alpha:
            alpha = -INF if delta > 1 << 20 else value - delta
        elif value >= beta:
            beta = INF if delta > 1 << 20 else value + delta
        else:
            return value
        delta *= 4


def mtdf(searcher: Engine[M], depth: int, guess: int = 0) -> int:
    """MTD(f) (Plaat et al.): converge on the value with null-window searches only (needs a TT)."""
    lower, upper = -INF, INF
    value = guess
    while lower < upper:
        beta = value + 1 if value == lower else value
        value = searcher.search(depth, beta - 1, beta)
        if value < beta:
            upper = value
        else:
            lower = value
    return value


def iterative_deepening(
    searcher: Engine[M], limits: Limits, *, aspiration_delta: int = 0, use_mtdf: bool = False,
    start_depth: int = 1, past_soft: Callable[[], bool] | None = None,
) -> Iterator[SearchInfo[M]]:
    """Depth 1, 2, … until a limit, a proven result or the whole tree has been seen.

    Yields after every completed iteration; a search stopped by its signal yields nothing for
    the unfinished depth (the caller keeps the last completed one).  No iteration starts once
    ``past_soft()`` is true (a time plan's soft limit; the signal's deadline is the hard one).
    The node and time limits of ``limits`` are added to the searcher's signal (``tighten``).
    """
    searcher.stop.tighten(limits)
    value = 0
    for depth in range(start_depth, limits.max_depth + 1):
        searcher.new_search()
        try:
            if use_mtdf:
                value = mtdf(searcher, depth, value)
                searcher.search(depth, value - 1, value + 1)  # an open window fills the PV
            elif depth > start_depth:
                value = aspiration(searcher, depth, value, aspiration_delta)
            else:
                value = searcher.search(depth)
        except SearchAborted:
            return
        yield _info(searcher, depth, value)
        if not searcher.hit_horizon:
            return  # the whole tree fits in this depth: deeper searches cannot change anything
        if is_decisive(value) and plies_to_end(value) <= depth:
            return
        if searcher.stop.should_stop(searcher.stats.nodes):
            return
        if past_soft is not None and past_soft():
            return


def run(
    searcher: Engine[M], limits: Limits, *, aspiration_delta: int = 0, use_mtdf: bool = False,
    on_info: Callable[[SearchInfo[M]], object] | None = None,
    past_soft: Callable[[], bool] | None = None,
) -> SearchResult[M]:
    """Iterate to the limits and return the last completed iteration as a result.

    ``on_info`` (a callable taking SearchInfo) sees every iteration, e.g. for progress lines.
    If not even depth 1 finished, the result holds the first legal move and ``complete=False``.
    """
    last: SearchInfo[M] | None = None
    horizon = True  # the last completed iteration's (an aborted one leaves no reliable flag)
    for info in iterative_deepening(
        searcher, limits, aspiration_delta=aspiration_delta, use_mtdf=use_mtdf,
        past_soft=past_soft,
    ):
        last = info
        horizon = searcher.hit_horizon
        if on_info is not None:
            on_info(info)
    if last is None:
        moves = searcher.game.legal_moves()
        first = moves[0] if moves else None
        return SearchResult(0, first, (), 0, searcher.stats.copy(), searcher.stop.elapsed(),
                            complete=False)
    best = last.pv[0] if last.pv else searcher.root_best_move
    stopped = last.depth < limits.max_depth and horizon
    return SearchResult(last.value, best, last.pv, last.depth, searcher.stats.copy(),
                        searcher.stop.elapsed(), complete=not stopped,
                        extra={"exact": not horizon})
