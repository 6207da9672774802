"""The shogi evaluation's incremental score (cells and hands) computed from scratch, compiled.

With king-relative tables every cell depends on both kings' squares, so ``ShogiGame.play``
rescores the whole board after a king move (a tenth of the moves played; ``_rescored``
remembers the scores by position).  ``shogi_eval.board_score`` does it in Python in about
9 µs; ``Rescorer.score`` does the same sum in one kernel call over the ``Tables`` as one flat
array (session 28).  ``board_score`` stays the definition: the tests compare the two.

The tables are read at run time (``cell_array``), never compiled in, so refitted tables
(``shogi_fitted``) need no recompilation.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from sakiyomi.compiled.bits import njit
from sakiyomi.games.shogi_eval import FITTED, Tables

# ``shogi_eval.NO_KING`` (a test checks): the kernel compiles in this module's constants only,
# which numba's cache stamps cover (``cache_stamp.SINGLE_MODULE_SOURCES``).
NO_KING = 17 * 17
ROW = NO_KING + 1  # entries of a ``defend`` or ``attack`` row
# The flat array's layout: ``base`` (15 rows of 81), ``defend`` and ``attack`` (15 rows of
# ``ROW``), ``hand`` (7 rows of 19).
BASE_AT = 0
DEFEND_AT = BASE_AT + 15 * 81
ATTACK_AT = DEFEND_AT + 15 * ROW
HAND_AT = ATTACK_AT + 15 * ROW
SIZE = HAND_AT + 7 * 19
HANDS_AT = 81  # the input's hand counts (black's 7, white's 7) after the board list


@functools.lru_cache(maxsize=16)
def cell_array(tables: Tables) -> Any:
    """``tables``' cells and hand values as the kernel's flat int64 array (made once per
    tables: a ``ShogiGame`` is made for every search, and this takes a millisecond).
    """
    flat = np.zeros(SIZE, dtype=np.int64)
    flat[BASE_AT:DEFEND_AT] = np.array(tables.base, dtype=np.int64).ravel()
    flat[DEFEND_AT:ATTACK_AT] = np.array(tables.defend, dtype=np.int64).ravel()
    flat[ATTACK_AT:HAND_AT] = np.array(tables.attack, dtype=np.int64).ravel()
    flat[HAND_AT:SIZE] = np.array(tables.hand, dtype=np.int64).ravel()
    flat.flags.writeable = False
    return flat


@njit
def _offset(king: int, square: int, white: bool) -> int:
    """``shogi_eval.offset_index``."""
    if king >= 81:
        return NO_KING
    files = square // 9 - king // 9
    ranks = square % 9 - king % 9
    if white:
        files, ranks = -files, -ranks
    return (ranks + 8) * 17 + files + 8


@njit
def _score(cells: Any, flat: Any) -> int:
    """``shogi_eval.board_score`` of the board list and hands in ``cells``."""
    black_king = white_king = 81
    for square in range(81):
        if cells[square] == 8:
            black_king = square
        elif cells[square] == 8 | 16:
            white_king = square
    total = 0
    for square in range(81):
        piece = cells[square]
        if piece == 0:
            continue
        piece_type = piece & 15
        if piece >> 4 == 0:
            total += (flat[BASE_AT + piece_type * 81 + square]
                      + flat[DEFEND_AT + piece_type * ROW + _offset(black_king, square, False)]
                      + flat[ATTACK_AT + piece_type * ROW + _offset(white_king, square, False)])
        else:
            total -= (flat[BASE_AT + piece_type * 81 + 80 - square]
                      + flat[DEFEND_AT + piece_type * ROW + _offset(white_king, square, True)]
                      + flat[ATTACK_AT + piece_type * ROW + _offset(black_king, square, True)])
    for kind in range(7):
        total += flat[HAND_AT + kind * 19 + cells[HANDS_AT + kind]] \
            - flat[HAND_AT + kind * 19 + cells[HANDS_AT + 7 + kind]]
    return total


class Rescorer:
    """The kernel's input buffer and one ``Tables``' flat array (one per ``ShogiGame``)."""

    def __init__(self, tables: Tables) -> None:
        self.flat = cell_array(tables)
        self.cells = bytearray(HANDS_AT + 14)
        self.view = np.frombuffer(self.cells, dtype=np.uint8)

    def score(self, pieces: list[int], hands: tuple[list[int], list[int]]) -> int:
        """``shogi_eval.board_score`` of the board list ``pieces`` with ``hands`` (black's,
        white's pieces in hand).
        """
        cells = self.cells
        cells[:HANDS_AT] = pieces
        cells[HANDS_AT:] = hands[0] + hands[1]
        return int(_score(self.view, self.flat))


def _warm() -> None:
    """Compile the kernel now, or load it from numba's cache (as ``shogi_eval_kernel._warm``)."""
    Rescorer(FITTED).score([0] * 81, ([0] * 7, [0] * 7))


_warm()
