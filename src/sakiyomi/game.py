"""The Game protocol every searcher works on, and the optional capabilities a game may declare.

A game object is a position plus its history: ``play`` and ``undo`` mutate it in place so that
searches never copy positions per node (DESIGN.md §3).  Moves are game objects, never strings;
``move_to_text`` / ``move_from_text`` convert at the edges (CLI, protocols).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from random import Random
from typing import Protocol, Self, TypeVar, cast, runtime_checkable

M = TypeVar("M")
M_contra = TypeVar("M_contra", contravariant=True)
M_co = TypeVar("M_co", covariant=True)


class Player(IntEnum):
    """The two players; FIRST moves first (x, Black in Othello/shogi, White in chess)."""

    FIRST = 0
    SECOND = 1

    @property
    def other(self) -> Player:
        """The opponent."""
        return Player.SECOND if self is Player.FIRST else Player.FIRST


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended: the winner (None for a draw), why, and a margin (e.g. discs)."""

    winner: Player | None
    reason: str
    margin: int = 0


class GameError(ValueError):
    """Bad input about a game: a malformed position, an illegal or unreadable move."""


class PositionError(GameError):
    """A position string that cannot be parsed or describes an impossible position."""


class MoveError(GameError):
    """A move text that is malformed or names an illegal move."""


class Game(Protocol[M]):
    """A position and its history; play() and undo() mutate it in place."""

    @property
    def to_move(self) -> Player:
        """The player whose turn it is."""
        ...

    def legal_moves(self) -> Sequence[M]:
        """All legal moves; a pass is a legal move; empty only when the game is over."""
        ...

    def play(self, move: M) -> None:
        """Make a legal move (no legality check on the hot path)."""
        ...

    def undo(self) -> None:
        """Take back the last move played."""
        ...

    def outcome(self) -> Outcome | None:
        """None while the game goes on, else how it ended."""
        ...

    def evaluate(self) -> int:
        """Heuristic value of a non-terminal position, from the side to move's point of view."""
        ...

    def key(self) -> int:
        """Equal positions give equal keys (a perfect key or a 64-bit Zobrist hash)."""
        ...

    def copy(self) -> Self:
        """An independent copy (used once per search, never per node)."""
        ...

    def move_to_text(self, move: M) -> str:
        """The move in this game's notation (DESIGN.md §8)."""
        ...

    def move_from_text(self, text: str) -> M:
        """Parse a legal move in this position; raise MoveError naming the problem otherwise."""
        ...


# ---- optional capabilities, detected once when a searcher is built (never per node) ----------


@runtime_checkable
class TerminalScoring(Protocol):
    """A game whose finished positions have values other than plain win/draw/loss.

    ``terminal_value(ply)`` scores the current finished position for the side to move, ``ply``
    plies below the root (so that quicker wins can score higher).  Explicit trees return their
    leaf values; Othello returns a disc difference.
    """

    def terminal_value(self, ply: int) -> int:
        """Score of the finished position for the side to move."""
        ...


@runtime_checkable
class MoveHints(Protocol[M_contra]):
    """Static move ordering: a higher hint is searched earlier (captures by value, centre first)."""

    def move_hints(self, moves: Sequence[M_contra]) -> Sequence[int]:
        """One integer per move, same order as ``moves``."""
        ...


@runtime_checkable
class NoisyMoves(Protocol[M_co]):
    """Moves a quiescence search should still look at once depth runs out (captures, promotions)."""

    def noisy_moves(self) -> Sequence[M_co]:
        """The subset of legal moves that make the position 'noisy'."""
        ...

    def in_check(self) -> bool:
        """True when standing pat would be unsound (the side to move must answer a threat)."""
        ...


@runtime_checkable
class RepetitionRules(Protocol):
    """A game that judges repetitions itself (chess threefold/50 moves, shogi sennichite).

    Returns the value for the side to move when the current position ends the game by
    repetition, else None.  Games without this capability get the default: a position that
    repeats one on the current path is a draw (seed 003).
    """

    def repetition_value(self, ply: int) -> int | None:
        """Value for the side to move if the position is decided by repetition."""
        ...


