"""The compiled search ahead of time: a generated module's ``t_run`` as a C extension.

Loading the search from numba's on-disk cache still costs a process about 0.6 CPU-s: numba's
import (~0.4 s) and its compiler's set-up before the first cached function can be called
(~0.2 s).  A one-position ``solve connect4`` should cost a few tenths of a second in all, as
native solvers do.  So, once a game's search has been compiled by numba in a process, a
detached, low-priority process builds the same generated module's ``t_run`` into a C
extension with ``numba.pycc`` (the same numba pipeline, ahead of time, for this machine's
CPU) in the cache directory.  Later processes import that extension (numpy only, no numba) and
pair it with the plain-Python build of the same module, which provides the constants and the
workspace (``template.build(..., compiled=False)``): the same source text, so the same
search, values and node counts (``tests/test_aot.py`` compares them with numba's).

The extension's name carries the generated module's name (its source hash), the numba version
that built it and the interpreter's extension suffix, so an upgrade of either builds a new
one.  Nothing here is needed for correctness: without a C compiler, or with
``SAKIYOMI_AOT=0`` (the test suite sets it), every process simply uses numba as before.
Only ``t_run`` and ``t_block`` are built (what the compiled engine calls); playouts and
perft stay on numba.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.machinery
import importlib.util
import json
import os
import subprocess
import sys
import time
import types
import warnings
from pathlib import Path
from typing import Any

from sakiyomi.compiled.template import build, cache_dir, generated_name

ENTRY = "t_run"  # the compiled engine's entry point (see search_template.t_run)
BLOCK = "t_block"  # a batch of lines in one call, for kernels that parse (``HAS_PARSE``)


def entries(module: types.ModuleType, state_type: Any) -> list[tuple[str, tuple[Any, ...]]]:
    """The entry points to export and their argument types (numba types; ``state_type``: the
    game's state tuple): ``t_run``, and ``t_block`` when the kernels parse batch lines.
    """
    from numba import types as nt

    words, table = nt.int64[::1], nt.uint64[::1]
    found: list[tuple[str, tuple[Any, ...]]] = [
        (ENTRY, (state_type, *([nt.int64] * 5), words, table))]
    if getattr(module, "HAS_PARSE", False):
        rows = nt.int64[:, ::1]
        found.append((BLOCK, (nt.uint8[::1], words, words, nt.int64, nt.int64, words, rows,
                              rows, words, table)))
    return found


LOCK_SECONDS = 900.0  # a build lock older than this was left by a killed build


def enabled() -> bool:
    """False when ``SAKIYOMI_AOT`` is ``0`` (no extension is loaded or built)."""
    return os.environ.get("SAKIYOMI_AOT", "1") != "0"


def _numba_version() -> str | None:
    """The installed numba's version, read from its distribution's folder name beside the
    package (``numba-0.68.1.dist-info``): ``importlib.metadata`` would cost more than the
    rest of a cached start.  None when numba is not installed.
    """
    spec = importlib.util.find_spec("numba")
    if spec is None or spec.origin is None:
        return None
    site = Path(spec.origin).parent.parent
    for info in sorted(site.glob("numba-*.dist-info")):
        return info.name.removeprefix("numba-").removesuffix(".dist-info")
    return "unknown"


def extension_path(module_name: str, params: dict[str, int]) -> Path | None:
    """Where the extension of ``build(module_name, params)`` is (or would be) kept; None
    without numba (nothing could have built it).
    """
    version = _numba_version()
    if version is None:
        return None
    stem = f"{generated_name(module_name, params)}_aot_{version.replace('.', '_')}"
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    return cache_dir() / "aot" / f"{stem}{suffix}"


_loaded: dict[tuple[str, tuple[tuple[str, int], ...]], types.ModuleType | None] = {}


def load(module_name: str, params: dict[str, int]) -> types.ModuleType | None:
    """The search module of ``build(module_name, params)`` with ``t_run`` from its built
    extension, or None when there is none (or ``SAKIYOMI_AOT=0``).  Never imports numba.
    The result is a new module object: the cached plain build is left as it is.
    """
    key = (module_name, tuple(sorted(params.items())))
    if key in _loaded:
        return _loaded[key]
    module: types.ModuleType | None = None
    path = extension_path(module_name, params) if enabled() else None
    if path is not None and path.exists():
        name = path.name.split(".", 1)[0]
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is not None and spec.loader is not None:
            try:
                extension = importlib.util.module_from_spec(spec)
                spec.loader.exec_module(extension)
            except ImportError:  # a damaged file: numba will do
                extension = None
            if extension is not None:
                plain = build(module_name, params, compiled=False)
                module = types.ModuleType(f"{plain.__name__}_aot")
                module.__dict__.update(plain.__dict__)
                for entry in (ENTRY, BLOCK):
                    if hasattr(extension, entry):
                        module.__dict__[entry] = getattr(extension, entry)
                module.__dict__["BLOCK_BUILT"] = hasattr(extension, BLOCK)
                module.__dict__["AOT"] = True
    _loaded[key] = module
    return module


def build_later(module_name: str, params: dict[str, int], state: tuple[int, ...]) -> bool:
    """Start a detached, low-priority process that builds the extension (when enabled, not
    built yet and no other build of it is under way); True if one was started.  ``state``:
    a kernel state of the game as Python ints (``KernelGame.kernel_state``), which gives the
    entry point's argument types.
    """
    path = extension_path(module_name, params) if enabled() else None
    if path is None or path.exists() or not _take_lock(path):
        return False
    command = [sys.executable, "-m", "sakiyomi.compiled.aot", module_name,
               json.dumps(params), json.dumps(list(state))]
    try:
        with open(path.with_name("build.log"), "ab") as log:  # why a build failed, if it did
            subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                             start_new_session=True)
    except OSError:
        _lock(path).unlink(missing_ok=True)
        return False
    return True


def _lock(path: Path) -> Path:
    return path.with_name(path.name + ".lock")


def _take_lock(path: Path) -> bool:
    """Create the build lock of ``path`` (False if a live build holds it)."""
    lock = _lock(path)
    try:
        lock.parent.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(FileNotFoundError):
            if time.time() - lock.stat().st_mtime > LOCK_SECONDS:
                lock.unlink()
        fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except OSError:
        return False
    os.close(fd)
    return True


def build_now(module_name: str, params: dict[str, int], state: tuple[int, ...]) -> Path:
    """Build the extension in this process (imports numba; ~15 CPU-s for Connect Four) and
    return its path.  The file appears whole or not at all (built aside, then renamed).
    """
    numba: Any = importlib.import_module("numba")
    with warnings.catch_warnings():  # pycc is "pending deprecation" (numba 0.57 on)
        warnings.simplefilter("ignore")
        pycc: Any = importlib.import_module("numba.pycc")

    from sakiyomi.compiled.gil import released

    path = extension_path(module_name, params)
    if path is None:
        raise RuntimeError("numba is not installed")
    module = build(module_name, params)  # numba's build of the same text
    work = path.with_name(f"{path.name}.{os.getpid()}.build")
    work.mkdir(parents=True, exist_ok=True)
    try:
        name = path.name.split(".", 1)[0]
        cc = pycc.CC(name)
        cc.output_dir = str(work)
        cc.target_cpu = "host"  # as numba's own JIT: this machine's instructions
        cc.verbose = False
        for entry, types in entries(module, numba.typeof(module.make_state(*state))):
            cc.export(entry, numba.int64(*types))(released(entry, getattr(module, entry)).py_func)
        cc.compile()
        built = next(work.glob(f"{name}*"))
        os.replace(built, path)
    finally:
        for leftover in work.glob("*"):
            leftover.unlink(missing_ok=True)
        with contextlib.suppress(OSError):
            work.rmdir()
    return path


def main(argv: list[str]) -> int:
    """``python -m sakiyomi.compiled.aot MODULE PARAMS_JSON STATE_JSON``: the detached build
    ``build_later`` starts (niced; its lock removed at the end, whatever happens).
    """
    module_name, params, state = argv[0], json.loads(argv[1]), tuple(json.loads(argv[2]))
    path = extension_path(module_name, params)
    with contextlib.suppress(OSError):
        os.nice(10)
    try:
        build_now(module_name, params, state)
    finally:
        if path is not None:
            _lock(path).unlink(missing_ok=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
