"""The compiled search: the text ``template.build`` appends after a game's kernels.

This is the production ``Searcher``'s node search (``sakiyomi.search.searcher``), step for step,
so that both engines visit the same nodes: negamax, fail-soft, PVS with a re-search inside the
window, TT (same slots, probe and replacement rules) in preallocated numpy arrays, ordering by
TT move, game hints, killers and history with a stable sort, game shortcuts
(``SearchShortcuts``), seed 003's shallow pre-search (``presort_depth``), and the SOLVED
depth for subtrees that never met the depth limit.  Not here: quiescence and repetition checks
(kernel games are acyclic and have no noisy moves), and the Searcher's other options
(``engines.COMPILED_FIELDS``: a search asking for one runs on the Python Searcher).  Here are
the root search (``t_root``) and the hooks that let the shared probe sequence of a solve
(``sakiyomi.probes``: bisection and the walk of the principal variation) run in one compiled
call; every other driver (iterative deepening, MTD(f), analyze) is the shared Python one,
calling ``t_root`` once per search.

It is a real module so that ruff, mypy and coverage see it, but it only runs as part of a
generated module: the imports above the ``KERNELS`` marker give the type checker (and a plain
``import``) the kernel interface (``kernel_api``) and the shared constants; ``build`` writes
those constants' values into the generated header instead (so the source hash covers them) and
copies this text from the marker on after the game's kernels, where the ``k_*`` names resolve
to the game's.  Lessons kept from the prototypes: no literal constants in recursive calls;
uint64 constants wrapped; no clock inside (a stop word set from outside, polled every ``POLL``
nodes, and an exact node budget end the search).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sakiyomi.compiled.kernel_api import (
    HAS_BOUNDS_MOVES,
    HAS_CUTOFF,
    HAS_ETC,
    HAS_HINTS,
    HAS_LEAF_SOLVER,
    HAS_SHORTCUTS,
    MAX_MOVES,
    MOVE_LIMIT,
    PLY_LIMIT,
    PREFETCH_CHILDREN,
    SCRATCH,
    TWO_BOUNDS,
    Mem,
    State,
    Table,
    clock_ns,
    entry,
    inlined,
    k_bounds,
    k_bounds_moves,
    k_cutoff,
    k_etc,
    k_evaluate,
    k_hint,
    k_key,
    k_leaf_solve,
    k_legal_moves,
    k_outcome,
    k_parse,
    k_play,
    k_score_bounds,
    k_search_moves,
    k_table_bits,
    kernel,
    prefetch,
)
from sakiyomi.ordering import HINT_SCALE, KILLER_BONUS, TT_BONUS
from sakiyomi.probes import FULL_DEPTH, l_solve
from sakiyomi.score import INF, MAX_PLY, SOLVED, WIN, WIN_BOUND
from sakiyomi.tt import Bound

EXACT = int(Bound.EXACT)
LOWER = int(Bound.LOWER)
UPPER = int(Bound.UPPER)
# Build switch: the shallow pre-search (step 4b) is compiled only into modules built with the
# parameter PRESORT=1 (``presort_params``), so that the searches without it do not carry its
# recursive call site (2 % slower per node on Connect Four solves when it was always there).
PRESORT = 0
SHARED: dict[str, int] = {
    "WIN": WIN, "MAX_PLY": MAX_PLY, "INF": INF, "WIN_BOUND": WIN_BOUND, "SOLVED": SOLVED,
    "TT_BONUS": TT_BONUS, "KILLER_BONUS": KILLER_BONUS, "HINT_SCALE": HINT_SCALE,
    "EXACT": EXACT, "LOWER": LOWER, "UPPER": UPPER, "PRESORT": PRESORT,
}
"""The constants ``build`` writes into a generated module's header (score scale, ordering
bonuses, bound kinds): one definition each, in ``score``, ``ordering`` and ``tt``; and the
default of the PRESORT build switch, which a module's parameters may override."""

# ---- KERNELS (the search template: copied into generated modules from here on) ----

from typing import cast  # noqa: E402  (imports from here on are copied with the template)

