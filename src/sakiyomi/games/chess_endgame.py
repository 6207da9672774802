"""Endgame knowledge for the chess evaluation: won endings get a way to the mate, drawn ones
lose their false advantage.

Piece-square tables alone cannot convert K+R vs K: every square of the rook is worth about the
same, so a few plies of search see no progress and the 50-move rule ends the game.  With the
pawnless side lost, ``endgame_value`` replaces the kings' table values by a *mop-up* gradient
the search can climb (the idea is old and common; the weights are ours):

* the lone king's distance from the centre (to the edge), and for bishop endings its distance
  from the right corner (K+B+N mates only in a corner of the bishop's colour; K+B+B in any);
* the strong king's closeness to it (the mates need the king's help);
* the squares next to the lone king it cannot step to (the net closing: a gradient where the
  edge distance alone stays flat, as for K+B+B when the king runs along the edge);
* with a rook or queen, the size of the box its file and rank fence the lone king into (the
  K+R plan: checks and waiting moves shrink the box; without it a shallow search shuffles
  while the king stays in the centre);
* a bonus for the stronger side's material advantage stays, so trading down stays attractive.

Material the stronger side cannot win with (no pawns and less than a rook's worth more than the
other side, or just two knights) is scaled down towards a draw, so the search does not
believe in K+R vs K+B or K+N+N vs K.

All of it is computed from the side to move and is colour-symmetric: a position and its colour
mirror get the same value.
"""

from __future__ import annotations

import random

import chess

from sakiyomi.games.chess_pst import EG_TABLES, EG_VALUE

ENDGAME_PHASE = 8  # game phase (N/B 1, R 2, Q 4) at or below which this module is asked
WINNING_EDGE = 400  # centipawns of non-pawn material the stronger side needs to force a mate
DRAWISH_SCALE = 8  # drawish material: the value is divided by this
EDGE_WEIGHT = 20  # per step of the lone king from the centre
CORNER_WEIGHT = 12  # per step of the lone king towards the right corner (bishop endings)
KING_WEIGHT = 10  # per step the strong king is closer (Chebyshev distance)
ROOM_WEIGHT = 12  # per square next to the lone king that it cannot move to
BOX_WEIGHT = 3  # per square less in the box a rook or queen keeps the lone king in
MOP_UP_BASE = 100  # a won pawnless ending is worth this much more than its material

_POPCOUNT = chess.popcount
_BB = chess.BB_SQUARES
_PIECE_VALUE = (0, 0, *EG_VALUE[1:5])  # by piece type; pawns counted apart
_CENTRE = [max(3 - chess.square_file(sq), chess.square_file(sq) - 4)
           + max(3 - chess.square_rank(sq), chess.square_rank(sq) - 4) for sq in range(64)]
_DARK_CORNERS = (chess.A1, chess.H8)
_LIGHT_CORNERS = (chess.A8, chess.H1)
_ALL_CORNERS = (chess.A1, chess.H1, chess.A8, chess.H8)
# The kings' endgame table values (White's view, a1 = 0), taken out when mop-up takes over.
_KING_EG = [EG_TABLES[5][sq ^ 56] for sq in range(64)]


def _corner_distance(square: int, corners: tuple[int, ...]) -> int:
    return min(chess.square_distance(square, corner) for corner in corners)


def _pieces_value(board: chess.Board, color: chess.Color) -> int:
    own = board.occupied_co[color]
    return (_PIECE_VALUE[chess.KNIGHT] * _POPCOUNT(board.knights & own)
            + _PIECE_VALUE[chess.BISHOP] * _POPCOUNT(board.bishops & own)
            + _PIECE_VALUE[chess.ROOK] * _POPCOUNT(board.rooks & own)
            + _PIECE_VALUE[chess.QUEEN] * _POPCOUNT(board.queens & own))


def _room(board: chess.Board, king: int, strong: chess.Color) -> int:
    """Squares next to ``king`` it could step to: not its own pieces' and not attacked by
    ``strong`` (sliders seen through the king's own square, as after the step).
    """
    occupied = board.occupied ^ _BB[king]
    room = 0
    for square in chess.scan_forward(chess.BB_KING_ATTACKS[king] & ~board.occupied_co[not strong]):
        if not board.attackers_mask(strong, square, occupied):
            room += 1
    return room


