"""Releasing the GIL around a compiled call in an ahead-of-time extension.

numba's ``nogil=True`` releases the GIL in the wrapper of a just-in-time function, but an
extension built by ``numba.pycc`` (``sakiyomi.compiled.aot``) holds it for the whole call:
a long solve would then freeze every other thread (the engines' reader, timers that stop a
search, live progress).  So the extension exports ``released(run)``: the same call between
``PyEval_SaveThread`` and ``PyEval_RestoreThread``, CPython's own pair for this, called from
the compiled code.  Imported only to build an extension (it needs numba).
"""

from __future__ import annotations

from typing import Any, cast

from llvmlite import ir  # type: ignore[import-untyped]
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

_POINTER = ir.IntType(8).as_pointer()
_declare: Any = cgutils.get_or_insert_function


@intrinsic
def _save_thread(typingctx: Any) -> Any:
    """``PyEval_SaveThread()``: release the GIL; the thread state, as an int64."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        fn = _declare(builder.module, ir.FunctionType(_POINTER, []), "PyEval_SaveThread")
        return builder.ptrtoint(builder.call(fn, []), ir.IntType(64))

    return types.int64(), codegen


@intrinsic
def _restore_thread(typingctx: Any, saved: Any) -> Any:
    """``PyEval_RestoreThread(saved)``: take the GIL back."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        fn = _declare(
            builder.module, ir.FunctionType(ir.VoidType(), [_POINTER]), "PyEval_RestoreThread")
        builder.call(fn, [builder.inttoptr(args[0], _POINTER)])
        return context.get_dummy_value()

    return types.void(saved), codegen


save_thread: Any = cast(Any, _save_thread)
restore_thread: Any = cast(Any, _restore_thread)


def released(entry: str, run: Any) -> Any:
    """The compiled entry point ``run`` named ``entry`` (``t_run`` or ``t_block``) called
    without the GIL: the function to export.  ``run`` must not raise or touch Python objects
    (the search does neither).  One wrapper per entry: pycc exports need their parameters
    spelled out.
    """
    if entry == "t_run":

        @njit
        def run_released(state: Any, op: int, a: int, b: int, c: int, d: int, mem: Any,
                         tt: Any) -> int:
            saved = save_thread()
            value: int = run(state, op, a, b, c, d, mem, tt)
            restore_thread(saved)
            return value

        return run_released

    @njit
    def block_released(text: Any, starts: Any, ends: Any, c: int, d: int, blank: Any,
                       out: Any, pvs: Any, mem: Any, tt: Any) -> int:
        saved = save_thread()
        value: int = run(text, starts, ends, c, d, blank, out, pvs, mem, tt)
        restore_thread(saved)
        return value

    return block_released
