"""Othello's specialised last-few-empties solver: @njit kernels below the search's TT layer.

Strong endgame solvers (Zebra, Edax) stop using the hash table and elaborate move ordering a
few empties before the end: there the cost of a node is all that matters.  This module is that
part, as kernels a search calls once ``n_empties <= shallow`` (``solve_shallow``):

* the empty squares are a bitboard, visited **odd quadrants first** (parity ordering: in a
  region with an odd number of empties the side to move can hope for the last move there);
* a move is only tried where it has an opponent neighbour (cheap pre-test) and flips something;
* passes are moves (counted as nodes); two passes end the game, empties go to the winner;
* a node with two empties is unrolled (``solve_two``: both squares in board order, which is
  what parity order gives there), and a three-empty node calls it for its children directly;
* with one empty the score is computed in place from the flip count (``score_last``):
  the position after the last move is not counted as a node (Edax counts the same way);
* an optional stability cut-off (``stability_bound``) in the shallow search.

Node and leaf counts go to ``stats[NODES]`` and ``stats[LEAVES]`` (the slots of the compiled
template's counters); the fail-soft contract is the Searcher's (DESIGN.md §4).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sakiyomi.compiled.bits import lowest_bit, njit, popcount
from sakiyomi.games.othello.evaluation import evaluate
from sakiyomi.games.othello.rules import (
    CORNERS,
    NOT_A,
    NOT_H,
    ONE,
    PASS,
    U64,
    ZERO,
    final_score,
    flips,
    legal_moves,
    stable_discs,
)

NODES = 0  # the same slots as the compiled template's counters (nodes, leaves)
LEAVES = 1
N_STATS = 8  # the search module uses the slots after these

INF = 127
EIGHT = U64(8)
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


def _line_flip_counts() -> Any:
    """``LINE_FLIPS[8 * 256 * 0 + 256 * x + line]``: discs turned over along one full line of
    eight by a move at ``x`` (0-7), ``line`` the mover's discs on it (bit ``x`` ignored) and
    every other square the opponent's: the last-empty case, where the board is full but for
    the move.  Squares beyond the end of a short diagonal read as the opponent's, which is
    harmless: a run reaching them also reaches the end of the line, unbracketed.
    """
    out = np.zeros(8 * 256, dtype=np.int64)
    for x in range(8):
        for line in range(256):
            total = 0
            for step in (-1, 1):
                run, i = 0, x + step
                while 0 <= i < 8 and not line >> i & 1:
                    run, i = run + 1, i + step
                if 0 <= i < 8:
                    total += run
            out[256 * x + line] = total
    return out


def _square_lines() -> Any:
    """Per square: the masks of its diagonal (a1-h8 direction) and anti-diagonal."""
    out = np.zeros((2, 64), dtype=np.uint64)
    for sq in range(64):
        f, r = sq % 8, sq // 8
        for k, step in enumerate((9, 7)):
            m = 0
            for j in range(64):
                fj, rj = j % 8, j // 8
                if (step == 9 and fj - rj == f - r) or (step == 7 and fj + rj == f + r):
                    m |= 1 << j
            out[k, sq] = m
    return out


LINE_FLIPS = _line_flip_counts()
SQUARE_LINES = _square_lines()
FILE_A = U64(0x0101010101010101)
BYTE = U64(0xFF)
S3, S7, S14, S16, S28, S32 = U64(3), U64(7), U64(14), U64(16), U64(28), U64(32)
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
def _fold_bytes(x: Any) -> Any:
    """The OR of the eight bytes of ``x``: a diagonal's discs as one bit per file."""
    x |= x >> S32
    x |= x >> S16
    x |= x >> EIGHT
    return x & BYTE


@njit
def _gather_file(x: Any) -> Any:
    """The bits of ``x`` on file a (0, 8, ..., 56) as one byte in rank order, by shifts (a
    multiply would do it in one step, but overflows numpy scalars in the plain build).
    """
    x &= FILE_A
    x |= x >> S7
    x |= x >> S14
    x |= x >> S28
    return x & BYTE


