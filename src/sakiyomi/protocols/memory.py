"""Table sizes from a memory setting (UCI ``Hash``, USI ``USI_Hash``), in megabytes.

A Python table entry costs far more than its fields: the slot pointer, the ``TTEntry`` tuple,
the key's int object and the game's move object.  Each engine states what one entry of a *full*
table costs (measured by ``bench/engine_memory.py``, which fills a table to the end and reads
the process's RSS), and the capacity is the largest power of two whose full table fits in the
setting.  So the process stays within ``setting + baseline``, where the baseline is the engine
without a table (interpreter, game library, search buffers), also printed by that bench.
"""

from __future__ import annotations

MEGABYTE = 1 << 20


def entries_for(megabytes: float, bytes_per_entry: int) -> int:
    """The largest power of two of entries whose full table fits in ``megabytes`` (at least 1)."""
    budget = int(max(0.0, megabytes) * MEGABYTE) // max(1, bytes_per_entry)
    entries = 1
    while entries * 2 <= budget:
        entries *= 2
    return entries
