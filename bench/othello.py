"""Othello endgame solving on the compiled template: FFO #40-#49 next to Edax, and what each
endgame technique buys.

Anchor: Edax 4.6 on this machine kind (one thread, its search with a zero evaluation file; CPU
seconds), figures from issue 5: #40 0.80 s / 21.0 M nodes, #41 6.1 s / 93.2 M, #42 3.9 s /
78.2 M, #43 5.8 s / 127 M, #44 8.1 s / 152 M; #40-#49 together 368 CPU-s / 6.75 G nodes.
Edax was not run here (not installed), so the ratios compare our CPU seconds measured now
with its figures measured on the same machine kind, not in the same run.

Modes (one JSON line per measurement, then a text table):
  python bench/othello.py                       # FFO #40-#49, exact, all techniques on
  python bench/othello.py --set 20-39           # another FFO range (1-19, 20-39, 40-49)
  python bench/othello.py --techniques --set 20-35
        # each technique switched off alone on the same positions: nodes, CPU s, ratios
Every value is checked against the data file (exact score, and a listed best move).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sakiyomi.compiled.template import CompiledSearch, build
from sakiyomi.engines import CompiledEngine
from sakiyomi.games.othello import KERNEL_MODULE, KERNEL_PARAMS, from_position, square_name
from sakiyomi.search.searcher import SearchConfig
from sakiyomi.search.solve import solve as solve_driver

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "othello"
FILES = {1: "fforum-1-19.obf", 20: "fforum-20-39.obf", 40: "fforum-40-49.obf"}
EDAX = {40: (0.80, 21.0e6), 41: (6.1, 93.2e6), 42: (3.9, 78.2e6), 43: (5.8, 127e6),
        44: (8.1, 152e6)}
EDAX_40_49 = (368.0, 6.75e9)
CONFIG = SearchConfig(killers=False, history=False, tt_capacity=1 << 22)


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
    Variant("no transposition table", config=SearchConfig(
        tt=False, killers=False, history=False)),
    Variant("no fastest-first (board order)", params={"FASTEST": 0}),
    Variant("no parity", params={"PARITY": 0}),
    Variant("no stability cut-off", params={"STABILITY": 0}, hooks={"cutoff": False}),
    Variant("no TT-less ordered tier (TT down to 7 empties)", params={"LEAF": 6}),
    Variant("no last-empties solver (TT search to the end)", hooks={"leaf_solver": False}),
    Variant("no PVS", config=SearchConfig(pvs=False, killers=False, history=False,
                                          tt_capacity=1 << 22)),
    Variant("weak solve (win/draw/loss)", weak=True),
]


def positions(spec: str) -> list[tuple[int, str, int, set[str]]]:
    """(number, line, exact score, best moves) for FFO numbers ``a-b``."""
    lo, hi = (int(x) for x in spec.split("-"))
    out = []
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


def warm_up(variant: Variant) -> None:
    """Compile (or load from the cache) before timing anything."""
    solve(variant, positions("1-1")[0][1], 1)


def ffo_table(spec: str, repeats: int) -> int:
    """Solve each position with everything on; print per position and totals vs Edax."""
    variant = VARIANTS[0]
    warm_up(variant)
    total_nodes = total_cpu = 0.0
    failures = 0
    rows = []
    for number, line, score, best_moves in positions(spec):
        value, best, nodes, cpu = solve(variant, line, repeats)
        ok = value == score and best in best_moves
        failures += not ok
        total_nodes += nodes
        total_cpu += cpu
        record: dict[str, Any] = {
            "ffo": number, "empties": line[:64].count("-"), "value": value, "expected": score,
            "best_move": best, "ok": ok, "nodes": nodes, "cpu_s": round(cpu, 3),
            "nps": round(nodes / cpu) if cpu else None}
        if number in EDAX:
            edax_s, edax_nodes = EDAX[number]
            record.update(edax_s=edax_s, edax_nodes=edax_nodes,
                          time_ratio=round(cpu / edax_s, 2),
                          node_ratio=round(nodes / edax_nodes, 3),
                          edax_nps=round(edax_nodes / edax_s))
        print(json.dumps(record), flush=True)
        rows.append(record)
    summary: dict[str, Any] = {"set": spec, "positions": len(rows), "all_ok": failures == 0,
                               "nodes": int(total_nodes), "cpu_s": round(total_cpu, 2),
                               "nps": round(total_nodes / total_cpu) if total_cpu else None}
    if spec == "40-49":
        summary.update(edax_cpu_s=EDAX_40_49[0], edax_nodes=EDAX_40_49[1],
                       time_ratio=round(total_cpu / EDAX_40_49[0], 2),
                       node_ratio=round(total_nodes / EDAX_40_49[1], 3))
    print(json.dumps(summary), flush=True)
    print(f"\n{'#':>3} {'emp':>3} {'value':>5} {'move':>4} {'ok':>3} {'nodes':>13} "
          f"{'CPU s':>8} {'Mn/s':>6} | {'Edax nodes':>11} {'Edax s':>6} {'n ratio':>7} "
          f"{'t ratio':>7}")
    for r in rows:
        edax = (f"{r['edax_nodes']:>11,.0f} {r['edax_s']:>6.2f} {r['node_ratio']:>7.2f} "
                f"{r['time_ratio']:>7.2f}") if "edax_s" in r else ""
        print(f"{r['ffo']:>3} {r['empties']:>3} {r['value']:>+5} {r['best_move']:>4} "
              f"{'yes' if r['ok'] else 'NO':>3} {r['nodes']:>13,} {r['cpu_s']:>8.2f} "
              f"{r['nps'] / 1e6:>6.2f} | {edax}")
    line = (f"total {summary['nodes']:,} nodes, {summary['cpu_s']} CPU s")
    if "time_ratio" in summary:
        line += (f"; Edax {EDAX_40_49[1]:,.0f} nodes, {EDAX_40_49[0]} s: node ratio "
                 f"{summary['node_ratio']}, time ratio {summary['time_ratio']}")
    print(line)
    return failures


def techniques(spec: str, repeats: int) -> int:
    """Every variant on the same positions: totals and ratios to 'all on'."""
    chosen = positions(spec)
    base: tuple[float, float] | None = None
    failures = 0
    print(f"{'variant':<50} {'nodes':>14} {'CPU s':>8} {'nodes x':>8} {'time x':>7}")
    for variant in VARIANTS:
        warm_up(variant)
        nodes_sum = cpu_sum = 0.0
        for _number, line, score, _best in chosen:
            value, _move, nodes, cpu = solve(variant, line, repeats)
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
    return failures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--set", default=None, help="FFO numbers a-b (default 40-49)")
    parser.add_argument("--techniques", action="store_true",
                        help="switch each technique off alone (default set 20-35)")
    parser.add_argument("--repeats", type=int, default=1)
    args = parser.parse_args()
    if args.techniques:
        failures = techniques(args.set or "20-35", args.repeats)
    else:
        failures = ffo_table(args.set or "40-49", args.repeats)
    if failures:
        print(f"{failures} WRONG result(s)", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
