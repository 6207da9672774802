"""Engine choice in one place: ``engine_for(game, config, engine=...)`` (DESIGN.md §1.8, §5).

Every caller (CLI, agents, protocols, web, parallel solving) gets its node search here and runs
the shared drivers on it (``sakiyomi.search.drivers``, ``sakiyomi.search.solve``).  Two engines
implement the ``Engine`` protocol with the same algorithm and settings, so they report the same
values and node counts (tests prove it):

* ``"python"`` — the ``Searcher``, for every game;
* ``"compiled"`` — ``CompiledEngine``, a thin adapter over the numba template of
  ``sakiyomi.compiled.template`` for games declaring ``KernelGame`` (Connect Four, Othello).
  It converts the game's position to a kernel state at each root call, hands node budgets to
  the compiled loop and turns ``StopSignal`` stops and deadlines into a flag that the loop
  polls every few thousand nodes (it releases the GIL, so another thread can set it and read
  the live counters).

``"auto"`` picks the compiled engine when the game has kernels and numba imports (said once
on stderr when it does not), else the Python one.  ``solver_config(game)`` gives the settings a
game is solved and searched with, the same for both engines.
"""

from __future__ import annotations

import random
import re
import resource
import sys
import threading
import types
import weakref
from collections.abc import Callable, Hashable
from dataclasses import fields, replace
from typing import Any, Literal, TypeVar, cast

from sakiyomi.compiled import aot
from sakiyomi.compiled import perft as compiled_perft
from sakiyomi.compiled.playout import KernelWalker
from sakiyomi.compiled.template import (
    CompiledSearch,
    build,
    compiling_notice,
    numba_available,
    presort_params,
)
from sakiyomi.game import (
    Game,
    GameError,
    KernelGame,
    SearchShortcuts,
    SolverSettings,
    capable,
)
from sakiyomi.score import INF
from sakiyomi.search import algorithms
from sakiyomi.search.engine import Engine
from sakiyomi.search.limits import Limits, SearchAborted, StopSignal
from sakiyomi.search.mcts import MCTS, MCTSConfig, Walker, game_walker
from sakiyomi.search.perft import perft
from sakiyomi.search.result import SearchInfo, SearchResult, SearchStats
from sakiyomi.search.searcher import SearchConfig, Searcher
from sakiyomi.search.solve import MoveValue, analyze, solve
from sakiyomi.search.tracing import NULL_TRACER, Tracer
from sakiyomi.tt import TranspositionTable

M = TypeVar("M", bound=Hashable)

EngineName = Literal["auto", "compiled", "python"]
ENGINES: tuple[EngineName, ...] = ("auto", "compiled", "python")
# Solver settings for games with shortcuts (Pons's Connect Four solver: his probe order, and
# as many slots as his table, 2**24: with equal slots our trees were no larger than his on
# deep solves whose tree is hundreds of times the table, with half as many 1.2-1.5 times
# larger); both engines get the same, so both count the same nodes.  The compiled table is
# 256 MiB, its pages touched as slots are used.
SOLVER_CONFIG = SearchConfig(tt_capacity=1 << 24, killers=False, history=False,
                             bisection="pons")


# The SearchConfig fields that the compiled template carries out (its switches, table size and
# stop polling), or that the shared drivers read (probe order, first guess), or that cannot
# matter to a kernel game (the template has no quiescence and no repetition step: kernel games
# have no noisy moves and no cycles).  Any other field away from its default is the Python
# Searcher's alone: mate-distance pruning, history malus, counter moves, validation and the
# selective search; a search asking for one runs on the Python engine.
COMPILED_FIELDS = frozenset({
    "tt", "tt_capacity", "pvs", "ordering", "hints", "killers", "history", "shortcuts",
    "check_every", "bisection", "guess_depth", "leaf_solver", "cutoff", "presort_depth",
    "quiescence", "repetition"})
_DEFAULTS = SearchConfig()