import numpy as _np  # noqa: E402

# Every integer of the compiled search is an int64; the type checker models them as ints.
I64 = cast("Callable[[Any], int]", _np.int64)

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
# mem[19:22]: a solve (t_run): the interval proved so far, the root move reaching its lower bound
C_LINE_LO = 19
C_LINE_HI = 20
C_LINE_MOVE = 21
C_FULL_MASK = 22  # the table's own mask; C_MASK, the part a solve uses (k_table_bits), <= it
C_DIRTY = 23  # the largest C_MASK used since the table was last zeroed: what a full clear clears
POLL = 4096  # nodes between polls of the stop flag (about 1 ms of search)
# mem[24:35]: the SearchConfig switches and the kernel-hook switches (in the order of
# ``CompiledSearch._flags``), then the presort depth
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
F_PRESORT = 34  # SearchConfig.presort_depth (0: off)
C_LINE_NEXT = 35  # the walk of a solve's PV: the move proved next on the line (-1: none)
# the rest of mem: killers, history, PV table, move lists and their ordering scores per ply,
# then the kernels' SCRATCH words
PLIES = PLY_LIMIT + 2
KILL = C_LINE_NEXT + 1
HIST = KILL + 2 * PLIES
PVLEN = HIST + MOVE_LIMIT
PV = PVLEN + PLIES
MOVES = PV + PLIES * PLIES
SCORES = MOVES + PLIES * MAX_MOVES
MEM_SIZE = SCORES + PLIES * MAX_MOVES + SCRATCH  # the kernels' scratch words last
# A table entry: tt[2 * slot] is the full key XOR the data word, tt[2 * slot + 1] (the data)
# packs value (22 bits, offset:
# |value| <= WIN + MAX_PLY < 2**21), depth (10), bound (2), move + 1 (8: moves < 255), the
# generation modulo 64 (6) and the epoch (15).  A slot is occupied iff its epoch is the
# table's: clearing is one increment (reset()), and a full clear is needed only once every
# EPOCH_LIMIT resets (a batch of solves must not rewrite a 128 MiB table every few lines).
# With the kernels' TWO_BOUNDS a slot has a third word: the value field of the second word is
# then the lower bound and the third word the upper bound (both offset by V_OFF; NO_LOWER and
# NO_UPPER when unknown), and the bound field is unused.
# Storing key ^ data (Hyatt's lockless hashing) lets processes share one table (parallel
# solving: ``CompiledSearch(table=)``): an entry torn by two writers, or read half-written,
# fails the key check and is a miss, never a wrong bound.  Alone it changes nothing.  (The
# third word of TWO_BOUNDS is not covered: kernels sharing a table keep TWO_BOUNDS off.)
V_OFF = 1 << 21
V_MASK = (1 << 22) - 1
D_SHIFT = 22
B_SHIFT = 32
M_SHIFT = 34
G_SHIFT = 42
E_SHIFT = 48
EPOCH_LIMIT = (1 << 15) - 1
SLOT = 3 if TWO_BOUNDS else 2  # words per table slot
NO_LOWER = 1 - V_OFF
NO_UPPER = V_OFF - 1


def make_workspace(capacity: int) -> tuple[Mem, Table]:
    """Every array the search uses, allocated once (capacity: a power of two)."""
    mem = _np.zeros(MEM_SIZE, dtype=_np.int64)
    mem[C_LIMIT] = 1 << 62
    mem[C_NODE_LIMIT] = 1 << 62
    mem[C_MASK] = capacity - 1
    mem[C_FULL_MASK] = capacity - 1
    mem[C_EPOCH] = 1
    mem[KILL:KILL + 2 * PLIES] = -1
    return mem, _np.zeros(SLOT * capacity, dtype=_np.uint64)  # (key, data[, upper]) slots


@kernel
def t_to_tt(value: int, ply: int) -> int:
    """score.to_tt: a win/loss distance made relative to the storing node."""
    if value >= WIN_BOUND:
        return value + ply
    if value <= -WIN_BOUND:
        return value - ply
    return value


