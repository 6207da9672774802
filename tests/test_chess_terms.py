"""The evaluation terms beside the piece-square tables (``chess_terms``): pawn structure, bishop
pair, rook files, king shelter, mobility."""

from __future__ import annotations

import random

import chess
import pytest

from sakiyomi.games import chess_terms
from sakiyomi.games.chess import ChessGame
from sakiyomi.games.chess_terms import (
    BISHOP_PAIR_EG,
    BISHOP_PAIR_MG,
    DOUBLED_EG,
    DOUBLED_MG,
    ISOLATED_EG,
    ISOLATED_MG,
    MOBILITY_BASE,
    MOBILITY_EG,
    MOBILITY_MG,
    PASSED_EG,
    PASSED_MG,
    ROOK_OPEN_EG,
    ROOK_OPEN_MG,
    ROOK_SEMI_OPEN_EG,
    ROOK_SEMI_OPEN_MG,
    SHELTER_CAP,
    SHELTER_MG,
    mobility,
    pawn_terms,
    piece_terms,
    structure_terms,
)
from tests.chess_support import random_walk


def _terms(fen: str) -> tuple[int, int]:
    return structure_terms(chess.Board(fen))


def _brute_passed(board: chess.Board, square: int) -> bool:
    """Passed by the definition, square by square: no pawn of either side ahead on the file,
    no enemy pawn ahead on a neighbouring file.
    """
    color = board.color_at(square)
    assert color is not None
    file, rank = chess.square_file(square), chess.square_rank(square)
    ahead = range(rank + 1, 8) if color else range(rank - 1, -1, -1)
    for r in ahead:
        for f in (file - 1, file, file + 1):
            if not 0 <= f < 8:
                continue
            piece = board.piece_at(chess.square(f, r))
            if piece is None or piece.piece_type != chess.PAWN:
                continue
            if f == file or piece.color != color:
                return False
    return True


def _brute_terms(board: chess.Board) -> tuple[int, int]:
    """The pawn terms computed square by square, independently of the bitboard masks."""
    mg = eg = 0
    for color, sign in ((chess.WHITE, 1), (chess.BLACK, -1)):
        squares = list(board.pieces(chess.PAWN, color))
        files = [chess.square_file(sq) for sq in squares]
        for sq in squares:
            file = chess.square_file(sq)
            if _brute_passed(board, sq):
                rank = chess.square_rank(sq) if color else 7 - chess.square_rank(sq)
                mg += sign * PASSED_MG[rank]
                eg += sign * PASSED_EG[rank]
            if file - 1 not in files and file + 1 not in files:
                mg -= sign * ISOLATED_MG
                eg -= sign * ISOLATED_EG
        for file in set(files):
            extra = files.count(file) - 1
            mg -= sign * DOUBLED_MG * extra
            eg -= sign * DOUBLED_EG * extra
    return mg, eg


def test_a_lone_passed_pawn_gets_its_rank_bonus_and_the_isolation_penalty() -> None:
    # White pawn on d5 (fifth rank, index 4), nothing else on the board but kings.
    assert _terms("4k3/8/8/3P4/8/8/8/4K3 w - - 0 1") == (
        PASSED_MG[4] - ISOLATED_MG, PASSED_EG[4] - ISOLATED_EG)


def test_an_enemy_pawn_ahead_on_a_neighbouring_file_stops_the_bonus() -> None:
    free = _terms("4k3/8/8/3P4/8/8/8/4K3 w - - 0 1")
    stopped = _terms("4k3/4p3/8/3P4/8/8/8/4K3 w - - 0 1")  # e7 can take on d6
    behind = _terms("4k3/8/8/3P4/4p3/8/8/4K3 w - - 0 1")  # e4 is behind d5: still passed
    # the black pawns are isolated (and e4 passed) too; compare White's part only
    e7_own = (-ISOLATED_MG, -ISOLATED_EG)
    assert stopped == (free[0] - PASSED_MG[4] - e7_own[0], free[1] - PASSED_EG[4] - e7_own[1])
    e4_passed = (PASSED_MG[4], PASSED_EG[4])  # black's e4: fifth rank from its side
    assert behind == (free[0] - e4_passed[0] + ISOLATED_MG, free[1] - e4_passed[1] + ISOLATED_EG)


def test_doubled_pawns_cost_per_extra_pawn_and_only_the_front_one_is_passed() -> None:
    single = _terms("4k3/8/8/3P4/8/8/8/4K3 w - - 0 1")
    doubled = _terms("4k3/8/8/3P4/8/3P4/8/4K3 w - - 0 1")
    assert doubled == (single[0] - DOUBLED_MG - ISOLATED_MG, single[1] - DOUBLED_EG - ISOLATED_EG)


def test_bishop_pair() -> None:
    base = "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1"
    one = "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1"
    assert _terms(base)[0] - _terms(one)[0] == BISHOP_PAIR_MG
    assert _terms(base)[1] - _terms(one)[1] == BISHOP_PAIR_EG
    assert _terms(chess.Board(base).mirror().fen()) == (-BISHOP_PAIR_MG, -BISHOP_PAIR_EG)


