"""Engine memory benchmark (not a test): does ``Hash`` / ``USI_Hash`` bound the process.

For each engine (UCI chess, USI shogi) and each table setting, a fresh engine process is told
the setting, answers ``isready`` (the empty table is allocated: RSS ``empty``), then searches
``go infinite`` until the table reports ``hashfull`` >= the target (or a time cap), and the
process's resident set is read from /proc (``full``, and the peak ``VmHWM``).  Printed per run:
the setting, the capacity the engine chose, the entries in use, RSS empty/full/peak, the bytes
one stored entry costs (``(full - empty) / used + 8`` for its slot) and the ratio peak /
setting.  The anchor is the setting itself: the claim is ``peak <= setting + baseline`` for
every larger setting, with ``baseline`` the peak of the smallest setting's run (interpreter,
game library, search buffers and that small full table).

Run from the repository root: ``python -m bench.engine_memory [--hash 1 4 16] [--engines uci usi]
[--fill 990] [--cap 600]``.  One JSON line per run, then one summary line per engine.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tests.engine_process import EngineProcess

from sakiyomi.protocols import chess_engine, shogi_engine
from sakiyomi.protocols.memory import MEGABYTE, entries_for

ROOT = Path(__file__).resolve().parent.parent
ENGINES = {
    "uci": ([sys.executable, "-m", "sakiyomi", "uci"], "Hash", "uciok", "uci",
            chess_engine.BYTES_PER_ENTRY),
    "usi": ([sys.executable, "-m", "sakiyomi", "usi"], "USI_Hash", "usiok", "usi",
            shogi_engine.BYTES_PER_ENTRY),
}
# Positions with many distinct continuations (the table fills faster than from the start).
POSITIONS = {
    "uci": "position fen r1bq1rk1/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R1BQK2R w KQ - 0 8",
    "usi": "position startpos moves 7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b",
}


def emit(record: dict[str, Any]) -> None:
    print(json.dumps(record), flush=True)


def rss_kb(pid: int) -> tuple[int, int]:
    """(VmRSS, VmHWM) of a process, in kB."""
    text = Path(f"/proc/{pid}/status").read_text()
    rss = int(re.search(r"VmRSS:\s+(\d+)", text).group(1))  # type: ignore[union-attr]
    peak = int(re.search(r"VmHWM:\s+(\d+)", text).group(1))  # type: ignore[union-attr]
    return rss, peak


def measure(engine: str, megabytes: int, fill: int, cap: float) -> dict[str, Any]:
    argv, option, hello, _, per_entry = ENGINES[engine]
    proc = EngineProcess(argv)
    try:
        proc.send(engine)
        proc.until(hello)
        proc.send(f"setoption name {option} value {megabytes}")
        proc.send("isready")
        proc.until("readyok", timeout=120)
        empty, _ = rss_kb(proc.proc.pid)
        proc.send(POSITIONS[engine])
        proc.send("go infinite")
        start = time.monotonic()
        hashfull = 0
        while hashfull < fill and time.monotonic() - start < cap:
            line = proc.wait_for("info depth", 5.0)
            if line is not None and " hashfull " in line:
                hashfull = int(line.split(" hashfull ")[1].split()[0])
        full, peak = rss_kb(proc.proc.pid)
        proc.send("stop")
        proc.until("bestmove", timeout=60)
    finally:
        proc.close()
    capacity = entries_for(megabytes, per_entry)
    used = capacity * hashfull // 1000
    return {
        "engine": engine, "setting_mb": megabytes, "capacity": capacity, "hashfull": hashfull,
        "seconds": round(time.monotonic() - start, 1),
        "rss_empty_mb": round(empty / 1024, 1), "rss_full_mb": round(full / 1024, 1),
        "rss_peak_mb": round(peak / 1024, 1),
        "bytes_per_entry": round((full - empty) * 1024 / used + 8) if used else None,
        "assumed_bytes_per_entry": per_entry,
        "table_mb_at_assumed": round(capacity * per_entry / MEGABYTE, 1),
        "peak_over_setting": round(peak / 1024 / megabytes, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hash", type=int, nargs="+", default=[1, 4, 16])
    parser.add_argument("--engines", nargs="+", default=["uci", "usi"], choices=list(ENGINES))
    parser.add_argument("--fill", type=int, default=990, help="target hashfull (permille)")
    parser.add_argument("--cap", type=float, default=600.0, help="seconds per run at most")
    args = parser.parse_args()
    load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    emit({"bench": "engine_memory", "uptime": load})
    for engine in args.engines:
        runs = [measure(engine, mb, args.fill, args.cap) for mb in sorted(args.hash)]
        for record in runs:
            emit(record)
        baseline = runs[0]["rss_peak_mb"]  # the engine with its smallest table, full
        worst = max(r["rss_peak_mb"] - (r["setting_mb"] + baseline) for r in runs[1:]) \
            if len(runs) > 1 else 0.0
        per_entry = [r["bytes_per_entry"] for r in runs if r["bytes_per_entry"]]
        emit({"engine": engine, "baseline_mb": baseline, "baseline_setting_mb": runs[0][
            "setting_mb"], "max_peak_minus_setting_plus_baseline_mb": round(worst, 1),
            "bounded": worst <= 0.0, "bytes_per_entry_measured": per_entry})


if __name__ == "__main__":
    main()
