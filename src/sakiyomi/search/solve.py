"""Perfect reading (exact value) and win/loss reading (AND/OR), and the value of every move.

Both search to the end of the game with the one node search.  Exact solving narrows the value
with null-window searches (bisection, trying 0 first like Pons's solver); weak solving asks a
single question with the window (-1, 1): win, draw or loss (the seeds' 必勝読み).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

from sakiyomi.game import ClosedForm, Game, ScoreBounds, SolveTable, capable
from sakiyomi.probes import FULL_DEPTH as FULL_DEPTH
from sakiyomi.probes import l_bisect, l_next_probe, l_solve
from sakiyomi.score import INF, SOLVED, WIN, from_tt, sign
from sakiyomi.search.engine import Engine
from sakiyomi.search.errors import at_root, unwind
from sakiyomi.search.limits import Limits, SearchAborted, StopSignal
from sakiyomi.search.result import SearchResult, SearchStats
from sakiyomi.search.searcher import SearchConfig, Searcher
from sakiyomi.tt import Bound

M = TypeVar("M", bound=Hashable)


def _bounds(game: object) -> tuple[int, int]:
    if capable(game, ScoreBounds):
        return cast(ScoreBounds, game).score_bounds()
    return -WIN, WIN


@dataclass(slots=True)
class Interval:
    """What a solve knows so far: lo <= value <= hi, a root move that reaches lo, and (when
    stopped while walking the principal variation) the line walked until then.
    """

    lo: int
    hi: int
    move: object = None
    line: tuple[object, ...] = ()


def exact_value(searcher: Engine[M], known: Interval | None = None) -> int:
    """The exact game-theoretic value of the searcher's root, by null-window bisection
    (``sakiyomi.probes.l_bisect``: 0 first, or Pons's order with ``bisection="pons"``).
    """
    lo, hi = _bounds(searcher.game)
    return bisect(searcher, lo, hi, known)


class _Line:
    """The Python hooks' side of ``sakiyomi.probes``: an engine's root search, the interval
    (and the move reaching its lower bound) kept up to date after every probe, and the walk of
    the principal variation on the engine's game (``l_walk``: its move lists per ply, the move
    ``try_move`` found proved for the position it searched, and the moves it played, all taken
    back by ``finish`` or ``unwind``), as the compiled ``line_*`` hooks do it.
    """

    __slots__ = ("engine", "kept", "known", "line", "lists")

    def __init__(self, engine: Engine[Any], known: Interval) -> None:
        self.engine = engine
        self.known = known
        self.lists: list[list[Any]] = []
        self.line: list[Any] = []
        self.kept: Any = None

    def probe(self, depth: int, alpha: int, beta: int) -> int:
        return self.engine.search(depth, alpha, beta)

    def proved(self, lo: int, hi: int, up: bool) -> None:
        known = self.known
        known.lo, known.hi = lo, hi
        if up:
            known.move = self.engine.root_best_move

    def moves(self, ply: int, value: int) -> tuple[int, bool]:
        engine = self.engine
        game = engine.game
        kept, self.kept = self.kept, None
        del self.lists[ply:]
        moves = ([] if game.outcome() is not None else engine.node_moves()
                 if isinstance(engine, Searcher) else list(game.legal_moves()))
        self.lists.append(moves)
        first = self.known.move if ply == 0 else kept
        proven = True
        if first is None:
            first, lower = _entry_lower(engine, ply)
            proven = lower >= value
        if first is None or first not in moves:
            return len(moves), False
        moves.remove(first)
        moves.insert(0, first)
        return len(moves), proven

    def try_move(self, ply: int, i: int, alpha: int, beta: int) -> int:
        engine = self.engine
        game = engine.game
        game.play(self.lists[ply][i])
        try:
            move, lower = _entry_lower(engine, ply + 1)
            self.kept = move if lower >= alpha else None
            return engine.search(FULL_DEPTH - ply - 1, alpha, beta, ply + 1)
        finally:
            game.undo()

    def advance(self, ply: int, i: int) -> None:
        move = self.lists[ply][i]
        self.engine.game.play(move)
        self.line.append(move)

    def finish(self, n: int) -> None:
        line = tuple(self.line)
        self.unwind()
        if isinstance(self.engine, Searcher):
            self.engine.keep_line(line)

    def unwind(self) -> None:
        """Take the walk's moves back (also when a search of the walk was stopped)."""
        game = self.engine.game
        for _ in self.line:
            game.undo()
        self.line.clear()


