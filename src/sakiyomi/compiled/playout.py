"""Compiled Monte Carlo playouts for kernel games, and the walker that uses them.

``PLAYOUT`` is template text that ``template.build`` appends (after the search template) to
every generated kernel module, so it runs on the same kernel interface as the αβ search:
``k_legal_moves`` (or ``k_search_moves``, the game's own playout policy), ``k_play`` and
``k_outcome``.  A playout picks uniformly among the moves with a xorshift64* generator whose
state lives in a one-word array (so a fixed seed gives the same games in every process, and
numba's own global generator is never touched), and releases the GIL.

``KernelWalker`` is the ``sakiyomi.search.mcts.Walker`` for such games (``sakiyomi.engines``
hands it to ``MCTS``): tree nodes keep their kernel state (states are values), so walking
down the tree plays nothing, and each new position costs one crossing into compiled code that
makes the move, checks the end and plays the game out.
"""

from __future__ import annotations

import types
from typing import Any

PLAYOUT = '''
# ---- Monte Carlo playouts (sakiyomi.compiled.playout) ----

P_SHIFT_A = U(12)
P_SHIFT_B = U(25)
P_SHIFT_C = U(27)
P_MULT = U(0x2545F4914F6CDD1D)
P_WORD = U((1 << 64) - 1)
P_HIGH = U(33)


@kernel
def p_random(rng, count):
    """A number in range(count) from the xorshift64* generator in ``rng[0]``."""
    x = rng[0]
    x ^= x >> P_SHIFT_A
    x = (x ^ (x << P_SHIFT_B)) & P_WORD
    x ^= x >> P_SHIFT_C
    rng[0] = x
    return int(((x * P_MULT) & P_WORD) >> P_HIGH) % count


@entry
def p_playout(state, rng, buf, smart):
    """(value for the side to move in ``state``, plies): random moves to the end (the
    game's ``k_search_moves`` when ``smart``), scored by ``k_outcome``.
    """
    plies = 0
    while True:
        finished, value = k_outcome(state, plies)
        if finished:
            return (value if plies % 2 == 0 else -value), plies
        if smart:
            count = k_search_moves(state, buf, 0)
        else:
            count = k_legal_moves(state, buf, 0)
        state = k_play(state, buf[p_random(rng, count)])
        plies += 1


@entry
def p_child(state, move, rng, buf, smart):
    """The new tree position after ``move`` and its first evaluation: (child state,
    finished, value for the child's side to move, playout plies).
    """
    child = k_play(state, move)
    finished, value = k_outcome(child, 0)
    if finished:
        return child, True, value, 0
    value, plies = p_playout(child, rng, buf, smart)
    return child, False, value, plies


@entry
def p_moves(state, buf):
    """The legal moves of ``state`` written at ``buf[0:]``; their number."""
    return k_legal_moves(state, buf, 0)


@entry
def p_outcome(state, ply):
    """``k_outcome`` for Python callers (the kernels themselves have no Python wrapper)."""
    return k_outcome(state, ply)
'''


class KernelWalker:
    """The MCTS walker over a generated kernel module (see the module doc).

    ``descend`` into a node without a state makes it (with ``p_child``) and keeps what the
    search asks next: ``status`` and then, for a position that goes on, ``playout``.
    """

    def __init__(self, module: types.ModuleType, root: tuple[int, ...], seed: int,
                 smart: bool) -> None:
        import numpy as np

        self._module = module
        self._child = module.p_child
        self._moves = module.p_moves
        self._make_state = module.make_state
        self._buf = np.zeros(max(int(module.MAX_MOVES), 1) * 2, dtype=np.int64)
        self._rng = np.array([(seed | 1) & ((1 << 64) - 1)], dtype=np.uint64)
        self._smart = smart
        self._root = module.make_state(*root)
        self._states: list[Any] = [self._root]
        self._fresh: tuple[bool, int, int] | None = None
        finished, value = module.p_outcome(self._root, 0)
        self._root_status = int(value) if finished else None

    @staticmethod
    def warm_up(module: types.ModuleType, root: tuple[int, ...]) -> None:
        """Load (or compile) the playout functions with a throw-away walk from ``root``."""
        import numpy as np

        state = module.make_state(*root)
        buf = np.zeros(max(int(module.MAX_MOVES), 1) * 2, dtype=np.int64)
        rng = np.array([1], dtype=np.uint64)
        count = module.p_moves(state, buf)
        module.p_outcome(state, 0)
        if count:
            child = module.p_child(state, int(buf[0]), rng, buf, False)[0]
            module.p_playout(module.make_state(*child), rng, buf, True)

    def descend(self, node: Any) -> None:
        """Step to ``node``'s position (made and evaluated the first time)."""
        state = node.cache
        if state is None:
            state, finished, value, plies = self._child(
                self._states[-1], node.move, self._rng, self._buf, self._smart)
            state = self._make_state(*state)  # numba hands words back as Python ints
            node.cache = state
            self._fresh = (bool(finished), int(value), int(plies))
        else:
            self._fresh = None
        self._states.append(state)

    def to_root(self) -> None:
        """Back to the root."""
        del self._states[1:]
        self._fresh = None

    def status(self) -> int | None:
        """The score of a finished position, else None."""
        fresh = self._fresh
        if fresh is not None:
            return fresh[1] if fresh[0] else None
        if len(self._states) == 1:
            return self._root_status
        finished, value = self._module.p_outcome(self._states[-1], 0)
        return int(value) if finished else None

    def moves(self) -> list[int]:
        """The legal moves (kernel ints, the game's moves)."""
        count = self._moves(self._states[-1], self._buf)
        moves: list[int] = self._buf[:count].tolist()
        return moves

    def playout(self) -> tuple[int, int]:
        """The playout made with the position (or a new one)."""
        fresh = self._fresh
        if fresh is not None:
            self._fresh = None
            return fresh[1], fresh[2]
        value, plies = self._module.p_playout(self._states[-1], self._rng, self._buf,
                                              self._smart)
        return int(value), int(plies)

    def fail(self, exc: BaseException) -> BaseException:
        """Nothing to restore: the game itself is never moved."""
        self.to_root()
        return exc
