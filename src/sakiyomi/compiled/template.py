"""One numba search template, specialised per kernel game (DESIGN.md §5).

The template below is the production ``Searcher``'s node search (``sakiyomi.search.searcher``)
step for step, so that both engines visit the same nodes: negamax, fail-soft, PVS with a
re-search inside the window, TT (same slots, probe and replacement rules) in preallocated
numpy arrays, ordering by TT move, game hints, killers and history with a stable sort, game
shortcuts (``SearchShortcuts``), and the SOLVED depth for subtrees that never met the depth
limit.  Only the root search is here (``t_root``): every driver (iterative deepening, MTD(f),
exact / weak solving, analyze) is the shared Python one, run through
``sakiyomi.engines.CompiledEngine``.  The search releases the GIL and polls a stop word every
``POLL`` nodes, so another thread can stop it and watch its counters.
Not in the template: quiescence, repetition checks and presort (kernel games are acyclic and
have no noisy moves); a game that needs them stays on the Python Searcher.

**How a game supplies its kernels.**  A kernel module (e.g. ``sakiyomi.games.connect4.kernels``)
is ordinary Python whose text below the line ``# ---- KERNELS`` defines, in terms of the
header names ``U`` (word constructor: ``numpy.uint64`` here, ``int`` in Python) and ``kernel``
(the decorator: ``numba.njit(cache=True)`` here):

* constants ``MAX_MOVES`` (moves at one node, at most), ``MOVE_LIMIT`` (moves are ints in
  ``range(MOVE_LIMIT)``, at most 255: the table packs move + 1 in 8 bits), ``PLY_LIMIT``
  (longest game), ``HAS_HINTS``, ``HAS_SHORTCUTS`` (booleans);
* a plain ``make_state(*ints)`` building a state (a tuple of words) from Python ints;
* kernels on states: ``k_outcome(s, ply) -> (finished, value)`` (the terminal score for the
  side to move, e.g. ``±(WIN - ply)`` or a disc difference), ``k_key(s) -> uint64`` (equal
  positions, equal keys; the low bits index the table, so mix them), ``k_legal_moves(s, out,
  base) -> count`` and ``k_search_moves(s, out, base) -> count`` (write moves at
  ``out[base:]``, an int64 array), ``k_bounds(s, ply) -> (lo, hi)`` (SearchShortcuts
  .value_bounds), ``k_score_bounds(s) -> (lo, hi)`` (ScoreBounds), ``k_hint(s, move) -> int``,
  ``k_play(s, move) -> s'`` (states are values: no undo), ``k_evaluate(s) -> int``.
  Games without hints or shortcuts set the flags False and still define the kernels.
* the Python game class calls the same kernels (plain build: ``build(..., compiled=False)``
  or the module itself) and declares ``KernelGame``; moves are the kernels' ints;
* optional hooks (defaults: absent, switched off): ``HAS_LEAF_SOLVER`` with
  ``k_leaf_solve(s, depth, alpha, beta, mem) -> (solved, value)``, an exact fail-soft solver
  for small subtrees (when ``depth`` reaches the end anyway) that adds the nodes and leaves
  below the current node to ``mem[0]`` and ``mem[1]`` (Othello's last empties); ``HAS_CUTOFF``
  with ``k_cutoff(s, alpha, beta) -> (cut, value)``, a fail-soft bound proved without search
  (Othello's stability cut-off).  Both are tried below the root only, each behind a switch
  (``SearchConfig.leaf_solver`` and ``.cutoff``, or ``CompiledSearch(leaf_solver=, cutoff=)``).

``build(module_name, params)`` writes header + kernels + template into one module in the user
cache directory, named by a hash of all that text, imports it, and returns it; numba's
``cache=True`` then serves later processes from disk.  Lessons kept from the prototypes: no
literal constants in recursive calls; uint64 constants wrapped by ``U``; no clock inside
(a stop word set from outside, and an exact node budget, end the search).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import sys
import threading
import types
from pathlib import Path
from typing import Any, Protocol

from sakiyomi.compiled.playout import PLAYOUT

KERNEL_MARKER = "# ---- KERNELS"

HEADER_NUMBA = """\
from __future__ import annotations
from typing import Any
import numpy as np
from numba import njit
kernel = njit(cache=True, nogil=True)
U = np.uint64
"""

HEADER_PLAIN = """\
from __future__ import annotations
from typing import Any
def kernel(function):
    return function
