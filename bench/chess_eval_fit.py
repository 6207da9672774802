"""Fit the chess evaluation's term weights to Stockfish's judgement of our own positions.

Texel-style, but least squares on centipawns, as bench/othello_eval_fit.py does for Othello:

* ``label``: positions from our own games (the ``moves`` of the match records in
  bench/results/chess/*.jsonl; no test suite), from ply 12 on, outside the endgame rules
  (phase > ENDGAME_PHASE), side to move not in check, no capture just made, and quiet by our
  own quiescence search (it returns the static evaluation unchanged); deduplicated by
  position, shuffled (seeded), each scored by full-strength Stockfish at a fixed node count
  (``go nodes``), from the side to move.  One JSON line per position (FEN, score; mates as
  null), appended to ``--out`` so that an interrupted run can go on.
* ``fit``: the features of ``sakiyomi.games.chess_eval_parts`` (each term's tapered
  middlegame and endgame share) against those scores, skipping mates and |score| > 1500,
  fitted on one half (even lines) and measured on the other: RMS of the evaluation in use,
  of it times its best single scale, and of the fitted multipliers (the terms in use, and all
  terms).  The multipliers are also printed relative to material's (middlegame ones divided
  by material's middlegame multiplier, endgame ones by its endgame one), which keeps the
  tables' piece values and the search's margins in their present centipawns.

    python bench/chess_eval_fit.py label --positions 8000 --nodes 20000 \
        --out bench/results/chess/s22-eval-labels.jsonl
    python bench/chess_eval_fit.py fit --labels bench/results/chess/s22-eval-labels.jsonl
"""

from __future__ import annotations

import sys
from pathlib import Path

if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)  # run as a script, bench/chess.py would shadow python-chess

import argparse
import json
import os
import random
from collections.abc import Iterator

import chess
import chess.engine
import numpy as np

from sakiyomi.games.chess import ChessGame
from sakiyomi.games.chess_endgame import ENDGAME_PHASE
from sakiyomi.games.chess_eval_parts import NAMES, features, in_use, phase
from sakiyomi.protocols.chess_engine import CHESS_CONFIG
from sakiyomi.search.searcher import Searcher

RESULTS = Path(__file__).resolve().parent / "results" / "chess"
STOCKFISH = "/usr/games/stockfish"
MIN_PLY = 12
MAX_SCORE = 1500


def game_moves(results: Path) -> Iterator[list[str]]:
    """The move lists of every match record in ``results``' jsonl files."""
    for path in sorted(results.glob("*.jsonl")):
        for line in path.read_text().splitlines():
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if isinstance(record, dict) and record.get("bench") == "match" and isinstance(
                    record.get("moves"), str):
                yield record["moves"].split()


def is_quiet(board: chess.Board, last: chess.Move, was_capture: bool) -> bool:
    """Whether ``board`` is a position the static evaluation should score alone."""
    if was_capture or last.promotion or board.is_check() or board.is_game_over():
        return False
    game = ChessGame(chess.Board(board.fen()))
    if phase(game) <= ENDGAME_PHASE:
        return False
    return Searcher(game, CHESS_CONFIG).search(0) == game.evaluate()


def positions(results: Path) -> list[str]:
    """The FENs of our games' quiet positions, deduplicated, in order of first sight."""
    seen: dict[str, None] = {}
    for moves in game_moves(results):
        board = chess.Board()
        for ply, text in enumerate(moves, start=1):
            move = chess.Move.from_uci(text)
            capture = board.is_capture(move)
            board.push(move)
            fen = " ".join(board.fen().split()[:4])
            if ply >= MIN_PLY and fen not in seen and is_quiet(board, move, capture):
                seen[fen] = None
    return list(seen)


