"""The source documents' algorithms, each small and readable: the test oracles.

Every function searches ``game`` (restoring it, also when a game method raises: the error is a
``GameMethodError`` naming the method and the line) to ``depth`` plies and returns a
``TextbookResult``: the value from the point of view of the side to move at the root, the
principal variation, and the node counts of DESIGN.md §4 (nodes = every position visited,
root included; leaves = positions scored without expanding them).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

from sakiyomi.game import Game, Player
from sakiyomi.score import INF, MAX_PLY
from sakiyomi.search.errors import at_root, unwind
from sakiyomi.search.leaf import terminal_scorer
from sakiyomi.search.tracing import NULL_TRACER, Tracer
from sakiyomi.tt import Bound

M = TypeVar("M", bound=Hashable)
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class TextbookResult(Generic[M]):
    """Value (side to move at the root), principal variation and node counts."""

    value: int
    pv: tuple[M, ...]
    nodes: int
    leaves: int

    @property
    def interior(self) -> int:
        """Expanded nodes."""
        return self.nodes - self.leaves


class _Walk(Generic[M]):
    """Shared bookkeeping: counters, the leaf rule and the tracer (not a search itself)."""

    def __init__(self, game: Game[M], tracer: Tracer) -> None:
        self.game = game
        self.nodes = 0
        self.leaves = 0
        self.tracer = tracer
        self._terminal = terminal_scorer(cast(Game[object], game))

    def enter(self, ply: int, via: M | None, depth: int, alpha: int, beta: int) -> None:
        """Count a node."""
        self.nodes += 1
        if self.tracer.enabled:
            self.tracer.enter(ply, via, depth, alpha, beta)

    def leave(self, ply: int, value: int, alpha: int = -INF, beta: int = INF) -> int:
        """Report a node's value (bound relative to its window) and return it."""
        if self.tracer.enabled:
            bound = Bound.LOWER if value >= beta else Bound.UPPER if value <= alpha else Bound.EXACT
            self.tracer.leave(ply, value, bound)
        return value

    def cut(self, ply: int, kind: str, moves: Sequence[M], searched: int) -> None:
        """Report a cut-off after ``searched`` of ``moves``: the rest are pruned."""
        if self.tracer.enabled:
            self.tracer.cutoff(ply, kind, moves[searched:])

    def static(self, depth: int, ply: int) -> int | None:
        """Leaf value for the side to move, or None if the node must be expanded."""
        outcome = self.game.outcome()
        if outcome is not None:
            self.leaves += 1
            return self._terminal(outcome, ply)
        if depth <= 0 or ply >= MAX_PLY - 1:
            self.leaves += 1
            return self.game.evaluate()
        return None

    def unwound(self, exc: BaseException, move: M) -> BaseException:
        """Take ``move`` back after ``exc`` came up from below it; the exception to raise one
        ply up (the rule of ``search.errors``: the caller's game ends back at the root).
        """
        return unwind(exc, move, self.game, self.game.undo)

    def root(self, node: Callable[..., tuple[T, tuple[M, ...]]], *args: Any
             ) -> tuple[T, tuple[M, ...]]:
        """Search the root with ``node``; a game method's failure comes out as a
        GameMethodError naming the method and the line (search.errors).
        """
        try:
            return node(*args)
        except BaseException as exc:
            raise at_root(exc, self.game)  # noqa: B904 (at_root sets the cause)

    def result(self, value: int, pv: tuple[M, ...]) -> TextbookResult[M]:
        """Package the answer."""
        return TextbookResult(value, pv, self.nodes, self.leaves)


def minimax(game: Game[M], depth: int = MAX_PLY, tracer: Tracer = NULL_TRACER) -> TextbookResult[M]:
    """MinMax with two branches (seed 002): the root's side to move maximises, the other minimises.

    Leaves are converted to the maximiser's point of view; the PV comes back with the value.
    """
    walk: _Walk[M] = _Walk(game, tracer)
    maximiser: Player = game.to_move

    def node(depth: int, ply: int, via: M | None) -> tuple[int, tuple[M, ...]]:
        walk.enter(ply, via, depth, -INF, INF)
        value = walk.static(depth, ply)
        if value is not None:
            own = value if game.to_move == maximiser else -value
            return walk.leave(ply, own), ()
        line: tuple[M, ...] = ()
        if game.to_move == maximiser:  # MAX node: take the largest child
            best = -INF
            for move in game.legal_moves():
                game.play(move)
                try:
                    v, sub = node(depth - 1, ply + 1, move)
                except BaseException as exc:
                    raise walk.unwound(exc, move)  # noqa: B904 (sets the cause)
                game.undo()
                if v > best:
                    best, line = v, (move, *sub)
        else:  # MIN node: take the smallest child
            best = INF
            for move in game.legal_moves():
                game.play(move)
                try:
                    v, sub = node(depth - 1, ply + 1, move)
                except BaseException as exc:
                    raise walk.unwound(exc, move)  # noqa: B904 (sets the cause)
                game.undo()
                if v < best:
                    best, line = v, (move, *sub)
        return walk.leave(ply, best), line

    value, pv = walk.root(node, depth, 0, None)
    return walk.result(value, pv)


