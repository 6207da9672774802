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
import re
import subprocess
from collections.abc import Iterator
from typing import NamedTuple

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


class Game(NamedTuple):
    """A match record's moves, the colour our engine played (None if the record does not
    say), how many of the first moves were the set opening (nobody's choice) and the
    opponent's name (its first word: "stockfish", "sunfish").
    """

    moves: list[str]
    ours: chess.Color | None
    opening: int
    opponent: str


class Origin(NamedTuple):
    """Where a labelled position comes from: the number of the first game (in
    ``game_moves`` order) that reached it, and who chose the move that led to it: 1 our
    engine, -1 its opponent, 0 the set opening or unknown; and the game's opponent.
    """

    game: int
    mover: int
    opponent: str


def game_moves(results: Path) -> Iterator[Game]:
    """The move lists of every match record in ``results``' jsonl files."""
    for path in sorted(results.glob("*.jsonl")):
        for line in path.read_text().splitlines():
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if isinstance(record, dict) and record.get("bench") == "match" and isinstance(
                    record.get("moves"), str):
                side = record.get("we_play")
                yield Game(record["moves"].split(),
                           None if side not in ("white", "black") else side == "white",
                           len(str(record.get("opening") or "").split()),
                           (str(record.get("opponent") or "?").split() or ["?"])[0])


def is_quiet(board: chess.Board, last: chess.Move, was_capture: bool) -> bool:
    """Whether ``board`` is a position the static evaluation should score alone."""
    if was_capture or last.promotion or board.is_check() or board.is_game_over():
        return False
    game = ChessGame(chess.Board(board.fen()))
    if phase(game) <= ENDGAME_PHASE:
        return False
    return Searcher(game, CHESS_CONFIG).search(0) == game.evaluate()


def positions(results: Path) -> dict[str, Origin]:
    """The FENs of our games' quiet positions, deduplicated, in order of first sight, with
    their ``Origin``: the game is the group by which ``ridge`` splits training from
    measuring; the mover tells the positions our own search chose (whose evaluation it
    pushed up) from the others.
    """
    seen: dict[str, Origin] = {}
    for number, (moves, ours, opening, opponent) in enumerate(game_moves(results)):
        board = chess.Board()
        for ply, text in enumerate(moves, start=1):
            move = chess.Move.from_uci(text)
            capture = board.is_capture(move)
            mover = 0 if ours is None or ply <= opening else 1 if board.turn == ours else -1
            board.push(move)
            fen = " ".join(board.fen().split()[:4])
            if ply >= MIN_PLY and fen not in seen and is_quiet(board, move, capture):
                seen[fen] = Origin(number, mover, opponent)
    return seen


