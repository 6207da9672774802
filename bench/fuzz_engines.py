"""Long fuzz run of both engines (not a test): ≥ 10,000 protocol lines each, strict UTF-8.

Each engine runs as one subprocess under ``PYTHONIOENCODING=utf-8:strict LC_ALL=C.UTF-8`` and
is fed batches of random, mutated and noisy lines from ``tests/protocol_fuzz.py`` (seeded, so a
run can be repeated), each batch followed, after a random pause of 0 to 0.2 s (so some searches
run out their time and answer by themselves), by ``stop`` and ``isready``.  After every batch the
checker counts: the process died (it is restarted, and the death counted), a traceback on
stderr, and ``go`` lines answered not exactly once.  One JSON line per engine: lines sent, go
lines, answers, deaths, tracebacks, bad batches, seconds; the anchor is the count of go lines
(answers / gos must be 1.0).

Run from the repository root: ``python -m bench.fuzz_engines [--lines 10000] [--seed 1]
[--engines uci usi] [--batch 10]``.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import time
from typing import Any

from tests.protocol_fuzz import COMMANDS, Session, random_line


def emit(record: dict[str, Any]) -> None:
    print(json.dumps(record), flush=True)


def fuzz(engine: str, lines: int, seed: int, batch: int) -> dict[str, Any]:
    rng = random.Random(seed)
    start = time.monotonic()
    session = Session(engine)
    deaths = tracebacks = bad_batches = 0
    sent = gos = answers = 0
    examples: list[str] = []
    while sent + session.lines_sent < lines:
        chunk = [random_line(rng, engine) for _ in range(rng.randint(1, batch))]
        problems = session.feed(chunk, pause=rng.choice([0.0, 0.0, 0.0, 0.05, 0.2]))
        if problems:
            bad_batches += 1
            if len(examples) < 5:
                examples.append(f"{problems} after {chunk!r}"[:600])
        tracebacks += any(p.startswith("traceback") for p in problems)
        if not session.process.alive:
            deaths += 1
        if not session.process.alive or any(p.startswith("traceback") for p in problems):
            sent, gos, answers = (sent + session.lines_sent, gos + session.gos,
                                  answers + session.answers)
            session.close()
            session = Session(engine)
    sent, gos, answers = sent + session.lines_sent, gos + session.gos, answers + session.answers
    status = session.close()
    return {
        "engine": engine, "seed": seed, "lines": sent, "go_lines": gos, "answers": answers,
        "answers_per_go": round(answers / gos, 4) if gos else None, "deaths": deaths,
        "tracebacks": tracebacks, "bad_batches": bad_batches, "exit_status": status,
        "seconds": round(time.monotonic() - start, 1), "examples": examples,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--engines", nargs="+", default=["uci", "usi"], choices=list(COMMANDS))
    parser.add_argument("--batch", type=int, default=10, help="most lines between checks")
    args = parser.parse_args()
    load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    emit({"bench": "fuzz_engines", "uptime": load, "strict_utf8": True})
    for engine in args.engines:
        emit(fuzz(engine, args.lines, args.seed, args.batch))


if __name__ == "__main__":
    main()
