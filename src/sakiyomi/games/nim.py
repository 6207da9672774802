"""Nim (any heaps, normal play) and the Game of Bones (seed 004: one heap, take 1-3).

Normal play: the player who cannot move loses, i.e. whoever takes the last object wins.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self

from sakiyomi.game import MoveError, Outcome, Player, PositionError

NimMove = tuple[int, int]  # (heap index, how many to take)


class Nim:
    """Heaps of objects; a move takes 1..max_take (or any number) from one heap."""

    ACYCLIC = True

    def __init__(self, heaps: Sequence[int], max_take: int | None = None) -> None:
        if not heaps:
            raise PositionError("Nim needs at least one heap")
        if any(h < 0 for h in heaps):
            raise PositionError("heap sizes cannot be negative")
        self.heaps = list(heaps)
        self.max_take = max_take
        self._radix = max(self.heaps) + 1
        self._player = Player.FIRST
        self._history: list[NimMove] = []

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
        if len(parts) != 2 or not all(p.isdigit() for p in parts):
            raise MoveError(f"move {text!r} is not HEAP:COUNT (e.g. 0:2)")
        heap, count = int(parts[0]), int(parts[1])
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

    def __str__(self) -> str:
        return "  ".join(f"heap {i}: {'|' * h} ({h})" for i, h in enumerate(self.heaps))


class Bones(Nim):
    """The Game of Bones: one heap, take 1, 2 or 3; the player who cannot take loses."""

    def __init__(self, bones: int) -> None:
        super().__init__([bones], max_take=3)

    def move_to_text(self, move: NimMove) -> str:
        return str(move[1])

    def move_from_text(self, text: str) -> NimMove:
        if not text.strip().isdigit():
            raise MoveError(f"move {text!r} is not a number of bones (1, 2 or 3)")
        return self._check(0, int(text), text)

    def __str__(self) -> str:
        return f"bones: {'|' * self.heaps[0]} ({self.heaps[0]})"


def _number(text: str, what: str) -> int:
    text = text.strip()
    if not text.isdigit():
        raise PositionError(f"{what} {text!r} is not a non-negative integer")
    return int(text)


def from_position(name: str, text: str) -> Nim:
    """Registry entry point: ``N`` for bones, ``3,4,5`` for nim."""
    if name == "bones":
        return Bones(_number(text, "bone count"))
    return Nim([_number(part, "heap size") for part in text.split(",")])
