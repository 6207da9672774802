"""The shogi evaluation's terms computed at evaluation time, in one compiled call.

``ShogiGame`` adds to its incremental score (cells and hands, ``shogi_eval``) what depends on
the whole board: both kings' danger from the enemy's hand (``shogi_eval.king_danger``), the
sliders' mobility (``slider_mobility``), the king-zone pressure (``king_zone``) and the
threat terms (``shogi_eval.threat_features``, weighted as ``ThreatMaps.score``).  Each was a
Python function of its own; computing them with separate calls took about 11 µs an
evaluation, most of it Python walks and call overhead (session 28).  ``BoardTerms.score``
computes them all from one byte array (the board list, both hands, the side to move and its
checks) in one kernel call, to the same integer.  The Python functions stay the definitions:
the tests compare the two on random positions.

The weights come from the ``Tables`` at run time (the scratch array), never compiled in, so
refitted tables (``shogi_fitted``) need no recompilation.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sakiyomi.compiled.bits import njit
from sakiyomi.games import shogi_threats as th
from sakiyomi.games.shogi_eval import FITTED, SAFETY_CAP, SAFETY_SCALE, ZONE_CAP, Tables

# The kernel's input, one byte a cell: the board list (81), black's and white's pieces in hand
# (7 each, cshogi's order), the side to move, its checking moves (capped at
# ``shogi_threats.MAX_CHECKS``).
HANDS_AT = 81
TURN_AT = HANDS_AT + 14
CHECKS_AT = TURN_AT + 1

# The scratch layout: ``shogi_threats``' (attacker values, threat weights, attack maps, terms,
# features), then the hand-threat weights by hand kind and the scalar parameters.
HAND_THREAT_AT = th.SCRATCH
SAFETY_SCALE_AT = HAND_THREAT_AT + 7
SAFETY_CAP_AT = SAFETY_SCALE_AT + 1
SAFETY_PERCENT_AT = SAFETY_CAP_AT + 1
MOBILITY_AT = SAFETY_PERCENT_AT + 1
ZONE_AT = MOBILITY_AT + 1
ZONE_CAP_AT = ZONE_AT + 1
THREATS_AT = ZONE_CAP_AT + 1  # 1: the threat terms are on
SCRATCH = THREATS_AT + 1

_KING = 8
_BISHOP, _ROOK, _HORSE, _DRAGON = 5, 6, 13, 14


@njit
def _drop_weight(cells: Any, hand: int, scratch: Any) -> int:
    """``shogi_eval.drop_weight`` of the hand at ``cells[hand:hand + 7]``."""
    weight = 0
    for kind in range(7):
        if cells[hand + kind]:
            weight += scratch[HAND_THREAT_AT + kind]
    return weight


@njit
def _king_danger(cells: Any, king: int, color: int, scratch: Any) -> int:
    """``shogi_eval.king_danger`` of ``color``'s king on square ``king`` (81: none)."""
    hand = HANDS_AT + 7 * (1 - color)  # the enemy's
    weight = 0
    for kind in range(7):
        count = cells[hand + kind]
        if count:
            threat = scratch[HAND_THREAT_AT + kind]
            weight += threat + threat if count > 1 else threat
    if weight == 0 or king >= 81:
        return 0
    open_squares = 0
    for k in range(8):
        square = th.NEIGHBOUR_SQUARES[king, k]
        if square < 0:
            break
        piece = cells[square]
        if piece == 0 or piece >> 4 != color:
            open_squares += 1
    danger: int = min(weight * open_squares * scratch[SAFETY_SCALE_AT],
                      scratch[SAFETY_CAP_AT]) * scratch[SAFETY_PERCENT_AT] // 100
    return danger


@njit
def _slider_mobility(cells: Any) -> int:
    """``shogi_eval.slider_mobility``: black's less white's squares reached by their rooks,
    bishops, dragons and horses along their rays.
    """
    rays = th.RAY_SQUARES
    total = 0
    for square in range(81):
        piece = cells[square]
        piece_type = piece & 15
        if piece_type in (_BISHOP, _HORSE):
            first = 4  # the diagonal directions
        elif piece_type in (_ROOK, _DRAGON):
            first = 0  # the orthogonal ones
        else:
            continue
        color = piece >> 4
        count = 0
        for direction in range(first, first + 4):
            for k in range(8):
                target = rays[square, direction, k]
                if target < 0:
                    break
                other = cells[target]
                if other != 0:
                    if other >> 4 != color:
                        count += 1
                    break
                count += 1
        total += -count if color else count
    return total