@njit
def count_last_flips(p: Any, sq: Any) -> Any:
    """How many discs a move at ``sq`` turns over for ``p`` when ``sq`` is the only empty
    square (every other square not in ``p`` is the opponent's): the four lines through
    ``sq`` gathered into bytes and looked up in ``LINE_FLIPS``, no direction-by-direction
    scan.
    """
    s = U64(sq)
    f = s & S7
    r = s >> S3
    x = np.int64(f) << 8
    n = LINE_FLIPS[x + np.int64((p >> (r << S3)) & BYTE)]
    n += LINE_FLIPS[(np.int64(r) << 8) + np.int64(_gather_file(p >> f))]
    n += LINE_FLIPS[x + np.int64(_fold_bytes(p & SQUARE_LINES[0, sq]))]
    n += LINE_FLIPS[x + np.int64(_fold_bytes(p & SQUARE_LINES[1, sq]))]
    return n


@njit
def score_last(p: Any, o: Any, sq: Any) -> Any:
    """Exact final score for ``p`` with one empty square ``sq`` left (both orders tried):
    flip counts from ``count_last_flips``, the discs themselves are never computed.
    """
    n = np.int64(popcount(p))
    c = count_last_flips(p, sq)
    if c:
        return 2 * (n + c + 1) - 64
    c = count_last_flips(o, sq)
    if c:
        return 2 * (n - c) - 64
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
        stats[LEAVES] += 1
        return score_last(p, o, lowest_bit(empties))
    if n == 2:
        return solve_two(p, o, empties, alpha, beta, stats)
    if n == 3:
        return solve_three(p, o, empties, alpha, beta, use_parity, stats)
    if use_stability and alpha >= STABILITY_MIN_ALPHA[n]:
        bound = stability_bound(p, o)
        if bound <= alpha:
            stats[LEAVES] += 1
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
            if n == 4:  # the child has three empties: straight to solve_three (counted)
                stats[NODES] += 1
                v = -solve_three(o ^ f, p | f | (ONE << U64(sq)), empties & ~(ONE << U64(sq)),
                                 -beta, -a, use_parity, stats)
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
            stats[LEAVES] += 1
            return final_score(p, o)
        return -solve_shallow(o, p, -beta, -alpha, use_parity, use_stability, stats)
    return best


@njit
def solve_two(p: Any, o: Any, empties: Any, alpha: Any, beta: Any, stats: Any) -> Any:
    """``solve_shallow`` with two empties (its node already counted), unrolled: the squares in
    board order (parity cannot tell them apart: they are both odd or both even), no stability
    test (never tried below four empties), each child scored in place (counted as a node).
    """
    x1 = lowest_bit(empties)
    x2 = lowest_bit(empties & (empties - ONE))
    best = np.int64(-INF)
    if NEIGHBOUR[x1] & o:
        f = flips(p, o, x1)
        if f:
            stats[NODES] += 1
            stats[LEAVES] += 1
            best = -score_last(o ^ f, p | f | (ONE << U64(x1)), x2)
            if best >= beta:
                return best
    if NEIGHBOUR[x2] & o:
        f = flips(p, o, x2)
        if f:
            stats[NODES] += 1
            stats[LEAVES] += 1
            v = -score_last(o ^ f, p | f | (ONE << U64(x2)), x1)
            if v > best:
                best = v
    if best == -INF:  # no move: pass (the opponent then has one), or the game is over
        if legal_moves(o, p) == ZERO:
            stats[LEAVES] += 1
            return final_score(p, o)
        stats[NODES] += 1  # the opponent's node (self-recursion only: numba's disk cache
        return -solve_two(o, p, empties, -beta, -alpha, stats)  # breaks mutual recursion)
    return best


