"""Threats and king-zone pressure of a shogi position, from both sides' attack maps, compiled.

The fitted evaluation's board terms see where pieces stand, not what they attack.  Standing
pat at a quiet leaf then ignores a piece the opponent is about to win, or a king whose
neighbourhood the enemy already covers.  These terms (session 27) fit fairy-stockfish's
scores of our positions clearly better (held-out RMS 460 → 424 of its centipawns with the
checks count, ``bench/shogi_eval_fit.py``; self-play at 10,000 nodes +167 Elo, at byoyomi 300
+163).  They need every square's cheapest attacker for
both sides, which a Python walk cannot afford at every evaluation (~90 µs in the experiment);
this kernel builds both maps from the board list in one pass over the pieces.

Definitions (pins ignored, x-rays not counted, as in ``shogi_attacks``):

* a piece of side ``c`` (not the king) is **threatened** when the enemy attacks its square and
  either ``c`` does not defend it (the loss is its value) or the enemy's cheapest attacker is
  worth less than it (the loss is the difference); values are ``Tables.material``, a king as
  an attacker worth more than any piece (it takes only what nothing defends);
* a king's **zone hits** are the squares next to it that the enemy attacks.

Squares are cshogi's ``file * 9 + rank`` (rank 0 is white's back rank); a board cell holds
``piece type + 16 * colour``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sakiyomi.compiled.bits import njit
from sakiyomi.games import shogi_eval as ev
from sakiyomi.games import shogi_facade as cs
from sakiyomi.games.shogi_attacks import DIAGONAL, ORTHOGONAL, STEPS

KING_VALUE = 1 << 20  # a king takes only what nothing defends
# The colour-by-colour terms of the attack maps, in order.
TERMS = ("black's largest loss", "black's second loss", "black's threatened pieces",
         "white's largest loss", "white's second loss", "white's threatened pieces",
         "black king's zone hits", "white king's zone hits")
# The evaluation's features made of them (``shogi_eval.FEATURES``, defined there so that the
# evaluations' tables load without this module) and the most checks counted.
FEATURES = ev.FEATURES
MAX_CHECKS = ev.MAX_CHECKS

# Ray directions: 0-3 orthogonal (0: black's forward), 4-7 diagonal.
_DIRECTIONS = ORTHOGONAL + DIAGONAL
_ORTHOGONAL_MASK, _DIAGONAL_MASK = 0x0F, 0xF0


def _tables() -> tuple[Any, Any, Any, Any]:
    """Step targets ``[colour, type, square, k]`` (-1 ends a list), ray squares ``[square,
    direction, k]`` (-1 ends a ray), the ray directions a slider uses ``[colour, type]`` (a
    bit mask) and each square's neighbours ``[square, k]`` (-1 ends the list).
    """
    steps = np.full((2, 16, 81, 8), -1, dtype=np.int16)
    rays = np.full((81, 8, 8), -1, dtype=np.int16)
    sliders = np.zeros((2, 16), dtype=np.int16)
    neighbours = np.full((81, 8), -1, dtype=np.int16)
    for square in range(81):
        file, rank = divmod(square, 9)
        for direction, (df, dr) in enumerate(_DIRECTIONS):
            f, r, k = file + df, rank + dr, 0
            while 0 <= f < 9 and 0 <= r < 9:
                rays[square, direction, k] = f * 9 + r
                f, r, k = f + df, r + dr, k + 1
        k = 0
        for df, dr in _DIRECTIONS:
            if 0 <= file + df < 9 and 0 <= rank + dr < 9:
                neighbours[square, k] = (file + df) * 9 + rank + dr
                k += 1
        for color, sign in ((cs.BLACK, 1), (cs.WHITE, -1)):
            for piece_type, offsets in STEPS.items():
                k = 0
                for df, dr in offsets:
                    f, r = file + sign * df, rank + sign * dr
                    if 0 <= f < 9 and 0 <= r < 9:
                        steps[color, piece_type, square, k] = f * 9 + r
                        k += 1
    for color in (cs.BLACK, cs.WHITE):
        sliders[color, cs.LANCE] = 1 << (0 if color == cs.BLACK else 3)
        sliders[color, cs.ROOK] = sliders[color, cs.DRAGON] = _ORTHOGONAL_MASK
        sliders[color, cs.BISHOP] = sliders[color, cs.HORSE] = _DIAGONAL_MASK
    return steps, rays, sliders, neighbours


STEP_TARGETS, RAY_SQUARES, SLIDER_DIRECTIONS, NEIGHBOUR_SQUARES = _tables()


def attacker_values(material: tuple[int, ...]) -> Any:
    """``material`` (by piece type) as the kernel's value table, the king at ``KING_VALUE``."""
    values = np.zeros(16, dtype=np.int64)
    for piece_type, worth in enumerate(material):
        values[piece_type] = worth
    values[cs.KING] = KING_VALUE
    return values


