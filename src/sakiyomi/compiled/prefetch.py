"""``prefetch(table, index)`` for compiled code: LLVM's prefetch instruction as a numba
intrinsic (a hint that starts loading ``table[index]`` into the cache and does not wait).

The numba header of a generated module imports it from here (``template.HEADER_NUMBA``); the
plain header defines a no-op of its own.  Under ``NUMBA_DISABLE_JIT`` the compiled build runs
as Python, where an intrinsic cannot be called, so this module then exports a no-op as well.
Nothing here changes a result: the search only runs faster when its table misses the cache.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from numba.core import cgutils, config, types
from numba.extending import intrinsic

_declare: Any = cgutils.get_or_insert_function


def _noop(table: Any, index: int) -> None:
    """Plain Python: nothing to prefetch."""


@intrinsic
def _prefetch(typingctx: Any, table: Any, index: Any) -> Any:
    """Lower to ``llvm.prefetch(&table[index], read, keep in all cache levels, data)``."""
    from llvmlite import ir  # type: ignore[import-untyped]

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        data = context.make_array(signature.args[0])(context, builder, args[0]).data
        ptr = builder.gep(data, [args[1]])
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [ptr.type, i32, i32, i32])
        fn = _declare(builder.module, fnty, "llvm.prefetch.p0")
        builder.call(fn, [ptr, i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return types.void(table, index), codegen


prefetch: Callable[[Any, int], None] = (
    _noop if getattr(config, "DISABLE_JIT", False) else cast(Any, _prefetch))