def _entry_lower(engine: Engine[Any], ply: int) -> tuple[Any, int]:
    """(move, lower bound) of the table entry of the engine's game position at ``ply`` (the
    compiled ``t_entry_lower``): the bound only when solved (-INF: none, or an upper bound;
    move None: no entry).
    """
    table = getattr(engine, "tt", None)
    entry = table.probe(engine.game.key()) if table is not None else None
    if entry is None:
        return None, -INF
    if entry.depth < SOLVED or entry.bound == Bound.UPPER:
        return entry.move, -INF
    return entry.move, from_tt(entry.value, ply)


def bisect(searcher: Engine[M], lo: int, hi: int, known: Interval | None = None) -> int:
    """The root value clamped to [lo, hi], by null-window probes (``sakiyomi.probes``).

    ``known`` (optional) is kept up to date after every probe, so a caller whose search is
    stopped (SearchAborted) still has the interval proved so far.
    """
    known = known if known is not None else Interval(lo, hi)
    known.lo, known.hi = lo, hi
    config = searcher.config
    value = l_bisect(_Line(searcher, known), lo, hi, config.bisection == "pons",
                     config.guess_depth)[0]
    return value


def next_probe(lo: int, hi: int) -> int:
    """Pons's probe (SearchConfig.bisection="pons"): the midpoint, moved out to half of the
    bound on its side of 0 when that is further out; lo <= probe < hi.
    """
    return l_next_probe(lo, hi)


def _line(searcher: Engine[Any], known: Interval, weak: bool, with_pv: bool) -> int:
    """The solving line (``sakiyomi.probes.l_solve``) on ``searcher``: the value; raises
    SearchAborted when stopped, with ``known`` holding what was proved.  An engine that runs
    the whole line itself (``solve_line``: the compiled engine, in one call) is asked to.
    """
    whole = getattr(searcher, "solve_line", None)
    if whole is not None:
        value: int = whole(known, weak, with_pv)
        return value
    config = searcher.config
    table = getattr(searcher, "tt", None)  # the Python Searcher's (TranspositionTable)
    region = (table.region(cast(SolveTable, searcher.game).solve_table_bits())
              if table is not None and capable(searcher.game, SolveTable)
              else contextlib.nullcontext())
    line = _Line(searcher, known)
    with region:
        try:
            return l_solve(line, known.lo, known.hi, weak, config.bisection == "pons",
                           with_pv, config.guess_depth)[0]
        except SearchAborted:
            known.line = tuple(line.line)  # the walk's moves so far (none: stopped before)
            raise
        finally:
            line.unwind()


def solve(
    game: Game[M], config: SearchConfig = SearchConfig(), *, weak: bool = False,
    stop: StopSignal | None = None, searcher: Engine[M] | None = None, with_pv: bool = True,
) -> SearchResult[M]:
    """Solve ``game`` exactly (or win/draw/loss with ``weak``); value from the side to move.

    ``searcher``: the engine to run on (``sakiyomi.engines.engine_for``; by default a Python
    ``Searcher`` over a copy of ``game``).  The returned value is the internal score (see
    ``sakiyomi.score``); for weak solves it is -1, 0 or +1.  ``result.extra['result']`` is
    'win', 'draw' or 'loss'.  ``with_pv=False`` skips the walk that finds the
    principal variation of an exact solve (node counts then cover the value alone, as Pons
    counts them).

    When the stop signal ends it first, the result has ``complete=False``, ``extra['result']``
    'unknown', the interval proved so far in ``extra['lower']``/``extra['upper']`` (the value
    field holds the lower bound) and, when a probe proved the lower bound, the move that did.
    A game with a ``ClosedForm`` answers without search when its formula applies (0 nodes).
    """
    formula: SearchResult[M] | None = _closed_form(
        searcher.game if searcher is not None else game, weak)
    if formula is not None:  # the game's formula (ClosedForm): no search at all
        return formula
    if searcher is None:
        searcher = Searcher(game.copy(), config, stop=stop)
    known = Interval(*((-1, 1) if weak else _bounds(searcher.game)))
    try:
        value = _line(searcher, known, weak, with_pv)
        if weak or with_pv:
            pv = searcher.pv
            best = searcher.root_best_move
            if weak:
                pv = pv if pv else ((best,) if best is not None else ())
            else:
                best = pv[0] if pv else best
        else:
            pv = ()
            best = None
    except SearchAborted:
        if known.lo == known.hi and not weak:  # stopped in the PV walk: the value stands
            line = cast(tuple[M, ...], known.line)
            best = line[0] if line else cast(M | None, known.move)
            return SearchResult(known.lo, best, line, FULL_DEPTH,
                                searcher.stats.copy(), searcher.stop.elapsed(),
                                extra={"result": ("loss", "draw", "win")[sign(known.lo) + 1]})
        move = cast(M | None, known.move)
        return SearchResult(known.lo, move, (move,) if move is not None else (), FULL_DEPTH,
                            searcher.stats.copy(), searcher.stop.elapsed(), complete=False,
                            extra={"result": "unknown", "lower": known.lo,
                                   "upper": known.hi})
    word = ("loss", "draw", "win")[sign(value) + 1]
    return SearchResult(value, best, pv, FULL_DEPTH, searcher.stats.copy(),
                        searcher.stop.elapsed(), extra={"result": word})


