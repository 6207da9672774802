"""The default backend: worker processes on this machine (``multiprocessing``, forked).

Each worker runs one job at a time and keeps its ``jobs.Worker`` (engine tables) for its whole
life.  Workers are forked from the coordinator after it has loaded the game's compiled search
(``prepare``), so a worker starts in milliseconds with the kernels in memory instead of
importing sakiyomi and numba and loading the kernels again (1.5-4 CPU-seconds each when they
were spawned); and they share one compiled transposition table in shared memory (an
anonymous shared ``mmap``): each finds what the others proved.  Where ``fork`` is missing
the workers are spawned, each with its own table.

Two one-way pipes per worker carry jobs and cancels in and results out; a reader thread in
the worker turns a cancel into ``StopSignal.stop()`` of the running job (both engines stop
within milliseconds from another thread).  The coordinator waits on the result pipes and the
process sentinels together, so a worker that dies (killed, out of memory) is noticed at once;
its job is given to a fresh worker.  Each worker starts its own session (``setsid``): Linux's
autogroup scheduler then treats workers as separate groups rather than sharing one group's
CPU share between them.  A worker whose coordinator disappears (``kill -9``) exits as soon as
its job pipe closes.
"""

from __future__ import annotations

import contextlib
import mmap
import multiprocessing
import os
import queue
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any

import numpy as np

from sakiyomi.engines import compiled_available, engine_for, solver_config
from sakiyomi.game import Game
from sakiyomi.parallel.backend import BackendError
from sakiyomi.parallel.jobs import Job, JobResult, Worker
from sakiyomi.search.limits import StopSignal


def serve(tasks: Connection, results: Connection, name: str, table: Any = None,
          theirs: Sequence[Connection] = ()) -> None:
    """A worker process's main function: run jobs from ``tasks`` until told to quit.
    ``theirs``: the coordinator's pipe ends a forked worker inherited, closed at once.
    """
    for conn in theirs:
        with contextlib.suppress(OSError):
            conn.close()
    with contextlib.suppress(OSError):
        os.setsid()
    worker = Worker(name, table)
    pending: queue.SimpleQueue[Job | None] = queue.SimpleQueue()
    lock = threading.Lock()
    cancelled: set[int] = set()
    current: list[tuple[int, StopSignal]] = []

    def read() -> None:
        try:
            while True:
                kind, payload = tasks.recv()
                if kind == "job":
                    pending.put(payload)
                elif kind == "cancel":
                    with lock:
                        cancelled.add(payload)
                        for job_id, stop in current:
                            if job_id == payload:
                                stop.stop()
                else:
                    pending.put(None)
                    return
        except (EOFError, OSError):  # the coordinator is gone: nothing to report to
            os._exit(0)

    threading.Thread(target=read, daemon=True).start()
    while (job := pending.get()) is not None:
        stop = StopSignal()
        with lock:
            skip = job.id in cancelled
            current[:] = [(job.id, stop)]
        result = JobResult(job.id, "cancelled", worker=name) if skip else worker.run(job, stop)
        with lock:
            current.clear()
            cancelled.discard(job.id)
        try:
            results.send(result)
        except (BrokenPipeError, OSError):
            return


def prepare(game: Game[Any], engine: str, share: bool) -> Any:
    """Load ``game``'s compiled search in this process (forked workers inherit it) and, when
    ``share``, allocate the table the workers will share; returns it (None: no compiled
    engine, nothing to share).
    """
    if engine == "python" or not compiled_available(game):
        return None
    engine_for(game.copy(), engine=engine).search(0)  # loads (or compiles) the kernels
    if not share:
        return None
    words = 2 << max(0, solver_config(game).tt_capacity - 1).bit_length()  # as CompiledSearch
    buffer = mmap.mmap(-1, 8 * words)  # anonymous and MAP_SHARED: seen by forked children
    return np.frombuffer(buffer, dtype=np.uint64)


@dataclass(slots=True)
class _Slot:
    name: str
    process: BaseProcess
    tasks: Connection
    results: Connection
    job: Job | None = None


