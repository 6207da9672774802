"""CPU time per node of ``bench/chess_selfplay.py``'s variants, for equal-time self-play.

Node-limited self-play does not charge a candidate for being slower per node (an evaluation
term costs time at every leaf).  This measures the CPU time of fixed-node searches of five
positions of our own with each variant, the variants interleaved round by round so that a
change of the machine's load falls on all of them; the ratio of a variant's time to the base's
is the node budget to give it (``chess_selfplay.py --candidate-nodes``) for a comparison at
equal time.  Not a test: it prints one JSON line per variant.

    python bench/chess_eval_speed.py --variants engine mobility --rounds 5
"""

from __future__ import annotations

import sys
from pathlib import Path

if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)  # run as a script, bench/chess.py would shadow python-chess
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for bench.chess_selfplay

import argparse
import json
import os
import time

import chess

from bench.chess_selfplay import VARIANTS, apply_switches
from sakiyomi.protocols.chess_engine import think
from sakiyomi.search.limits import Limits, StopSignal
from sakiyomi.tt import TranspositionTable

# Our own positions (an opening, three middlegames, a pawn ending), not from a test suite.
POSITIONS = [
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 9",
    "r2q1rk1/1b2bppp/p1n1pn2/1p6/3P4/P1NBPN2/1P3PPP/R1BQ1RK1 w - - 0 12",
    "8/5pk1/6p1/3P4/1p2P3/1P3K1P/8/8 w - - 0 40",
    "2r2rk1/pp3ppp/2n1b3/3p4/3P4/2PB1N2/P4PPP/R4RK1 b - - 0 18",
]


def cpu_seconds(variant: str, nodes: int) -> float:
    """CPU time of a ``nodes``-node search of every position with ``variant``'s settings."""
    apply_switches(variant)
    start = time.process_time()
    for fen in POSITIONS:
        think(chess.Board(fen), Limits(nodes=nodes), StopSignal(nodes=nodes),
              tt=TranspositionTable(1 << 16), config=VARIANTS[variant])
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", nargs="+", choices=list(VARIANTS), required=True,
                        help="the first is the base the others are compared with")
    parser.add_argument("--nodes", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    totals = dict.fromkeys(args.variants, 0.0)
    load_before = os.getloadavg()[0]
    for _ in range(args.rounds):
        for variant in args.variants:
            totals[variant] += cpu_seconds(variant, args.nodes)
    base = totals[args.variants[0]]
    for variant, seconds in totals.items():
        print(json.dumps({
            "bench": "chess_eval_speed", "variant": variant, "cpu_s": round(seconds, 2),
            "nodes": args.nodes * len(POSITIONS) * args.rounds,
            "nodes_per_s": round(args.nodes * len(POSITIONS) * args.rounds / seconds),
            "speed_vs_base": round(base / seconds, 3),
            "load": [load_before, os.getloadavg()[0]]}), flush=True)


if __name__ == "__main__":
    main()
