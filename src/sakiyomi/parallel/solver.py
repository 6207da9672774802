"""The coordinator: solve one position with many workers, resumably.

1. Split the top of the tree (``split.SplitTree``), using what the store already knows.
2. Bisect the root value with null-window questions "value > alpha?" (the serial solver's
   probe order, ``search.solve.next_probe`` or zero first), each answered by frontier jobs
   (``combine.wanted``): free workers get the first undecided questions, best moves first.
3. As each result arrives it is written to the store (a checkpoint) and combined by negamax
   (``combine.refresh``); running jobs that can no longer change the root are cancelled.

A rerun with the same store finds every finished job's answer in it, so no finished job runs
again, and it reaches the same value (the value of a position does not depend on how it was
found).  The best move is one the tree proves reaches that value.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from sakiyomi.engines import solver_config
from sakiyomi.game import GameError
from sakiyomi.games import load
from sakiyomi.parallel.backend import Backend
from sakiyomi.parallel.combine import Node, principal_line, refresh, wanted
from sakiyomi.parallel.jobs import Job, JobResult
from sakiyomi.parallel.split import SplitPlan, SplitTree, score_range
from sakiyomi.parallel.store import Bounds, JobRecord, Store
from sakiyomi.score import INF, result_word
from sakiyomi.search.solve import next_probe


@dataclass(slots=True)
class Progress:
    """What a progress display shows; updated by the coordinator as jobs end."""

    done: int = 0  # jobs finished in this run
    cancelled: int = 0
    running: int = 0
    queued: int = 0  # undecided questions not yet running
    nodes: int = 0
    cpu: float = 0.0  # workers' CPU seconds
    by_worker: dict[str, float] = field(default_factory=dict)  # CPU seconds in jobs, per worker
    started: float = field(default_factory=time.perf_counter)
    lower: int = -INF
    upper: int = INF

    @property
    def elapsed(self) -> float:
        """Wall seconds since the solve started."""
        return time.perf_counter() - self.started

    @property
    def total(self) -> int:
        """Jobs done plus those still wanted (the number grows and shrinks as bounds move)."""
        return self.done + self.running + self.queued


@dataclass(frozen=True, slots=True)
class ParallelResult:
    """The outcome of a parallel solve: internal score from the side to move (a weak solve:
    -1, 0 or 1), a best move and the line the tree proves (texts), and the accounting.
    """

    value: int
    best_move: str | None
    pv: tuple[str, ...]
    nodes: int
    jobs: int
    cancelled: int
    restarts: int
    seconds: float
    cpu: float
    split_depth: int
    frontier: int
    trace: tuple[tuple[int, float], ...] = ()  # (root probe number, CPU s) per finished job
    worker_cpu: tuple[float, ...] = ()  # CPU seconds each worker spent in jobs, most first

    @property
    def critical_cpu(self) -> float:
        """The busiest worker's CPU seconds in jobs: the solve's wall time, coordinator
        aside, if every worker had a core of its own (a load-independent measure).
        """
        return self.worker_cpu[0] if self.worker_cpu else 0.0

    @property
    def result(self) -> str:
        """'win', 'draw' or 'loss' for the side to move."""
        return result_word(self.value)


class ParallelSolver:
    """Solve one position with a backend and a store (see the module doc)."""

    def __init__(self, game_name: str, position: str, backend: Backend, store: Store, *,
                 weak: bool = False, engine: str = "auto", plan: SplitPlan | None = None,
                 on_progress: Callable[[Progress], object] | None = None,
                 split_after: float = 0.5) -> None:
        self.game_name = game_name
        self.position = position
        self.game = load(game_name, position)
        if self.game.outcome() is not None:
            raise GameError(f"position {position!r} is already finished: there is nothing "
                            "to solve")
        self.backend = backend
        self.store = store
        self.weak = weak
        self.engine = engine
        self.plan = plan if plan is not None else SplitPlan(target=16 * backend.workers)
        self.on_progress = on_progress
        self.split_after = split_after
        self._started: dict[int, float] = {}
        self.progress = Progress()
        self._pons = solver_config(self.game).bisection == "pons"
        self._ids = 0
        self._running: dict[int, tuple[Node, int, Job]] = {}
        self._affinity: dict[int, str] = {}
        self._probes = 0
        self._trace: list[tuple[int, float]] = []

    # ---- the root interval ----------------------------------------------------------------

    def _interval(self, root: Node) -> tuple[int, int]:
        if not self.weak:
            return root.lo, root.hi
        return min(max(root.lo, -1), 1), max(min(root.hi, 1), -1)

    def _probe(self, lo: int, hi: int, first: bool) -> int:
        if self._pons:
            return next_probe(lo, hi)
        if first and lo <= 0 < hi:
            return 0
        return lo + (hi - lo) // 2

    # ---- main loop ------------------------------------------------------------------------

    def solve(self) -> ParallelResult:
        """Run to the exact value (or win/draw/loss)."""
        for number in range(self.backend.idle()):  # workers load their engines meanwhile
            self.backend.submit(Job(-1 - number, self.game_name, self.position, (), "warm", 0,
                                    self.engine))
        tree = SplitTree(self.game_name, self.position, self.game, self.store, self.plan,
                         self.engine)
        root = tree.root
        progress = self.progress
        alpha: int | None = None
        first = True
        try:
            while True:
                refresh(root)
                lo, hi = self._interval(root)
                progress.lower, progress.upper = lo, hi
                if lo >= hi:
                    break
                if alpha is None or not lo <= alpha < hi:
                    alpha = self._probe(lo, hi, first)
                    first = False
                    self._probes += 1
                questions = wanted(root, alpha)
                if not questions:
                    raise RuntimeError("undecided root with no open question (a bug)")
                self._dispatch(questions)
                if self.backend.idle() and self._split_running(tree):
                    continue
                for result in self.backend.poll(0.1):
                    self._absorb(result)
                if self.on_progress is not None:
                    self.on_progress(progress)
        finally:
            for job_id in list(self._running):
                self.backend.cancel(job_id)
        value = lo
        target = value if not self.weak else (1 if value > 0 else 0 if value == 0 else -INF)
        line = principal_line(root, target)
        if not line:  # decided without children or a stored move: one search names a move
            window = (value - 1, value + 1) if not self.weak else \
                ((0, 1) if value > 0 else (-1, 1) if value == 0 else (-INF, INF))
            move = tree.root_move(*window)
            line = [move] if move is not None else []
        if not self.weak:  # remember the root's value: a rerun, the book and play find it
            self.store.merge(root.store_key, root.text,
                             Bounds(value, value, line[0] if line else None))
        return ParallelResult(
            value, line[0] if line else None, tuple(line), progress.nodes, progress.done,
            progress.cancelled, self.backend.restarts, progress.elapsed, progress.cpu,
            tree.depth, len(tree.frontier()), tuple(self._trace),
            tuple(sorted(progress.by_worker.values(), reverse=True)))

    def _dispatch(self, questions: list[tuple[Node, int]]) -> None:
        """Cancel running jobs no longer wanted; give free workers the first new questions."""
        wanted_ids = {(id(node), a) for node, a in questions}
        for job_id, (node, a, _) in list(self._running.items()):
            if (id(node), a) not in wanted_ids:
                self.backend.cancel(job_id)
        busy = {(id(node), a) for node, a, _ in self._running.values()}
        queued = [(n, a) for n, a in questions if (id(n), a) not in busy]
        self.progress.running = len(self._running)
        self.progress.queued = len(queued)
        free = self.backend.idle()
        for node, a in queued[:free]:
            self._ids += 1
            job = Job(self._ids, self.game_name, self.position, node.path, "test", a,
                      self.engine)
            self._running[job.id] = (node, a, job)
            self._started[job.id] = time.perf_counter()
            self.backend.submit(job, prefer=self._affinity.get(id(node)))

    def _split_running(self, tree: SplitTree) -> bool:
        """With a worker idle and nothing left to give it, split the oldest job that has run
        longer than ``split_after`` seconds: its node gets children (their questions replace
        its own) and the job is cancelled.  True when a node was split.
        """
        now = time.perf_counter()
        for job_id, (node, _, _) in sorted(self._running.items(),
                                           key=lambda item: self._started[item[0]]):
            if now - self._started[job_id] < self.split_after:
                return False
            if tree.expand(node):
                self.backend.cancel(job_id)
                return True
        return False

    def _absorb(self, result: JobResult) -> None:
        """Record one finished job and learn from it."""
        entry = self._running.pop(result.job_id, None)
        self._started.pop(result.job_id, None)
        if entry is None:
            return
        node, alpha, job = entry
        progress = self.progress
        progress.cpu += result.seconds
        progress.by_worker[result.worker] = (progress.by_worker.get(result.worker, 0.0)
                                             + result.seconds)
        progress.nodes += result.nodes
        if result.status == "error":
            raise GameError(f"job on {node.text}: {result.error}")
        if result.status != "done":
            progress.cancelled += 1
            return
        progress.done += 1
        self._trace.append((self._probes, result.seconds))
        self._affinity[id(node)] = result.worker
        lo, hi = score_range(self.game)
        bounds = (Bounds(result.value, INF, result.best) if result.value > alpha
                  else Bounds(-INF, result.value, None))
        record = JobRecord(node.store_key, node.text, job.kind, alpha, alpha + 1, result.value,
                           result.best, result.nodes, result.seconds, result.worker)
        stored = self.store.record(record, bounds)
        node.learn(max(stored.lower, lo), min(stored.upper, hi), stored.best)

