"""Compiled perft for kernel games: the move-generator check at native speed.

``PERFT`` is template text that ``template.build`` appends to every generated kernel module
(after the search and the playouts), so it counts with the game's own kernels: ``k_legal_moves``
(which returns 0 for a finished game) and ``k_play``.  It counts exactly what
``sakiyomi.search.perft.perft`` counts over the Python game: the leaves of the legal-move tree
``depth`` plies deep, a finished game ending its line with no leaf (unless depth is 0), and
the last ply counted in bulk (the number of legal moves, a forced pass being one).

``count(module, words, depth)`` runs it from Python on a game's ``kernel_state()`` words.
"""

from __future__ import annotations

import types

PERFT = '''
# ---- perft (sakiyomi.compiled.perft) ----


@entry
def f_perft(state, depth, buf, ply):
    """Leaves of the legal-move tree ``depth`` plies below ``state``; the moves of ply ``ply``
    are written at ``buf[ply * MAX_MOVES:]``.
    """
    if depth == 0:
        return depth - depth + 1
    base = ply * MAX_MOVES
    count = k_legal_moves(state, buf, base)
    if depth == 1:
        return depth - depth + count
    total = depth - depth
    for i in range(count):
        total += f_perft(k_play(state, buf[base + i]), depth - 1, buf, ply + 1)
    return total
'''


def count(module: types.ModuleType, words: tuple[int, ...], depth: int) -> int:
    """Perft of the position ``words`` (a kernel game's ``kernel_state()``) to ``depth``
    plies, with the generated ``module``'s compiled kernels.
    """
    import numpy as np

    if depth < 0:
        raise ValueError("perft depth must be 0 or more")
    buf = np.zeros((depth + 1) * max(int(module.MAX_MOVES), 1), dtype=np.int64)
    return int(module.f_perft(module.make_state(*words), depth, buf, 0))
