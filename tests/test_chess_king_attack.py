"""The king-attack term of ``chess_terms`` (``king_attack``): enemy pieces whose attacks reach
the king's zone, weighted, counted and squared, while the enemy has a queen."""

from __future__ import annotations

import random

import chess
import pytest

from sakiyomi.games.chess import ChessGame
from sakiyomi.games.chess_terms import (
    KING_ATTACK_CAP,
    KING_ATTACK_DIVISOR,
    KING_ATTACK_MIN,
    KING_ATTACK_WEIGHT,
    KING_RING_HIT,
    king_attack,
)
from tests.chess_support import random_walk

# Our own position: White Kg1 behind f2-g2-h2; Black's queen on h4 and knight on g4.
ATTACKED = "4k3/8/8/8/6nq/8/5PPP/6K1 w - - 0 1"


def _brute_zone(king: chess.Square, color: chess.Color) -> set[chess.Square]:
    """The king's square, its neighbours, and the three squares two ranks in front of it."""
    zone = {sq for sq in chess.SQUARES if chess.square_distance(sq, king) <= 1}
    rank = chess.square_rank(king) + (2 if color else -2)
    file = chess.square_file(king)
    if 0 <= rank < 8:
        zone |= {chess.square(f, rank) for f in (file - 1, file, file + 1) if 0 <= f < 8}
    return zone


def _brute_cost(board: chess.Board, color: chess.Color) -> int:
    """What ``color``'s king loses to the attack, square by square with python-chess's
    attack sets.
    """
    enemy = not color
    if not board.pieces(chess.QUEEN, enemy):
        return 0
    king = board.king(color)
    assert king is not None
    zone = _brute_zone(king, color)
    ring = {sq for sq in zone if chess.square_distance(sq, king) == 1
            and chess.square_rank(sq) - chess.square_rank(king) in (-1, 0, 1)}
    attackers = weight = hits = 0
    for sq, piece in board.piece_map().items():
        if piece.color != enemy or piece.piece_type in (chess.PAWN, chess.KING):
            continue
        attacked = set(board.attacks(sq))
        if attacked & zone:
            attackers += 1
            weight += KING_ATTACK_WEIGHT[piece.piece_type]
            hits += len(attacked & ring)
    danger = attackers * weight + KING_RING_HIT * hits
    if danger < KING_ATTACK_MIN:
        return 0
    return min(danger * danger // KING_ATTACK_DIVISOR, KING_ATTACK_CAP)


def test_the_hand_built_attack_is_counted_square_by_square() -> None:
    # Zone of g1: f1 g1 h1, f2 g2 h2, f3 g3 h3.  Ng4 reaches f2 and h2 (both ring squares);
    # Qh4 reaches g3, h3 and, up to the pawns, f2 and h2 (two ring squares).  Two attackers
    # weighing knight + queen, four ring hits.
    danger = 2 * (KING_ATTACK_WEIGHT[chess.KNIGHT] + KING_ATTACK_WEIGHT[chess.QUEEN]) \
        + KING_RING_HIT * 4
    assert danger == 460
    assert king_attack(chess.Board(ATTACKED)) == (-(danger * danger // KING_ATTACK_DIVISOR), 0)


def test_no_queen_no_attack() -> None:
    board = chess.Board(ATTACKED)
    board.set_piece_at(chess.H4, chess.Piece(chess.ROOK, chess.BLACK))
    assert king_attack(board) == (0, 0)


def test_one_attacker_counts_once_and_little() -> None:
    # The knight gone: the queen alone (weight 10 once, ring hits f2 and h2) costs little;
    # the knight put back on a4, far away, changes nothing.
    board = chess.Board(ATTACKED)
    board.remove_piece_at(chess.G4)
    danger = KING_ATTACK_WEIGHT[chess.QUEEN] + KING_RING_HIT * 2
    assert king_attack(board) == (-(danger * danger // KING_ATTACK_DIVISOR), 0)
    board.set_piece_at(chess.A4, chess.Piece(chess.KNIGHT, chess.BLACK))
    assert king_attack(board) == (-(danger * danger // KING_ATTACK_DIVISOR), 0)


def test_king_attack_matches_a_square_by_square_count_on_random_positions() -> None:
    rng = random.Random(2121)
    nonzero = 0
    for _ in range(80):
        board = random_walk(rng, rng.randrange(4, 100))
        value = king_attack(board)
        expected = _brute_cost(board, chess.BLACK) - _brute_cost(board, chess.WHITE)
        assert value == (expected, 0), board.fen()
        assert king_attack(board.mirror()) == (-value[0], 0)
        nonzero += value != (0, 0)
    assert nonzero > 10  # the comparison is not all zeros


def test_the_attacked_king_scores_worse_than_the_sheltered_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The same material; the knight on g4 next to the king or on a4 far from it.
    far = chess.Board(ATTACKED)
    far.remove_piece_at(chess.G4)
    far.set_piece_at(chess.A4, chess.Piece(chess.KNIGHT, chess.BLACK))
    near = chess.Board(ATTACKED)
    monkeypatch.setattr(ChessGame, "KING_ATTACK", False)
    off = ChessGame(near).evaluate()
    monkeypatch.setattr(ChessGame, "KING_ATTACK", True)
    assert ChessGame(near).evaluate() < off  # White to move: worse with the term
    assert king_attack(near)[0] < king_attack(far)[0] < 0
    # Colour symmetry through the whole evaluation: the mirror, Black to move, scores alike.
    assert ChessGame(near.mirror()).evaluate() == ChessGame(near).evaluate()