def _closed_form(game: Game[M], weak: bool) -> SearchResult[M] | None:
    """The result by the game's formula (``ClosedForm``), or None when it leaves the search."""
    if not capable(game, ClosedForm):
        return None
    known = cast(ClosedForm[M], game).closed_form()
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


def move_values(searcher: Engine[M], depth: int | None = None) -> list[MoveValue[M]]:
    """The value of every legal move of the engine's root, best first: each child searched to
    ``depth - 1`` plies with an open window, or solved exactly when ``depth`` is None.  Win
    distances count from the root.  Raises SearchAborted if the engine is stopped.
    """
    return _move_values(searcher, depth)[0]


def _move_values(searcher: Engine[M], depth: int | None) -> tuple[list[MoveValue[M]], bool]:
    """``move_values`` and whether any child's search met its depth limit."""
    position = searcher.game
    values: list[MoveValue[M]] = []
    horizon = False
    for move in list(position.legal_moves()):
        position.play(move)
        try:
            formula: SearchResult[M] | None = (
                _closed_form(position, False) if depth is None else None)
            if formula is not None:  # the game's formula (ClosedForm), as in solve()
                child, pv = formula.value, formula.pv
            elif depth is None:  # a solve of the child: the bisection, then the PV walk
                child = _line(searcher, Interval(*_bounds(position)), False, True)
                pv = searcher.pv
            else:
                child = searcher.search(max(0, depth - 1))
                pv = searcher.pv
            horizon = horizon or searcher.hit_horizon
        except BaseException as exc:  # the unwinding rule (search.errors)
            raise at_root(unwind(exc, move, position, position.undo), position)  # noqa: B904
        position.undo()
        values.append(MoveValue(move, from_tt(-child, 1), (move, *pv)))
    values.sort(key=lambda mv: -mv.value)
    return values, horizon


def analyze(
    game: Game[M], depth: int | None = None, config: SearchConfig = SearchConfig(),
    *, stop: StopSignal | None = None, searcher: Engine[M] | None = None,
) -> tuple[list[MoveValue[M]], int]:
    """The value of every legal move (searched to ``depth``, or solved exactly when None),
    best first, and the total node count.  One table is shared by all the moves.
    ``searcher``: the engine to run on (default: a Python ``Searcher`` over a copy of ``game``).
    """
    if searcher is None:
        searcher = Searcher(game.copy(), config, stop=stop)
    values = move_values(searcher, depth)
    return values, searcher.stats.nodes


def multipv(
    searcher: Engine[M], limits: Limits, *, past_soft: Callable[[], bool] | None = None,
) -> Iterator[tuple[int, list[MoveValue[M]], SearchStats]]:
    """MultiPV by iterative deepening: after each completed depth, every root move's value and
    line (best first) and the counters so far.  Ends at the limits, once ``past_soft()`` is
    true (a time plan's soft limit), when the whole tree has been seen or when the engine is
    stopped (the unfinished depth is dropped).
    """
    for depth in range(1, limits.max_depth + 1):
        searcher.new_search()
        try:
            values, horizon = _move_values(searcher, depth)
        except SearchAborted:
            return
        yield depth, values, searcher.stats.copy()
        if not horizon or searcher.stop.should_stop(searcher.stats.nodes):
            return
        if past_soft is not None and past_soft():
            return