def negamax(game: Game[M], depth: int = MAX_PLY, tracer: Tracer = NULL_TRACER) -> TextbookResult[M]:
    """NegaMax (seed 000): a node's value is the largest negated child value."""
    walk: _Walk[M] = _Walk(game, tracer)

    def node(depth: int, ply: int, via: M | None) -> tuple[int, tuple[M, ...]]:
        walk.enter(ply, via, depth, -INF, INF)
        value = walk.static(depth, ply)
        if value is not None:
            return walk.leave(ply, value), ()
        best = -INF
        line: tuple[M, ...] = ()
        for move in game.legal_moves():
            game.play(move)
            try:
                v, sub = node(depth - 1, ply + 1, move)
            except BaseException as exc:
                raise walk.unwound(exc, move)  # noqa: B904 (sets the cause)
            game.undo()
            if -v > best:
                best, line = -v, (move, *sub)
        return walk.leave(ply, best), line

    value, pv = walk.root(node, depth, 0, None)
    return walk.result(value, pv)


def alphabeta_minmax(
    game: Game[M], depth: int = MAX_PLY, alpha: int = -INF, beta: int = INF,
    fail_soft: bool = True, tracer: Tracer = NULL_TRACER,
) -> TextbookResult[M]:
    """αβ in MinMax form (seed 002): α is the maximiser's best so far, β the minimiser's.

    Fail-hard returns values clamped to [α, β]; fail-soft returns the best value seen.
    ``alpha``/``beta`` and the result are from the root's side to move (the maximiser).
    """
    walk: _Walk[M] = _Walk(game, tracer)
    maximiser: Player = game.to_move

    def node(depth: int, ply: int, a: int, b: int, via: M | None) -> tuple[int, tuple[M, ...]]:
        walk.enter(ply, via, depth, a, b)
        a0, b0 = a, b
        value = walk.static(depth, ply)
        if value is not None:
            own = value if game.to_move == maximiser else -value
            if not fail_soft:
                own = max(a, min(b, own))
            return walk.leave(ply, own, a, b), ()
        moves = game.legal_moves()
        line: tuple[M, ...] = ()
        if game.to_move == maximiser:
            best = -INF
            for i, move in enumerate(moves):
                game.play(move)
                try:
                    v, sub = node(depth - 1, ply + 1, a, b, move)
                except BaseException as exc:
                    raise walk.unwound(exc, move)  # noqa: B904 (sets the cause)
                game.undo()
                if v > best:
                    best = v
                    if v > a:
                        a, line = v, (move, *sub)
                if a >= b:
                    walk.cut(ply, "beta", moves, i + 1)  # the minimiser will avoid this
                    break
            result = best if fail_soft else a
        else:
            best = INF
            for i, move in enumerate(moves):
                game.play(move)
                try:
                    v, sub = node(depth - 1, ply + 1, a, b, move)
                except BaseException as exc:
                    raise walk.unwound(exc, move)  # noqa: B904 (sets the cause)
                game.undo()
                if v < best:
                    best = v
                    if v < b:
                        b, line = v, (move, *sub)
                if a >= b:
                    walk.cut(ply, "alpha", moves, i + 1)  # the maximiser will avoid this
                    break
            result = best if fail_soft else b
        return walk.leave(ply, result, a0, b0), line

    value, pv = walk.root(node, depth, 0, alpha, beta, None)
    return walk.result(value, pv)


