"""Othello rules as @njit bitboard kernels, shared by the Python game and the compiled search.

A position is two uint64 words ``(p, o)``: the discs of the side to move and of the opponent.
Square ``i = 8 * rank0 + file0`` (a1 = 0, h1 = 7, a8 = 56, h8 = 63), the order of the OBF board
string.  Legal moves are grown with shifts in the eight directions (a fill that doubles its
step), flips found with one bit scan per ray (``RAYS``); a pass is the move ``PASS`` (64) and
swaps the words.  Every integer constant that meets a uint64 is itself a uint64 (numba would
otherwise turn the expression into int64).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sakiyomi.compiled.bits import highest_bit, lowest_bit, njit, popcount

U64 = np.uint64
PASS = 64
ZERO = U64(0)
ONE = U64(1)
FULL = U64(0xFFFFFFFFFFFFFFFF)
S1, S7, S8, S9 = U64(1), U64(7), U64(8), U64(9)
NOT_A = U64(0xFEFEFEFEFEFEFEFE)  # every square but file a
NOT_H = U64(0x7F7F7F7F7F7F7F7F)  # every square but file h
INNER_H = U64(0x7E7E7E7E7E7E7E7E)  # files b-g: where a horizontal line can be flipped
INNER_V = U64(0x00FFFFFFFFFFFF00)  # ranks 2-7
INNER_D = U64(0x007E7E7E7E7E7E00)  # not on the border
FILE_A = U64(0x0101010101010101)
EDGE_H = U64(0x8181818181818181)  # files a and h: safe along a rank
EDGE_V = U64(0xFF000000000000FF)  # ranks 1 and 8: safe along a file
BORDER = U64(0xFF818181818181FF)  # safe along both diagonals
CORNERS = U64(0x8100000000000081)
START_BLACK = U64((1 << 28) | (1 << 35))  # e4, d5
START_WHITE = U64((1 << 27) | (1 << 36))  # d4, e5


MIX1 = U64(0xFF51AFD7ED558CCD)
MIX2 = U64(0xC4CEB9FE1A85EC53)
S33 = U64(33)


def _diagonals(step: int) -> Any:
    """Masks of the 15 diagonals (step 9: a1-h8 direction) or anti-diagonals (step 7)."""
    masks = []
    for k in range(-7, 8):
        m = 0
        for sq in range(64):
            f, r = sq % 8, sq // 8
            if (step == 9 and f - r == k) or (step == 7 and f + r == k + 7):
                m |= 1 << sq
        masks.append(m)
    return np.array(masks, dtype=np.uint64)


DIAG9 = _diagonals(9)
DIAG7 = _diagonals(7)


def _rays() -> Any:
    """``RAYS[8 * sq + k]``: the squares from ``sq`` (left out) to the board's edge in
    direction ``k``; ``k`` 0-3 go towards higher square numbers (east, north, north-east,
    north-west), 4-7 towards lower ones (west, south, south-west, south-east).
    """
    steps = ((1, 0), (0, 1), (1, 1), (-1, 1), (-1, 0), (0, -1), (-1, -1), (1, -1))
    out = np.zeros(8 * 64, dtype=np.uint64)
    for sq in range(64):
        for k, (df, dr) in enumerate(steps):
            m, f, r = 0, sq % 8 + df, sq // 8 + dr
            while 0 <= f < 8 and 0 <= r < 8:
                m |= 1 << (8 * r + f)
                f, r = f + df, r + dr
            out[8 * sq + k] = m
    return out


RAYS = _rays()
TOP = U64(1 << 63)


@njit
def _direction_moves(p: Any, m: Any, d: Any) -> Any:
    """Squares from which a line of ``m`` (the opponent's discs that can be flipped along this
    direction) runs to a disc of ``p``, shifting by ``d`` both ways.  Runs of up to six are
    grown in four steps, the last two doubling (``m & (m << d)``: two flippable discs in a row).
    """
    d2 = d + d
    t = m & (p << d)
    t |= m & (t << d)
    pairs = m & (m << d)
    t |= pairs & (t << d2)
    t |= pairs & (t << d2)
    moves = t << d
    t = m & (p >> d)
    t |= m & (t >> d)
    pairs >>= d
    t |= pairs & (t >> d2)
    t |= pairs & (t >> d2)
    return moves | (t >> d)


@njit
def legal_moves(p: Any, o: Any) -> Any:
    """Bitboard of the squares where the side owning ``p`` may play."""
    moves = _direction_moves(p, o & INNER_H, S1)
    moves |= _direction_moves(p, o & INNER_V, S8)
    m = o & INNER_D
    moves |= _direction_moves(p, m, S7)
    moves |= _direction_moves(p, m, S9)
    return moves & ~(p | o)


@njit
def flips(p: Any, o: Any, sq: Any) -> Any:
    """Discs of ``o`` turned over when the owner of ``p`` plays on the empty square ``sq``.

    Along each ray from ``sq`` (``RAYS``) the first square that is not the opponent's is found
    with one bit scan (a sentinel bit makes the scan total); when it holds one of ours, the
    ray's squares before it are flipped.  No loop over the run, no data-dependent shift
    count: about twice as fast as growing each run a step at a time.  Zero means the move is
    illegal.
    """
    base = 8 * np.int64(sq)
    result = ZERO
    for k in range(4):  # towards higher squares: the nearest blocker is the lowest bit
        r = RAYS[base + k]
        first = ONE << U64(lowest_bit((r & ~o) | TOP))
        if first & p & r:
            result |= (first - ONE) & r
    for k in range(4, 8):  # towards lower squares: the highest bit
        r = RAYS[base + k]
        first = ONE << U64(highest_bit((r & ~o) | ONE))
        if first & p & r:
            result |= r & ~(first | (first - ONE))
    return result


@njit
def final_score(p: Any, o: Any) -> Any:
    """Disc difference for the owner of ``p`` in a finished game; empties go to the winner."""
    np_ = popcount(p)
    no = popcount(o)
    diff = np.int64(np_) - np.int64(no)
    empties = 64 - np.int64(np_) - np.int64(no)
    if diff > 0:
        return diff + empties
    if diff < 0:
        return diff - empties
    return diff


@njit
def full_lines(occ: Any) -> Any:
    """Masks of the squares whose rank, file, diagonal and anti-diagonal are completely filled."""
    f = occ & (occ >> U64(4))
    f &= f >> U64(2)
    f &= f >> S1
    h = (f & FILE_A) * U64(0xFF)
    f = occ & (occ >> U64(32))
    f &= f >> U64(16)
    f &= f >> S8
    v = (f & U64(0xFF)) * FILE_A
    d9 = ZERO
    for i in range(15):
        m = DIAG9[i]
        if occ & m == m:
            d9 |= m
    d7 = ZERO
    for i in range(15):
        m = DIAG7[i]
        if occ & m == m:
            d7 |= m
    return h, v, d9, d7


@njit
def stable_discs(p: Any, o: Any) -> Any:
    """A subset of ``p``'s discs that can never be flipped (a lower bound on stability).

    A disc is stable when, along each of its four lines, the line is full, or it sits on the
    border across that line, or its neighbour on that line is one of its own stable discs
    (then no run through it can be bracketed).  Iterated to a fixed point from nothing.
    """
    h, v, d9, d7 = full_lines(p | o)
    h |= EDGE_H
    v |= EDGE_V
    d9 |= BORDER
    d7 |= BORDER
    stable = ZERO
    while True:
        hs = h | ((stable << S1) & NOT_A) | ((stable >> S1) & NOT_H)
        vs = v | (stable << S8) | (stable >> S8)
        d9s = d9 | ((stable << S9) & NOT_A) | ((stable >> S9) & NOT_H)
        d7s = d7 | ((stable << S7) & NOT_H) | ((stable >> S7) & NOT_A)
        new = p & hs & vs & d9s & d7s
        if new == stable:
            return stable
        stable = new


@njit
def perft(p: Any, o: Any, depth: Any) -> Any:
    """Leaf count ``depth`` plies deep; a forced pass is a move; finished games count 0
    (convention A of the data README: OEIS A124004 / Edax ``-count games``).
    """
    if depth == 0:
        return np.int64(1)
    moves = legal_moves(p, o)
    if moves == ZERO:
        if legal_moves(o, p) == ZERO:
            return np.int64(0)
        return perft(o, p, depth - 1)
    if depth == 1:
        return np.int64(popcount(moves))
    total = np.int64(0)
    while moves:
        sq = lowest_bit(moves)
        moves &= moves - ONE
        f = flips(p, o, sq)
        total += perft(o ^ f, p | f | (ONE << U64(sq)), depth - 1)
    return total


@njit
def fmix(h: Any) -> Any:
    """MurmurHash3's 64-bit finaliser: every input bit affects every output bit."""
    h ^= h >> S33
    h *= MIX1
    h ^= h >> S33
    h *= MIX2
    h ^= h >> S33
    return h


@njit
def position_key(p: Any, o: Any) -> Any:
    """A 64-bit hash of a position seen from the side to move (``p`` to move).

    A position takes 128 bits, so this is not a perfect key: two positions share a key only
    when fmix(p) ^ fmix(p') == o ^ o', about as likely as a Zobrist collision.  (A first
    ``p * K1 ^ o * K2`` did collide within one FFO solve and gave a wrong value.)  Colour-swapped
    positions with the other side to move share the key, and rightly: their values are equal.
    """
    return fmix(fmix(p) ^ o)
