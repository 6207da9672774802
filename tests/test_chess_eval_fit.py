"""bench/chess_eval_fit.py's fit by game: the ridge solution and its prior, the collinearity
measure, who chose each position, and a planted weighting found end to end through the
``ridge`` command; Stockfish's static evaluation read from its ``eval`` output.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

import chess
import numpy as np
import pytest
from bench.chess_eval_fit import (
    MIN_PLY,
    STOCKFISH,
    StaticStockfish,
    inflation,
    main,
    positions,
    ridge,
    ridge_solution,
)

from sakiyomi.games.chess import ChessGame
from sakiyomi.games.chess_eval_parts import NAMES, features, in_use
from tests.chess_support import middlegames


def test_the_ridge_solution_moves_from_the_prior_to_least_squares() -> None:
    rng = np.random.default_rng(1)
    x = rng.normal(size=(200, 3))
    y = x @ np.array([2.0, -1.0, 0.5]) + rng.normal(scale=0.1, size=200)
    prior = np.ones(3)
    free = ridge_solution(x, y, prior, np.zeros(3))
    assert free == pytest.approx(np.linalg.lstsq(x, y, rcond=None)[0])
    assert ridge_solution(x, y, prior, np.full(3, 1e12)) == pytest.approx(prior)
    middle = ridge_solution(x, y, prior, np.full(3, 1.0))
    assert np.all(np.abs(middle - prior) < np.abs(free - prior))
    held = ridge_solution(x, y, prior, np.array([0.0, 1e12, 0.0]))
    assert held[1] == pytest.approx(1.0) and held[0] == pytest.approx(2.0, abs=0.1)


def test_variance_inflation_sees_a_near_copy() -> None:
    rng = np.random.default_rng(2)
    a, b = rng.normal(size=500), rng.normal(size=500)
    factors = inflation(np.column_stack([a, b, a + rng.normal(scale=0.05, size=500)]))
    assert factors[1] == pytest.approx(1.0, abs=0.05)
    assert factors[0] > 100 and factors[2] > 100


def test_positions_know_the_game_and_who_chose_the_move(tmp_path: Path) -> None:
    rng = random.Random(5)
    records: list[dict[str, str | int]] = []
    for number, side in enumerate(("white", "black")):
        board = chess.Board()
        while board.ply() < 40 and not board.is_game_over():
            quiet = [m for m in board.legal_moves if not board.is_capture(m)]
            board.push(rng.choice(quiet or list(board.legal_moves)))
        moves = [m.uci() for m in board.move_stack]
        records.append({"bench": "match", "game": number, "we_play": side,
                        "opponent": "sunfish" if number else "stockfish UCI_Elo 1800",
                        "opening": " ".join(moves[:14]), "moves": " ".join(moves)})
    (tmp_path / "match.jsonl").write_text("\n".join(json.dumps(r) for r in records) + "\n")
    origins = positions(tmp_path)
    assert {(o.game, o.opponent) for o in origins.values()} == {(0, "stockfish"),
                                                                (1, "sunfish")}
    plies_of: list[dict[str, int]] = []  # each game's positions by the ply that made them
    for record in records:
        replay, seen = chess.Board(), dict[str, int]()
        for ply, move in enumerate(str(record["moves"]).split(), start=1):
            replay.push_uci(move)
            seen.setdefault(" ".join(replay.fen().split()[:4]), ply)
        plies_of.append(seen)
    movers = set()
    for fen, (game, mover, _) in origins.items():
        plies = plies_of[game][fen]
        assert plies >= MIN_PLY
        ours = records[game]["we_play"] == "white"
        to_move = chess.Board(fen + " 0 1").turn
        assert mover == (0 if plies <= 14 else 1 if to_move != ours else -1), (fen, plies)
        movers.add(mover)
    assert movers == {-1, 0, 1}


def test_ridge_finds_a_planted_weighting_and_the_chooser(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Scores made from our own features: the terms in use as written but the isolated pawns
    # doubled and a tempo of 10, Stockfish's scale twice ours, and 60 of our centipawns
    # against whichever side "our engine" played.  The fit must find the weighting and the
    # bias, and leave the other multipliers at 1.
    planted = {"isolated_mg": 2.0, "isolated_eg": 2.0}
    weights = np.array([use * planted.get(name, 1.0) for name, use in
                        zip(NAMES, in_use(), strict=True)])
    weights[NAMES.index("tempo")] = 10.0
    rng = random.Random(9)
    lines = []
    for number, board in enumerate(middlegames(500, seed=21)):
        mover = rng.choice((-1, 1))
        value = float(np.dot(features(ChessGame(board)), weights)) + 60 * mover
        lines.append(json.dumps({"fen": " ".join(board.fen().split()[:4]), "game": number,
                                 "mover": mover, "opponent": "stockfish",
                                 "stockfish": round(2 * value)}))
    labels = tmp_path / "labels.jsonl"
    labels.write_text("\n".join(lines) + "\n")
    ridge(argparse.Namespace(labels=str(labels), strengths=[0.0, 10.0], all_terms=False,
                             no_chooser=False, hold_endgame=False))
    found = json.loads(capsys.readouterr().out)
    multipliers = found["multipliers"]
    assert found["strength"] == 0.0
    assert found["rms_test_fitted"] < 2
    assert multipliers["isolated_mg"] == pytest.approx(2.0, abs=0.1)
    assert multipliers["tables_mg"] == pytest.approx(1.0, abs=0.05)
    assert multipliers["tempo"] == pytest.approx(10.0, abs=1.0)
    assert multipliers["chooser"] == pytest.approx(-60.0, abs=1.0)  # our side to move: lower
    assert found["rms_test_as_written"] > 50 > found["rms_test_fitted"]
    gap = found["gap_from_our_side"]
    # Our side is 60 of ours below our evaluation after either side's move (and the tempo
    # and the isolated pawns' share, which are not ours to lean, average out).
    for key in ("stockfish after our move", "stockfish after its move"):
        assert gap[key]["mean"] == pytest.approx(-60.0, abs=15.0)
    ridge(argparse.Namespace(labels=str(labels), strengths=[0.0], all_terms=False,
                             no_chooser=True, hold_endgame=False))
    blind = json.loads(capsys.readouterr().out)
    assert "chooser" not in blind["multipliers"]
    assert blind["rms_test_fitted"] > 50  # the bias it cannot see


@pytest.mark.parametrize(("lines", "message"), [
    ([], "no usable position"),
    ([{"fen": "4k3/8/8/8/8/8/8/4K3 w - -", "game": 0, "mover": 1, "opponent": "x",
       "stockfish": 5}], "1 usable positions: ridge needs at least"),
    ([{"fen": "4k3/8/8/8/8/8/8/4K3 w - -"}], "malformed input"),
])
def test_ridge_refuses_bad_labels_in_one_error_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        lines: list[dict[str, object]], message: str) -> None:
    labels = tmp_path / "labels.jsonl"
    labels.write_text("".join(json.dumps(line) + "\n" for line in lines))
    monkeypatch.setattr("sys.argv", ["chess_eval_fit.py", "ridge", "--labels", str(labels)])
    with pytest.raises(SystemExit) as stop:
        main()
    assert stop.value.code == 2
    error = capsys.readouterr().err.splitlines()
    assert message in error[-1] and not any("Traceback" in line for line in error)


@pytest.mark.skipif(not Path(STOCKFISH).exists(), reason="needs Stockfish")
def test_stockfish_static_evaluation_is_from_the_side_to_move() -> None:
    evaluate = StaticStockfish()
    try:
        for board in middlegames(5, seed=23):
            if board.is_check():
                continue
            value = evaluate(board.fen())
            assert value is not None
            # The mirror swaps colours and the side to move: the same value for the mover.
            assert abs(evaluate(board.mirror().fen()) - value) <= 2  # type: ignore[operator]
        up_a_queen = "3qk3/8/8/8/8/8/8/4K3 w - - 0 1"
        assert (evaluate(up_a_queen) or 0) < -500
        assert evaluate("4k3/8/8/8/8/8/8/3QK2r w - - 0 1") is None  # in check: no value
    finally:
        evaluate.close()
