"""The chess adapter's move lists with their ordering hints, each list in one compiled call.

``ChessGame._generate`` (the legal moves out of check) and ``ChessGame._captures`` (the
quiescence captures out of check), with the hints of ``ChessGame.move_hints`` and
``_captures`` worked out on the way, from the board's bitboards: made in Python they cost
about 11 µs and 8.5 µs a list, plus 13 µs to order a list, most of it the captures' static
exchange evaluations (session 28).  The kernels write move codes (``from | to << 6 |
promotion << 12``, the adapter's ``move_id``) and hints into ``out`` in the Python
functions' order; the caller turns codes into moves by a look-up and adds what stays in
Python: castling (at the returned split, where python-chess's order puts it) and en passant
(at the end).  The Python functions stay the definitions; tests/test_chess_kernels.py
compares both on random positions.
"""

from __future__ import annotations

from typing import Any

import chess
import numpy as np
import numpy.typing as npt

from sakiyomi.compiled.bits import JIT_ENABLED, highest_bit, njit, njit_typed
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

COMPILED = JIT_ENABLED  # the kernels are compiled (else ChessGame keeps its Python generators)
HINTS_AT = 256  # out[:HINTS_AT]: move codes; out[HINTS_AT:]: their hints
OUT_SIZE = 2 * HINTS_AT
GAINS_SIZE = 64
SPLIT_SHIFT = 16  # the kernels return the count | the castling split << SPLIT_SHIFT
_SQUARES = at.SQUARES
_KNIGHT = at.KNIGHT
_KING = at.KING
_PAWN = at.PAWN
_LINES = at.LINES
_PROMOTION_RANKS = np.uint64(chess.BB_RANK_1 | chess.BB_RANK_8)
_EIGHT = np.uint64(8)
# [colour]: where a pawn's double step may land, as python-chess masks it
PUSH_TWO = (np.uint64(chess.BB_RANK_6 | chess.BB_RANK_5),
             np.uint64(chess.BB_RANK_3 | chess.BB_RANK_4))
SIGNATURE = ("int64(uint64, uint64, uint64, uint64, uint64, uint64, uint64, uint64, int64, "
              "int32[::1], int32[::1])")


@njit
def add(out: Any, n: int, frm: int, to: int, promotion: int, hint: int) -> int:
    """Write the ``n``-th move's code and hint; the count after it."""
    out[n] = frm | to << 6 | promotion << 12
    out[HINTS_AT + n] = hint
    return n + 1


@njit
def add_pushes(out: Any, n: int, single: Any, double: Any, step: int, blockers: Any,
               king_bb: Any) -> int:
    """Write the pawn pushes onto ``single`` (one step; promotions as four moves, the
    queen's first) and ``double`` (two steps) from the squares ``step`` / 2 x ``step`` back,
    from the ``n``-th on, but a pinned pawn's (``blockers``) that leaves the line through
    its king (``king_bb``); how many it wrote.
    """
    first = n
    while single != ZERO:
        to = highest_bit(single)
        target = _SQUARES[to]
        single ^= target
        frm = to + step
        if blockers & _SQUARES[frm] != ZERO and _LINES[frm, to] & king_bb == ZERO:
            continue
        if target & _PROMOTION_RANKS != ZERO:
            n = add(out, n, frm, to, QUEEN, 190)
            n = add(out, n, frm, to, ROOK, -2)
            n = add(out, n, frm, to, BISHOP, -2)
            n = add(out, n, frm, to, KNIGHT, -2)
        else:
            n = add(out, n, frm, to, 0, 0)
    while double != ZERO:
        to = highest_bit(double)
        target = _SQUARES[to]
        double ^= target
        frm = to + 2 * step
        if blockers & _SQUARES[frm] == ZERO or _LINES[frm, to] & king_bb != ZERO:
            n = add(out, n, frm, to, 0, 0)
    return n - first


@njit
def reach(frm: int, source: Any, knights: Any, rooks: Any, queens: Any, kings: Any,
          diagonal: Any, straight: Any, occupied: Any) -> tuple[int, Any]:
    """The type of the piece (not a pawn) on ``frm`` (``source``: its bit) and the squares
    it attacks with ``occupied`` as blockers, own pieces included.
    """
    if source & knights != ZERO:
        return KNIGHT, _KNIGHT[frm]
    if source & kings != ZERO:
        return KING, _KING[frm]
    targets = ZERO
    if source & diagonal != ZERO:
        targets = diagonal_attacks(frm, occupied)
    if source & straight != ZERO:
        targets |= straight_attacks(frm, occupied)
    return (QUEEN if source & queens != ZERO else ROOK if source & rooks != ZERO
            else BISHOP), targets