@kernel
def t_from_tt(value: int, ply: int) -> int:
    """score.from_tt: undo ``t_to_tt`` for a node ``ply`` plies below the root."""
    if value >= WIN_BOUND:
        return value - ply
    if value <= -WIN_BOUND:
        return value + ply
    return value


@kernel
def t_entry(mem: Mem, tt: Table, key: Any) -> tuple[int, int]:
    """(slot, data) of ``key``'s table entry: its slot's first word, and its data word as an
    int64 (< 2**63, so never negative), or -1 when the slot holds no entry of ``key`` in the
    table's epoch.  The one look-up of the node search, the ETC and the PV walk.
    """
    slot = SLOT * I64(key & _np.uint64(mem[C_MASK]))
    data = tt[slot + 1]
    entry = I64(data)
    if (entry >> E_SHIFT) != mem[C_EPOCH] or (tt[slot] ^ data) != key:
        return slot, -1
    return slot, entry


@kernel
def t_store(mem: Mem, tt: Table, key: Any, depth: int, value: int, bound: int,
            move: int) -> None:
    """TranspositionTable.store: depth-preferred within a generation, same slot rules.  With
    TWO_BOUNDS, a result for the key and depth already stored keeps the other bound.
    """
    slot = SLOT * I64(key & _np.uint64(mem[C_MASK]))
    old_data = tt[slot + 1]
    old = I64(old_data)
    mine = (tt[slot] ^ old_data) == key
    same = False
    if (old >> E_SHIFT) != mem[C_EPOCH]:
        mem[C_USED] += 1
    elif (not mine and ((old >> G_SHIFT) & 63) == (mem[C_GEN] & 63)
          and ((old >> D_SHIFT) & 1023) > depth):
        return
    elif mine:
        same = ((old >> D_SHIFT) & 1023) == depth
        if move < 0:
            move = ((old >> M_SHIFT) & 255) - 1
    if TWO_BOUNDS:
        lower = I64(NO_LOWER)
        upper = I64(NO_UPPER)
        if same:
            lower = (old & V_MASK) - V_OFF
            upper = I64(tt[slot + 2]) - V_OFF
        if bound != UPPER:
            lower = max(lower, value)
        if bound != LOWER:
            upper = min(upper, value)
        if lower > upper:  # inconsistent with what was kept (another depth's view): start over
            lower = value if bound != UPPER else I64(NO_LOWER)
            upper = value if bound != LOWER else I64(NO_UPPER)
        value = lower
        tt[slot + 2] = _np.uint64(upper + V_OFF)
    data = _np.uint64((value + V_OFF) | (depth << D_SHIFT) | (bound << B_SHIFT)
                      | ((move + 1) << M_SHIFT) | ((mem[C_GEN] & 63) << G_SHIFT)
                      | (mem[C_EPOCH] << E_SHIFT))  # < 2**63: stays an exact uint64
    tt[slot] = key ^ data
    tt[slot + 1] = data


@kernel
def t_order(state: State, mem: Mem, ply: int, count: int, tt_move: int) -> None:
    """MoveOrderer.order: TT move, hints, killers, history; stable, best first."""
    base = MOVES + ply * MAX_MOVES
    sbase = SCORES + ply * MAX_MOVES
    k0 = mem[KILL + 2 * ply] if mem[F_KILLERS] else -1
    k1 = mem[KILL + 2 * ply + 1] if mem[F_KILLERS] else -1
    use_hints = HAS_HINTS and mem[F_HINTS] != 0
    use_history = mem[F_HISTORY] != 0
    for i in range(count):
        m = mem[base + i]
        s = I64(k_hint(state, m)) * HINT_SCALE if use_hints else I64(0)
        if m == tt_move:
            s += TT_BONUS
        elif m == k0:
            s += KILLER_BONUS * 2
        elif m == k1:
            s += KILLER_BONUS
        elif use_history:
            s += mem[HIST + m]
        mem[sbase + i] = s
    t_sort(mem, base, sbase, count)