class LocalBackend:
    """``workers`` worker processes on this machine (see the module doc)."""

    def __init__(self, workers: int, game: Game[Any] | None = None,
                 engine: str = "auto") -> None:
        if workers < 1:
            raise BackendError(f"--workers must be at least 1, not {workers}")
        self._ctx = (multiprocessing.get_context("fork")
                     if "fork" in multiprocessing.get_all_start_methods()
                     else multiprocessing.get_context("spawn"))
        self._count = 0
        self._restarts = 0
        self._table: Any = None
        if game is not None:
            self._table = prepare(game, engine, self._ctx.get_start_method() == "fork")
        self._slots: list[_Slot] = []
        for _ in range(workers):
            self._slots.append(self._start())

    def _start(self) -> _Slot:
        self._count += 1
        name = f"local-{self._count}"
        task_out, task_in = self._ctx.Pipe(duplex=False)  # (reader, writer)
        result_out, result_in = self._ctx.Pipe(duplex=False)
        # A forked child inherits every pipe end the coordinator holds: it must close the
        # coordinator's (its own job pipe's writer above all), or it would never see the pipe
        # close when the coordinator dies.
        theirs = [task_in, result_out, *(c for slot in self._slots
                                         for c in (slot.tasks, slot.results))]
        if self._ctx.get_start_method() != "fork":
            theirs = []  # a spawned child inherits no pipe ends (passing them would copy them)
        process = self._ctx.Process(target=serve,
                                    args=(task_out, result_in, name, self._table, theirs),
                                    name=f"sakiyomi-{name}", daemon=True)
        process.start()
        task_out.close()
        result_in.close()
        return _Slot(name, process, task_in, result_out)

    @property
    def shared_table(self) -> bool:
        """True when the workers share one compiled table (forked, compiled engine)."""
        return self._table is not None

    # ---- Backend --------------------------------------------------------------------------

    @property
    def workers(self) -> int:
        """How many jobs run at once."""
        return len(self._slots)

    @property
    def restarts(self) -> int:
        """Jobs run again because their worker died."""
        return self._restarts

    def pids(self) -> list[int | None]:
        """The worker processes' ids (tests kill one)."""
        return [slot.process.pid for slot in self._slots]

    def busy_pids(self) -> list[int]:
        """The process ids of workers running a job (tests kill one)."""
        return [slot.process.pid for slot in self._slots
                if slot.job is not None and slot.process.pid is not None]

    def idle(self) -> int:
        """Workers without a job."""
        return sum(1 for slot in self._slots if slot.job is None)

    def submit(self, job: Job, prefer: str | None = None) -> None:
        """Give ``job`` to an idle worker (``prefer``red one if idle)."""
        free = [slot for slot in self._slots if slot.job is None]
        if not free:
            raise BackendError("no idle worker")
        slot = next((s for s in free if s.name == prefer), free[0])
        self._send(slot, job)

    def _send(self, slot: _Slot, job: Job) -> None:
        slot.job = job
        # A dead worker cannot take it: poll() sees its sentinel and runs the job again.
        with contextlib.suppress(OSError):
            slot.tasks.send(("job", job))

    def cancel(self, job_id: int) -> None:
        """Ask the worker running ``job_id`` to stop it."""
        for slot in self._slots:
            if slot.job is not None and slot.job.id == job_id:
                with contextlib.suppress(OSError):
                    slot.tasks.send(("cancel", job_id))

    def poll(self, timeout: float) -> list[JobResult]:
        """Results that arrived; dead workers are replaced and their jobs run again."""
        waitables: list[object] = [s.results for s in self._slots]
        waitables += [s.process.sentinel for s in self._slots]
        wait(waitables, timeout)  # type: ignore[arg-type]
        out: list[JobResult] = []
        for index, slot in enumerate(self._slots):
            try:
                while slot.results.poll():
                    result: JobResult = slot.results.recv()
                    if slot.job is not None and slot.job.id == result.job_id:
                        slot.job = None
                    out.append(result)
            except (EOFError, OSError):
                pass
            if not slot.process.is_alive():
                lost = slot.job
                self._retire(slot)
                fresh = self._start()
                self._slots[index] = fresh
                if lost is not None:
                    self._restarts += 1
                    self._send(fresh, lost)
        return out

    def _retire(self, slot: _Slot) -> None:
        for conn in (slot.tasks, slot.results):
            conn.close()
        slot.process.join(timeout=1)

    def close(self) -> None:
        """Stop every worker (running jobs are abandoned)."""
        for slot in self._slots:
            try:
                if slot.job is not None:
                    slot.tasks.send(("cancel", slot.job.id))
                slot.tasks.send(("quit", None))
            except (BrokenPipeError, OSError):
                pass
        for slot in self._slots:
            slot.process.join(timeout=2)
            if slot.process.is_alive():
                slot.process.kill()
                slot.process.join(timeout=2)
            for conn in (slot.tasks, slot.results):
                conn.close()
        self._slots = []
