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
  python bench/before_after.py --ref dc6f728 --key ffo --cpu cpu_s --nodes nodes \
      -- bench/before_after.py --othello-solve 1-19

``--othello-solve A-B`` is a harness that runs under either API (the compiled template's own
``CompiledSearch.solve`` before the engine interface, the shared ``solve`` driver on a
``CompiledEngine`` after it) with one table allocated and touched once, as Edax does, so that
first-touch page faults (which vary with the kernel's huge-page luck) stay out of the timings.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def run_script(tree: Path, argv: list[str]) -> list[dict[str, Any]]:
    """The JSON records a benchmark script prints when run from ``tree``."""
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    # this file's own harnesses run from this tree against the other tree's sources
    script = ROOT / argv[0] if argv[0].endswith("before_after.py") else tree / argv[0]
    out = subprocess.run([sys.executable, str(script), *argv[1:]], cwd=tree, env=env,
                         capture_output=True, text=True, check=True)
    records = []
    for line in out.stdout.splitlines():
        if line.startswith("{"):
            records.append(json.loads(line))
    return records


def load() -> str:
    """The load averages, for the record."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def othello_solve(spec: str, repeats: int = 3) -> None:
    """Solve FFO positions ``spec`` with whichever compiled API this tree has (see the doc)."""
    from sakiyomi.compiled import template
    from sakiyomi.games.othello import KERNEL_MODULE, KERNEL_PARAMS, from_position
    from sakiyomi.search.searcher import SearchConfig

    config = SearchConfig(killers=False, history=False, tt_capacity=1 << 22)
    module = template.build(KERNEL_MODULE, dict(KERNEL_PARAMS))
    search: Any = template.CompiledSearch(module, config, shortcuts=False)
    search.touch()
    lo, hi = (int(x) for x in spec.split("-"))
    files = {1: "fforum-1-19.obf", 20: "fforum-20-39.obf", 40: "fforum-40-49.obf"}
    lines = {}
    for first, name in files.items():
        text = (ROOT / "tests" / "data" / "othello" / name).read_text().splitlines()
        for number, line in enumerate([x for x in text if x.strip()], first):
            lines[number] = line
    old_api = hasattr(search, "solve")

    def one(game: Any) -> tuple[int, int]:
        search.reset()
        if old_api:
            result = search.solve(module.make_state(*game.kernel_state()))
            return int(result.value), int(result.stats["nodes"])
        from sakiyomi.engines import CompiledEngine
        from sakiyomi.search.solve import solve

        engine = CompiledEngine(game.copy(), config, workspace=search, fresh=False)
        result = solve(engine.game, searcher=engine)
        return int(result.value), int(result.stats.nodes)

    one(from_position("othello", lines[lo]))  # load the compiled code
    for number in range(lo, hi + 1):
        game = from_position("othello", lines[number])
        times = []
        for _ in range(repeats):
            start = time.process_time()
            value, nodes = one(game)
            times.append(time.process_time() - start)
        print(json.dumps({"ffo": number, "value": value, "nodes": nodes,
                          "cpu_s": statistics.median(times)}), flush=True)


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--othello-solve":
        othello_solve(sys.argv[2])
        return
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