def python_only_settings(config: SearchConfig) -> list[str]:
    """The settings of ``config`` that only the Python Searcher carries out (away from their
    defaults, in field order): "auto" picks the Python engine for them, and "compiled" refuses
    them, rather than search another tree than the one asked for.
    """
    return [f.name for f in fields(config) if f.name not in COMPILED_FIELDS
            and getattr(config, f.name) != getattr(_DEFAULTS, f.name)]


def _picks_compiled(engine: str, config: SearchConfig, *, traced: bool = False) -> bool:
    """Whether ``engine`` ("auto", "compiled" or "python") means the compiled engine for a
    search with ``config`` (where the game has kernels): "compiled" always (it refuses what it
    cannot carry out), "auto" unless the search is traced or asks for Python-only settings.
    """
    return engine == "compiled" or (engine == "auto" and not traced
                                    and not python_only_settings(config))


def _compiled_refuses(config: SearchConfig) -> GameError:
    names = ", ".join(python_only_settings(config))
    return GameError(f"the compiled engine has no {names}: use engine 'python' or 'auto'")


def solver_config(game: Game[Any]) -> SearchConfig:
    """The settings ``game`` is solved and searched with (either engine)."""
    if capable(game, SolverSettings):
        settings = cast(SolverSettings, game).solver_settings()
        return SearchConfig(**settings)  # type: ignore[arg-type]
    return SOLVER_CONFIG if capable(game, SearchShortcuts) else SearchConfig()


def compiled_available(game: Game[Any]) -> bool:
    """True when ``game`` can run on the compiled engine here (kernels, and numba or the
    search built ahead of time: ``sakiyomi.compiled.aot``).
    """
    return capable(game, KernelGame) and (_built_ahead(cast(KernelGame, game)) is not None
                                          or numba_available())


def _built_ahead(game: KernelGame) -> types.ModuleType | None:
    """The search of ``game`` from its ahead-of-time extension, if one was built."""
    module_name, params = game.kernel_spec()
    return aot.load(module_name, params)


def solvable(game: Game[Any]) -> bool:
    """True when trying to solve every move exactly within a move's budget is worth it (the
    compiled solver of a kernel game: Connect Four, Othello endgames).
    """
    return compiled_available(game)


def engine_for(
    game: Game[M], config: SearchConfig | None = None, *, engine: str = "auto",
    stop: StopSignal | None = None, tracer: Tracer = NULL_TRACER,
) -> Engine[M]:
    """A node search over ``game`` itself (it is searched in place and restored after every
    call; pass a copy to keep using the original meanwhile).

    ``config`` defaults to ``solver_config(game)``; ``engine`` is "auto", "compiled" or
    "python"; a ``tracer`` (pictures) needs the Python engine, which "auto" then picks.
    """
    if engine not in ENGINES:
        raise GameError(f"unknown engine {engine!r}; choose from {', '.join(ENGINES)}")
    config = config if config is not None else solver_config(game)
    if _picks_compiled(engine, config, traced=tracer.enabled) and capable(game, KernelGame):
        if tracer.enabled:
            raise GameError("the compiled engine cannot be traced: use engine='python'")
        if compiled_available(game):
            compiled: Engine[M] = CompiledEngine(game, config, stop=stop)
            return compiled
    elif engine == "compiled":
        raise GameError("this game has no compiled kernels: use --engine python or auto")
    return Searcher(game, config, stop=stop, tracer=tracer)


def perft_position(game: Game[Any], depth: int, *, engine: str = "auto") -> tuple[int, str]:
    """(perft of ``game`` to ``depth`` plies, the engine that counted): the compiled kernels'
    move generator (``sakiyomi.compiled.perft``) for kernel games unless ``engine`` is
    "python", else the game's own methods (``sakiyomi.search.perft``); the counts are equal.
    """
    if engine not in ENGINES:
        raise GameError(f"unknown engine {engine!r}; choose from {', '.join(ENGINES)}")
    if engine != "python" and capable(game, KernelGame) and numba_available():
        kernel = cast(KernelGame, game)
        module_name, params = kernel.kernel_spec()
        mkey = (module_name, tuple(sorted(params.items())))
        with _pool_lock:
            module = _modules.get(mkey)
        if module is None:
            module = build(module_name, params)
        return compiled_perft.count(module, kernel.kernel_state(), depth), "compiled"
    if engine == "compiled":
        raise GameError("this game has no compiled kernels: use --engine python or auto")
    return perft(game, depth), "python"


