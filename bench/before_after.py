"""Before/after in one run: a benchmark script of this tree against the same script of an
earlier commit, alternating, on the same positions, so that a refactoring's cost is measured
under the same machine load.

The earlier commit is checked out into a temporary git worktree (removed afterwards) and its
own copy of the benchmark runs there with ``PYTHONPATH`` pointing at its ``src``; ours runs
from this tree.  Both print JSON lines; the records are matched by the key fields and a CPU
field is compared: the median over ``--rounds`` rounds of ours / theirs (below 1: we are
faster), and node counts are checked equal.

Usage:
  python bench/before_after.py --ref dc6f728 -- bench/connect4.py --sets L3_R1,L2_R1,L1_R1
  python bench/before_after.py --ref dc6f728 --key ffo --cpu cpu_s -- bench/othello.py --set 20-30
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def run_script(tree: Path, argv: list[str]) -> list[dict[str, Any]]:
    """The JSON records a benchmark script prints when run from ``tree``."""
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    out = subprocess.run([sys.executable, str(tree / argv[0]), *argv[1:]], cwd=tree, env=env,
                         capture_output=True, text=True, check=True)
    records = []
    for line in out.stdout.splitlines():
        if line.startswith("{"):
            records.append(json.loads(line))
    return records


def load() -> str:
    """The load averages, for the record."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ref", required=True, help="the earlier commit")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--key", default="set,mode", help="fields that identify a record")
    parser.add_argument("--cpu", default="mean_cpu_us", help="the CPU field to compare")
    parser.add_argument("--nodes", default="mean_nodes,nodes", help="node fields to check")
    parser.add_argument("script", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    argv = [a for a in args.script if a != "--"]
    keys = args.key.split(",")
    with tempfile.TemporaryDirectory() as scratch:
        old = Path(scratch) / "old"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(old),
                        args.ref], check=True, capture_output=True)
        try:
            ours: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
            theirs: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
            for _ in range(args.rounds):
                for tree, into in ((ROOT, ours), (old, theirs)):
                    for record in run_script(tree, argv):
                        if args.cpu in record and all(k in record for k in keys):
                            into.setdefault(tuple(record[k] for k in keys), []).append(record)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(old)],
                           check=False, capture_output=True)
    ratios = []
    for key, mine in ours.items():
        other = theirs.get(key)
        if not other:
            continue
        a = statistics.median(r[args.cpu] for r in mine)
        b = statistics.median(r[args.cpu] for r in other)
        same_nodes = all(mine[0].get(f) == other[0].get(f)
                         for f in args.nodes.split(",") if f in mine[0])
        ratios.append(a / b)
        print(json.dumps({"key": list(key), "after": a, "before": b,
                          "ratio": round(a / b, 4), "same_nodes": same_nodes,
                          "rounds": len(mine), "ref": args.ref, "load": load()}), flush=True)
    if ratios:
        print(json.dumps({"summary": "after/before CPU", "median_ratio":
                          round(statistics.median(ratios), 4), "ratios": len(ratios),
                          "load": load()}))


if __name__ == "__main__":
    main()
