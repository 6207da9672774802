"""Connect Four: the game class (``game``) and its rules as template kernels (``kernels``).

The kernels are written once and run three ways: called by the Python ``Connect4`` class, built
as plain Python for other board sizes, and compiled with the search template
(``sakiyomi.compiled.template``).  The public names (``Connect4``, ``from_position``, the kernel
module name) are re-exported here so that ``sakiyomi.games.connect4`` is the import path.
"""

from __future__ import annotations

from sakiyomi.games.connect4.game import (
    KERNEL_MODULE,
    LIMITS,
    Connect4,
    from_position,
    kernels_for,
)

__all__ = ["KERNEL_MODULE", "LIMITS", "Connect4", "from_position", "kernels_for"]
