"""The chess move-list kernels against their Python definitions on random positions.

Each kernel (``chess_attacks_kernel``, ``chess_exchange_kernel``, ``chess_movegen_kernel``,
``chess_evasion_kernel``)
must give what the Python function it replaces gives, so that the search sees the same moves
in the same order with the same hints and searches the same tree.
"""

from __future__ import annotations

import random

import chess
import numpy as np
import pytest

from sakiyomi.games import chess_attacks_kernel as ak
from sakiyomi.games import chess_exchange_kernel as ek
from sakiyomi.games import chess_movegen_kernel as mk
from sakiyomi.games.chess import ChessGame, _loses_material, _piece_on, _pinned
from sakiyomi.games.chess_see import SEE_VALUE, exchange
from tests.chess_support import epd_lines

pytestmark = pytest.mark.skipif(not mk.COMPILED, reason="the kernels replace Python code only "
                                "when compiled")


def _boards(count: int, seed: int) -> list[chess.Board]:
    """The perft suite's positions and positions along random games (pins, checks, en passant,
    castling and promotions all occur).
    """
    rng = random.Random(seed)
    boards = [chess.Board(line.split(";")[0]) for line in epd_lines("perft_cpw.epd")]
    while len(boards) < count:
        board = chess.Board()
        for _ in range(rng.randint(1, 160)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
            if rng.random() < 0.2:
                boards.append(board.copy())
    return boards[:count]


def _bitboards(b: chess.Board) -> tuple[np.uint64, ...]:
    """The kernels' bitboard arguments, as uint64 (the inner kernels compile for their types
    when a test calls them from Python).
    """
    return tuple(np.uint64(x) for x in (b.pawns, b.knights, b.bishops, b.rooks, b.queens,
                                        b.kings, b.occupied_co[chess.WHITE],
                                        b.occupied_co[chess.BLACK]))


def _special_checks() -> list[chess.Board]:
    """Positions in check where en passant takes the checking pawn, blocks the check (an
    impossible position, but a fine test of the generator), or does neither; a double check;
    a pawn pinned along a rank whose double step would block the check.
    """
    return [chess.Board("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1"),
            chess.Board("8/8/8/8/3Pp3/k6R/8/4K3 b - d3 0 1"),
            chess.Board("8/8/8/8/k2Pp3/8/8/R3K3 b - d3 0 1"),
            chess.Board("4r1k1/8/8/8/8/3n4/8/4K3 w - - 0 1"),  # a double check
            chess.Board("k7/8/6b1/8/8/8/2K1P2r/8 w - - 0 1")]  # a pinned pawn's block: illegal


def test_generated_lists_hints_and_ids_equal_the_python_definitions() -> None:
    seen = {"castling": 0, "en passant": 0, "promotion": 0, "losing": 0, "pin": 0,
            "check": 0, "double check": 0, "en passant in check": 0}
    for board in _boards(3000, seed=29) + _special_checks():
        game = ChessGame(board)
        python = game._generate_python()
        python_hints = list(game.move_hints(python))  # a list of its own: the Python hints
        made = game._generate()
        assert made == python, board.fen()
        assert list(game.move_hints(made)) == python_hints, board.fen()
        assert game.move_ids(made) == [game.move_id(m) for m in python], board.fen()
        seen["castling"] += any(board.is_castling(m) for m in made)
        seen["en passant"] += any(board.is_en_passant(m) for m in made)
        seen["promotion"] += any(m.promotion for m in made)
        seen["losing"] += -1 in python_hints
        seen["check"] += board.is_check()
        seen["double check"] += len(board.checkers()) > 1
        seen["en passant in check"] += board.is_check() and any(board.is_en_passant(m)
                                                                for m in made)
        seen["pin"] += any(board.is_pinned(board.turn, sq) for sq in
                           chess.scan_forward(board.occupied_co[board.turn]))
    assert all(seen.values()), seen


def test_captures_and_hints_equal_the_python_definition() -> None:
    losing = 0
    for board in _boards(1500, seed=30):
        game = ChessGame(board)
        if game.in_check():
            continue
        made = game._captures()
        assert made == game._captures_python(), board.fen()
        losing += len(made[0]) < sum(1 for m in board.generate_legal_captures()
                                     if m.promotion in (None, chess.QUEEN))
    assert losing


def test_exchange_and_losing_captures_equal_the_python_definitions() -> None:
    gains = mk.buffers()[1]
    count = 0
    for board in _boards(800, seed=31):
        bitboards = _bitboards(board)
        turn = int(board.turn)
        for move in board.generate_pseudo_legal_captures():
            frm, to = move.from_square, move.to_square
            victim = board.piece_type_at(to)
            if victim is None:
                continue  # en passant
            attacker = _piece_on(board, chess.BB_SQUARES[frm])
            occupied = board.occupied ^ chess.BB_SQUARES[frm]
            for side in (board.turn, not board.turn):
                assert ek.exchange(to, SEE_VALUE[victim], SEE_VALUE[attacker], int(side),
                                   np.uint64(occupied), *bitboards, gains
                                   ) == exchange(board, to, SEE_VALUE[victim],
                                                 SEE_VALUE[attacker], side, occupied)
            assert ek.loses_material(frm, to, victim, attacker, turn, *bitboards, gains
                                     ) == _loses_material(board, frm, to, victim, attacker)
            count += 1
    assert count > 1000


def test_attack_tests_equal_python_chess_and_the_python_definitions() -> None:
    for board in _boards(300, seed=32):
        pawns, knights, bishops, rooks, queens, kings, white, black = _bitboards(board)
        occupied = np.uint64(board.occupied)
        for square in range(64):
            for color, side in ((1, white), (0, black)):
                assert ak.attackers(color, square, occupied, pawns, knights, bishops, rooks,
                                    queens, kings, side) == board.attackers_mask(
                                        bool(color), square), (board.fen(), square)
            target = chess.BB_SQUARES[square]
            if board.occupied & target:
                assert ak.piece_on(np.uint64(target), pawns, knights, bishops, rooks,
                                   queens) == _piece_on(board, target)
        for color in (chess.WHITE, chess.BLACK):
            king = board.king(color)
            assert king is not None
            theirs = board.occupied_co[not color]
            args = (king, board.occupied, (board.bishops | board.queens) & theirs,
                    (board.rooks | board.queens) & theirs, board.occupied_co[color])
            assert ak.pinned(*(np.uint64(x) for x in args)) == _pinned(*args), board.fen()