@njit
def _king_zone(hits: int, drops: int, scratch: Any) -> int:
    """``shogi_eval.king_zone`` of a king with ``hits`` attacked squares next to it, the enemy
    holding pieces of drop weight ``drops``.
    """
    if hits == 0:
        return 0
    zone: int = min(hits * scratch[ZONE_AT] * (4 + drops) // 4, scratch[ZONE_CAP_AT])
    return zone


@njit
def _score(cells: Any, scratch: Any) -> int:
    """The evaluation-time terms of ``cells`` (see ``HANDS_AT``), the side to move's view:
    king danger, mobility and king zone (black's view, turned), plus the weighted threat
    features; the same sum as ``ShogiGame``'s Python terms.
    """
    black_king = white_king = 81
    for square in range(81):
        if cells[square] == _KING:
            black_king = square
        elif cells[square] == _KING | 16:
            white_king = square
    total: int = _king_danger(cells, white_king, 1, scratch) \
        - _king_danger(cells, black_king, 0, scratch)
    if scratch[MOBILITY_AT]:
        total += scratch[MOBILITY_AT] * _slider_mobility(cells)
    threats = scratch[THREATS_AT] != 0
    if scratch[ZONE_AT] or threats:
        black_drops = _drop_weight(cells, HANDS_AT, scratch)
        white_drops = _drop_weight(cells, HANDS_AT + 7, scratch)
        turn = cells[TURN_AT]
        threat: int = 0
        if threats:  # also fills the zone hits (``shogi_threats.TERMS``)
            threat = th.weighted_features(cells, black_king, white_king, turn, black_drops,
                                          white_drops, cells[CHECKS_AT], scratch)
        else:
            th.threat_terms(cells, black_king, white_king, scratch)
        if scratch[ZONE_AT]:
            total += _king_zone(scratch[th.TERMS_AT + 7], black_drops, scratch) \
                - _king_zone(scratch[th.TERMS_AT + 6], white_drops, scratch)
        return (-total if turn else total) + threat
    return -total if cells[TURN_AT] else total


class BoardTerms:
    """The kernel's scratch for one ``Tables`` (one per ``ShogiGame``, reused call after
    call: the kernel never allocates).
    """

    def __init__(self, tables: Tables) -> None:
        self.scratch = np.zeros(SCRATCH, dtype=np.int64)
        self.scratch[:th.SCRATCH] = th.ThreatMaps(tables.material, tables.threats).scratch
        self.scratch[HAND_THREAT_AT:HAND_THREAT_AT + 7] = tables.hand_threat
        self.scratch[SAFETY_SCALE_AT] = SAFETY_SCALE
        self.scratch[SAFETY_CAP_AT] = SAFETY_CAP
        self.scratch[SAFETY_PERCENT_AT] = tables.safety_percent
        self.scratch[MOBILITY_AT] = tables.mobility
        self.scratch[ZONE_AT] = tables.zone
        self.scratch[ZONE_CAP_AT] = ZONE_CAP
        self.scratch[THREATS_AT] = 1 if tables.threats else 0
        self.checks_needed = bool(tables.threats)
        # The kernel's input, written in place call after call (slice assignments into a
        # bytearray cost half of building a bytes object and an array from it each time);
        # ``view`` is an array over the same memory.
        self.cells = bytearray(CHECKS_AT + 1)
        self.view = np.frombuffer(self.cells, dtype=np.uint8)

    def score(self, pieces: list[int], hands: tuple[list[int], list[int]], turn: int,
              checks: int) -> int:
        """The terms of the position with board list ``pieces``, pieces in hand ``hands``
        (black's, white's), ``turn`` to move and ``checks`` checking moves (capped at
        ``shogi_threats.MAX_CHECKS``; read only with the threat terms), the side to move's
        view, in centipawns.
        """
        cells = self.cells
        cells[:HANDS_AT] = pieces
        cells[HANDS_AT:TURN_AT] = hands[0] + hands[1]
        cells[TURN_AT] = turn
        cells[CHECKS_AT] = checks
        return int(_score(self.view, self.scratch))


def _warm() -> None:
    """Compile the kernel now, or load it from numba's cache, so that the first search does
    not compile inside its clock: on a fresh install the first evaluation compiled for about
    a second (``sakiyomi search shogi --time 1`` lost most of its second to it, session 27).
    This compiles the threat kernels the evaluation calls too; ``shogi_threats``' own entry
    points (``ThreatMaps``: the fit script and the tests) compile when first called.
    """
    BoardTerms(FITTED).score([0] * 81, ([0] * 7, [0] * 7), 0, 0)


_warm()