@runtime_checkable
class ScoreBounds(Protocol):
    """The range of exact values a solver must bisect (e.g. Connect Four ±21, Othello ±64)."""

    def score_bounds(self) -> tuple[int, int]:
        """(lowest, highest) possible exact value for the side to move."""
        ...


@runtime_checkable
class SolveTable(Protocol):
    """A solve of this position needs at most ``2**bits`` table slots (``solve_table_bits``):
    the solver then keeps to that part of a larger table, so a small endgame touches a few MiB
    rather than faulting in a table sized for the opening (both engines alike, so their node
    counts stay equal: the compiled one reads the kernels' ``k_table_bits``).
    """

    def solve_table_bits(self) -> int:
        """log2 of the table slots a solve of this position may use (>= 62: all of them)."""
        ...


@runtime_checkable
class ClosedForm(Protocol[M_co]):
    """A game whose exact result is known by a formula (Game of Bones: ``n mod 4``; Nim:
    Bouton's nim-sum), so that positions far too large to search are still solved at once.

    ``closed_form()`` returns ``(value, best_move)`` for the side to move: the value on the
    score scale of ``sakiyomi.score`` (``win_in(n)`` / ``loss_in(n)`` with the distance when the
    formula knows it and it is below ``MAX_PLY - 1``, else ``n = MAX_PLY - 1``: decided, distance
    at or beyond the horizon; still decisive one ply up), the best move None only at a finished
    position.  It returns None where the
    game prefers the search to read the position (small enough to read to the end, so that the
    search's principal variation and node counts are reported).  ``solve`` consults it at the
    root only.
    """

    def closed_form(self) -> tuple[int, M_co | None] | None:
        """(value, best move) by formula, or None to leave the position to the search."""
        ...


@runtime_checkable
class GameUnits(Protocol):
    """Converts an internal search score to the game's own units for reporting (DESIGN.md §8)."""

    def to_game_units(self, score: int) -> int:
        """The value in the game's units, e.g. Pons's score for Connect Four."""
        ...


@runtime_checkable
class SearchShortcuts(Protocol[M_co]):
    """Game knowledge a solver may use without changing any value (Pons's Connect Four tricks).

    ``value_bounds(ply)`` brackets the exact value of the current position, reached by a move
    from ``search_moves()`` (lo == hi: known without search, e.g. a win next move); the
    Searcher narrows its window with it below the root.  ``search_moves()`` is a non-empty
    subset of the legal moves that always holds a best move (e.g. drop moves that lose at
    once); the Searcher expands only these.  Detected once; games without it are unchanged.
    """

    def value_bounds(self, ply: int) -> tuple[int, int]:
        """(lo, hi) with lo <= exact value <= hi for the side to move."""
        ...

    def search_moves(self) -> Sequence[M_co]:
        """The moves the search needs, in the game's order."""
        ...


@runtime_checkable
class Checks(Protocol):
    """A game with checks (chess, shogi): the searcher may extend checking lines one ply."""

    def in_check(self) -> bool:
        """True when the side to move is in check."""
        ...


@runtime_checkable
class SolverSettings(Protocol):
    """A game that knows which ``SearchConfig`` fields suit solving it (e.g. Othello: a large
    table, no killers or history).  Plain values, so games need not import the search layer.
    """

    def solver_settings(self) -> dict[str, int | bool | str]:
        """Keyword arguments for ``SearchConfig`` when this game is solved or searched."""
        ...


