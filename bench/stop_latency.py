"""How fast a running search stops: the time from ``StopSignal.stop()`` (another thread) until
the search call has returned, and how far past a deadline a timed search ends.

Engines: the compiled template (Connect Four, Othello) and the Python Searcher (Connect Four,
chess when python-chess is installed).  Each trial starts a long solve in a thread, waits a
random 50-250 ms, asks it to stop and times the answer; deadline trials give the signal a
100 ms deadline and time the overrun.  Prints one JSON line per engine and kind with the median,
90th percentile and maximum in milliseconds, and the machine load.

Usage: python bench/stop_latency.py [--trials N]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import threading
import time
from typing import Any

from sakiyomi.engines import engine_for
from sakiyomi.games import load
from sakiyomi.search.limits import StopSignal
from sakiyomi.search.solve import solve

CASES = [  # (label, game, position, engine)
    ("connect4 compiled", "connect4", "5455221", "compiled"),
    ("othello compiled", "othello", "start", "compiled"),
    ("connect4 python", "connect4", "5455221", "python"),
    ("chess python", "chess", "startpos", "python"),
]


def once(game: Any, engine: str, seconds: float | None, stop_after: float | None) -> float:
    """Milliseconds from the stop request (or the deadline ``seconds`` after the engine is
    ready: a Python table of 2**23 slots takes a while to allocate) to the search's return.
    """
    searcher = engine_for(game.copy(), engine=engine)
    signal = searcher.stop = StopSignal(seconds=seconds)
    done: list[float] = []

    def work() -> None:
        solve(searcher.game, searcher=searcher)
        done.append(time.perf_counter())

    thread = threading.Thread(target=work)
    thread.start()
    if stop_after is not None:
        time.sleep(stop_after)
        asked = time.perf_counter()
        signal.stop()
    thread.join()
    if stop_after is None:
        assert signal.deadline is not None
        asked = signal.deadline
    return (done[0] - asked) * 1000


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trials", type=int, default=30)
    args = parser.parse_args()
    rng = random.Random(1)
    for label, name, position, engine in CASES:
        try:
            game = load(name, position)
        except Exception as exc:  # chess needs the extra
            print(json.dumps({"case": label, "skipped": str(exc)}))
            continue
        once(game, engine, None, 0.05)  # compile / warm up
        for kind in ("stop", "deadline"):
            values = []
            for _ in range(args.trials):
                if kind == "stop":
                    values.append(once(game, engine, None, rng.uniform(0.05, 0.25)))
                else:
                    values.append(once(game, engine, 0.1, None))
            print(json.dumps({
                "case": label, "kind": kind, "trials": len(values),
                "median_ms": round(statistics.median(values), 2),
                "p90_ms": round(percentile(values, 0.9), 2),
                "max_ms": round(max(values), 2),
                "load": " ".join(f"{x:.2f}" for x in os.getloadavg())}), flush=True)


if __name__ == "__main__":
    main()
