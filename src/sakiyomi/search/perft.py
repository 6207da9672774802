"""Perft: the number of move sequences of a given length, the standard move-generator check.

Like every search here it follows the unwinding rule of ``search.errors``: if a game method
raises, the game is back at the root and the error names the method and the line.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TypeVar

from sakiyomi.game import Game
from sakiyomi.search.errors import at_root, unwind

M = TypeVar("M", bound=Hashable)


def perft(game: Game[M], depth: int) -> int:
    """Leaf count of the legal-move tree ``depth`` plies deep (finished games end a line early
    and count only at depth 0).  Uses bulk counting at depth 1.
    """
    try:
        return _perft(game, depth)
    except BaseException as exc:
        raise at_root(exc, game)  # noqa: B904 (at_root sets the cause)


def _perft(game: Game[M], depth: int) -> int:
    if depth == 0:
        return 1
    moves = game.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        game.play(move)
        try:
            total += _perft(game, depth - 1)
        except BaseException as exc:
            raise unwind(exc, move, game, game.undo)  # noqa: B904 (unwind sets the cause)
        game.undo()
    return total


def divide(game: Game[M], depth: int) -> list[tuple[M, int]]:
    """Perft split by root move (for finding move-generator bugs)."""
    counts = []
    try:
        for move in list(game.legal_moves()):
            game.play(move)
            try:
                counts.append((move, _perft(game, depth - 1)))
            except BaseException as exc:
                raise unwind(exc, move, game, game.undo)  # noqa: B904 (unwind sets the cause)
            game.undo()
    except BaseException as exc:
        raise at_root(exc, game)  # noqa: B904 (at_root sets the cause)
    return counts
