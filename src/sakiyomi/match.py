"""The play loop: agents take turns on one game until it ends or a human quits."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import TypeVar

from sakiyomi.agents import Agent, QuitGame
from sakiyomi.game import Game, Outcome, Player, player_text

M = TypeVar("M", bound=Hashable)


SHOWN_MOVES = 20  # legal moves listed for a game without a board diagram


def board_text(game: Game[M]) -> str:
    """The game's own text diagram (its ``__str__``, which every registered game has); a game
    without one is shown by the side to move and its first legal moves, never as
    ``<... object at 0x...>``.
    """
    if type(game).__str__ is not object.__str__:
        return str(game)
    moves = [game.move_to_text(m) for m in list(game.legal_moves())[:SHOWN_MOVES + 1]]
    more = ", ..." if len(moves) > SHOWN_MOVES else ""
    return (f"{game.to_move.name.lower()} to move; legal moves: "
            f"{', '.join(moves[:SHOWN_MOVES])}{more}")


def shown_move(game: Game[M], move: M) -> str:
    """The move in the game's notation, and as players write it where that differs
    (``MoveNames``): ``g1f3 (Nf3)``, ``7g7f (▲７六歩)``.  Before the move is played.
    """
    text, name = game.move_to_text(move), player_text(game, move)
    return text if name == text else f"{text} ({name})"


def play_game(
    game: Game[M], agents: Mapping[Player, Agent[M]], write: Callable[[str], None],
    show: Callable[[Game[M]], str] = board_text,
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
        write(f"{game.to_move.name.lower()} ({agent.name}) plays {shown_move(game, move)}")
        game.play(move)
        write(show(game))
    if outcome.winner is None:
        write(f"draw ({outcome.reason})")
    else:
        write(f"{outcome.winner.name.lower()} wins ({outcome.reason})")
    return outcome
