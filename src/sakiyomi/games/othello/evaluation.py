"""Othello midgame evaluation: a linear sum of classic features, in discs, as an @njit kernel.

Features, each "ours minus theirs" for the side to move:

* mobility — legal moves now (the strongest single midgame feature);
* potential mobility — empty squares next to the opponent's discs (future moves);
* corners — discs on a1, h1, a8, h8;
* X-squares — discs on b2, g2, b7, g7 while the corner next to them is empty (they give the
  corner away), counted against their owner;
* stability — discs that can never be flipped (``rules.stable_discs``);
* parity — +1 when the number of empty squares is odd (the side to move then expects to play
  the last move), else -1;
* discs — the plain disc difference.

Weight origin: ``WEIGHTS`` (hundredths of a disc per feature unit) are a least-squares fit of
these features to the exact final disc differences (our solver) of 300 positions at 12–16
empties reached by half-random, half-greedy self-play (``bench/othello_eval_fit.py``, seed 1):
mean absolute error 8.7 discs, against 10.5 for the hand-set first guess and 23.2 for a zero
evaluation.  The fit gives parity almost nothing and discs a negative weight (fewer discs,
more options — the classic "evaporation" advice).  The weights are endgame-trained: early in
the game the signs and rough sizes matter more than the exact values.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sakiyomi.compiled.bits import njit, popcount
from sakiyomi.games.othello.rules import (
    CORNERS,
    NOT_A,
    NOT_H,
    S1,
    S7,
    S8,
    S9,
    U64,
    final_score,
    legal_moves,
    stable_discs,
)

X_SQUARES = (9, 14, 49, 54)  # b2, g2, b7, g7
X_CORNERS = (0, 7, 56, 63)  # a1, h1, a8, h8
N_FEATURES = 7
# mobility, potential mobility, corners, X-squares, stability, parity, discs (1/100 disc)
WEIGHTS = np.array([115, 40, 343, -350, 153, -5, -46], dtype=np.int64)


@njit
def neighbours(x: Any) -> Any:
    """Squares next to any square of ``x`` (eight directions, no wrap-around)."""
    return (((x << S1) | (x >> S7) | (x << S9)) & NOT_A) | (
        ((x >> S1) | (x << S7) | (x >> S9)) & NOT_H) | (x << S8) | (x >> S8)


@njit
def feature_values(p: Any, o: Any) -> Any:
    """The seven feature values (ours minus theirs), as a tuple: compiled code never
    allocates (``bits.njit``), so the evaluation sums them without an array.
    """
    empty = ~(p | o)
    mobility = np.int64(popcount(legal_moves(p, o))) - np.int64(popcount(legal_moves(o, p)))
    potential = np.int64(popcount(neighbours(o) & empty)) - np.int64(
        popcount(neighbours(p) & empty))
    corners = np.int64(popcount(p & CORNERS)) - np.int64(popcount(o & CORNERS))
    x = np.int64(0)
    for i in range(4):
        if (empty >> U64(X_CORNERS[i])) & U64(1):
            x += np.int64((p >> U64(X_SQUARES[i])) & U64(1))
            x -= np.int64((o >> U64(X_SQUARES[i])) & U64(1))
    stability = np.int64(popcount(stable_discs(p, o))) - np.int64(popcount(stable_discs(o, p)))
    parity = np.int64(1) if popcount(empty) % 2 == 1 else np.int64(-1)
    discs = np.int64(popcount(p)) - np.int64(popcount(o))
    return mobility, potential, corners, x, stability, parity, discs


@njit
def features(p: Any, o: Any, out: Any) -> None:
    """Write the seven feature values (ours minus theirs) into ``out`` (``feature_values``)."""
    values = feature_values(p, o)
    for i in range(N_FEATURES):
        out[i] = values[i]


@njit
def evaluate_with(p: Any, o: Any, weights: Any) -> Any:
    """The weighted feature sum in discs, clamped to ±63 (only a finished game scores ±64)."""
    if legal_moves(p, o) == U64(0) and legal_moves(o, p) == U64(0):
        return final_score(p, o)
    f = feature_values(p, o)
    s = np.int64(0)
    for i in range(N_FEATURES):
        s += f[i] * weights[i]
    v = (s + np.int64(50)) // np.int64(100)
    return max(np.int64(-63), min(np.int64(63), v))


@njit
def evaluate(p: Any, o: Any) -> Any:
    """Heuristic final disc difference for the owner of ``p`` (``WEIGHTS``)."""
    return evaluate_with(p, o, WEIGHTS)