@inlined
def t_sort(mem: Mem, base: int, sbase: int, count: int) -> None:
    """Sort the ``count`` moves at ``mem[base:]`` by their scores at ``mem[sbase:]``, best
    first, equal scores in their order (an insertion sort: lists are short).  Inlined where
    it is used, as the loop was written in both places before.
    """
    for i in range(1, count):
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
def t_prefetch(state: State, mem: Mem, tt: Table, base: int, count: int) -> None:
    """Prefetch the table slot of each child of the moves at ``mem[base:]`` (PREFETCH_CHILDREN)."""
    mask = _np.uint64(mem[C_MASK])
    for i in range(count):
        prefetch(tt, SLOT * I64(k_key(k_play(state, mem[base + i])) & mask))


@kernel
def t_etc(state: State, depth: int, beta: int, ply: int, mem: Mem, tt: Table, base: int,
          count: int) -> int:
    """Enhanced transposition cut-off: look up each child of the moves at ``mem[base:]``; when
    one's stored upper bound u gives -u >= beta, that is this node's fail-high value (no search,
    no node counted); otherwise -INF.
    """
    for i in range(count):
        slot, entry = t_entry(mem, tt, k_key(k_play(state, mem[base + i])))
        if entry < 0 or ((entry >> D_SHIFT) & 1023) < depth - 1:
            continue
        if TWO_BOUNDS:
            upper = I64(tt[slot + 2]) - V_OFF
        else:
            if ((entry >> B_SHIFT) & 3) == LOWER:
                continue
            upper = (entry & V_MASK) - V_OFF
        value = -t_from_tt(upper, ply + 1)
        if value >= beta:
            mem[C_TTCUTS] += 1
            if ((entry >> D_SHIFT) & 1023) < SOLVED:
                mem[C_HORIZON] = 1
            return value
    return -INF


@kernel
def t_search(state: State, depth: int, alpha: int, beta: int, ply: int, mem: Mem,
             tt: Table) -> int:
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
        return I64(value)
    # 1a. Kernel hooks below the root: an exact solver for small subtrees that the search would
    # read to the end anyway (it adds the nodes and leaves below this node to mem), and a
    # cut-off proved without search.
    if HAS_LEAF_SOLVER and mem[F_LEAF] != 0 and ply > 0:
        solved, value = k_leaf_solve(state, depth, alpha, beta, mem)
        if solved:
            return I64(value)
    if HAS_CUTOFF and mem[F_CUTOFF] != 0 and ply > 0:
        cut, value = k_cutoff(state, alpha, beta)
        if cut:
            mem[C_LEAVES] += 1
            return I64(value)
    key = k_key(state)
    pv_node = beta - alpha > 1
    # 1b. Game shortcuts below the root: a value without search, or a narrower window (with
    # HAS_BOUNDS_MOVES, the moves of step 4 come out of the same pass).
    shortcuts = HAS_SHORTCUTS and mem[F_SHORTCUTS] != 0
    base = MOVES + ply * MAX_MOVES
    count = -1
    if shortcuts and ply > 0:
        if HAS_BOUNDS_MOVES:
            lo, hi, count = k_bounds_moves(state, ply, mem, base)
        else:
            lo, hi = k_bounds(state, ply)
        if lo == hi or lo >= beta:
            mem[C_LEAVES] += 1
            return I64(lo)
        if hi <= alpha:
            mem[C_LEAVES] += 1
            return I64(hi)
        if lo > alpha:
            alpha = lo
        if hi < beta:
            beta = hi
    # 1c. The children's table slots asked for now, so that their misses overlap (a hint).
    if PREFETCH_CHILDREN and count > 0 and mem[F_TT]:
        t_prefetch(state, mem, tt, base, count)

    # 2. Transposition table: a cut-off, or at least a move to try first.
    tt_move = -1
    if mem[F_TT]:
        mem[C_PROBES] += 1
        slot, entry = t_entry(mem, tt, key)
        if entry >= 0:
            mem[C_HITS] += 1
            tt_move = ((entry >> M_SHIFT) & 255) - 1
            edepth = (entry >> D_SHIFT) & 1023
            if ply > 0 and edepth >= depth and not pv_node:
                value = t_from_tt((entry & V_MASK) - V_OFF, ply)
                if TWO_BOUNDS:
                    upper = t_from_tt(I64(tt[slot + 2]) - V_OFF, ply)
                    cut = value >= beta or upper <= alpha
                    if value < beta:
                        value = upper
                else:
                    bound = (entry >> B_SHIFT) & 3
                    cut = (bound == EXACT or (bound == LOWER and value >= beta)
                           or (bound == UPPER and value <= alpha))
                if cut:
                    mem[C_TTCUTS] += 1
                    if edepth < SOLVED:
                        mem[C_HORIZON] = 1
                    return value

    # 3. Depth exhausted.
    if depth <= 0 or ply >= MAX_PLY - 1:
        mem[C_LEAVES] += 1
        mem[C_HORIZON] = 1
        return I64(k_evaluate(state))

    # 4. Move ordering.
    if count >= 0:
        pass  # written by k_bounds_moves
    elif shortcuts:
        count = k_search_moves(state, mem, base)
    else:
        count = k_legal_moves(state, mem, base)
    # 4a. Enhanced transposition cut-off: a child whose stored upper bound refutes it.
    if HAS_ETC and mem[F_TT] and ply > 0 and not pv_node and k_etc(state, depth):
        value = t_etc(state, depth, beta, ply, mem, tt, base, count)
        if value >= beta:
            return value
    if mem[F_ORDERING]:
        t_order(state, mem, ply, count, tt_move)
        # 4b. Seed 003's shallow pre-search (Searcher's ``presort``): every move searched
        # ``F_PRESORT - 1`` plies deep with the open window, then the moves sorted by those
        # values, the TT move still first (stable).  Inline: a helper that called t_search
        # would make the recursion mutual, which numba's cache does not survive.
        if PRESORT:  # a build switch: the usual build has no such step (presort_params)
            shallow = mem[F_PRESORT]
            if shallow > 0 and depth > shallow + 1:
                sbase = SCORES + ply * MAX_MOVES
                zero = mem[C_NODES] - mem[C_NODES]  # the window below: no literal (t_root)
                for i in range(count):
                    move = mem[base + i]
                    value = -t_search(k_play(state, move), shallow - 1, zero - INF,
                                      zero + INF, ply + 1, mem, tt)
                    if mem[C_ABORTED]:
                        return 0
                    mem[sbase + i] = value + TT_BONUS if move == tt_move else value
                t_sort(mem, base, sbase, count)

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


