"""The kernel interface: the names a game's kernel module defines for the search template.

A kernel module (e.g. ``sakiyomi.games.connect4.kernels``) is ordinary Python whose text from
the line ``# ---- KERNELS`` on is copied by ``sakiyomi.compiled.template.build`` into one
generated module, between a header and the search template (``search_template``).  The header
defines ``U`` (the word constructor: ``numpy.uint64`` compiled, ``int`` in plain Python),
``kernel`` (the decorator: ``numba.njit(cache=True, nogil=True, _nrt=False)`` compiled, the
identity in plain Python; ``inlined``, the same with ``inline="always"``, for the search's
one-call wrappers), the shared score constants and the build parameters.  The kernels then define:

* constants ``MAX_MOVES`` (moves at one node, at most), ``MOVE_LIMIT`` (moves are ints in
  ``range(MOVE_LIMIT)``, at most 255: the table packs move + 1 in 8 bits), ``PLY_LIMIT``
  (longest game), ``HAS_HINTS``, ``HAS_SHORTCUTS`` (booleans);
* a plain ``make_state(*ints)`` building a state (a tuple of words) from Python ints;
* kernels on states, declared below with their types: states are values (``k_play`` returns a
  new one, there is no undo); moves are ints; games without hints or shortcuts set the flags
  False and still define ``k_hint``, ``k_bounds`` and ``k_search_moves``;
* optional hooks, switched off by the defaults after this module's own ``KERNELS`` marker
  (that text is copied *before* a game's kernels, so a game that defines them wins):
  ``HAS_LEAF_SOLVER`` with ``k_leaf_solve``, ``HAS_CUTOFF`` with ``k_cutoff``, ``HAS_ETC``
  with ``k_etc`` (enhanced transposition cut-offs), ``TWO_BOUNDS`` (two-bound table
  entries) and ``HAS_BOUNDS_MOVES`` with ``k_bounds_moves`` (``k_bounds`` and
  ``k_search_moves`` in one pass).  ETC and two bounds change the compiled search only: a game
  that turns them on gets the same values from both engines, but no longer the same node
  counts; ``k_bounds_moves`` answers exactly what the two kernels it fuses answer, so the
  counts stay equal.

The Python game class calls the same kernels (the module itself, or ``build(...,
compiled=False)``), so the rules are written once.  This module is also what the search
template imports for type checking and for a plain import of its own: the declarations below
are placeholders that a generated module replaces with the game's kernels.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np
from numpy.typing import NDArray

F = TypeVar("F", bound=Callable[..., Any])

State = tuple[Any, ...]
"""A position: a tuple of words (uint64 compiled) and small ints, built by ``make_state``."""
Mem = NDArray[np.int64]
"""The search workspace (counters, switches, killers, history, PV, move lists)."""
Table = NDArray[np.uint64]
"""The transposition table: (key, packed entry) word pairs."""

U: Callable[[int], Any] = int


def kernel(function: F) -> F:
    """Plain-Python stand-in for ``numba.njit(cache=True)`` (the generated header replaces it).

    In a generated module a kernel has no Python wrapper: it is called from compiled code
    only (a Python caller of the numba build uses an ``entry`` function instead).
    """
    return function


def entry(function: F) -> F:
    """The generated module's ``entry``: ``kernel`` with the wrappers that let Python call it
    (``t_run``, ``t_block``, perft, the playouts); the identity in plain Python.
    """
    return function


def inlined(function: F) -> F:
    """The generated module's ``inlined``: ``kernel`` whose calls numba inlines into the
    caller (``inline="always"``), the identity in plain Python.  For the wrappers above the
    recursive search that call it (``t_root``, the probe sequence, ``line_probe`` and
    ``line_try``): as functions of their own, each was compiled and finalised with the whole
    search linked in, about a second of a first run's compilation.  Small hooks that do not
    call the search stay kernels: numba inlines by deep-copying the callee's IR at every call
    site (a quarter of a first compilation's profile), which cost more than their own
    compilation (first compile 6.3-6.5 CPU-s with them as kernels, 7.7-7.8 inlined).
    """
    return function


def prefetch(table: Table, index: int) -> None:
    """Start loading ``table[index]`` into the cache without waiting for it (a hint: no
    effect on results).  The compiled header's version is LLVM's prefetch instruction; the
    plain header's, like this stand-in, does nothing.
    """


def clock_ns() -> int:
    """The monotonic clock in nanoseconds (``sakiyomi.compiled.clock`` in compiled code)."""
    return time.monotonic_ns()


MAX_MOVES = 1
MOVE_LIMIT = 1
PLY_LIMIT = 1
HAS_HINTS = False
HAS_SHORTCUTS = False


def _missing(name: str) -> NotImplementedError:
    return NotImplementedError(f"{name} is defined by a game's kernel module, not kernel_api")


def make_state(*words: int) -> State:
    """A state from Python ints (e.g. a game's ``kernel_state()``)."""
    raise _missing("make_state")


@kernel
def k_outcome(state: State, ply: int) -> tuple[bool, int]:
    """(finished, value): the terminal score for the side to move (e.g. ``±(WIN - ply)`` or a
    disc difference), or (False, 0) while the game goes on.
    """
    raise _missing("k_outcome")


@kernel
def k_key(state: State) -> Any:
    """A uint64 key: equal positions, equal keys; the low bits index the table, so mix them."""
    raise _missing("k_key")


@kernel
def k_legal_moves(state: State, out: Mem, base: int) -> int:
    """Write the legal moves at ``out[base:]``; return how many (0 when the game is over)."""
    raise _missing("k_legal_moves")


@kernel
def k_search_moves(state: State, out: Mem, base: int) -> int:
    """Like ``k_legal_moves``, but only moves worth searching (``SearchShortcuts``); always
    contains a best move.
    """
    raise _missing("k_search_moves")


@kernel
def k_bounds(state: State, ply: int) -> tuple[int, int]:
    """(lo, hi) around the exact value without search (``SearchShortcuts.value_bounds``)."""
    raise _missing("k_bounds")


@kernel
def k_score_bounds(state: State) -> tuple[int, int]:
    """The range of exact values a solver must bisect (``ScoreBounds``)."""
    raise _missing("k_score_bounds")


@kernel
def k_hint(state: State, move: int) -> int:
    """Static ordering hint for ``move``: higher is tried first (``MoveHints``)."""
    raise _missing("k_hint")


@kernel
def k_play(state: State, move: int) -> State:
    """The state after ``move``."""
    raise _missing("k_play")


@kernel
def k_evaluate(state: State) -> int:
    """Heuristic value for the side to move, in the same units as ``k_outcome``."""
    raise _missing("k_evaluate")


# ---- KERNELS (the optional hooks, switched off; copied before a game's kernels) ----

HAS_LEAF_SOLVER = False

SCRATCH = 0
"""Words at the end of the search's ``mem`` the kernels may use as scratch space (Othello's
leaf solver keeps its move lists there): compiled code never allocates (the search is
compiled without numba's reference-counting runtime, see ``template.HEADER_NUMBA``), so
memory a kernel needs comes with the workspace.  Default: none."""


@kernel
def k_leaf_solve(state: State, depth: int, alpha: int, beta: int,
                 mem: Mem) -> tuple[bool, int]:
    """An exact fail-soft solver for small subtrees the search would read to the end anyway
    (Othello's last empties): (solved, value), adding the nodes and leaves below this node to
    ``mem[0]`` and ``mem[1]``; the last ``SCRATCH`` words of ``mem`` are its own.  Default:
    never solves.
    """
    return False, 0


HAS_CUTOFF = False


@kernel
def k_cutoff(state: State, alpha: int, beta: int) -> tuple[bool, int]:
    """(cut, value): a fail-soft bound proved without search (Othello's stability cut-off).
    Default: never cuts.
    """
    return False, 0


TWO_BOUNDS = False
"""Table entries keep a lower and an upper bound (three words a slot instead of two), so that
the null-window probes of a bisection, failing high and low in turn, keep each other's proofs.
"""

HAS_ETC = False


@kernel
def k_etc(state: State, depth: int) -> bool:
    """Whether to try enhanced transposition cut-offs at this node: before searching, look
    every child up in the table for a bound that already refutes it (worth it only where
    subtrees are large).  Default: never.
    """
    return False


PREFETCH_CHILDREN = False
"""Once a node knows its moves, ask the cache for every child's table slot (prefetch) before
the node's own probe, so that the children's table misses overlap instead of each stalling
the search in turn: where the table is far larger than the cache (a deep Connect Four solve),
most of a node's time is that one miss.  A hint only: node counts and values do not change.
"""

HAS_BOUNDS_MOVES = False


@kernel
def k_bounds_moves(state: State, ply: int, out: Mem, base: int) -> tuple[int, int, int]:
    """(lo, hi, count): ``k_bounds(state, ply)`` and, when that leaves the value open
    (lo < hi), ``k_search_moves(state, out, base)``'s count with the moves written; count -1
    when none were written.  One pass for what the two kernels compute separately (Connect
    Four: the winning cells of both sides, which decide the bounds and the moves alike), at
    every node below the root.  Default: never called (``HAS_BOUNDS_MOVES`` is False).
    """
    lo, hi = k_bounds(state, ply)
    return lo, hi, -1


HAS_PARSE = False
"""The kernels read a batch line's position text themselves (``k_parse``): a batch of lines is
then parsed and solved in one compiled call (``search_template.t_block``)."""


@kernel
def k_parse(text: Any, start: int, end: int) -> tuple[int, State]:
    """(0, state) when ``text[start:end]`` (ASCII bytes of one stripped batch line) is a
    position the kernels can vouch for, unfinished, optionally followed by a score; else
    (nonzero, any state): that line then goes through the game's own parser, which names the
    problem.  Default: never called (``HAS_PARSE`` is False).
    """
    raise _missing("k_parse")


@kernel
def k_table_bits(state: State) -> int:
    """A solve of ``state`` uses at most ``2**bits`` table slots (``SolveTable``; the table's
    own size when smaller): a small endgame then touches a few MiB of a table sized for the
    opening, instead of faulting in all of it.  Default: 63, the whole table.
    """
    return 63
