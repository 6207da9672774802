"""Othello (Reversi) on 8×8 bitboards, over the same @njit kernels the compiled search uses.

POSITION (DESIGN.md §8, the OBF board of Edax/FFO): 64 characters a1 b1 … h1 a2 … h8
(``X`` black, ``O`` white, ``-`` empty; Edax's ``*``/``x``, ``0``/``o`` and ``.`` are accepted),
a space, the side to move ``X`` or ``O``; or ``start``.  Anything after the side (``; A2:+38``
of an OBF line) is ignored.  Moves: ``a1``–``h8`` and ``pass``.  A pass is a legal move only
when the side to move has no other; the game ends when neither side can move, and the empty
squares go to the winner (the FFO/Edax convention), so values are final disc differences.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Self

import numpy as np

from sakiyomi.game import MoveError, Outcome, Player, PositionError
from sakiyomi.games.othello import kernels as _kernels
from sakiyomi.games.othello import rules as k
from sakiyomi.games.othello.endgame import move_hint
from sakiyomi.games.othello.evaluation import evaluate as _evaluate
from sakiyomi.inputs import shown

PASS = k.PASS
FILES = "abcdefgh"
BLACK_CHARS = "Xx*"
WHITE_CHARS = "Oo0"
EMPTY_CHARS = "-."
START_TEXT = "-" * 27 + "OX" + "-" * 6 + "XO" + "-" * 27 + " X"
LIMITS = "an 8x8 board: 64 squares of X, O or -, a space and the side to move X or O (or start)"
KERNEL_MODULE = "sakiyomi.games.othello.kernels"
# Build switches of the compiled kernels (see sakiyomi.games.othello.kernels): empties at which the
# TT-less leaf solver takes over, below which it orders by parity only; parity, stability and
# fastest-first on; enhanced transposition cut-offs from 14 empties; one-bound table entries
# (two bounds, BOUNDS2=1, saved no nodes on our own random 20-empty endgames: bisection probes
# fall between the bounds stored by earlier probes).  The table tier's fastest-first score also
# counts the opponent's potential mobility, weight 1 against 4 per reply (POTENTIAL=1: 4 % and
# 9 % fewer nodes on 12 of our own random 20-empty endgames, seeds 2 and 3; in the TT-less leaf
# tier, LEAF_POTENTIAL, it saved no nodes beyond that and costs a neighbour count per move).
# Parity order from 5 empties (SHALLOW; fastest-first above): against 6, 12 % fewer nodes for
# the same CPU time (session 16, after the runtime-free compile: 0.88x nodes, 1.00x time on
# 10 of our own random 21-empty endgames, seed 2; earlier sessions: same nodes saved, no CPU
# time); 4 saves 21 % of the nodes for 10 % more CPU time (bench/othello.py --techniques).
# Session 18, on 12 of our own random 22-empty endgames (seed 3) after the faster flips: the
# table down to 10 empties (LEAF=9) instead of 13 (LEAF=12) took 0.83x the nodes and 0.89x the
# CPU time (8: 0.79x / 0.89x, 10: 0.89x / 0.90x, 11: 0.94x / 0.93x); then the evaluation in
# the table tier's order from 12 empties, weight 2 against 4 per reply (EVAL_ORDER, EVAL_MIN),
# took 0.62x the nodes and 0.69x the time (from 10: 0.72x time, 14: 0.72x, 16: 0.73x; weight 1
# from 12: 0.69x, weight 4: 0.74x).
# The values are the kernel module's own defaults, so that the Python game (which calls that
# module's kernels: the leaf solver, the stability cut-off) and the compiled build agree.
KERNEL_PARAMS = tuple((name, int(getattr(_kernels, name))) for name in (
    "LEAF", "SHALLOW", "PARITY", "STABILITY", "FASTEST", "BOUNDS2", "ETC", "POTENTIAL",
    "LEAF_POTENTIAL", "EVAL_ORDER", "EVAL_MIN"))
_HINTS = tuple(dict(KERNEL_PARAMS)[name] for name in ("POTENTIAL", "EVAL_ORDER", "EVAL_MIN"))
# (the hints' weights, as the compiled build's)


def square_name(sq: int) -> str:
    """``a1`` … ``h8``, or ``pass``."""
    return "pass" if sq == PASS else f"{FILES[sq % 8]}{sq // 8 + 1}"


def _bits(x: Any) -> list[int]:
    v = int(x)
    out = []
    while v:
        low = v & -v
        out.append(low.bit_length() - 1)
        v ^= low
    return out


class Othello:
    """Black's and White's discs as two uint64 words, the side to move, and a move history.

    ``play`` records (move, flipped discs), so ``undo`` is two xors.  The legal moves of the
    current position are cached until the next play/undo (the searcher asks ``outcome`` and
    then ``legal_moves`` at every node).
    """

    ACYCLIC = True

    def __init__(self, black: int = int(k.START_BLACK), white: int = int(k.START_WHITE),
                 to_move: Player = Player.FIRST) -> None:
        if black & white:
            raise PositionError("a square cannot hold both a black and a white disc")
        self._discs = [np.uint64(black), np.uint64(white)]
        self._side = to_move
        self._history: list[tuple[int, Any]] = []
        self._moves: list[int] | None = None

    # ---- the Game protocol --------------------------------------------------------------

    @property
    def to_move(self) -> Player:
        return self._side

    @property
    def black(self) -> int:
        """Black's discs as a bitboard."""
        return int(self._discs[0])

    @property
    def white(self) -> int:
        """White's discs as a bitboard."""
        return int(self._discs[1])

    def _po(self) -> tuple[Any, Any]:
        s = int(self._side)
        return self._discs[s], self._discs[1 - s]

    def legal_moves(self) -> Sequence[int]:
        if self._moves is None:
            p, o = self._po()
            mine = k.legal_moves(p, o)
            if mine:
                self._moves = _bits(mine)
            elif k.legal_moves(o, p):
                self._moves = [PASS]
            else:
                self._moves = []
        return self._moves

    def play(self, move: int) -> None:
        s = int(self._side)
        if move == PASS:
            flipped = np.uint64(0)
        else:
            p, o = self._po()
            flipped = k.flips(p, o, move)
            self._discs[s] = p | flipped | (np.uint64(1) << np.uint64(move))
            self._discs[1 - s] = o ^ flipped
        self._history.append((move, flipped))
        self._side = self._side.other
        self._moves = None

    def undo(self) -> None:
        move, flipped = self._history.pop()
        self._side = self._side.other
        if move != PASS:
            s = int(self._side)
            self._discs[s] ^= flipped | (np.uint64(1) << np.uint64(move))
            self._discs[1 - s] ^= flipped
        self._moves = None

    def outcome(self) -> Outcome | None:
        if self.legal_moves():
            return None
        diff = int(k.final_score(self._discs[0], self._discs[1]))  # for Black
        if diff == 0:
            return Outcome(None, "neither side can move", 0)
        winner = Player.FIRST if diff > 0 else Player.SECOND
        return Outcome(winner, "neither side can move", abs(diff))

    def terminal_value(self, ply: int) -> int:
        """Final disc difference for the side to move (empties to the winner)."""
        p, o = self._po()
        return int(k.final_score(p, o))

    def score_bounds(self) -> tuple[int, int]:
        return -64, 64

    def evaluate(self) -> int:
        """Heuristic disc difference for the side to move (``evaluation``)."""
        p, o = self._po()
        return int(_evaluate(p, o))

    def move_hints(self, moves: Sequence[int]) -> Sequence[int]:
        """Fastest-first (the compiled search's ``k_hint``, with its build's potential-mobility
        weight): fewer opponent replies first.
        """
        p, o = self._po()
        return [int(move_hint(p, o, m, 1, *_HINTS)) for m in moves]

    def solver_settings(self) -> dict[str, int | bool | str]:
        """Solve with a 2**22-slot table and ordering by TT move and fastest-first hints only
        (killer and history moves only disturb the mobility order in Othello), the first probe
        at a 2-ply search's value (17 % fewer nodes than probing 0 first on our own random
        20-empty endgames, seed 1: bench/othello.py --techniques).
        """
        return {"tt_capacity": 1 << 22, "killers": False, "history": False, "guess_depth": 2}

    def solve_subtree(self, depth: int, alpha: int, beta: int) -> tuple[bool, int, int, int]:
        """SubtreeHooks: the kernels' last-empties solver (``kernels.k_leaf_solve``)."""
        p, o = self._po()
        # nodes and leaves below, as the template's mem[0:2]; the solver's scratch words last
        ctx = np.zeros(2 + _kernels.SCRATCH, dtype=np.int64)
        solved, value = _kernels.k_leaf_solve(_kernels.make_state(int(p), int(o)), depth,
                                              alpha, beta, ctx)
        if not solved:
            return False, 0, 0, 0
        return True, int(value), int(ctx[0]), int(ctx[1])

    def proven_bound(self, alpha: int, beta: int) -> tuple[bool, int]:
        """SubtreeHooks: the kernels' stability cut-off (``kernels.k_cutoff``)."""
        p, o = self._po()
        cut, value = _kernels.k_cutoff(_kernels.make_state(int(p), int(o)), alpha, beta)
        return bool(cut), int(value)

    def kernel_spec(self) -> tuple[str, dict[str, int]]:
        """The compiled template's kernel module for Othello, with its default switches."""
        return KERNEL_MODULE, dict(KERNEL_PARAMS)

    def kernel_state(self) -> tuple[int, ...]:
        """The side to move's discs and the opponent's (``kernels.make_state``)."""
        p, o = self._po()
        return int(p), int(o)

    def key(self) -> int:
        """The compiled engine's 64-bit hash of the position from the side to move
        (``othello_kernels.position_key``), so that both engines fill their tables alike and
        count the same nodes.  Not a perfect key (a position takes 128 bits); the mixing is
        strong enough that FFO #1-#49 solve exactly (see DESIGN.md §10).
        """
        p, o = self._po()
        return int(k.position_key(p, o))

    def copy(self) -> Self:
        clone = object.__new__(type(self))
        clone._discs = list(self._discs)
        clone._side = self._side
        clone._history = list(self._history)
        clone._moves = self._moves
        return clone

    def move_to_text(self, move: int) -> str:
        return square_name(move)

    def move_from_text(self, text: str) -> int:
        t = text.strip().lower()
        if t in ("pass", "pa", "ps", "@@", "--"):
            move = PASS
        elif len(t) == 2 and t[0] in FILES and t[1] in "12345678":
            move = FILES.index(t[0]) + 8 * (int(t[1]) - 1)
        else:
            raise MoveError(f"move {text!r} is not a square a1-h8 or 'pass'")
        legal = self.legal_moves()
        if not legal:
            raise MoveError("the game is over")
        if move not in legal:
            if move == PASS:
                raise MoveError("pass is only legal when no other move is: "
                                f"legal moves are {', '.join(map(square_name, legal))}")
            black, white = self.black, self.white
            if (black | white) >> move & 1:
                raise MoveError(f"square {t} is already occupied")
            if legal == [PASS]:
                raise MoveError(f"{t} flips nothing: {self._side_name()} must pass")
            raise MoveError(f"{t} flips no disc: legal moves are "
                            f"{', '.join(map(square_name, legal))}")
        return move

    # ---- text ---------------------------------------------------------------------------

    def _side_name(self) -> str:
        return "black (X)" if self._side is Player.FIRST else "white (O)"

    def empties(self) -> int:
        """Number of empty squares."""
        return 64 - (self.black | self.white).bit_count()

    def board_text(self) -> str:
        """The 64-character OBF board."""
        black, white = self.black, self.white
        return "".join("X" if black >> i & 1 else "O" if white >> i & 1 else "-"
                       for i in range(64))

    def position_text(self) -> str:
        """The POSITION string: OBF board, a space, the side to move."""
        return f"{self.board_text()} {'X' if self._side is Player.FIRST else 'O'}"

    def __str__(self) -> str:
        board = self.board_text()
        legal = set(self.legal_moves())
        lines = ["  a b c d e f g h"]
        for r in range(8):
            cells = [board[8 * r + f] if board[8 * r + f] != "-"
                     else ("." if 8 * r + f in legal else "-") for f in range(8)]
            lines.append(f"{r + 1} {' '.join(cells)} {r + 1}")
        lines.append("  a b c d e f g h")
        black, white = self.black.bit_count(), self.white.bit_count()
        lines.append(f"X {black}  O {white}  {self._side_name()} to move")
        return "\n".join(lines)


