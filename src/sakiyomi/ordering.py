"""Move ordering: TT move first, then game hints, killer moves and the history heuristic.

Good ordering is what makes αβ approach its b^(d/2) best case (seed 002).  The seeds' other
idea, a shallow search first and then a sort by its values (seed 003), is the Searcher's
``presort_depth`` option, because it needs the search itself.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Sequence
from typing import Generic, TypeVar, cast

M = TypeVar("M", bound=Hashable)

TT_BONUS = 1 << 40
KILLER_BONUS = 1 << 20
HINT_SCALE = KILLER_BONUS * 4  # a hint step outranks killers (captures before quiet killers)
COUNTER_BONUS = KILLER_BONUS // 2  # the reply that refuted the previous move: behind killers
HISTORY_LIMIT = KILLER_BONUS // 4  # |history| stays below the counter-move bonus


def _same(value: M) -> M:
    """A move (or a list of moves) as its own id: games without ``MoveIds``."""
    return value


class MoveOrderer(Generic[M]):
    """Sorts moves for one search; killers and history persist across iterations."""

    def __init__(
        self,
        hints: Callable[[Sequence[M]], Sequence[int]] | None = None,
        killers: bool = True,
        history: bool = True,
        *,
        malus: bool = False,
        counters: bool = False,
        ids: tuple[Callable[[M], Hashable], Callable[[Sequence[M]], list[int]]] | None = None,
    ) -> None:
        self._hints = hints
        # With ``ids`` (the game's MoveIds: one move's id, a list's ids) history, counter
        # moves and the bonuses are looked up by the ids, cheaper to hash than some games'
        # move objects; the order is the same.
        self._id: Callable[[M], Hashable] = ids[0] if ids is not None else _same
        self._ids: Callable[[Sequence[M]], Sequence[Hashable]] = (
            ids[1] if ids is not None else _same)
        self._use_killers = killers
        self._use_history = history
        # With ``malus`` the quiet moves searched before a cut-off lose the credit the cut-off
        # move gains, and history saturates (``HISTORY_LIMIT``) instead of only growing: in
        # wide games (shogi: ~80 moves, most of them drops) the order of the quiet moves is
        # the history's alone, and moves that keep failing must sink.
        self._malus = malus and history
        # With ``counters`` the move that refuted a move is remembered by that move (the
        # counter-move heuristic) and tried right after the killers when the move recurs.
        self._use_counters = counters
        self.counters: dict[Hashable, M] = {}  # by the previous move's id
        # Two killer slots per ply, made when a ply first asks: a search reaches few of the
        # MAX_PLY plies, and making them all cost more than a short search.
        self.killers: defaultdict[int, list[M | None]] = defaultdict(lambda: [None, None])
        self.history: dict[Hashable, int] = {}  # by move id (the move without MoveIds)

    def order(self, moves: Sequence[M], tt_move: M | None, ply: int,
              previous: M | None = None) -> list[M]:
        """Moves best-first; the sort is stable so equal moves keep the game's order.

        The TT move and the killers are found by one dict look-up per move (their bonuses,
        the TT move's taking precedence), not by comparing every move with each of them:
        moves that are objects (python-chess) compare in Python code, even with None.
        ``previous`` is the move that led here (for the counter-move heuristic).
        """
        if len(moves) < 2:  # nothing to sort (often so in quiescence)
            return list(moves)
        hints = self._hints(moves) if self._hints is not None else None
        killer0, killer1 = self.killers[ply] if self._use_killers else (None, None)
        history = self.history if self._use_history else None
        counter = (self.counters.get(self._id(previous))
                   if self._use_counters and previous is not None else None)
        if hints is None and killer0 is None and not history and tt_move is None \
                and counter is None:
            return list(moves)
        move_id = self._id
        special: dict[Hashable, int] = {}
        if counter is not None:
            special[move_id(counter)] = COUNTER_BONUS
        if killer1 is not None:
            special[move_id(killer1)] = KILLER_BONUS
        if killer0 is not None:
            special[move_id(killer0)] = KILLER_BONUS * 2
        if tt_move is not None:
            special[move_id(tt_move)] = TT_BONUS
        scores = [h * HINT_SCALE for h in hints] if hints is not None else [0] * len(moves)
        bonus_of = special.get
        ids = self._ids(moves)
        if history:
            credit = history.get
            for i, key in enumerate(ids):
                bonus = bonus_of(key) if special else None
                scores[i] += bonus if bonus is not None else credit(key, 0)
        elif special:
            for i, key in enumerate(ids):
                bonus = bonus_of(key)
                if bonus is not None:
                    scores[i] += bonus
        order = sorted(range(len(moves)), key=scores.__getitem__, reverse=True)
        return [moves[i] for i in order]

    @property
    def hints_only(self) -> bool:
        """True when the order is the game's hints alone (no killers, history or counter
        moves): then it depends on nothing the search learns, and ``by_hints`` gives it.
        """
        return (self._hints is not None and not self._use_killers and not self._use_history
                and not self._use_counters)

    def by_hints(self, moves: Sequence[M], first: M | None) -> list[M]:
        """``order(moves, first, ply)`` when ``hints_only``: ``first`` (the TT move) ahead if
        it is one of ``moves``, the others by their hints, best first, in the game's order
        among equals (a stable sort); the game is not asked the hint of ``first``, whose place
        is known.  The same list as ``order``'s, without its bonuses and look-ups.
        """
        head: list[M] = []
        if first is not None and first in moves:
            head = [first]
            moves = [m for m in moves if m != first]
        if len(moves) < 2:
            return head + list(moves)
        hints = list(cast("Callable[[Sequence[M]], Sequence[int]]", self._hints)(moves))
        if hints == sorted(hints, reverse=True):  # in order already (often: all equal)
            return head + list(moves)
        order = sorted(range(len(moves)), key=hints.__getitem__, reverse=True)
        return head + [moves[i] for i in order]

    def credit(self, move: M) -> int:
        """``move``'s history credit so far (0: none), looked up by its id as ``order`` does."""
        return self.history.get(self._id(move), 0)

    def record_cutoff(self, move: M, ply: int, depth: int, previous: M | None = None,
                      tried: Sequence[M] = ()) -> None:
        """Remember a move that caused a β cut-off (killer slot, history credit, the counter
        to ``previous``); with the malus the quiet moves ``tried`` before it lose credit.
        """
        if self._use_killers:
            slot = self.killers[ply]
            if slot[0] != move:
                slot[1] = slot[0]
                slot[0] = move
        if self._use_counters and previous is not None:
            self.counters[self._id(previous)] = move
        if not self._use_history:
            return
        history = self.history
        key = self._id(move)
        if not self._malus:
            history[key] = min(history.get(key, 0) + depth * depth, KILLER_BONUS - 1)
            return
        bonus = min(depth * depth, HISTORY_LIMIT)
        # Saturating update: a value near the limit moves little, so the table keeps ranking.
        value = history.get(key, 0)
        history[key] = value + bonus - value * bonus // HISTORY_LIMIT
        for other in self._ids(tried):
            value = history.get(other, 0)
            history[other] = value - bonus - value * bonus // HISTORY_LIMIT

    def clear(self) -> None:
        """Forget killers and history (new game)."""
        self.killers.clear()
        self.history.clear()
        self.counters.clear()
