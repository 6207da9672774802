"""N×N Hex as a sakiyomi game: the Game protocol over the kernels of ``sakiyomi_hex.kernels``.

Every rule is a kernel; this class keeps the state and the history for play/undo and converts
at the edges (move texts, position texts, the picture).  It declares ``KernelGame``
(``kernel_spec`` and ``kernel_state``), so ``sakiyomi.engines.engine_for`` runs it on the
compiled engine, and the same hints and keys as the kernels, so the Python engine visits the
same nodes.

POSITION: the moves played, as cells ``a1``…, concatenated or separated by spaces or commas
(``b2 c1 a3``); ``start`` or the empty string is the empty board; a prefix ``NxN:`` picks
another board size, 2 to 7 (default 4: ``5x5:c3``).  Columns are letters from the left, rows
numbers from the top; ``X`` (first) joins top and bottom, ``O`` left and right.
"""

from __future__ import annotations

import re
import types
from collections.abc import Sequence
from typing import Any, Self

from sakiyomi.game import MoveError, Outcome, Player, PositionError
from sakiyomi_hex import kernels as default_kernels

KERNEL_MODULE = "sakiyomi_hex.kernels"
LIMITS = "square boards 2x2 to 7x7 (4x4 by default); one stone per cell, none after a win"
_SIZE = re.compile(r"^\s*(\d+)\s*[xX]\s*(\d+)\s*:(.*)$", re.S)
_CELL = re.compile(r"([a-zA-Z])(\d+)")


def kernels(size: int) -> types.ModuleType:
    """The plain-Python kernels for a board size (the module itself for the default)."""
    if size == default_kernels.SIZE:
        return default_kernels
    from sakiyomi.compiled.template import build

    return build(KERNEL_MODULE, {"SIZE": size}, compiled=False)


