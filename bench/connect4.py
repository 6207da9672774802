"""Connect Four: our compiled solver on Pascal Pons's six test sets, next to his figures.

For every set (strong and weak solving) it prints one JSON line and a table row: mean nodes
and mean CPU time per position, nodes per CPU second, whether every score was right, and
the ratios to Pons's published figures (blog.gamesolver.org part 12, copied in
tests/data/connect4/README.md; his node counts are machine independent).  Nodes are counted
as Pons counts them: the search calls that compute the score (no principal-variation
search).  Our table is reset before each position (untimed), as in his protocol.

``--pons-binary PATH``: his own ``c4solver`` as he ships it (built by the user from a
checkout of github PascalPons/connect4 in a scratch folder; this project ships none of his
code nor a recipe that builds it), run on the same positions in the same run.  His program
prints only the score and keeps its table from line to line, so it is timed as whole
processes: CPU (user + system, ``getrusage``) of a run fed the set's lines minus that of a
run fed one End-Easy line, per line, medians of ``--repeats`` alternating runs.
``--cli``: our batch command line (``sakiyomi solve connect4 - --json``, which also reports
the principal variation) fed the same lines, timed the same way: the batch-CLI row.
``--startup`` measures the one-position command line in fresh processes: the first run with
empty caches (numba compiles) and cached starts per engine (``startup``; ``--sets ""``: that
alone); ``--python N`` runs the Python engine on N positions for its speed ratio.
Every row carries the load averages (``uptime``) at its end.

Usage: python bench/connect4.py [--sets L3_R1,L2_R1,...] [--limit N] [--hard-sample N]
                                [--pons-binary PATH] [--cli] [--cli-passes K] [--repeats R]
                                [--startup]
                                [--startup-sample N] [--python N]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sakiyomi.engines import SOLVER_CONFIG, CompiledEngine, engine_for
from sakiyomi.games.connect4 import from_position
from sakiyomi.search.searcher import Searcher
from sakiyomi.search.solve import exact_value, solve

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "connect4"
SETS = {  # file: (blog name, strong us, strong nodes, weak us, weak nodes) -- Pons, part 12
    "Test_L3_R1": ("End-Easy", 4.568, 51.28, 3.217, 29.36),
    "Test_L2_R1": ("Middle-Easy", 37.45, 449.6, 47.73, 532.7),
    "Test_L2_R2": ("Middle-Medium", 3212.0, 39_900, 1717.0, 20_210),
    "Test_L1_R1": ("Begin-Easy", 254.6, 3_298, 1870.0, 22_230),
    "Test_L1_R2": ("Begin-Medium", 96_630.0, 1_201_000, 45_010.0, 538_700),
    "Test_L1_R3": ("Begin-Hard", 5_490_000.0, 65_920_000, 3_149_000.0, 38_120_000),
}


ANCHOR = "2252576253462244111563365343671351441"  # End-Easy's first line: 8 nodes


def sign(v: int) -> int:
    return (v > 0) - (v < 0)


def load_set(name: str, limit: int | None, hard_sample: int) -> list[tuple[str, int]]:
    lines = [ln.split() for ln in (DATA / "pons_original" / name).read_text().split("\n")
             if ln.strip()]
    pairs = [(m, int(s)) for m, s in lines]
    if name == "Test_L1_R3" and hard_sample:
        step = max(1, len(pairs) // hard_sample)
        pairs = pairs[::step][:hard_sample]  # a fixed, evenly spaced sample
    return pairs[:limit] if limit else pairs


def run_ours(pairs: list[tuple[str, int]], weak: bool) -> dict[str, float]:
    """Our solver as users run it: the shared solve driver on the compiled engine."""
    engine = engine_for(from_position("connect4", pairs[0][0]), SOLVER_CONFIG,
                        engine="compiled")
    assert isinstance(engine, CompiledEngine), "numba is needed for the benchmark"
    solve(engine.game, weak=weak, searcher=engine, with_pv=False)  # load the compiled code
    engine.touch()  # Pons's reset() memsets his table: pages are resident for him too
    nodes = cpu = wall = 0.0
    wrong = 0
    for moves, score in pairs:
        engine.reset()
        engine.game = from_position("connect4", moves)
        c0, w0 = time.process_time(), time.perf_counter()
        result = solve(engine.game, weak=weak, searcher=engine, with_pv=False)
        cpu += time.process_time() - c0
        wall += time.perf_counter() - w0
        nodes += result.stats.nodes
        wrong += result.value != (sign(score) if weak else score)
    n = len(pairs)
    return {"positions": n, "wrong": wrong, "mean_nodes": nodes / n,
            "mean_cpu_us": cpu / n * 1e6, "mean_wall_us": wall / n * 1e6,
            "nodes_per_cpu_s": nodes / cpu if cpu else 0.0}


def _child_cpu(argv: list[str], stdin: str) -> tuple[float, str]:
    """CPU seconds (user + system) of one child process fed ``stdin``, and its stdout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(argv, input=stdin, capture_output=True, text=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, out.stdout


def whole_runs(argv: list[str], lines: list[str], repeats: int) -> dict[str, float | str]:
    """A program fed ``lines`` on stdin, timed as a whole process: the median CPU of
    ``repeats`` runs, minus the median of runs fed one fixed End-Easy line (``ANCHOR``:
    process start, any loading, a solve of a few dozen nodes), spread over the lines.  The
    two kinds of run alternate so that a change in the machine's load touches both alike.
    """
    full, start = [], []
    stdout = ""
    for _ in range(repeats):
        cpu, stdout = _child_cpu(argv, "".join(f"{ln}\n" for ln in lines))
        full.append(cpu)
        start.append(_child_cpu(argv, f"{ANCHOR}\n")[0])
    per_line = max(0.0, statistics.median(full) - statistics.median(start)) / len(lines)
    return {"per_line_us": per_line * 1e6, "start_s": statistics.median(start),
            "stdout": stdout}


def run_pons(binary: Path, pairs: list[tuple[str, int]], weak: bool,
             repeats: int) -> dict[str, float]:
    """Pons's program fed the positions' moves.  As he ships it (``c4solver``: prints
    'MOVES SCORE' per line, keeps its table from line to line) it is timed as whole runs
    (``whole_runs``); a program printing 'MOVES SCORE NODES MICROSECONDS' (his former main,
    or a timing driver of your own around his Solver) reports nodes and times itself.
    """
    argv = [str(binary), *(["-w"] if weak else [])]
    timed = whole_runs(argv, [m for m, _ in pairs], repeats)
    rows = [ln.split() for ln in str(timed["stdout"]).strip().split("\n")]
    wrong = sum((sign(int(r[1])) if weak else int(r[1])) != (sign(s) if weak else s)
                for r, (_, s) in zip(rows, pairs, strict=True))
    n = len(rows)
    record = {"wrong": wrong, "mean_cpu_us": float(timed["per_line_us"]),
              "mean_nodes": 0.0, "start_s": float(timed["start_s"])}
    if all(len(r) >= 4 for r in rows):  # the program counts its nodes and times each line
        record["mean_nodes"] = sum(int(r[2]) for r in rows) / n
        record["mean_cpu_us"] = sum(float(r[3]) for r in rows) / n
    return record


def run_cli(pairs: list[tuple[str, int]], weak: bool, repeats: int,
            passes: int = 1) -> dict[str, float]:
    """Our batch command line, ``sakiyomi solve connect4 - --json``, fed the same lines as
    Pons's program and timed the same way (``whole_runs``); every answer checked.  With
    ``passes`` > 1 it is fed the lines that many times over in one run: every line is solved
    as if alone (its table emptied), so each pass repeats the same work, and the process
    start (over a second of CPU on a loaded machine, and as noisy) weighs less in the
    difference ``whole_runs`` takes.
    """
    argv = [sys.executable, "-m", "sakiyomi", "solve", "connect4", "-", "--json",
            *(["--weak"] if weak else [])]
    timed = whole_runs(argv, [m for m, _ in pairs] * passes, repeats)
    rows = [json.loads(ln) for ln in str(timed["stdout"]).strip().split("\n")]
    wrong = sum(r["value"] != (sign(s) if weak else s)
                for r, (_, s) in zip(rows, pairs * passes, strict=True))
    return {"wrong": wrong, "mean_cpu_us": float(timed["per_line_us"]),
            "start_s": float(timed["start_s"])}


def startup(repeats: int, sample: int, pons: Path | None) -> None:
    """Start-up of the one-position command line, ``sakiyomi solve connect4 POS --json``, in
    fresh processes, CPU seconds (user + system of the child): the first run with empty
    caches (``SAKIYOMI_CACHE`` and ``NUMBA_CACHE_DIR``: numba compiles), the build of the
    search ahead of time (``sakiyomi.compiled.aot``, which a first run starts in the
    background; run here as a timed child), then cached runs, medians of ``repeats``, on the
    first ``sample`` lines of End-Easy, Middle-Easy and Middle-Medium: as shipped (``--engine
    auto``), with each engine forced, and the compiled engine from numba's cache alone
    (``SAKIYOMI_AOT=0``), so that the choices can be judged; beside them Pons's binary
    (``pons``) solving the same position in a process of its own, when given.
    """
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "SAKIYOMI_CACHE": f"{cache}/s", "NUMBA_CACHE_DIR": f"{cache}/n",
               "PYTHONDONTWRITEBYTECODE": ""}  # as installed: bytecode cached
        env.pop("PYTHONDONTWRITEBYTECODE")

        def child(argv: list[str], aot: str = "1", stdin: str | None = None) -> float:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run(argv, env={**env, "SAKIYOMI_AOT": aot}, input=stdin, text=True,
                           capture_output=True, check=True)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

        def cli(moves: str, engine: str, aot: str = "1") -> float:
            return child([sys.executable, "-m", "sakiyomi", "solve", "connect4", moves,
                          "--json", "--engine", engine], aot)

        first = cli(ANCHOR, "compiled", aot="0")
        print(json.dumps({"case": "first-compile", "cpu_s": round(first, 2),
                          "what": "solve one End-Easy position, empty caches, fresh process",
                          "load": load()}), flush=True)
        build = child([sys.executable, "-c",
                       "from sakiyomi.compiled.aot import build_now\n"
                       "from sakiyomi.games.connect4 import Connect4\n"
                       "g = Connect4()\n"
                       "build_now(*g.kernel_spec(), g.kernel_state())\n"])
        print(json.dumps({"case": "ahead-of-time-build", "cpu_s": round(build, 2),
                          "what": "the extension a first run builds in the background",
                          "load": load()}), flush=True)
        for name in ("Test_L3_R1", "Test_L2_R1", "Test_L2_R2"):
            for moves, _ in load_set(name, sample, 0):
                row: dict[str, object] = {"case": "cached-start", "set": SETS[name][0],
                                          "position": moves}
                for engine in ("auto", "python", "compiled"):
                    row[f"{engine}_cpu_s"] = round(statistics.median(
                        cli(moves, engine) for _ in range(repeats)), 3)
                row["compiled_numba_cache_cpu_s"] = round(statistics.median(
                    cli(moves, "compiled", aot="0") for _ in range(repeats)), 3)
                if pons is not None:
                    row["pons_cpu_s"] = round(statistics.median(
                        child([str(pons)], stdin=moves + "\n") for _ in range(repeats)), 3)
                    row["auto_vs_pons"] = round(float(str(row["auto_cpu_s"]))
                                                / max(float(str(row["pons_cpu_s"])), 1e-3), 1)
                row["load"] = load()
                print(json.dumps(row), flush=True)


