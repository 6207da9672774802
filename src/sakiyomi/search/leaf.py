"""How every algorithm scores a finished position: one rule for textbook and production code."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from sakiyomi.game import Game, Outcome, TerminalScoring, capable
from sakiyomi.score import loss_in, win_in

TerminalScorer = Callable[[Outcome, int], int]


def terminal_scorer(game: Game[object]) -> TerminalScorer:
    """The function scoring finished positions of ``game`` for the side to move at ``ply``.

    Games with ``TerminalScoring`` give their own values (tree leaves, disc differences);
    otherwise a win ``ply`` plies from the root is ``win_in(ply)`` and a draw is 0.
    """
    if capable(game, TerminalScoring):
        scored = cast(TerminalScoring, game)

        def own(outcome: Outcome, ply: int) -> int:
            return scored.terminal_value(ply)

        return own

    def by_winner(outcome: Outcome, ply: int) -> int:
        if outcome.winner is None:
            return 0
        return win_in(ply) if outcome.winner == game.to_move else loss_in(ply)

    return by_winner


def own_terminal_value(game: Game[object]) -> Callable[[int], int] | None:
    """``game.terminal_value`` when the game scores its finished positions itself
    (``TerminalScoring``), else None: what ``terminal_scorer``'s scorer calls, for a node loop
    that calls it directly (one call fewer per finished position).
    """
    return cast(TerminalScoring, game).terminal_value if capable(game, TerminalScoring) else None
