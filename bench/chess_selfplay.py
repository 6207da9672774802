"""Chess self-play at a fixed node budget per move: a candidate's search settings against the
engine's (``CHESS_CONFIG``), in process, so the result does not depend on the machine's load.
Not a test: it prints one JSON line per finished game with the running W/D/L from the
candidate's side, the Elo difference and its 95 % interval.

    python bench/chess_selfplay.py --candidate rfp --games 200 --nodes 1000 --workers 2

Openings are our own: ``--opening-plies`` random legal moves from the start position (seeded,
so both runs of a comparison see the same ones), each opening played with either colour.
Game n's opening comes from seed ``--seed + n // 2``, so runs whose seeds are less than
games / 2 apart share openings: ``--seed 2027`` replays ``--seed 2026``'s games from the third
on (at a node budget the same games, move for move; session 25).  For a second sample take a
seed at least games / 2 away (e.g. 3026).  A game ends by python-chess's rules with draw
claims (threefold, 50 moves) or, still running after ``--max-plies``, as a draw.  Tuning on
these games keeps the measured suites (WAC, the match openings of ``bench/chess.py``) out of it.
"""

from __future__ import annotations

import sys
from pathlib import Path

if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)  # run as a script, bench/chess.py would shadow python-chess
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository: bench.*

import argparse
import json
import multiprocessing
import os
import random
from collections.abc import Mapping
from dataclasses import replace
from typing import cast

import chess

from bench.match_stats import Sprt, summary
from sakiyomi.games.chess import (
    EVAL_WEIGHTS,
    FITTED_IN_USE_WEIGHTS,
    FITTED_WEIGHTS,
    STATIC_FIT_WEIGHTS,
    ChessGame,
    set_eval_weights,
)
from sakiyomi.protocols.chess_engine import CHESS_CONFIG, think
from sakiyomi.search.limits import Limits, StopSignal
from sakiyomi.search.searcher import SearchConfig
from sakiyomi.tt import TranspositionTable