@inlined
def t_root(state: State, depth: int, alpha: int, beta: int, ply: int, mem: Mem,
           tt: Table) -> int:
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



# The hooks of ``sakiyomi.probes`` (its text is copied after this one): the probe sequence of a
# solve runs here on a context (state, mem, tt), in one call from Python (``t_run``).


@inlined
def line_probe(ctx: tuple[State, Mem, Table], depth: int, alpha: int, beta: int) -> int:
    """One root search of the line (``t_root`` at ply 0).  The probe sequence passes
    constants (the full depth, -1 and 1...): each is made a plain int64 here, or the recursive
    search would be typed for a literal, which breaks numba's disk cache (DESIGN.md §5).
    """
    state, mem, tt = ctx
    zero = mem[C_NODES] - mem[C_NODES]
    return t_root(state, depth + zero, alpha + zero, beta + zero, zero, mem, tt)


@kernel
def line_stopped(ctx: tuple[State, Mem, Table]) -> bool:
    """True when the last root search was stopped (node budget or stop word)."""
    return bool(ctx[1][C_ABORTED] != 0)


@kernel
def line_proved(ctx: tuple[State, Mem, Table], lo: int, hi: int, up: bool) -> None:
    """Keep the interval proved so far, and the root move that reached ``lo`` when ``up``."""
    mem = ctx[1]
    mem[C_LINE_LO] = lo
    mem[C_LINE_HI] = hi
    if up:
        mem[C_LINE_MOVE] = mem[C_ROOTBEST]


