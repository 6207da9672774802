"""Integer scores: heuristic values, and wins/losses encoded with their distance in plies.

A win found ``ply`` plies below the root scores ``WIN - ply`` so that quicker wins are
preferred; losses mirror it.  Values stored in the transposition table are made relative to the
node that stores them (``to_tt``) and converted back on retrieval (``from_tt``), so that a mate
found through a transposition keeps the right distance.
"""

from __future__ import annotations

WIN = 1_000_000
MAX_PLY = 512
INF = WIN + 1
WIN_BOUND = WIN - MAX_PLY
SOLVED = MAX_PLY  # TT depth of results that reached the end of the game everywhere


def win_in(ply: int) -> int:
    """Score of a position where the side to move wins ``ply`` plies below the root."""
    return WIN - ply


def loss_in(ply: int) -> int:
    """Score of a position where the side to move has lost ``ply`` plies below the root."""
    return -WIN + ply


def is_win(value: int) -> bool:
    """True for a proven win for the side to move."""
    return value >= WIN_BOUND


def is_loss(value: int) -> bool:
    """True for a proven loss for the side to move."""
    return value <= -WIN_BOUND


def is_decisive(value: int) -> bool:
    """True for a proven win or loss."""
    return value >= WIN_BOUND or value <= -WIN_BOUND


def plies_to_end(value: int) -> int:
    """Distance in plies (from the root) of the decided result encoded in ``value``."""
    return WIN - abs(value)


def to_tt(value: int, ply: int) -> int:
    """Make a win/loss distance relative to the storing node (mate scores only)."""
    if value >= WIN_BOUND:
        return value + ply
    if value <= -WIN_BOUND:
        return value - ply
    return value


def from_tt(value: int, ply: int) -> int:
    """Undo ``to_tt`` for a node ``ply`` plies below the root."""
    if value >= WIN_BOUND:
        return value - ply
    if value <= -WIN_BOUND:
        return value + ply
    return value


def sign(value: int) -> int:
    """-1, 0 or +1."""
    return (value > 0) - (value < 0)


def result_word(value: int) -> str:
    """'win', 'draw' or 'loss' for the side to move."""
    return ("loss", "draw", "win")[sign(value) + 1]


def format_score(value: int) -> str:
    """Human text: 'win in 5', 'loss in 4' or the plain number."""
    if value >= WIN_BOUND:
        return f"win in {plies_to_end(value)}"
    if value <= -WIN_BOUND:
        return f"loss in {plies_to_end(value)}"
    return str(value)
