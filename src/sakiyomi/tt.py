"""A bounded transposition table with UPPER / LOWER / EXACT bounds.

Layout: ``capacity`` slots (a power of two), indexed by the low bits of the key; each slot holds
one entry with the full key for verification.  Replacement policy (the classic
"depth-preferred, ageing" scheme): a new entry replaces the stored one when
(1) the slot is empty, (2) it is the same position, (3) the stored entry comes from an earlier
search (older generation), or (4) the new entry was searched at least as deep.
Otherwise the deeper, current entry stays, because it saved more work.
Memory is bounded by ``capacity`` whatever the search does.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Generic, NamedTuple, TypeVar

M = TypeVar("M")


class Bound(IntEnum):
    """What a stored value means with respect to the true value."""

    EXACT = 0
    LOWER = 1  # failed high: true value >= value
    UPPER = 2  # failed low: true value <= value


class TTEntry(NamedTuple, Generic[M]):
    """One stored search result: value is TT-relative (see score.to_tt)."""

    key: int
    depth: int
    value: int
    bound: Bound
    move: M | None
    generation: int


ENTRY_BYTES_ESTIMATE = 200  # a Python NamedTuple and its slot, roughly; used for --hash sizes


class TranspositionTable(Generic[M]):
    """Fixed-capacity table; see the module docstring for the replacement policy."""

    def __init__(self, capacity: int = 1 << 20) -> None:
        size = 1
        while size < max(1, capacity):
            size <<= 1
        self._mask = size - 1
        self._slots: list[TTEntry[M] | None] = [None] * size
        self.generation = 0
        self.used = 0

    @classmethod
    def from_megabytes(cls, megabytes: float) -> TranspositionTable[M]:
        """A table sized to roughly ``megabytes`` of memory (UCI/USI 'Hash')."""
        entries = int(megabytes * 1024 * 1024 / ENTRY_BYTES_ESTIMATE)
        cap = 1
        while cap * 2 <= max(1, entries):
            cap *= 2
        return cls(cap)

    @property
    def capacity(self) -> int:
        """Number of slots."""
        return self._mask + 1

    def new_search(self) -> None:
        """Start a new generation: older entries become preferred victims."""
        self.generation += 1

    def clear(self) -> None:
        """Forget everything."""
        self._slots = [None] * (self._mask + 1)
        self.used = 0

    def probe(self, key: int) -> TTEntry[M] | None:
        """The entry stored for ``key``, or None."""
        entry = self._slots[key & self._mask]
        if entry is not None and entry.key == key:
            return entry
        return None

    def store(self, key: int, depth: int, value: int, bound: Bound, move: M | None) -> None:
        """Store a result, following the replacement policy."""
        index = key & self._mask
        old = self._slots[index]
        if old is None:
            self.used += 1
        elif old.key != key and old.generation == self.generation and old.depth > depth:
            return
        elif old.key == key and move is None:
            move = old.move  # keep the best move we knew for this position
        self._slots[index] = TTEntry(key, depth, value, bound, move, self.generation)

    def hashfull(self) -> int:
        """Permille of slots in use (UCI 'hashfull')."""
        return self.used * 1000 // self.capacity
