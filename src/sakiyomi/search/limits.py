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
        """A signal enforcing the node and time limits of ``limits`` (the time through the one
        time plan, ``TimePlan.fixed``: its hard limit, absurd values clamped).
        """
        seconds = TimePlan.fixed(limits.time).hard if limits.time is not None else None
        return cls(nodes=limits.nodes, seconds=seconds)

    def tighten(self, limits: Limits) -> None:
        """Enforce ``limits``' node budget and time too (whichever is sooner stands): a driver
        given limits and a searcher whose signal was made without them (``drivers.run``)
        would otherwise search past them, up to the depth limit.
        """
        if limits.nodes is not None:
            self.node_limit = (limits.nodes if self.node_limit is None
                               else min(self.node_limit, limits.nodes))
        if limits.time is None:
            return
        deadline = time.perf_counter() + TimePlan.fixed(limits.time).hard
        with self._lock:
            if self.deadline is not None and self.deadline <= deadline:
                return
            self.deadline = deadline
            if self._timer is not None or self._callbacks:
                self._arm_timer()  # an earlier deadline than the running timer's

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

    def next_poll(self, nodes: int, every: int) -> int:
        """The node count at which a search polling every ``every`` nodes polls next: ``every``
        nodes on, or exactly at the node budget when that comes first (``go nodes N`` never
        counts more than N).
        """
        limit = self.node_limit
        due = nodes + every
        return limit if limit is not None and nodes < limit < due else due

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

    def elapsed(self) -> float:
        """Seconds since the signal was made."""
        return time.perf_counter() - self.start


# ---- the time plan (one per move; used by UCI, USI, the CLI's --time and play) ---------------

MAX_SECONDS = 10_000_000.0  # ~115 days: longer budgets are clamped (timers stay finite)
DEFAULT_HORIZON = 30  # moves the main time must last when the clock does not say
MIN_THINK = 0.01  # seconds a move may always use when that much is on the clock
SOFT_SHARE = 0.6  # the soft limit as a share of the target: iterations grow ~3x, so one more
HARD_FACTOR = 3.0  # started at the soft limit usually ends before the hard one (target x3)
INCREMENT_SHARE = 0.9  # the part of the increment spent on this move (the rest is slack)


def _seconds(value: float) -> float:
    """``value`` clamped to 0..MAX_SECONDS; NaN and negative times count as nothing left."""
    if not value > 0.0:  # also NaN
        return 0.0
    return min(float(value), MAX_SECONDS)


@dataclass(frozen=True, slots=True)
class TimePlan:
    """Seconds for one move, counted from when the move was asked for: start no new iteration
    after ``soft``; abort the search (and answer) at ``hard``.  Always 0 <= soft <= hard.
    """

    soft: float
    hard: float

    @classmethod
    def fixed(cls, seconds: float) -> TimePlan:
        """Exactly ``seconds`` (UCI/USI movetime, CLI ``--time``): search until the end."""
        limit = _seconds(seconds)
        return cls(limit, limit)


def plan_time(
    remaining: float, increment: float = 0.0, moves_to_go: int | None = None,
    byoyomi: float = 0.0, overhead: float = 0.05,
) -> TimePlan:
    """The plan for one move from a clock (all in seconds).

    ``remaining`` is the main time left, ``increment`` the Fischer bonus after the move,
    ``moves_to_go`` the moves until the next time control (None: sudden death), ``byoyomi``
    the time each move gets once the main time is spent (shogi), ``overhead`` what the GUI and
    the pipes lose per move.  Rules:

    - never late: ``hard <= remaining + byoyomi - overhead`` (0 if that is negative);
    - without byoyomi and more than one move to go, ``hard`` is at most a third of the main
      time left after the overhead, so a slow answer still leaves time on the clock;
    - the target is a share of the main time plus almost all of the increment (which comes
      back after the move); byoyomi is lost if unused, so it is spent in full (soft and hard);
    - more time on any part of the clock never gives a smaller plan.
    """
    remaining, increment = _seconds(remaining), _seconds(increment)
    byoyomi, overhead = _seconds(byoyomi), _seconds(overhead)
    ceiling = max(0.0, remaining + byoyomi - overhead)
    usable = max(0.0, remaining - overhead)
    moves = DEFAULT_HORIZON if not moves_to_go or moves_to_go < 1 else min(moves_to_go, 10_000)
    if moves == 1:  # the control ends with this move: spend most of what is left
        target = usable * 0.8
        main_hard = target
    else:
        target = usable / (moves + 2) + INCREMENT_SHARE * increment
        main_hard = min(HARD_FACTOR * target, usable / 3)
    main_soft = SOFT_SHARE * min(target, main_hard)
    spare = byoyomi - max(0.0, overhead - remaining)  # byoyomi after what the main time can't pay
    spare = max(0.0, spare)
    hard = min(ceiling, main_hard + spare, MAX_SECONDS)
    hard = max(hard, min(MIN_THINK, ceiling))
    soft = min(hard, main_soft + spare)
    return TimePlan(soft, hard)