def alphabeta(
    game: Game[M], depth: int = MAX_PLY, alpha: int = -INF, beta: int = INF,
    fail_soft: bool = True, tracer: Tracer = NULL_TRACER,
) -> TextbookResult[M]:
    """αβ in Nega form ("Nega-αβ", seed 002): the child gets the window (-β, -α).

    Fail-hard returns values clamped to [α, β]; fail-soft the best value seen, so a result
    ≤ α is an upper bound and ≥ β a lower bound of the true value.
    """
    walk: _Walk[M] = _Walk(game, tracer)

    def node(depth: int, ply: int, a: int, b: int, via: M | None) -> tuple[int, tuple[M, ...]]:
        walk.enter(ply, via, depth, a, b)
        alpha0 = a
        value = walk.static(depth, ply)
        if value is not None:
            if not fail_soft:
                value = max(a, min(b, value))
            return walk.leave(ply, value, a, b), ()
        moves = game.legal_moves()
        best = -INF
        line: tuple[M, ...] = ()
        for i, move in enumerate(moves):
            game.play(move)
            try:
                v, sub = node(depth - 1, ply + 1, -b, -a, move)
            except BaseException as exc:
                raise walk.unwound(exc, move)  # noqa: B904 (sets the cause)
            game.undo()
            v = -v
            if v > best:
                best = v
                if v > a:
                    a, line = v, (move, *sub)
            if a >= b:
                walk.cut(ply, "beta" if ply % 2 == 0 else "alpha", moves, i + 1)
                break
        result = best if fail_soft else a
        return walk.leave(ply, result, alpha0, b), line

    value, pv = walk.root(node, depth, 0, alpha, beta, None)
    return walk.result(value, pv)


def negascout(
    game: Game[M], depth: int = MAX_PLY, alpha: int = -INF, beta: int = INF,
    tracer: Tracer = NULL_TRACER,
) -> TextbookResult[M]:
    """NegaScout (seed 002): null window for all but the first move, re-search on a fail-high
    inside the window.  Fail-soft.
    """
    walk: _Walk[M] = _Walk(game, tracer)

    def node(depth: int, ply: int, a: int, b: int, via: M | None) -> tuple[int, tuple[M, ...]]:
        walk.enter(ply, via, depth, a, b)
        alpha0 = a
        value = walk.static(depth, ply)
        if value is not None:
            return walk.leave(ply, value, a, b), ()
        moves = game.legal_moves()
        best = -INF
        line: tuple[M, ...] = ()
        for i, move in enumerate(moves):
            game.play(move)
            try:
                if i == 0:
                    v, sub = node(depth - 1, ply + 1, -b, -a, move)
                    v = -v
                else:
                    v, sub = node(depth - 1, ply + 1, -a - 1, -a, move)  # scout: is it better?
                    v = -v
                    if a < v < b:  # yes, and inside the window: learn its exact value
                        if tracer.enabled:
                            tracer.research(ply + 1, move)
                        v, sub = node(depth - 1, ply + 1, -b, -a, move)
                        v = -v
            except BaseException as exc:
                raise walk.unwound(exc, move)  # noqa: B904 (sets the cause)
            game.undo()
            if v > best:
                best = v
                if v > a:
                    a, line = v, (move, *sub)
            if a >= b:
                walk.cut(ply, "beta" if ply % 2 == 0 else "alpha", moves, i + 1)
                break
        return walk.leave(ply, best, alpha0, b), line

    value, pv = walk.root(node, depth, 0, alpha, beta, None)
    return walk.result(value, pv)


def and_or(game: Game[M], depth: int = MAX_PLY, tracer: Tracer = NULL_TRACER) -> TextbookResult[M]:
    """Win/loss reading (必勝読み, seed 001) as an AND/OR tree: does the side to move force a win.

    At the root side's nodes one winning move suffices (OR, stop at the first); at the
    opponent's nodes every move must lose for them (AND, stop at the first refutation).  Value
    1 means a forced win, 0 means no forced win (a draw or a loss) within ``depth`` plies; the PV
    is the winning line.  Positions at the depth limit count as not won.
    """
    walk: _Walk[M] = _Walk(game, tracer)
    prover: Player = game.to_move

    def node(depth: int, ply: int, via: M | None) -> tuple[bool, tuple[M, ...]]:
        walk.enter(ply, via, depth, 0, 1)
        outcome = game.outcome()
        if outcome is not None or depth <= 0:
            walk.leaves += 1
            won = outcome is not None and outcome.winner == prover
            walk.leave(ply, int(won), 0, 1)
            return won, ()
        moves = game.legal_moves()
        is_or = game.to_move == prover
        line: tuple[M, ...] = ()
        for i, move in enumerate(moves):
            game.play(move)
            try:
                won, sub = node(depth - 1, ply + 1, move)
            except BaseException as exc:
                raise walk.unwound(exc, move)  # noqa: B904 (sets the cause)
            game.undo()
            if is_or and won:  # OR: this move wins
                walk.cut(ply, "beta", moves, i + 1)
                walk.leave(ply, 1, 0, 1)
                return True, (move, *sub)
            if not is_or and not won:  # AND: this reply escapes
                walk.cut(ply, "alpha", moves, i + 1)
                walk.leave(ply, 0, 0, 1)
                return False, ()
            if not is_or and not line:
                line = (move, *sub)
        walk.leave(ply, int(not is_or), 0, 1)
        return not is_or, line

    won, pv = walk.root(node, depth, 0, None)
    return walk.result(int(won), pv)
