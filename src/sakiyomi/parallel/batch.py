"""Batch solving over workers: one job per line, and the lines left at the end split.

``solve GAME - --workers N`` has many positions to solve.  Giving each line to a worker as one
whole-solve job keeps every worker busy while lines remain to hand out, at no cost beyond the
solve itself.  At the end of the batch that stops working: the last lines run one per worker
while the other workers idle, and one long line (FFO #49 is most of #40-#49's work) sets the
wall time of the whole batch.  So when no line is left to hand out, a worker is idle and a line
has run longer than ``split_after`` seconds, that line's job is cancelled and the line is
solved by the job-level solver (``solver.ParallelSolver``) over every worker, through a
``Lane`` of the same backend.  The cancelled job's work is not lost where the workers share
a table (local workers, compiled engine): its proofs are in the table the split jobs search.

Each result is handed to ``on_result`` as soon as it is known, in any order (the caller
prints in input order); each finished line is written to the store, and a line whose exact
value the store already holds is not solved again (a resumed batch).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from sakiyomi.parallel.backend import Backend
from sakiyomi.parallel.jobs import Job, JobResult
from sakiyomi.parallel.solver import ParallelSolver, Progress
from sakiyomi.parallel.split import SplitPlan
from sakiyomi.parallel.store import Bounds, JobRecord, Store

_LANE_SPAN = 1 << 32  # each lane's job ids live in [base - span/2, base + span/2)


class Lane:
    """One backend seen by a ``ParallelSolver`` while a batch's own jobs run beside it.

    The solver's job ids are moved into a range of their own (``base`` added), so they never
    meet the batch's (line numbers); results of jobs that are not the lane's are kept in
    ``stash`` for the batch instead of being handed to the solver.  Closing a lane closes
    nothing: the batch owns the backend.
    """

    def __init__(self, backend: Backend, base: int, stash: list[JobResult]) -> None:
        self._backend = backend
        self._base = base
        self._stash = stash

    @property
    def workers(self) -> int:
        """How many jobs run at once (the whole backend's)."""
        return self._backend.workers

    @property
    def restarts(self) -> int:
        """Jobs run again because their worker was lost."""
        return self._backend.restarts

    def idle(self) -> int:
        """How many more jobs may be submitted now."""
        return self._backend.idle()

    def submit(self, job: Job, prefer: str | None = None) -> None:
        """Start ``job`` under the lane's id."""
        self._backend.submit(dataclasses.replace(job, id=self._base + job.id), prefer)

    def cancel(self, job_id: int) -> None:
        """Stop the lane's job ``job_id``."""
        self._backend.cancel(self._base + job_id)

    def owns(self, job_id: int) -> bool:
        """True for an id (as the backend sees it) of one of this lane's jobs."""
        return abs(job_id - self._base) < _LANE_SPAN // 2

    def poll(self, timeout: float) -> list[JobResult]:
        """The lane's results (ids as the solver gave them); others go to the stash."""
        mine = []
        for result in self._backend.poll(timeout):
            if self.owns(result.job_id):
                mine.append(dataclasses.replace(result, job_id=result.job_id - self._base))
            else:
                self._stash.append(result)
        return mine

    def close(self) -> None:
        """Nothing: the backend outlives the lane."""


@dataclass(slots=True)
class _Line:
    """A line's job while it runs: when it started, and what a cancelled attempt spent."""

    started: float
    first_start: float
    nodes: int = 0
    cpu: float = 0.0
    split: bool = False  # cancelled to be split: solve it over every worker when it returns


@dataclass(slots=True)
class BatchSolver:
    """Solve ``positions`` (texts of ``game_name``) over ``backend`` (see the module doc).

    ``on_result(index, result)`` gets each line's result once; a line solved by splitting has
    ``worker == "split"`` and its nodes and CPU include the cancelled first attempt's.
    ``keys[i]`` is line i's store key (its ``game.key()``).
    """

    game_name: str
    positions: Sequence[str]
    keys: Sequence[int]
    backend: Backend
    store: Store
    on_result: Callable[[int, JobResult], None]
    weak: bool = False
    engine: str = "auto"
    split_after: float = 1.0
    on_progress: Callable[[str], None] | None = None
    _running: dict[int, _Line] = field(default_factory=dict)
    _stash: list[JobResult] = field(default_factory=list)
    _done: int = 0
    _lanes: int = 0
    _start: float = field(default_factory=time.perf_counter)

    @property
    def kind(self) -> str:
        """The job kind of a whole line."""
        return "weak" if self.weak else "solve"

    def run(self) -> None:
        """Solve every line; returns when each has been handed to ``on_result``."""
        queue = []
        for index, key in enumerate(self.keys):
            known = self.store.get(key) if not self.weak else None
            if known is not None and known.exact:
                self._finish(index, JobResult(index, "done", known.lower, known.best,
                                              (known.best,) if known.best else ()))
            else:
                queue.append(index)
        while self._done < len(self.positions):
            while queue and self.backend.idle():
                self._submit(queue.pop(0))
            if not queue:
                self._split_one()
            results, self._stash = self._stash + self.backend.poll(0.25), []
            for result in results:
                line = self._running.get(result.job_id)
                if line is None:
                    continue  # a finished lane's leftover (cancelled) job
                if result.status == "cancelled" and not line.split:
                    queue.append(result.job_id)  # not ours to lose: run it again
                    del self._running[result.job_id]
                elif result.status == "cancelled":
                    line.nodes += result.nodes
                    line.cpu += result.seconds
                    self._solve_split(result.job_id, line)
                else:
                    del self._running[result.job_id]
                    self._finish(result.job_id, result, record=result.status == "done")
            self._show(f"positions {self._done}/{len(self.positions)}")

    def _submit(self, index: int) -> None:
        now = time.perf_counter()
        line = self._running.get(index)
        self._running[index] = _Line(now, line.first_start if line is not None else now)
        self.backend.submit(Job(index, self.game_name, self.positions[index], (), self.kind, 0,
                                self.engine))

    def _split_one(self) -> None:
        """With a worker idle and nothing to hand out, cancel the oldest line that has run
        long enough, to be split when its cancelled job comes back.
        """
        if not self.backend.idle() or any(line.split for line in self._running.values()):
            return
        now = time.perf_counter()
        oldest = min(self._running.items(), key=lambda item: item[1].started, default=None)
        if oldest is not None and now - oldest[1].started >= self.split_after:
            oldest[1].split = True
            self.backend.cancel(oldest[0])

    def _solve_split(self, index: int, line: _Line) -> None:
        """Solve line ``index`` with the job-level solver over every worker."""
        self._lanes += 1
        lane = Lane(self.backend, self._lanes * _LANE_SPAN, self._stash)
        position = self.positions[index]

        def progress(p: Progress) -> None:
            self._show(f"positions {self._done}/{len(self.positions)}  line {index + 1} split: "
                       f"jobs {p.done}/{p.total}  value in [{p.lower}, {p.upper}]")

        solver = ParallelSolver(self.game_name, position, lane, self.store, weak=self.weak,
                                engine=self.engine,
                                plan=SplitPlan(target=16 * self.backend.workers),
                                on_progress=progress)
        outcome = solver.solve()
        del self._running[index]
        self._finish(index, JobResult(
            index, "done", outcome.value, outcome.best_move, outcome.pv,
            line.nodes + outcome.nodes, seconds=line.cpu + outcome.cpu,
            wall=time.perf_counter() - line.first_start, worker="split"), record=False)

    def _finish(self, index: int, result: JobResult, record: bool = False) -> None:
        if record and not self.weak:
            self.store.record(JobRecord(self.keys[index], self.positions[index], self.kind,
                                        result.value, result.value, result.value, result.best,
                                        result.nodes, result.seconds, result.worker),
                              Bounds(result.value, result.value, result.best))
        self._done += 1
        self.on_result(index, result)

    def _show(self, text: str) -> None:
        if self.on_progress is not None:
            self.on_progress(f"{text}  elapsed {time.perf_counter() - self._start:.1f}s")