class StaticStockfish:
    """Stockfish's static evaluation of a position: its ``eval`` command (NNUE, or its
    hybrid with the classical evaluation in lopsided positions; no search), read from the
    "Final evaluation" line, which python-chess's UCI client does not expose.
    """

    def __init__(self, path: str = STOCKFISH) -> None:
        self.process = subprocess.Popen([path], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, bufsize=1)

    def __call__(self, fen: str) -> int | None:
        """Centipawns from the side to move (None where Stockfish gives none: in check)."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(f"position fen {fen}\neval\n")
        self.process.stdin.flush()
        for line in self.process.stdout:
            if line.startswith("Final evaluation"):
                found = re.search(r"([-+]?\d+\.\d+) \(white side\)", line)
                if found is None:
                    return None
                white = round(100 * float(found.group(1)))
                return white if chess.Board(fen).turn == chess.WHITE else -white
        raise ValueError("stockfish ended without a final evaluation")

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write("quit\n")
        self.process.stdin.flush()
        self.process.wait(timeout=10)


def label(args: argparse.Namespace) -> None:
    """Score up to ``--positions`` quiet positions with Stockfish (appending to ``--out``):
    by a search of ``--nodes`` nodes, or with ``--static`` by its static evaluation.
    """
    games = positions(RESULTS)
    fens = list(games)
    random.Random(args.seed).shuffle(fens)
    out = Path(args.out)
    done = set()
    if out.exists():
        done = {json.loads(line)["fen"] for line in out.read_text().splitlines() if line}
    print(json.dumps({"quiet_positions": len(fens), "already": len(done)}), flush=True)
    static = StaticStockfish() if args.static else None
    engine = None if static else chess.engine.SimpleEngine.popen_uci(STOCKFISH)
    if engine is not None:
        engine.configure({"Threads": 1, "Hash": 16})
    try:
        with out.open("a") as sink:
            for n, fen in enumerate(fens[:args.positions]):
                if fen in done:
                    continue
                record: dict[str, object] = {"fen": fen, **games[fen]._asdict()}
                if static is not None:
                    record |= {"stockfish": static(fen + " 0 1"), "source": "static"}
                else:
                    assert engine is not None
                    info = engine.analyse(chess.Board(fen + " 0 1"),
                                          chess.engine.Limit(nodes=args.nodes), game=n)
                    record |= {"stockfish": info["score"].relative.score(),  # None: a mate
                               "nodes": args.nodes, "depth": info.get("depth")}
                record["load"] = round(os.getloadavg()[0], 2)
                sink.write(json.dumps(record) + "\n")
                sink.flush()
    finally:
        if static is not None:
            static.close()
        if engine is not None:
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


class TooFew(ValueError):
    """A labels file with too few usable positions for the fit asked for."""


def load_labels(path: Path) -> tuple[np.ndarray, np.ndarray, list[Origin]]:
    """The features, Stockfish's scores, the games and the movers (``Origin``) of the
    labelled positions worth fitting (mates and |score| > MAX_SCORE left out).  Labels
    written without their origin (session 22's) get it from ``positions``.
    """
    records = [json.loads(line) for line in path.read_text().splitlines() if line]
    origin_of = positions(RESULTS) if any("opponent" not in r for r in records) else {}
    rows: list[list[float]] = []
    targets: list[float] = []
    origins: list[Origin] = []
    for record in records:
        score = record["stockfish"]
        if score is None or abs(score) > MAX_SCORE:
            continue
        rows.append(features(ChessGame(chess.Board(record["fen"] + " 0 1"))))
        targets.append(float(score))
        origins.append(Origin(int(record["game"]), int(record["mover"]), str(record["opponent"]))
                       if "opponent" in record else origin_of.get(
                           record["fen"], Origin(-1 - len(origins), 0, "?")))
    if not rows:
        raise TooFew(f"no usable position in {path} (mates and |score| > {MAX_SCORE} "
                     "are left out)")
    return np.array(rows), np.array(targets), origins


def fit(args: argparse.Namespace) -> None:
    """Fit the multipliers on even lines, measure on odd ones; print one JSON object."""
    x, y, _ = load_labels(Path(args.labels))
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


FOLDS = 5  # games by number mod FOLDS; fold 0 is measured, the others train and validate


def ridge_solution(x: np.ndarray, y: np.ndarray, prior: np.ndarray, penalty: np.ndarray
                   ) -> np.ndarray:
    """The multipliers minimising mean((x w - y)^2) + sum(penalty * (w - prior)^2): pulled
    towards ``prior`` (the weights in use), so that a term the data hardly determine keeps
    its weight instead of taking an absurd one (a huge penalty holds a column at its prior).
    """
    gram = x.T @ x / len(y) + np.diag(penalty)
    return prior + np.linalg.solve(gram, x.T @ (y - x @ prior) / len(y))


def inflation(x: np.ndarray) -> dict[int, float]:
    """Each column's variance inflation factor, 1 / (1 - R^2) of it regressed on the others
    (with a constant): how far collinearity lets its least-squares multiplier wander.
    """
    spread = x.std(axis=0)
    keep = spread > 0
    factors = np.diag(np.linalg.pinv(np.corrcoef(x[:, keep], rowvar=False)))
    return dict(zip(np.flatnonzero(keep).tolist(), factors.tolist(), strict=True))


def gaps(difference: np.ndarray, origins: list[Origin]) -> dict[str, dict[str, float]]:
    """The mean of ``difference`` (Stockfish's score less ours, by position from the side to
    move) turned to our engine's side, by opponent and by who chose the move into the
    position: how far, and where, our evaluation leans our engine's way.
    """
    movers = np.array([o.mover for o in origins])
    opponents = np.array([o.opponent for o in origins])
    ours = difference * np.where(movers == 1, -1, 1)  # our engine moved: the other's turn
    result = {}
    for name in sorted(set(opponents.tolist())):
        for mover in (1, -1):
            rows = (opponents == name) & (movers == mover)
            if rows.any():
                result[f"{name} after {'our' if mover == 1 else 'its'} move"] = {
                    "positions": int(rows.sum()), "mean": round(float(ours[rows].mean()), 1)}
    return result


HELD = 1e12  # the penalty that holds a multiplier at its prior


def ridge(args: argparse.Namespace) -> None:
    """Fit the multipliers of the terms in use (and a tempo) by ridge regression towards
    the weights in use, split by game: positions of games numbered 0 mod FOLDS are only
    measured; the strength is chosen by cross-validation over the other folds (one fold of
    games held out in turn), then refitted on all of them.  Targets are divided by the best
    single scale of the evaluation in use (Stockfish's centipawns per ours, on the training
    games), so that a multiplier of 1 is the weight in use.

    Unless ``--no-chooser``, one more column, not a term of the evaluation: +1 where our
    engine is to move, -1 where its opponent is (0: the set opening).  Our search picked
    the positions after its own moves for their high evaluation, so its errors there lean
    its way; a term it steers by (the middlegame tables) is then larger on its side exactly
    where Stockfish disagrees, and a fit without that column shrinks the term for it.
    ``--hold-endgame``: the endgame parts stay as written (the sample has no position inside
    the endgame rules, where they weigh most).  Prints one JSON object.
    """
    x, y, origins = load_labels(Path(args.labels))
    groups = np.array([o.game for o in origins])
    movers = np.array([o.mover for o in origins])
    use = np.array(in_use())
    names = [n for i, n in enumerate(NAMES) if (use[i] or n == "tempo" or args.all_terms)
             and np.any(x[:, NAMES.index(n)])]  # no all-zero part (king attack's eg)
    # The prior: each term as written (a term switched off too, with --all-terms), no tempo.
    prior = np.array([0.0 if n == "tempo" else 1.0 for n in names])
    xs = x[:, [NAMES.index(n) for n in names]]
    if not args.no_chooser:
        names.append("chooser")
        xs, prior = np.column_stack([xs, -movers]), np.append(prior, 0.0)
    fold = groups % FOLDS
    if len(y) < 10 * len(names) or len(set(fold.tolist())) < FOLDS:
        raise TooFew(f"{len(y)} usable positions: ridge needs at least {10 * len(names)}, "
                     f"from games in each of the {FOLDS} folds (game number mod {FOLDS})")
    train, test = fold != 0, fold == 0
    current = x @ use
    scale = float(current[train] @ y[train] / (current[train] @ current[train]))
    target = y / scale
    held = [n.endswith("_eg") and args.hold_endgame for n in names]

    def penalty(strength: float) -> np.ndarray:
        return np.array([HELD if hold else 0.0 if n == "chooser" else strength
                         for n, hold in zip(names, held, strict=True)])

    def error(weights: np.ndarray, rows: np.ndarray, chooser: bool = True) -> float:
        """RMS in Stockfish's centipawns (``chooser``: with that column's share)."""
        w = weights if chooser or args.no_chooser else np.append(weights[:-1], 0.0)
        return round(float(np.sqrt(np.mean((xs[rows] @ w - target[rows]) ** 2)) * scale), 1)

    validation = {}
    for strength in args.strengths:
        squares = []
        for out in range(1, FOLDS):
            inner = train & (fold != out)
            weights = ridge_solution(xs[inner], target[inner], prior, penalty(strength))
            squares.append(error(weights, fold == out) ** 2)
        validation[strength] = round(float(np.sqrt(np.mean(squares))), 1)
    best = min(validation, key=lambda strength: validation[strength])
    weights = ridge_solution(xs[train], target[train], prior, penalty(best))
    halves = [ridge_solution(xs[train & (groups % 2 == h)], target[train & (groups % 2 == h)],
                             prior, penalty(best)) for h in (0, 1)]
    mg, eg = (weights[names.index(n)] for n in ("material_mg", "material_eg"))

    def relative(w: np.ndarray) -> dict[str, float]:
        """Multipliers relative to material's of their phase (tempo and the chooser in our
        centipawns, relative to material's middlegame multiplier).
        """
        return {n: round(float(w[i] / (eg if n.endswith("_eg") else mg)), 3)
                for i, n in enumerate(names) if not n.startswith("material")}

    prior_fit = ridge_solution(xs[train], target[train], prior, np.where(
        np.array(names) == "chooser", 0.0, HELD))
    print(json.dumps({
        "labels": args.labels, "positions": len(y), "games": len(set(groups.tolist())),
        "train": int(train.sum()), "test": int(test.sum()), "scale": round(scale, 3),
        "rms_test_zero": rms(y[test]), "rms_test_as_written": error(prior, test),
        "rms_test_as_written_with_chooser": error(prior_fit, test),
        "validation_rms_by_strength": validation, "strength": best,
        "rms_test_fitted": error(weights, test),
        "rms_test_fitted_without_chooser": error(weights, test, chooser=False),
        "material": [round(float(mg), 3), round(float(eg), 3)],
        "multipliers": relative(weights),
        "multipliers_even_games": relative(halves[0]),
        "multipliers_odd_games": relative(halves[1]),
        "gap_from_our_side": gaps(target - current, origins),
        "variance_inflation": {names[i]: round(v, 1)
                               for i, v in inflation(xs[train][:, :-1] if not args.no_chooser
                                                     else xs[train]).items()},
    }, indent=1))

def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    labelling = commands.add_parser("label")
    labelling.add_argument("--positions", type=int, default=8000)
    labelling.add_argument("--nodes", type=int, default=20000)
    labelling.add_argument("--seed", type=int, default=2026)
    labelling.add_argument("--out", default=str(RESULTS / "s22-eval-labels.jsonl"))
    labelling.add_argument("--static", action="store_true",
                           help="Stockfish's static evaluation instead of a search")
    fitting = commands.add_parser("fit")
    fitting.add_argument("--labels", default=str(RESULTS / "s22-eval-labels.jsonl"))
    ridging = commands.add_parser("ridge")
    ridging.add_argument("--labels", default=str(RESULTS / "s23-eval-static-labels.jsonl"))
    ridging.add_argument("--strengths", type=float, nargs="+",
                         default=[0, 1, 3, 10, 30, 100, 300, 1000, 3000])
    ridging.add_argument("--all-terms", action="store_true",
                         help="also the terms switched off (they cost time per node)")
    ridging.add_argument("--no-chooser", action="store_true",
                         help="without the column of who chose the move into the position")
    ridging.add_argument("--hold-endgame", action="store_true",
                         help="the endgame parts stay as written")
    args = parser.parse_args()
    if args.command == "label":
        for flag, number in (("--positions", args.positions), ("--nodes", args.nodes)):
            if number <= 0:
                parser.error(f"{flag} must be positive, not {number}")
    elif not Path(args.labels).is_file():
        parser.error(f"no such file: {args.labels}")
    elif args.command == "ridge" and min(args.strengths) < 0:
        parser.error(f"--strengths must not be negative, not {min(args.strengths)}")
    try:
        {"label": label, "fit": fit, "ridge": ridge}[args.command](args)
    except TooFew as exc:
        parser.error(str(exc))
    except (ValueError, KeyError, TypeError) as exc:  # a malformed line of a labels file
        parser.error(f"malformed input: {exc}")


if __name__ == "__main__":
    main()
