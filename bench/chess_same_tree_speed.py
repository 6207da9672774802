"""CPU time of the same search trees with and without the chess speed-ups of session 20.

``MoveIds`` (the orderer keys history by int ids) and ``QuietChecks`` (late and futile quiet
moves skipped without playing them) change no node of the tree, only its cost: this searches
the five positions of ``chess_eval_speed.py`` to a fixed depth with each on and off (cleared
on ``ChessGame`` for the run), rounds interleaved, checks that the node counts agree and
prints the CPU seconds and the speed relative to both off.  Not a test.

    python bench/chess_same_tree_speed.py --depth 7 --rounds 4
"""

from __future__ import annotations

import sys
from pathlib import Path

if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)  # run as a script, bench/chess.py would shadow python-chess
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for bench.chess_eval_speed

import argparse
import json
import os
import time

import chess

from bench.chess_eval_speed import POSITIONS
from sakiyomi import game as game_module
from sakiyomi.games.chess import ChessGame
from sakiyomi.protocols.chess_engine import CHESS_CONFIG, think
from sakiyomi.search.limits import Limits, StopSignal
from sakiyomi.tt import TranspositionTable

METHODS = {"move_ids": ("move_id", ChessGame.move_id),
           "quiet_checks": ("may_give_check", ChessGame.may_give_check)}


def run(depth: int, on: set[str]) -> tuple[float, int]:
    """CPU seconds and nodes of the depth-``depth`` searches with the speed-ups in ``on``."""
    for name, (method, function) in METHODS.items():
        setattr(ChessGame, method, function if name in on else None)
    game_module._capabilities.clear()  # capabilities are decided once per class
    start = time.process_time()
    nodes = 0
    for fen in POSITIONS:
        _, info = think(chess.Board(fen), Limits(depth=depth), StopSignal(),
                        tt=TranspositionTable(1 << 16), config=CHESS_CONFIG)
        assert info is not None
        nodes += info.stats.nodes
    return time.process_time() - start, nodes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=7)
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    variants = [frozenset(), frozenset({"move_ids"}), frozenset({"quiet_checks"}),
                frozenset(METHODS)]
    seconds = dict.fromkeys(variants, 0.0)
    nodes: dict[frozenset[str], int] = {}
    load_before = os.getloadavg()[0]
    for _ in range(args.rounds):
        for variant in variants:
            spent, count = run(args.depth, set(variant))
            seconds[variant] += spent
            nodes[variant] = count
    assert len(set(nodes.values())) == 1, nodes  # the same trees
    for variant in variants:
        print(json.dumps({
            "bench": "chess_same_tree_speed", "on": sorted(variant), "depth": args.depth,
            "rounds": args.rounds, "nodes": nodes[variant], "cpu_s": round(seconds[variant], 2),
            "speed_vs_none": round(seconds[frozenset()] / seconds[variant], 3),
            "load": [load_before, os.getloadavg()[0]]}), flush=True)


if __name__ == "__main__":
    main()
