"""A tracer that counts what the textbook functions do not: cut-offs and re-searches.

The algorithms themselves, their names and how to run them live in one place,
``sakiyomi.search.algorithms``; ``compare`` runs them with this counter attached.
"""

from __future__ import annotations

from collections.abc import Sequence


class CountingTracer:
    """Counts cut-offs and re-searches of the textbook functions (which keep no such stats)."""

    enabled = True

    def __init__(self) -> None:
        self.cutoffs = 0
        self.researches = 0
        self.deepest = 0

    def enter(self, ply: int, move: object | None, depth: int, alpha: int, beta: int) -> None:
        """Keep the deepest ply (the result itself counts nodes)."""
        if ply > self.deepest:
            self.deepest = ply

    def leave(self, ply: int, value: int, bound: object) -> None:
        """Not counted."""

    def cutoff(self, ply: int, kind: str, pruned: Sequence[object]) -> None:
        """One more cut-off."""
        self.cutoffs += 1

    def tt_hit(self, ply: int, value: int, bound: object) -> None:
        """Textbook functions have no table."""

    def research(self, ply: int, move: object) -> None:
        """One more re-search."""
        self.researches += 1
