"""Compiled chess attack tests over bitboards: what attacks a square, which pieces are pinned,
which piece stands on a square.

The same answers as python-chess's ``attackers_mask`` and the adapter's ``_pinned`` and
``_piece_on`` (``chess.py``), for the move-generation and exchange kernels
(``chess_movegen_kernel``, ``chess_exchange_kernel``), which call them inside one compiled call
per move list.  A slider's attacks cut each ray of ``chess_attack_tables.RAYS`` at its first
occupied square.  Bitboards are uint64 throughout: numba turns a mix of uint64 and int64 into
float64, so every constant here is a uint64.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sakiyomi.compiled.bits import highest_bit, lowest_bit, njit
from sakiyomi.games import chess_attack_tables as at

ZERO = np.uint64(0)
ONE = np.uint64(1)
_RAYS = at.RAYS
_KING = at.KING
_KNIGHT = at.KNIGHT
_PAWN = at.PAWN
_SQUARES = at.SQUARES
_BETWEEN = at.BETWEEN
# Piece types as python-chess numbers them.
PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = 1, 2, 3, 4, 5, 6


@njit
def _cut(direction: int, square: int, occupied: Any) -> Any:
    """The squares a slider on ``square`` sees along ``direction`` under ``occupied``."""
    ray = _RAYS[direction, square]
    blockers = ray & occupied
    if blockers == ZERO:
        return ray
    first = lowest_bit(blockers) if direction < at.RISING else highest_bit(blockers)
    return ray ^ _RAYS[direction, first]


@njit
def diagonal_attacks(square: int, occupied: Any) -> Any:
    """A bishop's attacks from ``square`` under ``occupied`` (``chess.BB_DIAG_ATTACKS``)."""
    return (_cut(2, square, occupied) | _cut(3, square, occupied)
            | _cut(6, square, occupied) | _cut(7, square, occupied))


@njit
def straight_attacks(square: int, occupied: Any) -> Any:
    """A rook's attacks from ``square`` under ``occupied`` (rank and file attacks)."""
    return (_cut(0, square, occupied) | _cut(1, square, occupied)
            | _cut(4, square, occupied) | _cut(5, square, occupied))


@njit
def attackers(color: int, square: int, occupied: Any, pawns: Any, knights: Any, bishops: Any,
              rooks: Any, queens: Any, kings: Any, side: Any) -> Any:
    """python-chess's ``attackers_mask(color, square, occupied)``: the pieces of ``side`` (the
    bitboard of the colour ``color``, 1 white) that attack ``square``, sliders seeing through
    ``occupied``.
    """
    return (_KING[square] & kings | _KNIGHT[square] & knights
            | diagonal_attacks(square, occupied) & (bishops | queens)
            | straight_attacks(square, occupied) & (rooks | queens)
            | _PAWN[1 - color, square] & pawns) & side


@njit
def pinned(king: int, occupied: Any, diagonal: Any, straight: Any, theirs: Any) -> Any:
    """The adapter's ``_pinned``: the pieces of ``theirs`` alone between ``king`` and a slider
    of ``diagonal`` (bishops, queens) or ``straight`` (rooks, queens) on its line.
    """
    snipers = (diagonal_attacks(king, ZERO) & diagonal
               | straight_attacks(king, ZERO) & straight)
    found = ZERO
    while snipers != ZERO:
        sniper = highest_bit(snipers)
        snipers ^= _SQUARES[sniper]
        between = _BETWEEN[king, sniper] & occupied
        if between != ZERO and between & (between - ONE) == ZERO and between & theirs != ZERO:
            found |= between
    return found


@njit
def piece_on(target: Any, pawns: Any, knights: Any, bishops: Any, rooks: Any,
             queens: Any) -> int:
    """The type of the piece on ``target`` (one occupied square's bitboard): ``_piece_on``."""
    if target & pawns != ZERO:
        return PAWN
    if target & knights != ZERO:
        return KNIGHT
    if target & bishops != ZERO:
        return BISHOP
    if target & rooks != ZERO:
        return ROOK
    return QUEEN if target & queens != ZERO else KING