def label(args: argparse.Namespace) -> None:
    """Score up to ``--positions`` quiet positions with Stockfish (appending to ``--out``)."""
    fens = positions(RESULTS)
    random.Random(args.seed).shuffle(fens)
    out = Path(args.out)
    done = set()
    if out.exists():
        done = {json.loads(line)["fen"] for line in out.read_text().splitlines() if line}
    print(json.dumps({"quiet_positions": len(fens), "already": len(done)}), flush=True)
    engine = chess.engine.SimpleEngine.popen_uci(STOCKFISH)
    engine.configure({"Threads": 1, "Hash": 16})
    try:
        with out.open("a") as sink:
            for n, fen in enumerate(fens[:args.positions]):
                if fen in done:
                    continue
                info = engine.analyse(chess.Board(fen + " 0 1"),
                                      chess.engine.Limit(nodes=args.nodes), game=n)
                score = info["score"].relative.score()  # None for a mate
                sink.write(json.dumps({"fen": fen, "stockfish": score, "nodes": args.nodes,
                                       "depth": info.get("depth"),
                                       "load": round(os.getloadavg()[0], 2)}) + "\n")
                sink.flush()
    finally:
        engine.quit()


def rms(error: np.ndarray) -> float:
    return round(float(np.sqrt(np.mean(error ** 2))), 1)


def win_chance(centipawns: np.ndarray) -> np.ndarray:
    """The usual logistic map of a score to an expected result (400 cp: 10 to 1)."""
    return np.asarray(1 / (1 + 10 ** (-centipawns / 400)))


def fit_logistic(x: np.ndarray, y: np.ndarray, start: np.ndarray) -> np.ndarray:
    """Weights minimising the squared difference of expected results (Texel's loss), by
    Gauss-Newton steps from ``start``: big scores, where tactics beyond a static evaluation
    decide, count less than in the plain least squares.
    """
    target = win_chance(y)
    weights = start.copy()
    for _ in range(30):
        predicted = win_chance(x @ weights)
        slope = predicted * (1 - predicted) * np.log(10) / 400
        step = np.linalg.lstsq(x * slope[:, None], target - predicted, rcond=None)[0]
        weights += step
        if np.max(np.abs(step)) < 1e-4:
            break
    return weights


def describe(weights: np.ndarray, columns: list[int], x: np.ndarray, y: np.ndarray,
             train: slice, test: slice) -> dict[str, object]:
    """RMS and logistic loss of ``weights`` on both halves, and the weights themselves,
    also relative to material's (by phase).
    """
    mg, eg = weights[NAMES.index("material_mg")], weights[NAMES.index("material_eg")]
    relative = [weights[i] / (mg if NAMES[i].endswith("_mg") else eg if NAMES[i].endswith(
        "_eg") else 1.0) for i in range(len(NAMES))]
    return {"rms_train": rms(x[train] @ weights - y[train]),
            "rms_test": rms(x[test] @ weights - y[test]),
            "logistic_rms_test": round(float(np.sqrt(np.mean(
                (win_chance(x[test] @ weights) - win_chance(y[test])) ** 2))), 4),
            "multipliers": {NAMES[i]: round(float(weights[i]), 3) for i in columns},
            "relative_to_material": {NAMES[i]: round(float(relative[i]), 3)
                                     for i in columns}}


def fit(args: argparse.Namespace) -> None:
    """Fit the multipliers on even lines, measure on odd ones; print one JSON object."""
    rows, targets = [], []
    for line in Path(args.labels).read_text().splitlines():
        record = json.loads(line)
        score = record["stockfish"]
        if score is None or abs(score) > MAX_SCORE:
            continue
        rows.append(features(ChessGame(chess.Board(record["fen"] + " 0 1"))))
        targets.append(float(score))
    x, y = np.array(rows), np.array(targets)
    train, test = slice(0, None, 2), slice(1, None, 2)
    use = np.array(in_use())
    current = x @ use
    scale = float(np.dot(current[train], y[train]) / np.dot(current[train], current[train]))
    report: dict[str, object] = {
        "positions": len(y), "train": len(y[train]), "test": len(y[test]),
        "rms_test_zero": rms(y[test]),
        "in_use": describe(use, [], x, y, train, test),
        "in_use_scaled": describe(scale * use, [], x, y, train, test) | {
            "scale": round(scale, 3)}}
    on = [i for i, flag in enumerate(use) if flag]
    for name, columns in (("in_use_terms", on),
                          ("in_use_terms_tempo", [*on, NAMES.index("tempo")]),
                          ("all_terms", [i for i, n in enumerate(NAMES)
                                         if n != "king_attack_eg"])):
        weights = np.zeros(len(NAMES))
        weights[columns] = np.linalg.lstsq(x[train][:, columns], y[train], rcond=None)[0]
        report[name] = describe(weights, columns, x, y, train, test)
        logistic = np.zeros(len(NAMES))
        logistic[columns] = fit_logistic(x[train][:, columns], y[train], weights[columns])
        report[name + "_logistic"] = describe(logistic, columns, x, y, train, test)
        # The same fit on the other half: how far the multipliers move with the sample.
        other = np.zeros(len(NAMES))
        other[columns] = np.linalg.lstsq(x[test][:, columns], y[test], rcond=None)[0]
        report[name + "_other_half"] = describe(other, columns, x, y, test, train)
    report["candidate"] = candidate(report, "all_terms", x, y, train, test)
    # The same for the terms in use only (no term switched on: no cost per node).
    report["candidate_in_use"] = candidate(report, "in_use_terms_tempo", x, y, train, test)
    print(json.dumps(report, indent=1))