# ---- Monte Carlo tree search ----------------------------------------------------------------


def mcts_for(
    game: Game[M], config: MCTSConfig | None = None, *, engine: str = "auto",
    stop: StopSignal | None = None,
) -> MCTS[M]:
    """A Monte Carlo tree search over ``game`` itself (searched in place, restored after every
    search): its playouts run compiled (``compiled.playout``) for kernel games unless
    ``engine`` is "python"; "compiled" insists on them.
    """
    if engine not in ENGINES:
        raise GameError(f"unknown engine {engine!r}; choose from {', '.join(ENGINES)}")
    if engine == "compiled" and not capable(game, KernelGame):
        raise GameError("this game has no compiled kernels: use --engine python or auto")
    compiled = engine != "python" and compiled_available(game)
    return MCTS(game, config, stop=stop, walker=_kernel_walker if compiled else game_walker)


def mcts_position(
    game: Game[M], limits: Limits, *, iterations: int | None = None,
    config: MCTSConfig | None = None, engine: str = "auto", algorithm: str = "mcts",
    stop: StopSignal | None = None, on_info: Callable[[SearchInfo[M]], object] | None = None,
    observe: Callable[[MCTS[M]], object] | None = None,
) -> SearchResult[M]:
    """The registry's Monte Carlo ``algorithm`` on a copy of ``game``: ``iterations`` and the
    node and time ``limits`` (counted from when the search is ready, after any compilation)
    end it, whichever comes first.  ``extra['engine']`` says where the playouts ran.
    """
    runner = algorithms.get(algorithm).monte_carlo
    if runner is None:
        raise GameError(f"{algorithm} is not a Monte Carlo algorithm")
    search = mcts_for(game.copy(), config, engine=engine)
    search.stop = stop if stop is not None else StopSignal.from_limits(limits)
    if observe is not None:
        observe(search)
    result = runner(search, iterations, on_info)
    kind = "compiled" if isinstance(search.walker, KernelWalker) else "python"
    return replace(result, extra={**result.extra, "engine": kind})


def _kernel_walker(game: Game[Any], config: MCTSConfig, rng: random.Random) -> Walker[Any]:
    kernel = cast(KernelGame, game)
    module = _kernel_module(kernel)
    walker: Walker[Any] = KernelWalker(module, kernel.kernel_state(), rng.getrandbits(64),
                                       config.rollout == "game")
    return walker


def _kernel_module(game: KernelGame) -> types.ModuleType:
    """The generated module of a kernel game, its playouts loaded (built once per process),
    so that no search's clock pays for a compilation.
    """
    module_name, params = game.kernel_spec()
    mkey = (module_name, tuple(sorted(params.items())))
    with _pool_lock:
        module = _modules.get(mkey)
        warm = module is not None and _playouts_ready.get(mkey, False)
    if module is None:
        module = build(module_name, params)
        with _pool_lock:
            _modules[mkey] = module
    if not warm:
        with compiling_notice(module_name, params, f"the {_game_name(module_name)} playouts"):
            KernelWalker.warm_up(module, game.kernel_state())
        with _pool_lock:
            _playouts_ready[mkey] = True
    return module


# ---- the compiled engine ------------------------------------------------------------------

_pool_lock = threading.Lock()
_pool: dict[tuple[object, ...], list[CompiledSearch]] = {}
_modules: dict[tuple[str, tuple[tuple[str, int], ...]], types.ModuleType] = {}
_playouts_ready: dict[tuple[str, tuple[tuple[str, int], ...]], bool] = {}