def parse_board(text: str) -> tuple[int, int]:
    """Black and white bitboards of a 64-character OBF board; PositionError on bad text."""
    if len(text) != 64:
        raise PositionError(f"an Othello board needs 64 squares a1..h8, got {len(text):,} "
                            f"characters in {shown(text)}")
    black = white = 0
    for i, ch in enumerate(text):
        if ch in BLACK_CHARS:
            black |= 1 << i
        elif ch in WHITE_CHARS:
            white |= 1 << i
        elif ch not in EMPTY_CHARS:
            raise PositionError(f"square {square_name(i)} holds {ch!r}: use X (black), "
                                "O (white) or - (empty)")
    return black, white


def from_position(name: str, text: str) -> Othello:
    """Parse ``start`` or ``BOARD SIDE`` (OBF; anything after the side is ignored)."""
    t = text.strip()
    if t.lower() == "start":
        return Othello()
    parts = t.split(";")[0].split()
    if len(parts) != 2:
        raise PositionError(f"Othello position {shown(text)} must be 64 board characters, a "
                            "space and the side to move (X or O), or 'start'")
    board, side = parts
    black, white = parse_board(board)
    if len(side) == 1 and side in BLACK_CHARS:
        player = Player.FIRST
    elif len(side) == 1 and side in WHITE_CHARS:
        player = Player.SECOND
    else:
        raise PositionError(f"side to move {shown(side)} must be X (black) or O (white)")
    return Othello(black, white, player)
