"""Perft: the number of move sequences of a given length, the standard move-generator check."""

from __future__ import annotations

from collections.abc import Hashable
from typing import TypeVar

from sakiyomi.game import Game

M = TypeVar("M", bound=Hashable)


def perft(game: Game[M], depth: int) -> int:
    """Leaf count of the legal-move tree ``depth`` plies deep (finished games end a line early
    and count only at depth 0).  Uses bulk counting at depth 1.
    """
    if depth == 0:
        return 1
    moves = game.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        game.play(move)
        total += perft(game, depth - 1)
        game.undo()
    return total


def divide(game: Game[M], depth: int) -> list[tuple[M, int]]:
    """Perft split by root move (for finding move-generator bugs)."""
    counts = []
    for move in list(game.legal_moves()):
        game.play(move)
        counts.append((move, perft(game, depth - 1)))
        game.undo()
    return counts