# Candidate settings by name, each a change of the engine's settings.
VARIANTS: dict[str, SearchConfig] = {
    "engine": CHESS_CONFIG,
    "rfp-wide": replace(CHESS_CONFIG, reverse_futility_margins=(0, 120, 240, 360)),
    "no-rfp": replace(CHESS_CONFIG, reverse_futility_margins=()),
    "no-lmp": replace(CHESS_CONFIG, late_move_counts=()),
    "no-lmr-log": replace(CHESS_CONFIG, lmr_divisor=0.0),
    # The engine before session 17 adopted the three pruning rules (log LMR 2.25, reverse
    # futility 90/180/270, late-move pruning 6/10/16; "sel" against it when measured).
    "no-sel": replace(CHESS_CONFIG, lmr_divisor=0.0, reverse_futility_margins=(),
                      late_move_counts=()),
    # think(partial=False): the move of the last completed iteration only (the engine before
    # session 17 threw away the iteration a node or time limit cut short).
    "no-partial": CHESS_CONFIG,
    "see-tactical": CHESS_CONFIG,
    "no-terms": CHESS_CONFIG,
    "pieces": CHESS_CONFIG,
    "no-piece-terms": CHESS_CONFIG,
    "mobility": CHESS_CONFIG,
    "malus": replace(CHESS_CONFIG, history_malus=True),
    "counter": replace(CHESS_CONFIG, counter_moves=True),
    "nmp3": replace(CHESS_CONFIG, null_move_reduction=3),
    # Delta pruning in quiescence: captures that cannot lift the stand-pat value to alpha
    # with this margin are skipped.  The engine's since session 19 ("no-delta": without).
    "delta": replace(CHESS_CONFIG, delta_margin=200),
    "no-delta": replace(CHESS_CONFIG, delta_margin=0),
    # Narrower futility margins at remaining depth 1-2 (the engine's: 200, 450).
    "futility-narrow": replace(CHESS_CONFIG, futility_margins=(0, 150, 300)),
    "king-attack": CHESS_CONFIG,
    # Session 22: every term on, weighted by the fit to Stockfish (bench/chess_eval_fit.py,
    # ``FITTED_WEIGHTS``); "written": the terms on, at the weights as written.
    "fitted": CHESS_CONFIG,
    "written": CHESS_CONFIG,
    "fitted-in-use": CHESS_CONFIG,  # the terms in use, weighted by their own fit
    # Session 23: the terms in use refitted to Stockfish's static evaluation
    # (``STATIC_FIT_WEIGHTS``), no term switched on: no cost per node.
    "static-fit": CHESS_CONFIG,
    # Razoring at remaining depth 1-2 (session 23; SearchConfig.razor_margins).
    "razor": replace(CHESS_CONFIG, razor_margins=(0, 250, 450)),
    # No null move and no late-move pruning where a king is attacked (session 22).
    "guard": replace(CHESS_CONFIG, guard_king_danger=True),
    # Session 24: the Searcher's three pruning switches of 74c14c2 (searcher.py's comments).
    # Internal iterative reduction: no table move at remaining depth >= 4, a ply shallower.
    "iir4": replace(CHESS_CONFIG, iir_depth=4),
    # Null-move R = 2 + depth // 4 + min(3, (static - beta) // 200) (the engine's: 2, 3 from
    # depth 7).
    "nmr-adaptive": replace(CHESS_CONFIG, null_move_depth_divisor=4,
                            null_move_eval_divisor=200),
    # Late-move pruning halved when not improving, reverse futility a ply's margin less when
    # improving.
    "improving": replace(CHESS_CONFIG, improving=True),
    # All three together (the most nodes saved to depth 8 on our middlegames: 0.75x).
    "iir-nmr-improving": replace(CHESS_CONFIG, iir_depth=4, improving=True,
                                 null_move_depth_divisor=4, null_move_eval_divisor=200),
    # Session 26: hanging-move pruning (ChessGame.hangs_piece: a quiet move that leaves its
    # piece to be won, by at least a pawn, is skipped at non-PV nodes not in check after the
    # first move) at remaining depth 1..N, checks too.
    "hanging": replace(CHESS_CONFIG, hanging_depth=3),
    "hanging2": replace(CHESS_CONFIG, hanging_depth=2),
    "hanging1": replace(CHESS_CONFIG, hanging_depth=1),
    "hanging5": replace(CHESS_CONFIG, hanging_depth=5),
    # Session 29: the tables with / without their king-relative corrections
    # (chess_king_tables).
    "king-tables": CHESS_CONFIG,
    # Session 29: late-move reductions a ply smaller at PV nodes; or smaller everywhere.
    "lmr-pv": replace(CHESS_CONFIG, lmr_pv_less=1),
    "no-lmr-pv": replace(CHESS_CONFIG, lmr_pv_less=0),
    "lmr-div3": replace(CHESS_CONFIG, lmr_divisor=3.0),
    "lmr-pv2": replace(CHESS_CONFIG, lmr_pv_less=2),
    "lmr-pv-div3": replace(CHESS_CONFIG, lmr_pv_less=1, lmr_divisor=3.0),
    "no-king-tables": CHESS_CONFIG,
    "threats": CHESS_CONFIG,
}
# Variants that differ from the engine in ``think``'s options rather than in SearchConfig.
NO_PARTIAL = frozenset({"no-partial"})
# Variants that differ from the engine in ChessGame's class switches (the game's evaluation
# and tactical rules), by switch name; the engine's are ChessGame's defaults.
GAME_SWITCHES: dict[str, dict[str, bool]] = {
    # Captures losing material by exchange evaluation searched like any capture (never
    # reduced or pruned).
    "see-tactical": {"LOSING_CAPTURES_QUIET": False},
    # The evaluation before session 18: the tables alone.
    "no-terms": {"STRUCTURE_TERMS": False, "PIECE_TERMS": False, "MOBILITY": False},
    # With / without the rook-file and king-shelter terms.
    "pieces": {"PIECE_TERMS": True},
    "no-piece-terms": {"PIECE_TERMS": False},
    # With the mobility term.
    "mobility": {"MOBILITY": True},
    # With the king-attack term (session 21).
    "king-attack": {"KING_ATTACK": True},
    "fitted": {"PIECE_TERMS": True, "MOBILITY": True, "KING_ATTACK": True},
    "written": {"PIECE_TERMS": True, "MOBILITY": True, "KING_ATTACK": True},
    "king-tables": {"KING_TABLES": True},
    "no-king-tables": {"KING_TABLES": False},
    # Quiet moves attacking a more valuable piece searched as tactical (session 30).
    "threats": {"THREATS_TACTICAL": True},
}
# Variants that weight the evaluation's terms otherwise than the engine (``EVAL_WEIGHTS``).
WEIGHTS: dict[str, Mapping[str, float]] = {"fitted": FITTED_WEIGHTS, "written": {},
                                           "fitted-in-use": FITTED_IN_USE_WEIGHTS,
                                           "static-fit": STATIC_FIT_WEIGHTS}
DEFAULT_SWITCHES = {name: bool(getattr(ChessGame, name)) for name in (
    "LOSING_CAPTURES_QUIET", "STRUCTURE_TERMS", "PIECE_TERMS", "MOBILITY", "KING_ATTACK",
    "KING_TABLES", "THREATS_TACTICAL")}


_weights_in_use: Mapping[str, float] = EVAL_WEIGHTS


def switches_of(variant: str) -> dict[str, bool]:
    """Every ChessGame class switch as ``variant`` plays it."""
    return DEFAULT_SWITCHES | GAME_SWITCHES.get(variant, {})


def apply_switches(variant: str) -> None:
    """Set ChessGame's class switches and the evaluation's weights to ``variant``'s (before
    each of its searches).
    """
    for name, value in switches_of(variant).items():
        setattr(ChessGame, name, value)
    weights = WEIGHTS.get(variant, EVAL_WEIGHTS)
    global _weights_in_use
    if weights is not _weights_in_use:
        set_eval_weights(weights)
        _weights_in_use = weights


