"""Perfect reading (exact value) and win/loss reading (AND/OR), and the value of every move.

Both search to the end of the game with the one node search.  Exact solving narrows the value
with null-window searches (bisection, trying 0 first like Pons's solver); weak solving asks a
single question with the window (-1, 1): win, draw or loss (the seeds' 必勝読み).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Generic, TypeVar

from sakiyomi.game import ClosedForm, Game, ScoreBounds
from sakiyomi.score import MAX_PLY, WIN, sign
from sakiyomi.search.limits import StopSignal
from sakiyomi.search.result import SearchResult, SearchStats
from sakiyomi.search.searcher import SearchConfig, Searcher

M = TypeVar("M", bound=Hashable)

FULL_DEPTH = MAX_PLY - 1


def _bounds(game: object) -> tuple[int, int]:
    if isinstance(game, ScoreBounds):
        return game.score_bounds()
    return -WIN, WIN


def exact_value(searcher: Searcher[M]) -> int:
    """The exact game-theoretic value of the searcher's root, by null-window bisection.

    Each probe asks "is the value above ``mid``?" with the window (mid, mid+1); a fail-soft
    answer r moves a bound straight to r.  The first probe is at 0 (most positions are close
    to a draw), then bisection of what remains; or Pons's order (``bisection="pons"``).
    """
    lo, hi = _bounds(searcher.game)
    return bisect(searcher, lo, hi)


def bisect(searcher: Searcher[M], lo: int, hi: int) -> int:
    """The root value clamped to [lo, hi], by null-window probes (see ``exact_value``)."""
    pons = searcher.config.bisection == "pons"
    mid = next_probe(lo, hi) if pons else 0 if lo <= 0 < hi else lo + (hi - lo) // 2
    while lo < hi:
        r = searcher.search(FULL_DEPTH, mid, mid + 1)
        if r > mid:
            lo = min(r, hi)
        else:
            hi = max(r, lo)
        mid = next_probe(lo, hi) if pons else lo + (hi - lo) // 2
    return lo


def _half(x: int) -> int:
    """X / 2 rounded toward zero (C division)."""
    return -(-x // 2) if x < 0 else x // 2


def next_probe(lo: int, hi: int) -> int:
    """Pons's probe (SearchConfig.bisection="pons"): the midpoint, moved out to half of the
    bound on its side of 0 when that is further out; lo <= probe < hi.
    """
    mid = lo + (hi - lo) // 2
    if mid <= 0 and _half(lo) < mid:
        return _half(lo)
    if mid >= 0 and _half(hi) > mid:
        return _half(hi)
    return mid


def solve(
    game: Game[M], config: SearchConfig = SearchConfig(), *, weak: bool = False,
    stop: StopSignal | None = None, searcher: Searcher[M] | None = None,
) -> SearchResult[M]:
    """Solve ``game`` exactly (or win/draw/loss with ``weak``); value from the side to move.

    The returned value is the internal score (see ``sakiyomi.score``); for weak solves it is
    -1, 0 or +1.  ``result.extra['result']`` is 'win', 'draw' or 'loss'.  A game with a
    ``ClosedForm`` answers at the root without search when its formula applies (0 nodes).
    """
    known: SearchResult[M] | None = _closed_form(
        searcher.game if searcher is not None else game, weak)
    if known is not None:
        return known
    if searcher is None:
        searcher = Searcher(game.copy(), config, stop=stop)
    if weak and searcher.config.bisection == "pons":
        value = bisect(searcher, -1, 1)  # Pons's weak solver: null windows inside [-1, 1]
        best = searcher.root_best_move
        pv = searcher.pv if searcher.pv else ((best,) if best is not None else ())
    elif weak:
        value = sign(searcher.search(FULL_DEPTH, -1, 1))
        best = searcher.root_best_move
        pv = searcher.pv if searcher.pv else ((best,) if best is not None else ())
    else:
        value = exact_value(searcher)
        searcher.search(FULL_DEPTH, value - 1, value + 1)  # an open window around v: its PV
        pv = searcher.pv
        best = pv[0] if pv else searcher.root_best_move
    word = ("loss", "draw", "win")[sign(value) + 1]
    return SearchResult(value, best, pv, FULL_DEPTH, searcher.stats.copy(),
                        searcher.stop.elapsed(), extra={"result": word})


def _closed_form(game: object, weak: bool) -> SearchResult[M] | None:
    """The result by the game's formula (``ClosedForm``), or None when it leaves the search."""
    if not isinstance(game, ClosedForm):
        return None
    known = game.closed_form()
    if known is None:
        return None
    value, best = known
    word = ("loss", "draw", "win")[sign(value) + 1]
    return SearchResult(sign(value) if weak else value, best, (best,) if best is not None else (),
                        FULL_DEPTH, SearchStats(), 0.0,
                        extra={"result": word, "closed_form": True})


@dataclass(frozen=True, slots=True)
class MoveValue(Generic[M]):
    """One root move and its value for the side to move at the root."""

    move: M
    value: int
    pv: tuple[M, ...]


def analyze(
    game: Game[M], depth: int | None = None, config: SearchConfig = SearchConfig(),
    *, stop: StopSignal | None = None,
) -> tuple[list[MoveValue[M]], int]:
    """The value of every legal move (searched to ``depth``, or solved exactly when None),
    best first, and the total node count.  One table is shared by all the moves.
    """
    position = game.copy()
    searcher: Searcher[M] = Searcher(position, config, stop=stop)
    values: list[MoveValue[M]] = []
    for move in list(position.legal_moves()):
        position.play(move)
        known: SearchResult[M] | None = _closed_form(position, False) if depth is None else None
        if known is not None:  # the game's formula (ClosedForm), as in solve()
            values.append(MoveValue(move, -known.value, (move, *known.pv)))
            position.undo()
            continue
        if depth is None:
            value = -exact_value(searcher)
            searcher.search(FULL_DEPTH, -value - 1, -value + 1)
        else:
            value = -searcher.search(max(0, depth - 1))
        values.append(MoveValue(move, value, (move, *searcher.pv)))
        position.undo()
    values.sort(key=lambda mv: -mv.value)
    return values, searcher.stats.nodes
