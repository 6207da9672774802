"""The command line of parallel solving: ``solve --workers/--ray/--checkpoint`` and ``book``.

``cli.cmd_solve`` hands over here when any of those options is given; ``register`` adds the
``book`` verb.  Output records are the serial ``solve``'s (DESIGN.md §8) plus the job
accounting; a progress line (jobs done/total, nodes/s, elapsed, estimate) goes to stderr when
it is a terminal.  Bad input — ``--workers 0``, an unreachable Ray address, a checkpoint of
another game or not a checkpoint at all — is one line and exit status 2, and an existing
checkpoint is opened for writing only after it was checked.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterable
from typing import Any

from sakiyomi.game import Game, GameError, PositionText, capable
from sakiyomi.games import GAMES, load
from sakiyomi.parallel.backend import Backend, BackendError
from sakiyomi.parallel.batch import BatchSolver
from sakiyomi.parallel.jobs import JobResult
from sakiyomi.parallel.solver import ParallelSolver, Progress
from sakiyomi.parallel.split import SplitPlan
from sakiyomi.parallel.store import Store
from sakiyomi.score import result_word

Units = Callable[[Game[Any], int, bool], int]


def make_backend(workers: int | None, ray: str | None, game: Game[Any] | None = None,
                 engine: str = "auto") -> Backend:
    """Ray workers at ``ray`` ('auto' or an address) or ``workers`` local processes (forked
    with ``game``'s compiled search loaded and one shared table, see ``local``).
    """
    if ray is not None:
        from sakiyomi.parallel.ray_backend import RayBackend

        return RayBackend(ray, workers)
    from sakiyomi.parallel.local import LocalBackend

    return LocalBackend(workers if workers is not None else 2, game, engine)


def scope_of(game: Game[Any], position: str) -> str:
    """The store scope: empty for games whose keys name positions everywhere (they can write
    positions), else the root position (explicit trees number their own nodes).
    """
    return "" if capable(game, PositionText) else position


class ProgressLine:
    """A one-line progress display on stderr (only when stderr is a terminal)."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self._last = 0.0

    def show(self, text: str, force: bool = False) -> None:
        """Redraw the line at most four times a second."""
        now = time.perf_counter()
        if not self.enabled or (not force and now - self._last < 0.25):
            return
        self._last = now
        print(f"\r\x1b[K{text}", end="", file=sys.stderr, flush=True)

    def done(self) -> None:
        """Clear the line."""
        if self.enabled:
            print("\r\x1b[K", end="", file=sys.stderr, flush=True)

    def solve(self, p: Progress) -> None:
        """The line for one position's solve."""
        rate = p.nodes / p.elapsed if p.elapsed > 0 else 0.0
        estimate = (f"{p.elapsed * (p.total - p.done) / p.done:.0f}s" if p.done else "?")
        self.show(f"jobs {p.done}/{p.total}  {rate / 1e6:.2f} M nodes/s  "
                  f"elapsed {p.elapsed:.1f}s  estimate {estimate}  "
                  f"value in [{p.lower}, {p.upper}]")


def _record(args: argparse.Namespace, game: Game[Any], position: str, units: Units,
            value: int, best: str | None, pv: Iterable[str], nodes: int, seconds: float,
            extra: dict[str, Any]) -> tuple[dict[str, Any], str]:
    shown = value if args.weak else units(game, value, True)
    pv = list(pv)
    record: dict[str, Any] = {
        "game": args.game, "position": position, "algorithm": "weak" if args.weak else "exact",
        "value": shown, "result": result_word(value), "best_move": best, "pv": pv,
        "nodes": nodes, "depth": len(pv), "seconds": round(seconds, 6),
        "microseconds": int(seconds * 1e6), **extra}
    text = (f"{position} {shown} {record['result']} best {best} pv {' '.join(pv)} "
            f"nodes {nodes} us {int(seconds * 1e6)}")
    return record, text


def _emit(args: argparse.Namespace, record: dict[str, Any], text: str) -> None:
    print(json.dumps(record, ensure_ascii=False) if args.json else text, flush=True)


def solve(args: argparse.Namespace, units: Units,
          batch_position: Callable[[str, str], str]) -> int:
    """``sakiyomi solve`` with --workers, --ray or --checkpoint."""
    if args.nodes is not None or args.time is not None:
        raise GameError("--nodes/--time do not combine with --workers/--ray/--checkpoint")
    if args.position == "-":
        return _solve_batch(args, units, batch_position)
    game = load(args.game, args.position)
    if game.outcome() is not None:
        raise GameError(f"position {args.position!r} is already finished: nothing to solve")
    with Store(args.checkpoint, args.game, scope_of(game, args.position)) as store:
        backend = make_backend(args.workers, args.ray, game, args.engine)
        workers = backend.workers
        line = ProgressLine(sys.stderr.isatty() and not args.json)
        try:
            plan = SplitPlan(target=16 * backend.workers,
                             max_depth=args.split_depth if args.split_depth else 24)
            solver = ParallelSolver(args.game, args.position, backend, store, weak=args.weak,
                                    engine=args.engine, plan=plan, on_progress=line.solve)
            result = solver.solve()
        finally:
            line.done()
            backend.close()
    record, text = _record(
        args, game, args.position, units, result.value, result.best_move, result.pv,
        result.nodes, result.seconds,
        {"jobs": result.jobs, "cancelled": result.cancelled, "restarts": result.restarts,
         "workers": workers, "cpu_seconds": round(result.cpu, 3),
         "split_depth": result.split_depth, "frontier": result.frontier,
         "worker_cpu": [round(cpu, 3) for cpu in result.worker_cpu],
         "probes": [probe for probe, _ in result.trace],
         "job_cpu": [round(cpu, 6) for _, cpu in result.trace]})
    _emit(args, record, text)
    return 0


def _solve_batch(args: argparse.Namespace, units: Units,
                 batch_position: Callable[[str, str], str]) -> int:
    """One exact solve per stdin line, spread over the workers (``batch.BatchSolver``: the
    lines left at the end are split over every worker), printed in input order.
    """
    status = 0
    lines: list[tuple[int, str, Game[Any]]] = []
    for number, raw in enumerate(sys.stdin, 1):
        text = raw.strip()
        if not text:
            continue
        try:
            position = batch_position(args.game, text)
            game = load(args.game, position)
            if game.outcome() is not None:
                raise GameError(f"position {position!r} is already finished")
        except GameError as exc:
            print(f"sakiyomi: line {number}: {exc}", file=sys.stderr, flush=True)
            status = 2
            continue
        lines.append((number, position, game))
    if not lines:
        return status
    scope = scope_of(lines[0][2], lines[0][1])
    with Store(args.checkpoint, args.game, scope) as store:
        backend = make_backend(args.workers, args.ray, lines[0][2], args.engine)
        progress = ProgressLine(sys.stderr.isatty() and not args.json)
        results: dict[int, JobResult] = {}
        printed = 0

        def arrived(index: int, result: JobResult) -> None:
            nonlocal printed, status
            results[index] = result
            while printed in results:
                progress.done()
                status = max(status, _print_line(args, units, lines[printed],
                                                 results.pop(printed)))
                printed += 1

        try:
            BatchSolver(args.game, [position for _, position, _ in lines],
                        [game.key() for _, _, game in lines], backend, store, arrived,
                        weak=args.weak, engine=args.engine, on_progress=progress.show).run()
        finally:
            progress.done()
            backend.close()
    return status


def _print_line(args: argparse.Namespace, units: Units, entry: tuple[int, str, Game[Any]],
                result: JobResult) -> int:
    number, position, game = entry
    if result.status == "error":
        print(f"sakiyomi: line {number}: {result.error}", file=sys.stderr, flush=True)
        return 2
    record, text = _record(args, game, position, units, result.value, result.best, result.pv,
                           result.nodes, result.wall, {"cpu_seconds": round(result.seconds, 3),
                                                         "split": result.worker == "split"})
    _emit(args, record, text)
    return 0


# ---- book --------------------------------------------------------------------------------


def cmd_book(args: argparse.Namespace) -> int:
    """``sakiyomi book build|probe``."""
    from sakiyomi.parallel.book import build_book, describe

    position = args.position if args.position is not None else GAMES[args.game].start
    game = load(args.game, position)
    if args.action == "probe":
        if not args.book or not _exists(args.book):
            raise GameError(f"{args.book}: no such book")
        with Store(args.book, args.game, scope_of(game, position)) as store:
            print(describe(store, game), flush=True)
        return 0
    if args.depth is None:
        raise GameError("book build needs --depth D")
    with Store(args.book, args.game, scope_of(game, position)) as store:
        backend = make_backend(args.workers, args.ray, game, args.engine)
        line = ProgressLine(sys.stderr.isatty())
        try:
            report = build_book(args.game, position, args.depth, backend, store,
                                engine=args.engine,
                                on_progress=lambda d, t: line.show(f"solved {d}/{t}"))
        finally:
            line.done()
            backend.close()
    print(f"book {args.book}: {report.positions} positions to depth {args.depth}, "
          f"{report.jobs} solved now, nodes {report.nodes}, root value {report.value}",
          flush=True)
    return 0


def open_book(path: str, game_name: str, game: Game[Any], position: str) -> Store:
    """An existing book for ``play --book`` (checked like a checkpoint; never created)."""
    if not _exists(path):
        raise GameError(f"{path}: no such book")
    return Store(path, game_name, scope_of(game, position))


def _exists(path: str) -> bool:
    from pathlib import Path

    return Path(path).is_file()


def _guarded(command: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace],
                                                                        int]:
    """``command`` with backend failures reported as bad input (one line, exit 2)."""

    def run(args: argparse.Namespace) -> int:
        try:
            return command(args)
        except BackendError as exc:
            raise GameError(str(exc)) from None

    return run


def run_book(args: argparse.Namespace) -> int:
    """The ``book`` verb (declared in ``verbs``), backend failures reported as bad input."""
    return _guarded(cmd_book)(args)


def solve_guarded(args: argparse.Namespace, units: Units,
                  batch_position: Callable[[str, str], str]) -> int:
    """``solve`` with backend failures reported as bad input (one line, exit 2)."""
    try:
        return solve(args, units, batch_position)
    except BackendError as exc:
        raise GameError(str(exc)) from None
