"""The shogi adapter's one-step exchange tests of a move, compiled.

Can the opponent take the piece a move moves, and does it win it?

``ShogiGame`` asks these before playing a move (move ordering, quiescence's noisy moves,
hanging-move pruning): ``_recapturable`` and ``move_hangs_piece``, defined over the Python
attack tests of ``shogi_attacks`` on the board list the move would leave.  Made in Python,
that list and the tests cost 1.4-2.5 µs a move (session 28).  ``Exchanges`` keeps the
position's board in a byte array (written once a position) and answers both questions for
a move in one kernel call: the move applied to a copy, both sides' cheapest attackers of
its target (``shogi_threats``' attack maps), the same answers (pins ignored, a king worth
more than any piece).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sakiyomi.compiled.bits import njit
from sakiyomi.games import shogi_facade as cs
from sakiyomi.games import shogi_threats as th

ATTACKED = 1  # the opponent attacks the move's target square once it is played
HANGS = 2  # and wins the piece there: attacks it with a cheaper piece, or it is undefended
_PROMOTED = cs.PROMOTED_OFFSET  # a piece type's promoted form is this much higher


@njit
def _exchange(board: Any, move: int, turn: int, after: Any, scratch: Any) -> int:
    """``ATTACKED | HANGS`` bits of ``move`` by ``turn`` on ``board`` (the position's board
    list), found on ``after`` (the list the move leaves, written here).
    """
    for square in range(81):
        after[square] = board[square]
    to = move & 0x7F
    source = (move >> 7) & 0x7F
    if source < 81:
        after[source] = 0
        placed = (move >> 16) & 0xF
        if move & (1 << 14):
            placed += _PROMOTED
    else:  # a drop: the source is 80 + the piece type
        placed = source - 80
    after[to] = placed | turn << 4
    th.cheapest_attackers(after, scratch)
    taker = scratch[th.CHEAPEST_AT + (1 - turn) * 81 + to]
    if taker == 0:
        return 0
    defended = scratch[th.CHEAPEST_AT + turn * 81 + to] != 0
    if taker < scratch[th.VALUES_AT + placed] or not defended:
        return ATTACKED | HANGS
    return ATTACKED


class Exchanges:
    """The kernel's buffers for one ``ShogiGame`` (reused call after call): the position's
    board list as bytes (``load`` once a position), the list after a move, the attack maps.
    """

    def __init__(self, material: tuple[int, ...]) -> None:
        self.scratch = th.ThreatMaps(material).scratch
        self.board = bytearray(81)
        self.view = np.frombuffer(self.board, dtype=np.uint8)
        self.after = np.zeros(81, dtype=np.uint8)

    def load(self, pieces: list[int]) -> None:
        """Take the position's board list (before the first ``test`` in a position)."""
        self.board[:] = pieces

    def test(self, move: int, turn: int) -> int:
        """``ATTACKED | HANGS`` bits of ``move`` (legal in the loaded position, not a pass)
        by ``turn``, the side to move there.
        """
        return int(_exchange(self.view, move, turn, self.after, self.scratch))


def _warm() -> None:
    """Compile the kernel now, or load it from numba's cache (as ``shogi_eval_kernel._warm``)."""
    Exchanges((0,) * 16).test(0, 0)


_warm()
