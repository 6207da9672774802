"""The engine loop shared by UCI and USI: input, output, one search thread, one answer per go.

The main thread reads commands and hands them to a protocol ``Handler``; a ``go`` starts the
search in a ``SearchThread`` so that ``stop``, ``isready`` and ``quit`` are answered while it
runs.  Three guarantees live here, once for both protocols:

- **Input never kills the engine.** stdin is read as bytes, lines are capped at
  ``MAX_LINE_BYTES`` (the rest of a longer line is read and dropped) and decoded as UTF-8 with
  replacement, whatever the locale; a handler error becomes one ``info string`` line.
- **Output never kills it either.** Lines are written as UTF-8 (unencodable text escaped); a
  closed pipe ends the loop quietly instead of raising.
- **Every go gets exactly one answer** (``Reply``): the search thread gives it when it ends;
  ``stop`` gives it within ``STOP_GRACE`` with the best move so far even if the search thread
  has not reached its next stop poll; a watchdog timer gives it at the hard time limit (plus
  ``WATCHDOG_GRACE``) if the search thread is late (a loaded machine, a long node); ``infinite``
  and ``ponder`` answers are held back until ``stop`` or ``ponderhit`` as the protocols require.
- **Answers are on time under load**: a move's clock starts when its ``go`` line *arrived*
  (a reader thread stamps every line as it comes in, so the time spent handling the
  ``position`` line before it, or waiting for the GIL, is counted as the GUI counts it); the
  cyclic garbage collector, whose full passes over a filled transposition table took 150–270 ms
  on this machine under load (measured with ``gc.callbacks``), is switched off in the engine
  process and run only while no search runs, before answering ``isready`` (where GUIs wait;
  a search leaves only a few dozen cyclic objects behind); a new game's table is emptied by
  its first search or at ``isready``, not when ``ucinewgame``/``usinewgame`` arrives (freeing
  it held the GIL for 40-80 ms, so a ``go`` sent right after it was stamped that late); and
  on a busy machine a process waits for a CPU, and a thread for the GIL, for tens of
  milliseconds, so an answer aimed at the hard limit arrives after it: the engine measures
  how late its answers were past their aim and aims that much earlier next time
  (``Punctuality``; the estimate decays when the machine is quiet again); a short GIL switch
  interval lets the watchdog and the reader take over from the search thread quickly.
"""

from __future__ import annotations

import gc
import io
import os
import queue
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import BinaryIO, Protocol, TextIO

from sakiyomi.inputs import shown
from sakiyomi.search.limits import MAX_SECONDS, StopSignal, TimePlan

MAX_LINE_BYTES = 1 << 20  # a longer command line is cut here (no command needs more)
STOP_GRACE = 0.03  # seconds ``stop`` waits for the search thread before answering itself
WATCHDOG_GRACE = 0.005  # seconds past the aim before the watchdog answers itself
SWITCH_INTERVAL = 0.001  # seconds a thread may hold the GIL while another waits (default 5 ms)
BASE_LEAD = WATCHDOG_GRACE  # the aim is at least this much before the hard limit
LATENESS_DECAY = 0.95  # per answer: how fast the lateness estimate forgets a slow period
MAX_LEAD_SHARE = 0.5  # the aim never moves earlier than half of the hard limit
# How much of the plan's soft limit a move uses, from how its iterations went (the soft
# limit only decides whether a new iteration starts; the hard limit never moves):
UNSTABLE_SCALE = 1.6  # the best move changed in the last iteration: look deeper
DROP_SCALE = 1.4  # the score fell by DROP_CP or more since the previous iteration
DROP_CP = 30
STABLE_SCALE = 0.6  # the same best move for STABLE_ITERATIONS iterations in a row
STABLE_ITERATIONS = 4
# Commands after which GUIs wait for the engine, off the clock: the time to collect garbage.
# Not ``ucinewgame``/``usinewgame``: GUIs may send ``position`` and ``go`` right after them,
# and a collection holds the GIL, so the reader thread would stamp that ``go`` late.
HOUSEKEEPING_COMMANDS = frozenset({"isready"})


class ProtocolError(Exception):
    """A line the protocol cannot accept; reported as ``info string`` and ignored."""


