"""Hex kernels: the rules of N×N Hex on one 64-bit word per side, for sakiyomi's compiled search.

This file is a *kernel module* (docs/kernels.md).  As it stands it is plain Python (a 4×4
board, ``U = int``, ``kernel`` does nothing) and the Python game class ``sakiyomi_hex.game.Hex``
calls it.  ``sakiyomi.compiled.template.build("sakiyomi_hex.kernels", {"SIZE": n})`` copies
everything below the ``KERNELS`` marker after a header that sets ``SIZE``, ``U =
numpy.uint64`` and ``kernel = numba.njit(...)``, appends the search template and compiles the
lot: the same rule code then runs at native speed inside the compiled search.

Rules.  Black (``X``, first to move) owns the top and bottom edges, White (``O``) the left and
right edges; players take turns putting a stone on an empty cell and whoever joins their two
edges with a chain of their stones wins.  A full board always has exactly one winner, so there
are no draws (and no swap rule here).

Bitboard.  Cell (row r, column c), row 0 at the top, is bit ``r * STRIDE + c`` with
``STRIDE = SIZE + 1``: every row has one spare bit on its right that no stone ever uses, so
shifting a set of cells by ±1, ±STRIDE or ±(STRIDE - 1) and masking with ``BOARD`` gives its
six hexagonal neighbours without wrapping from one row into the next::

     a  b  c  d                 the 4×4 board: bits 0-3, 5-8, 10-13, 15-18
    1 .  .  .  .                (4, 9, 14, 19 are the spare bits)
     2 .  .  .  .               neighbours of (r, c): (r, c±1), (r±1, c),
      3 .  .  .  .                                    (r-1, c+1), (r+1, c-1)
       4 .  .  .  .

A move is the cell's dense number ``r * SIZE + c`` (``a1`` = 0).  A state is ``(black, white,
n)``: both sides' stones and the number of stones played (Black is to move when n is even).
Scores are sakiyomi's: a finished game is lost for the side to move, ``-(WIN - ply)``, so the
search prefers quick wins and slow losses.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from sakiyomi.score import WIN  # generated modules get WIN (and MAX_PLY, ...) from the header

F = TypeVar("F", bound=Callable[..., Any])

SIZE = 4  # the board is SIZE × SIZE; a build parameter (2-7)
U: Callable[[int], Any] = int


def kernel(function: F) -> F:
    """Plain-Python stand-in for ``numba.njit`` (the generated header replaces it)."""
    return function


# ---- KERNELS (copied into generated modules from here on) ----

from sakiyomi.compiled.bits import popcount  # noqa: E402  (an @njit helper: both builds)

if not 2 <= SIZE <= 7:
    raise ValueError(f"Hex boards are 2x2 to 7x7 here (one 64-bit word per side), not {SIZE}")
STRIDE = SIZE + 1
CELLS = SIZE * SIZE
MAX_MOVES = CELLS
MOVE_LIMIT = CELLS
PLY_LIMIT = CELLS + 1
HAS_HINTS = True
HAS_SHORTCUTS = False
PERFECT_KEY = SIZE * STRIDE <= 32  # both sides fit in one word: the key is exact
NO_PATH = CELLS + 1  # k_distance when the edges cannot be joined any more
_BIT = tuple((m // SIZE) * STRIDE + m % SIZE for m in range(CELLS))
CELL = tuple(U(1 << b) for b in _BIT)
BOARD = U(sum(1 << b for b in _BIT))
TOP = U(sum(1 << _BIT[c] for c in range(SIZE)))
BOTTOM = U(sum(1 << _BIT[CELLS - SIZE + c] for c in range(SIZE)))
LEFT = U(sum(1 << _BIT[r * SIZE] for r in range(SIZE)))
RIGHT = U(sum(1 << _BIT[r * SIZE + SIZE - 1] for r in range(SIZE)))
ZERO = U(0)
ONE = U(1)
ROW = U(STRIDE)
DIAGONAL = U(STRIDE - 1)
WORD = U((1 << 64) - 1)
HALF = U(32)
SHIFT33 = U(33)
KEY_MIX = U(0x9E3779B97F4A7C15)  # odd: multiplying by it mod 2**64 is a bijection
MIX1 = U(0xFF51AFD7ED558CCD)  # MurmurHash3's 64-bit finaliser constants
MIX2 = U(0xC4CEB9FE1A85EC53)


def _hex_distance(a: int, b: int) -> int:
    """Steps between two cells on the hexagonal grid (for the static move order)."""
    dr = a // SIZE - b // SIZE
    dc = a % SIZE - b % SIZE
    return max(abs(dr), abs(dc), abs(dr + dc))


# Cells closest to the centre first (ties: reading order); a cell's centrality, for hints.
_CENTRE = (SIZE // 2) * SIZE + (SIZE - 1) // 2
ORDER = tuple(sorted(range(CELLS), key=lambda m: (_hex_distance(m, _CENTRE), m)))
CENTRALITY = tuple(SIZE - _hex_distance(m, _CENTRE) for m in range(CELLS))


def make_state(black: int, white: int, n: int) -> tuple[Any, Any, int]:
    """A kernel state from Python ints (the compiled build needs uint64 words)."""
    return (U(black), U(white), n)


@kernel
def k_grow(cells: Any) -> Any:
    """``cells`` and all their neighbours on the board."""
    return (cells | (cells << ONE) | (cells >> ONE) | (cells << ROW) | (cells >> ROW)
            | (cells << DIAGONAL) | (cells >> DIAGONAL)) & BOARD


@kernel
def k_flood(cells: Any, seed: Any) -> Any:
    """The cells of ``cells`` joined to ``seed`` through ``cells`` (seed ⊆ the result)."""
    reached = seed
    while True:
        grown = k_grow(reached) & cells | reached
        if grown == reached:
            return reached
        reached = grown


@kernel
def k_joins(stones: Any, edge: Any, other_edge: Any) -> bool:
    """True when a chain of ``stones`` touches both edges."""
    joined: bool = (k_flood(stones, stones & edge) & other_edge) != ZERO
    return joined


@kernel
def k_outcome(state: tuple[Any, Any, int], ply: int) -> tuple[bool, int]:
    """(finished, value for the side to move): the side that just moved joined its edges
    (it needs at least SIZE stones, so short games skip the flood fill).
    """
    black, white, n = state
    if n % 2 == 1:
        won = (n + 1) // 2 >= SIZE and k_joins(black, TOP, BOTTOM)
    else:
        won = n > 0 and n // 2 >= SIZE and k_joins(white, LEFT, RIGHT)
    if won:
        return True, -(WIN - ply)
    return False, 0


@kernel
def k_key(state: tuple[Any, Any, int]) -> Any:
    """Equal positions, equal keys.  Up to 5×5 both sides fit in one word, mixed by a
    bijection (times an odd number, xor the high half down) so the key is exact and its low
    bits, the table slot, depend on every cell; larger boards hash the two words with
    MurmurHash3's finaliser (an exact key would take two words).
    """
    black, white, _ = state
    if PERFECT_KEY:
        m = ((black | (white << HALF)) * KEY_MIX) & WORD
        return m ^ (m >> HALF)
    h = black ^ ((white * KEY_MIX) & WORD)
    for _ in range(2):
        h ^= h >> SHIFT33
        h = (h * MIX1) & WORD
        h ^= h >> SHIFT33
        h = (h * MIX2) & WORD
        h ^= h >> SHIFT33
    return h


@kernel
def k_play(state: tuple[Any, Any, int], move: int) -> tuple[Any, Any, int]:
    """Put the side to move's stone on cell ``move``."""
    black, white, n = state
    if n % 2 == 0:
        return (black | CELL[move], white, n + 1)
    return (black, white | CELL[move], n + 1)


