"""Static exchange evaluation: what a capture wins or loses once both sides have recaptured
on its square with their least valuable pieces, each free to stop when going on would lose.

The chess adapter asks it only where a quicker test cannot decide: a capture by a piece worth
more than its victim, on a square the other side attacks.  (Any other capture wins at least
the difference at once, so its exchange value is never negative.)  Sliders behind a piece that
has captured join the exchange (x-rays), because attackers are recomputed on the emptied board.
Pins and checks are ignored, as usual for this estimate.
"""

from __future__ import annotations

import chess

# Exchange values, pawn = 100; the king's makes "the king takes a defended piece" a loss.
SEE_VALUE = (0, 100, 320, 330, 500, 900, 20_000)

_BB = chess.BB_SQUARES
_ORDER = (chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.KING)
(_PAWN_VALUE, _KNIGHT_VALUE, _BISHOP_VALUE, _ROOK_VALUE, _QUEEN_VALUE,
 _KING_VALUE) = SEE_VALUE[1:]
_KING_ATTACKS, _KNIGHT_ATTACKS = chess.BB_KING_ATTACKS, chess.BB_KNIGHT_ATTACKS
# [square]: the squares from which a white (black) pawn attacks ``square``.
_WHITE_PAWN_ATTACKS = chess.BB_PAWN_ATTACKS[chess.BLACK]
_BLACK_PAWN_ATTACKS = chess.BB_PAWN_ATTACKS[chess.WHITE]
_DIAG_ATTACKS, _DIAG_MASKS = chess.BB_DIAG_ATTACKS, chess.BB_DIAG_MASKS
_RANK_ATTACKS, _RANK_MASKS = chess.BB_RANK_ATTACKS, chess.BB_RANK_MASKS
_FILE_ATTACKS, _FILE_MASKS = chess.BB_FILE_ATTACKS, chess.BB_FILE_MASKS


def _piece_bitboards(board: chess.Board) -> tuple[int, ...]:
    return (0, board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings)


def _least_valuable(pieces: tuple[int, ...], attackers: int) -> int:
    """The least valuable piece type among ``attackers`` (a nonempty bitboard), given the
    board's bitboards by piece type (``_piece_bitboards``).
    """
    for piece_type in _ORDER:
        if attackers & pieces[piece_type]:
            return piece_type
    raise AssertionError("attackers are pieces")  # pragma: no cover


def cheapest(board: chess.Board, attackers: int) -> int:
    """The least valuable piece type among ``attackers`` (a nonempty bitboard of ``board``'s
    pieces): the first taker of an exchange.
    """
    return _least_valuable(_piece_bitboards(board), attackers)


def see(board: chess.Board, move: chess.Move) -> int:
    """Material the side to move gains by ``move`` (a capture) in the exchange on its target
    square, in ``SEE_VALUE`` units; negative when the capture loses material.
    """
    to = move.to_square
    frm = move.from_square
    victim = board.piece_type_at(to) or chess.PAWN  # en passant: the target square is empty
    attacker = board.piece_type_at(frm)
    if attacker is None:
        return 0
    return exchange(board, to, SEE_VALUE[victim], SEE_VALUE[move.promotion or attacker],
                    not board.turn, board.occupied ^ _BB[frm])


def exchange(board: chess.Board, to: int, victim: int, capturer: int, side: chess.Color,
             occupied: int) -> int:
    """What a capture on ``to`` gains once the exchange there is over: ``victim`` is the value
    taken, ``capturer`` the value of the piece that took it and now stands there, ``side``
    the colour that may recapture first, ``occupied`` the occupancy with the capturer
    lifted off its square.  ``board``'s piece bitboards say who attacks (only squares in
    ``occupied`` count), so a caller may ask about a position the board is not in yet as
    long as the attackers of ``to`` are the same (``ChessGame.move_hangs_piece``).

    The attackers are python-chess's ``attackers_mask`` read from its tables here: the
    kings', knights' and pawns' (of both sides) once, since lifting a piece never changes
    them, and the sliders' again after every capture (x-rays).
    """
    pawns, knights, bishops, rooks, queens = (board.pawns, board.knights, board.bishops,
                                              board.rooks, board.queens)
    diagonal, straight = bishops | queens, rooks | queens
    white, black = board.occupied_co[chess.WHITE], board.occupied_co[chess.BLACK]
    steppers = (_KING_ATTACKS[to] & board.kings | _KNIGHT_ATTACKS[to] & knights
                | (_WHITE_PAWN_ATTACKS[to] & white | _BLACK_PAWN_ATTACKS[to] & black) & pawns)
    diagonal_mask, rank_mask, file_mask = _DIAG_MASKS[to], _RANK_MASKS[to], _FILE_MASKS[to]
    diagonal_attacks, rank_attacks, file_attacks = (_DIAG_ATTACKS[to], _RANK_ATTACKS[to],
                                                    _FILE_ATTACKS[to])
    gains = [victim]
    on_square = capturer  # what the next capture takes
    while True:
        attackers = (steppers | diagonal_attacks[diagonal_mask & occupied] & diagonal
                     | (rank_attacks[rank_mask & occupied] | file_attacks[file_mask & occupied])
                     & straight) & occupied & (white if side else black)
        if not attackers:
            break
        # the least valuable attacker (``_least_valuable``, inline)
        if attackers & pawns:
            found, value = attackers & pawns, _PAWN_VALUE
        elif attackers & knights:
            found, value = attackers & knights, _KNIGHT_VALUE
        elif attackers & bishops:
            found, value = attackers & bishops, _BISHOP_VALUE
        elif attackers & rooks:
            found, value = attackers & rooks, _ROOK_VALUE
        elif attackers & queens:
            found, value = attackers & queens, _QUEEN_VALUE
        else:
            found, value = attackers, _KING_VALUE
        gains.append(on_square - gains[-1])
        if max(-gains[-2], gains[-1]) < 0:
            break  # neither side would go on: the rest cannot change the result
        occupied ^= found & -found
        on_square = value
        side = not side
    for i in range(len(gains) - 1, 0, -1):
        gains[i - 1] = -max(-gains[i - 1], gains[i])
    return gains[0]
