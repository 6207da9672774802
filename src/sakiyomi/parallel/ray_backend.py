"""The distributed backend: one Ray actor per worker, on a Ray cluster (extra ``distributed``).

Each actor holds a ``jobs.Worker`` (its engine tables) for its life and runs one job at a time;
it allows two concurrent calls so that ``cancel`` reaches the running job (as a
``StopSignal.stop()`` from Ray's second thread).  An actor that dies (its node lost, its
process killed) surfaces as a ``RayActorError`` when its result is fetched; a new actor is
started and the job runs again.

``address``: ``"auto"`` joins the cluster this machine belongs to (``ray start`` was run here),
``"local"`` starts a private one-machine Ray, ``host:port`` joins the cluster whose head
listens there (``ray start --head --port=PORT`` on the head; see docs/parallel.md).  The
address is tried with a plain TCP connection first, so that an unreachable one is reported at
once instead of after Ray's retries.  Every node must have sakiyomi installed.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import socket
import threading
from typing import Any

from sakiyomi.inputs import parse_int, shown
from sakiyomi.parallel.backend import BackendError
from sakiyomi.parallel.jobs import Job, JobResult, Worker
from sakiyomi.search.limits import StopSignal


class ActorBody:
    """What runs inside one Ray actor (see the module doc)."""

    def __init__(self, name: str) -> None:
        self.worker = Worker(name)
        self._lock = threading.Lock()
        self._running: dict[int, StopSignal] = {}
        self._cancelled: set[int] = set()

    def run(self, job: Job) -> JobResult:
        """Run one job (unless it was cancelled before it started)."""
        stop = StopSignal()
        with self._lock:
            if job.id in self._cancelled:
                return JobResult(job.id, "cancelled", worker=self.worker.name)
            self._running[job.id] = stop
        try:
            return self.worker.run(job, stop)
        finally:
            with self._lock:
                self._running.pop(job.id, None)

    def cancel(self, job_id: int) -> None:
        """Stop the job if it runs, or mark it so that it never starts."""
        with self._lock:
            stop = self._running.get(job_id)
            if stop is None:
                self._cancelled.add(job_id)
        if stop is not None:
            stop.stop()


def _reachable(address: str, timeout: float = 5.0) -> None:
    host, _, text = address.rpartition(":")
    if not host:
        raise BackendError(f"--ray {shown(address)}: expected 'auto', 'local' or HOST:PORT")
    port = parse_int(text, "--ray port", low=1, high=65535, error=BackendError)
    try:
        with socket.create_connection((host, port), timeout=timeout):
            pass
    except OSError as exc:
        raise BackendError(f"cannot reach a Ray cluster at {address}: {exc}") from None


class RayBackend:
    """Workers as Ray actors (see the module doc)."""

    def __init__(self, address: str, workers: int | None = None) -> None:
        if workers is not None and workers < 1:
            raise BackendError(f"--workers must be at least 1, not {workers}")
        try:
            ray: Any = importlib.import_module("ray")
        except ImportError:
            raise BackendError("--ray needs Ray: pip install 'sakiyomi[distributed]'") from None
        self._ray: Any = ray
        self._owned = False
        if not ray.is_initialized():
            if address not in ("auto", "local"):
                _reachable(address)
            try:
                if address == "local":
                    ray.init(num_cpus=workers or 2, include_dashboard=False,
                             logging_level=logging.ERROR, log_to_driver=False)
                else:
                    ray.init(address=address, logging_level=logging.ERROR, log_to_driver=False)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                raise BackendError(f"cannot join the Ray cluster at {address}: "
                                   f"{str(exc).splitlines()[0] if str(exc) else exc}") from None
            self._owned = True
        cpus = int(ray.cluster_resources().get("CPU", 1))
        self._n = workers if workers is not None else max(1, cpus)
        self._actor_class = ray.remote(num_cpus=1, max_concurrency=2)(ActorBody)
        self._count = 0
        self._restarts = 0
        self._names: list[str] = []
        self._actors: list[Any] = []
        for _ in range(self._n):
            actor, name = self._spawn()
            self._actors.append(actor)
            self._names.append(name)
        self._busy: dict[int, tuple[Any, Job]] = {}  # actor index -> (ref, job)

    def _spawn(self) -> tuple[Any, str]:
        self._count += 1
        name = f"ray-{self._count}"
        return self._actor_class.remote(name), name

    @property
    def workers(self) -> int:
        """How many actors run jobs."""
        return self._n

    @property
    def restarts(self) -> int:
        """Jobs run again because their actor was lost."""
        return self._restarts

    def busy_actors(self) -> list[Any]:
        """The handles of actors running a job (tests kill one)."""
        return [self._actors[index] for index in self._busy]

    def idle(self) -> int:
        """Actors without a job."""
        return self._n - len(self._busy)

    def submit(self, job: Job, prefer: str | None = None) -> None:
        """Start ``job`` on an idle actor (the ``prefer``red one when idle)."""
        free = [i for i in range(self._n) if i not in self._busy]
        if not free:
            raise BackendError("no idle worker")
        index = next((i for i in free if self._names[i] == prefer), free[0])
        self._busy[index] = (self._actors[index].run.remote(job), job)

    def cancel(self, job_id: int) -> None:
        """Ask the actor running ``job_id`` to stop it."""
        for index, (_, job) in self._busy.items():
            if job.id == job_id:
                self._actors[index].cancel.remote(job_id)

    def poll(self, timeout: float) -> list[JobResult]:
        """Finished jobs; a lost actor is replaced and its job run again."""
        ray = self._ray
        refs = {ref: index for index, (ref, _) in self._busy.items()}
        if not refs:
            return []
        ready, rest = ray.wait(list(refs), num_returns=1, timeout=timeout)
        if not ready:
            return []
        if rest:
            ready += ray.wait(rest, num_returns=len(rest), timeout=0)[0]
        out: list[JobResult] = []
        for ref in ready:
            index = refs[ref]
            job = self._busy.pop(index)[1]
            try:
                result: JobResult = ray.get(ref)
            except (ray.exceptions.RayActorError, ray.exceptions.WorkerCrashedError):
                self._restarts += 1
                self._actors[index], self._names[index] = self._spawn()
                self._busy[index] = (self._actors[index].run.remote(job), job)
                continue
            out.append(result)
        return out

    def close(self) -> None:
        """Stop the actors (and the private Ray this backend started)."""
        ray = self._ray
        for actor in self._actors:
            with contextlib.suppress(Exception):  # an actor already gone is fine
                ray.kill(actor)
        self._actors = []
        self._busy = {}
        if self._owned:
            ray.shutdown()