@kernel
def k_legal_moves(state: tuple[Any, Any, int], out: Any, base: int) -> int:
    """Write the empty cells, centre first, at ``out[base:]``; return how many (the search
    asks only before the game is over).
    """
    black, white, _ = state
    taken = black | white
    count = 0
    for i in range(CELLS):
        move = ORDER[i]
        if not (taken & CELL[move]):
            out[base + count] = move
            count += 1
    return count


@kernel
def k_search_moves(state: tuple[Any, Any, int], out: Any, base: int) -> int:
    """Hex has no move filter (HAS_SHORTCUTS is False): every legal move."""
    return k_legal_moves(state, out, base)


@kernel
def k_bounds(state: tuple[Any, Any, int], ply: int) -> tuple[int, int]:
    """No shortcuts (HAS_SHORTCUTS is False): nothing is known without search."""
    return -WIN, WIN


@kernel
def k_score_bounds(state: tuple[Any, Any, int]) -> tuple[int, int]:
    """The exact solver's starting window.  To join its edges a side needs SIZE stones, so
    the side to move wins at the earliest with its ``max(1, SIZE - own)``-th move (ply 2k-1)
    and loses at the earliest to the opponent's k-th move (ply 2k).
    """
    finished, value = k_outcome(state, 0)
    if finished:
        return value, value
    _, _, n = state
    own = n // 2  # the side to move has played as many stones as the other (n even) or one
    other = (n + 1) // 2  # fewer (n odd)
    own_moves = max(1, SIZE - own)
    other_moves = max(1, SIZE - other)
    return -(WIN - 2 * other_moves), WIN - (2 * own_moves - 1)


@kernel
def k_hint(state: tuple[Any, Any, int], move: int) -> int:
    """Ordering hint: stones next to the cell (contact moves first), then centrality."""
    black, white, _ = state
    contacts: int = popcount(k_grow(CELL[move]) & (black | white))
    return 4 * contacts + CENTRALITY[move]


@kernel
def k_distance(own: Any, other: Any, edge: Any, other_edge: Any) -> int:
    """How many more stones ``own`` needs to join its edges if ``other`` never moved again
    (NO_PATH when ``other`` has cut them): a breadth-first search by whole bitboards, each
    round adding the empty cells next to what is reached, then the stones joined to them.
    """
    empty = BOARD & ~(own | other)
    reached = k_flood(own, own & edge)
    for d in range(CELLS + 1):
        if reached & other_edge:
            return d
        step = (k_grow(reached) | edge) & empty & ~reached
        if not step:
            return NO_PATH
        reached = k_flood(own | reached | step, reached | step)
    return NO_PATH


@kernel
def k_evaluate(state: tuple[Any, Any, int]) -> int:
    """Heuristic for depth-limited search: the opponent's distance minus one's own."""
    black, white, n = state
    to_black = k_distance(black, white, TOP, BOTTOM)
    to_white = k_distance(white, black, LEFT, RIGHT)
    return to_white - to_black if n % 2 == 0 else to_black - to_white
