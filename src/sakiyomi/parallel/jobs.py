"""Jobs: the unit of work sent to a worker, its result, and the worker-side code that runs it.

A job names a position by the game, a root POSITION text and the moves (texts) from that root,
so any worker — another process, another machine — can rebuild it with the game registry and
nothing else.  It asks one of two questions of either engine (``sakiyomi.engines``):

* ``"test"``: a null-window search (alpha, alpha + 1) to the end of the game: the fail-soft
  answer bounds the value from one side (``value > alpha``: a lower bound; else an upper one);
* ``"solve"`` / ``"weak"``: the exact value (or win/draw/loss) by ``search.solve.solve``;
* ``"warm"``: nothing but making the worker's engine ready (loading the compiled search takes
  a second or more), sent while the coordinator is still splitting.

``Worker`` is what each worker process (or Ray actor) keeps between jobs: one ``EngineSession``
per game and engine, so its transposition table persists from job to job (positions of one
solve share most of their subtrees), and each root position parsed once.  Local workers
started by ``fork`` share one compiled table (``table``): what one worker proves, the others
find (Lazy SMP's shared table, over processes).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Any

from sakiyomi.engines import EngineSession
from sakiyomi.game import Game, GameError
from sakiyomi.games import load
from sakiyomi.search.limits import SearchAborted, StopSignal
from sakiyomi.search.solve import FULL_DEPTH, solve

KINDS = ("test", "solve", "weak", "warm")


@dataclass(frozen=True, slots=True)
class Job:
    """One question about one position (see the module doc); ``id`` is unique in a run."""

    id: int
    game: str
    root: str
    path: tuple[str, ...]
    kind: str
    alpha: int = 0
    engine: str = "auto"


@dataclass(frozen=True, slots=True)
class JobResult:
    """A worker's answer.  ``status`` is "done", "cancelled" (stopped by the coordinator: no
    information) or "error" (``error`` says why, e.g. a bad position line in a batch).
    ``value`` is the fail-soft value of a test or the exact value of a solve, from the side to
    move at the job's position; ``best`` a move reaching it (a test: only when it failed high);
    ``seconds`` is the worker's CPU time, ``wall`` its elapsed time.
    """

    job_id: int
    status: str
    value: int = 0
    best: str | None = None
    pv: tuple[str, ...] = ()
    nodes: int = 0
    leaves: int = 0
    seconds: float = 0.0
    wall: float = 0.0
    error: str = ""
    worker: str = ""


def position_of(game_name: str, root: str, path: tuple[str, ...],
                cache: dict[tuple[str, str], Game[Any]] | None = None) -> Game[Any]:
    """The position reached from ``root`` by ``path`` (a new object); GameError if either is
    bad.  ``cache`` keeps parsed roots (a worker sees the same root again and again).
    """
    key = (game_name, root)
    base = cache.get(key) if cache is not None else None
    if base is None:
        base = load(game_name, root)
        if cache is not None:
            cache[key] = base
    game = base.copy()
    for text in path:
        game.play(game.move_from_text(text))
    return game


class Worker:
    """A worker's state between jobs (see the module doc); ``run`` is called in one thread at a
    time, ``StopSignal.stop()`` on the job's signal may come from any thread.
    """

    def __init__(self, name: str | None = None, table: Any = None) -> None:
        self.name = name if name is not None else f"pid{os.getpid()}"
        self.table = table  # a compiled table shared with the other workers (or None)
        self._sessions: dict[tuple[str, str], EngineSession] = {}
        self._roots: dict[tuple[str, str], Game[Any]] = {}

    def run(self, job: Job, stop: StopSignal | None = None) -> JobResult:
        """Run ``job`` to its end (or until ``stop``) and report."""
        stop = stop if stop is not None else StopSignal()
        cpu, wall = time.thread_time(), time.perf_counter()
        engine: Any = None
        nodes = 0
        try:
            game = position_of(job.game, job.root, job.path, self._roots)
            session = self._sessions.get((job.game, job.engine))
            if session is None:
                session = self._sessions[(job.game, job.engine)] = EngineSession(
                    engine=job.engine, table=self.table)
            engine = session.engine(game, stop)
            nodes, leaves = engine.stats.nodes, engine.stats.leaves
            best: Any = None
            pv: tuple[Any, ...] = ()
            if job.kind == "warm":
                value = 0
            elif job.kind == "test":
                value = engine.search(FULL_DEPTH, job.alpha, job.alpha + 1)
                best = engine.root_best_move if value > job.alpha else None
            elif job.kind in ("solve", "weak"):
                result = solve(game, weak=job.kind == "weak", searcher=engine)
                if not result.complete:
                    raise SearchAborted
                value, best, pv = result.value, result.best_move, result.pv
            else:
                raise GameError(f"unknown job kind {job.kind!r}; known: {', '.join(KINDS)}")
            stats = engine.stats
            return JobResult(
                job.id, "done", value,
                game.move_to_text(best) if best is not None else None,
                tuple(game.move_to_text(m) for m in pv), stats.nodes - nodes,
                stats.leaves - leaves, time.thread_time() - cpu, time.perf_counter() - wall,
                worker=self.name)
        except SearchAborted:
            spent = engine.stats.nodes - nodes if engine is not None else 0  # wasted work
            return JobResult(job.id, "cancelled", nodes=spent, seconds=time.thread_time() - cpu,
                             wall=time.perf_counter() - wall, worker=self.name)
        except GameError as exc:
            return JobResult(job.id, "error", error=str(exc), worker=self.name)
