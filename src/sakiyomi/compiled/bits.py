"""64-bit bit tricks for bitboard kernels: popcount, lowest- and highest-set-bit index.

Compiled, they are single LLVM instructions (``llvm.ctpop.i64``, ``llvm.cttz.i64``,
``llvm.ctlz.i64``) through numba intrinsics; without numba, or under ``NUMBA_DISABLE_JIT=1``
(tests, coverage), the same names are plain Python functions, so kernels written against them
run either way.  ``njit`` is every kernel's decorator; importing this module also makes numba's
cache stamps cover all kernel sources (``cache_stamp``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

_numba_njit: Any = None
try:  # numba is a normal dependency, but the Python path must work without it (DESIGN.md §5).
    _numba: Any = importlib.import_module("numba")  # typed as Any: numba is untyped at heart
    _numba_njit = _numba.njit
    _JIT = not _numba.config.DISABLE_JIT
except ImportError:  # pragma: no cover - exercised only on installs without numba
    _JIT = False

JIT_ENABLED: bool = _JIT


def njit(func: Callable[..., Any]) -> Any:
    """``numba.njit(cache=True)`` without numba's reference-counting runtime when numba is
    usable, else the function unchanged.  Kernels never allocate (scratch memory is passed
    in), and with the runtime every call that takes an array counts references with atomic
    increments: on the search's small calls that was most of the compiled time
    (``template.HEADER_NUMBA``).
    """
    if _numba_njit is None:  # pragma: no cover
        return func
    return _numba_njit(cache=True, _nrt=False)(func)


def njit_typed(signature: str) -> Callable[[Callable[..., Any]], Any]:
    """``njit`` compiled eagerly for the one numba ``signature`` (for example
    ``"int64(uint64, int64)"``).  An entry point called from Python with 64-bit bitboards
    needs it: numba types a Python int by its value (int64 below 2**63, uint64 from there),
    so a lazily compiled kernel would be compiled once per mix of high and low arguments;
    with one signature every call converts to it.  Without numba the function unchanged.
    """

    def decorate(func: Callable[..., Any]) -> Any:
        if _numba_njit is None:  # pragma: no cover
            return func
        return _numba_njit(signature, cache=True, _nrt=False)(func)

    return decorate


def _py_popcount(x: Any) -> int:
    return int(x).bit_count()


def _py_lowest_bit(x: Any) -> int:
    v = int(x)
    return (v & -v).bit_length() - 1


def _py_highest_bit(x: Any) -> int:
    return int(x).bit_length() - 1


if _JIT:
    from sakiyomi.compiled.cache_stamp import install as _install_cache_stamps

    _install_cache_stamps()  # a cached kernel is stale when any kernel source changed
    ir: Any = importlib.import_module("llvmlite.ir")
    types: Any = _numba.types
    intrinsic: Any = importlib.import_module("numba.extending").intrinsic

    def _bit_intrinsic(name: str, total: bool) -> Any:
        """An intrinsic ``int64(uint64)`` calling the LLVM bit-count intrinsic ``name``;
        ``total``: pass its "zero is defined" flag (``cttz``/``ctlz`` take one, ``ctpop`` not).
        The result is signed, so that arithmetic on a count or an index stays int64.
        """

        def typer(typingctx: Any, x: Any) -> Any:
            def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
                flag = [ir.IntType(1)] if total else []
                fn = builder.module.declare_intrinsic(name, [ir.IntType(64), *flag])
                extra = [ir.Constant(ir.IntType(1), 0)] if total else []
                return builder.call(fn, [args[0], *extra])

            return types.int64(types.uint64), codegen

        typer.__name__ = typer.__qualname__ = "_" + name.replace(".", "_")  # one name each
        return intrinsic(typer)

    _ctpop = _bit_intrinsic("llvm.ctpop", total=False)
    _cttz = _bit_intrinsic("llvm.cttz", total=True)
    _ctlz = _bit_intrinsic("llvm.ctlz", total=True)

    def _jit_popcount(x: Any) -> Any:
        """Number of set bits of a uint64."""
        return _ctpop(x)

    def _jit_lowest_bit(x: Any) -> Any:
        """Index of the lowest set bit of a non-zero uint64."""
        return _cttz(x)

    def _jit_highest_bit(x: Any) -> Any:
        """Index of the highest set bit of a non-zero uint64."""
        return 63 - _ctlz(x)

    popcount: Callable[[Any], Any] = _numba_njit(cache=True, inline="always")(_jit_popcount)
    lowest_bit: Callable[[Any], Any] = _numba_njit(cache=True, inline="always")(
        _jit_lowest_bit)
    highest_bit: Callable[[Any], Any] = _numba_njit(cache=True, inline="always")(
        _jit_highest_bit)
else:
    popcount = _py_popcount
    lowest_bit = _py_lowest_bit
    highest_bit = _py_highest_bit