@njit_typed(SIGNATURE)
def generate(pawns: Any, knights: Any, bishops: Any, rooks: Any, queens: Any, kings: Any,
             white: Any, black: Any, turn: int, out: Any, gains: Any) -> int:
    """``ChessGame._generate`` out of check, without castling and en passant, each move with
    its ``move_hints`` hint (MVV-LVA for captures, -1 for one that loses material, queen
    promotions 190 or +90 on a capture, under-promotions -2, quiet moves 0).  Returns the
    count | the number of piece moves (where castling goes) << ``SPLIT_SHIFT``.
    """
    ours = white if turn else black
    theirs = black if turn else white
    them = 1 - turn
    occupied = white | black
    free = ~ours
    diagonal, straight = bishops | queens, rooks | queens
    king = highest_bit(kings & ours)
    blockers = pinned(king, occupied, diagonal & theirs, straight & theirs, ours)
    n = 0
    pieces = ours & ~pawns
    while pieces != ZERO:
        frm = highest_bit(pieces)
        source = _SQUARES[frm]
        pieces ^= source
        attacker, targets = reach(frm, source, knights, rooks, queens, kings, diagonal,
                                  straight, occupied)
        targets &= free
        if blockers & source != ZERO:  # never the king: pinned, or may be
            targets &= _LINES[king, frm]  # along its line through the king
        while targets != ZERO:
            to = highest_bit(targets)
            target = _SQUARES[to]
            targets ^= target
            if frm == king and attackers(them, to, occupied, pawns, knights, bishops, rooks,
                                         queens, kings, theirs) != ZERO:
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
    split = n
    ours_pawns = pawns & ours
    if ours_pawns == ZERO:
        return n | split << SPLIT_SHIFT
    attacks = _PAWN[turn]
    lines = _LINES[king]
    empty = ~occupied
    capturers = ours_pawns
    while capturers != ZERO:
        frm = highest_bit(capturers)
        capturers ^= _SQUARES[frm]
        targets = attacks[frm] & theirs
        if blockers & _SQUARES[frm] != ZERO:
            targets &= lines[frm]
        while targets != ZERO:
            to = highest_bit(targets)
            target = _SQUARES[to]
            targets ^= target
            hint = 100 + 10 * ORDER_VALUE[piece_on(target, pawns, knights, bishops, rooks,
                                                   queens)] - ORDER_VALUE[PAWN]
            if target & _PROMOTION_RANKS != ZERO:
                n = add(out, n, frm, to, QUEEN, hint + 90)
                n = add(out, n, frm, to, ROOK, hint)
                n = add(out, n, frm, to, BISHOP, hint)
                n = add(out, n, frm, to, KNIGHT, hint)
            else:
                n = add(out, n, frm, to, 0, hint)
    if turn:
        single = ours_pawns << _EIGHT & empty
        double = single << _EIGHT & empty & PUSH_TWO[1]
        step = -8
    else:
        single = ours_pawns >> _EIGHT & empty
        double = single >> _EIGHT & empty & PUSH_TWO[0]
        step = 8
    pushes: int = add_pushes(out, n, single, double, step, blockers, _SQUARES[king])
    n += pushes
    return n | split << SPLIT_SHIFT


@njit_typed(SIGNATURE)
def captures(pawns: Any, knights: Any, bishops: Any, rooks: Any, queens: Any, kings: Any,
             white: Any, black: Any, turn: int, out: Any, gains: Any) -> int:
    """``ChessGame._captures`` out of check without en passant: the legal captures that do
    not lose material, a pawn's onto the last rank as the queen's promotion alone, with
    their hints.  Returns the count.
    """
    ours = white if turn else black
    theirs = black if turn else white
    them = 1 - turn
    occupied = white | black
    diagonal, straight = bishops | queens, rooks | queens
    king = highest_bit(kings & ours)
    king_bb = _SQUARES[king]
    blockers = pinned(king, occupied, diagonal & theirs, straight & theirs, ours)
    n = 0
    pieces = ours & ~pawns
    while pieces != ZERO:
        frm = highest_bit(pieces)
        source = _SQUARES[frm]
        pieces ^= source
        attacker, targets = reach(frm, source, knights, rooks, queens, kings, diagonal,
                                  straight, occupied)
        targets &= theirs
        value = ORDER_VALUE[attacker]
        while targets != ZERO:
            to = highest_bit(targets)
            target = _SQUARES[to]
            targets ^= target
            if frm == king:
                if attackers(them, to, occupied, pawns, knights, bishops, rooks, queens,
                             kings, theirs) != ZERO:
                    continue
            elif blockers & source != ZERO and _LINES[frm, to] & king_bb == ZERO:
                continue
            victim = piece_on(target, pawns, knights, bishops, rooks, queens)
            if loses_material(frm, to, victim, attacker, turn, pawns, knights, bishops,
                              rooks, queens, kings, white, black, gains):
                continue
            n = add(out, n, frm, to, 0, 100 + 10 * ORDER_VALUE[victim] - value)
    attacks = _PAWN[turn]
    capturers = pawns & ours
    while capturers != ZERO:
        frm = highest_bit(capturers)
        source = _SQUARES[frm]
        capturers ^= source
        targets = attacks[frm] & theirs
        while targets != ZERO:
            to = highest_bit(targets)
            target = _SQUARES[to]
            targets ^= target
            if blockers & source != ZERO and _LINES[frm, to] & king_bb == ZERO:
                continue
            victim = piece_on(target, pawns, knights, bishops, rooks, queens)
            if target & _PROMOTION_RANKS != ZERO:
                n = add(out, n, frm, to, QUEEN, 189 + 10 * ORDER_VALUE[victim])
            else:
                n = add(out, n, frm, to, 0, 99 + 10 * ORDER_VALUE[victim])
    return n


def buffers() -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """A game's output and scratch arrays for the kernels (reused call after call)."""
    return np.zeros(OUT_SIZE, dtype=np.int32), np.zeros(GAINS_SIZE, dtype=np.int32)


def _warm() -> None:
    """Load both kernels from numba's cache (or compile them) at import, on the start
    position, so that no search compiles inside its clock.
    """
    out, gains = buffers()
    start = (0x00FF00000000FF00, 0x4200000000000042, 0x2400000000000024, 0x8100000000000081,
             0x0800000000000008, 0x1000000000000010, 0x000000000000FFFF, 0xFFFF000000000000)
    generate(*start, 1, out, gains)
    captures(*start, 1, out, gains)


if COMPILED:
    _warm()
