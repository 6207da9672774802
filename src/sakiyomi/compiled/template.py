"""One numba search, specialised per kernel game (DESIGN.md §5): build, cache and drive it.

``build(module_name, params)`` (the kernel module named as importable from ``sys.path``,
inside the package or not, or by the path of a ``.py`` file; docs/kernels.md) writes one
module: a header (``U``, ``kernel``, the shared constants of ``search_template.SHARED``, the
build parameters), then four texts (and the playout and perft texts of ``playout`` and
``perft``), each taken from the ``# ---- KERNELS`` marker of a real
module on: the default optional hooks
(``kernel_api``), the game's kernel module (the interface is documented in ``kernel_api``),
the search itself (``search_template``: the production ``Searcher``'s node search, step for
step) and the probe sequence of a solve (``sakiyomi.probes``, which the Python driver
runs too).  Compiled, the module goes to the user cache directory, named by a hash of all that
text, and is imported; numba's ``cache=True`` then serves later processes from disk.  Plain
(``compiled=False``), each text runs under its own file name and line numbers, so tracebacks
and coverage point at the real modules.

``CompiledSearch`` holds one search's workspace (table, killers, history, counters, switches)
and runs root searches, or a whole solve (``t_run``: the shared probe sequence of
``sakiyomi.probes`` in one call); every other driver is the shared Python one, run through
``sakiyomi.engines.CompiledEngine``.  The search releases the GIL and polls a stop word every
``POLL`` nodes, so another thread can stop it and watch its counters.
"""

from __future__ import annotations
import __future__

import contextlib
import hashlib
import importlib
import importlib.util
import os
import re
import sys
import threading
import types
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TextIO

from sakiyomi.compiled.memory import advise_huge, zeroed
from sakiyomi.compiled.perft import PERFT
from sakiyomi.compiled.playout import PLAYOUT

KERNEL_MARKER = "# ---- KERNELS"
HOOKS_MODULE = "sakiyomi.compiled.kernel_api"
SEARCH_MODULE = "sakiyomi.compiled.search_template"
PROBES_MODULE = "sakiyomi.probes"

# The generated module's decorator compiles without numba's runtime (``_nrt=False``): with it,
# every call that passes an array (the search's ``mem`` and table, at every node, to the
# recursive search and its helpers) counts references with atomic increments and decrements,
# which perf showed as most of a small solve's compiled time (NRT_incref / NRT_decref above
# t_search itself); without it the Connect Four block solves End-Easy lines in 3.3 us instead
# of 5.9 and Middle-Medium ones in 2.4 ms instead of 4.0.  The price: compiled code may not
# allocate (no np.empty, no slice assignment that might copy); scratch memory comes with the
# workspace (``kernel_api.SCRATCH``).  Only the entry points Python calls (``entry``: t_run,
# t_block, perft and the playouts) get numba's CPython and cfunc wrappers; every other
# function of the module is called from compiled code alone, and generating and optimising
# the two wrappers of each was about 0.6 of a first run's 5.1 CPU-s of compilation.
HEADER_NUMBA = """\
from __future__ import annotations
from typing import Any
import numpy as np
from numba import njit
entry = njit(cache=True, nogil=True, _nrt=False)
_inner = dict(cache=True, nogil=True, _nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True)
kernel = njit(**_inner)
inlined = njit(inline="always", **_inner)
U = np.uint64
from sakiyomi.compiled.prefetch import prefetch
from sakiyomi.compiled.clock import clock_ns
"""

HEADER_PLAIN = """\
from __future__ import annotations
from typing import Any
def kernel(function):
    return function
inlined = kernel
entry = kernel
def prefetch(table, index):
    pass
from time import monotonic_ns as clock_ns
U = int
"""


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

    @property
    def presort_depth(self) -> int:
        """Seed 003's shallow pre-search before the children (0: off)."""
        ...


