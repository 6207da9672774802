"""Parallel solving on this machine: 1 vs 2 workers (and the serial solver), side by side.

Each position is solved in a fresh process three ways — ``sakiyomi solve`` (serial), and
``--workers 1`` / ``--workers 2`` — alternating over ``--rounds`` rounds so the machine's load
hits all alike.  Recorded per run: wall seconds, CPU seconds of the whole process tree
(coordinator and workers, from ``RUSAGE_CHILDREN``), the workers' CPU in jobs, the number of
jobs, and the load average.  Reported per position: medians, the speed-up of 2 workers over
1 and over serial (wall), the overhead per job (process-tree CPU not spent in jobs, per job),
(after the fixed start-up cost, measured on a position solved without jobs),
and a simulated speed-up at 4, 8 and 16 workers from the measured job costs: each root probe's
jobs list-scheduled (longest first) on P workers, probes one after another.  The simulation
replays the same jobs, so it ignores that more workers would also run (and cancel) more
speculative jobs: read it as an upper bound.

Workers start their own sessions (``setsid``), so Linux's autogroup scheduling gives each its
own share instead of splitting one session's share between them.

On a loaded machine the wall-clock ratio says little, so the work is also reported in terms
the load does not change: the job nodes (done and cancelled) and job CPU of each run, and
``work_speedup``: the CPU the one worker spent in jobs over the busiest of the two workers'
CPU in jobs (the speed-up if each worker had a core of its own; ``critical_cpu_w2``).

``--workers 1,2,4,8,16`` also runs the real solver with 4, 8 and 16 worker processes on this
machine's two cores and reports ``work_speedup_by_workers`` the same way: the one worker's
job CPU over the busiest worker's.  Unlike the replay above, these runs split the tree for
P workers, run and cancel P workers' speculative jobs and share one table among P
processes; what they cannot show is timing (P workers on two cores each run P/2 times
slower, and the coordinator gets a larger share of a core than it would beside P cores).

Usage:
  python bench/parallel.py --set c4 --positions 3 --rounds 1
  python bench/parallel.py --set c4 --positions 3 --workers 1,2,4,8,16
  python bench/parallel.py --set ffo --positions 5
"""

from __future__ import annotations

import argparse
import heapq
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
C4 = ROOT / "tests" / "data" / "connect4" / "pons_original" / "Test_L1_R3"  # Begin-Hard
FFO = ROOT / "tests" / "data" / "othello" / "fforum-40-49.obf"
# Two empties: the split's shallow search sees to the end, so no job runs.
TRIVIAL_OTHELLO = "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOOOOOOOOOOOOOOOOOOOOOOOOOOOOOO-- X"


