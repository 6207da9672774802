"""Tic-tac-toe (seed 003's exercise), with a static evaluation for depth-limited play.

Cells are numbered 1-9 row-major from the top left; internally 0-8.  POSITION is nine
characters ``x``, ``o``, ``.`` (or ``start``); x moves first, so the side to move follows from
the counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Self

from sakiyomi.game import MoveError, Outcome, Player, PositionError
from sakiyomi.inputs import shown

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
LINES_THROUGH = tuple(tuple(line for line in LINES if cell in line) for cell in range(9))
CELL_HINT = (2, 1, 2, 1, 3, 1, 2, 1, 2)  # centre, then corners, then edges
# Open-line weights: a line holding only one side's marks is worth this much to that side.
OPEN_LINE_WEIGHT = (0, 1, 10)
MARKS = ".xo"
LIMITS = "a 3x3 board: nine characters of x, o and . (or start)"


class TicTacToe:
    """3×3 board of 0 (empty), 1 (x), 2 (o); moves are cell indices 0-8."""

    ACYCLIC = True

    def __init__(self, cells: Sequence[int] = (0,) * 9) -> None:
        self.cells = list(cells)
        self._history: list[int] = []
        self._winner: Player | None = self._find_winner()

    @property
    def to_move(self) -> Player:
        return Player.FIRST if self.cells.count(1) == self.cells.count(2) else Player.SECOND

    def _find_winner(self) -> Player | None:
        for a, b, c in LINES:
            if self.cells[a] and self.cells[a] == self.cells[b] == self.cells[c]:
                return Player(self.cells[a] - 1)
        return None

    def legal_moves(self) -> Sequence[int]:
        if self._winner is not None:
            return []
        return [i for i in range(9) if not self.cells[i]]

    def play(self, move: int) -> None:
        mark = 1 if self.to_move is Player.FIRST else 2
        cells = self.cells
        cells[move] = mark
        self._history.append(move)
        for a, b, c in LINES_THROUGH[move]:
            if cells[a] == cells[b] == cells[c]:
                self._winner = Player(mark - 1)
                break

    def undo(self) -> None:
        self.cells[self._history.pop()] = 0
        self._winner = None

    def outcome(self) -> Outcome | None:
        if self._winner is not None:
            return Outcome(self._winner, "three in a row")
        if 0 not in self.cells:
            return Outcome(None, "board full")
        return None

    def evaluate(self) -> int:
        """Open lines: for every line free of the opponent, 1 for one own mark, 10 for two;
        minus the same for the opponent; from the side to move.
        """
        score = 0
        cells = self.cells
        for line in LINES:
            xs = os_ = 0
            for cell in line:
                v = cells[cell]
                if v == 1:
                    xs += 1
                elif v == 2:
                    os_ += 1
            if not os_:
                score += OPEN_LINE_WEIGHT[xs] if xs < 3 else 0
            if not xs:
                score -= OPEN_LINE_WEIGHT[os_] if os_ < 3 else 0
        return score if self.to_move is Player.FIRST else -score

    def move_hints(self, moves: Sequence[int]) -> Sequence[int]:
        """Centre first, corners next, edges last."""
        return [CELL_HINT[m] for m in moves]

    def rollout_move(self, rng: Random) -> int:
        """Playout policy (``RolloutPolicy``): complete a line if possible, else block the
        opponent's, else any empty cell.
        """
        cells = self.cells
        mark = 1 if self.to_move is Player.FIRST else 2
        empty = [i for i in range(9) if not cells[i]]
        for wanted in (mark, 3 - mark):
            for cell in empty:
                for a, b, c in LINES_THROUGH[cell]:
                    others = [cells[x] for x in (a, b, c) if x != cell]
                    if others[0] == others[1] == wanted:
                        return cell
        return empty[int(rng.random() * len(empty))]

    def key(self) -> int:
        key = 0
        for v in self.cells:
            key = key * 3 + v
        return key

    def copy(self) -> Self:
        clone = object.__new__(type(self))
        clone.cells = list(self.cells)
        clone._history = list(self._history)
        clone._winner = self._winner
        return clone

    def move_to_text(self, move: int) -> str:
        return str(move + 1)

    def move_from_text(self, text: str) -> int:
        t = text.strip()
        if len(t) != 1 or t not in "123456789":
            raise MoveError(f"move {text!r} is not a cell number 1-9")
        cell = int(t) - 1
        if self.outcome() is not None:
            raise MoveError("the game is over")
        if self.cells[cell]:
            raise MoveError(f"cell {t} is already taken by {MARKS[self.cells[cell]]}")
        return cell

    def position_text(self) -> str:
        """The POSITION string of this board."""
        return "".join(MARKS[v] for v in self.cells)

    def __str__(self) -> str:
        rows = []
        for r in range(3):
            rows.append(" ".join(MARKS[v] if v else str(3 * r + c + 1)
                                 for c, v in enumerate(self.cells[3 * r:3 * r + 3])))
        return "\n".join(rows)


def from_position(name: str, text: str) -> TicTacToe:
    """Parse nine characters of ``x``, ``o``, ``.`` (or ``start``) and check the position."""
    t = text.strip().lower()
    if t == "start":
        return TicTacToe()
    if len(t) != 9 or any(ch not in MARKS for ch in t):
        raise PositionError(f"tic-tac-toe position {shown(text)} must be 9 characters of x, o "
                            "and . (row-major), or 'start'")
    cells = [MARKS.index(ch) for ch in t]
    xs, os_ = cells.count(1), cells.count(2)
    if not (xs == os_ or xs == os_ + 1):
        raise PositionError(f"impossible position {text!r}: {xs} x and {os_} o (x moves first)")
    game = TicTacToe(cells)
    wins = {Player(cells[a] - 1)
            for a, b, c in LINES if cells[a] and cells[a] == cells[b] == cells[c]}
    if len(wins) > 1:
        raise PositionError(f"impossible position {text!r}: both sides have three in a row")
    if (Player.FIRST in wins and xs != os_ + 1) or (Player.SECOND in wins and xs != os_):
        raise PositionError(f"impossible position {text!r}: play continued after a win")
    return game
