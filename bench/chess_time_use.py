"""How much of a UCI movetime the chess engine spends (not a test): the wall time from sending
``go movetime`` to reading ``bestmove``, through python-chess's ``chess.engine`` as
``bench/chess.py match`` drives it, over the moves of self-play games from the match openings.

    python bench/chess_time_use.py --moves 100 --time 0.2 [--overhead 35]

One JSON line: moves, the share of the movetime used (median, 10th and 90th percentile,
minimum and maximum), moves past the movetime, the largest overrun, the median depth of the
last ``info`` line, and the load (``uptime``) before and after.  A late answer loses on the
clock, so the maximum matters as much as the median.  The first move of each game is
preceded by an untimed ``go nodes 1``: python-chess sends ``ucinewgame`` and waits for
``isready`` inside ``play`` when the game changes, and a GUI's clock does not run meanwhile
(the engine empties its table and collects garbage there).
"""

from __future__ import annotations

import sys
from pathlib import Path

if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)  # run as a script, bench/chess.py would shadow python-chess

import argparse
import json
import statistics
import subprocess
import time

import chess
import chess.engine

OURS = [sys.executable, "-m", "sakiyomi", "uci"]
OPENINGS = [
    "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6",
    "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6",
    "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6",
    "c2c4 e7e5 b1c3 g8f6 g1f3 b8c6",
]
MAX_PLIES = 120


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=100)
    parser.add_argument("--time", type=float, default=0.2, help="movetime in seconds")
    parser.add_argument("--overhead", type=int, default=None, metavar="MS",
                        help="our Move Overhead (default: the engine's own)")
    args = parser.parse_args()
    before = uptime()
    engine = chess.engine.SimpleEngine.popen_uci(OURS, timeout=60)
    if args.overhead is not None:
        engine.configure({"Move Overhead": args.overhead})
    shares: list[float] = []
    late_at: list[tuple[int, int]] = []  # (game, ply) of late answers
    depths: list[int] = []
    limit = chess.engine.Limit(time=args.time)
    game = 0
    try:
        while len(shares) < args.moves:
            board = chess.Board()
            for text in OPENINGS[game % len(OPENINGS)].split():
                board.push_uci(text)
            first_ply = board.ply()
            while (len(shares) < args.moves and board.ply() < MAX_PLIES
                   and board.outcome(claim_draw=True) is None):
                if board.ply() == first_ply:  # the new game's ucinewgame/isready, untimed
                    engine.play(board, chess.engine.Limit(nodes=1), game=game)
                start = time.perf_counter()
                result = engine.play(board, limit, game=game, info=chess.engine.INFO_BASIC)
                shares.append((time.perf_counter() - start) / args.time)
                if shares[-1] > 1:
                    late_at.append((game, board.ply()))
                depth = result.info.get("depth")
                if depth is not None:
                    depths.append(depth)
                assert result.move is not None
                board.push(result.move)
            game += 1
    finally:
        engine.quit()
    deciles = statistics.quantiles(shares, n=10)
    print(json.dumps({
        "bench": "chess_time_use", "movetime_ms": round(args.time * 1000),
        "overhead_ms": args.overhead, "moves": len(shares),
        "share_median": round(statistics.median(shares), 3),
        "share_p10": round(deciles[0], 3), "share_p90": round(deciles[-1], 3),
        "share_min": round(min(shares), 3), "share_max": round(max(shares), 3),
        "late": len(late_at), "late_at": late_at,
        "max_overrun_ms": round(max(0.0, max(shares) - 1) * args.time * 1000, 1),
        "depth_median": statistics.median(depths) if depths else None,
        "uptime_before": before, "uptime_after": uptime()}), flush=True)


if __name__ == "__main__":
    main()
