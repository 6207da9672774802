"""A longer fuzz run of the command line (issue 11): every verb x every game.

The command lines come from ``tests/cli_cases.py`` (the same generator the test suite's
``tests/test_fuzz_cli.py`` drives with hypothesis), here from a seeded ``random.Random``.
Runs are in-process (``sakiyomi.cli.main`` with captured streams) under a SIGALRM watchdog, so
a hang is reported and the run goes on; ``--subprocess`` runs each case as its own process
instead (real streams and argv bytes, slower).

Prints one JSON line per verb and game: cases tried, exit statuses, tracebacks, hangs (over
``--timeout`` seconds), other problems (wrong answers, stderr lines), and up to three failing
command lines; then a total line.

    python bench/fuzz_cli.py --cases 50 --seed 1
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

# The repository root instead of bench/ (whose chess.py would hide python-chess): for
# tests.cli_cases.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
if str(Path(__file__).resolve().parent) in sys.path:  # run as a script, not with -m
    sys.path.remove(str(Path(__file__).resolve().parent))

from tests.cli_cases import (
    GAMES,
    VERBS,
    judge,
    make_case,
    run_subprocess,
    run_watched,
    shown_argv,
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cases", type=int, default=30, help="cases per verb and game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds before a hang")
    parser.add_argument("--subprocess", action="store_true")
    parser.add_argument("--verbs", default=",".join(VERBS))
    parser.add_argument("--games", default=",".join(GAMES))
    options = parser.parse_args()
    totals: Counter[str] = Counter()
    statuses: Counter[str] = Counter()
    started = time.perf_counter()
    for verb in options.verbs.split(","):
        for game in options.games.split(","):
            rng = random.Random(f"{options.seed}:{verb}:{game}")
            row: dict[str, Any] = {"verb": verb, "game": game, "cases": 0, "exit": Counter(),
                                   "tracebacks": 0, "hangs": 0, "problems": 0, "failures": []}
            begin = time.perf_counter()
            for _ in range(options.cases):
                case = make_case(rng, verb, game)
                outcome = (run_subprocess if options.subprocess else run_watched)(
                    case, options.timeout)
                row["cases"] += 1
                if outcome is None:
                    row["hangs"] += 1
                    problems = ["hang"]
                else:
                    row["exit"][str(outcome.status)] += 1
                    problems = judge(case, outcome)
                    row["tracebacks"] += "traceback" in problems
                    row["problems"] += bool([p for p in problems if p != "traceback"])
                if problems and len(row["failures"]) < 3:
                    row["failures"].append({"argv": shown_argv(case), "stdin": case.stdin[:200],
                                            "problems": problems})
            row["seconds"] = round(time.perf_counter() - begin, 2)
            for key in ("cases", "tracebacks", "hangs", "problems"):
                totals[key] += row[key]
            statuses.update(row["exit"])
            print(json.dumps(row, ensure_ascii=True), flush=True)
    print(json.dumps({"total": dict(totals), "exit": dict(statuses),
                      "seconds": round(time.perf_counter() - started, 1),
                      "mode": "subprocess" if options.subprocess else "in-process",
                      "load": os.getloadavg()}), flush=True)


if __name__ == "__main__":
    main()