class Output:
    """Thread-safe line writer (the reader, the search thread and the watchdog all print).

    A write to a closed pipe marks the output ``closed`` instead of raising: the GUI has gone,
    and the loop ends at its next line.
    """

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._lock = threading.Lock()
        self.closed = False

    def send(self, line: str) -> None:
        """Write one line and flush it at once (GUIs wait for whole lines)."""
        with self._lock:
            if self.closed:
                return
            try:
                self._stream.write(line + "\n")
                self._stream.flush()
            except (OSError, ValueError):  # broken pipe, closed stream
                self.closed = True


def stdout_text() -> TextIO:
    """sys.stdout writing UTF-8 whatever the locale, escaping what cannot be encoded."""
    out = sys.stdout
    if isinstance(out, io.TextIOWrapper):
        out.reconfigure(encoding="utf-8", errors="backslashreplace")
    return out


def read_lines(stream: BinaryIO, cap: int = MAX_LINE_BYTES) -> Iterator[str]:
    """Lines of ``stream`` decoded as UTF-8 with replacement; at most ``cap`` bytes of each
    are kept (the rest is read and dropped, so memory stays bounded on any input).
    """
    while True:
        chunk = stream.readline(cap)
        if not chunk:
            return
        if not chunk.endswith(b"\n") and len(chunk) >= cap:
            rest = chunk
            while rest and not rest.endswith(b"\n"):
                rest = stream.readline(cap)
        yield chunk.decode("utf-8", errors="replace")


class Reply:
    """The one final line of one ``go`` (``bestmove …`` or USI's ``checkmate …``).

    The search thread keeps ``update``-ing the best answer so far and calls ``finish`` when it
    ends; the line is sent by whichever comes first of: ``finish`` (unless held), ``release``
    after ``finish`` (held answers: infinite, ponder), ``give`` (``stop``) or the watchdog set
    by ``arm``.  Every later call sends nothing, and ``info`` lines after the answer are dropped
    so a GUI never sees a late search's output after its move.
    """

    def __init__(self, output: Output, fallback: str, *, word: str = "bestmove",
                 held: bool = False) -> None:
        self._out = output
        self._word = word
        self._best = fallback
        self._ponder: str | None = None
        self._held = held
        self._finished = False
        self._given = False
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None
        self.given_at: float | None = None  # perf_counter() when the answer was sent

    @property
    def given(self) -> bool:
        """True once the answer has been sent."""
        return self._given

    @property
    def best(self) -> str:
        """The answer that would be sent now."""
        return self._best

    def update(self, best: str, ponder: str | None = None) -> None:
        """The best answer so far (and the expected reply, for ``ponder``)."""
        with self._lock:
            self._best, self._ponder = best, ponder

    def info(self, line: str) -> None:
        """Send an info line unless the answer has already gone."""
        with self._lock:
            if not self._given:
                self._out.send(line)

    def finish(self) -> None:
        """The search has ended: answer now unless the answer is held."""
        with self._lock:
            self._finished = True
            if not self._held:
                self._give()

    def release(self) -> None:
        """Stop holding the answer (``stop``, ``ponderhit``); answer if the search has ended."""
        with self._lock:
            self._held = False
            if self._finished:
                self._give()

    def arm(self, seconds: float) -> None:
        """The watchdog: answer by itself after ``seconds`` unless answered before."""
        with self._lock:
            if self._given:
                return
            if self._timer is not None:
                self._timer.cancel()
            self._timer = threading.Timer(min(max(0.0, seconds), MAX_SECONDS), self.give)
            self._timer.daemon = True
            self._timer.start()

    def give(self) -> None:
        """Send the answer now (only the first call of any path does)."""
        with self._lock:
            self._give()

    def _give(self) -> None:
        if self._given:
            return
        self._given = True
        self.given_at = time.perf_counter()
        if self._timer is not None:
            self._timer.cancel()
        tail = f" ponder {self._ponder}" if self._ponder else ""
        self._out.send(f"{self._word} {self._best}{tail}")


class Punctuality:
    """How late answers have been past their aim lately, so the next aim can be earlier.

    ``estimate`` is the largest recent lateness, decaying by ``LATENESS_DECAY`` per answer;
    ``lead(hard)`` is how long before the hard limit to aim: the estimate plus ``BASE_LEAD``,
    never more than ``MAX_LEAD_SHARE`` of the limit (a move always gets half its time).
    """

    def __init__(self) -> None:
        self.estimate = 0.0

    def observe(self, lateness: float) -> None:
        """One answer was ``lateness`` seconds after its aim (negative: before it)."""
        self.estimate = max(lateness, self.estimate * LATENESS_DECAY, 0.0)

    def lead(self, hard: float) -> float:
        """Seconds to aim before a hard limit ``hard`` seconds away."""
        return min(self.estimate + BASE_LEAD, hard * MAX_LEAD_SHARE)