def opening(seed: int, plies: int) -> list[chess.Move]:
    """``plies`` random legal moves from the start that do not end the game."""
    rng = random.Random(seed)
    while True:
        board = chess.Board()
        for _ in range(plies):
            board.push(rng.choice(list(board.legal_moves)))
            if board.is_game_over():
                break
        else:
            return list(board.move_stack)


def play_game(job: tuple[int, str, str, int, int, int, int, int, float]
              ) -> tuple[int, float, int, str]:
    """One game; returns (number, the candidate's score, plies, how it ended).  With a
    ``movetime`` (seconds, > 0) both sides get that much wall time a move instead of a node
    budget: equal time, so a slower evaluation pays for its cost (the process's load falls on
    both sides alike, they take turns).
    """
    (number, candidate, base, nodes, candidate_nodes, opening_plies, max_plies, seed,
     movetime) = job
    budget = {True: candidate_nodes, False: nodes}
    configs = {True: VARIANTS[candidate], False: VARIANTS[base]}
    partial = {True: candidate not in NO_PARTIAL, False: base not in NO_PARTIAL}
    candidate_white = number % 2 == 0
    tables = {side: TranspositionTable[chess.Move](1 << 16) for side in (True, False)}
    board = chess.Board()
    for first in opening(seed + number // 2, opening_plies):
        board.push(first)
    while True:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            winner, reason = outcome.winner, outcome.termination.name.lower()
            break
        if board.ply() >= max_plies:
            winner, reason = None, "ply limit"
            break
        is_candidate = (board.turn == chess.WHITE) == candidate_white
        apply_switches(candidate if is_candidate else base)
        limit = budget[is_candidate]
        limits, signal = ((Limits(time=movetime), StopSignal(seconds=movetime)) if movetime > 0
                          else (Limits(nodes=limit), StopSignal(nodes=limit)))
        answer, _ = think(board.copy(), limits, signal,
                          tt=tables[is_candidate], config=configs[is_candidate],
                          partial=partial[is_candidate])
        assert answer is not None
        board.push(answer)
    score = 0.5 if winner is None else float((winner == chess.WHITE) == candidate_white)
    return number, score, board.ply(), reason


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--candidate", choices=list(VARIANTS), required=True)
    parser.add_argument("--base", choices=list(VARIANTS), default="engine")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--nodes", type=int, default=1000)
    parser.add_argument("--candidate-nodes", type=int, default=None,
                        help="the candidate's budget when it differs (default: --nodes); "
                        "a slower candidate gets fewer nodes in proportion to its speed, so "
                        "that the comparison stands for equal time")
    parser.add_argument("--movetime", type=float, default=0.0,
                        help="seconds a move for both sides (equal time; overrides --nodes)")
    parser.add_argument("--opening-plies", type=int, default=8)
    parser.add_argument("--max-plies", type=int, default=200)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=2026,
                        help="game n's opening seed is SEED + n // 2: for other openings than "
                        "another run's, take a seed at least games / 2 away")
    parser.add_argument("--sprt", type=float, nargs=2, metavar=("ELO0", "ELO1"),
                        help="stop once Wald's test (bench/match_stats.py, α = β = 0.05, on "
                             "opening pairs) accepts ELO0 or ELO1 for the candidate")
    args = parser.parse_args()
    if args.sprt and not args.sprt[1] > args.sprt[0]:
        parser.error("--sprt needs ELO0 < ELO1")
    sprt = Sprt(args.sprt[0], args.sprt[1]) if args.sprt else None
    candidate_nodes = args.nodes if args.candidate_nodes is None else args.candidate_nodes
    jobs = [(n, args.candidate, args.base, args.nodes, candidate_nodes, args.opening_plies,
             args.max_plies, args.seed, args.movetime) for n in range(args.games)]
    results: dict[int, float] = {}  # the candidate's score by game number
    with multiprocessing.Pool(args.workers) as pool:
        for number, score, plies, reason in pool.imap_unordered(play_game, jobs):
            results[number] = score
            running = summary(results, sprt)
            print(json.dumps({
                "bench": "chess_selfplay", "candidate": args.candidate, "base": args.base,
                "nodes": args.nodes, "candidate_nodes": candidate_nodes,
                "movetime": args.movetime, "game": number,
                "score": score, "plies": plies, "reason": reason,
                **{key: running[key] for key in ("W", "D", "L", "elo", "elo_95", "los")},
                **({"sprt": running["sprt"]} if sprt is not None else {}),
                "load": os.getloadavg()[0]}), flush=True)
            if sprt is not None and cast(dict[str, object], running["sprt"])["decision"]:
                pool.terminate()  # decided: the games under way are not needed
                break


if __name__ == "__main__":
    main()