# The scratch array's layout (one int64 array a ``ThreatMaps``: numba checks each argument's
# type at every call, so the kernels take few): the attacker values by piece type, the feature
# weights, both colours' cheapest attackers by square, ``TERMS`` and ``FEATURES``.
VALUES_AT = 0
WEIGHTS_AT = VALUES_AT + 16
CHEAPEST_AT = WEIGHTS_AT + len(FEATURES)
TERMS_AT = CHEAPEST_AT + 2 * 81
FEATURES_AT = TERMS_AT + len(TERMS)
SCRATCH = FEATURES_AT + len(FEATURES)


@njit
def cheapest_attackers(pieces: Any, scratch: Any) -> None:
    """Fill the scratch's cheapest attackers (``CHEAPEST_AT + colour * 81 + square``) with the
    value of that colour's cheapest piece attacking the square (0: none).  The tables are
    module constants, which numba compiles in.
    """
    steps, rays, sliders = STEP_TARGETS, RAY_SQUARES, SLIDER_DIRECTIONS
    for at in range(CHEAPEST_AT, CHEAPEST_AT + 2 * 81):
        scratch[at] = 0
    for square in range(81):
        piece = pieces[square]
        if piece == 0:
            continue
        piece_type = piece & 15
        color = piece >> 4
        worth = scratch[VALUES_AT + piece_type]
        base = CHEAPEST_AT + color * 81
        for k in range(8):
            target = steps[color, piece_type, square, k]
            if target < 0:
                break
            held = scratch[base + target]
            if held == 0 or worth < held:
                scratch[base + target] = worth
        mask = sliders[color, piece_type]
        if mask == 0:
            continue
        for direction in range(8):
            if not (mask >> direction) & 1:
                continue
            for k in range(8):
                target = rays[square, direction, k]
                if target < 0:
                    break
                held = scratch[base + target]
                if held == 0 or worth < held:
                    scratch[base + target] = worth
                if pieces[target] != 0:
                    break


@njit
def threat_terms(pieces: Any, black_king: int, white_king: int, scratch: Any) -> None:
    """Write ``TERMS`` into the scratch at ``TERMS_AT`` (see the module's definitions)."""
    cheapest_attackers(pieces, scratch)
    for color in range(2):
        own = CHEAPEST_AT + color * 81
        enemy = CHEAPEST_AT + (1 - color) * 81
        first = second = count = 0
        for square in range(81):
            piece = pieces[square]
            if piece == 0 or piece >> 4 != color or piece & 15 == 8:
                continue
            taker = scratch[enemy + square]
            if taker == 0:
                continue
            worth = scratch[VALUES_AT + (piece & 15)]
            if scratch[own + square] == 0:
                loss = worth
            elif taker < worth:
                loss = worth - taker
            else:
                continue
            count += 1
            if loss > first:
                second = first
                first = loss
            elif loss > second:
                second = loss
        scratch[TERMS_AT + 3 * color] = first
        scratch[TERMS_AT + 3 * color + 1] = second
        scratch[TERMS_AT + 3 * color + 2] = count
    neighbours = NEIGHBOUR_SQUARES
    for color in range(2):
        king = black_king if color == 0 else white_king
        enemy = CHEAPEST_AT + (1 - color) * 81
        hits = 0
        if king < 81:
            for k in range(8):
                square = neighbours[king, k]
                if square < 0:
                    break
                if scratch[enemy + square] != 0:
                    hits += 1
        scratch[TERMS_AT + 6 + color] = hits


