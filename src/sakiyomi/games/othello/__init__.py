"""Othello: the game class (``game``), the bitboard rules (``rules``), the midgame evaluation
(``evaluation``), the last-empties solver (``endgame``) and their adapter to the compiled
search template (``kernels``).

Every module below ``game`` is a set of @njit kernels shared by the Python ``Othello`` class and
the compiled search, so the rules exist once.  The public names are re-exported here so that
``sakiyomi.games.othello`` is the import path.
"""

from __future__ import annotations

from sakiyomi.games.othello.game import (
    KERNEL_MODULE,
    KERNEL_PARAMS,
    LIMITS,
    PASS,
    START_TEXT,
    Othello,
    from_position,
    parse_board,
    square_name,
)

__all__ = ["KERNEL_MODULE", "KERNEL_PARAMS", "LIMITS", "PASS", "START_TEXT", "Othello",
           "from_position", "parse_board", "square_name"]
