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

    def _ctpop_typer(typingctx: Any, x: Any) -> Any:
        sig = types.int64(types.uint64)  # a count: signed, so arithmetic on it stays int64

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            fn = builder.module.declare_intrinsic("llvm.ctpop", [ir.IntType(64)])
            return builder.call(fn, [args[0]])

        return sig, codegen

    def _cttz_typer(typingctx: Any, x: Any) -> Any:
        sig = types.int64(types.uint64)

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            fn = builder.module.declare_intrinsic("llvm.cttz", [ir.IntType(64), ir.IntType(1)])
            return builder.call(fn, [args[0], ir.Constant(ir.IntType(1), 0)])

        return sig, codegen

    def _ctlz_typer(typingctx: Any, x: Any) -> Any:
        sig = types.int64(types.uint64)

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            fn = builder.module.declare_intrinsic("llvm.ctlz", [ir.IntType(64), ir.IntType(1)])
            return builder.call(fn, [args[0], ir.Constant(ir.IntType(1), 0)])

        return sig, codegen

    _ctpop = intrinsic(_ctpop_typer)
    _cttz = intrinsic(_cttz_typer)
    _ctlz = intrinsic(_ctlz_typer)

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
