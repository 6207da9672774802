"""The chess adapter's legal moves in check with their ordering hints, in one compiled call.

``ChessGame._evasions`` over bitboards (python-chess's order: the king's steps, then against a
single checker the other pieces' captures of it and blocks as python-chess's pseudo-legal
generator aims them, each kept when the piece is not pinned off its line), each move with its
``move_hints`` hint, as ``chess_movegen_kernel.generate`` does out of check.  En passant stays
in Python (after the kernel's moves, where the Python function puts it).  The Python function
stays the definition; tests/test_chess_kernels.py compares both on random positions.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sakiyomi.compiled.bits import highest_bit, njit_typed
from sakiyomi.games import chess_attack_tables as at
from sakiyomi.games.chess_attacks_kernel import (
    BISHOP,
    KING,
    KNIGHT,
    PAWN,
    QUEEN,
    ROOK,
    ZERO,
    attackers,
    diagonal_attacks,
    piece_on,
    pinned,
    straight_attacks,
)
from sakiyomi.games.chess_exchange_kernel import ORDER_VALUE, loses_material
from sakiyomi.games.chess_movegen_kernel import (
    COMPILED,
    PUSH_TWO,
    SIGNATURE,
    add,
    add_pushes,
    buffers,
)

DOUBLE_CHECK = 1 << 16  # or-ed into the count when only the king may move
_SQUARES = at.SQUARES
_KNIGHT = at.KNIGHT
_KING = at.KING
_PAWN = at.PAWN
_LINES = at.LINES
_BETWEEN = at.BETWEEN
_PROMOTION_RANKS = np.uint64(0xFF000000000000FF)
_EIGHT = np.uint64(8)


@njit_typed(SIGNATURE)
def evasions(pawns: Any, knights: Any, bishops: Any, rooks: Any, queens: Any, kings: Any,
             white: Any, black: Any, turn: int, out: Any, gains: Any) -> int:
    """``ChessGame._evasions`` (the side to move is in check) without en passant, each move
    with its hint.  Returns the count, | ``DOUBLE_CHECK`` in double check.
    """
    ours = white if turn else black
    theirs = black if turn else white
    them = 1 - turn
    occupied = white | black
    king = highest_bit(kings & ours)
    checkers = attackers(them, king, occupied, pawns, knights, bishops, rooks, queens, kings,
                         theirs)
    sliders = checkers & (bishops | rooks | queens)
    off = ~ours
    while sliders != ZERO:  # the squares behind the king on a checking slider's line
        sq = highest_bit(sliders)
        sliders ^= _SQUARES[sq]
        off &= ~_LINES[king, sq] | _SQUARES[sq]
    n = 0
    targets = _KING[king] & off
    while targets != ZERO:
        to = highest_bit(targets)
        target = _SQUARES[to]
        targets ^= target
        if attackers(them, to, occupied, pawns, knights, bishops, rooks, queens, kings,
                     theirs) == ZERO:
            hint = 0
            if target & theirs != ZERO:
                victim = piece_on(target, pawns, knights, bishops, rooks, queens)
                if loses_material(king, to, victim, KING, turn, pawns, knights, bishops,
                                  rooks, queens, kings, white, black, gains):
                    hint = -1
                else:
                    hint = 100 + 10 * ORDER_VALUE[victim] - ORDER_VALUE[KING]
            n = add(out, n, king, to, 0, hint)
    if checkers & (checkers - np.uint64(1)) != ZERO:
        return n | DOUBLE_CHECK
    checker = highest_bit(checkers)
    aim = _BETWEEN[king, checker] | checkers
    king_bb = _SQUARES[king]
    blockers = pinned(king, occupied, (bishops | queens) & theirs, (rooks | queens) & theirs,
                      ours)
    diagonal, straight = bishops | queens, rooks | queens
    pieces = ours & ~pawns & ~kings
    while pieces != ZERO:
        frm = highest_bit(pieces)
        source = _SQUARES[frm]
        pieces ^= source
        if source & knights != ZERO:
            targets = _KNIGHT[frm]
            attacker = KNIGHT
        else:
            targets = ZERO
            if source & diagonal != ZERO:
                targets = diagonal_attacks(frm, occupied)
            if source & straight != ZERO:
                targets |= straight_attacks(frm, occupied)
            attacker = (QUEEN if source & queens != ZERO else ROOK if source & rooks != ZERO
                        else BISHOP)
        targets &= ~ours & aim
        pinned_here = blockers & source != ZERO
        while targets != ZERO:
            to = highest_bit(targets)
            target = _SQUARES[to]
            targets ^= target
            if pinned_here and _LINES[frm, to] & king_bb == ZERO:
                continue
            hint = 0
            if target & theirs != ZERO:
                victim = piece_on(target, pawns, knights, bishops, rooks, queens)
                if loses_material(frm, to, victim, attacker, turn, pawns, knights, bishops,
                                  rooks, queens, kings, white, black, gains):
                    hint = -1
                else:
                    hint = 100 + 10 * ORDER_VALUE[victim] - ORDER_VALUE[attacker]
            n = add(out, n, frm, to, 0, hint)
    ours_pawns = pawns & ours
    if ours_pawns == ZERO:
        return n
    attacks = _PAWN[turn]
    capturers = ours_pawns
    while capturers != ZERO:
        frm = highest_bit(capturers)
        source = _SQUARES[frm]
        capturers ^= source
        targets = attacks[frm] & theirs & aim
        while targets != ZERO:
            to = highest_bit(targets)
            target = _SQUARES[to]
            targets ^= target
            if blockers & source != ZERO and _LINES[frm, to] & king_bb == ZERO:
                continue
            hint = 100 + 10 * ORDER_VALUE[piece_on(target, pawns, knights, bishops, rooks,
                                                   queens)] - ORDER_VALUE[PAWN]
            if target & _PROMOTION_RANKS != ZERO:
                n = add(out, n, frm, to, QUEEN, hint + 90)
                n = add(out, n, frm, to, ROOK, hint)
                n = add(out, n, frm, to, BISHOP, hint)
                n = add(out, n, frm, to, KNIGHT, hint)
            else:
                n = add(out, n, frm, to, 0, hint)
    empty = ~occupied
    if turn:
        single = ours_pawns << _EIGHT & empty
        double = single << _EIGHT & empty & PUSH_TWO[1]
        step = -8
    else:
        single = ours_pawns >> _EIGHT & empty
        double = single >> _EIGHT & empty & PUSH_TWO[0]
        step = 8
    single &= aim
    double &= aim
    pushes: int = add_pushes(out, n, single, double, step, blockers, king_bb)
    n += pushes
    return n


def _warm() -> None:
    """Load the kernel from numba's cache (or compile it) at import: a position in check."""
    out, gains = buffers()
    # 4k3/8/8/8/8/8/4q3/4K3 w: the white king in check by a queen
    evasions(0, 0, 0, 0, 1 << 12, 1 << 4 | 1 << 60, 1 << 4, 1 << 12 | 1 << 60, 1, out, gains)


if COMPILED:
    _warm()