class Hex:
    """A Hex position with its history; moves are cell numbers ``row * size + column``."""

    ACYCLIC = True  # stones are never removed: no repetition checks needed

    def __init__(self, size: int = 4) -> None:
        if not 2 <= size <= 7:
            raise PositionError(f"Hex boards here are 2x2 to 7x7, not {size}x{size}")
        self.size = size
        self.k: Any = kernels(size)
        self._state: tuple[int, int, int] = (0, 0, 0)
        self._past: list[tuple[int, int, int]] = []
        self._buf = [0] * (size * size)

    # ---- Game protocol -----------------------------------------------------------------

    @property
    def to_move(self) -> Player:
        """X (FIRST) when an even number of stones is on the board."""
        return Player(self._state[2] % 2)

    def legal_moves(self) -> Sequence[int]:
        """The empty cells, centre first; none once somebody has won."""
        if self.k.k_outcome(self._state, 0)[0]:
            return []
        count = self.k.k_legal_moves(self._state, self._buf, 0)
        return self._buf[:count]

    def play(self, move: int) -> None:
        """Put a stone of the side to move on cell ``move``."""
        self._past.append(self._state)
        self._state = self.k.k_play(self._state, move)

    def undo(self) -> None:
        """Take the last stone back."""
        self._state = self._past.pop()

    def outcome(self) -> Outcome | None:
        """The side that just moved wins once its chain joins its edges."""
        if not self.k.k_outcome(self._state, 0)[0]:
            return None
        return Outcome(self.to_move.other, "edges joined")

    def evaluate(self) -> int:
        """The kernels' distance heuristic, from the side to move."""
        value: int = self.k.k_evaluate(self._state)
        return value

    def key(self) -> int:
        """The kernels' key (so both engines fill their tables alike)."""
        return int(self.k.k_key(self._state))

    def copy(self) -> Self:
        """An independent copy (states are tuples: sharing them is safe)."""
        clone = type(self)(self.size)
        clone._state = self._state
        clone._past = list(self._past)
        return clone

    def move_to_text(self, move: int) -> str:
        """``a1`` is the top-left cell; letters are columns, numbers rows."""
        return f"{chr(ord('a') + move % self.size)}{move // self.size + 1}"

    def move_from_text(self, text: str) -> int:
        """A cell such as ``b3`` that is empty in a game still going on."""
        return self._check(text.strip(), None)

    # ---- capabilities ------------------------------------------------------------------

    def move_hints(self, moves: Sequence[int]) -> Sequence[int]:
        """The kernels' hints (contact, then centrality)."""
        state, hint = self._state, self.k.k_hint
        return [hint(state, m) for m in moves]

    def score_bounds(self) -> tuple[int, int]:
        """The kernels' window for exact solving."""
        lo, hi = self.k.k_score_bounds(self._state)
        return int(lo), int(hi)

    def kernel_spec(self) -> tuple[str, dict[str, int]]:
        """The kernel module and its build parameters (KernelGame)."""
        return KERNEL_MODULE, {"SIZE": self.size}

    def kernel_state(self) -> tuple[int, ...]:
        """The state as Python ints (KernelGame); the same tuple until a move is made."""
        return self._state

    # ---- text --------------------------------------------------------------------------

    def _check(self, text: str, number: int | None) -> int:
        where = f"move {number} ({text!r})" if number is not None else f"move {text!r}"
        cell = _CELL.fullmatch(text)
        if cell is None:
            raise MoveError(f"{where} is not a cell such as a1 or {self.move_to_text(0)}")
        col = ord(cell.group(1).lower()) - ord("a")
        row = int(cell.group(2)) - 1
        if not (0 <= col < self.size and 0 <= row < self.size):
            last = self.move_to_text(self.size * self.size - 1)
            raise MoveError(f"{where} is off the board: cells are a1-{last}")
        if self.outcome() is not None:
            raise MoveError(f"{where} comes after the game is over")
        move = row * self.size + col
        black, white, _ = self._state
        if (black | white) & self.k.CELL[move]:
            raise MoveError(f"{where} is on a cell already taken")
        return move

    def stones(self) -> tuple[int, int]:
        """(black, white) as cell-number bitsets (bit ``row * size + col``)."""
        black, white, _ = self._state
        dense = [0, 0]
        for move, cell in enumerate(self.k.CELL):
            for side, word in enumerate((black, white)):
                if word & cell:
                    dense[side] |= 1 << move
        return dense[0], dense[1]

    def __str__(self) -> str:
        black, white = self.stones()
        letters = "  ".join(chr(ord("a") + c) for c in range(self.size))
        rows = [f"  {letters}"]
        for r in range(self.size):
            cells = []
            for c in range(self.size):
                bit = 1 << (r * self.size + c)
                cells.append("X" if black & bit else "O" if white & bit else ".")
            rows.append(" " * r + f"{r + 1:>2} " + "  ".join(cells))
        return "\n".join(rows)


def from_position(name: str, text: str) -> Hex:
    """Parse a move list (optionally ``NxN:`` first); errors name the offending move."""
    size, moves = default_kernels.SIZE, text
    sized = _SIZE.match(text)
    if sized:
        width, height = int(sized.group(1)), int(sized.group(2))
        if width != height:
            raise PositionError(f"{name} position {text!r}: Hex boards are square, "
                                f"not {width}x{height}")
        size, moves = width, sized.group(3)
    moves = moves.strip()
    if moves.lower() == "start":
        moves = ""
    game = Hex(size)
    cells = [c for c in re.split(r"[\s,]+", moves) if c]
    texts = [m.group(0) for c in cells for m in [*_CELL.finditer(c)]]
    if "".join(texts) != "".join(cells):
        raise PositionError(f"{name} position {text!r}: write cells such as a1 b2 c3")
    for number, cell in enumerate(texts, 1):
        try:
            game.play(game._check(cell, number))
        except MoveError as exc:
            raise PositionError(f"{name} position {text!r}: {exc}") from None
    return game