@njit
def weighted_features(pieces: Any, black_king: int, white_king: int, turn: int,
                      black_drops: int, white_drops: int, checks: int, scratch: Any) -> int:
    """Write ``TERMS`` and ``FEATURES`` into the scratch (``black_drops`` / ``white_drops``:
    each side's drop weight, ``checks``: the side to move's checking moves, already capped)
    and return ``Σ weights × FEATURES // 100`` (weights in hundredths of a centipawn a unit).
    """
    threat_terms(pieces, black_king, white_king, scratch)
    own = TERMS_AT + (0 if turn == 0 else 3)
    enemy = TERMS_AT + (3 if turn == 0 else 0)
    zone = scratch[TERMS_AT + 7] - scratch[TERMS_AT + 6]
    by_hand = scratch[TERMS_AT + 7] * black_drops - scratch[TERMS_AT + 6] * white_drops
    if turn != 0:
        zone, by_hand = -zone, -by_hand
    out = FEATURES_AT
    scratch[out] = scratch[own]
    scratch[out + 1] = scratch[own + 1]
    scratch[out + 2] = scratch[enemy]
    scratch[out + 3] = scratch[own + 2]
    scratch[out + 4] = scratch[enemy + 2]
    scratch[out + 5] = zone
    scratch[out + 6] = by_hand
    scratch[out + 7] = checks
    scratch[out + 8] = 1 if checks else 0
    total = 0
    for number in range(len(FEATURES)):
        total += scratch[WEIGHTS_AT + number] * scratch[out + number]
    return total // 100


class ThreatMaps:
    """The kernels' scratch for one value table and one set of feature weights (one per
    ``ShogiGame``: the kernels never allocate, and the array is reused call after call).
    """

    def __init__(self, material: tuple[int, ...], weights: tuple[int, ...] = ()) -> None:
        self.scratch = np.zeros(SCRATCH, dtype=np.int64)
        self.scratch[VALUES_AT:VALUES_AT + 16] = attacker_values(material)
        self.scratch[WEIGHTS_AT:WEIGHTS_AT + len(weights)] = weights

    def terms(self, pieces: list[int], black_king: int, white_king: int) -> list[int]:
        """``TERMS`` for the board list ``pieces`` with the kings on the given squares (81:
        none).
        """
        threat_terms(np.frombuffer(bytes(pieces), dtype=np.uint8), black_king, white_king,
                     self.scratch)
        return list(self.scratch[TERMS_AT:TERMS_AT + len(TERMS)].tolist())

    def features(self, pieces: list[int], black_king: int, white_king: int, turn: int,
                 black_drops: int, white_drops: int, checks: int) -> list[int]:
        """``FEATURES`` of the position (``checks`` already capped at ``MAX_CHECKS``)."""
        self.score(pieces, black_king, white_king, turn, black_drops, white_drops, checks)
        return list(self.scratch[FEATURES_AT:SCRATCH].tolist())

    def score(self, pieces: list[int], black_king: int, white_king: int, turn: int,
              black_drops: int, white_drops: int, checks: int) -> int:
        """The weighted ``FEATURES``, the side to move's view, in centipawns."""
        return int(weighted_features(np.frombuffer(bytes(pieces), dtype=np.uint8), black_king,
                                     white_king, turn, black_drops, white_drops, checks,
                                     self.scratch))
