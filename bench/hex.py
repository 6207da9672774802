"""The Hex example (examples/hex): a game written as kernels outside the package, solved on the
compiled engine next to its anchor, the Python engine, on the same positions.

Both engines run the same algorithm and settings and must count the same nodes (checked);
each line gives the median CPU seconds over ``--repeats`` of each and their ratio.  The first
compiled call of a board size (loading or compiling the build) is made before timing.

  python bench/hex.py                 # 4×4 positions with 6-10 stones, and the empty board
  python bench/hex.py --repeats 5
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples" / "hex"))

from sakiyomi_hex.game import Hex, from_position

from sakiyomi.engines import solve_position

POSITIONS = ["b2 c2 b3", "b3 c2", "a4", "start"]  # 4×4; plus seeded random ones below


def random_positions(count: int, stones: int, seed: int) -> list[str]:
    """Position texts of games still going on with ``stones`` stones."""
    rng = random.Random(seed)
    texts: list[str] = []
    while len(texts) < count:
        game, moves = Hex(4), list[str]()
        while len(moves) < stones and game.legal_moves():
            move = rng.choice(list(game.legal_moves()))
            moves.append(game.move_to_text(move))
            game.play(move)
        if len(moves) == stones and game.outcome() is None:
            texts.append(" ".join(moves))
    return texts


def cpu_solve(game: Hex, engine: str) -> tuple[float, int, int]:
    """(CPU seconds, value, nodes) of one exact solve."""
    start = time.process_time()
    result = solve_position(game, engine=engine)
    return time.process_time() - start, result.value, result.stats.nodes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    solve_position(Hex(4), engine="compiled")  # load the compiled build before any timing
    texts = random_positions(3, 6, 1) + random_positions(3, 8, 2) + POSITIONS
    total = {"compiled": 0.0, "python": 0.0}
    for text in texts:
        game = from_position("hex", text)
        runs: dict[str, list[float]] = {"compiled": [], "python": []}
        seen: set[tuple[int, int]] = set()
        for _ in range(args.repeats):
            for engine in ("compiled", "python"):  # alternating: both see the same load
                seconds, value, nodes = cpu_solve(game, engine)
                runs[engine].append(seconds)
                seen.add((value, nodes))
        if len(seen) != 1:
            raise SystemExit(f"{text}: the engines disagree: {sorted(seen)}")
        value, nodes = seen.pop()
        medians = {k: statistics.median(v) for k, v in runs.items()}
        for k, v in medians.items():
            total[k] += v
        print(json.dumps({
            "position": text, "value": value, "nodes": nodes,
            "compiled_cpu_s": round(medians["compiled"], 4),
            "python_cpu_s": round(medians["python"], 4),
            "python_over_compiled": round(medians["python"] / max(medians["compiled"], 1e-9), 1),
            "compiled_mnps": round(nodes / max(medians["compiled"], 1e-9) / 1e6, 2),
        }), flush=True)
    print(json.dumps({"total_compiled_cpu_s": round(total["compiled"], 3),
                      "total_python_cpu_s": round(total["python"], 3),
                      "python_over_compiled": round(total["python"] / total["compiled"], 1),
                      "repeats": args.repeats,
                      "load": " ".join(f"{x:.2f}" for x in os.getloadavg())}))


if __name__ == "__main__":
    main()