def _lease(game: KernelGame, config: SearchConfig,
           shortcuts: bool) -> tuple[CompiledSearch, tuple[object, ...]]:
    """A workspace for this kernel module, parameters and settings, and its pool key: a free
    one from the pool (tables are large; allocating one per search would cost more than many
    searches), else a new one.  It is the caller's alone until given back with ``_give_back``
    under that key.
    """
    module_name, params = game.kernel_spec()
    params = presort_params(params, config)
    mkey = (module_name, tuple(sorted(params.items())))
    key = (*mkey, config, shortcuts)
    with _pool_lock:
        free = _pool.setdefault(key, [])
        if free:
            return free.pop(), key
        module = _modules.get(mkey)
    if module is None:  # numba not loaded here yet: the search built ahead of time, if any
        module = aot.load(module_name, params)
    if module is None:
        try:
            with compiling_notice(module_name, params, f"the {_game_name(module_name)} search"):
                module = build(module_name, params)
                _warm_up(module, game)
        except Exception as exc:  # a plugin's kernels: one clear line, not numba's traceback
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
            raise GameError(f"the compiled kernels {module_name} could not be built: "
                            f"{type(exc).__name__}: {first}") from exc
        with _pool_lock:
            _modules[mkey] = module
        if not config.presort_depth:  # (the rarely used presort build stays on numba's cache)
            aot.build_later(module_name, params, game.kernel_state())  # for later processes
    return CompiledSearch(module, config, shortcuts=shortcuts), key


BlockSolver = Callable[[bytes, Any, Any], tuple[Any, Any]]


def block_solver(game: Game[Any], weak: bool, engine: str = "auto") -> BlockSolver | None:
    """A batch's solver of many lines per call, or None where there is none: ``solve(text,
    starts, ends)`` solves line i, ``text[starts[i]:ends[i]]`` (ASCII bytes; int64 arrays of
    offsets), as ``solve_position(load(game, line), weak=weak)`` would on the compiled engine
    (same value, node counts and PV; ``CompiledSearch.block``) and returns its rows.  Only for
    kernels that read positions themselves (``HAS_PARSE``: Connect Four) and only from the
    search built ahead of time (``sakiyomi.compiled.aot``): numba's first compilation of the
    block entry takes longer than most batches, so a process without the extension keeps to
    one line per call.  ``game``: any position of the batch's game (its kernels and settings).
    """
    if engine == "python" or not capable(game, KernelGame):
        return None
    kernel = cast(KernelGame, game)
    module_name, params = kernel.kernel_spec()
    module = aot.load(module_name, params)
    if module is None or not getattr(module, "BLOCK_BUILT", False):
        return None
    config = solver_config(game)
    search = CompiledSearch(module, config, shortcuts=capable(game, SearchShortcuts))
    guess = config.guess_depth

    def solve_block(text: bytes, starts: Any, ends: Any) -> tuple[Any, Any]:
        return search.block(text, starts, ends, weak, True, guess)

    return solve_block


def shared_workspace(game: Game[Any], config: SearchConfig, table: Any) -> CompiledSearch:
    """A compiled workspace of ``game`` over ``table``, a uint64 array of ``2 *
    config.tt_capacity`` words that other processes may be using at the same time (parallel
    solving shares one table between its workers; the template's entries are lockless).
    """
    kernel = cast(KernelGame, game)
    shortcuts = config.shortcuts and capable(game, SearchShortcuts)
    base, key = _lease(kernel, config, shortcuts)  # loads the compiled module once a process
    _give_back(key, base)
    return CompiledSearch(base.module, config, shortcuts=shortcuts, table=table)


def _game_name(module_name: str) -> str:
    """'connect4' for 'sakiyomi.games.connect4.kernels' (what a compiling notice names)."""
    parts = [p for p in re.split(r"[./\\]", module_name) if p not in ("", "py", "kernels")]
    return parts[-1] if parts else module_name


