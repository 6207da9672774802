"""Search limits and the stop signal shared by the searcher, drivers and protocol threads."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from sakiyomi.score import MAX_PLY


class SearchAborted(Exception):
    """Raised inside the node search when the stop signal fires; drivers catch it."""


@dataclass(frozen=True, slots=True)
class Limits:
    """When a search must stop: any limit that is set ends it."""

    depth: int | None = None
    nodes: int | None = None
    time: float | None = None  # seconds of wall-clock time
    infinite: bool = False

    @property
    def max_depth(self) -> int:
        """Deepest iteration the driver may start."""
        return min(self.depth, MAX_PLY - 1) if self.depth is not None else MAX_PLY - 1


class StopSignal:
    """External stop (a thread Event) plus node and time budgets, polled every few nodes."""

    def __init__(self, nodes: int | None = None, seconds: float | None = None) -> None:
        self.event = threading.Event()
        self.node_limit = nodes
        self.start = time.perf_counter()
        self.deadline = self.start + seconds if seconds is not None else None

    @classmethod
    def from_limits(cls, limits: Limits) -> StopSignal:
        """A signal enforcing the node and time limits of ``limits``."""
        return cls(nodes=limits.nodes, seconds=limits.time)

    def stop(self) -> None:
        """Ask the search to stop as soon as possible (thread-safe)."""
        self.event.set()

    def should_stop(self, nodes: int) -> bool:
        """True when any budget is exhausted or stop() was called."""
        if self.event.is_set():
            return True
        if self.node_limit is not None and nodes >= self.node_limit:
            return True
        return self.deadline is not None and time.perf_counter() >= self.deadline

    def elapsed(self) -> float:
        """Seconds since the signal was made."""
        return time.perf_counter() - self.start


def time_for_move(
    remaining: float, increment: float = 0.0, moves_to_go: int | None = None,
    overhead: float = 0.05,
) -> float:
    """Seconds to spend on one move from a clock: a share of what is left plus most of the
    increment, never more than a safe fraction of the remaining time (never lose on time).
    """
    usable = max(0.0, remaining - overhead)
    share = usable / (moves_to_go if moves_to_go else 30) + 0.8 * increment
    return max(0.0, min(share, 0.5 * usable))