STAT_NAMES = ("nodes", "leaves", "tt_probes", "tt_hits", "tt_cutoffs", "cutoffs",
              "first_move_cutoffs", "researches", "seldepth")

LATE_NOTICE = 3.0  # seconds a cached load may take before it is said to be compiling
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


@dataclass(frozen=True)
class Section:
    """The text of one module from its KERNELS marker on, and where that text starts."""

    path: Path
    first_line: int  # 1-based line number of the marker in ``path``
    text: str


def kernel_file(module_name: str) -> Path:
    """The source file of a kernel module, given as a module name importable from
    ``sys.path`` (``sakiyomi.games.connect4.kernels``, ``my_game.kernels``: found without
    running it) or as the path of a ``.py`` file (a game outside any package; docs/kernels.md).
    """
    if module_name.endswith(".py") or "/" in module_name or os.sep in module_name:
        path = Path(module_name)
        if not path.is_file():
            raise ImportError(f"no kernel file {module_name}")
        return path
    spec = importlib.util.find_spec(module_name)
    if spec is None or spec.origin is None or not spec.origin.endswith(".py"):
        raise ImportError(f"no kernel module {module_name}")
    return Path(spec.origin)


def section(module_name: str) -> Section:
    """Everything from the first line starting with the KERNELS marker on, in the module
    ``module_name`` (a module name or a file path: ``kernel_file``), read as text.
    """
    path = kernel_file(module_name)
    text = path.read_text(encoding="utf-8")
    at = ("\n" + text).find("\n" + KERNEL_MARKER)  # the marker's index in text
    if at < 0:
        raise ImportError(f"{module_name} has no line starting '{KERNEL_MARKER}'")
    return Section(path, text.count("\n", 0, at) + 1, text[at:])


def _header(params: dict[str, int], compiled: bool) -> str:
    """The generated module's header: decorator and word type, shared constants, parameters."""
    from sakiyomi.compiled.search_template import SHARED

    header = HEADER_NUMBA + _imported_stamp() if compiled else HEADER_PLAIN
    shared = "".join(f"{name} = {value!r}\n" for name, value in SHARED.items())
    lines = "".join(f"{name} = {int(value)!r}\n" for name, value in sorted(params.items()))
    return header + shared + lines


# Modules whose compiled code the numba header imports into the generated module.  numba's
# cache checks only the generated file's own stamp, so their source goes into the header as a
# hash: a change to them names a new module, compiled afresh, instead of loading stale code.
HEADER_IMPORTS = ("sakiyomi.compiled.prefetch", "sakiyomi.compiled.clock")


def _imported_stamp() -> str:
    """A comment line per ``HEADER_IMPORTS`` module with the hash of its source."""
    lines = []
    for module in HEADER_IMPORTS:
        text = kernel_file(module).read_bytes()
        lines.append(f"# {module}: {hashlib.sha256(text).hexdigest()[:16]}\n")
    return "".join(lines)


_IMPORT = re.compile(r"^\s*(?:from|import)\s+(sakiyomi(?:\.\w+)+)", re.MULTILINE)


def _dependency_stamp(text: str) -> str:
    """A comment line per ``sakiyomi`` module that ``text`` imports, directly or through
    another such module, with the hash of its source: njit functions called from the
    generated module are compiled into its cached code, and numba's cache checks only the
    generated file, so a change to, say, an endgame solver imported by the kernels must name
    a new module (as ``HEADER_IMPORTS`` does for the header's own imports).
    """
    seen: dict[str, str] = {}
    todo = _IMPORT.findall(text)
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        try:
            body = kernel_file(module).read_text()
        except (ImportError, OSError):  # a package's name or a missing file: nothing to hash
            seen[module] = ""
            continue
        seen[module] = hashlib.sha256(body.encode()).hexdigest()[:16]
        todo.extend(_IMPORT.findall(body))
    return "".join(f"# {m}: {h}\n" for m, h in sorted(seen.items()) if h)


