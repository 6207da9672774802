"""Compiled static exchange evaluation and the adapter's "does this capture lose material" test.

``exchange`` is ``chess_see.exchange`` and ``loses_material`` the adapter's
``_loses_material`` (``chess.py``), over bitboards, for the move-generation kernels
(``chess_movegen_kernel``) that give every capture of a move list its hint in the same
compiled call.  The Python functions stay the definitions; tests/test_chess_kernels.py
compares the two on random positions.  ``gains`` is scratch memory (kernels do not allocate).
"""

from __future__ import annotations

from typing import Any

from sakiyomi.compiled.bits import njit
from sakiyomi.games import chess_attack_tables as at
from sakiyomi.games.chess_attacks_kernel import (
    ONE,
    ZERO,
    attackers,
    diagonal_attacks,
    straight_attacks,
)
from sakiyomi.games.chess_see import SEE_VALUE

_KING = at.KING
_KNIGHT = at.KNIGHT
_PAWN = at.PAWN
_SQUARES = at.SQUARES
(_PAWN_VALUE, _KNIGHT_VALUE, _BISHOP_VALUE, _ROOK_VALUE, _QUEEN_VALUE,
 _KING_VALUE) = SEE_VALUE[1:]
SEE = SEE_VALUE  # by piece type (a tuple: compiled in as a constant)
# The adapter's ordering values (``chess._ORDER_VALUE``, MVV-LVA) by piece type.
ORDER_VALUE = (0, 1, 3, 3, 5, 9, 20)


@njit
def exchange(to: int, victim: int, capturer: int, side: int, occupied: Any, pawns: Any,
             knights: Any, bishops: Any, rooks: Any, queens: Any, kings: Any, white: Any,
             black: Any, gains: Any) -> int:
    """``chess_see.exchange``: what a capture on ``to`` gains once the exchange is over
    (``victim``: the value taken, ``capturer``: the value now standing there, ``side`` the
    colour, 1 white, that may recapture first, ``occupied`` with the capturer lifted off).
    """
    diagonal, straight = bishops | queens, rooks | queens
    steppers = (_KING[to] & kings | _KNIGHT[to] & knights
                | (_PAWN[0, to] & white | _PAWN[1, to] & black) & pawns)
    n = 0
    gains[0] = victim
    on_square = capturer
    while True:
        found = ((steppers | diagonal_attacks(to, occupied) & diagonal
                  | straight_attacks(to, occupied) & straight)
                 & occupied & (white if side else black))
        if found == ZERO:
            break
        if found & pawns != ZERO:
            found, value = found & pawns, _PAWN_VALUE
        elif found & knights != ZERO:
            found, value = found & knights, _KNIGHT_VALUE
        elif found & bishops != ZERO:
            found, value = found & bishops, _BISHOP_VALUE
        elif found & rooks != ZERO:
            found, value = found & rooks, _ROOK_VALUE
        elif found & queens != ZERO:
            found, value = found & queens, _QUEEN_VALUE
        else:
            value = _KING_VALUE
        n += 1
        gains[n] = on_square - gains[n - 1]
        if max(-gains[n - 1], gains[n]) < 0:
            break  # neither side would go on
        occupied ^= found & (~found + ONE)  # the lowest of them
        on_square = value
        side = 1 - side
    for i in range(n, 0, -1):
        gains[i - 1] = -max(-gains[i - 1], gains[i])
    return int(gains[0])


@njit
def loses_material(frm: int, to: int, victim: int, attacker: int, turn: int, pawns: Any,
                   knights: Any, bishops: Any, rooks: Any, queens: Any, kings: Any,
                   white: Any, black: Any, gains: Any) -> bool:
    """The adapter's ``_loses_material``: whether the capture from ``frm`` to ``to`` by
    ``turn`` (1 white; ``victim`` and ``attacker`` the piece types) loses material.
    """
    if ORDER_VALUE[attacker] <= ORDER_VALUE[victim]:
        return False
    them = 1 - turn
    theirs = white if them else black
    if _PAWN[turn, to] & pawns & theirs != ZERO:
        return True
    occupied = white | black
    if attackers(them, to, occupied, pawns, knights, bishops, rooks, queens, kings,
                 theirs) == ZERO:
        return False
    value: int = exchange(to, SEE[victim], SEE[attacker], them, occupied ^ _SQUARES[frm],
                          pawns, knights, bishops, rooks, queens, kings, white, black, gains)
    return value < 0
