"""Chess attack tables as numpy arrays of uint64 bitboards, for the compiled chess kernels.

python-chess keeps its tables as Python lists and dicts (a slider's attacks by the occupancy of
its line); a numba kernel reads arrays, compiled in as constants.  The steppers' tables are
python-chess's own, copied; a slider's attacks are found from the rays here (``RAYS``: the
squares from a square to the board's edge in one direction, the square itself left out) by
cutting each ray at its first occupied square, which gives python-chess's attack sets.
"""

from __future__ import annotations

import chess
import numpy as np
import numpy.typing as npt

Bitboards = npt.NDArray[np.uint64]

# Ray directions (file step, rank step): the first four raise the square number, so a ray's
# first blocker is its lowest set bit; the last four lower it (the highest set bit).
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (-1, 1), (0, -1), (-1, 0), (-1, -1), (1, -1))
STRAIGHT = (0, 1, 4, 5)  # north, east, south, west
DIAGONAL = (2, 3, 6, 7)  # north-east, north-west, south-west, south-east
RISING = 4  # directions below this index raise the square number


def _ray(square: int, file_step: int, rank_step: int) -> int:
    """The squares from ``square`` (excluded) to the edge along (``file_step``, ``rank_step``)."""
    bits = 0
    file, rank = square & 7, square >> 3
    while True:
        file += file_step
        rank += rank_step
        if not (0 <= file < 8 and 0 <= rank < 8):
            return bits
        bits |= 1 << (file + 8 * rank)


def _array(values: list[int]) -> Bitboards:
    return np.array(values, dtype=np.uint64)


SQUARES: Bitboards = _array(list(chess.BB_SQUARES))
KNIGHT: Bitboards = _array(list(chess.BB_KNIGHT_ATTACKS))
KING: Bitboards = _array(list(chess.BB_KING_ATTACKS))
# [colour][square]: the squares a pawn of that colour (0 black, 1 white) on ``square`` attacks.
PAWN: Bitboards = np.array([list(chess.BB_PAWN_ATTACKS[c]) for c in (chess.BLACK, chess.WHITE)],
                           dtype=np.uint64)
RAYS: Bitboards = np.array([[_ray(sq, df, dr) for sq in range(64)] for df, dr in DIRECTIONS],
                           dtype=np.uint64)
# [a][b]: the whole line (edge to edge) through a and b, 0 when not on one (``chess.BB_RAYS``).
LINES: Bitboards = np.array(chess.BB_RAYS, dtype=np.uint64)
# [a][b]: the squares strictly between a and b on their line (``chess.between``).
BETWEEN: Bitboards = np.array([[chess.between(a, b) for b in range(64)] for a in range(64)],
                              dtype=np.uint64)