@kernel
def t_entry_lower(state: State, ply: int, mem: Mem, tt: Table) -> tuple[int, int]:
    """(move, lower bound) of ``state``'s table entry at ``ply``: the bound only when solved
    (-INF: none, or an upper bound; move -1: no entry).
    """
    if mem[F_TT] == 0:
        return -1, -INF
    _, entry = t_entry(mem, tt, k_key(state))
    if entry < 0:
        return -1, -INF
    move = ((entry >> M_SHIFT) & 255) - 1
    if ((entry >> D_SHIFT) & 1023) < SOLVED or (
            not TWO_BOUNDS and ((entry >> B_SHIFT) & 3) == UPPER):
        return move, -INF
    return move, t_from_tt((entry & V_MASK) - V_OFF, ply)


@kernel
def line_moves(ctx: tuple[State, Mem, Table], ply: int, value: int) -> tuple[int, bool]:
    """The walk's moves at ``ply`` (in the move list row of that ply, which searches below it
    leave alone) of a position whose value is ``value``: those a node of the search tries
    (with the game's shortcuts, its search moves: kernels may rely on the move above a node
    being one of them), none once the game is over.  First the move proved on the line, if
    one is: at ply 0 the bisection's, else the one ``line_try`` kept when it searched this
    position, or the table's when its entry is a solved lower bound >= ``value``; else the
    table's move (not proved).
    """
    state, mem, tt = ctx
    base = MOVES + ply * MAX_MOVES
    kept = mem[C_LINE_NEXT]
    mem[C_LINE_NEXT] = -1
    finished, _ = k_outcome(state, ply)
    if finished:
        return 0, False
    if HAS_SHORTCUTS and mem[F_SHORTCUTS] != 0:  # the moves a node searches (DESIGN.md §5)
        count = k_search_moves(state, mem, base)
    else:
        count = k_legal_moves(state, mem, base)
    proven = True
    first = mem[C_LINE_MOVE] if ply == 0 else kept
    if first < 0:
        first, lower = t_entry_lower(state, ply, mem, tt)
        proven = lower >= value
    at = -1
    for i in range(count):
        if mem[base + i] == first:
            at = i
    if at < 0:
        return count, False
    for i in range(at, 0, -1):
        mem[base + i] = mem[base + i - 1]
    mem[base] = first
    return count, proven


@inlined
def line_try(ctx: tuple[State, Mem, Table], ply: int, i: int, alpha: int, beta: int) -> int:
    """Search the position after the walk's i-th move at ``ply`` as a node ``ply + 1`` below
    the root (``t_root`` there: the root's PV row and best move are left alone).  First, the
    move its table entry proves reaches ``alpha`` is kept (``C_LINE_NEXT``): should the
    search fail low, the position's value is ``alpha`` and that move is on the line (the
    search itself would overwrite the entry).
    """
    state, mem, tt = ctx
    zero = mem[C_NODES] - mem[C_NODES]
    child = k_play(state, mem[MOVES + ply * MAX_MOVES + i])
    move, lower = t_entry_lower(child, ply + 1, mem, tt)
    mem[C_LINE_NEXT] = move if lower >= alpha else -1
    return t_root(child, FULL_DEPTH - ply - 1 + zero, alpha + zero, beta + zero,
                  ply + 1 + zero, mem, tt)


@kernel
def line_advance(ctx: tuple[State, Mem, Table], ply: int,
                 i: int) -> tuple[State, Mem, Table]:
    """Play the walk's i-th move at ``ply``: the line's move there (PV row 0)."""
    state, mem, tt = ctx
    move = mem[MOVES + ply * MAX_MOVES + i]
    mem[PV + ply] = move
    return k_play(state, move), mem, tt


@kernel
def line_finish(ctx: tuple[State, Mem, Table], n: int) -> None:
    """The walk's n moves become the PV, its first the root's best move."""
    mem = ctx[1]
    mem[PVLEN] = n
    mem[C_ROOTBEST] = mem[PV] if n > 0 else -1


