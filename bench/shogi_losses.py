"""Where our shogi games were lost (not a test): for each game we lost in a match record of
``bench/shogi.py``, the move of ours after which fairy-stockfish's score fell most, and whether
our engine, searching that position afresh, plays it again at each of ``--our-nodes``.

A loss whose worst move a deeper search of ours avoids is one of depth; one it repeats at
every budget points at the evaluation (or at pruning that hides the refutation).  Each of our
moves from ply 5 on is scored by fairy-stockfish before and after it (``--fsf-nodes``, a new
game each time, mates as ±30,000); positions already lost by more than ``--lost`` are left
out.  One JSON line a lost game: ``game``, ``ply`` (0-based), ``move``, ``fsf_best``,
``before`` and ``after`` (fairy-stockfish's score for our side), and ``ours`` (our move at
each node budget).

Run: ``python bench/shogi_losses.py bench/results/shogi/s22-fitted_evade_fsf2k_n10000.jsonl``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for bench.shogi

import argparse
import json

import cshogi
from cshogi.usi import Engine

from bench.shogi import setup, start_opponent, start_ours
from bench.shogi_eval_fit import fsf_score

MATE = 30_000


def worst_move(fsf: Engine, record: dict[str, object], nodes: int, lost: int
               ) -> dict[str, object] | None:
    """The move of ours in ``record`` (a lost game) after which fairy-stockfish's score for
    our side fell most, with the scores before and after it (None: no move of ours scored).
    """
    moves = str(record["moves"]).split()
    ours_first = record["sakiyomi"] == "black"
    board = cshogi.Board()
    worst: dict[str, object] | None = None
    largest = 0  # the drop of ``worst``
    for ply, text in enumerate(moves):
        if (ply % 2 == 0) == ours_first and ply >= 4:
            sfen = " ".join(board.sfen().split()[:3])
            before, best = fsf_score(fsf, sfen, nodes, MATE)
            board.push_usi(text)
            after, _ = fsf_score(fsf, " ".join(board.sfen().split()[:3]), nodes, MATE)
            board.pop()
            if before is not None and after is not None and before > -lost:
                drop = before + after  # ``after`` is the opponent's view
                if worst is None or drop > largest:
                    largest = drop
                    worst = {"game": record["game"], "ply": ply, "move": text, "fsf_best": best,
                             "before": before, "after": -after, "drop": drop, "sfen": sfen}
        board.push_usi(text)
    return worst


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("record", type=Path, help="a match record of bench/shogi.py")
    parser.add_argument("--fsf-nodes", type=int, default=20_000)
    parser.add_argument("--our-nodes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--lost", type=int, default=1500,
                        help="leave out positions worse than this for our side already")
    args = parser.parse_args()
    if not args.record.is_file():
        parser.error(f"no such file: {args.record}")
    for flag, number in (("--fsf-nodes", args.fsf_nodes), ("--lost", args.lost),
                         *(("--our-nodes", n) for n in args.our_nodes)):
        if number <= 0:
            parser.error(f"{flag} must be positive, not {number}")
    try:
        records = [json.loads(line) for line in args.record.read_text().splitlines()]
        games = [r for r in records if r.get("bench") == "match-game" and r["result"] == "L"]
    except (ValueError, KeyError, AttributeError) as exc:
        parser.error(f"{args.record}: not a match record ({exc})")
    fsf = start_opponent("fsf", setup(), [])
    if fsf is None:
        parser.error("fairy-stockfish is missing and could not be installed")
    ours = start_ours([])
    try:
        for record in games:
            worst = worst_move(fsf, record, args.fsf_nodes, args.lost)
            if worst is None:
                continue
            picks = {}
            for nodes in args.our_nodes:
                ours.usinewgame()
                ours.position(sfen=f"sfen {worst['sfen']} 1")
                picks[str(nodes)] = ours.go(nodes=nodes)[0]
            print(json.dumps({**worst, "ours": picks}), flush=True)
    finally:
        fsf.quit()
        ours.quit()


if __name__ == "__main__":
    main()
