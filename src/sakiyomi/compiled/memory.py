"""Large zeroed tables on transparent huge pages, where the system offers them.

A transposition table is read and written at random addresses.  With 4 KiB pages, a 256 MiB
table is 65,536 pages: a first search takes one page fault per page it touches (the kernel
zeroes each page then: ~0.2 CPU-s of system time for a 39 k-node solve in a fresh process,
measured), and a long solve misses the TLB on most probes.  With 2 MiB pages the same table
is 128 pages.  Linux gives anonymous memory huge pages only where asked to (``madvise`` in
``/sys/kernel/mm/transparent_hugepage/enabled`` on most distributions), so the table is
mapped with ``mmap`` at a 2 MiB boundary and advised ``MADV_HUGEPAGE``.  Anywhere that fails
(another system, no THP, a small table) it is a plain ``numpy.zeros``: same values, same
search, only the cost of reaching memory differs.
"""

from __future__ import annotations

import contextlib
import mmap
from typing import Any

import numpy as np

HUGE_PAGE = 1 << 21  # bytes: x86-64's and arm64's transparent huge page
MIN_BYTES = 4 * HUGE_PAGE  # smaller tables gain little and would round up a lot


def zeroed(count: int, dtype: Any = np.uint64) -> np.ndarray[Any, Any]:
    """A zero-filled one-dimensional array of ``count`` items of ``dtype``, on huge pages when
    it is large and the system supports advising them (see the module doc).  Its memory lives
    as long as the array (the array holds the mapping).
    """
    kind = np.dtype(dtype)
    size = count * kind.itemsize
    advise = getattr(mmap, "MADV_HUGEPAGE", None)
    if size < MIN_BYTES or advise is None:
        return np.zeros(count, dtype=kind)
    try:
        region = mmap.mmap(-1, size + HUGE_PAGE,
                           flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)  # zero-filled
    except (OSError, ValueError, AttributeError):
        return np.zeros(count, dtype=kind)
    raw = np.frombuffer(region, dtype=np.uint8)
    start = -raw.ctypes.data % HUGE_PAGE  # the first 2 MiB boundary
    with contextlib.suppress(OSError, ValueError):  # else no huge pages: still zeroed memory
        region.madvise(advise, start, size)
    return raw[start:start + size].view(kind)
