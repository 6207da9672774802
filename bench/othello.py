"""Othello endgame solving on the compiled template: FFO #40-#49 next to Edax, and what each
endgame technique buys.

Anchor: Edax 4.6, one thread, run side by side in the same run when ``--edax BINARY`` names a
binary you built yourself (nothing here builds it): per position, ``BINARY -solve FILE -n 1
-l 60 -book-usage off -eval-file ZERO`` on a one-line OBF file, where ZERO is an evaluation
file of all-zero weights that this script writes (Edax's header, then 61 × 114,364 zero
int16 weights), so Edax's search has no evaluation knowledge, like ours; its CPU seconds are
the child process's (``RUSAGE_CHILDREN``) less the CPU of its process start (reading and
unpacking the weights, about 0.3 s, measured on FFO #20 first: our timings leave out our
start-up too), its nodes the count it prints.  Without ``--edax`` the ratios use the figures
of issue 5 (#40 0.80 s / 21.0 M nodes ... #40-#49 368 CPU-s / 6.75 G nodes), measured on the
same machine kind but not in the same run.  The machine load (``uptime``) is printed before
and after.

Modes (one JSON line per measurement, then a text table):
  python bench/othello.py --edax PATH           # FFO #40-#49, exact, all on, Edax beside
  python bench/othello.py --set 20-39           # another FFO range (1-19, 20-39, 40-49)
  python bench/othello.py --techniques --set 20-35
        # each technique switched off alone on the same positions: nodes, CPU s, ratios
  python bench/othello.py --set random:20:22:1 --edax PATH
        # our own tuning positions: 20 seeded random games stopped at 22 empties
Every value is checked against the data file (exact score, and a listed best move), Edax's too;
random positions against Edax's value (or, with --techniques, the first variant's).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from sakiyomi.compiled.template import CompiledSearch, build
from sakiyomi.engines import CompiledEngine
from sakiyomi.games.othello import (
    KERNEL_MODULE,
    KERNEL_PARAMS,
    PASS,
    Othello,
    from_position,
    square_name,
)
from sakiyomi.search.searcher import SearchConfig
from sakiyomi.search.solve import solve as solve_driver

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "othello"
FILES = {1: "fforum-1-19.obf", 20: "fforum-20-39.obf", 40: "fforum-40-49.obf"}
EDAX = {40: (0.80, 21.0e6), 41: (6.1, 93.2e6), 42: (3.9, 78.2e6), 43: (5.8, 127e6),
        44: (8.1, 152e6)}
EDAX_40_49 = (368.0, 6.75e9)
CONFIG = SearchConfig(**Othello().solver_settings())  # type: ignore[arg-type]
EDAX_WEIGHTS = 114_364  # packed weights per ply in an Edax 4.x evaluation file
EDAX_PLIES = 61


@dataclass(frozen=True)
class Variant:
    """One configuration: build switches of the kernels and search switches of the template."""

    name: str
    params: dict[str, int] = field(default_factory=dict)
    config: SearchConfig = CONFIG
    hooks: dict[str, bool] = field(default_factory=dict)
    weak: bool = False


VARIANTS = [
    Variant("all on"),
    Variant("no first guess (probes from 0, bisection)", config=replace(CONFIG, guess_depth=0)),
    Variant("no enhanced transposition cut-offs", params={"ETC": 0}),
    Variant("no evaluation in the order", params={"EVAL_ORDER": 0}),
    Variant("two-bound table entries", params={"BOUNDS2": 1}),
    Variant("potential mobility in the order, weight 1", params={"POTENTIAL": 1,
                                                                 "LEAF_POTENTIAL": 1}),
    Variant("potential mobility in the TT tier's order, weight 1", params={"POTENTIAL": 1}),
    Variant("potential mobility in the TT tier's order, weight 2", params={"POTENTIAL": 2}),
    Variant("parity-ordered solver from 4 empties", params={"SHALLOW": 4}),
    Variant("parity-ordered solver from 5 empties", params={"SHALLOW": 5}),
    Variant("parity-ordered solver from 6 empties", params={"SHALLOW": 6}),
    Variant("parity-ordered solver from 7 empties", params={"SHALLOW": 7}),
    Variant("TT-less ordered tier from 8 empties", params={"LEAF": 8}),
    Variant("TT-less ordered tier from 9 empties", params={"LEAF": 9}),
    Variant("TT-less ordered tier from 10 empties", params={"LEAF": 10}),
    Variant("TT-less ordered tier from 10 empties, parity from 6", params={"LEAF": 10,
                                                                         "SHALLOW": 6}),
    Variant("TT-less ordered tier from 11 empties", params={"LEAF": 11}),
    Variant("TT-less ordered tier from 14 empties", params={"LEAF": 14}),
    Variant("ETC from 12 empties", params={"ETC": 12}),
    Variant("ETC from 16 empties", params={"ETC": 16}),
    Variant("ETC from 17 empties", params={"ETC": 17}),
    Variant("no transposition table", config=replace(CONFIG, tt=False)),
    Variant("no fastest-first (board order)", params={"FASTEST": 0}),
    Variant("no parity", params={"PARITY": 0}),
    Variant("no stability cut-off", params={"STABILITY": 0}, hooks={"cutoff": False}),
    Variant("no TT-less ordered tier (TT down to 7 empties)", params={"LEAF": 6}),
    Variant("no last-empties solver (TT search to the end)", hooks={"leaf_solver": False}),
    Variant("no PVS", config=replace(CONFIG, pvs=False)),
    Variant("weak solve (win/draw/loss)", weak=True),
] + [Variant(f"evaluation in the order from {low} empties weight {weight}",
             params={"EVAL_ORDER": weight, "EVAL_MIN": low})
     for low, weight in ((10, 1), (10, 2), (12, 1), (12, 4), (14, 1), (14, 2), (16, 2))]


def random_positions(spec: str) -> list[tuple[int, str, int | None, set[str]]]:
    """``COUNT:EMPTIES:SEED`` (e.g. ``random:20:22:1``): positions of seeded random games
    stopped at EMPTIES empties with the side to move able to move, our own tuning set (the FFO
    suites are what we are measured with).  No score is known beforehand: the table checks
    ours against Edax's, ``--techniques`` every variant against the first.
    """
    count, empties, seed = (int(x) for x in spec.split(":")[1:])
    rng = random.Random(seed)
    out: list[tuple[int, str, int | None, set[str]]] = []
    while len(out) < count:
        game = Othello()
        while game.empties() > empties and game.outcome() is None:
            game.play(rng.choice(list(game.legal_moves())))
        if game.empties() == empties and game.outcome() is None and PASS not in \
                game.legal_moves():
            out.append((len(out) + 1, game.position_text(), None, set()))
    return out


def positions(spec: str) -> list[tuple[int, str, int | None, set[str]]]:
    """(number, line, exact score, best moves) for FFO numbers ``a-b``, or the random
    positions of ``random:COUNT:EMPTIES:SEED`` (``random_positions``; score None).
    """
    if spec.startswith("random"):
        return random_positions(spec)
    lo, hi = (int(x) for x in spec.split("-"))
    out: list[tuple[int, str, int | None, set[str]]] = []
    for first, name in FILES.items():
        lines = [x for x in (DATA / name).read_text().splitlines() if x.strip()]
        for number, line in enumerate(lines, first):
            if lo <= number <= hi:
                entries = [e.split(":") for e in line.split(";")[1:] if e.strip()]
                scores = {m.strip().lower(): int(s) for m, s in entries}
                best = max(scores.values())
                out.append((number, line, best, {m for m, s in scores.items() if s == best}))
    return out


_workspaces: dict[str, CompiledSearch] = {}


def workspace(variant: Variant) -> CompiledSearch:
    """One table per variant, allocated and touched once (as Edax's hash table is), so that
    first-touch page faults stay out of the timings; each solve starts from an emptied table.
    """
    search = _workspaces.get(variant.name)
    if search is None:
        module = build(KERNEL_MODULE, {**dict(KERNEL_PARAMS), **variant.params})
        search = CompiledSearch(module, variant.config, shortcuts=False, **variant.hooks)
        search.touch()
        _workspaces[variant.name] = search
    return search


def solve(variant: Variant, line: str, repeats: int) -> tuple[int, str, int, float]:
    """(value, best move, nodes, median CPU seconds) of one position under one variant."""
    search = workspace(variant)
    game = from_position("othello", line)
    times = []
    value, best, nodes = 0, "-", 0
    for _ in range(repeats):
        engine = CompiledEngine(game.copy(), variant.config, workspace=search)  # reset
        start = time.process_time()
        result = solve_driver(engine.game, weak=variant.weak, searcher=engine)
        times.append(time.process_time() - start)
        value, nodes = result.value, result.stats.nodes
        best = square_name(result.best_move) if result.best_move is not None else "-"
    return value, best, nodes, statistics.median(times)


def edax_zero_weights(directory: str) -> str:
    """Write an Edax 4.x evaluation file whose weights are all zero; return its path."""
    path = os.path.join(directory, "eval-zero.dat")
    with open(path, "wb") as out:
        out.write(struct.pack("<5Id", 0x45444158, 0x4556414C, 4, 6, 0, 0.0))  # EDAX EVAL 4.6
        out.write(bytes(2 * EDAX_WEIGHTS * EDAX_PLIES))
    return path


def edax_solve(binary: str, weights: str, line: str, directory: str) -> tuple[int, str, int, float]:
    """(value, best move, nodes, CPU seconds) of Edax solving the OBF ``line`` on one thread."""
    problem = os.path.join(directory, "position.obf")
    with open(problem, "w", encoding="ascii") as out:
        out.write(line.strip() + "\n")  # Edax reads the listed scores too (and checks them)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([binary, "-solve", problem, "-n", "1", "-l", "60", "-book-usage",
                           "off", "-eval-file", weights], capture_output=True,
                          text=True, check=True, cwd=directory)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    for row in done.stdout.splitlines():  # "  1|   20   +38   0:00.950   21043000  [N/s]  a2 ..."
        cells = row.split("|", 1)
        if len(cells) == 2 and cells[0].strip() == "1":
            words = cells[1].split()
            move = next(w for w in words[4:] if not w.isdigit())  # the PV's first move
            return int(words[1]), move.lower(), int(words[3]), cpu
    raise RuntimeError(f"no result line from Edax: {done.stdout[-300:]!r}")


def uptime() -> str:
    """The machine load, as ``uptime`` prints it."""
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def warm_up(variant: Variant) -> None:
    """Compile (or load from the cache) before timing anything."""
    solve(variant, positions("1-1")[0][1], 1)


def ffo_table(spec: str, repeats: int, edax: str | None) -> int:
    """Solve each position with everything on (and with Edax when ``edax`` names its binary,
    alternating position by position); print per position and totals vs Edax.
    """
    variant = VARIANTS[0]
    warm_up(variant)
    print(json.dumps({"uptime": uptime()}), flush=True)
    total_nodes = total_cpu = edax_nodes_sum = edax_cpu_sum = 0.0
    failures = 0
    rows = []
    scratch = tempfile.TemporaryDirectory()
    weights = edax_zero_weights(scratch.name) if edax else ""
    start_up = 0.0
    if edax:  # Edax's process start (weights read and unpacked): FFO #20, 6 empties, 3 times
        start_up = statistics.median(edax_solve(edax, weights, positions("20-20")[0][1],
                                                scratch.name)[3] for _ in range(3))
        print(json.dumps({"edax_start_up_cpu_s": round(start_up, 3),
                          "note": "subtracted from each Edax time below"}), flush=True)
    for number, line, score, best_moves in positions(spec):
        record: dict[str, Any] = {}
        if edax:
            e_value, e_best, e_nodes, e_cpu = edax_solve(edax, weights, line, scratch.name)
            e_cpu = max(e_cpu - start_up, 1e-3)
            if score is None:  # our own position: Edax's value is the reference (best moves
                score, best_moves = e_value, set()  # may tie, so only values are compared)
            e_ok = e_value == score and (not best_moves or e_best in best_moves)
            failures += not e_ok
            edax_nodes_sum += e_nodes
            edax_cpu_sum += e_cpu
        value, best, nodes, cpu = solve(variant, line, repeats)
        ok = (score is None or value == score) and (not best_moves or best in best_moves)
        failures += not ok
        total_nodes += nodes
        total_cpu += cpu
        record.update({
            "position": number, "empties": line[:64].count("-"), "value": value,
            "expected": score,
            "best_move": best, "ok": ok, "nodes": nodes, "cpu_s": round(cpu, 3),
            "nps": round(nodes / cpu) if cpu else None})
        if edax or (number in EDAX and not spec.startswith("random")):
            edax_s, edax_nodes = (e_cpu, e_nodes) if edax else EDAX[number]
            if edax:
                record.update(edax_value=e_value, edax_move=e_best, edax_ok=e_ok)
            record.update(edax_s=edax_s, edax_nodes=edax_nodes,
                          time_ratio=round(cpu / edax_s, 2),
                          node_ratio=round(nodes / edax_nodes, 3),
                          edax_nps=round(edax_nodes / edax_s))
        print(json.dumps(record), flush=True)
        rows.append(record)
    scratch.cleanup()
    summary: dict[str, Any] = {"set": spec, "positions": len(rows), "all_ok": failures == 0,
                               "nodes": int(total_nodes), "cpu_s": round(total_cpu, 2),
                               "nps": round(total_nodes / total_cpu) if total_cpu else None,
                               "uptime": uptime()}
    anchor = (edax_cpu_sum, edax_nodes_sum) if edax else (
        EDAX_40_49 if spec == "40-49" else None)
    if anchor is not None:
        summary.update(edax_cpu_s=round(anchor[0], 2), edax_nodes=int(anchor[1]),
                       edax_same_run=bool(edax),
                       time_ratio=round(total_cpu / anchor[0], 2),
                       node_ratio=round(total_nodes / anchor[1], 3))
    print(json.dumps(summary), flush=True)
    print(f"\n{'#':>3} {'emp':>3} {'value':>5} {'move':>4} {'ok':>3} {'nodes':>13} "
          f"{'CPU s':>8} {'Mn/s':>6} | {'Edax nodes':>11} {'Edax s':>6} {'n ratio':>7} "
          f"{'t ratio':>7}")
    for r in rows:
        cells = (f"{r['edax_nodes']:>11,.0f} {r['edax_s']:>6.2f} {r['node_ratio']:>7.2f} "
                f"{r['time_ratio']:>7.2f}") if "edax_s" in r else ""
        print(f"{r['position']:>3} {r['empties']:>3} {r['value']:>+5} {r['best_move']:>4} "
              f"{'yes' if r['ok'] else 'NO':>3} {r['nodes']:>13,} {r['cpu_s']:>8.2f} "
              f"{r['nps'] / 1e6:>6.2f} | {cells}")
    line = (f"total {summary['nodes']:,} nodes, {summary['cpu_s']} CPU s")
    if "time_ratio" in summary:
        line += (f"; Edax {summary['edax_nodes']:,} nodes, {summary['edax_cpu_s']} s: node "
                 f"ratio {summary['node_ratio']}, time ratio {summary['time_ratio']}")
    print(line)
    return failures


def techniques(spec: str, repeats: int, only: str | None = None) -> int:
    """Every variant (or 'all on' and those named in ``only``) on the same positions: totals
    and ratios to 'all on'.
    """
    chosen = positions(spec)
    words = only.split(",") if only else []
    variants = [v for i, v in enumerate(VARIANTS)
                if i == 0 or not words or any(w in v.name for w in words)]
    base: tuple[float, float] | None = None
    failures = 0
    reference: dict[int, int] = {}  # the first variant's values where no score is given
    print(f"{'variant':<50} {'nodes':>14} {'CPU s':>8} {'nodes x':>8} {'time x':>7}")
    print(json.dumps({"uptime": uptime()}), flush=True)
    for variant in variants:
        warm_up(variant)
        nodes_sum = cpu_sum = 0.0
        for number, line, given, _best in chosen:
            value, _move, nodes, cpu = solve(variant, line, repeats)
            score = given if given is not None else reference.setdefault(number, value)
            want = (score > 0) - (score < 0) if variant.weak else score
            failures += value != want
            nodes_sum += nodes
            cpu_sum += cpu
        if base is None:
            base = (nodes_sum, cpu_sum)
        record = {"set": spec, "variant": variant.name, "nodes": int(nodes_sum),
                  "cpu_s": round(cpu_sum, 2), "node_ratio": round(nodes_sum / base[0], 3),
                  "time_ratio": round(cpu_sum / base[1], 3)}
        print(json.dumps(record), file=sys.stderr, flush=True)
        print(f"{variant.name:<50} {int(nodes_sum):>14,} {cpu_sum:>8.2f} "
              f"{record['node_ratio']:>8.2f} {record['time_ratio']:>7.2f}", flush=True)
    print(json.dumps({"uptime": uptime()}), flush=True)
    return failures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--set", default=None,
                        help="FFO numbers a-b (default 40-49), or random:COUNT:EMPTIES:SEED")
    parser.add_argument("--only", default=None,
                        help="with --techniques: 'all on' and the variants whose names "
                             "contain one of these comma-separated words")
    parser.add_argument("--techniques", action="store_true",
                        help="switch each technique off alone (default set 20-35)")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--edax", default=None,
                        help="an Edax 4.6 binary to run beside ours (see above)")
    args = parser.parse_args()
    if args.techniques:
        failures = techniques(args.set or "20-35", args.repeats, args.only)
    else:
        failures = ffo_table(args.set or "40-49", args.repeats, args.edax)
    if failures:
        print(f"{failures} WRONG result(s)", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