def _sections(module_name: str) -> list[Section]:
    return [section(HOOKS_MODULE), section(module_name), section(SEARCH_MODULE),
            section(PROBES_MODULE)]


def source(module_name: str, params: dict[str, int], compiled: bool) -> str:
    """The whole generated module: header, default hooks, the game's kernels, the search, the
    Monte Carlo playouts of ``sakiyomi.compiled.playout`` and the perft of
    ``sakiyomi.compiled.perft`` (the plain build executes the sections only: playouts and
    perft serve the compiled engine).
    """
    body = "".join(s.text for s in _sections(module_name)) + PLAYOUT + PERFT
    stamp = _dependency_stamp(body) if compiled else ""
    return _header(params, compiled) + stamp + body


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


@contextlib.contextmanager
def compiling_notice(module_name: str, params: dict[str, int], what: str,
                     stream: TextIO | None = None) -> Iterator[None]:
    """Around building a generated module (``build(module_name, params)``) and the first
    call of its compiled code: on a terminal, say in one line (stderr) that ``what`` is being
    compiled when numba's cache for it is most likely empty (no mark left by an earlier
    process for this source and cache directory), so that a first run of several seconds is
    not silent; and leave the mark once the body succeeds.  Said as well, late, if a load
    that should have been cached takes over ``LATE_NOTICE`` seconds (numba's own cache was
    removed).  Nothing is printed when stderr is not a TTY.
    """
    out = stream if stream is not None else sys.stderr
    numba_dir = os.environ.get("NUMBA_CACHE_DIR", "")
    tag = hashlib.sha256(f"{numba_dir}\0{what}".encode()).hexdigest()[:8]
    mark = cache_dir() / f"{generated_name(module_name, params)}.{tag}.ready"
    line = f"sakiyomi: compiling {what} (first run only, about 10 s; cached afterwards)"
    said = threading.Event()

    def say() -> None:
        if not said.is_set():
            said.set()
            print(line, file=out, flush=True)

    tty = out.isatty()
    timer: threading.Timer | None = None
    if tty and not mark.exists():
        say()
    elif tty:
        timer = threading.Timer(LATE_NOTICE, say)
        timer.daemon = True
        timer.start()
    try:
        yield
    finally:
        if timer is not None:
            timer.cancel()
    if not mark.exists():
        with contextlib.suppress(OSError):
            mark.parent.mkdir(parents=True, exist_ok=True)
            mark.touch()


def _name(module_name: str, text: str) -> str:
    """The generated module's name: the kernel module's and a hash of the whole source."""
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    stem = re.sub(r"\W", "_", Path(module_name).stem if module_name.endswith(".py")
                  else module_name.removeprefix("sakiyomi."))  # games_othello_kernels
    return f"sakiyomi_gen_{stem}_{digest}"


def generated_name(module_name: str, params: dict[str, int]) -> str:
    """The name ``build(module_name, params)`` gives its compiled module (source hash in it)."""
    return _name(module_name, source(module_name, params, True))


def presort_params(params: dict[str, int], config: ConfigLike) -> dict[str, int]:
    """A kernel module's build parameters for searches with ``config``: PRESORT=1 added when
    it asks for the shallow pre-search (a second build; the usual one leaves it out).
    """
    return {**params, "PRESORT": 1} if config.presort_depth else params


def build(module_name: str, params: dict[str, int], compiled: bool = True) -> types.ModuleType:
    """The kernels of ``module_name`` specialised by ``params``, with the search template:
    compiled by numba (cached on disk) or as plain Python functions (``compiled=False``).
    """
    text = source(module_name, params, compiled)
    name = _name(module_name, text)
    cache_key = (module_name, name, compiled)
    with _lock:
        module = _built.get(cache_key)
        if module is not None:
            return module
        if compiled:
            module = _import_generated(name, text)
        else:
            module = _exec_plain(name, _header(params, compiled), _sections(module_name))
        _built[cache_key] = module
        return module


