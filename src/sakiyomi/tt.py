"""A bounded transposition table with UPPER / LOWER / EXACT bounds.

Layout: ``capacity`` slots (a power of two), indexed by the low bits of the key; each slot holds
one entry with the full key for verification.  Replacement policy (the classic
"depth-preferred, ageing" scheme): a new entry replaces the stored one when
(1) the slot is empty, (2) it is the same position, (3) the stored entry comes from an earlier
search (older generation), or (4) the new entry was searched at least as deep.
Otherwise the deeper, current entry stays, because it saved more work.
Memory is bounded by ``capacity`` whatever the search does.

Storage is flat, for the Python node loop: ``slots`` maps a slot index (``key & mask``) to a
plain tuple ``(key, depth, value, bound, move, generation)`` (the fields of ``TTEntry``).  A
dict holds only the slots in use, so a large table costs nothing until it fills (a list of
2**23 empty slots took 50-70 ms to make and free, more than a short search), and a plain
tuple is several times cheaper to build than an entry object.  The Searcher reads ``slots``
directly; everything else uses ``probe`` and ``store``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
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


# What a slot holds: the fields of TTEntry, in that order, as a plain tuple.
RawEntry = tuple[int, int, int, Bound, M | None, int]

ENTRY_BYTES_ESTIMATE = 200  # a stored tuple, its ints and its dict slot, roughly; --hash sizes


class TranspositionTable(Generic[M]):
    """Fixed-capacity table; see the module docstring for the replacement policy."""

    def __init__(self, capacity: int = 1 << 20) -> None:
        size = 1
        while size < max(1, capacity):
            size <<= 1
        self.mask = size - 1
        self.slots: dict[int, RawEntry[M]] = {}
        self.generation = 0
        self.stale = False  # cleared later (``clear(now=False)``): emptied by ``settle``

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
        return self.mask + 1

    @property
    def used(self) -> int:
        """Number of slots in use."""
        return 0 if self.stale else len(self.slots)

    def new_search(self) -> None:
        """Start a new generation: older entries become preferred victims."""
        self.settle()
        self.generation += 1

    def clear(self, *, now: bool = True) -> None:
        """Forget everything (in place: the Searcher may hold ``slots``).

        ``now=False`` only marks the table stale; ``settle`` (called by ``new_search`` and
        by every search the Searcher starts) empties it.  Freeing a full table holds the GIL
        for tens of milliseconds: an engine told of a new game (which GUIs follow with a
        ``go`` without waiting) would keep its reader thread from stamping that ``go`` on
        arrival, so the move's clock would start late.  Emptied by the search instead, the
        cost falls inside the move's own clock.
        """
        if now:
            self.slots.clear()
            self.stale = False
        else:
            self.stale = True

    def settle(self) -> None:
        """Empty the table if it was cleared for later (``clear(now=False)``)."""
        if self.stale:
            self.slots.clear()
            self.stale = False

    @contextlib.contextmanager
    def region(self, bits: int) -> Iterator[None]:
        """Keep to the first ``2**bits`` slots while the block runs (all of them when
        ``bits`` >= 62 or the table is no larger): a solve's ``SolveTable`` limit, as the
        compiled ``t_run`` keeps to it with its ``C_MASK``.  Entries stored meanwhile stay;
        found again or not under the whole mask, their full keys keep every probe right.
        """
        full = self.mask
        if bits < 62:
            self.mask = min(full, (1 << bits) - 1)
        try:
            yield
        finally:
            self.mask = full

    def probe(self, key: int) -> TTEntry[M] | None:
        """The entry stored for ``key``, or None."""
        self.settle()
        entry = self.slots.get(key & self.mask)
        if entry is not None and entry[0] == key:
            return TTEntry._make(entry)
        return None

    def store(self, key: int, depth: int, value: int, bound: Bound, move: M | None) -> None:
        """Store a result, following the replacement policy."""
        index = key & self.mask
        slots = self.slots
        old = slots.get(index)
        if old is not None:
            if old[0] != key:
                if old[5] == self.generation and old[1] > depth:
                    return
            elif move is None:
                move = old[4]  # keep the best move we knew for this position
        slots[index] = (key, depth, value, bound, move, self.generation)

    def hashfull(self) -> int:
        """Permille of slots in use (UCI 'hashfull')."""
        return self.used * 1000 // (self.mask + 1)