@runtime_checkable
class SubtreeHooks(Protocol):
    """Exact knowledge of small subtrees that a game's kernels offer (Othello's last-empties
    solver and stability cut-off), used below the root by both engines under the
    ``SearchConfig`` switches ``leaf_solver`` and ``cutoff`` (the compiled template's
    ``k_leaf_solve``/``k_cutoff`` hooks, so both engines visit the same nodes).
    """

    def solve_subtree(self, depth: int, alpha: int, beta: int) -> tuple[bool, int, int, int]:
        """(solved, fail-soft value, nodes, leaves): the exact value when the subtree is small
        and ``depth`` reaches its end anyway, with the nodes and leaves visited below this one
        (this node counted by the caller); (False, 0, 0, 0) otherwise.
        """
        ...

    def proven_bound(self, alpha: int, beta: int) -> tuple[bool, int]:
        """(True, bound) when a bound proved without search fails outside (alpha, beta)."""
        ...


@runtime_checkable
class KernelGame(Protocol):
    """A game whose rules are kernels in ``sakiyomi.compiled`` (moves are ints), so the
    compiled search template can run it (DESIGN.md §5).
    """

    def kernel_spec(self) -> tuple[str, dict[str, int]]:
        """(kernel module name, its parameters such as the board size)."""
        ...

    def kernel_state(self) -> tuple[int, ...]:
        """The current position as the kernel state's words (Python ints)."""
        ...


@runtime_checkable
class NullMove(Protocol):
    """A game where 'passing' is a sound probe for null-move pruning (not a legal move).

    ``undo()`` must also take back a null move, so that an aborted search can unwind the path.
    """

    def play_null(self) -> None:
        """Hand the move to the opponent without moving."""
        ...

    def undo_null(self) -> None:
        """Take back ``play_null``."""
        ...

    def null_move_ok(self) -> bool:
        """False where zugzwang makes passing unsound (e.g. only king and pawns left)."""
        ...


@runtime_checkable
class TacticalMoves(Protocol[M_contra]):
    """Tells captures/promotions apart: such moves are never reduced or futility-pruned."""

    def is_tactical(self, move: M_contra) -> bool:
        """True for a move that changes material (capture, promotion)."""
        ...


@runtime_checkable
class HangingMoves(Protocol):
    """Tells, right after a move, whether it gave a piece away: for pruning such moves near
    the horizon (``SearchConfig.hanging_depth``) and not extending such checks.
    """

    def hangs_piece(self) -> bool:
        """True when the move just played captured nothing and left the moved piece where the
        side to move now wins it (a static exchange estimate).
        """
        ...


@runtime_checkable
class HangingBeforePlay(Protocol[M_contra]):
    """``HangingMoves``'s answer for a move before it is played: the searcher then skips a
    hanging move near the horizon without playing it and taking it back (in shogi about
    four in five of the moves played there were taken back unsearched).  Must equal playing
    ``move``, asking ``hangs_piece`` and taking it back.
    """

    def move_hangs_piece(self, move: M_contra) -> bool:
        """``hangs_piece`` as it would answer right after ``move`` (legal here)."""
        ...


@runtime_checkable
class MoveIds(Protocol[M_contra]):
    """Small integers for moves, equal exactly when the moves are equal: the move orderer keys
    its history and its look-ups by them instead of by the move objects, whose hashing may
    cost more (python-chess's moves hash in Python code, ~0.3 µs a look-up).
    """

    def move_id(self, move: M_contra) -> int:
        """The id of ``move``."""
        ...

    def move_ids(self, moves: Sequence[M_contra]) -> list[int]:
        """The ids of ``moves``, in order (one call for a node's moves)."""
        ...


@runtime_checkable
class QuietChecks(Protocol[M_contra]):
    """Tells, before a move is played, whether it can give check: the searcher skips a late
    or futile quiet move without playing it (and taking it back) when it cannot, the only
    reason such a move would be searched.  The answer must never be False for a move that
    checks; True for one that does not only costs the play.
    """

    def may_give_check(self, move: M_contra) -> bool:
        """False only when ``move`` (legal here) surely leaves the opponent out of check."""
        ...