U = int
"""

TEMPLATE = '''
# ---- search template (sakiyomi.compiled.template) ----
import numpy as _np

# Optional kernel hooks (Othello's endgame uses them); games without them get these
# switched-off stand-ins, so their searches are unchanged.
if "HAS_LEAF_SOLVER" not in globals():
    HAS_LEAF_SOLVER = False

    @kernel
    def k_leaf_solve(state, depth, alpha, beta, mem):
        return False, 0

if "HAS_CUTOFF" not in globals():
    HAS_CUTOFF = False

    @kernel
    def k_cutoff(state, alpha, beta):
        return False, 0

WIN = 1000000
MAX_PLY = 512
INF = WIN + 1
WIN_BOUND = WIN - MAX_PLY
SOLVED = MAX_PLY
FULL_DEPTH = MAX_PLY - 1
TT_BONUS = 1 << 40
KILLER_BONUS = 1 << 20
HINT_SCALE = KILLER_BONUS * 4
EXACT = 0
LOWER = 1
UPPER = 2
# mem[0:16]: counters (SearchStats order) and search state
C_NODES = 0
C_LEAVES = 1
C_PROBES = 2
C_HITS = 3
C_TTCUTS = 4
C_CUTS = 5
C_FIRST = 6
C_RESEARCH = 7
C_SELDEPTH = 8
C_HORIZON = 9
C_LIMIT = 10
C_ABORTED = 11
C_ROOTBEST = 12
C_USED = 13
C_GEN = 14
C_MASK = 15
C_EPOCH = 16
C_STOP = 17
C_NODE_LIMIT = 18
POLL = 4096  # nodes between polls of the stop flag (about 1 ms of search)
# mem[24:34]: the SearchConfig switches and the kernel-hook switches
F_TT = 24
F_PVS = 25
F_ORDERING = 26
F_HINTS = 27
F_KILLERS = 28
F_HISTORY = 29
F_SHORTCUTS = 30
F_PONS = 31
F_LEAF = 32
F_CUTOFF = 33
# the rest of mem: killers, history, PV table, move lists and their ordering scores per ply
PLIES = PLY_LIMIT + 2
KILL = F_CUTOFF + 1
HIST = KILL + 2 * PLIES
PVLEN = HIST + MOVE_LIMIT
PV = PVLEN + PLIES
MOVES = PV + PLIES * PLIES
SCORES = MOVES + PLIES * MAX_MOVES
MEM_SIZE = SCORES + PLIES * MAX_MOVES
# A table entry: tt[2 * slot] is the full key; tt[2 * slot + 1] packs value (32 bits, offset),
# depth (10), bound (2), move + 1 (8: moves < 255), the generation modulo 64 (6) and the epoch
# (5).  A slot is occupied iff its epoch is the table's: clearing is one increment (reset()).
V_OFF = 1 << 31
D_SHIFT = 32
B_SHIFT = 42
M_SHIFT = 44
G_SHIFT = 52
E_SHIFT = 58


def make_workspace(capacity):
    """Every array the search uses, allocated once (capacity: a power of two)."""
    mem = _np.zeros(MEM_SIZE, dtype=_np.int64)
    mem[C_LIMIT] = 1 << 62
    mem[C_NODE_LIMIT] = 1 << 62
    mem[C_MASK] = capacity - 1
    mem[C_EPOCH] = 1
    mem[KILL:KILL + 2 * PLIES] = -1
    return mem, _np.zeros(2 * capacity, dtype=_np.uint64)  # (key, data) pairs, one line


@kernel
def t_to_tt(value, ply):
    if value >= WIN_BOUND:
        return value + ply
    if value <= -WIN_BOUND:
        return value - ply
    return value


@kernel
def t_from_tt(value, ply):
    if value >= WIN_BOUND:
        return value - ply
    if value <= -WIN_BOUND:
        return value + ply
    return value


@kernel
def t_store(mem, tt, key, depth, value, bound, move):
    """TranspositionTable.store: depth-preferred within a generation, same slot rules."""
    slot = 2 * _np.int64(key & _np.uint64(mem[C_MASK]))
    old = _np.int64(tt[slot + 1])
    if (old >> E_SHIFT) != mem[C_EPOCH]:
        mem[C_USED] += 1
    elif (tt[slot] != key and ((old >> G_SHIFT) & 63) == (mem[C_GEN] & 63)
          and ((old >> D_SHIFT) & 1023) > depth):
        return
    elif tt[slot] == key and move < 0:
        move = ((old >> M_SHIFT) & 255) - 1
    tt[slot] = key
    tt[slot + 1] = _np.uint64((value + V_OFF) | (depth << D_SHIFT) | (bound << B_SHIFT)
                  | ((move + 1) << M_SHIFT) | ((mem[C_GEN] & 63) << G_SHIFT)
                  | (mem[C_EPOCH] << E_SHIFT))  # < 2**63: stays an exact uint64


@kernel
def t_order(state, mem, ply, count, tt_move):
    """MoveOrderer.order: TT move, hints, killers, history; stable, best first."""
    base = MOVES + ply * MAX_MOVES
    sbase = SCORES + ply * MAX_MOVES
    k0 = mem[KILL + 2 * ply] if mem[F_KILLERS] else -1
    k1 = mem[KILL + 2 * ply + 1] if mem[F_KILLERS] else -1
    use_hints = HAS_HINTS and mem[F_HINTS] != 0
    use_history = mem[F_HISTORY] != 0
    for i in range(count):
        m = mem[base + i]
        s = _np.int64(k_hint(state, m)) * HINT_SCALE if use_hints else _np.int64(0)
        if m == tt_move:
            s += TT_BONUS
        elif m == k0:
            s += KILLER_BONUS * 2
        elif m == k1:
            s += KILLER_BONUS
        elif use_history:
            s += mem[HIST + m]
        mem[sbase + i] = s
    for i in range(1, count):  # insertion sort, descending, stable
        m = mem[base + i]
        s = mem[sbase + i]
        j = i
        while j > 0 and mem[sbase + j - 1] < s:
            mem[base + j] = mem[base + j - 1]
            mem[sbase + j] = mem[sbase + j - 1]
            j -= 1
        mem[base + j] = m
        mem[sbase + j] = s


@kernel
def t_search(state, depth, alpha, beta, ply, mem, tt):
    """Searcher._search: fail-soft negamax with PVS, TT, ordering and game shortcuts."""
    mem[C_NODES] += 1
    if mem[C_NODES] > mem[C_LIMIT]:  # a poll: the stop flag, or the node budget
        if mem[C_STOP] != 0 or mem[C_NODES] > mem[C_NODE_LIMIT]:
            mem[C_ABORTED] = 1
            return 0
        mem[C_LIMIT] = min(mem[C_NODES] + POLL, mem[C_NODE_LIMIT])
    if ply > mem[C_SELDEPTH]:
        mem[C_SELDEPTH] = ply
    mem[PVLEN + ply] = 0

    # 1. Finished game.
    finished, value = k_outcome(state, ply)
    if finished:
        mem[C_LEAVES] += 1
        return _np.int64(value)
    # 1a. Kernel hooks below the root: an exact solver for small subtrees that the search would
    # read to the end anyway (it adds the nodes and leaves below this node to mem), and a
    # cut-off proved without search.
    if HAS_LEAF_SOLVER and mem[F_LEAF] != 0 and ply > 0:
        solved, value = k_leaf_solve(state, depth, alpha, beta, mem)
        if solved:
            return _np.int64(value)
    if HAS_CUTOFF and mem[F_CUTOFF] != 0 and ply > 0:
        cut, value = k_cutoff(state, alpha, beta)
        if cut:
            mem[C_LEAVES] += 1
            return _np.int64(value)
    key = k_key(state)
    pv_node = beta - alpha > 1
    # 1b. Game shortcuts below the root: a value without search, or a narrower window.
    shortcuts = HAS_SHORTCUTS and mem[F_SHORTCUTS] != 0
    if shortcuts and ply > 0:
        lo, hi = k_bounds(state, ply)
        if lo == hi or lo >= beta:
            mem[C_LEAVES] += 1
            return _np.int64(lo)
        if hi <= alpha:
            mem[C_LEAVES] += 1
            return _np.int64(hi)
        if lo > alpha:
            alpha = lo
        if hi < beta:
            beta = hi

    # 2. Transposition table: a cut-off, or at least a move to try first.
    tt_move = -1
    if mem[F_TT]:
        mem[C_PROBES] += 1
        slot = 2 * _np.int64(key & _np.uint64(mem[C_MASK]))
        entry = _np.int64(tt[slot + 1])
        if (entry >> E_SHIFT) == mem[C_EPOCH] and tt[slot] == key:
            mem[C_HITS] += 1
            tt_move = ((entry >> M_SHIFT) & 255) - 1
            edepth = (entry >> D_SHIFT) & 1023
            if ply > 0 and edepth >= depth and not pv_node:
                value = t_from_tt((entry & 0xFFFFFFFF) - V_OFF, ply)
                bound = (entry >> B_SHIFT) & 3
                if (bound == EXACT or (bound == LOWER and value >= beta)
                        or (bound == UPPER and value <= alpha)):
                    mem[C_TTCUTS] += 1
                    if edepth < SOLVED:
                        mem[C_HORIZON] = 1
                    return value

    # 3. Depth exhausted.
    if depth <= 0 or ply >= MAX_PLY - 1:
        mem[C_LEAVES] += 1
        mem[C_HORIZON] = 1
        return _np.int64(k_evaluate(state))

    # 4. Move ordering.
    base = MOVES + ply * MAX_MOVES
    if shortcuts:
        count = k_search_moves(state, mem, base)
    else:
        count = k_legal_moves(state, mem, base)
    if mem[F_ORDERING]:
        t_order(state, mem, ply, count, tt_move)

    # 5. Children: the first with the full window, the rest with a null window (PVS).
    best = -INF
    best_move = -1
    a = alpha
    outer_horizon = mem[C_HORIZON]
    mem[C_HORIZON] = 0
    child_ply = ply + 1
    for i in range(count):
        move = mem[base + i]
        child = k_play(state, move)
        if i == 0 or mem[F_PVS] == 0:
            value = -t_search(child, depth - 1, -beta, -a, child_ply, mem, tt)
        else:
            value = -t_search(child, depth - 1, -a - 1, -a, child_ply, mem, tt)
            if a < value < beta and mem[C_ABORTED] == 0:
                mem[C_RESEARCH] += 1
                value = -t_search(child, depth - 1, -beta, -a, child_ply, mem, tt)
        if mem[C_ABORTED]:
            return 0
        if value > best:
            best = value
            best_move = move
            if ply == 0:
                mem[C_ROOTBEST] = move
            if value > a:
                a = value
                row = PV + ply * PLIES
                child_row = row + PLIES
                mem[row] = move
                n = mem[PVLEN + child_ply]
                for j in range(n):
                    mem[row + j + 1] = mem[child_row + j]
                mem[PVLEN + ply] = n + 1
                if value >= beta:
                    mem[C_CUTS] += 1
                    if i == 0:
                        mem[C_FIRST] += 1
                    if mem[F_ORDERING]:
                        if mem[F_KILLERS]:
                            k = KILL + 2 * ply
                            if mem[k] != move:
                                mem[k + 1] = mem[k]
                                mem[k] = move
                        if mem[F_HISTORY]:
                            mem[HIST + move] = min(mem[HIST + move] + depth * depth,
                                                   KILLER_BONUS - 1)
                    break
    stored_depth = depth if mem[C_HORIZON] else SOLVED
    if outer_horizon:
        mem[C_HORIZON] = 1

    # 6. Store and return.
    if best >= beta:
        bound = LOWER
    elif best <= alpha:
        bound = UPPER
    else:
        bound = EXACT
    if mem[F_TT]:
        t_store(mem, tt, key, stored_depth, t_to_tt(best, ply), bound, best_move)
    return best


@kernel
def t_root(state, depth, alpha, beta, ply, mem, tt):
    """Searcher.search: reset the root move, horizon and abort flags, clamp the depth; the
    first node polls the stop flag.
    (Every int reaching t_search comes from an argument: a literal would give numba a second,
    literal-typed specialisation of the recursive function, which breaks the disk cache.)
    """
    mem[C_ROOTBEST] = -1
    mem[C_HORIZON] = 0
    mem[C_ABORTED] = 0
    mem[C_LIMIT] = mem[C_NODES]
    if depth > MAX_PLY - 1:
        depth = depth - depth + MAX_PLY - 1
    return t_search(state, depth, alpha, beta, ply, mem, tt)
'''


class ConfigLike(Protocol):
    """The SearchConfig switches the template honours (any object with these fields; the
    compiled layer does not import the search layer).
    """

    @property
    def tt(self) -> bool:
        """Use the transposition table."""
        ...

    @property
    def pvs(self) -> bool:
        """Null windows after the first move."""
        ...

    @property
    def ordering(self) -> bool:
        """Order moves at all."""
        ...

    @property
    def hints(self) -> bool:
        """Use the game's move hints."""
        ...

    @property
    def killers(self) -> bool:
        """Killer moves."""
        ...

    @property
    def history(self) -> bool:
        """History heuristic."""
        ...

    @property
    def tt_capacity(self) -> int:
        """Table slots (rounded up to a power of two)."""
        ...

    @property
    def bisection(self) -> str:
        """exact_value's probe order: 'zero' or 'pons'."""
        ...

    @property
    def leaf_solver(self) -> bool:
        """Use the kernels' exact solver for small subtrees (``k_leaf_solve``)."""
        ...

    @property
    def cutoff(self) -> bool:
        """Use the kernels' proven bounds (``k_cutoff``)."""
        ...