@njit
def _quadrant(sq: Any) -> Any:
    """Which of ``QUADRANTS`` holds ``sq`` (0-3)."""
    return ((sq >> 2) & 1) | ((sq >> 4) & 2)


@njit
def solve_three(p: Any, o: Any, empties: Any, alpha: Any, beta: Any, use_parity: Any,
                stats: Any) -> Any:
    """``solve_shallow`` with three empties (its node already counted), unrolled: no move
    list, no quadrant masks.  The order is the general loop's: squares in odd quadrants first,
    each group in board order, which for three empties means the lone square of a quadrant
    goes first when the other two share one; each child goes straight to ``solve_two``.
    """
    x1 = lowest_bit(empties)
    rest = empties & (empties - ONE)
    x2 = lowest_bit(rest)
    x3 = lowest_bit(rest & (rest - ONE))
    if use_parity:
        q1, q2, q3 = _quadrant(x1), _quadrant(x2), _quadrant(x3)
        if q1 == q2 and q3 != q1:  # x3 alone in its quadrant
            x1, x2, x3 = x3, x1, x2
        elif q1 == q3 and q2 != q1:  # x2 alone (x1 and x3 share a quadrant)
            x1, x2 = x2, x1
        # q2 == q3 != q1: x1 alone, already first; all apart or all together: board order
    best = np.int64(-INF)
    a = alpha
    for i in range(3):
        sq = x1 if i == 0 else (x2 if i == 1 else x3)
        if not NEIGHBOUR[sq] & o:
            continue
        f = flips(p, o, sq)
        if f == ZERO:
            continue
        stats[NODES] += 1
        bit = ONE << U64(sq)
        v = -solve_two(o ^ f, p | f | bit, empties & ~bit, -beta, -a, stats)
        if v > best:
            best = v
            if v > a:
                a = v
                if v >= beta:
                    return best
    if best == -INF:  # no move: pass (the opponent then has one), or the game is over
        if legal_moves(o, p) == ZERO:
            stats[LEAVES] += 1
            return final_score(p, o)
        stats[NODES] += 1  # the opponent's node (self-recursion only, as in solve_two)
        return -solve_three(o, p, empties, -beta, -alpha, use_parity, stats)
    return best


MOVE_SLOTS = 34  # room for the moves of one node in the ordering buffer
BUFFER_ROWS = 4  # per move: its square, its ordering score, the discs it flips, the replies


def new_buffer(levels: int = 64) -> Any:
    """Scratch space for ``solve_ordered``: squares, scores, flipped discs and the opponent's
    replies of the moves, per level.
    """
    return np.zeros((BUFFER_ROWS, levels * MOVE_SLOTS), dtype=np.int64)


@njit
def move_hint(p: Any, o: Any, move: Any, use_parity: Any, potential: Any, eval_weight: Any,
              eval_min: Any) -> Any:
    """``move_score`` of one move (0 for a pass), for the search template and the Python game;
    with ``eval_min`` or more empties, less ``eval_weight`` times the evaluation of the position
    after it (``evaluation.evaluate``, in discs, for the opponent, who moves there): near the
    root of a deep solve a node's subtree is large enough to pay for the evaluation, and a move
    that leaves few replies but a strong position for the opponent is seldom the cut-off.
    """
    if move == PASS:
        return np.int64(0)
    empties = ~(p | o)
    odd = odd_quadrants(empties) if use_parity else ZERO
    f = flips(p, o, move)
    bit = ONE << U64(move)
    mine = p | f | bit
    theirs = o ^ f
    score = move_score(mine, theirs, legal_moves(theirs, mine), bit, odd, use_parity, potential)
    if eval_weight and np.int64(popcount(empties)) >= eval_min:
        score -= eval_weight * evaluate(theirs, mine)
    return score


@njit
def neighbours(x: Any) -> Any:
    """The squares next to any square of ``x`` (in the eight directions), ``x`` left out."""
    h = ((x >> ONE) & NOT_H) | ((x << ONE) & NOT_A)
    row = x | h
    return (h | (row << EIGHT) | (row >> EIGHT)) & ~x


