"""The two showcases of parallel solving, one command each, resumable (docs/parallel.md).

* ``c4start``: the strong solution of the Connect Four start position from scratch, with no
  book (first player wins, only the centre column wins: Pons's score +1 for ``4``):
  ``sakiyomi solve connect4 start --workers N --checkpoint FILE``.
* ``ffo``: FFO #40-#49 solved exactly as one batch spread over the workers:
  ``sakiyomi solve othello - --workers N --checkpoint FILE < tests/data/othello/fforum-40-49.obf``.

This script runs the command in a fresh process and prints one JSON line: wall seconds, CPU
seconds of the whole process tree (coordinator and workers, ``RUSAGE_CHILDREN``), the results
and the machine's load (``uptime``) before and after.  Run it again with the same
``--checkpoint`` after a kill (Ctrl-C, ``kill -9``) and it resumes: finished jobs are read
from the file, not run again (the line reports how many jobs the file held before).  For
scale: Pons's solver, built here, solves the start position in 442 CPU-seconds and 3.11 G
nodes on one core.  Start it ``nice``d on a shared machine; it takes many CPU-minutes.

Usage:
  python bench/showcase.py c4start --workers 2 --checkpoint c4start.sqlite
  python bench/showcase.py ffo --workers 2 --checkpoint ffo.sqlite
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
FFO = ROOT / "tests" / "data" / "othello" / "fforum-40-49.obf"


def uptime() -> str:
    """The machine's load line, printed with every figure."""
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def jobs_in(path: Path) -> int:
    """Finished jobs a checkpoint holds (0 when there is none yet)."""
    if not path.exists():
        return 0
    con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return int(con.execute("SELECT COUNT(*) FROM jobs").fetchone()[0])
    finally:
        con.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("which", choices=("c4start", "ffo"))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--checkpoint", type=Path, required=True)
    args = parser.parse_args()
    argv = [sys.executable, "-m", "sakiyomi", "solve"]
    argv += (["connect4", "start"] if args.which == "c4start" else ["othello", "-"])
    argv += ["--workers", str(args.workers), "--checkpoint", str(args.checkpoint), "--json"]
    before_jobs = jobs_in(args.checkpoint)
    load_before = uptime()
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    stdin = FFO.read_text() if args.which == "ffo" else None
    out = subprocess.run(argv, capture_output=True, text=True, input=stdin, env=env,
                         check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    records: list[dict[str, Any]] = [json.loads(line) for line in out.stdout.splitlines()]
    print(json.dumps({
        "showcase": args.which, "workers": args.workers, "wall": round(wall, 1),
        "tree_cpu": round((after.ru_utime - usage.ru_utime)
                          + (after.ru_stime - usage.ru_stime), 1),
        "jobs_in_checkpoint_before": before_jobs, "jobs_in_checkpoint_after":
        jobs_in(args.checkpoint),
        "results": [{k: r.get(k) for k in ("position", "value", "best_move", "nodes",
                                          "jobs", "cpu_seconds", "worker_cpu")}
                    for r in records],
        "uptime_before": load_before, "uptime_after": uptime()}), flush=True)


if __name__ == "__main__":
    main()
