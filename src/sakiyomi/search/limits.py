"""Search limits and the stop signal shared by the searcher, drivers and protocol threads."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
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
    """External stop (a thread Event) plus node and time budgets.

    The Python ``Searcher`` polls ``should_stop`` every few nodes.  Compiled code cannot read a
    clock or an Event, so it registers a callback with ``on_stop``: the callback runs once,
    from whichever thread calls ``stop()`` or from a timer thread at the deadline, and sets a
    flag the compiled loop polls (``sakiyomi.engines``).  Node budgets are handed to compiled
    code as numbers.
    """

    def __init__(self, nodes: int | None = None, seconds: float | None = None) -> None:
        self.event = threading.Event()
        self.node_limit = nodes
        self.start = time.perf_counter()
        self.deadline = self.start + seconds if seconds is not None else None
        self._callbacks: list[Callable[[], None]] = []
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None

    @classmethod
    def from_limits(cls, limits: Limits) -> StopSignal:
        """A signal enforcing the node and time limits of ``limits``."""
        return cls(nodes=limits.nodes, seconds=limits.time)

    def stop(self) -> None:
        """Ask the search to stop as soon as possible (thread-safe)."""
        with self._lock:
            self.event.set()
            callbacks = list(self._callbacks)
        for callback in callbacks:
            callback()

    def should_stop(self, nodes: int) -> bool:
        """True when any budget is exhausted or stop() was called."""
        if self.event.is_set():
            return True
        if self.node_limit is not None and nodes >= self.node_limit:
            return True
        return self.deadline is not None and time.perf_counter() >= self.deadline

    def stopped(self) -> bool:
        """True once stop() was called or the deadline has passed (node budget aside)."""
        return self.event.is_set() or (
            self.deadline is not None and time.perf_counter() >= self.deadline)

    def on_stop(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` (once per registration, from any thread) when the search must stop:
        at ``stop()`` or at the deadline, or at once if that has already happened.  A timer
        thread watches the deadline; it is started by the first registration.
        """
        with self._lock:
            self._callbacks.append(callback)
            fired = self.event.is_set()
            if not fired and self.deadline is not None and self._timer is None:
                self._arm_timer()
        if fired or (self.deadline is not None and time.perf_counter() >= self.deadline):
            callback()

    def _arm_timer(self) -> None:
        """(Re)start the deadline timer; called with the lock held."""
        if self._timer is not None:
            self._timer.cancel()
        assert self.deadline is not None
        # A timer cannot wait longer than threading.TIMEOUT_MAX; absurd deadlines never fire.
        wait = min(max(0.0, self.deadline - time.perf_counter()), threading.TIMEOUT_MAX / 2)
        self._timer = threading.Timer(wait, self._deadline_reached)
        self._timer.daemon = True
        self._timer.start()

    def _deadline_reached(self) -> None:
        with self._lock:
            self._timer = None
            deadline = self.deadline
            if deadline is not None and time.perf_counter() < deadline:
                self._arm_timer()  # the deadline was moved later (ponderhit)
                return
            callbacks = list(self._callbacks) if deadline is not None else []
        for callback in callbacks:
            callback()

    def set_deadline(self, seconds_from_now: float | None) -> None:
        """Move the deadline (e.g. the clock starts at ``ponderhit``); None removes it."""
        with self._lock:
            self.deadline = (time.perf_counter() + seconds_from_now
                             if seconds_from_now is not None else None)
            if self._callbacks and self.deadline is not None:
                self._arm_timer()

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