def test_pawn_terms_match_a_square_by_square_count_on_random_positions() -> None:
    rng = random.Random(18)
    checked = 0
    for _ in range(40):
        board = random_walk(rng, rng.randrange(10, 120))
        white = board.pieces_mask(chess.PAWN, chess.WHITE)
        black = board.pieces_mask(chess.PAWN, chess.BLACK)
        assert pawn_terms(white, black) == _brute_terms(board), board.fen()
        mirrored = board.mirror()
        assert pawn_terms(mirrored.pieces_mask(chess.PAWN, chess.WHITE),
                          mirrored.pieces_mask(chess.PAWN, chess.BLACK)) == tuple(
            -v for v in _brute_terms(board))
        checked += 1
    assert checked == 40


def test_the_cache_is_emptied_at_its_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(chess_terms, "CACHE_LIMIT", 2)
    monkeypatch.setattr(chess_terms, "_cache", {})
    for shift in range(5):
        pawn_terms(chess.BB_SQUARES[chess.A2 + shift], 0)
        assert len(chess_terms._cache) <= 2
    assert pawn_terms(chess.BB_SQUARES[chess.A2], 0) == _brute_terms(
        chess.Board("4k3/8/8/8/8/8/P7/4K3 w - - 0 1"))


def test_the_switch_turns_the_terms_off(monkeypatch: pytest.MonkeyPatch) -> None:
    board = chess.Board("4k3/8/8/3P4/8/8/8/2B1KB2 w - - 0 40")
    on = ChessGame(board).evaluate()
    monkeypatch.setattr(ChessGame, "STRUCTURE_TERMS", False)
    off = ChessGame(board).evaluate()
    assert on != off


def test_rooks_on_open_and_half_open_files() -> None:
    # Kings on h1/h8 behind no pawns: no shelter on either side, so only the rooks count.
    closed = piece_terms(chess.Board("7k/3p4/8/8/8/8/3P4/3R3K w - - 0 1"))
    half_open = piece_terms(chess.Board("7k/3p4/8/8/8/8/8/3R3K w - - 0 1"))
    open_file = piece_terms(chess.Board("7k/8/8/8/8/8/8/3R3K w - - 0 1"))
    assert closed == (0, 0)
    assert half_open == (ROOK_SEMI_OPEN_MG, ROOK_SEMI_OPEN_EG)
    assert open_file == (ROOK_OPEN_MG, ROOK_OPEN_EG)


def test_king_shelter_counts_pawns_in_front_of_a_king_at_home() -> None:
    full = piece_terms(chess.Board("7k/8/8/8/8/8/5PPP/6K1 w - - 0 1"))
    pushed = piece_terms(chess.Board("7k/8/8/8/8/6P1/5P1P/6K1 w - - 0 1"))
    away = piece_terms(chess.Board("7k/8/8/8/6K1/8/5PPP/8 w - - 0 1"))  # king left home
    assert full == (SHELTER_MG * min(SHELTER_CAP, 6), 0)
    assert pushed == (SHELTER_MG * min(SHELTER_CAP, 5), 0)  # g3: one rank further, 1 point
    assert away == (0, 0)


def test_piece_terms_are_colour_symmetric_on_random_positions() -> None:
    rng = random.Random(1818)
    for _ in range(40):
        board = random_walk(rng, rng.randrange(10, 100))
        mg, eg = piece_terms(board)
        assert piece_terms(board.mirror()) == (-mg, -eg), board.fen()
        game = ChessGame(board)
        assert game.evaluate() == ChessGame(board.mirror()).evaluate()


def _brute_mobility(board: chess.Board) -> tuple[int, int]:
    """Mobility from python-chess's attack masks, square by square."""
    mg = eg = 0
    for color, sign in ((chess.WHITE, 1), (chess.BLACK, -1)):
        enemy_pawn_attacks = 0
        for sq in board.pieces(chess.PAWN, not color):
            enemy_pawn_attacks |= chess.BB_PAWN_ATTACKS[not color][sq]
        for piece_type in (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN):
            for sq in board.pieces(piece_type, color):
                squares = board.attacks_mask(sq) & ~board.occupied_co[color] & ~enemy_pawn_attacks
                count = chess.popcount(squares) - MOBILITY_BASE[piece_type]
                mg += sign * MOBILITY_MG[piece_type] * count
                eg += sign * MOBILITY_EG[piece_type] * count
    return mg, eg


def test_mobility_matches_python_chess_attacks_on_random_positions() -> None:
    rng = random.Random(1819)
    nonzero = 0
    for _ in range(40):
        board = random_walk(rng, rng.randrange(4, 100))
        value = mobility(board)
        assert value == _brute_mobility(board), board.fen()
        assert mobility(board.mirror()) == (-value[0], -value[1])
        nonzero += value != (0, 0)
    assert nonzero > 20  # the positions are not all balanced: the comparison tests something


def test_mobility_switch_changes_the_evaluation(monkeypatch: pytest.MonkeyPatch) -> None:
    # White's queen in the open, Black's shut in: mobility favours White.
    board = chess.Board("rnbqkbnr/pppppppp/8/8/3Q4/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1")
    monkeypatch.setattr(ChessGame, "MOBILITY", False)
    off = ChessGame(board).evaluate()
    monkeypatch.setattr(ChessGame, "MOBILITY", True)
    assert ChessGame(board).evaluate() > off
