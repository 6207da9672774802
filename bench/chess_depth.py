"""Chess screen (not a test): nodes to a fixed depth, and depth within a node budget, for
``bench/chess_selfplay.py``'s named variants against the engine's settings.

Why: a self-play run of 240 games takes a quarter to half an hour and its interval is wide
(±40 Elo); this screen takes a minute and says, before any game, what a switch does to the
tree.  Node counts do not depend on the machine's load, so two variants can be compared from
runs at different times; the CPU seconds do (a node's cost), hence the load beside them.

On our own middlegames (those of ``bench/before_after.py``'s ``CHESS_POSITIONS`` with more
material than the endgame rules', and ``tests/chess_support.middlegames(20, 2411)``, random
games), each variant searches each position with the engine's own search (``think``: the
shared driver, aspiration windows, ``CHESS_CONFIG`` or the variant's change of it), a fresh
table for every search, twice: to ``--depth`` (the nodes that costs and the move found) and
within ``--nodes`` (the depth it finishes; about 6,000 nodes is the Stockfish match's 200 ms).
The variants take turns position by position, so a change of the load falls on all of them.

Printed as JSON lines: one per position and variant, then one summary per variant: nodes to
the depth summed, their ratio to the engine's sum, the geometric mean of the per-position
ratios, the positions whose move at the depth is the engine's, the mean depth finished within
the budget, CPU seconds of each part, and ``os.getloadavg()`` before and after.

    python bench/chess_depth.py --variants improving --depth 6 --nodes 6000
"""

from __future__ import annotations

import sys
from pathlib import Path

if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)  # run as a script, bench/chess.py would shadow python-chess
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for bench.* and tests.*

import argparse
import json
import math
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import chess
from tests.chess_support import middlegames

from bench.before_after import CHESS_POSITIONS
from bench.chess_selfplay import NO_PARTIAL, VARIANTS, apply_switches
from sakiyomi.games.chess import ChessGame
from sakiyomi.games.chess_endgame import ENDGAME_PHASE
from sakiyomi.games.chess_eval_parts import phase
from sakiyomi.protocols.chess_engine import think
from sakiyomi.search.limits import Limits, StopSignal
from sakiyomi.tt import TranspositionTable

REFERENCE = "engine"


def positions(count: int = 20, seed: int = 2411) -> list[chess.Board]:
    """The screen's positions: ``CHESS_POSITIONS``'s middlegames, then ``count`` random ones."""
    fixed = [chess.Board(fen) for fen in CHESS_POSITIONS]
    return ([board for board in fixed if phase(ChessGame(board.copy())) > ENDGAME_PHASE]
            + middlegames(count, seed))


@dataclass(frozen=True)
class Searched:
    """One variant's two searches of one position."""

    nodes: int  # to the fixed depth
    move: str | None  # found at the fixed depth
    value: int | None
    cpu_s: float
    budget_depth: int  # the depth finished within the node budget
    budget_move: str | None
    budget_cpu_s: float


def search(board: chess.Board, variant: str, depth: int, nodes: int, table_bits: int
           ) -> Searched:
    """``variant``'s search of ``board`` to ``depth`` and within ``nodes``, a fresh table each."""
    apply_switches(variant)
    config = VARIANTS[variant]
    partial = variant not in NO_PARTIAL
    started = time.process_time()
    move, info = think(board.copy(), Limits(depth=depth), StopSignal(),
                       tt=TranspositionTable[chess.Move](1 << table_bits), config=config,
                       partial=partial)
    cpu = time.process_time() - started
    started = time.process_time()
    budget_move, budget_info = think(board.copy(), Limits(nodes=nodes), StopSignal(nodes=nodes),
                                     tt=TranspositionTable[chess.Move](1 << table_bits),
                                     config=config, partial=partial)
    budget_cpu = time.process_time() - started
    return Searched(nodes=0 if info is None else info.stats.nodes,
                    move=None if move is None else move.uci(),
                    value=None if info is None else info.value, cpu_s=cpu,
                    budget_depth=0 if budget_info is None else budget_info.depth,
                    budget_move=None if budget_move is None else budget_move.uci(),
                    budget_cpu_s=budget_cpu)


