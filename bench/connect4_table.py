"""Connect Four: what the size of a solve's table region costs, on our own positions.

A solve keeps to ``2**k_table_bits`` slots of the table (``SolveTable``).  Too small a region
costs nodes (entries overwrite each other); too large a one costs time (cache and TLB misses,
and a fresh process faults in every page the solve touches).  This bench solves the same
positions (strongly, with the PV search, as the batch command line does) with the table capped
at each of several sizes (``--bits``; the region is then the smaller of the cap and
``k_table_bits``: a cap above the rule changes nothing) and prints, per number of empty
cells, the mean nodes and CPU time per position and the node ratio to the largest table.
The positions are our own: seeded random games stopped at the given number of empty cells
(with ``--close``, only the draws among six times as many, which take far more nodes; so
fewer than ``--count``), never a test suite's.  Each size runs the whole
list twice (alternating sizes) and keeps the faster pass; the load (``uptime``) is printed.

    python bench/connect4_table.py [--empties 22,26,30] [--bits 18,20,22,24] [--count 30]
                                   [--close]
"""

from __future__ import annotations

import argparse
import os
import random
import time
from dataclasses import replace
from typing import Any

import numpy as np

from sakiyomi.compiled.template import CompiledSearch, build
from sakiyomi.engines import solver_config
from sakiyomi.games import load
from sakiyomi.games.connect4 import Connect4


def random_lines(empties: int, count: int, seed: int) -> list[str]:
    """``count`` move strings of seeded random games stopped, unfinished, at ``empties``."""
    rng = random.Random(seed)
    out: list[str] = []
    while len(out) < count:
        game = load("connect4", "")
        moves = ""
        while 42 - len(moves) > empties:
            legal = list(game.legal_moves())
            rng.shuffle(legal)
            for move in legal:
                game.play(move)
                if game.outcome() is None:
                    moves += str(move + 1)
                    break
                game.undo()
            else:
                break  # every move ends the game: start another
        else:
            out.append(moves)
    return out


def offsets(lines: list[str]) -> tuple[bytes, Any, Any]:
    """The block entry's input: the lines' text and each line's start and end."""
    starts, ends, at = [], [], 0
    for line in lines:
        starts.append(at)
        ends.append(at + len(line))
        at += len(line) + 1
    return ("\n".join(lines).encode(), np.array(starts, dtype=np.int64),
            np.array(ends, dtype=np.int64))


def main() -> None:
    """Parse the options, solve, print one row per (empty cells, table size)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--empties", default="22,26,30")
    parser.add_argument("--bits", default="18,20,22,24")
    parser.add_argument("--count", type=int, default=30)
    parser.add_argument("--close", action="store_true", help="only drawn positions")
    args = parser.parse_args()
    game = Connect4()
    module_name, params = game.kernel_spec()
    module = build(module_name, params)
    config = solver_config(game)
    sizes = [int(b) for b in args.bits.split(",")]
    searches = {b: CompiledSearch(module, replace(config, tt_capacity=1 << b), shortcuts=True)
                for b in sizes}
    largest = searches[max(sizes)]
    print(f"load before: {os.getloadavg()}")
    for empties in (int(e) for e in args.empties.split(",")):
        lines = random_lines(empties, args.count * (6 if args.close else 1), 2000 + empties)
        if args.close:
            rows, _ = largest.block(*offsets(lines), True, False, config.guess_depth)
            lines = [ln for ln, row in zip(lines, rows, strict=True) if row[1] == 0]
            lines = lines[:args.count]
        text, starts, ends = offsets(lines)
        best: dict[int, float] = {}
        nodes: dict[int, int] = {}
        values: dict[int, list[int]] = {}
        for _ in range(2):
            for bits in sizes:
                began = time.process_time()
                rows, _ = searches[bits].block(text, starts, ends, False, True,
                                               config.guess_depth)
                spent = time.process_time() - began
                best[bits] = min(best.get(bits, spent), spent)
                nodes[bits] = int(rows[:, 2].sum())
                values[bits] = rows[:, 1].tolist()
        for bits in sizes:
            assert values[bits] == values[max(sizes)], "a table size changed a value"
            print(f"empties {empties:2d}  bits {bits:2d}  positions {len(lines)}  "
                  f"nodes/position {nodes[bits] / len(lines):12.0f}  "
                  f"ratio {nodes[bits] / nodes[max(sizes)]:.3f}  "
                  f"CPU us/position {best[bits] / len(lines) * 1e6:10.1f}", flush=True)
    print(f"load after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
