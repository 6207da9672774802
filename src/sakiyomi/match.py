"""The play loop: agents take turns on one game until it ends or a human quits."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import TypeVar

from sakiyomi.agents import Agent, QuitGame
from sakiyomi.game import Game, Outcome, Player

M = TypeVar("M", bound=Hashable)


def play_game(
    game: Game[M], agents: Mapping[Player, Agent[M]], write: Callable[[str], None],
    show: Callable[[Game[M]], str] = str,
) -> Outcome | None:
    """Play to the end, showing the board after each move; None if a human quit."""
    write(show(game))
    while (outcome := game.outcome()) is None:
        agent = agents[game.to_move]
        try:
            move = agent.choose(game)
        except QuitGame:
            write("game abandoned")
            return None
        write(f"{game.to_move.name.lower()} ({agent.name}) plays {game.move_to_text(move)}")
        game.play(move)
        write(show(game))
    if outcome.winner is None:
        write(f"draw ({outcome.reason})")
    else:
        write(f"{outcome.winner.name.lower()} wins ({outcome.reason})")
    return outcome
