"""The king-relative table corrections: kept move by move exactly as computed from scratch,
equal to the sum of their features, colour-symmetric, and fitted (not all zero)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import chess
import pytest

import sakiyomi.games.chess as chess_module
from sakiyomi.games import chess_king_tables as kt
from sakiyomi.games.chess import ChessGame
from sakiyomi.games.chess_king_weights import WEIGHTS
from sakiyomi.games.chess_pst import PHASE_TOTAL


@pytest.fixture
def random_weights(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Large random corrections, so that any slip in the bookkeeping shows."""
    monkeypatch.setattr(ChessGame, "KING_TABLES", True)
    rng = random.Random(29)
    monkeypatch.setattr(chess_module, "_KING_MG", [rng.randint(-90, 90) for _ in range(kt.COLUMNS)])
    monkeypatch.setattr(chess_module, "_KING_EG", [rng.randint(-90, 90) for _ in range(kt.COLUMNS)])
    chess_module._PAIRS.clear()
    yield
    chess_module._PAIRS.clear()


def _sums(board: chess.Board) -> tuple[int, int]:
    game = ChessGame(chess.Board(board.fen()))
    return game.table_values()


def test_sums_follow_every_move_and_undo(random_weights: None) -> None:
    rng = random.Random(7)
    placements = 0
    for start in range(30):
        game = ChessGame(chess.Board())
        for _ in range(rng.randint(20, 120)):
            moves = list(game.legal_moves())
            if not moves or game.outcome() is not None:
                break
            castles = [m for m in moves if game.board.is_castling(m)]
            kings = [m for m in moves if m.from_square == game.board.king(game.board.turn)]
            pool = castles or (kings if rng.random() < 0.3 and kings else moves)
            move = rng.choice(pool)
            before = game.table_values()
            mover = game.board.turn
            old = kt.king_state(game.board.king(mover) or 0, mover)
            game.play(move)
            placements += kt.king_state(game.board.king(mover) or 0, mover) != old
            assert game.table_values() == _sums(game.board), game.board.fen()
            if rng.random() < 0.2:
                game.undo()
                assert game.table_values() == before
                game.play(move)
        while game.board.move_stack:
            game.undo()
        assert game.table_values() == _sums(chess.Board()), start
    assert placements > 50  # the test met many changes of a king's placement


def test_corrections_are_the_sum_of_the_features(random_weights: None) -> None:
    rng = random.Random(11)
    for _ in range(200):
        board = chess.Board()
        for _ in range(rng.randint(0, 80)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        plain = ChessGame.KING_TABLES
        try:
            ChessGame.KING_TABLES = False
            mg0, eg0 = _sums(board)
        finally:
            ChessGame.KING_TABLES = plain
        mg, eg = _sums(board)
        features = kt.features(board)
        assert mg - mg0 == sum(sign * chess_module._KING_MG[col] for col, sign in features)
        assert eg - eg0 == sum(sign * chess_module._KING_EG[col] for col, sign in features)


def test_colour_mirror_scores_alike(random_weights: None) -> None:
    rng = random.Random(5)
    for _ in range(200):
        board = chess.Board()
        for _ in range(rng.randint(0, 60)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        board = chess.Board(board.fen())
        assert ChessGame(board).evaluate() == ChessGame(board.mirror()).evaluate()


def test_king_state_buckets() -> None:
    assert kt.king_state(chess.G1, chess.WHITE) == kt.king_state(chess.G8, chess.BLACK) == 1
    assert kt.king_state(chess.B1, chess.WHITE) == 7  # mirrored to g1
    assert kt.king_state(chess.E1, chess.WHITE) == 0
    assert kt.king_state(chess.E4, chess.WHITE) == 4
    assert kt.king_state(chess.H2, chess.WHITE) == 3
    assert len({kt.king_state(sq, chess.WHITE) for sq in range(64)}) == 12


def test_weights_are_fitted() -> None:
    """The shipped weights are a fit, not the placeholder: many non-zero, none absurd."""
    assert len(WEIGHTS) == kt.COLUMNS
    nonzero = sum(1 for mg, eg in WEIGHTS if mg or eg)
    assert nonzero > kt.COLUMNS // 4
    assert max(max(abs(mg), abs(eg)) for mg, eg in WEIGHTS) < PHASE_TOTAL * 20