@entry
def t_run(state: State, op: int, a: int, b: int, c: int, d: int, mem: Mem, tt: Table) -> int:
    """The one compiled entry point called from Python: ``op`` 0 is one search (``t_root``:
    depth a, window (b, c), of a node d plies below the root: 0 for a root search); ``op`` 1
    a whole solve (``sakiyomi.probes.l_solve``) of the interval [a, b], weak if ``c & 1``,
    with the PV walk if ``c & 2``, first guess at depth d.  A solve returns its value, or,
    when stopped (``mem[C_ABORTED]``), what ``mem[C_LINE_LO]``, ``mem[C_LINE_HI]`` and
    ``mem[C_LINE_MOVE]`` (-1: none) hold; its PV and root best move are the walk's (with the
    PV) or those of its last search (one entry: one load from the cache).
    """
    full = mem[C_FULL_MASK]
    if op == 0:
        mem[C_MASK] = full
        mem[C_DIRTY] = full
        return t_root(state, a, b, c, d, mem, tt)
    bits = k_table_bits(state)
    mem[C_MASK] = full if bits >= 62 else min(full, (1 << bits) - 1)
    mem[C_DIRTY] = max(mem[C_DIRTY], mem[C_MASK])
    mem[C_LINE_LO] = a
    mem[C_LINE_HI] = b
    mem[C_LINE_MOVE] = -1
    mem[C_LINE_NEXT] = -1
    lo, _, stopped = l_solve((state, mem, tt), a, b, (c & 1) != 0, mem[F_PONS] != 0,
                             (c & 2) != 0, d)
    if stopped:
        mem[C_ABORTED] = 1
    return lo


BLOCK_FIELDS = 7  # t_block's row per line: status, value, nodes, leaves, best, PV length, ns


@entry
def t_block(text: Any, starts: Mem, ends: Mem, c: int, d: int, blank: Mem, out: Mem,
            pvs: Mem, mem: Mem, tt: Table) -> int:
    """A batch of solves in one call: line i is ``text[starts[i]:ends[i]]`` (ASCII bytes),
    read by the kernels (``k_parse``) and solved as ``t_run``'s operation 1 would after a
    workspace reset (``CompiledSearch.reset``: next table epoch, blank counters, switches,
    killers and history from ``blank``; at the epoch limit, the table zeroed as far as
    ``C_DIRTY`` says it was written), weak if ``c & 1``, with the PV if ``c & 2``, first
    guess at depth ``d``, over the interval the Python driver gives (``k_score_bounds``, or
    [-1, 1] when weak): so each line's answer and node count are those of a solve on its own.
    Row i of ``out`` (``BLOCK_FIELDS``): ``k_parse``'s status (nonzero: not solved here, the
    rest of the row unset), the value, nodes, leaves, the root's best move (-1: none), the PV
    length (its moves in row i of ``pvs``) and the nanoseconds the line took.  Returns the
    number of lines.  Only for kernels with ``HAS_PARSE``; the Python side checks that.
    """
    head = blank.size
    width = pvs.shape[1]
    for i in range(starts.size):
        begin = clock_ns()
        code, state = k_parse(text, starts[i], ends[i])
        out[i, 0] = code
        if code != 0:
            continue
        zero = out[i, 0]  # a value read from memory: no literal reaches the recursive search
        epoch = mem[C_EPOCH] + 1
        dirty = mem[C_DIRTY]
        if epoch > EPOCH_LIMIT:  # zero what the solves since the last clear may have written
            for k in range(SLOT * (dirty + 1)):
                tt[k] = 0
            epoch = 1
            dirty = zero
        for k in range(head):
            mem[k] = blank[k]
        mem[C_EPOCH] = epoch
        mem[C_DIRTY] = dirty
        if (c & 1) != 0:
            lo = zero - 1
            hi = zero + 1
        else:
            lo, hi = k_score_bounds(state)
        value = t_run(state, zero + 1, lo, hi, c, d, mem, tt)
        out[i, 1] = value
        out[i, 2] = mem[C_NODES]
        out[i, 3] = mem[C_LEAVES]
        out[i, 4] = mem[C_ROOTBEST]
        n = min(mem[PVLEN], width)
        out[i, 5] = n
        for j in range(n):
            pvs[i, j] = mem[PV + j]
        out[i, 6] = clock_ns() - begin
    return starts.size
