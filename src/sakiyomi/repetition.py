"""Repetition (sennichite) on the search path, as seed 003 teaches.

A position that repeats one already on the current line (or in the game history before the
root) is not searched again: the game decides its value (``RepetitionRules``), or by default it
is a draw.  Keys are compared first (64-bit hash), as the seed recommends; games whose keys are
perfect need no further equality check.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable


class PathHistory:
    """Multiset of the keys on the game history plus the current search line."""

    def __init__(self, history: Iterable[int] = ()) -> None:
        self._counts: Counter[int] = Counter(history)

    def push(self, key: int) -> None:
        """Enter a position."""
        self._counts[key] += 1

    def pop(self, key: int) -> None:
        """Leave a position."""
        count = self._counts[key] - 1
        if count:
            self._counts[key] = count
        else:
            del self._counts[key]

    def count(self, key: int) -> int:
        """How often ``key`` is on the path."""
        return self._counts.get(key, 0)

    def __contains__(self, key: int) -> bool:
        return key in self._counts
