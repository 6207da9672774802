"""Othello's specialised last-few-empties solver: @njit kernels below the search's TT layer.

Strong endgame solvers (Zebra, Edax) stop using the hash table and elaborate move ordering a
few empties before the end: there the cost of a node is all that matters.  This module is that
part, as kernels a search calls once ``n_empties <= shallow`` (``solve_shallow``):

* the empty squares are a bitboard, visited **odd quadrants first** (parity ordering: in a
  region with an odd number of empties the side to move can hope for the last move there);
* a move is only tried where it has an opponent neighbour (cheap pre-test) and flips something;
* passes are moves (counted as nodes); two passes end the game, empties go to the winner;
* with one empty the score is computed in place from the flip count (``score_last``):
  the position after the last move is not counted as a node (Edax counts the same way);
* an optional stability cut-off (``stability_bound``) in the shallow search.

Node counts go to ``stats[NODES]``; the fail-soft contract is the Searcher's (DESIGN.md §4).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sakiyomi.compiled.bits import lowest_bit, njit, popcount
from sakiyomi.compiled.othello_kernels import (
    ONE,
    U64,
    ZERO,
    final_score,
    flips,
    legal_moves,
    stable_discs,
)

NODES = 0
STAB_TRIES = 1
STAB_CUTS = 2
N_STATS = 8  # the search module uses the slots after these

INF = 127
QUADRANTS = np.array([0x000000000F0F0F0F, 0x00000000F0F0F0F0,
                      0x0F0F0F0F00000000, 0xF0F0F0F000000000], dtype=np.uint64)


def _neighbour_masks() -> Any:
    out = np.zeros(64, dtype=np.uint64)
    for sq in range(64):
        f, r = sq % 8, sq // 8
        m = 0
        for df in (-1, 0, 1):
            for dr in (-1, 0, 1):
                if (df or dr) and 0 <= f + df < 8 and 0 <= r + dr < 8:
                    m |= 1 << (8 * (r + dr) + f + df)
        out[sq] = m
    return out


NEIGHBOUR = _neighbour_masks()
# Stability cut-off is only tried when alpha is high enough for it to have a chance:
# it proves value <= 64 - 2 * (opponent's stable discs), so it needs many stable discs.
STABILITY_MIN_ALPHA = np.array(
    [99, 99, 99, 99, 6, 8, 10, 12, 14, 16, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42, 44,
     46, 48, 48, 50, 50, 52, 52, 54, 54, 56, 56, 58, 58, 60, 60, 62, 62, 64, 64, 64, 64, 64,
     64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64],
    dtype=np.int64)


@njit
def odd_quadrants(empties: Any) -> Any:
    """The union of the quadrants holding an odd number of empty squares."""
    m = ZERO
    for i in range(4):
        if popcount(empties & QUADRANTS[i]) & 1:
            m |= QUADRANTS[i]
    return m


@njit
def score_last(p: Any, o: Any, sq: Any) -> Any:
    """Exact final score for ``p`` with one empty square ``sq`` left (both orders tried)."""
    n = np.int64(popcount(p))
    f = flips(p, o, sq)
    if f:
        return 2 * (n + np.int64(popcount(f)) + 1) - 64
    f = flips(o, p, sq)
    if f:
        return 2 * (n - np.int64(popcount(f))) - 64
    diff = 2 * n - 63  # neither side can play the last square: it goes to the winner
    return diff + 1 if diff > 0 else diff - 1


@njit
def stability_bound(p: Any, o: Any) -> Any:
    """An upper bound of the final score for ``p``: 64 minus twice o's stable discs."""
    return 64 - 2 * np.int64(popcount(stable_discs(o, p)))


@njit
def solve_shallow(p: Any, o: Any, alpha: Any, beta: Any, use_parity: Any, use_stability: Any,
                  stats: Any) -> Any:
    """Exact fail-soft negamax value for ``p`` to move, without TT, for few empties."""
    stats[NODES] += 1
    empties = ~(p | o)
    n = np.int64(popcount(empties))
    if n == 1:
        return score_last(p, o, lowest_bit(empties))
    if use_stability and alpha >= STABILITY_MIN_ALPHA[n]:
        stats[STAB_TRIES] += 1
        bound = stability_bound(p, o)
        if bound <= alpha:
            stats[STAB_CUTS] += 1
            return bound
    best = np.int64(-INF)
    a = alpha
    first = odd_quadrants(empties) if use_parity else empties
    if first == ZERO:
        first = empties
    for stage in range(2):
        todo = empties & first if stage == 0 else empties & ~first
        while todo:
            sq = lowest_bit(todo)
            todo &= todo - ONE
            if not NEIGHBOUR[sq] & o:
                continue
            f = flips(p, o, sq)
            if f == ZERO:
                continue
            if n == 2:
                # the child has one empty: score it in place (counted as a node)
                stats[NODES] += 1
                v = -score_last(o ^ f, p | f | (ONE << U64(sq)), lowest_bit(empties & ~(
                    ONE << U64(sq))))
            else:
                v = -solve_shallow(o ^ f, p | f | (ONE << U64(sq)), -beta, -a, use_parity,
                                   use_stability, stats)
            if v > best:
                best = v
                if v > a:
                    a = v
                    if v >= beta:
                        return best
    if best == -INF:  # no move: pass (the opponent then has one), or the game is over
        if legal_moves(o, p) == ZERO:
            return final_score(p, o)
        return -solve_shallow(o, p, -beta, -alpha, use_parity, use_stability, stats)
    return best