def prepare(game: Game[Any], ahead: bool = True) -> list[tuple[str, float]]:
    """Build now, once, what the compiled engine of ``game``'s kernels would otherwise build
    in the middle of a later command (``sakiyomi compile``): the search and the playouts,
    compiled by numba (or loaded from its cache) and warmed up, and with ``ahead`` the search
    built ahead of time (``aot.build_now``) unless it is built already or switched off
    (``SAKIYOMI_AOT=0``).  Returns each step done with its CPU seconds.  Raises GameError for
    a game without kernels (it runs on the Python engine: nothing to build).
    """
    if not capable(game, KernelGame):
        raise GameError("this game has no compiled search: it runs on the Python engine, "
                        "with nothing to build")
    kernel = cast(KernelGame, game)
    module_name, params = kernel.kernel_spec()
    name = _game_name(module_name)
    done: list[tuple[str, float]] = []
    begin = _cpu()
    module = _kernel_module(kernel)  # the playouts, and the module the search lives in
    with compiling_notice(module_name, params, f"the {name} search"):
        _warm_up(module, kernel)
    done.append(("search and playouts ready (numba's build or cache)", _cpu() - begin))
    path = aot.extension_path(module_name, params)
    if ahead and aot.enabled() and path is not None and not path.exists():
        begin = _cpu()
        aot.build_now(module_name, params, kernel.kernel_state())
        done.append(("search built ahead of time", _cpu() - begin))
    return done


