"""The chess engine's answer before any iteration completes (``first_choice``)."""

from __future__ import annotations

import chess

from sakiyomi.protocols.chess_engine import first_choice, table_for, think
from sakiyomi.search.limits import Limits, StopSignal


def _board(moves: str) -> chess.Board:
    board = chess.Board()
    for move in moves.split():
        board.push_uci(move)
    return board


def test_first_choice_takes_a_mate_in_one_and_leaves_losing_captures() -> None:
    mate = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4")
    assert first_choice(mate) == chess.Move.from_uci("f3f7")
    italian = _board("e2e4 e7e5 g1f3 b8c6 f1c4 f8c5")
    # python-chess generates Bxf7+ first; it loses the bishop for a pawn.
    assert next(iter(italian.legal_moves)) == chess.Move.from_uci("c4f7")
    choice = first_choice(italian)
    assert choice is not None and choice != chess.Move.from_uci("c4f7")
    assert choice in italian.legal_moves


def test_first_choice_prefers_the_table_move_and_handles_finished_positions() -> None:
    board = _board("d2d4 d7d5")
    tt = table_for(1)
    best, _ = think(board, Limits(depth=3), StopSignal(), tt=tt)
    assert first_choice(board, tt) == best
    assert first_choice(chess.Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")) is None  # stalemate
