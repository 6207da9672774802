"""King-relative corrections to the chess piece-square tables.

The PeSTO tables value a piece by its square alone.  Where the kings stand changes that a
great deal (a knight on g5 against a king on g8 is an attack, against a king on b8 it is
not), and Stockfish's evaluation, which our opponents steer by, knows it.  Here each king
sees the board from its own side: the board mirrored so that its king is on the e-h files
(and flipped for Black), the king placed in one of six buckets (files e-f or g-h; first,
second or a further rank), and every piece, its own or the enemy's, given a correction by
(bucket, own or enemy, piece type, square as that king sees it).  The white king's
corrections count for White, the black king's for Black.

A correction depends on the squares of the pieces and on the two kings' placements only, so
``ChessGame`` folds it into its table sums: for the kings' present placements one table of
the same shape as the plain ones (``pair_corrections`` added), updated move by move at no
extra cost; a king move that changes a placement recomputes the sums.  The weights are fitted to
Stockfish 15.1's static evaluation of positions our search evaluates
(bench/chess_king_fit.py); they live in the generated ``chess_king_weights``.
"""

from __future__ import annotations

from collections.abc import Sequence

import chess

BUCKETS = 6
COLUMNS = BUCKETS * 2 * 6 * 64  # bucket x (own, enemy) x piece type x square


def king_state(king: int, color: int) -> int:
    """The placement of ``color``'s king (1 or True: White) on ``king``: 6 x mirrored (files
    a-d) + bucket.
    """
    mirrored = (king & 7) < 4
    seen = king ^ (7 if mirrored else 0) ^ (0 if color else 56)
    bucket = ((seen & 7) >= 6) + 2 * min(seen >> 3, 2)
    return 6 * mirrored + bucket


def _view(state: int, color: int) -> int:
    """The XOR that maps a square to the square ``color``'s king sees in ``state``."""
    return (7 if state >= 6 else 0) ^ (0 if color else 56)


def column(state: int, own: bool, piece: int, seen: int) -> int:
    """The column of a piece of type ``piece`` (1-6) on ``seen`` (as its king sees it)."""
    return (((state % 6) * 2 + (0 if own else 1)) * 6 + piece - 1) * 64 + seen


def features(board: chess.Board) -> list[tuple[int, int]]:
    """The (column, sign) of every piece seen from each king, White's view: +1 for the
    white king's columns, -1 for the black king's.
    """
    out: list[tuple[int, int]] = []
    pieces = board.piece_map()
    for color, sign in ((chess.WHITE, 1), (chess.BLACK, -1)):
        king = board.king(color)
        assert king is not None
        state = king_state(king, color)
        view = _view(state, color)
        for sq, piece in pieces.items():
            out.append((column(state, piece.color == color, piece.piece_type, sq ^ view),
                        sign))
    return out


def pair_corrections(white_state: int, black_state: int, weights: Sequence[int]
                     ) -> list[list[list[int]]]:
    """The corrections ([colour][piece type][square], White's view) of both kings in their
    placements, for one phase (``weights`` by column).
    """
    wview, bview = _view(white_state, chess.WHITE), _view(black_state, chess.BLACK)
    out = [[[0] * 64 for _ in range(7)] for _ in range(2)]
    for c in (chess.BLACK, chess.WHITE):
        for piece in range(1, 7):
            row = out[c][piece]
            for sq in range(64):
                row[sq] = (weights[column(white_state, c, piece, sq ^ wview)]
                           - weights[column(black_state, not c, piece, sq ^ bview)])
    return out
