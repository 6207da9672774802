"""A checked view of a game: every answer of its methods is verified (the validating mode).

``SearchConfig(validate=True)`` searches through ``CheckedGame(game)``; the conformance test
runs every registered game that way, and a user writing a game can do the same (the textbook
functions take a ``CheckedGame`` like any game).  Nothing is checked in normal play, so the
normal path pays nothing: a wrong answer is found by the validating run, not per node.
Checked: ``legal_moves`` gives a sequence (list, tuple, range) of hashable moves, empty only
when the game is over; ``evaluate`` an integer strictly inside the heuristic range (values
beyond it would read as wins or losses); ``key`` an integer; ``outcome`` None or an
``Outcome``; ``undo`` gives back the position (its key) that ``play`` left.  Failures raise
``GameMethodError`` naming the method; the search adds the line of moves.
"""

from __future__ import annotations

import operator
from collections.abc import Hashable, Sequence
from typing import Any, Generic, SupportsIndex, TypeVar

from sakiyomi.game import Game, Outcome, Player
from sakiyomi.score import WIN_BOUND
from sakiyomi.search.errors import GameMethodError

M = TypeVar("M", bound=Hashable)


def _kind(value: object) -> str:
    text = repr(value)
    return f"{type(value).__name__} {text if len(text) <= 40 else text[:39] + '…'}"


def _integer(value: object) -> int | None:
    """``value`` as an int when it is an integer of any kind (numpy's too), else None."""
    if isinstance(value, bool) or not isinstance(value, SupportsIndex):
        return None
    return operator.index(value)


class CheckedGame(Generic[M]):
    """``game`` with every answer checked; other attributes (capabilities) pass through."""

    def __init__(self, game: Game[M]) -> None:
        self.wrapped = game
        self._keys: list[int] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.wrapped, name)

    @property
    def to_move(self) -> Player:
        """The wrapped game's side to move, which must be a Player."""
        player = self.wrapped.to_move
        if not isinstance(player, Player):
            raise GameMethodError("to_move", f"gave {_kind(player)}; expected a Player")
        return player

    def legal_moves(self) -> Sequence[M]:
        """The moves, checked: a sequence of hashable moves, empty only at the end."""
        moves = self.wrapped.legal_moves()
        if not isinstance(moves, Sequence) or isinstance(moves, str):
            raise GameMethodError("legal_moves", f"returned {_kind(moves)}; expected a sequence "
                                  "of moves such as a list (a generator can be read only once)")
        for move in moves:
            try:
                hash(move)
            except TypeError:
                raise GameMethodError("legal_moves", f"returned an unhashable move "
                                      f"{_kind(move)}; moves must be hashable") from None
        if not moves and self.wrapped.outcome() is None:
            raise GameMethodError("legal_moves", "returned no moves while outcome() is None "
                                  "(a pass must be a legal move)")
        return moves

    def play(self, move: M) -> None:
        """Play ``move``, remembering the key to check ``undo`` against."""
        self._keys.append(self.key())
        self.wrapped.play(move)

    def undo(self) -> None:
        """Take the last move back and check that the position is the one before it."""
        if not self._keys:
            raise GameMethodError("undo", "was called with no move of this search to take back")
        self.wrapped.undo()
        before = self._keys.pop()
        if self.key() != before:
            raise GameMethodError("undo", f"did not restore the position: key {before} before "
                                  f"the move, {self.key()} after undo()")

    def outcome(self) -> Outcome | None:
        """How the game ended, checked: None or an Outcome."""
        outcome = self.wrapped.outcome()
        if outcome is not None and not isinstance(outcome, Outcome):
            raise GameMethodError("outcome", f"returned {_kind(outcome)}; expected None or "
                                  "an Outcome")
        return outcome

    def evaluate(self) -> int:
        """The heuristic value, checked: an integer strictly inside (-WIN_BOUND, WIN_BOUND)."""
        raw = self.wrapped.evaluate()
        value = _integer(raw)
        if value is None:
            raise GameMethodError("evaluate", f"returned {_kind(raw)}; expected an int")
        if not -WIN_BOUND < value < WIN_BOUND:
            raise GameMethodError("evaluate", f"returned {value}, outside the heuristic range "
                                  f"-{WIN_BOUND - 1}..{WIN_BOUND - 1} (beyond it values read "
                                  "as wins and losses)")
        return value

    def key(self) -> int:
        """The position's key, checked: an integer."""
        raw = self.wrapped.key()
        value = _integer(raw)
        if value is None:
            raise GameMethodError("key", f"returned {_kind(raw)}; expected an int")
        return value

    def move_to_text(self, move: M) -> str:
        """The wrapped game's notation."""
        return self.wrapped.move_to_text(move)

    def move_from_text(self, text: str) -> M:
        """The wrapped game's parser."""
        return self.wrapped.move_from_text(text)

    def copy(self) -> CheckedGame[M]:
        """A checked copy of the wrapped game."""
        return CheckedGame(self.wrapped.copy())
