"""The tracer protocol: how searchers report what they do, for pictures and teaching.

Searchers hold a tracer and call it only when ``tracer.enabled`` is true, so the default
``NULL_TRACER`` costs one attribute test per node.  Recorders live in ``sakiyomi.viz.trace``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from sakiyomi.tt import Bound


class Tracer(Protocol):
    """Callbacks in search order; ``ply`` is the distance from the root."""

    enabled: bool

    def enter(self, ply: int, move: object | None, depth: int, alpha: int, beta: int) -> None:
        """A node is entered through ``move`` (None at the root) with this window and depth."""
        ...

    def leave(self, ply: int, value: int, bound: Bound) -> None:
        """The node returns ``value``; ``bound``: exact, or a lower or an upper bound."""
        ...

    def cutoff(self, ply: int, kind: str, pruned: Sequence[object]) -> None:
        """A cut-off ('alpha' or 'beta' cut, in MinMax terms) at the node at ``ply``: the moves
        in ``pruned`` (in the order they would have been searched) are skipped.
        """
        ...

    def tt_hit(self, ply: int, value: int, bound: Bound) -> None:
        """The node was answered from the transposition table."""
        ...

    def research(self, ply: int, move: object) -> None:
        """A null-window probe failed high inside the window: ``move`` is searched again."""
        ...


class NullTracer:
    """Does nothing; searchers skip their calls because ``enabled`` is False."""

    enabled = False

    def enter(self, ply: int, move: object | None, depth: int, alpha: int, beta: int) -> None:
        """No-op."""

    def leave(self, ply: int, value: int, bound: Bound) -> None:
        """No-op."""

    def cutoff(self, ply: int, kind: str, pruned: Sequence[object]) -> None:
        """No-op."""

    def tt_hit(self, ply: int, value: int, bound: Bound) -> None:
        """No-op."""

    def research(self, ply: int, move: object) -> None:
        """No-op."""


NULL_TRACER: Tracer = NullTracer()