def python_ratio(count: int) -> None:
    pairs = load_set("Test_L2_R1", count, 0)
    nodes = cpu = 0.0
    for moves, score in pairs:
        searcher = Searcher(from_position("connect4", moves), SOLVER_CONFIG)
        c0 = time.process_time()
        assert exact_value(searcher) == score
        cpu += time.process_time() - c0
        nodes += searcher.stats.nodes
    ours = run_ours(pairs, weak=False)
    py_nps = nodes / cpu
    print(json.dumps({"case": "python-engine", "positions": len(pairs),
                      "same_mean_nodes": nodes / len(pairs) == ours["mean_nodes"],
                      "python_nodes_per_cpu_s": int(py_nps),
                      "compiled_nodes_per_cpu_s": int(ours["nodes_per_cpu_s"]),
                      "speedup": round(ours["nodes_per_cpu_s"] / py_nps, 1)}))


def load() -> str:
    """The machine's load averages (``uptime``), printed with every figure."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sets", default=",".join(SETS))
    parser.add_argument("--limit", type=int, default=None, help="first N lines of each set")
    parser.add_argument("--hard-sample", type=int, default=10,
                        help="evenly spaced lines of Begin-Hard (0: all 1000)")
    parser.add_argument("--modes", default="strong,weak")
    parser.add_argument("--pons-binary", type=Path, default=None,
                        help="Pons's c4solver as he ships it (reads moves, prints 'moves "
                        "score'), built by you")
    parser.add_argument("--cli", action="store_true",
                        help="also time our batch CLI fed the same lines (whole processes)")
    parser.add_argument("--cli-passes", type=int, default=1,
                        help="--cli: our batch fed the set this many times over per run")
    parser.add_argument("--repeats", type=int, default=3,
                        help="whole-process runs per program and set (medians)")
    parser.add_argument("--startup", action="store_true")
    parser.add_argument("--startup-sample", type=int, default=3,
                        help="--startup: lines of each set solved one per process")
    parser.add_argument("--python", type=int, default=0, metavar="N")
    args = parser.parse_args()
    print(json.dumps({"case": "machine", "load": load()}), flush=True)
    if args.startup:
        startup(args.repeats, args.startup_sample, args.pons_binary)
    if args.python:
        python_ratio(args.python)
    binary = args.pons_binary
    table = []
    for name in filter(None, args.sets.split(",")):  # --sets "": start-up alone
        name = name if name.startswith("Test_") else f"Test_{name}"
        blog, s_us, s_nodes, w_us, w_nodes = SETS[name]
        pairs = load_set(name, args.limit, args.hard_sample)
        for mode in args.modes.split(","):
            weak = mode == "weak"
            ours = run_ours(pairs, weak)
            pub_us, pub_nodes = (w_us, w_nodes) if weak else (s_us, s_nodes)
            record: dict[str, object] = {
                "set": name, "blog": blog, "mode": mode, **{
                    k: round(v, 2) if isinstance(v, float) else v for k, v in ours.items()},
                "pons_published_nodes": pub_nodes, "pons_published_us": pub_us,
                "node_ratio_vs_published": round(ours["mean_nodes"] / pub_nodes, 3),
                "time_ratio_vs_published": round(ours["mean_cpu_us"] / pub_us, 2),
            }
            if binary is not None:
                pons = run_pons(binary, pairs, weak, args.repeats)
                record.update({
                    "pons_here_wrong": pons["wrong"],
                    "pons_here_cpu_us": round(pons["mean_cpu_us"], 2),
                    "time_ratio_vs_here": round(ours["mean_cpu_us"] / pons["mean_cpu_us"], 2)
                    if pons["mean_cpu_us"] else None,
                    "pons_start_s": round(pons["start_s"], 3),
                })
                if pons["mean_nodes"]:
                    record["pons_here_nodes"] = round(pons["mean_nodes"], 2)
            if args.cli:
                cli = run_cli(pairs, weak, args.repeats, args.cli_passes)
                record.update({"cli_wrong": cli["wrong"],
                               "cli_cpu_us_per_line": round(cli["mean_cpu_us"], 2),
                               "cli_start_s": round(cli["start_s"], 3)})
                if binary is not None and record["pons_here_cpu_us"]:
                    record["cli_ratio_vs_pons"] = round(
                        cli["mean_cpu_us"] / float(str(record["pons_here_cpu_us"])), 2)
            record["load"] = load()
            print(json.dumps(record), flush=True)
            table.append(record)
    print()
    print(f"{'set':<14}{'mode':<7}{'n':>5}{'ok':>4}{'nodes':>12}{'Pons pub':>12}{'ratio':>7}"
          f"{'cpu us':>11}{'Mn/s':>7}"
          + (f"{'Pons us':>11}{'ratio':>7}" if binary else "")
          + (f"{'CLI us/ln':>11}" if args.cli else "")
          + (f"{'ratio':>7}" if args.cli and binary else "") + "  load")
    for r in table:
        line = (f"{r['blog']:<14}{r['mode']:<7}{r['positions']:>5}"
                f"{'yes' if r['wrong'] == 0 else 'NO':>4}{r['mean_nodes']:>12,.1f}"
                f"{r['pons_published_nodes']:>12,}{r['node_ratio_vs_published']:>7}"
                f"{r['mean_cpu_us']:>11,.1f}"
                f"{float(str(r['nodes_per_cpu_s'])) / 1e6:>7.2f}")
        if binary:
            line += f"{r['pons_here_cpu_us']:>11,}{r.get('time_ratio_vs_here')!s:>7}"
        if args.cli:
            line += f"{r['cli_cpu_us_per_line']:>11,}"
            if binary:
                line += f"{r.get('cli_ratio_vs_pons')!s:>7}"
        print(line + f"  {r['load']}")


if __name__ == "__main__":
    main()