def screen(boards: Sequence[chess.Board], variants: Sequence[str], depth: int, nodes: int,
           table_bits: int = 18, report: Callable[[dict[str, object]], None] | None = None
           ) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    """(a line per position and variant, a summary per variant), each line also handed to
    ``report`` as it is made; the engine's settings are searched first whether named or not,
    as every ratio's reference.  ChessGame's switches are the engine's again afterwards.
    """
    names = [REFERENCE] + [name for name in dict.fromkeys(variants) if name != REFERENCE]
    load_start = os.getloadavg()
    results: dict[str, list[Searched]] = {name: [] for name in names}
    lines: list[dict[str, object]] = []
    try:
        for number, board in enumerate(boards):
            for name in names:
                found = search(board, name, depth, nodes, table_bits)
                results[name].append(found)
                reference = results[REFERENCE][number]
                lines.append({"bench": "chess_depth", "variant": name, "position": number,
                              "fen": board.fen(), "depth": depth, "nodes": found.nodes,
                              "ratio": round(found.nodes / reference.nodes, 4),
                              "move": found.move, "same_move": found.move == reference.move,
                              "value": found.value, "cpu_s": round(found.cpu_s, 3),
                              "budget": nodes, "budget_depth": found.budget_depth,
                              "budget_move": found.budget_move,
                              "budget_cpu_s": round(found.budget_cpu_s, 3)})
                if report is not None:
                    report(lines[-1])
    finally:
        apply_switches(REFERENCE)
    load_end = os.getloadavg()
    reference_rows = results[REFERENCE]
    reference_nodes = sum(row.nodes for row in reference_rows)
    summaries: list[dict[str, object]] = []
    for name in names:
        rows = results[name]
        total = sum(row.nodes for row in rows)
        logs = [math.log(row.nodes / ref.nodes) for row, ref in zip(rows, reference_rows,
                                                                     strict=True)]
        summaries.append({
            "bench": "chess_depth", "summary": True, "variant": name, "positions": len(rows),
            "depth": depth, "nodes": total, "ratio": round(total / reference_nodes, 4),
            "geo_ratio": round(math.exp(sum(logs) / len(logs)), 4),
            "same_move": sum(row.move == ref.move for row, ref in zip(rows, reference_rows,
                                                                      strict=True)),
            "cpu_s": round(sum(row.cpu_s for row in rows), 2),
            "budget": nodes,
            "budget_depth_mean": round(sum(row.budget_depth for row in rows) / len(rows), 3),
            "budget_same_move": sum(row.budget_move == ref.budget_move
                                    for row, ref in zip(rows, reference_rows, strict=True)),
            "budget_cpu_s": round(sum(row.budget_cpu_s for row in rows), 2),
            "load_start": [round(load, 2) for load in load_start],
            "load_end": [round(load, 2) for load in load_end]})
        if report is not None:
            report(summaries[-1])
    return lines, summaries


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--variants", nargs="+", choices=list(VARIANTS), default=[REFERENCE],
                        help="bench/chess_selfplay.py's names; the engine's is always searched")
    parser.add_argument("--depth", type=int, default=6)
    parser.add_argument("--nodes", type=int, default=6000, help="the node budget")
    parser.add_argument("--middlegames", type=int, default=20,
                        help="random middlegames after the fixed ones")
    parser.add_argument("--seed", type=int, default=2411)
    parser.add_argument("--positions", type=int, default=0,
                        help="only the first N positions (0: all)")
    parser.add_argument("--table-bits", type=int, default=18)
    args = parser.parse_args(argv)
    limits = (("--depth", args.depth, 1, 64), ("--nodes", args.nodes, 1, None),
              ("--middlegames", args.middlegames, 0, None),
              ("--positions", args.positions, 0, None), ("--table-bits", args.table_bits, 1, 30))
    for flag, number, least, most in limits:
        if number < least or (most is not None and number > most):
            parser.error(f"{flag} must be {least} or more" if most is None
                         else f"{flag} must be in {least}..{most}")
    boards = positions(args.middlegames, args.seed)
    if args.positions:
        boards = boards[:args.positions]
    screen(boards, args.variants, args.depth, args.nodes, args.table_bits,
           report=lambda line: print(json.dumps(line), flush=True))


if __name__ == "__main__":
    main()
