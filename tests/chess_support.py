"""Helpers shared by the chess tests: data files, an independent brute-force mate check, and
chess without the hanging-move capabilities."""

from __future__ import annotations

import random
from pathlib import Path

import chess

from sakiyomi.games.chess import ChessGame
from sakiyomi.games.chess_endgame import ENDGAME_PHASE
from sakiyomi.games.chess_eval_parts import phase

DATA = Path(__file__).parent / "data" / "chess"


class NoHangingChessGame(ChessGame):
    """ChessGame without ``HangingMoves`` and ``HangingBeforePlay`` (chess has had them since
    session 26): for tests of what the searcher's hanging switches do on a game that cannot
    answer them.
    """

    hangs_piece = None  # type: ignore[assignment]
    move_hangs_piece = None  # type: ignore[assignment]


def epd_lines(name: str) -> list[str]:
    """Non-empty lines of a test-data file."""
    return [line for line in (DATA / name).read_text().splitlines() if line.strip()]


def mate_in(board: chess.Board, n: int) -> bool:
    """True if the side to move mates in at most ``n`` moves (plain python-chess, full width:
    every attacking move and every defence are tried).  Independent of our search.
    """
    for move in list(board.legal_moves):
        board.push(move)
        try:
            if board.is_checkmate():
                return True
            if n > 1 and not board.is_game_over() and all(
                    _mates_after(board, reply, n - 1) for reply in list(board.legal_moves)):
                return True
        finally:
            board.pop()
    return False


def _mates_after(board: chess.Board, reply: chess.Move, n: int) -> bool:
    board.push(reply)
    try:
        return mate_in(board, n)
    finally:
        board.pop()


def random_walk(rng: random.Random, plies: int) -> chess.Board:
    """The board after up to ``plies`` random legal moves from the start (fewer if the game
    ends first).
    """
    board = chess.Board()
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    return board


def middlegames(count: int, seed: int) -> list[chess.Board]:
    """Positions of random games outside the endgame rules (phase > ENDGAME_PHASE)."""
    rng = random.Random(seed)
    boards: list[chess.Board] = []
    while len(boards) < count:
        board = random_walk(rng, rng.randint(6, 60))
        if not board.is_game_over() and phase(ChessGame(board)) > ENDGAME_PHASE:
            boards.append(board)
    return boards