@njit
def move_score(mine: Any, theirs: Any, replies: Any, bit: Any, odd: Any, use_parity: Any,
               potential: Any) -> Any:
    """Fastest-first score of the move on ``bit`` that left the mover with ``mine`` and the
    opponent with ``theirs`` and ``replies`` (their legal moves, which the caller keeps for the
    child): fewer replies (corner replies twice), with weight ``potential`` fewer empty squares
    next to the mover's discs (the opponent's potential mobility), corners, odd regions.
    """
    score = -4 * (np.int64(popcount(replies)) + np.int64(popcount(replies & CORNERS)))
    if potential:
        score -= potential * np.int64(popcount(neighbours(mine) & ~(mine | theirs)))
    if bit & CORNERS:
        score += 2
    if use_parity and bit & odd:
        score += 1
    return score


@njit
def solve_ordered(p: Any, o: Any, moves: Any, alpha: Any, beta: Any, shallow: Any,
                  use_parity: Any, use_stability: Any, fastest: Any, buf: Any, level: Any,
                  stats: Any, potential: Any) -> Any:
    """Exact fail-soft value without TT but with fastest-first ordering (``fastest``; else
    board order; ``potential``: ``move_score``'s weight), down to ``shallow`` empties where
    ``solve_shallow`` (parity order) takes over.  ``moves``: ``legal_moves(p, o)`` as a uint64
    (a Python int would compile an int64 variant), which the parent computed to order this
    node (not read at ``shallow`` empties or fewer).
    """
    empties = ~(p | o)
    n = np.int64(popcount(empties))
    if n <= shallow:
        return solve_shallow(p, o, alpha, beta, use_parity, use_stability, stats)
    stats[NODES] += 1
    if use_stability and alpha >= STABILITY_MIN_ALPHA[n]:
        bound = stability_bound(p, o)
        if bound <= alpha:
            stats[LEAVES] += 1
            return bound
    if moves == ZERO:
        replies = legal_moves(o, p)
        if replies == ZERO:
            stats[LEAVES] += 1
            return final_score(p, o)
        return -solve_ordered(o, p, replies, -beta, -alpha, shallow, use_parity,
                              use_stability, fastest, buf, level + 1, stats, potential)
    base = level * MOVE_SLOTS
    sqs = buf[0]
    scores = buf[1]
    flipped = buf[2].view(U64)  # each move's flips, computed once for its score and its play
    answers = buf[3].view(U64)  # the opponent's moves after it: the child's ``moves``
    odd = odd_quadrants(empties) if use_parity else ZERO
    count = 0
    while moves:
        sq = lowest_bit(moves)
        moves &= moves - ONE
        f = flips(p, o, sq)
        bit = ONE << U64(sq)
        mine = p | f | bit
        replies = legal_moves(o ^ f, mine)
        sqs[base + count] = sq
        flipped[base + count] = f
        answers[base + count] = replies
        scores[base + count] = (move_score(mine, o ^ f, replies, bit, odd, use_parity,
                                           potential) if fastest else 0)
        count += 1
    best = np.int64(-INF)
    a = alpha
    for i in range(count):
        k = base + i
        for j in range(base + i + 1, base + count):
            if scores[j] > scores[k]:
                k = j
        sq = sqs[k]
        f = flipped[k]
        replies = answers[k]
        sqs[k] = sqs[base + i]
        scores[k] = scores[base + i]
        flipped[k] = flipped[base + i]
        answers[k] = answers[base + i]
        v = -solve_ordered(o ^ f, p | f | (ONE << U64(sq)), replies, -beta, -a, shallow,
                           use_parity, use_stability, fastest, buf, level + 1, stats, potential)
        if v > best:
            best = v
            if v > a:
                a = v
                if v >= beta:
                    return best
    return best