STAT_NAMES = ("nodes", "leaves", "tt_probes", "tt_hits", "tt_cutoffs", "cutoffs",
              "first_move_cutoffs", "researches", "seldepth")

_lock = threading.Lock()
_built: dict[tuple[str, str, bool], types.ModuleType] = {}
_warned = False


def cache_dir() -> Path:
    """Where generated modules and numba's cache live (``SAKIYOMI_CACHE`` overrides)."""
    env = os.environ.get("SAKIYOMI_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "sakiyomi" / "compiled"


def kernel_body(module_name: str) -> str:
    """The kernel text of a kernel module: everything from the KERNELS marker on."""
    spec = importlib.util.find_spec(module_name)
    if spec is None or spec.origin is None:
        raise ImportError(f"no kernel module {module_name}")
    text = Path(spec.origin).read_text(encoding="utf-8")
    at = text.find(KERNEL_MARKER)
    if at < 0:
        raise ImportError(f"{module_name} has no '{KERNEL_MARKER}' marker")
    return text[at:]


def source(module_name: str, params: dict[str, int], compiled: bool) -> str:
    """Header + parameters + kernels (+ the search template and the Monte Carlo playouts of
    ``sakiyomi.compiled.playout`` when compiled).
    """
    header = HEADER_NUMBA if compiled else HEADER_PLAIN
    lines = "".join(f"{name} = {int(value)!r}\n" for name, value in sorted(params.items()))
    text = header + lines + kernel_body(module_name)
    return text + TEMPLATE + PLAYOUT if compiled else text


def numba_available() -> bool:
    """True when numba imports; otherwise say so once on stderr."""
    global _warned
    try:
        import numba  # noqa: F401
    except ImportError:
        if not _warned:
            _warned = True
            print("sakiyomi: numba is not installed: using the (slower) Python engine",
                  file=sys.stderr)
        return False
    return True


def build(module_name: str, params: dict[str, int], compiled: bool = True) -> types.ModuleType:
    """The kernels of ``module_name`` specialised by ``params``: with the compiled search
    template (numba, cached on disk) or as plain Python functions (``compiled=False``).
    """
    text = source(module_name, params, compiled)
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    cache_key = (module_name, digest, compiled)
    with _lock:
        module = _built.get(cache_key)
        if module is not None:
            return module
        stem = module_name.removeprefix("sakiyomi.").replace(".", "_")  # games_othello_kernels
        name = f"sakiyomi_gen_{stem}_{digest}"
        if compiled:
            directory = cache_dir()
            directory.mkdir(parents=True, exist_ok=True)
            path = directory / f"{name}.py"
            if not path.exists():
                tmp = path.with_suffix(f".{os.getpid()}.tmp")
                tmp.write_text(text, encoding="utf-8")
                os.replace(tmp, path)
            spec = importlib.util.spec_from_file_location(name, path)
            assert spec is not None and spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module
            spec.loader.exec_module(module)
        else:
            module = types.ModuleType(name)
            exec(compile(text, f"<{name}>", "exec"), module.__dict__)
        _built[cache_key] = module
        return module


class CompiledSearch:
    """The workspace of one compiled search (TT, killers, history, counters, flags), kept
    across calls like one ``Searcher`` object.  It runs root searches only: every driver is the
    shared Python one (``sakiyomi.search.drivers`` / ``solve``), via ``sakiyomi.engines``.

    The search releases the GIL, so other threads may call ``request_stop`` (the loop polls the
    flag every ``POLL`` nodes) and read ``stats`` while it runs.
    """

    def __init__(self, module: types.ModuleType, config: ConfigLike,
                 shortcuts: bool = True, leaf_solver: bool | None = None,
                 cutoff: bool | None = None) -> None:
        capacity = 1
        while capacity < max(1, config.tt_capacity):
            capacity <<= 1
        self.module = module
        self.capacity = capacity
        self.mem, self.tt = module.make_workspace(capacity)
        self._root = module.t_root
        self._flags = (config.tt, config.pvs, config.ordering, config.hints, config.killers,
                       config.history, shortcuts, config.bisection == "pons",
                       config.leaf_solver if leaf_solver is None else leaf_solver,
                       config.cutoff if cutoff is None else cutoff)
        self._set_flags()

    def touch(self) -> None:
        """Write the whole table once, so that page faults do not land inside timings."""
        self.tt.fill(0)
        self.mem[self.module.C_EPOCH] = 1

    def _set_flags(self) -> None:
        for i, flag in enumerate(self._flags):
            self.mem[self.module.F_TT + i] = int(flag)

    def reset(self) -> None:
        """Forget everything, like a fresh Searcher: empty table, no killers or history, zero
        counters, no stop request.  The table empties by moving to the next epoch (a full
        clear every 31).
        """
        module, mem = self.module, self.mem
        mask = int(mem[module.C_MASK])
        epoch = int(mem[module.C_EPOCH]) + 1
        if epoch > 31:
            self.tt.fill(0)
            epoch = 1
        mem[:] = 0
        mem[module.C_LIMIT] = 1 << 62
        mem[module.C_NODE_LIMIT] = 1 << 62
        mem[module.C_MASK] = mask
        mem[module.C_EPOCH] = epoch
        mem[module.KILL:module.KILL + 2 * module.PLIES] = -1
        self._set_flags()

    def counters(self) -> list[int]:
        """The counters so far, in ``STAT_NAMES`` order (a consistent-enough live read)."""
        values: list[int] = self.mem[:len(STAT_NAMES)].tolist()
        return values

    @property
    def stats(self) -> dict[str, int]:
        """Counters so far (SearchStats field names)."""
        return dict(zip(STAT_NAMES, self.counters(), strict=True))

    def set_node_limit(self, nodes: int | None) -> None:
        """Abort once the total node count passes ``nodes`` (None: no limit)."""
        limit = 1 << 62 if nodes is None else max(0, min(int(nodes), 1 << 62))
        self.mem[self.module.C_NODE_LIMIT] = limit

    def request_stop(self) -> None:
        """Make the running (or next) search abort at its next poll; thread-safe."""
        self.mem[self.module.C_STOP] = 1

    def clear_stop(self) -> None:
        """Withdraw a stop request (before a new search with a new stop signal)."""
        self.mem[self.module.C_STOP] = 0

    @property
    def aborted(self) -> bool:
        """True when the last call stopped on the node limit or a stop request."""
        return bool(self.mem[self.module.C_ABORTED])

    @property
    def hit_horizon(self) -> bool:
        """True when the last root search met its depth limit somewhere."""
        return bool(self.mem[self.module.C_HORIZON])

    def new_search(self) -> None:
        """TranspositionTable.new_search: older entries become preferred victims."""
        self.mem[self.module.C_GEN] += 1

    def hashfull(self) -> int:
        """Permille of table slots in use."""
        return min(1000, int(self.mem[self.module.C_USED]) * 1000 // self.capacity)

    def pv(self) -> tuple[int, ...]:
        """The PV of the last root search, as kernel moves."""
        module = self.module
        n = int(self.mem[module.PVLEN])
        return tuple(self.mem[module.PV:module.PV + n].tolist())

    def root_best(self) -> int | None:
        """The best root move of the last root search (None before any move was searched)."""
        best = int(self.mem[self.module.C_ROOTBEST])
        return best if best >= 0 else None

    def search(self, state: tuple[Any, ...], depth: int, alpha: int, beta: int) -> int:
        """One root search (Searcher.search without the abort exception: see ``aborted``)."""
        return int(self._root(state, depth, alpha, beta, 0, self.mem, self.tt))

    def entry_point(self) -> Any:
        """``t_root`` callable without numba's per-call type dispatch (about half the cost of
        a call): the compiled overload itself once there is exactly one (the root search is
        always called with the same argument types); None while nothing is compiled yet (call
        ``search`` once first); a plain wrapper when numba's JIT is off.
        """
        root = self._root
        overloads = getattr(root, "overloads", None)
        if overloads is not None and len(overloads) == 1:
            return next(iter(overloads.values())).entry_point
        if overloads is not None and not overloads:
            return None

        def plain(*args: Any) -> int:  # the dispatcher, or plain Python (NUMBA_DISABLE_JIT)
            return int(root(*args))

        return plain
