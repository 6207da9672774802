"""The one interface every backend offers the coordinator (local processes, Ray).

A backend owns a set of workers, each keeping a ``jobs.Worker`` (its engine tables) between
jobs.  The coordinator hands it at most ``idle()`` jobs at a time, may cancel a job it no
longer needs, and collects results with ``poll``.  A backend hides lost workers: a job whose
worker died is run again on a new worker (``restarts`` counts them), so the coordinator sees
each job end exactly once, as "done", "cancelled" or "error".
"""

from __future__ import annotations

from typing import Protocol

from sakiyomi.parallel.jobs import Job, JobResult


class BackendError(RuntimeError):
    """A backend that cannot start or reach its workers (reported in one line by the CLI)."""


class Backend(Protocol):
    """Workers that run jobs (see the module doc)."""

    @property
    def workers(self) -> int:
        """How many jobs run at once."""
        ...

    @property
    def restarts(self) -> int:
        """Jobs run again because their worker was lost."""
        ...

    def idle(self) -> int:
        """How many more jobs may be submitted now."""
        ...

    def submit(self, job: Job, prefer: str | None = None) -> None:
        """Start ``job`` (``prefer``: a worker name whose table likely helps it)."""
        ...

    def cancel(self, job_id: int) -> None:
        """Stop a submitted job soon (it then ends as "cancelled", or as done if it won)."""
        ...

    def poll(self, timeout: float) -> list[JobResult]:
        """Results that arrived, waiting up to ``timeout`` seconds for the first."""
        ...

    def close(self) -> None:
        """Stop every worker."""
        ...