def candidate(report: dict[str, object], terms: str, x: np.ndarray, y: np.ndarray,
              train: slice, test: slice) -> dict[str, object]:
    """The weights to try in the engine: the fit of ``terms`` (a key of ``report``:
    "all_terms", "in_use_terms_tempo"), where its two halves agree.

    Every endgame part stays as written: the sample holds no position inside the endgame
    rules (phase <= ENDGAME_PHASE), where those parts weigh most, so a fitted endgame
    multiplier would be an extrapolation there.  A middlegame multiplier (relative to
    material) is *stable* when the fits on either half give it the same sign and differ by
    less than a factor 1.5.  Unstable ones stay as written (1; no tempo), stable negative
    ones become 0 (the data do not want the term), and the stable rest are fitted
    again with those held fixed (their contribution taken off the target, scaled by
    material's multiplier of their phase, a few rounds until that settles).
    """
    halves = [report[name] for name in (terms, terms + "_other_half")]
    first, second = (dict(h["relative_to_material"]) for h in halves)  # type: ignore[index]
    fixed: dict[str, float] = {}
    for name, a in first.items():
        b = second[name]
        if name.startswith("material") or name == "king_attack_eg":
            continue
        if name.endswith("_eg") or a * b <= 0 or max(abs(a), abs(b)) > 1.5 * min(abs(a), abs(b)):
            fixed[name] = 0.0 if name == "tempo" else 1.0  # the weight as written
        elif a < 0:
            fixed[name] = 0.0
    free = [NAMES.index(n) for n in first if n not in fixed and n != "king_attack_eg"]
    held = [NAMES.index(n) for n in fixed]
    values = np.array([fixed[NAMES[i]] for i in held])
    weights = np.zeros(len(NAMES))
    scale_mg = scale_eg = 1.0
    for _ in range(10):
        scales = np.array([scale_mg if NAMES[i].endswith("_mg") else scale_eg for i in held])
        weights[held] = values * scales
        rest = y[train] - x[train][:, held] @ weights[held]
        weights[free] = np.linalg.lstsq(x[train][:, free], rest, rcond=None)[0]
        scale_mg = weights[NAMES.index("material_mg")]
        scale_eg = weights[NAMES.index("material_eg")]
    result = describe(weights, [*free, *held], x, y, train, test)
    result["fixed"] = fixed
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    labelling = commands.add_parser("label")
    labelling.add_argument("--positions", type=int, default=8000)
    labelling.add_argument("--nodes", type=int, default=20000)
    labelling.add_argument("--seed", type=int, default=2026)
    labelling.add_argument("--out", default=str(RESULTS / "s22-eval-labels.jsonl"))
    fitting = commands.add_parser("fit")
    fitting.add_argument("--labels", default=str(RESULTS / "s22-eval-labels.jsonl"))
    args = parser.parse_args()
    if args.command == "label":
        for flag, number in (("--positions", args.positions), ("--nodes", args.nodes)):
            if number <= 0:
                parser.error(f"{flag} must be positive, not {number}")
    elif not Path(args.labels).is_file():
        parser.error(f"no such file: {args.labels}")
    try:
        if args.command == "label":
            label(args)
        else:
            fit(args)
    except (ValueError, KeyError, TypeError) as exc:  # a malformed line of a labels file
        parser.error(f"malformed input: {exc}")


if __name__ == "__main__":
    main()
