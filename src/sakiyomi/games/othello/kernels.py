"""Othello kernels in the form the compiled search template specialises (``template.py``).

The rules themselves live in ``rules`` (moves, flips, stability, scores), the
evaluation in ``evaluation`` and the last-few-empties solver in ``endgame``; below the
``KERNELS`` marker this module only adapts them to the template's kernel interface, so the
Python game, the compiled search and the endgame solver share one rule code.

State: ``(p, o, moves)`` — the side to move's discs, the opponent's, and p's legal moves
(computed once by ``k_play``, so that ``k_outcome`` and ``k_legal_moves`` need no second move
generation).  Moves are squares 0-63 and ``PASS`` = 64.  Values are final disc differences for
the side to move (empties to the winner); ``k_evaluate`` estimates the same quantity.

Template extensions Othello uses (generic hooks, off for games that do not define them):

* ``k_leaf_solve(state, depth, alpha, beta, ctx)`` — with ``LEAF`` or fewer empties (and a
  depth reaching the end), the exact value from ``solve_ordered``: no TT, fastest-first down
  to ``SHALLOW`` empties, then ``solve_shallow`` (parity order, last move scored in place); it
  adds the nodes below this one to ``ctx[0]`` and the leaves to ``ctx[1]``;
* ``k_cutoff(state, alpha, beta)`` — the stability cut-off: once alpha is high enough, the
  bound 64 - 2 × (opponent's stable discs) may already fail low;
* ``k_hint(state, move)`` — fastest-first: fewer opponent replies first (corner replies count
  twice; with ``POTENTIAL``, fewer empty squares next to the mover's discs too), then corners,
  then moves into odd regions (parity); with ``EVAL_MIN`` or more empties, also ``EVAL_ORDER``
  times the evaluation of the position the move leaves (``endgame.move_hint``).

* ``k_etc(state, depth)`` — enhanced transposition cut-offs at nodes with ``ETC`` or more
  empties (0: never) when solving, where a subtree costs far more than looking its children
  up;
* ``TWO_BOUNDS`` (``BOUNDS2``) — table entries with a lower and an upper bound, so that the
  solver's null-window probes (bisection, then the PV walk) keep each other's proofs.

Build parameters: ``LEAF`` (empties at which the TT-less solver takes over), ``SHALLOW``
(empties handed to its parity-ordered part), ``PARITY``, ``STABILITY``, ``FASTEST`` and
``BOUNDS2`` (0/1 switches), ``ETC``, ``POTENTIAL`` and ``LEAF_POTENTIAL`` (the weight of the
opponent's potential mobility in the fastest-first score of ``k_hint`` and of the leaf solver,
0: not used), ``EVAL_ORDER`` and ``EVAL_MIN`` (the evaluation's weight in ``k_hint`` and the
empties from which it is used), so that each technique can be measured on its own; the values
below are the shipped ones (``game.KERNEL_PARAMS`` says where each was measured).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

LEAF = 9
SHALLOW = 5
PARITY = 1
STABILITY = 1
FASTEST = 1
BOUNDS2 = 0
ETC = 14
POTENTIAL = 1
LEAF_POTENTIAL = 0
EVAL_ORDER = 2
EVAL_MIN = 12
U: Callable[[int], Any] = int


def kernel(function: Any) -> Any:
    """Plain-Python stand-in for ``numba.njit(cache=True)`` (the generated header replaces it)."""
    return function


# ---- KERNELS (copied into generated modules from here on) ----

import numpy as _onp  # noqa: E402  (the kernels need uint64 words even in the plain build)

from sakiyomi.compiled.bits import lowest_bit as _lowest_bit  # noqa: E402
from sakiyomi.compiled.bits import popcount as _popcount  # noqa: E402
from sakiyomi.games.othello.endgame import BUFFER_ROWS as _BUFFER_ROWS  # noqa: E402
from sakiyomi.games.othello.endgame import MOVE_SLOTS as _MOVE_SLOTS  # noqa: E402
from sakiyomi.games.othello.endgame import (  # noqa: E402
    STABILITY_MIN_ALPHA as _STAB_MIN_ALPHA,
)
from sakiyomi.games.othello.endgame import move_hint as _move_hint  # noqa: E402
from sakiyomi.games.othello.endgame import solve_ordered as _solve_ordered  # noqa: E402
from sakiyomi.games.othello.endgame import stability_bound as _stability_bound  # noqa: E402
from sakiyomi.games.othello.evaluation import evaluate as _evaluate  # noqa: E402
from sakiyomi.games.othello.rules import final_score as _final_score  # noqa: E402
from sakiyomi.games.othello.rules import flips as _flips  # noqa: E402
from sakiyomi.games.othello.rules import legal_moves as _legal_moves  # noqa: E402
from sakiyomi.games.othello.rules import position_key as _position_key  # noqa: E402

MAX_MOVES = 34  # at most 33 legal moves have been seen in Othello
MOVE_LIMIT = 65  # squares 0-63 and PASS
PLY_LIMIT = 128  # 60 moves and the passes between them
HAS_HINTS = True
HAS_SHORTCUTS = False
HAS_LEAF_SOLVER = True
HAS_CUTOFF = True
HAS_ETC = ETC > 0
TWO_BOUNDS = BOUNDS2 != 0
SCRATCH = _BUFFER_ROWS * (2 * LEAF + 2) * _MOVE_SLOTS  # the leaf solver's move lists
PASS = 64
_W = _onp.uint64
_ONE = _W(1)
_ZERO = _W(0)


def make_state(p: int, o: int, *_moves: int) -> tuple[Any, Any, Any]:
    """A kernel state from the side to move's and the opponent's discs (Python ints); a third
    word (the words of a state that ``k_play`` returned) is recomputed, not trusted.
    """
    wp, wo = _W(p), _W(o)
    return (wp, wo, _W(_legal_moves(wp, wo)))


@kernel
def k_play(state: Any, move: Any) -> Any:
    """The position after ``move`` (a square, or PASS), from the new side to move's view."""
    p, o, _ = state
    # (_W(...) is free when compiled; in the plain build it keeps the word a uint64, as a
    # compiled rule kernel called from Python returns a uint64 as a plain int)
    if move == PASS:
        return (o, p, _W(_legal_moves(o, p)))
    bit = _ONE << _W(move)
    f = _flips(p, o, move)
    np_ = o ^ f
    no = p | f | bit
    return (np_, no, _W(_legal_moves(np_, no)))


