"""Chess endgame knowledge and exchange evaluation: won endings converted against a defender,
drawish material scaled down, static exchange values, random ending starts.
"""

from __future__ import annotations

import random

import chess
import pytest

from sakiyomi.games.chess import ChessGame
from sakiyomi.games.chess_endgame import random_ending
from sakiyomi.games.chess_see import see
from sakiyomi.protocols.chess_engine import think
from sakiyomi.search.limits import Limits, StopSignal
from sakiyomi.tt import TranspositionTable


def _edge_distance(square: int) -> int:
    file, rank = chess.square_file(square), chess.square_rank(square)
    return min(file, 7 - file, rank, 7 - rank)


def _defend(board: chess.Board) -> chess.Move:
    """The lone king's move: take a piece when it can, else keep as far from the edge as it
    can (the first such move in python-chess's order).  Independent of our engine.
    """
    moves = list(board.legal_moves)
    captures = [move for move in moves if board.is_capture(move)]
    if captures:
        return captures[0]
    return max(moves, key=lambda move: _edge_distance(move.to_square))


def _convert(board: chess.Board, nodes: int) -> chess.Board:
    """Our engine (White, ``nodes`` per move) against the defender until the game is over
    (claims included: 50-move rule, threefold repetition).
    """
    tt: TranspositionTable[chess.Move] = TranspositionTable(1 << 14)
    while board.outcome(claim_draw=True) is None:
        if board.turn == chess.WHITE:
            move, _ = think(board, Limits(nodes=nodes), StopSignal(nodes=nodes), tt=tt)
            assert move is not None
        else:
            move = _defend(board)
        board.push(move)
    return board


@pytest.mark.parametrize("pieces", ["Q", "R"])
def test_basic_mates_are_converted_within_the_fifty_move_rule(pieces: str) -> None:
    rng = random.Random(2026)
    for _ in range(3):
        start = random_ending(pieces, rng)
        end = _convert(start.copy(), nodes=600)
        assert end.is_checkmate(), f"K{pieces} vs K from {start.fen()} ended {end.fen()}"
        assert end.turn == chess.BLACK


def test_random_endings_are_legal_with_the_asked_material() -> None:
    rng = random.Random(5)
    for pieces in ("Q", "R", "BB", "BN", "RR"):
        for _ in range(20):
            board = random_ending(pieces, rng)
            assert board.is_valid() and board.turn == chess.WHITE and not board.is_game_over()
            white = sorted(p.symbol() for p in board.piece_map().values() if p.color)
            assert white == sorted(["K", *pieces])
            assert [p.symbol() for p in board.piece_map().values() if not p.color] == ["k"]
            bishops = list(board.pieces(chess.BISHOP, chess.WHITE))
            if len(bishops) == 2:
                colours = {(chess.square_file(sq) + chess.square_rank(sq)) % 2 for sq in bishops}
                assert colours == {0, 1}
    with pytest.raises(ValueError, match="QRBN"):
        random_ending("KP", rng)


def _value(fen: str) -> int:
    return ChessGame(chess.Board(fen)).evaluate()


def test_drawish_material_is_worth_little_and_won_material_much() -> None:
    won = _value("8/8/3k4/8/8/3K4/8/3R4 w - - 0 1")  # K+R vs K
    assert won > 500
    assert abs(_value("8/8/3k4/4b3/8/3K4/8/3R4 w - - 0 1")) < 60  # K+R vs K+B
    assert abs(_value("8/8/3k4/8/8/3K4/8/2NN4 w - - 0 1")) < won // 5  # K+N+N vs K
    assert _value("8/8/3k4/8/8/3K4/8/3Q4 w - - 0 1") > won  # K+Q vs K


def test_mop_up_prefers_the_lone_king_on_the_edge_and_the_kings_close() -> None:
    centre = _value("8/8/8/3k4/8/8/8/K2R4 w - - 0 1")
    edge = _value("3k4/8/8/8/8/8/8/K2R4 w - - 0 1")
    close = _value("3k4/8/3K4/8/8/8/8/3R4 w - - 0 1")
    assert centre < edge < close
    # From the lone king's side the same positions are as bad for it.
    assert _value("3k4/8/3K4/8/8/8/8/3R4 b - - 0 1") < -close + 100


@pytest.mark.parametrize("fen", [
    "3k4/8/8/8/8/8/8/K2R4 w - - 0 1",
    "8/8/8/2k5/8/8/2B5/K1B5 b - - 0 1",
    "7k/8/8/8/8/8/3N4/K1B5 w - - 0 1",
    "8/8/3k4/4b3/8/3K4/8/3R4 b - - 0 1",
])
def test_endgame_values_are_colour_symmetric(fen: str) -> None:
    board = chess.Board(fen)
    assert ChessGame(board).evaluate() == ChessGame(board.mirror()).evaluate()


@pytest.mark.parametrize(("fen", "move", "value"), [
    ("4k3/8/3p4/4p3/8/8/8/4RK2 w - - 0 1", "e1e5", 100 - 500),  # RxP, PxR
    ("4k3/8/8/4p3/8/8/8/4QK2 w - - 0 1", "e1e5", 100),  # an undefended pawn
    ("1k2r3/8/8/4p3/8/8/4R3/4QK2 w - - 0 1", "e2e5", 100),  # RxP RxR QxR: the x-ray queen
    ("1k2r3/4r3/8/4p3/8/8/4R3/4QK2 w - - 0 1", "e2e5", 100 - 500),  # two defenders: stop
    ("4k3/8/8/3p4/4K3/8/8/8 w - - 0 1", "e4d5", 100),  # the king takes an undefended pawn
    ("4k3/4r3/8/3p4/4K3/8/8/8 w - - 0 1", "e4d5", 100),
    ("4k3/8/4p3/3p4/4K3/8/8/8 w - - 0 1", "e4d5", 100 - 20_000),  # ... not a defended one
])
def test_static_exchange_values(fen: str, move: str, value: int) -> None:
    assert see(chess.Board(fen), chess.Move.from_uci(move)) == value


def test_quiescence_keeps_winning_captures_of_defended_pieces() -> None:
    # RxP is defended by the rook, but the queen behind wins it back: not a losing capture.
    game = ChessGame(chess.Board("1k2r3/8/8/4p3/8/8/4R3/4QK2 w - - 0 1"))
    assert chess.Move.from_uci("e2e5") in game.noisy_moves()
    game = ChessGame(chess.Board("1k2r3/4r3/8/4p3/8/8/4R3/4QK2 w - - 0 1"))
    assert chess.Move.from_uci("e2e5") not in game.noisy_moves()
