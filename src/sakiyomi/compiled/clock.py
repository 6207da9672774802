"""``clock_ns()`` for compiled code: the monotonic clock in nanoseconds, read with the C
library's ``clock_gettime(CLOCK_MONOTONIC)`` from inside a numba function.

The search itself never reads a clock (DESIGN §5: a stop word set from outside ends it); a
batch of positions solved in one compiled call (``search_template.t_block``) reads it to
report each line's own time, as the per-line path does with ``time.perf_counter``.  The
symbol is resolved when the code is loaded, so it works in numba's cache and in an extension
built ahead of time (``sakiyomi.compiled.aot``) alike.  Under ``NUMBA_DISABLE_JIT`` the
compiled build runs as Python, where an intrinsic cannot be called: then it is
``time.monotonic_ns``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, cast

from llvmlite import ir  # type: ignore[import-untyped]
from numba.core import cgutils, config, types
from numba.extending import intrinsic

_declare: Any = cgutils.get_or_insert_function
_alloca: Any = cgutils.alloca_once
CLOCK_MONOTONIC = 1  # Linux's and the BSDs' value differ; only Linux builds ahead of time


@intrinsic
def _clock_ns(typingctx: Any) -> Any:
    """Lower to ``clock_gettime(CLOCK_MONOTONIC, &ts); ts.tv_sec * 10**9 + ts.tv_nsec``."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        i32, i64 = ir.IntType(32), ir.IntType(64)
        timespec = ir.LiteralStructType([i64, i64])
        ts = _alloca(builder, timespec)
        fn = _declare(builder.module, ir.FunctionType(i32, [i32, timespec.as_pointer()]),
                      "clock_gettime")
        builder.call(fn, [i32(CLOCK_MONOTONIC), ts])
        seconds = builder.load(builder.gep(ts, [i32(0), i32(0)]))
        nanos = builder.load(builder.gep(ts, [i32(0), i32(1)]))
        return builder.add(builder.mul(seconds, i64(1_000_000_000)), nanos)

    return types.int64(), codegen


clock_ns: Callable[[], int] = (
    time.monotonic_ns if getattr(config, "DISABLE_JIT", False) else cast(Any, _clock_ns))
