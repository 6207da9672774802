"""Nim (any heaps, normal play) and the Game of Bones (seed 004: one heap, take 1-3).

Normal play: the player who cannot move loses, i.e. whoever takes the last object wins.

Both have closed forms (``ClosedForm``): a heap from which at most ``k`` objects may be taken
is worth ``h mod (k + 1)`` (any number: ``h``), and a position is lost for the side to move
exactly when these values xor to 0 (Bouton 1901; Sprague-Grundy for the capped heaps).  Small
positions are still read by the search (its line and node counts are the lesson); beyond
``SEARCHED_STATES`` positions or ``SEARCHED_OBJECTS`` objects ``solve`` answers by the formula.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import reduce
from operator import xor
from typing import Self

from sakiyomi.game import MoveError, Outcome, Player, PositionError
from sakiyomi.inputs import parse_int
from sakiyomi.score import MAX_PLY, loss_in, win_in

NimMove = tuple[int, int]  # (heap index, how many to take)

MAX_HEAPS = 64
MAX_OBJECTS = 10_000  # objects in all heaps of a Nim position: every one is a legal move
MAX_BONES = 10**18  # Bones has at most three moves, so only the closed form bounds its size
SEARCHED_STATES = 1_024  # positions reachable from the root, at most, for solve to search
SEARCHED_OBJECTS = MAX_PLY // 2  # and objects in all: the longest game fits the horizon
BARS = 40  # heaps up to this size are drawn as bars
UNKNOWN_DISTANCE = MAX_PLY - 1  # plies reported for a result whose distance is not known
LIMITS = (f"nim: at most {MAX_HEAPS} heaps and {MAX_OBJECTS:,} objects in all; "
          f"bones: at most {MAX_BONES:,} bones")


class Nim:
    """Heaps of objects; a move takes 1..max_take (or any number) from one heap."""

    ACYCLIC = True

    def __init__(self, heaps: Sequence[int], max_take: int | None = None) -> None:
        if not heaps:
            raise PositionError("Nim needs at least one heap")
        if any(h < 0 for h in heaps):
            raise PositionError("heap sizes cannot be negative")
        self._check_size(heaps)
        self.heaps = list(heaps)
        self.max_take = max_take
        self._radix = max(self.heaps) + 1
        self._player = Player.FIRST
        self._history: list[NimMove] = []

    def _check_size(self, heaps: Sequence[int]) -> None:
        """Refuse positions beyond ``LIMITS`` (every object is a legal move)."""
        if len(heaps) > MAX_HEAPS:
            raise PositionError(f"too many heaps: at most {MAX_HEAPS}, not {len(heaps)}")
        total = sum(heaps)
        if total > MAX_OBJECTS:
            raise PositionError(f"heaps too large: at most {MAX_OBJECTS:,} objects in all, "
                                f"not {total:,}")

    @property
    def to_move(self) -> Player:
        return self._player

    def legal_moves(self) -> Sequence[NimMove]:
        cap = self.max_take
        return [
            (i, n)
            for i, h in enumerate(self.heaps)
            for n in range(1, (h if cap is None else min(h, cap)) + 1)
        ]

    def play(self, move: NimMove) -> None:
        self.heaps[move[0]] -= move[1]
        self._history.append(move)
        self._player = self._player.other

    def undo(self) -> None:
        heap, count = self._history.pop()
        self.heaps[heap] += count
        self._player = self._player.other

    def outcome(self) -> Outcome | None:
        if any(self.heaps):
            return None
        return Outcome(self._player.other, "took the last object")

    def evaluate(self) -> int:
        """No heuristic: positions are read to the end (they are small)."""
        return 0

    def key(self) -> int:
        key = 0
        for h in self.heaps:
            key = key * self._radix + h
        return key * 2 + int(self._player)

    def copy(self) -> Self:
        clone = object.__new__(type(self))
        clone.__dict__.update(self.__dict__)
        clone.heaps = list(self.heaps)
        clone._history = list(self._history)
        return clone

    def move_to_text(self, move: NimMove) -> str:
        return f"{move[0]}:{move[1]}"

    def move_from_text(self, text: str) -> NimMove:
        parts = text.strip().split(":")
        if len(parts) != 2:
            raise MoveError(f"move {text!r} is not HEAP:COUNT (e.g. 0:2)")
        heap = parse_int(parts[0], "heap", high=MAX_HEAPS, error=MoveError)
        count = parse_int(parts[1], "count", high=MAX_BONES, error=MoveError)
        return self._check(heap, count, text)

    def _check(self, heap: int, count: int, text: str) -> NimMove:
        if heap >= len(self.heaps):
            last = len(self.heaps) - 1
            raise MoveError(f"move {text!r}: there is no heap {heap} (heaps 0-{last})")
        if count < 1:
            raise MoveError(f"move {text!r}: take at least one object")
        if self.max_take is not None and count > self.max_take:
            raise MoveError(f"move {text!r}: at most {self.max_take} may be taken")
        if count > self.heaps[heap]:
            raise MoveError(f"move {text!r}: heap {heap} has only {self.heaps[heap]}")
        return (heap, count)

    # ---- closed form ----------------------------------------------------------------------

    def formula(self) -> tuple[int, NimMove | None]:
        """(value, best move) by Bouton's theorem, for any position (see the module docstring).

        The value is ``±win_in(MAX_PLY - 1)`` (decided, distance unknown: at the horizon, so
        that it stays decisive when a caller counts one more ply), except for a single heap whose
        game length is known: with a cap ``k`` the winner leaves a multiple of ``k + 1`` and
        each pair of moves then takes ``k + 1``, so a win takes ``1 + 2 * (h // (k + 1))`` plies
        and a loss ``2 * (h // (k + 1))``.  A lost position's move takes one object.
        """
        cap = self.max_take
        grundy = [h if cap is None else h % (cap + 1) for h in self.heaps]
        total = reduce(xor, grundy, 0)
        if not any(self.heaps):
            return loss_in(0), None
        plies = UNKNOWN_DISTANCE
        if len(self.heaps) == 1:
            pairs = 0 if cap is None else self.heaps[0] // (cap + 1)
            plies = min(UNKNOWN_DISTANCE, 2 * pairs + (1 if total else 0))
        if total == 0:
            heap = max(range(len(self.heaps)), key=lambda i: self.heaps[i])
            return loss_in(plies), (heap, 1)
        for heap, g in enumerate(grundy):
            if g ^ total < g:
                return win_in(plies), (heap, g - (g ^ total))
        raise AssertionError("a non-zero nim-sum always has a move to zero")

    def closed_form(self) -> tuple[int, NimMove | None] | None:
        """The formula's answer for positions too large to search (see ``SEARCHED_STATES``)."""
        if self.outcome() is not None:
            return None
        states = 1
        for h in self.heaps:
            states *= h + 1
            if states > SEARCHED_STATES:
                return self.formula()
        if sum(self.heaps) > SEARCHED_OBJECTS:
            return self.formula()
        return None

    def _heap_text(self, h: int) -> str:
        return f"{'|' * h} ({h})" if h <= BARS else f"({h:,})"

    def __str__(self) -> str:
        return "  ".join(f"heap {i}: {self._heap_text(h)}" for i, h in enumerate(self.heaps))


class Bones(Nim):
    """The Game of Bones: one heap, take 1, 2 or 3; the player who cannot take loses."""

    def __init__(self, bones: int) -> None:
        super().__init__([bones], max_take=3)

    def _check_size(self, heaps: Sequence[int]) -> None:
        if heaps[0] > MAX_BONES:
            raise PositionError(f"heap too large: at most {MAX_BONES:,} bones")

    def move_to_text(self, move: NimMove) -> str:
        return str(move[1])

    def move_from_text(self, text: str) -> NimMove:
        try:
            count = parse_int(text, "bones", low=1, high=3)
        except ValueError:
            raise MoveError(f"move {text!r} is not a number of bones (1, 2 or 3)") from None
        return self._check(0, count, text)

    def __str__(self) -> str:
        return f"bones: {self._heap_text(self.heaps[0])}"


def from_position(name: str, text: str) -> Nim:
    """Registry entry point: ``N`` for bones, ``3,4,5`` for nim (sizes within ``LIMITS``)."""
    if name == "bones":
        return Bones(parse_int(text, "bone count", high=MAX_BONES, error=PositionError))
    parts = text.split(",")
    if len(parts) > MAX_HEAPS:
        raise PositionError(f"too many heaps: at most {MAX_HEAPS}, not {len(parts):,}")
    return Nim([parse_int(part, "heap size", high=MAX_OBJECTS, error=PositionError)
                for part in parts])
