"""Bring your own game: a subtraction game written against the Game protocol, then searched.

Players alternately remove 1, 3 or 4 stones; who cannot move loses.  Run:
    python examples/subtraction_game.py 12
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Self

from sakiyomi.game import MoveError, Outcome, Player
from sakiyomi.search.solve import analyze, solve

TAKES = (1, 3, 4)


class Subtraction:
    """A heap of stones; a move is how many to take."""

    ACYCLIC = True  # positions never repeat: the searcher can skip repetition checks

    def __init__(self, stones: int) -> None:
        self.stones = stones
        self.player = Player.FIRST
        self.moves: list[int] = []

    @property
    def to_move(self) -> Player:
        """Whose turn it is."""
        return self.player

    def legal_moves(self) -> Sequence[int]:
        """Takes that fit in the heap."""
        return [t for t in TAKES if t <= self.stones]

    def play(self, move: int) -> None:
        """Take stones (mutates in place)."""
        self.stones -= move
        self.moves.append(move)
        self.player = self.player.other

    def undo(self) -> None:
        """Put the last take back."""
        self.stones += self.moves.pop()
        self.player = self.player.other

    def outcome(self) -> Outcome | None:
        """The player who cannot move has lost."""
        return None if self.legal_moves() else Outcome(self.player.other, "no move")

    def evaluate(self) -> int:
        """No heuristic needed: the game is read to the end."""
        return 0

    def key(self) -> int:
        """A perfect key: the heap size and the side to move."""
        return self.stones * 2 + int(self.player)

    def copy(self) -> Self:
        """An independent copy."""
        clone = type(self)(self.stones)
        clone.player, clone.moves = self.player, list(self.moves)
        return clone

    def move_to_text(self, move: int) -> str:
        """Moves are written as the number taken."""
        return str(move)

    def move_from_text(self, text: str) -> int:
        """Parse and check a move."""
        if not text.isdigit() or int(text) not in self.legal_moves():
            raise MoveError(f"take one of {self.legal_moves()}, not {text!r}")
        return int(text)


def main(stones: int) -> None:
    """Solve the position and show the value of every move."""
    game = Subtraction(stones)
    result = solve(game)
    print(f"{stones} stones: {result.extra['result']} for the player to move, "
          f"best take {result.best_move}, {result.stats.nodes} nodes")
    moves, _ = analyze(game)
    for mv in moves:
        print(f"  take {mv.move}: {'wins' if mv.value > 0 else 'loses'}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 12)
