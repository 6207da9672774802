"""Othello endgame search with a transposition table, above ``othello_endgame.solve_shallow``.

PROVISIONAL: this is Othello's own small numba negamax, written while the generic compiled
template (``compiled/template.py``, DESIGN.md §5) did not exist yet.  It is kept apart so that
it can be replaced by the template specialised with Othello's kernels plus the hooks it needs:
move scores (fastest-first), a pre-node cut-off (stability) and an exact leaf solver for few
empties (``solve_shallow``).

Every technique is a switch in ``cfg`` so that each can be measured alone (bench/othello.py):

* ``TT`` — a two-slot bucket table of exact keys (both bitboards) with lower/upper bounds and
  the best move; the deeper (more empties) entry is kept, the other slot always replaced;
* ``ORDER`` — 0: board order; 1: fastest-first (fewest opponent replies, corners counted twice,
  Zebra/Edax's "mobility" ordering), TT move first either way;
* ``PARITY`` — odd-quadrant moves first (shallow) and a small bonus (deep);
* ``STABILITY`` — stability cut-off: value <= 64 - 2 * (opponent's stable discs);
* ``SHALLOW`` — the number of empties at and below which ``solve_shallow`` takes over;
* ``PVS`` — null-window scouting of the later moves.

Values are final disc differences for the side to move, fail-soft.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sakiyomi.compiled.bits import lowest_bit, njit, popcount
from sakiyomi.compiled.othello_endgame import (
    INF,
    LEAVES,
    N_STATS,
    NODES,
    STABILITY_MIN_ALPHA,
    odd_quadrants,
    solve_shallow,
    stability_bound,
)
from sakiyomi.compiled.othello_kernels import (
    CORNERS,
    ONE,
    PASS,
    U64,
    ZERO,
    final_score,
    flips,
    legal_moves,
)

# cfg slots
TT, ORDER, PARITY, STABILITY, SHALLOW, PVS = range(6)
N_CFG = 8
# stats slots after othello_endgame's
TT_PROBES, TT_HITS, TT_CUTS, BEST_MOVE = N_STATS, N_STATS + 1, N_STATS + 2, N_STATS + 3
STAB_TRIES, STAB_CUTS = N_STATS + 4, N_STATS + 5
N_ALL_STATS = N_STATS + 8
MAX_MOVES = 34  # at most 33 legal moves in Othello, plus room
MAX_DEPTH = 64
HASH_K1 = U64(0x9E3779B97F4A7C15)
HASH_K2 = U64(0xC2B2AE3D27D4EB4F)
SHIFT = U64(32)
# TT data columns
LO, HI, MOVE, EMPTIES = 0, 1, 2, 3


def default_config(tt: bool = True, order: int = 1, parity: bool = True,
                   stability: bool = True, shallow: int = 6, pvs: bool = True) -> Any:
    """The switches as the int64 array the kernels read (all techniques on by default)."""
    cfg = np.zeros(N_CFG, dtype=np.int64)
    cfg[TT], cfg[ORDER], cfg[PARITY] = int(tt), order, int(parity)
    cfg[STABILITY], cfg[SHALLOW], cfg[PVS] = int(stability), shallow, int(pvs)
    return cfg


def new_table(bits: int = 20) -> tuple[Any, Any]:
    """An empty table of 2**bits entries: keys (uint64 pairs) and data (lo, hi, move, empties)."""
    keys = np.zeros((1 << bits, 2), dtype=np.uint64)
    data = np.zeros((1 << bits, 4), dtype=np.int8)
    data[:, EMPTIES] = -1  # never matches (an all-zero key is not a position either)
    return keys, data


@njit
def _bucket(p: Any, o: Any, size: Any) -> Any:
    h = (p * HASH_K1) ^ (o * HASH_K2)
    h ^= h >> SHIFT
    return np.int64(h & U64(size - 2))


@njit
def tt_store(keys: Any, data: Any, p: Any, o: Any, n: Any, lo: Any, hi: Any, move: Any) -> None:
    """Record bounds; merge them with an entry of the same position, else replace a slot."""
    i = _bucket(p, o, keys.shape[0])
    slot = -1
    for j in range(i, i + 2):
        if keys[j, 0] == p and keys[j, 1] == o and data[j, EMPTIES] == n:
            slot = j
            lo = max(lo, np.int64(data[j, LO]))
            hi = min(hi, np.int64(data[j, HI]))
            break
    if slot < 0:
        slot = i if data[i, EMPTIES] <= n else i + 1
    keys[slot, 0] = p
    keys[slot, 1] = o
    data[slot, LO] = lo
    data[slot, HI] = hi
    data[slot, MOVE] = move
    data[slot, EMPTIES] = n


@njit
def tt_find(keys: Any, data: Any, p: Any, o: Any, n: Any) -> Any:
    """Row of the entry for this position, or -1."""
    i = _bucket(p, o, keys.shape[0])
    for j in range(i, i + 2):
        if keys[j, 0] == p and keys[j, 1] == o and data[j, EMPTIES] == n:
            return j
    return -1


@njit
def _order_score(p: Any, o: Any, sq: Any, f: Any, odd: Any, mode: Any, use_parity: Any) -> Any:
    """Higher is searched first: fewest opponent replies (corner replies count twice)."""
    if mode == 0:
        return np.int64(0)
    bit = ONE << U64(sq)
    replies = legal_moves(o ^ f, p | f | bit)
    score = -1024 * (np.int64(popcount(replies)) + np.int64(popcount(replies & CORNERS)))
    if use_parity and odd & bit:
        score += 256
    if CORNERS & bit:
        score += 512
    return score


@njit
def search(p: Any, o: Any, alpha: Any, beta: Any, ply: Any, cfg: Any, keys: Any, data: Any,
           stats: Any, mbuf: Any, sbuf: Any) -> Any:
    """Exact fail-soft negamax value for ``p`` to move; at ply 0 the best move goes to stats."""
    empties = ~(p | o)
    n = np.int64(popcount(empties))
    if n <= cfg[SHALLOW] and ply > 0:
        return solve_shallow(p, o, alpha, beta, cfg[PARITY], cfg[STABILITY], stats)
    stats[NODES] += 1
    if n == 0:
        stats[LEAVES] += 1
        return final_score(p, o)
    if cfg[STABILITY] and alpha >= STABILITY_MIN_ALPHA[n]:
        stats[STAB_TRIES] += 1
        bound = stability_bound(p, o)
        if bound <= alpha:
            stats[STAB_CUTS] += 1
            stats[LEAVES] += 1
            return bound
    moves = legal_moves(p, o)
    if moves == ZERO:
        if legal_moves(o, p) == ZERO:
            stats[LEAVES] += 1
            return final_score(p, o)
        v = -search(o, p, -beta, -alpha, ply + 1, cfg, keys, data, stats, mbuf, sbuf)
        if ply == 0:
            stats[BEST_MOVE] = PASS
        return v
    tt_move: Any = -1
    if cfg[TT]:
        stats[TT_PROBES] += 1
        row = tt_find(keys, data, p, o, n)
        if row >= 0:
            stats[TT_HITS] += 1
            tt_move = np.int64(data[row, MOVE])
            lo = np.int64(data[row, LO])
            hi = np.int64(data[row, HI])
            if ply > 0 and (lo >= beta or hi <= alpha or lo == hi):
                stats[TT_CUTS] += 1
                return lo if lo >= beta or lo == hi else hi
    # generate and score the moves into this ply's slice of the buffers
    base = ply * MAX_MOVES
    count = 0
    odd = odd_quadrants(empties)
    todo = moves
    while todo:
        sq = lowest_bit(todo)
        todo &= todo - ONE
        mbuf[base + count] = sq
        if sq == tt_move:
            sbuf[base + count] = 1 << 40
        else:
            sbuf[base + count] = _order_score(p, o, sq, flips(p, o, sq), odd, cfg[ORDER],
                                              cfg[PARITY])
        count += 1
    best = np.int64(-INF)
    best_move = -1
    a = alpha
    for i in range(count):
        # selection sort step: bring the best remaining move to position i
        k = i
        for j in range(i + 1, count):
            if sbuf[base + j] > sbuf[base + k]:
                k = j
        if k != i:
            mbuf[base + i], mbuf[base + k] = mbuf[base + k], mbuf[base + i]
            sbuf[base + i], sbuf[base + k] = sbuf[base + k], sbuf[base + i]
        sq = mbuf[base + i]
        f = flips(p, o, sq)
        np_, no = o ^ f, p | f | (ONE << U64(sq))
        if i == 0 or not cfg[PVS]:
            v = -search(np_, no, -beta, -a, ply + 1, cfg, keys, data, stats, mbuf, sbuf)
        else:
            v = -search(np_, no, -a - 1, -a, ply + 1, cfg, keys, data, stats, mbuf, sbuf)
            if a < v < beta:
                v = -search(np_, no, -beta, -a, ply + 1, cfg, keys, data, stats, mbuf, sbuf)
        if v > best:
            best = v
            best_move = sq
            if v > a:
                a = v
                if v >= beta:
                    break
    if ply == 0:
        stats[BEST_MOVE] = best_move
    if cfg[TT]:
        lo = best if best > alpha else np.int64(-64)
        hi = best if best < beta else np.int64(64)
        tt_store(keys, data, p, o, n, lo, hi, best_move)
    return best


def new_buffers() -> tuple[Any, Any, Any]:
    """Statistics and the per-ply move/score buffers a search needs."""
    stats = np.zeros(N_ALL_STATS, dtype=np.int64)
    mbuf = np.zeros(MAX_DEPTH * 2 * MAX_MOVES, dtype=np.int64)
    sbuf = np.zeros(MAX_DEPTH * 2 * MAX_MOVES, dtype=np.int64)
    return stats, mbuf, sbuf