def _import_generated(name: str, text: str) -> types.ModuleType:
    """Write ``text`` into the cache directory (once per hash) and import it from there."""
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
    return module


def _exec_plain(name: str, header: str, sections: list[Section]) -> types.ModuleType:
    """Run the header, then each section compiled under its own file name and line numbers
    (padded to where the marker stands), in one new module's namespace.
    """
    module = types.ModuleType(name)
    flags = __future__.annotations.compiler_flag
    exec(compile(header, f"<{name}>", "exec", dont_inherit=True), module.__dict__)
    for part in sections:
        padded = "\n" * (part.first_line - 1) + part.text
        code = compile(padded, str(part.path), "exec", flags=flags, dont_inherit=True)
        exec(code, module.__dict__)
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
                 cutoff: bool | None = None, table: Any = None) -> None:
        capacity = 1
        while capacity < max(1, config.tt_capacity):
            capacity <<= 1
        self.module = module
        self.capacity = capacity
        if table is None:  # on 4 KiB pages until a search proves long (use_huge_pages)
            self.mem, _ = module.make_workspace(1)
            self.mem[module.C_MASK] = self.mem[module.C_FULL_MASK] = capacity - 1
            self.tt = zeroed(int(module.SLOT) * capacity, huge=False)
        else:  # another's table (processes sharing one: parallel solving); never cleared here
            if getattr(module, "TWO_BOUNDS", False):  # the third word is not lockless
                raise ValueError("a shared table needs kernels with TWO_BOUNDS off")
            if len(table) != 2 * capacity:
                raise ValueError(f"a shared table needs {2 * capacity} words, not {len(table)}")
            self.mem, _ = module.make_workspace(1)
            self.mem[module.C_MASK] = self.mem[module.C_FULL_MASK] = capacity - 1
            self.tt = table
        self.shared = table is not None
        self.huge = self.shared  # a shared table is its owner's to advise
        if config.presort_depth and not getattr(module, "PRESORT", 0):
            raise ValueError("presort_depth needs a search built with PRESORT=1 "
                             "(presort_params)")
        self._run = module.t_run
        self._flags = (config.tt, config.pvs, config.ordering, config.hints, config.killers,
                       config.history, shortcuts, config.bisection == "pons",
                       config.leaf_solver if leaf_solver is None else leaf_solver,
                       config.cutoff if cutoff is None else cutoff, config.presort_depth)
        self._set_flags()
        # What ``reset`` restores (the epoch aside): everything before the PV rows.
        self._head = self.mem[:module.PV]
        self._blank = self._head.copy()
        self._epoch_at = int(module.C_EPOCH)
        self._dirty_at = int(module.C_DIRTY)
        self._slot = int(module.SLOT)
        self._epoch_limit = int(module.EPOCH_LIMIT)

    def use_huge_pages(self) -> None:
        """Put the table on huge pages from now on, where the system offers them (a solve, a
        batch, a search past ``HUGE_AFTER`` nodes): ``sakiyomi.compiled.memory``.  Once.
        """
        if not self.huge:
            self.huge = True
            advise_huge(self.tt)

    def touch(self) -> None:
        """Write the whole table once, so that page faults do not land inside timings."""
        self.use_huge_pages()
        self.tt.fill(0)
        self.mem[self.module.C_EPOCH] = 1
        self.mem[self.module.C_DIRTY] = 0

    def _set_flags(self) -> None:
        for i, flag in enumerate(self._flags):
            self.mem[self.module.F_TT + i] = int(flag)

    def reset(self) -> None:
        """Forget everything, like a fresh Searcher: empty table, no killers or history, zero
        counters, no stop request.  The table empties by moving to the next epoch (a full
        clear every ``EPOCH_LIMIT`` resets, of the slots used since the last: a batch of small
        endgames keeps to a small part of the table, ``C_DIRTY``); counters, switches, killers
        and history are one copy of their blank values (the PV rows are written before they
        are read).  A batch resets before every position, so this is kept to about a
        microsecond.
        """
        mem = self.mem
        epoch = mem.item(self._epoch_at) + (not self.shared)  # a shared table stays
        dirty = mem.item(self._dirty_at)
        if epoch > self._epoch_limit:  # zero the part solves wrote (C_DIRTY), not all of it
            self.tt[:self._slot * (dirty + 1)].fill(0)
            epoch = 1
            dirty = 0
        self._head[:] = self._blank
        mem[self._epoch_at] = epoch
        mem[self._dirty_at] = dirty

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

    def block(self, text: bytes, starts: Any, ends: Any, weak: bool, with_pv: bool,
              guess_depth: int) -> tuple[Any, Any]:
        """Solve a batch of lines in one call (``t_block``; kernels with ``HAS_PARSE``): line
        i is ``text[starts[i]:ends[i]]`` (int64 arrays).  Returns ``(rows, pvs)``: a row of
        ``BLOCK_FIELDS`` per line (status, value, nodes, leaves, best, PV length, ns) and the
        PV moves.  Each line is solved as after ``reset``; the workspace is left as after the
        last one.
        """
        import numpy as np

        self.use_huge_pages()
        module = self.module
        count = len(starts)
        rows = np.zeros((count, int(module.BLOCK_FIELDS)), dtype=np.int64)
        pvs = np.zeros((count, int(module.PLIES)), dtype=np.int64)
        module.t_block(np.frombuffer(bytearray(text), dtype=np.uint8), starts, ends,
                       int(weak) | 2 * int(with_pv), guess_depth, self._blank, rows, pvs,
                       self.mem, self.tt)
        return rows, pvs

    def root_best(self) -> int | None:
        """The best root move of the last root search (None before any move was searched)."""
        best = int(self.mem[self.module.C_ROOTBEST])
        return best if best >= 0 else None

    def search(self, state: tuple[Any, ...], depth: int, alpha: int, beta: int,
               ply: int = 0) -> int:
        """One search (Searcher.search without the abort exception: see ``aborted``), of a
        node ``ply`` plies below the root (0: the root).
        """
        return int(self._run(state, 0, depth, alpha, beta, ply, self.mem, self.tt))

    def line(self, state: tuple[Any, ...], lo: int, hi: int, weak: bool, with_pv: bool,
             guess_depth: int) -> int:
        """A whole solve (``t_run``'s second operation; without the abort exception: see
        ``aborted`` and ``line_interval``).
        """
        flags = int(weak) | 2 * int(with_pv)
        return int(self._run(state, 1, lo, hi, flags, guess_depth, self.mem, self.tt))

    def line_interval(self) -> tuple[int, int, int | None]:
        """What the last ``line`` proved: lower and upper bound, and the root move reaching
        the lower bound (None if no probe proved one).
        """
        module = self.module
        lo, hi, move = self.mem[module.C_LINE_LO:module.C_LINE_MOVE + 1].tolist()
        return lo, hi, move if move >= 0 else None

    def entry_point(self) -> Any:
        """``t_run`` (state, operation, four ints, mem, tt) callable without numba's per-call
        type dispatch (about half the cost of a call): the compiled overload itself once there
        is exactly one (it is always called with the same argument types); None while nothing
        is compiled yet (call ``search`` or ``line`` once first); a plain wrapper when numba's
        JIT is off.
        """
        root = self._run
        overloads = getattr(root, "overloads", None)
        if overloads is not None and len(overloads) == 1:
            return next(iter(overloads.values())).entry_point
        if overloads is not None and not overloads:
            return None

        def plain(*args: Any) -> int:  # the dispatcher, or plain Python (NUMBA_DISABLE_JIT)
            return int(root(*args))

        return plain