def _cpu() -> float:
    """CPU seconds of this process and its finished children (the C compiler of a build)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(
        resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _warm_up(module: types.ModuleType, game: KernelGame) -> None:
    """Load the compiled search (numba's disk cache, or a first compilation) now, with a
    depth-0 search in a one-slot workspace, so that no search's clock pays for it.
    """
    mem, tt = module.make_workspace(1)
    module.t_run(module.make_state(*game.kernel_state()), 0, 0, -INF, INF, 0, mem, tt)


def _give_back(key: tuple[object, ...], search: CompiledSearch) -> None:
    with _pool_lock:
        _pool.setdefault(key, []).append(search)


def _stats(counters: list[int]) -> SearchStats:
    n, leaves, probes, hits, ttcuts, cuts, first, research, seldepth = counters
    return SearchStats(n, leaves, probes, hits, ttcuts, cuts, first, research, 0, seldepth)


# A compiled workspace's table starts on 4 KiB pages: a short search faults in only the pages
# it touches, where huge pages would fault in (and the kernel zero) nearly the whole table.
# Past this many nodes, or at a solve, it moves to huge pages (fewer TLB misses): measured in
# fresh processes here, a depth-7 Connect Four search (3,661 nodes) took 0.03-0.04 s on 4 KiB
# pages against 0.96-1.21 s on huge pages; at 60,000 nodes both took 0.1-0.2 s; a
# 47-million-node solve spent 9 % more user CPU on 4 KiB pages.
HUGE_AFTER = 1 << 16


class CompiledEngine:
    """The ``Engine`` protocol over the compiled template (see the module doc).

    The workspace starts empty (a fresh table, zero counters, as a new ``Searcher``) and goes
    back to a pool when the engine is garbage-collected.  ``game`` and ``stop`` may be replaced
    between searches (an agent keeps its engine, and so its table, from move to move).
    """

    def __init__(self, game: Game[Any], config: SearchConfig, *,
                 stop: StopSignal | None = None, fresh: bool = True,
                 workspace: CompiledSearch | None = None) -> None:
        if not capable(game, KernelGame):
            raise TypeError("the compiled engine needs a KernelGame")
        if python_only_settings(config):
            raise _compiled_refuses(config)
        self.game = game
        self.config = config
        if workspace is not None:  # a caller's own (tests, benchmarks: special builds)
            self._search = workspace
        else:
            # SearchConfig.shortcuts switches them off here too, as in the Searcher.
            shortcuts = config.shortcuts and capable(game, SearchShortcuts)
            self._search, key = _lease(cast(KernelGame, game), config, shortcuts)
            weakref.finalize(self, _give_back, key, self._search)
        if fresh:
            self._search.reset()
        self._make_state = self._search.module.make_state
        self._root = self._search.entry_point()
        self._mem, self._tt = self._search.mem, self._search.tt
        self._aborted = int(self._search.module.C_ABORTED)
        self._nodes_at = int(self._search.module.C_NODES)
        self._stop = StopSignal()
        self.stop = stop if stop is not None else StopSignal()

    # ---- position -------------------------------------------------------------------------

    @property
    def game(self) -> Game[Any]:
        """The position searched (a KernelGame; may be replaced between searches)."""
        return self._game

    @game.setter
    def game(self, game: Game[Any]) -> None:
        self._game = game
        self._kernel_state = cast(KernelGame, game).kernel_state
        self._raw: tuple[int, ...] | None = None
        self._state: tuple[Any, ...] = ()

    # ---- stop signal ----------------------------------------------------------------------

    @property
    def stop(self) -> StopSignal:
        """The signal that ends searches (time, nodes, external request)."""
        return self._stop

    @stop.setter
    def stop(self, signal: StopSignal) -> None:
        self._stop = signal
        search = self._search
        search.clear_stop()
        search.set_node_limit(signal.node_limit)
        self._limit = signal.node_limit
        ref = weakref.ref(self)

        def fire() -> None:
            engine = ref()
            if engine is not None and engine._stop is signal:
                search.request_stop()

        signal.on_stop(fire)

    # ---- Engine protocol ------------------------------------------------------------------

    def search(self, depth: int, alpha: int = -INF, beta: int = INF, ply: int = 0) -> int:
        """Fail-soft root search (Engine protocol; ``ply`` > 0: of a node that many plies
        below the root); raises SearchAborted when stopped.

        This is the one Python↔numba crossing per probe, so it is kept lean: the kernel
        state is rebuilt only when the game's state tuple changed, and the compiled entry
        point is called without numba's type dispatch.
        """
        if self._stop.node_limit != self._limit:  # the signal's budget changed (tighten)
            self._limit = self._stop.node_limit
            self._search.set_node_limit(self._limit)
        raw = self._kernel_state()
        if raw is not self._raw:  # the same tuple object: the position has not moved
            self._raw = raw
            self._state = self._make_state(*raw)
        mem = self._mem
        if not self._search.huge and mem[self._nodes_at] >= HUGE_AFTER:
            self._search.use_huge_pages()  # a long search: fewer TLB misses from here on
        root = self._root
        if root is None:  # the first call compiles (or loads) through numba's dispatcher
            value = self._search.search(self._state, depth, alpha, beta, ply)
            self._root = self._search.entry_point()
        else:
            value = root(self._state, 0, depth, alpha, beta, ply, mem, self._tt)
        if mem[self._aborted]:
            raise SearchAborted
        return value

    def solve_line(self, known: Any, weak: bool, with_pv: bool) -> int:
        """A whole solve of the interval ``known`` (``search.solve.Interval``) in one compiled
        call: the probe sequence of ``sakiyomi.probes``, which ``search.solve`` otherwise runs
        probe by probe.  Raises SearchAborted when stopped, with ``known`` holding the interval
        proved so far and the move that reached its lower bound.
        """
        if self._stop.node_limit != self._limit:  # the signal's budget changed (tighten)
            self._limit = self._stop.node_limit
            self._search.set_node_limit(self._limit)
        raw = self._kernel_state()
        if raw is not self._raw:
            self._raw = raw
            self._state = self._make_state(*raw)
        mem = self._mem
        self._search.use_huge_pages()  # a solve (a small one keeps to a few pages: C_MASK)
        root = self._root
        guess = self.config.guess_depth
        if root is None:  # the first call compiles (or loads) through numba's dispatcher
            value = self._search.line(self._state, known.lo, known.hi, weak, with_pv, guess)
            self._root = self._search.entry_point()
        else:
            value = root(self._state, 1, known.lo, known.hi, int(weak) | 2 * int(with_pv),
                         guess, mem, self._tt)
        if mem[self._aborted]:
            known.lo, known.hi, move = self._search.line_interval()
            if move is not None:
                known.move = move
            if known.lo == known.hi:  # stopped in the PV walk: its moves so far
                known.line = self.pv
            raise SearchAborted
        return int(value)

    @property
    def stats(self) -> SearchStats:
        """Live counters (a snapshot; safe to read from another thread during a search)."""
        return _stats(self._search.counters())

    @property
    def pv(self) -> tuple[Any, ...]:
        """Principal variation of the last completed root search (kernel moves)."""
        return self._search.pv()

    @property
    def root_best_move(self) -> Any:
        """Best root move of the last root search."""
        return self._search.root_best()

    @property
    def hit_horizon(self) -> bool:
        """True when the last search met its depth limit somewhere."""
        return self._search.hit_horizon

    def new_search(self) -> None:
        """A new table generation."""
        self._search.new_search()

    def hashfull(self) -> int:
        """Table fill in permille."""
        return self._search.hashfull()

    def touch(self) -> None:
        """Write the whole table once (benchmarks: keep page faults out of timings)."""
        self._search.touch()

    def reset(self) -> None:
        """Forget the table, killers, history and counters, like a fresh engine."""
        self._search.reset()
        self._limit = self._stop.node_limit
        self._search.set_node_limit(self._limit)
        if self._stop.stopped():
            self._search.request_stop()


class EngineSession:
    """Engines for the successive positions of one game that share one table (an agent's or a
    GUI's game): the compiled engine is kept and pointed at each new position; the Python
    engine is a new ``Searcher`` over one kept ``TranspositionTable``.
    """

    def __init__(self, config: SearchConfig | None = None, engine: str = "auto",
                 table: Any = None) -> None:
        if engine not in ENGINES:
            raise GameError(f"unknown engine {engine!r}; choose from {', '.join(ENGINES)}")
        self.config = config
        self.kind = engine
        self.table = table  # the compiled engine's table, shared (``shared_workspace``)
        self._compiled: CompiledEngine | None = None
        # The game class and kernels the compiled engine serves (settings are decided per
        # class: ``solver_config``), so that a batch's next line skips choosing them again.
        self._compiled_class: type | None = None
        self._compiled_spec: tuple[str, dict[str, int]] | None = None  # its kernels
        self._tt: TranspositionTable[Any] | None = None
        self._tt_slots = 0

    def engine(self, game: Game[M], stop: StopSignal | None = None, *,
               fresh: bool = False) -> Engine[M]:
        """An engine over ``game`` (searched in place) with this session's table; ``fresh``:
        emptied first, so that the search counts what a new engine would (a batch of
        positions keeps one engine, not one table: each line is answered as if alone).
        """
        kept = self._compiled
        if (fresh and kept is not None and type(game) is self._compiled_class
                and stop is kept.stop
                and cast(KernelGame, game).kernel_spec() == self._compiled_spec):
            kept.game = game  # a batch's next line: the same engine and settings, emptied
            kept.reset()
            engine: Engine[M] = kept
            return engine
        config = self.config if self.config is not None else solver_config(game)
        if _picks_compiled(self.kind, config) and compiled_available(game):
            spec = cast(KernelGame, game).kernel_spec()
            if kept is None or kept.config != config or spec != self._compiled_spec:
                shared = (shared_workspace(game, config, self.table)
                          if self.table is not None else None)
                kept = self._compiled = CompiledEngine(game, config, stop=stop,
                                                       workspace=shared)
            else:
                kept.game = game
                if stop is None or stop is not kept.stop:  # (each sets a callback)
                    kept.stop = stop if stop is not None else StopSignal()
                if fresh:
                    kept.reset()
            self._compiled_class = type(game)
            self._compiled_spec = spec
            compiled: Engine[M] = kept
            return compiled
        if self.kind == "compiled" and not capable(game, KernelGame):
            raise GameError("this game has no compiled kernels: use --engine python or auto")
        if fresh:
            return Searcher(game, config, stop=stop)
        if config.tt and (self._tt is None or self._tt_slots != config.tt_capacity):
            self._tt = TranspositionTable(config.tt_capacity)
            self._tt_slots = config.tt_capacity
        return Searcher(game, config, stop=stop, tt=self._tt)


# ---- whole operations (the CLI, web app and scripts call these) ---------------------------

Observer = Callable[[Engine[Any]], object]


def _configured(game: Game[Any], tt: bool) -> SearchConfig:
    config = solver_config(game)
    return config if tt else replace(config, tt=False)


def search_position(
    game: Game[M], limits: Limits, *, algorithm: str = "pvs", engine: str = "auto",
    tt: bool = True, stop: StopSignal | None = None,
    on_info: Callable[[SearchInfo[M]], object] | None = None, observe: Observer | None = None,
) -> SearchResult[M]:
    """The driver of a registry ``algorithm`` that runs on an engine ("pvs", "mtdf", …) on a
    copy of ``game`` within ``limits``; the same settings on either engine.  ``observe`` sees
    the engine once it is made (live progress reads its counters).  Without ``stop``, the
    clock of ``limits`` starts once the engine is ready (after any compilation).
    """
    driver = algorithms.get(algorithm).driver
    if driver is None:
        raise GameError(f"algorithm {algorithm!r} is not run on an engine: use its textbook run")
    searcher = engine_for(game.copy(), _configured(game, tt), engine=engine)
    searcher.stop = stop if stop is not None else StopSignal.from_limits(limits)
    if observe is not None:
        observe(searcher)
    result = driver(searcher, limits, cast(Any, on_info))
    return _tagged(result, searcher)


def solve_position(
    game: Game[M], *, weak: bool = False, engine: str = "auto", with_pv: bool = True,
    config: SearchConfig | None = None, limits: Limits | None = None,
    stop: StopSignal | None = None, observe: Observer | None = None,
    session: EngineSession | None = None, python_first: int = 0,
) -> SearchResult[M]:
    """``search.solve.solve`` of a copy of ``game`` on the chosen engine, with ``config``
    (default ``solver_config``).  ``stop``, or the node and time ``limits`` (counted from when
    the engine is ready), may end it first: then the result is incomplete (see ``solve``).
    ``session``: take the engine from it, emptied (a batch: one workspace for every line,
    the same answers and node counts as separate solves); its engine kind and settings then
    stand for ``engine`` and ``config``.  ``python_first`` (nodes; "auto", no limits, numba
    not loaded yet in this process, no search built ahead of time): try the Python engine
    within that many nodes first.
    Both engines give the same answer and node counts, and a small position is solved in
    Python before numba and the compiled search would have loaded (about half a second of
    CPU): what a one-position command line wants; past the budget the compiled engine
    starts afresh (the budget, a few milliseconds, is lost).
    """
    if (python_first and engine == "auto" and session is None and stop is None
            and (limits is None or limits == Limits()) and "numba" not in sys.modules
            and capable(game, KernelGame) and _built_ahead(cast(KernelGame, game)) is None):
        quick = solve_position(game, weak=weak, engine="python", with_pv=with_pv,
                               config=config, limits=Limits(nodes=python_first))
        if quick.complete:
            return quick
    stop = stop if stop is not None else StopSignal.from_limits(limits or Limits())
    if session is not None:
        searcher = session.engine(game.copy(), stop, fresh=True)
    else:
        searcher = engine_for(game.copy(), config, engine=engine)
        searcher.stop = stop
    if observe is not None:
        observe(searcher)
    result = solve(searcher.game, weak=weak, searcher=searcher, with_pv=with_pv)
    result.extra["engine"] = _kind(searcher)  # solve's own new dict (cheaper than replace())
    return result


def analyze_position(
    game: Game[M], depth: int | None = None, *, engine: str = "auto",
    config: SearchConfig | None = None, stop: StopSignal | None = None,
    observe: Observer | None = None,
) -> tuple[list[MoveValue[M]], int]:
    """The value of every legal move of ``game`` (to ``depth``, or exact when None), best
    first, and the node count, on the chosen engine.
    """
    searcher = engine_for(game.copy(), config, engine=engine, stop=stop)
    if observe is not None:
        observe(searcher)
    return analyze(searcher.game, depth, searcher=searcher)


def _tagged(result: SearchResult[M], searcher: Engine[M]) -> SearchResult[M]:
    """The result with the engine that produced it named in ``extra['engine']``."""
    return replace(result, extra={**result.extra, "engine": _kind(searcher)})


def _kind(searcher: Engine[Any]) -> str:
    """'compiled' or 'python': the engine ``searcher`` is."""
    return "compiled" if type(searcher) is CompiledEngine else "python"