def _box(board: chess.Board, king: int, fences: int) -> int:
    """The smallest box (files × ranks) that the file and rank of one of the ``fences``
    (rooks and queens) keep ``king`` in; 64 without fences.
    """
    king_file, king_rank = chess.square_file(king), chess.square_rank(king)
    smallest = 64
    for square in chess.scan_forward(fences):
        file, rank = chess.square_file(square), chess.square_rank(square)
        width = 8 if file == king_file else 7 - file if king_file > file else file
        height = 8 if rank == king_rank else 7 - rank if king_rank > rank else rank
        smallest = min(smallest, width * height)
    return smallest


def endgame_value(board: chess.Board, value: int) -> int:
    """``value`` (centipawns, side to move) corrected by the endgame rules above; unchanged
    when none applies (either side has pawns enough to play for, or material is level).
    """
    turn = board.turn
    strong = turn if value >= 0 else not turn
    weak = not strong
    if board.pawns & board.occupied_co[strong]:
        return value  # the stronger side plays for promotion: the tables know about that
    edge = _pieces_value(board, strong) - _pieces_value(board, weak)
    strong_pieces = board.occupied_co[strong] & ~board.kings
    only_knights = strong_pieces == board.knights & strong_pieces
    if edge < WINNING_EDGE or (only_knights and _POPCOUNT(strong_pieces) <= 2):
        return value // DRAWISH_SCALE if value >= 0 else -(-value // DRAWISH_SCALE)
    if board.pawns & board.occupied_co[weak]:
        return value
    weak_king = board.king(weak)
    strong_king = board.king(strong)
    if weak_king is None or strong_king is None:
        return value
    bonus = MOP_UP_BASE + EDGE_WEIGHT * _CENTRE[weak_king] + KING_WEIGHT * (
        7 - chess.square_distance(weak_king, strong_king)) + ROOM_WEIGHT * (
        8 - _room(board, weak_king, strong))
    fences = board.occupied_co[strong] & (board.rooks | board.queens)
    if fences:
        bonus += BOX_WEIGHT * (64 - _box(board, weak_king, fences))
    else:
        bishops = board.bishops & board.occupied_co[strong]
        corners: tuple[int, ...]
        if bishops & chess.BB_DARK_SQUARES and not bishops & chess.BB_LIGHT_SQUARES:
            corners = _DARK_CORNERS
        elif bishops & chess.BB_LIGHT_SQUARES and not bishops & chess.BB_DARK_SQUARES:
            corners = _LIGHT_CORNERS
        else:
            corners = _ALL_CORNERS
        bonus += CORNER_WEIGHT * (7 - _corner_distance(weak_king, corners))
    # The kings' table values pull both kings to the centre: mop-up replaces them.
    white_king, black_king = (strong_king, weak_king) if strong else (weak_king, strong_king)
    tables = _KING_EG[white_king] - _KING_EG[black_king ^ 56]
    bonus -= tables if strong else -tables
    return value + bonus if strong == turn else value - bonus


def random_ending(pieces: str, rng: random.Random) -> chess.Board:
    """A random legal position, White to move and not yet over, where White has a king and
    ``pieces`` (letters ``QRBN``, e.g. ``"BB"``) and Black a bare king: the starts of the
    endings bench and tests.  Two bishops stand on squares of different colours.
    """
    types = [chess.PIECE_SYMBOLS.index(letter.lower()) for letter in pieces]
    if not types or 0 in types or chess.KING in types:
        raise ValueError(f"pieces must be letters of QRBN, got {pieces!r}")
    while True:
        board = chess.Board(None)
        squares = rng.sample(chess.SQUARES, 2 + len(types))
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        for square, piece_type in zip(squares[2:], types, strict=True):
            board.set_piece_at(square, chess.Piece(piece_type, chess.WHITE))
        bishops = board.bishops
        if _POPCOUNT(bishops) == 2 and not (bishops & chess.BB_DARK_SQUARES
                                            and bishops & chess.BB_LIGHT_SQUARES):
            continue
        if board.is_valid() and board.outcome() is None:
            return board
