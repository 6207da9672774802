"""The probe sequence of an exact or win/draw/loss solve, written once for every engine.

``l_solve`` is the whole solving line of ``sakiyomi.search.solve.solve``: null-window
bisection of the value (``l_bisect``: 0 first, or Pons's order ``l_next_probe``; with a
first-guess search and galloping when ``guess_depth`` > 0), the win/draw/loss question, and
the walk that finds the principal variation (``l_walk``).  Its decisions are pure functions
of integers, and it reaches the engine through hooks only:

* ``line_probe(ctx, depth, alpha, beta)``: one fail-soft root search;
* ``line_stopped(ctx)``: whether the last search was stopped (its value then means nothing);
* ``line_proved(ctx, lo, hi, up)``: the interval proved so far, after each probe (``up``: the
  probe failed high, so the root's best move of that search reaches ``lo``);
* the walk's: ``line_moves(ctx, ply, value)`` lists the moves of the walk's position (whose
  value is ``value``), the one most likely on the line first, and says whether that one is
  proved to be on it; ``line_try(ctx, ply, i, alpha, beta)`` searches the position after
  the i-th of them as a node ``ply + 1`` plies below the root; ``line_advance(ctx, ply, i)``
  plays it as the line's next move; ``line_finish(ctx, n)`` ends the walk of n moves.

Python runs this module as it is, with the hooks below over a ``LineDriver`` (the engines
raise ``SearchAborted`` instead of reporting a stop).  The compiled template
(``sakiyomi.compiled.template.build``) copies the text from the ``KERNELS`` marker on into
each generated module, after the search template, whose own ``line_*`` hooks call the compiled
root search on its workspace: the compiled engine then answers a whole line in one call, with
the same probes, hence the same node counts, as the Python loop.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from sakiyomi.score import INF, MAX_PLY

F = TypeVar("F", bound=Callable[..., Any])


def kernel(function: F) -> F:
    """The identity here; ``numba.njit`` in a generated module."""
    return function


def inlined(function: F) -> F:
    """The identity here; in a generated module ``numba.njit`` inlined into its callers."""
    return function


class LineDriver(Protocol):
    """What the Python hooks need: a root search and a place to keep what is proved."""

    def probe(self, depth: int, alpha: int, beta: int) -> int:
        """One fail-soft root search; raises ``SearchAborted`` when stopped."""
        ...

    def proved(self, lo: int, hi: int, up: bool) -> None:
        """Keep the interval proved so far (and the best move when ``up``)."""
        ...

    def moves(self, ply: int, value: int) -> tuple[int, bool]:
        """``line_moves``."""
        ...

    def try_move(self, ply: int, i: int, alpha: int, beta: int) -> int:
        """``line_try``; raises ``SearchAborted`` when stopped."""
        ...

    def advance(self, ply: int, i: int) -> None:
        """``line_advance``."""
        ...

    def finish(self, n: int) -> None:
        """``line_finish``."""
        ...


def line_probe(ctx: LineDriver, depth: int, alpha: int, beta: int) -> int:
    """One root search (Python: the engine's ``search``)."""
    return ctx.probe(depth, alpha, beta)


def line_stopped(ctx: LineDriver) -> bool:
    """False: a stopped search raises ``SearchAborted`` out of the line instead."""
    return False


def line_proved(ctx: LineDriver, lo: int, hi: int, up: bool) -> None:
    """The interval proved so far, after each probe."""
    ctx.proved(lo, hi, up)


def line_moves(ctx: LineDriver, ply: int, value: int) -> tuple[int, bool]:
    """List the moves of the walk's position, of value ``value`` (none when the game is
    over), the move most likely on the line first: (how many, whether that first move is
    proved to be on it).
    """
    return ctx.moves(ply, value)


def line_try(ctx: LineDriver, ply: int, i: int, alpha: int, beta: int) -> int:
    """Search the position after the i-th listed move, ``ply + 1`` plies below the root."""
    return ctx.try_move(ply, i, alpha, beta)


def line_advance(ctx: LineDriver, ply: int, i: int) -> LineDriver:
    """Play the i-th listed move as the line's move at ``ply``; the context of the new position."""
    ctx.advance(ply, i)
    return ctx


def line_finish(ctx: LineDriver, n: int) -> None:
    """The walk ends with a line of ``n`` moves: it becomes the engine's principal variation."""
    ctx.finish(n)


# ---- KERNELS (the probe sequence: copied into generated modules from here on) ----

FULL_DEPTH = MAX_PLY - 1  # a search to the end of the game


@kernel
def l_half(x: int) -> int:
    """X / 2 rounded toward zero (C division)."""
    return -(-x // 2) if x < 0 else x // 2


@kernel
def l_next_probe(lo: int, hi: int) -> int:
    """Pons's probe (SearchConfig.bisection="pons"): the midpoint, moved out to half of the
    bound on its side of 0 when that is further out; lo <= probe < hi.
    """
    mid = lo + (hi - lo) // 2
    if mid <= 0 and l_half(lo) < mid:
        return l_half(lo)
    if mid >= 0 and l_half(hi) > mid:
        return l_half(hi)
    return mid


@inlined
def l_bisect(ctx: Any, lo: int, hi: int, pons: bool, guess_depth: int) -> tuple[int, int, bool]:
    """The root value clamped to [lo, hi] by null-window probes: (lo, hi, stopped), lo == hi
    unless stopped.  Each probe asks "is the value above ``mid``?" with the window
    (mid, mid+1); a fail-soft answer r moves a bound straight to r.  The first probe is at 0
    (most positions are close to a draw), then bisection of what remains, or Pons's order
    (``pons``).  With ``guess_depth`` > 0 and a range wider than 2, a search to that depth
    guesses the first probe, and the probes gallop away from it (wider each time) until one
    turns back; bisection then finishes.
    """
    mid = l_next_probe(lo, hi) if pons else 0 if lo <= 0 < hi else lo + (hi - lo) // 2
    gallop = guess_depth > 0 and hi - lo > 2
    if gallop:
        guess = line_probe(ctx, guess_depth, -INF, INF)
        if line_stopped(ctx):
            return lo, hi, True
        mid = min(max(guess, lo), hi - 1)
    direction = 0
    step = 0
    while lo < hi:
        r = line_probe(ctx, FULL_DEPTH, mid, mid + 1)
        if line_stopped(ctx):
            return lo, hi, True
        up = r > mid
        if up:
            lo = min(r, hi)
        else:
            hi = max(r, lo)
        line_proved(ctx, lo, hi, up)
        way = 1 if up else -1
        if gallop and (direction == 0 or direction == way):  # away from the guess
            direction = way
            mid = min(max(lo + step if up else hi - 1 - step, lo), hi - 1)
            step = 2 * step + 2
        else:
            gallop = False
            mid = l_next_probe(lo, hi) if pons else lo + (hi - lo) // 2
    return lo, hi, False


@inlined
def l_walk(ctx: Any, value: int) -> bool:
    """The principal variation of a position whose value is known, along null-window proofs;
    returns True when stopped (the line found so far is kept).

    At a position of value x every child's value (from its side) is >= -x, and the line goes
    on through one whose value is also <= -x.  The bisection's last two probes proved both:
    the one that failed high made a cut at the root through such a child and proved every
    child of that child >= x, the one that failed low proved every child >= -x through one
    cut move each, and so on down, alternately.  So a position on the line whose table entry
    is still a solved lower bound >= x has its move proved on the line (at the root: the
    bisection's move), and is played without a search.  Elsewhere the listed moves (the
    table's first) are tried with the window (-x, -x + 1) until one fails low: one one-sided
    question per tried move, where an open-window search (value - 1, value + 1) would also
    prove every other move of every position on the line no better.
    """
    target = value
    n = value - value  # 0, from an argument: no literal-typed copies of the hooks (DESIGN §5)
    while n < FULL_DEPTH:
        count, proven = line_moves(ctx, n, target)
        chosen = -1
        for i in range(count):
            if i == 0 and proven:
                chosen = 0
                break
            r = line_try(ctx, n, i, -target, 1 - target)
            if line_stopped(ctx):
                line_finish(ctx, n)
                return True
            if r <= -target:
                chosen = i
                break
        if chosen < 0:  # over (or no child reaches the value: the line ends here)
            break
        ctx = line_advance(ctx, n, chosen)
        target = -target
        n += 1
    line_finish(ctx, n)
    return False


@inlined
def l_solve(ctx: Any, lo: int, hi: int, weak: bool, pons: bool, with_pv: bool,
            guess_depth: int) -> tuple[int, int, bool]:
    """A whole solve: (lo, hi, stopped); lo == hi is the value unless stopped.

    Exact: the bisection of [lo, hi], then (``with_pv``) the walk of its principal variation
    (``l_walk``), which becomes the engine's PV and root best move.  Weak (win/draw/loss, lo
    and hi are -1 and 1): Pons's null windows in [-1, 1] (``pons``), else one search with the
    window (-1, 1); the engine's PV and root best move are those of the last search.
    """
    if weak and not pons:
        r = line_probe(ctx, FULL_DEPTH, -1, 1)
        if line_stopped(ctx):
            return lo, hi, True
        value = 1 if r > 0 else -1 if r < 0 else 0
        return value, value, False
    lo, hi, stopped = l_bisect(ctx, lo, hi, pons, guess_depth if not weak else 0)
    if stopped or weak or not with_pv:
        return lo, hi, stopped
    return lo, hi, l_walk(ctx, lo)