class GoSession:
    """One ``go``: its stop signal, its answer and its clock.

    The clock starts at once, or at ``ponderhit`` for a ``go ponder`` (``clock_running=False``):
    then the aim is set (the hard limit minus the ``Punctuality`` lead), the signal gets it as
    its deadline, the soft deadline is set and the watchdog is armed just after the aim.  The
    engine reports each completed iteration (``observe``), which moves the soft deadline:
    later while the best move changes or the score falls, earlier when one move stays best.
    """

    def __init__(self, reply: Reply, plan: TimePlan | None, *, nodes: int | None = None,
                 clock_running: bool = True, punctuality: Punctuality | None = None,
                 received: float | None = None) -> None:
        self.reply = reply
        self.plan = plan
        self.signal = StopSignal(nodes=nodes)
        self.pondering = not clock_running
        self.aim: float | None = None  # perf_counter() time the answer is aimed at
        self._punctuality = punctuality
        self._soft_at: float | None = None
        self._started: float | None = None
        self._best: str | None = None
        self._value = 0
        self._same = 0  # iterations in a row with the same best move
        if clock_running:
            self.start_clock(received)

    def start_clock(self, received: float | None = None) -> None:
        """Deadlines from ``received`` (the ``perf_counter()`` time the command that starts
        the clock arrived; None: now): soft (no new iteration), the aim (abort, and the
        watchdog).
        """
        if self.plan is None:
            return
        hard = self.plan.hard
        lead = self._punctuality.lead(hard) if self._punctuality is not None else 0.0
        now = time.perf_counter()
        start = now if received is None else min(received, now)
        self.aim = start + hard - lead
        self.signal.deadline = self.aim
        self._started = start
        self._soft_at = min(start + self.plan.soft, self.aim)
        self.reply.arm(self.aim - now + WATCHDOG_GRACE)

    def observe(self, best: str, value: int) -> None:
        """An iteration completed with ``best`` as its move and ``value`` (centipawns, from
        the side to move): spend more of the soft limit when the best move changed or the
        score fell, less when one move has stayed best for several iterations.
        """
        changed = self._best is not None and best != self._best
        dropped = self._best is not None and self._value - value >= DROP_CP
        self._same = 1 if best != self._best else self._same + 1
        self._best, self._value = best, value
        if self.plan is None or self._started is None or self.aim is None \
                or self.plan.soft >= self.plan.hard:  # a fixed time (movetime, byoyomi): all
            return
        scale = UNSTABLE_SCALE if changed else (
            STABLE_SCALE if self._same >= STABLE_ITERATIONS else 1.0)
        if dropped:
            scale *= DROP_SCALE
        self._soft_at = min(self._started + self.plan.soft * scale, self.aim)

    def past_soft(self) -> bool:
        """True once no new iteration should start."""
        return self._soft_at is not None and time.perf_counter() >= self._soft_at

    def hard_left(self) -> float | None:
        """Seconds until the hard limit (None: no time limit)."""
        deadline = self.signal.deadline
        return None if deadline is None else max(0.0, deadline - time.perf_counter())

    def ponderhit(self, received: float | None = None) -> None:
        """The pondered move was played (the ``ponderhit`` line arrived at ``received``): the
        clock starts and the answer is no longer held.
        """
        self.pondering = False
        self.start_clock(received)
        self.reply.release()

    def stop(self) -> None:
        """Ask the search to end and let the answer go."""
        self.signal.stop()
        self.reply.release()