@runtime_checkable
class KingDanger(Protocol):
    """Tells whether a king is under attack here (chess: enough enemy pieces reach its zone),
    for ``SearchConfig.guard_king_danger``: no null move and no late-move pruning at such a
    node, where a quiet move may be the attack or the only defence.
    """

    def king_in_danger(self) -> bool:
        """True when the position is sharp around a king."""
        ...


@runtime_checkable
class NoisyGains(Protocol[M_contra]):
    """How much a noisy move can win at most, in evaluation units (chess: the captured piece,
    plus a promotion's gain): quiescence may skip a move that could not lift the static value
    to alpha even so (delta pruning, ``SearchConfig.delta_margin``).
    """

    def noisy_gain(self, move: M_contra) -> int:
        """An upper estimate of what ``move`` (one of ``noisy_moves``) adds to the value."""
        ...


@runtime_checkable
class CheckingMoves(Protocol[M_co]):
    """A game with checks, for mate (tsume) search: the attacker may only play checking moves
    and the defender answers with every legal move (``sakiyomi.search.dfpn``).
    """

    def checking_moves(self) -> Sequence[M_co]:
        """The legal moves of the side to move that give check."""
        ...


@runtime_checkable
class PositionText(Protocol):
    """A game that can write its current position as a POSITION string its registry entry
    reads back (DESIGN.md §8): stores and books show it, and workers may be sent it.
    """

    def position_text(self) -> str:
        """The POSITION string of the current position."""
        ...


@runtime_checkable
class MoveNames(Protocol[M_contra]):
    """A game whose players write moves otherwise than its notation does (chess's SAN beside
    UCI, shogi's Japanese beside USI): ``play`` shows the name beside the move.
    """

    def move_name(self, move: M_contra) -> str:
        """The move as players write it, in the current position (before it is played)."""
        ...


@runtime_checkable
class MirrorSymmetry(Protocol[M]):
    """A game whose positions have a mirror image of equal value (Connect Four's left-right
    reflection).  Parallel solving merges a position with its mirror image, and a store of
    solved positions answers for both.
    """

    def mirrored(self) -> Self:
        """A new position: this one reflected (same side to move, same value)."""
        ...

    def mirror_move(self, move: M) -> M:
        """The move of the mirrored position that mirrors ``move``."""
        ...


@runtime_checkable
class RolloutPolicy(Protocol[M_co]):
    """A game that chooses the moves of Monte Carlo playouts itself (``sakiyomi.search.mcts``
    with ``MCTSConfig(rollout="game")``): e.g. take a win at once, block the opponent's, else
    anything.  Playouts that look a little ahead are slower but tell positions apart sooner.
    """

    def rollout_move(self, rng: Random) -> M_co:
        """A legal move of the current (unfinished) position, drawn with ``rng``."""
        ...


def is_acyclic(game: object) -> bool:
    """True when positions of this game can never repeat (no repetition checks are needed)."""
    return bool(getattr(game, "ACYCLIC", False))


_capabilities: dict[tuple[type, type], bool] = {}


def capable(game: object, capability: type) -> bool:
    """``isinstance(game, capability)`` for a runtime-checkable capability Protocol, decided
    once per game class (capabilities are declared by the class, DESIGN.md §1.7): a
    runtime Protocol check inspects every member and costs tens of microseconds, too much
    for a solve of a few hundred nodes.
    """
    key = (type(game), capability)
    known = _capabilities.get(key)
    if known is None:
        known = isinstance(game, capability)
        if not hasattr(type(game), "__getattr__"):  # a proxy's answer is its target's
            _capabilities[key] = known
    return known


def player_text(game: Game[M], move: M) -> str:
    """``move`` as players write it (``MoveNames``: chess's SAN, shogi's Japanese), else in
    the game's notation; in the current position, before the move is played.
    """
    if capable(game, MoveNames):
        return cast(MoveNames[M], game).move_name(move)
    return game.move_to_text(move)
