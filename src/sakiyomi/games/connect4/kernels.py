"""Connect Four kernels: the rules on bitboards, written once for the Python game and numba.

This module is valid Python as it stands (a 7×6 board, plain ints) and is also the *kernel
source* that ``sakiyomi.compiled.template`` specialises: everything below the ``KERNELS``
marker is copied after a header that sets ``WIDTH``, ``HEIGHT``, ``U`` (``int`` or
``numpy.uint64``) and ``kernel`` (identity or ``numba.njit(cache=True)``).  So the Python
``games.connect4.Connect4`` and the compiled solver run the same rule code.

Bitboard layout (Pascal Pons's, blog.gamesolver.org part 6): one bit per cell, column by
column from the left, ``HEIGHT + 1`` bits per column, bottom cell first; the extra top bit of
each column is a sentinel that is never set, so shifts cannot carry one column into the next::

        col 0  1  2  3  4  5  6
          .  .  .  .  .  .  .        sentinel row (6, 13, 20, ...)
          5 12 19 26 33 40 47        top row
          4 11 18 25 32 39 46
          3 10 17 24 31 38 45
          2  9 16 23 30 37 44
          1  8 15 22 29 36 43
          0  7 14 21 28 35 42        bottom row

A state is ``(current, mask, n)``: the side to move's stones, all stones, stones played.
Any board with ``WIDTH * (HEIGHT + 1) <= 64`` fits.  Scores follow Pons: a side that wins
with its k-th stone scores ``(W*H)/2 + 1 - k`` (22 - k on 7×6); the loser the opposite; draw 0.

Kernel interface the template expects (see ``sakiyomi.compiled.template``):
``MAX_MOVES, MOVE_LIMIT, PLY_LIMIT, HAS_HINTS, HAS_SHORTCUTS`` constants and
``k_outcome, k_key, k_legal_moves, k_search_moves, k_bounds, k_score_bounds, k_hint, k_play,
k_evaluate`` plus the plain function ``make_state``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

WIDTH = 7
HEIGHT = 6
U: Callable[[int], Any] = int


def kernel(function: F) -> F:
    """Plain-Python stand-in for ``numba.njit(cache=True)`` (the generated header replaces it)."""
    return function


# ---- KERNELS (copied into generated modules from here on) ----

H1 = HEIGHT + 1
CELLS = WIDTH * HEIGHT
if WIDTH * H1 > 64 or WIDTH < 1 or HEIGHT < 1:
    raise ValueError(f"a {WIDTH}x{HEIGHT} board does not fit in 64 bits")
MAX_MOVES = WIDTH
MOVE_LIMIT = WIDTH
PLY_LIMIT = CELLS + 1
HAS_HINTS = True
HAS_SHORTCUTS = True
_BOTTOM_INT = sum(1 << (c * H1) for c in range(WIDTH))
BOTTOM = U(_BOTTOM_INT)
BOARD = U(_BOTTOM_INT * ((1 << HEIGHT) - 1))
ZERO = U(0)
ONE = U(1)
KEY_MIX = U(0x9E3779B97F4A7C15)  # odd: multiplying by it mod 2**64 is a bijection
WORD = U((1 << 64) - 1)
HALF = U(32)
TWO, FOUR, BYTE7 = U(2), U(4), U(56)
M1, M2, M4 = U(0x5555555555555555), U(0x3333333333333333), U(0x0F0F0F0F0F0F0F0F)
H01 = U(0x0101010101010101)
# Columns searched centre first (3, 2, 4, 1, 5, 0, 6 on a 7-wide board).
ORDER = tuple(WIDTH // 2 + (1 - 2 * (i % 2)) * ((i + 1) // 2) for i in range(WIDTH))
TOP_CELL = tuple(U(1 << (HEIGHT - 1 + c * H1)) for c in range(WIDTH))
BOTTOM_CELL = tuple(U(1 << (c * H1)) for c in range(WIDTH))
COLUMN = tuple(U(((1 << HEIGHT) - 1) << (c * H1)) for c in range(WIDTH))
# Shift distances of the four directions: vertical, horizontal, the two diagonals.
SHIFTS = (U(1), U(H1), U(HEIGHT), U(HEIGHT + 2))
SHIFTS2 = (U(2), U(2 * H1), U(2 * HEIGHT), U(2 * (HEIGHT + 2)))
SHIFTS3 = (U(3), U(3 * H1), U(3 * HEIGHT), U(3 * (HEIGHT + 2)))


def make_state(current: int, mask: int, n: int) -> tuple[Any, Any, int]:
    """A kernel state from Python ints (the compiled build needs uint64 words)."""
    return (U(current), U(mask), n)


# The four directions' shifts by one, two and three cells, named for the unrolled kernels:
# vertical, horizontal, and the two diagonals.
S_V, S_V2, S_V3 = SHIFTS[0], SHIFTS2[0], SHIFTS3[0]
S_H, S_H2, S_H3 = SHIFTS[1], SHIFTS2[1], SHIFTS3[1]
S_D, S_D2, S_D3 = SHIFTS[2], SHIFTS2[2], SHIFTS3[2]
S_A, S_A2, S_A3 = SHIFTS[3], SHIFTS2[3], SHIFTS3[3]


@kernel
def k_aligned(stones: Any) -> bool:
    """True when ``stones`` hold four in a row in some direction (unrolled: this runs at
    every node of the Python engine, where a loop over the directions costs twice as much).
    """
    m = stones & (stones >> S_V)
    if m & (m >> S_V2):
        return True
    m = stones & (stones >> S_H)
    if m & (m >> S_H2):
        return True
    m = stones & (stones >> S_D)
    if m & (m >> S_D2):
        return True
    m = stones & (stones >> S_A)
    return bool(m & (m >> S_A2))


@kernel
def k_winning_cells(stones: Any, mask: Any) -> Any:
    """Empty cells (anywhere, not only playable) that would complete four for ``stones``.

    Vertically only three stones below count; along the other three directions a cell wins
    with three in a row on one side, or two on one side and one on the other (``p`` holds
    the cells with two neighbours on one side).  Unrolled, each shift computed once: the
    Python engine calls this several times per node.
    """
    r = (stones << S_V) & (stones << S_V2) & (stones << S_V3)
    left, right = stones << S_H, stones >> S_H
    p = left & (stones << S_H2)
    r |= p & ((stones << S_H3) | right)
    p = right & (stones >> S_H2)
    r |= p & (left | (stones >> S_H3))
    left, right = stones << S_D, stones >> S_D
    p = left & (stones << S_D2)
    r |= p & ((stones << S_D3) | right)
    p = right & (stones >> S_D2)
    r |= p & (left | (stones >> S_D3))
    left, right = stones << S_A, stones >> S_A
    p = left & (stones << S_A2)
    r |= p & ((stones << S_A3) | right)
    p = right & (stones >> S_A2)
    r |= p & (left | (stones >> S_A3))
    return r & (BOARD ^ mask)


@kernel
def k_possible(mask: Any) -> Any:
    """The playable cell of every column that is not full."""
    return ((mask + BOTTOM) & WORD) & BOARD


@kernel
def k_popcount(x: Any) -> int:
    """Number of set bits (SWAR: constant time, no loop)."""
    x = x - ((x >> ONE) & M1)
    x = (x & M2) + ((x >> TWO) & M2)
    x = (x + (x >> FOUR)) & M4
    return int(((x * H01) & WORD) >> BYTE7)


@kernel
def k_parry(possible: Any, threats: Any) -> Any:
    """The cells of ``possible`` (the playable ones) that do not hand the opponent, whose
    winning cells are ``threats``, an immediate win (0 if none): the one threat to block if
    there is one, and never the cell below one of theirs.
    """
    forced = possible & threats
    if forced:
        if forced & (forced - ONE):
            return ZERO  # two threats to parry at once: every move loses
        possible = forced
    return possible & ~(threats >> ONE)


@kernel
def k_nonlosing(state: tuple[Any, Any, int]) -> Any:
    """Playable cells that do not hand the opponent an immediate win (0 if none)."""
    cur, mask, _ = state
    return k_parry(k_possible(mask), k_winning_cells(cur ^ mask, mask))


@kernel
def k_outcome(state: tuple[Any, Any, int], ply: int) -> tuple[bool, int]:
    """(finished, value for the side to move): the last move made four, or the board is full."""
    cur, mask, n = state
    if k_aligned(cur ^ mask):
        return True, -((CELLS + 2 - n) // 2)
    if n >= CELLS:
        return True, 0
    return False, 0


@kernel
def k_key(state: tuple[Any, Any, int]) -> Any:
    """Perfect key: current + mask + bottom is unique per position; mixed so that its low
    bits (the table slot) depend on every cell: times an odd factor, then xor the high half
    down (both steps are bijections of 64-bit words).
    """
    cur, mask, _ = state
    m = ((cur + mask + BOTTOM) * KEY_MIX) & WORD
    return m ^ (m >> HALF)


@kernel
def k_play(state: tuple[Any, Any, int], col: int) -> tuple[Any, Any, int]:
    """Drop a stone in column ``col`` (0-based); the other side is then to move."""
    cur, mask, n = state
    return (cur ^ mask, mask | ((mask + BOTTOM_CELL[col]) & WORD), n + 1)


@kernel
def k_legal_moves(state: tuple[Any, Any, int], out: Any, base: int) -> int:
    """Write the columns that are not full, centre first, at ``out[base:]``; return how many."""
    cur, mask, n = state
    if n >= CELLS or k_aligned(cur ^ mask):
        return 0
    count = 0
    for i in range(WIDTH):
        col = ORDER[i]
        if not (mask & TOP_CELL[col]):
            out[base + count] = col
            count += 1
    return count


@kernel
def k_search_moves(state: tuple[Any, Any, int], out: Any, base: int) -> int:
    """Moves worth searching, centre first: the winning ones if any, else those that do not
    lose at once, else (all lose) every legal move.  Always contains a best move.
    """
    cur, mask, _ = state
    possible = k_possible(mask)
    wins = k_winning_cells(cur, mask) & possible
    if not wins:
        wins = k_nonlosing(state)
        if not wins:
            wins = possible
    return k_write_columns(wins, out, base)


@kernel
def k_write_columns(cells: Any, out: Any, base: int) -> int:
    """The columns holding a cell of ``cells``, centre first, written at ``out[base:]``;
    returns how many.
    """
    count = 0
    for i in range(WIDTH):
        col = ORDER[i]
        if cells & COLUMN[col]:
            out[base + count] = col
            count += 1
    return count


@kernel
def k_bounds(state: tuple[Any, Any, int], ply: int) -> tuple[int, int]:
    """(lo, hi) around the exact value of a position reached by a searched move (lo == hi: the
    value is known without search).  Pons's solver: a win at once, all moves losing, two or
    fewer cells left; otherwise nobody can win within one move each.
    """
    cur, mask, n = state
    possible = k_possible(mask)
    if k_winning_cells(cur, mask) & possible:
        return k_window(True, possible, n)
    return k_window(False, k_nonlosing(state), n)


@kernel
def k_window(wins: bool, parries: Any, n: int) -> tuple[int, int]:
    """``k_bounds``'s answer once it is known whether the mover wins at once (``wins``) and,
    if not, which moves do not lose at once (``parries``, 0: none), ``n`` stones in.
    """
    if wins:
        v = (CELLS + 1 - n) // 2
        return v, v
    if not parries:
        v = -((CELLS - n) // 2)
        return v, v
    if n >= CELLS - 2:
        return 0, 0
    return -((CELLS - 2 - n) // 2), (CELLS - 1 - n) // 2


HAS_BOUNDS_MOVES = True
PREFETCH_CHILDREN = True  # the solver's table (256 MiB) is 8x the cache: every probe misses


@kernel
def k_bounds_moves(state: tuple[Any, Any, int], ply: int, out: Any,
                   base: int) -> tuple[int, int, int]:
    """``k_bounds`` and, when the value stays open, ``k_search_moves`` in one pass (the
    template's hook below the root): the opponent's winning cells computed once, where the
    two kernels computed them twice.  Returns (lo, hi, count), count -1 when no moves were
    written.

    Two plies or more below the root, the side to move cannot win at once: the node above
    was left open by this kernel, so its moves were the non-losing ones (Pons's solver relies
    on the same fact).  Only at ply 1 (the root's moves may all lose) is that checked, which
    saves the mover's winning cells at nearly every node; the answers are k_bounds's.
    """
    cur, mask, n = state
    possible = k_possible(mask)
    if ply <= 1 and k_winning_cells(cur, mask) & possible:
        v = (CELLS + 1 - n) // 2
        return v, v, -1
    # k_parry and k_window written out: the one kernel at every solver node, kept as measured.
    threats = k_winning_cells(cur ^ mask, mask)
    forced = possible & threats
    moves = possible
    if forced:
        moves = ZERO if forced & (forced - ONE) else forced
    moves &= ~(threats >> ONE)
    if not moves:
        v = -((CELLS - n) // 2)
        return v, v, -1
    if n >= CELLS - 2:
        return 0, 0, -1
    count = k_write_columns(moves, out, base)
    return -((CELLS - 2 - n) // 2), (CELLS - 1 - n) // 2, count


@kernel
def k_score_bounds(state: tuple[Any, Any, int]) -> tuple[int, int]:
    """The solver's starting window at the root (Pons's ``solve``)."""
    n = state[2]
    return -((CELLS - n) // 2), (CELLS + 1 - n) // 2


TABLE_OFFSET = 14  # a solve's table bits: (empty cells + TABLE_OFFSET) // 2 (k_table_bits)
TABLE_MIN_BITS = 12


@kernel
def k_table_bits(state: tuple[Any, Any, int]) -> int:
    """Table slots a solve may use, as a power of two: (empty cells + ``TABLE_OFFSET``) // 2,
    at least ``TABLE_MIN_BITS``.  With the default offset 14: 2**18 slots (4 MiB) for 22
    empty cells, 2**22 for 30, the whole table (2**24 by the solver's settings) from 34 on.
    A solve's nodes grow 2-3-fold per empty cell, so a few slots per node suffice: on our own
    positions (seeded random games and the drawn ones among them, 22-32 empty cells;
    ``bench/connect4_table.py``) this region costs 1-2 % more nodes than the whole table at
    most and is 5-10 % faster per line (fewer cache and TLB misses), and a batch of mid-game
    lines no longer faults in all 256 MiB.
    """
    return max(TABLE_MIN_BITS, (CELLS - state[2] + TABLE_OFFSET) >> 1)


@kernel
def k_hint(state: tuple[Any, Any, int], col: int) -> int:
    """Ordering hint: how many winning cells the mover would own after playing ``col``."""
    cur, mask, _ = state
    cell = (mask + BOTTOM_CELL[col]) & COLUMN[col]
    return k_popcount(k_winning_cells(cur | cell, mask))


@kernel
def k_evaluate(state: tuple[Any, Any, int]) -> int:
    """Heuristic for depth-limited play: own minus opposing winning cells (small numbers)."""
    cur, mask, _ = state
    return k_popcount(k_winning_cells(cur, mask)) - k_popcount(k_winning_cells(cur ^ mask, mask))


HAS_PARSE = True
SCORE_DIGITS = 6  # a batch line's trailing numbers: at most this many digits (|x| < 10**6)
SPACE, MINUS, PLUS, DIGIT_0, DIGIT_1 = 32, 45, 43, 48, 49


@kernel
def k_parse(text: Any, start: int, end: int) -> tuple[int, tuple[Any, Any, int]]:
    """A batch line ``text[start:end]`` (ASCII bytes, stripped) read in one pass as
    ``game.from_position``'s fast path reads it (Pons's ``mask |= mask + bottom`` per move,
    every check at the end): (0, state) for column digits ``1``..``WIDTH`` that leave an
    unfinished game, optionally followed by space-separated whole numbers (Pons's test files'
    scores); otherwise a nonzero status (1 not a column digit, 2 a column played beyond its
    top, 3 a full board, 4 a four in a row, 5 not numbers after the moves) and the line goes
    to the game's own parser, which names the problem.
    """
    cur = ZERO
    mask = ZERO
    n = 0
    i = start
    while i < end and text[i] != SPACE:
        col = text[i] - DIGIT_1
        if col < 0 or col >= WIDTH:
            return 1, (ZERO, ZERO, 0)
        cur ^= mask
        mask |= mask + BOTTOM_CELL[col]
        n += 1
        i += 1
    if mask & ~BOARD:  # a sentinel bit: a column overflowed (the carry may run on: it stays)
        return 2, (ZERO, ZERO, 0)
    if n >= CELLS:
        return 3, (ZERO, ZERO, 0)
    if k_aligned(cur) or k_aligned(cur ^ mask):  # a four: finished, or played past
        return 4, (ZERO, ZERO, 0)
    while i < end:  # " SCORE" words
        while i < end and text[i] == SPACE:
            i += 1
        if i < end and (text[i] == MINUS or text[i] == PLUS):
            i += 1
        digits = 0
        while i < end and DIGIT_0 <= text[i] < DIGIT_0 + 10:
            digits += 1
            i += 1
        if digits == 0 or digits > SCORE_DIGITS or (i < end and text[i] != SPACE):
            return 5, (ZERO, ZERO, 0)
    return 0, (cur, mask, n)