class SearchThread:
    """Runs one search at a time in the background."""

    def __init__(self) -> None:
        self._thread: threading.Thread | None = None
        self.session: GoSession | None = None
        self.punctuality = Punctuality()
        self._settled: GoSession | None = None  # the last session folded into punctuality

    def _settle(self) -> None:
        """Fold the last answered search's lateness into ``punctuality`` (once per search)."""
        previous = self.session
        if previous is None or previous is self._settled or previous.aim is None \
                or not previous.reply.given_at:
            return
        self._settled = previous
        self.punctuality.observe(previous.reply.given_at - previous.aim)

    def reserve(self) -> float:
        """Seconds of main time a clock plan should leave untouched: how late this process's
        answers have lately been past their aim.  On a loaded machine answers come late; a
        clock that keeps that much in reserve does not run down to where one late answer
        loses the game.  Fixed times (movetime, byoyomi) need no reserve: the
        ``Punctuality`` lead moves their aim earlier instead.
        """
        self._settle()
        return self.punctuality.estimate

    @property
    def running(self) -> bool:
        """True while a search thread is alive (it may have answered already)."""
        return self._thread is not None and self._thread.is_alive()

    def start(self, session: GoSession, work: Callable[[GoSession], None]) -> None:
        """Answer and end any previous search, then run ``work(session)`` in a new thread;
        whatever ``work`` does or raises, the session's reply is finished when it returns.
        """
        self.halt()
        self._settle()
        self.session = session

        def run() -> None:
            try:
                work(session)
            except Exception as exc:  # a search bug must never leave the GUI without an answer
                session.reply.info(f"info string search error: {type(exc).__name__}: "
                                   f"{str(exc)[:200]}")
            finally:
                session.reply.finish()

        self._thread = threading.Thread(target=run, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop the search and answer within ``STOP_GRACE`` (with the best move so far if the
        search thread has not ended by then; it ends at its next stop poll).
        """
        session = self.session
        if session is None:
            return
        session.stop()
        if self._thread is not None:
            self._thread.join(STOP_GRACE)
        session.reply.give()

    def halt(self) -> None:
        """``stop``, then wait until the search thread has ended (before changing the table
        or the position it uses).
        """
        self.stop()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def wait(self) -> None:
        """Wait for the search to end by itself (end of input after a bounded ``go``)."""
        if self._thread is not None:
            self._thread.join()
            self._thread = None


class Handler(Protocol):
    """One protocol (UCI, USI): answers a command line; returns False on ``quit``.  Its
    searches run on ``thread`` (housekeeping waits while one runs).
    """

    thread: SearchThread

    def handle(self, line: str, received: float | None = None) -> bool:
        """Act on one non-empty line that arrived at ``received`` (``perf_counter()``; None:
        now); raise ProtocolError for a line it cannot accept.
        """
        ...

    def shutdown(self) -> None:
        """Stop any search before the process ends."""
        ...


def _pump(source: BinaryIO, lines: queue.SimpleQueue[tuple[float, str] | None]) -> None:
    """The reader thread: every line of ``source`` with the time it arrived, then None."""
    try:
        for raw in read_lines(source):
            lines.put((time.perf_counter(), raw))
    except (OSError, ValueError):  # stdin closed under us
        pass
    finally:
        lines.put(None)


def serve(handler: Handler, output: Output, stream: BinaryIO | None = None) -> int:
    """Read commands until ``quit``, end of input or a closed output; bad lines become
    ``info string`` lines.  Lines are read and time-stamped by a reader thread; the engine
    process itself (no ``stream`` given) also takes over garbage collection (module
    docstring).
    """
    source = stream
    process = source is None
    if source is None:  # the engine process itself (not a test feeding bytes)
        # A reader of its own on a copy of stdin's descriptor: the interpreter's shutdown
        # flushes sys.stdin and would abort the process if the (daemon) reader thread held
        # that object's lock, blocked in a read, at exit.
        source = open(os.dup(sys.stdin.fileno()), "rb")  # noqa: SIM115 (lives as the process)
        sys.setswitchinterval(SWITCH_INTERVAL)
        gc.disable()
    lines: queue.SimpleQueue[tuple[float, str] | None] = queue.SimpleQueue()
    threading.Thread(target=_pump, args=(source, lines), daemon=True).start()
    try:
        while (item := lines.get()) is not None:
            received, raw = item
            line = raw.strip()
            if not line:
                continue
            housekeeping = process and line.split()[0] in HOUSEKEEPING_COMMANDS
            if housekeeping and not handler.thread.running:
                gc.collect()
            try:
                if not handler.handle(line, received):
                    break
            except ProtocolError as exc:
                output.send(f"info string error: {exc}")
            except Exception as exc:  # an engine must survive anything a GUI sends
                output.send(f"info string internal error on {shown(line)}: "
                            f"{type(exc).__name__}: {str(exc)[:200]}")
            if output.closed:
                break
    except KeyboardInterrupt:
        pass
    finally:
        handler.shutdown()
    return 0