@kernel
def k_outcome(state: Any, ply: Any) -> Any:
    """(finished, final disc difference): finished when neither side can move."""
    p, o, moves = state
    if moves != _ZERO or _legal_moves(o, p) != _ZERO:
        return False, 0
    return True, _final_score(p, o)


@kernel
def k_key(state: Any) -> Any:
    """A 64-bit hash of both bitboards (``rules.position_key``)."""
    return _position_key(state[0], state[1])


@kernel
def k_legal_moves(state: Any, out: Any, base: Any) -> Any:
    """Squares of the legal moves in board order (or PASS alone) at ``out[base:]``; their
    number, 0 when the game is over.
    """
    p, o, moves = state
    count = 0
    if moves == _ZERO:
        if _legal_moves(o, p) != _ZERO:
            out[base] = PASS
            count = 1
        return count
    while moves:
        out[base + count] = _lowest_bit(moves)
        moves &= moves - _ONE
        count += 1
    return count


@kernel
def k_search_moves(state: Any, out: Any, base: Any) -> Any:
    """Every legal move (Othello has no moves to leave out)."""
    return k_legal_moves(state, out, base)


@kernel
def k_bounds(state: Any, ply: Any) -> Any:
    """No window narrowing beyond the stability cut-off (``k_cutoff``)."""
    return -64, 64


@kernel
def k_score_bounds(state: Any) -> Any:
    """Final disc differences lie in [-64, 64]."""
    return -64, 64


@kernel
def k_hint(state: Any, move: Any) -> Any:
    """Fastest-first: fewer replies for the opponent (corners twice), corners, odd regions
    (``endgame.move_hint``, also the Python game's hint).
    """
    p, o, _ = state
    if FASTEST == 0:
        return 0
    return _move_hint(p, o, move, PARITY, POTENTIAL, EVAL_ORDER, EVAL_MIN)


@kernel
def k_evaluate(state: Any) -> Any:
    """Heuristic final disc difference (``evaluation``)."""
    return _evaluate(state[0], state[1])


@kernel
def k_leaf_solve(state: Any, depth: Any, alpha: Any, beta: Any, ctx: Any) -> Any:
    """(True, exact value) with ``LEAF`` or fewer empties when ``depth`` plies reach the end
    anyway (always when solving), else (False, 0).
    """
    p, o, moves = state
    n = _popcount(~(p | o))
    if n > LEAF or depth < n:
        return False, 0
    ctx[0] -= 1  # the solver counts this node again
    # Its move lists: the workspace's scratch words (written before read), never an
    # allocation (compiled code runs without numba's runtime).
    buf = ctx[ctx.size - SCRATCH:].reshape((_BUFFER_ROWS, SCRATCH // _BUFFER_ROWS))
    # Constants reach the recursive solver as computed ints, never as literals: a literal-typed
    # specialisation of a recursive function breaks numba's disk cache (DESIGN.md §5).
    zero = n - n
    return True, _solve_ordered(p, o, moves, alpha, beta, zero + SHALLOW, zero + PARITY,
                                zero + STABILITY, zero + FASTEST, buf, zero, ctx,
                                zero + LEAF_POTENTIAL)


@kernel
def k_cutoff(state: Any, alpha: Any, beta: Any) -> Any:
    """(True, bound) when the stability bound proves value <= alpha, else (False, 0)."""
    p, o, _ = state
    if STABILITY == 0 or alpha < _STAB_MIN_ALPHA[_popcount(~(p | o))]:
        return False, 0
    bound = _stability_bound(p, o)
    if bound <= alpha:
        return True, bound
    return False, 0


@kernel
def k_etc(state: Any, depth: Any) -> Any:
    """Enhanced transposition cut-offs with ``ETC`` or more empties (0: never), when solving
    (``depth`` reaches the end, as for ``k_leaf_solve``): depth-limited searches stay node for
    node the Python Searcher's (``sakiyomi bench`` signatures).
    """
    p, o, _ = state
    n = _popcount(~(p | o))
    return ETC > 0 and n >= ETC and depth >= n