def positions(which: str, count: int) -> list[tuple[str, str]]:
    """(game, position) pairs: evenly spaced Begin-Hard lines, or FFO #40 onwards."""
    if which == "c4":
        lines = C4.read_text().split("\n")
        lines = [line.split()[0] for line in lines if line.strip()]
        step = max(1, len(lines) // count)
        return [("connect4", lines[i * step]) for i in range(count)]
    boards = [line.split(";")[0].strip() for line in FFO.read_text().splitlines() if line]
    return [("othello", board) for board in boards[:count]]


def solve(game: str, position: str, workers: int | None) -> dict[str, Any]:
    """One solve in a fresh process: its JSON record plus wall and process-tree CPU."""
    argv = [sys.executable, "-m", "sakiyomi", "solve", game, position, "--json"]
    if workers is not None:
        argv += ["--workers", str(workers)]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    out = subprocess.run(argv, capture_output=True, text=True, check=True, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    record: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    record["wall"] = wall
    record["tree_cpu"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    record["load"] = os.getloadavg()[0]
    return record


def simulate(probes: list[int], costs: list[float], workers: int) -> float:
    """Makespan of the jobs on ``workers`` workers, each probe's jobs after the previous."""
    total = 0.0
    for probe in sorted(set(probes)):
        jobs = sorted((c for p, c in zip(probes, costs, strict=True) if p == probe),
                      reverse=True)
        free = [0.0] * workers
        for cost in jobs:
            heapq.heappush(free, heapq.heappop(free) + cost)
        total += max(free)
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--set", choices=("c4", "ffo"), default="c4")
    parser.add_argument("--positions", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--workers", default="1,2",
                        help="worker counts to run for real, comma-separated (default 1,2; "
                             "more than the cores share them: see work_speedup)")
    args = parser.parse_args()
    counts = sorted({int(w) for w in args.workers.split(",")} | {1, 2})
    print(f"# uptime: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}")
    # Fixed costs (spawning workers, loading the compiled search): a position the split's
    # shallow searches solve at once, so no job runs.
    trivial = ("connect4", "121212") if args.set == "c4" else ("othello", TRIVIAL_OTHELLO)
    startup = {w: solve(*trivial, w) for w in (1, 2)}
    print(json.dumps({"startup_wall": {w: round(r["wall"], 2) for w, r in startup.items()},
                      "startup_cpu": {w: round(r["tree_cpu"], 2) for w, r in startup.items()},
                      "startup_jobs": {w: r["jobs"] for w, r in startup.items()}}), flush=True)
    for game, position in positions(args.set, args.positions):
        runs: dict[str, list[dict[str, Any]]] = {"serial": [], **{f"w{w}": [] for w in counts}}
        for _ in range(args.rounds):
            runs["serial"].append(solve(game, position, None))
            for w in counts:
                runs[f"w{w}"].append(solve(game, position, w))
        values = {r["value"] for rs in runs.values() for r in rs}
        med = {k: {f: statistics.median(r[f] for r in rs) for f in ("wall", "tree_cpu")}
               for k, rs in runs.items()}
        two = runs["w2"][-1]
        jobs = max(1, two["jobs"])
        overhead = (med["w2"]["tree_cpu"] - startup[2]["tree_cpu"] - sum(two["job_cpu"])) / jobs
        serial_job_time = sum(two["job_cpu"])
        simulated = {p: round(serial_job_time / simulate(two["probes"], two["job_cpu"], p), 2)
                     for p in (2, 4, 8, 16)} if serial_job_time > 0 else {}
        one = runs["w1"][-1]
        work = {k: {"nodes": statistics.median(r["nodes"] for r in rs),
                    "job_cpu": statistics.median(sum(r.get("worker_cpu", [0.0])) for r in rs),
                    "critical": statistics.median(max(r.get("worker_cpu", [0.0]) or [0.0])
                                                  for r in rs)}
                for k, rs in runs.items() if k != "serial"}
        base = work["w1"]["job_cpu"]
        speedups = {w: round(base / work[f"w{w}"]["critical"], 2)
                    if work[f"w{w}"]["critical"] > 0 else None for w in counts}
        print(json.dumps({
            "game": game, "position": position, "values_agree": len(values) == 1,
            "nodes_serial": runs["serial"][-1]["nodes"],
            "job_nodes_w1": work["w1"]["nodes"], "job_nodes_w2": work["w2"]["nodes"],
            "job_cpu_w1": round(work["w1"]["job_cpu"], 2),
            "job_cpu_w2": round(work["w2"]["job_cpu"], 2),
            "critical_cpu_w2": round(work["w2"]["critical"], 2),
            "work_speedup": speedups[2],
            "work_speedup_by_workers": speedups,
            "job_nodes_by_workers": {w: work[f"w{w}"]["nodes"] for w in counts},
            "worker_cpu_w2": two.get("worker_cpu"), "jobs_w1": one["jobs"],
            "value": two["value"], "jobs": two["jobs"], "cancelled": two["cancelled"],
            "wall_serial": round(med["serial"]["wall"], 2),
            "wall_w1": round(med["w1"]["wall"], 2), "wall_w2": round(med["w2"]["wall"], 2),
            "cpu_serial": round(med["serial"]["tree_cpu"], 2),
            "cpu_w1": round(med["w1"]["tree_cpu"], 2), "cpu_w2": round(med["w2"]["tree_cpu"], 2),
            "speedup_w2_over_w1": round(med["w1"]["wall"] / med["w2"]["wall"], 2),
            "speedup_w2_over_serial": round(med["serial"]["wall"] / med["w2"]["wall"], 2),
            "overhead_per_job_ms": round(1000 * overhead, 2),
            "simulated_speedup": simulated,
            "load": [round(r["load"], 2) for rs in runs.values() for r in rs],
        }), flush=True)
    print(f"# uptime: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}")


if __name__ == "__main__":
    main()
