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

Huge pages have their own first-touch cost: a search touching a few thousand random slots
faults in every 2 MiB page of the table, and the kernel zeroes all of it (a depth-7 Connect
Four search of 3,661 nodes spent 0.57 s of system time on its 2**24-slot table, against
0.005 s on 4 KiB pages, measured here in fresh processes).  So a table can start on 4 KiB
pages (``huge=False``) and be advised later (``advise_huge``), once its search has shown that
it is long: the pages faulted from then on are huge, and the kernel's khugepaged merges the
earlier ones in the background.
"""

from __future__ import annotations

import mmap
from typing import Any

import numpy as np

HUGE_PAGE = 1 << 21  # bytes: x86-64's and arm64's transparent huge page
MIN_BYTES = 4 * HUGE_PAGE  # smaller tables gain little and would round up a lot


def zeroed(count: int, dtype: Any = np.uint64, *, huge: bool = True) -> np.ndarray[Any, Any]:
    """A zero-filled one-dimensional array of ``count`` items of ``dtype``, on huge pages when
    it is large and the system supports advising them (see the module doc); ``huge=False``:
    mapped the same way (2 MiB-aligned, for a later ``advise_huge``) but not advised yet.
    Its memory lives as long as the array (the array holds the mapping).
    """
    kind = np.dtype(dtype)
    size = count * kind.itemsize
    if size < MIN_BYTES or getattr(mmap, "MADV_HUGEPAGE", None) is None:
        return np.zeros(count, dtype=kind)
    try:
        region = mmap.mmap(-1, size + HUGE_PAGE,
                           flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)  # zero-filled
    except (OSError, ValueError, AttributeError):
        return np.zeros(count, dtype=kind)
    raw = np.frombuffer(region, dtype=np.uint8)
    start = -raw.ctypes.data % HUGE_PAGE  # the first 2 MiB boundary
    table: np.ndarray[Any, Any] = raw[start:start + size].view(kind)
    if huge:
        advise_huge(table)
    return table


def advise_huge(table: np.ndarray[Any, Any]) -> bool:
    """Ask for huge pages under an array made by ``zeroed`` (idempotent); False when it is not
    such an array (a small table, another system) or the system refuses.
    """
    base: Any = table
    while isinstance(base, np.ndarray):
        base = base.base
    if isinstance(base, memoryview):
        base = base.obj
    advise = getattr(mmap, "MADV_HUGEPAGE", None)
    if not isinstance(base, mmap.mmap) or advise is None:
        return False
    start = table.ctypes.data - np.frombuffer(base, dtype=np.uint8).ctypes.data
    try:
        base.madvise(advise, start, table.nbytes)
    except (OSError, ValueError):
        return False
    return True
