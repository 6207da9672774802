"""The production node search: negamax αβ, fail-soft, with PVS, TT, ordering and repetition.

Every driver (iterative deepening, aspiration, MTD(f), exact and win/loss solving, analyze)
calls ``Searcher.search`` with the window and depth it needs (DESIGN.md §1.1).

Fail-soft contract of ``search(depth, alpha, beta)`` with true value ``t`` (of the depth-limited
tree): ``v <= alpha`` ⇒ ``t <= v``; ``v >= beta`` ⇒ ``t >= v``; otherwise ``v == t``.

Whatever is raised below a move (a stop, a game method's exception) takes that move back on
its way up (``search.errors``), so the caller's game is always back at the root; a game
method's exception arrives as a ``GameMethodError`` naming the method and the line.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar, cast

from sakiyomi.game import (
    Checks,
    Game,
    MoveHints,
    NoisyMoves,
    NullMove,
    RepetitionRules,
    SearchShortcuts,
    SubtreeHooks,
    TacticalMoves,
    capable,
    is_acyclic,
)
from sakiyomi.ordering import MoveOrderer
from sakiyomi.repetition import PathHistory
from sakiyomi.score import (
    INF,
    MAX_PLY,
    SOLVED,
    from_tt,
    is_decisive,
    is_win,
    loss_in,
    to_tt,
    win_in,
)
from sakiyomi.search.errors import NULL_MOVE, at_root, unwind
from sakiyomi.search.leaf import terminal_scorer
from sakiyomi.search.limits import SearchAborted, StopSignal
from sakiyomi.search.result import SearchStats
from sakiyomi.search.tracing import NULL_TRACER, Tracer
from sakiyomi.search.validate import CheckedGame
from sakiyomi.tt import Bound, TranspositionTable

M = TypeVar("M", bound=Hashable)

_EMPTY: tuple[object, ...] = ()


@dataclass(frozen=True, slots=True)
class SearchConfig:
    """Switches for every enhancement, so each can be measured on its own (``compare``)."""

    tt: bool = True
    tt_capacity: int = 1 << 18
    pvs: bool = True
    ordering: bool = True  # master switch for TT move, hints, killers, history
    hints: bool = True
    killers: bool = True
    history: bool = True
    presort_depth: int = 0  # seed 003: shallow search of every move first, then sort (0 = off)
    quiescence: bool = True
    repetition: bool = True
    check_every: int = 64  # nodes between polls of the stop signal (a poll costs ~0.3 µs)
    validate: bool = False  # check every answer of the game's methods (search.validate)
    # exact_value's probe order: "zero" tries 0 first, then halves the interval; "pons" is
    # Pons's Connect Four rule (the midpoint moved out to half of the bound on its side).
    bisection: str = "zero"
    # Game hooks (SubtreeHooks, e.g. Othello's last-empties solver and stability cut-off),
    # used below the root when the game offers them, by both engines.
    leaf_solver: bool = True
    cutoff: bool = True
    # Selective search (chess-style); all off by default so other games' node counts stay put.
    # Each needs a game capability (game.py) and is ignored without it.
    check_extension: bool = False  # Checks: a move that gives check is searched one ply deeper
    null_move: bool = False  # NullMove: pass at non-PV nodes; if still >= beta, cut
    null_move_reduction: int = 2  # R (one more from depth 7 on)
    null_move_min_depth: int = 3
    lmr: bool = False  # TacticalMoves + Checks: reduce late quiet moves by a ply, re-search
    lmr_min_depth: int = 3
    lmr_min_moves: int = 3  # the first moves searched are never reduced
    futility: bool = False  # TacticalMoves + Checks: skip quiet moves that cannot reach alpha
    futility_margins: tuple[int, ...] = (0, 200, 450)  # by remaining depth; beyond: no pruning
    # Mate-distance pruning: below the root, the window is clipped to what a win or loss at
    # this ply can still score (lost here at worst, winning next ply at best).  Off by
    # default: it only moves node counts in games decided by win/loss distances.
    mate_distance: bool = False


class Searcher(Generic[M]):
    """Bounded negamax over one game object, which it mutates with play/undo and restores."""

    def __init__(
        self,
        game: Game[M],
        config: SearchConfig = SearchConfig(),
        *,
        tracer: Tracer = NULL_TRACER,
        tt: TranspositionTable[M] | None = None,
        stop: StopSignal | None = None,
        history: Iterable[int] = (),
    ) -> None:
        if config.validate:
            game = CheckedGame(game)
        self.game = game
        self.config = config
        self.tracer = tracer
        self.stop = stop if stop is not None else StopSignal()
        self.stats = SearchStats()
        if config.tt:
            self.tt: TranspositionTable[M] | None = (
                tt if tt is not None else TranspositionTable(config.tt_capacity)
            )
        else:
            self.tt = None
        # Capabilities are detected once here, never per node (DESIGN.md §1.7).
        self._score_terminal = terminal_scorer(cast(Game[object], game))
        hints = game.move_hints if config.hints and isinstance(game, MoveHints) else None
        self.orderer: MoveOrderer[M] = MoveOrderer(
            MAX_PLY, hints, killers=config.killers, history=config.history
        )
        self._ordering = config.ordering
        self._noisy = game if config.quiescence and isinstance(game, NoisyMoves) else None
        self._rules = game if isinstance(game, RepetitionRules) else None
        self._shortcuts = (
            cast(SearchShortcuts[M], game) if isinstance(game, SearchShortcuts) else None
        )
        self._checks = game if isinstance(game, Checks) else None
        self._nuller = game if config.null_move and isinstance(game, NullMove) else None
        tactical = game if isinstance(game, TacticalMoves) else None
        self._tactical = tactical if self._checks is not None else None
        self._extend = config.check_extension and self._checks is not None
        self._lmr = config.lmr and config.pvs and self._tactical is not None
        self._futility = config.futility and self._tactical is not None
        self._selective = self._extend or self._lmr or self._futility
        self._pruning = self._nuller is not None or self._futility
        self._needs_check = self._selective or self._nuller is not None
        self._root_depth = 0
        self._path_check = config.repetition and self._rules is None and not is_acyclic(game)
        self._cyclic = self._path_check or self._rules is not None
        hooked = (config.leaf_solver or config.cutoff) and capable(game, SubtreeHooks)
        self._hooks = cast(SubtreeHooks, game) if hooked else None
        self._history_keys = tuple(history)
        self._path = PathHistory(self._history_keys)
        self._pv: list[tuple[M, ...]] = [cast(tuple[M, ...], _EMPTY)] * (MAX_PLY + 2)
        self._next_poll = config.check_every
        self.root_best_move: M | None = None
        self.hit_horizon = False  # did the last search stop anywhere on its depth limit?

    # ---- public -------------------------------------------------------------------------

    @property
    def pv(self) -> tuple[M, ...]:
        """Principal variation of the last completed root search."""
        return self._pv[0]

    def new_search(self) -> None:
        """A new table generation (Engine protocol): older entries become preferred victims."""
        if self.tt is not None:
            self.tt.new_search()

    def hashfull(self) -> int:
        """Table fill in permille (Engine protocol)."""
        return self.tt.hashfull() if self.tt is not None else 0

    def search(self, depth: int, alpha: int = -INF, beta: int = INF) -> int:
        """Search the root to ``depth`` plies inside (alpha, beta); fail-soft (see module doc).

        Raises SearchAborted if the stop signal fires, GameMethodError if a game method fails
        (search.errors); either way the game is back at the root.
        """
        self.root_best_move = None
        self.hit_horizon = False
        self._root_depth = depth
        self._next_poll = self.stats.nodes  # poll at the first node (it sets the next poll)
        try:
            return self._search(min(depth, MAX_PLY - 1), alpha, beta, 0, None)
        except BaseException as exc:  # the moves below the root are already taken back
            self._path = PathHistory(self._history_keys)
            raise at_root(exc, self.game)  # noqa: B904 (at_root sets the cause)

    # ---- the node search ----------------------------------------------------------------

    def _poll(self) -> None:
        """Check the stop signal (every ``check_every`` nodes, and exactly at a node budget,
        so ``go nodes N`` never counts more than N).
        """
        nodes = self.stats.nodes
        limit = self.stop.node_limit
        self._next_poll = nodes + self.config.check_every
        if limit is not None and nodes < limit < self._next_poll:
            self._next_poll = limit
        if self.stop.should_stop(nodes):
            raise SearchAborted

    def _hooked(self, hooks: SubtreeHooks, depth: int, alpha: int, beta: int) -> int | None:
        """Step 1a: the game's subtree solver, then its proven bound (the template's
        ``k_leaf_solve`` and ``k_cutoff`` order and node accounting); None if neither applies.
        """
        if self.config.leaf_solver:
            solved, value, nodes, leaves = hooks.solve_subtree(depth, alpha, beta)
            if solved:
                self.stats.nodes += nodes
                self.stats.leaves += leaves
                return value
        if self.config.cutoff:
            cut, value = hooks.proven_bound(alpha, beta)
            if cut:
                self.stats.leaves += 1
                return value
        return None

    def _search(self, depth: int, alpha: int, beta: int, ply: int, via: M | None) -> int:
        """One node, fail-soft: 1 finished game or repetition, 1b game shortcuts, 2 table,
        3 horizon, 3b selective pruning, 4 move ordering, 5 children (PVS), 6 store.
        """
        game = self.game
        stats = self.stats
        tracer = self.tracer
        tracing = tracer.enabled
        stats.nodes += 1
        if stats.nodes >= self._next_poll:
            self._poll()
        if ply > stats.seldepth:
            stats.seldepth = ply
        self._pv[ply] = cast(tuple[M, ...], _EMPTY)
        if tracing:
            tracer.enter(ply, via, depth, alpha, beta)

        # 1. Finished game, or a repetition of a position on the path.
        outcome = game.outcome()
        if outcome is not None:
            stats.leaves += 1
            value = self._score_terminal(outcome, ply)
            if tracing:
                tracer.leave(ply, value, Bound.EXACT)
            return value
        # 1a. Game hooks below the root (SubtreeHooks): an exact value for a small subtree,
        # or a bound proved without search.
        if self._hooks is not None and ply > 0:
            hooked = self._hooked(self._hooks, depth, alpha, beta)
            if hooked is not None:
                if tracing:
                    tracer.leave(ply, hooked, Bound.EXACT)
                return hooked
        key = game.key()
        if ply > 0 and self._cyclic:
            rep = self._repetition(ply, key)
            if rep is not None:
                stats.leaves += 1
                self.hit_horizon = True  # path-dependent: never stored as solved
                if tracing:
                    tracer.leave(ply, rep, Bound.EXACT)
                return rep

        # 1b. Game knowledge (SearchShortcuts) below the root: a value without search, or a
        # narrower window.  The PV-node test keeps the caller's window.
        pv_node = beta - alpha > 1
        if self.config.mate_distance and ply > 0:
            lo, hi = loss_in(ply), win_in(ply + 1)
            if lo >= beta or hi <= alpha:
                stats.leaves += 1
                value = lo if lo >= beta else hi
                if tracing:
                    tracer.leave(ply, value, Bound.EXACT)
                return value
            alpha = max(alpha, lo)
            beta = min(beta, hi)
        shortcuts = self._shortcuts
        if shortcuts is not None and ply > 0:
            lo, hi = shortcuts.value_bounds(ply)
            if lo == hi or lo >= beta or hi <= alpha:
                stats.leaves += 1
                value = hi if hi <= alpha else lo
                if tracing:
                    tracer.leave(ply, value, Bound.EXACT)
                return value
            alpha = max(alpha, lo)
            beta = min(beta, hi)

        # 2. Transposition table: a cut-off, or at least a move to try first.
        tt = self.tt
        tt_move: M | None = None
        if tt is not None:
            stats.tt_probes += 1
            entry = tt.probe(key)
            if entry is not None:
                stats.tt_hits += 1
                tt_move = entry.move
                # No cut-offs at PV nodes (open window), so principal variations stay whole.
                if ply > 0 and entry.depth >= depth and not pv_node:
                    value = from_tt(entry.value, ply)
                    bound = entry.bound
                    if bound == Bound.EXACT or (
                            value >= beta if bound == Bound.LOWER else value <= alpha):
                        stats.tt_cutoffs += 1
                        if entry.depth < SOLVED:
                            self.hit_horizon = True  # the stored value rests on a horizon
                        if tracing:
                            tracer.tt_hit(ply, value, bound)
                            tracer.leave(ply, value, bound)
                        return value

        # 3. Depth exhausted: static evaluation, or quiescence over noisy moves.
        if depth <= 0 or ply >= MAX_PLY - 1:
            stats.leaves += 1
            self.hit_horizon = True
            value = self._quiesce(alpha, beta, ply) if self._noisy is not None else game.evaluate()
            if tracing:
                tracer.leave(ply, value, Bound.EXACT)
            return value

        # 3b. Selective search at non-PV nodes, off unless switched on: null move, futility.
        in_check = self._checks.in_check() if self._needs_check and self._checks else False
        futile: int | None = None
        if self._pruning and not pv_node and not in_check and ply > 0:
            cut = self._null_move_cut(depth, beta, ply, key, via)
            if cut is not None:
                if tracing:
                    tracer.leave(ply, cut, Bound.LOWER)
                return cut
            futile = self._futile_value(depth, alpha)

        # 4. Move ordering.
        moves = game.legal_moves() if shortcuts is None else shortcuts.search_moves()
        if self._ordering:
            moves = self.orderer.order(moves, tt_move, ply)
            if self.config.presort_depth and depth > self.config.presort_depth + 1:
                moves = self._presort(moves, tt_move, ply, key)

        # 5. Children: the first with the full window, the rest with a null window (PVS).
        pvs = self.config.pvs
        path_check = self._path_check
        if path_check:
            self._path.push(key)
        best = -INF
        best_move: M | None = None
        a = alpha
        outer_horizon = self.hit_horizon
        self.hit_horizon = False
        for i, move in enumerate(moves):
            new_depth = depth - 1
            reduction = 0
            if self._selective:  # extensions and reductions; plays the move unless futile
                plan = self._play_selective(move, i, depth, ply, in_check, futile)
                if plan is None:
                    if futile is not None and futile > best:  # cannot reach alpha: a bound
                        best = futile
                    continue
                new_depth, reduction = plan
            else:
                game.play(move)
            try:
                if i == 0 or not pvs:
                    value = -self._search(new_depth, -beta, -a, ply + 1, move)
                else:  # a null-window scout; one that fails high may need verifying
                    value = -self._search(new_depth - reduction, -a - 1, -a, ply + 1, move)
                    if value > a and (reduction or value < beta):
                        value = self._research(move, new_depth, reduction, value, a, beta, ply)
            except BaseException as exc:  # take the move back, name it in the error
                raise unwind(exc, move, game, game.undo)  # noqa: B904 (unwind sets the cause)
            game.undo()
            if value > best:
                best = value
                best_move = move
                if ply == 0:
                    self.root_best_move = move
                if value > a:
                    a = value
                    self._pv[ply] = (move, *self._pv[ply + 1])
                    if value >= beta:  # cut: counters, killers, history, pruned moves
                        stats.cutoffs += 1
                        if i == 0:
                            stats.first_move_cutoffs += 1
                        if self._ordering:
                            self.orderer.record_cutoff(move, ply, depth)
                        if tracing:
                            tracer.cutoff(ply, "beta" if ply % 2 == 0 else "alpha",
                                          moves[i + 1:])
                        break
        if path_check:
            self._path.pop(key)
        # A subtree that never met the depth limit is solved: valid at any depth.
        stored_depth = depth if self.hit_horizon else SOLVED
        self.hit_horizon = self.hit_horizon or outer_horizon

        # 6. Store and return.
        bound = Bound.LOWER if best >= beta else Bound.UPPER if best <= alpha else Bound.EXACT
        if tt is not None:
            tt.store(key, stored_depth, to_tt(best, ply), bound, best_move)
        if tracing:
            tracer.leave(ply, best, bound)
        return best

    # ---- helpers of the node search, called only where their case arises ------------------

    def _research(self, move: M, depth: int, reduction: int, value: int, a: int, beta: int,
                  ply: int) -> int:
        """A scout of ``move`` failed high (``value > a``): a reduced scout is repeated at full
        depth, and a value inside the window is searched again with the window (PVS), so that
        it is exact and its PV complete.
        """
        if reduction:
            value = -self._search(depth, -a - 1, -a, ply + 1, move)
        if a < value < beta:
            self.stats.researches += 1
            if self.tracer.enabled:
                self.tracer.research(ply + 1, move)
            value = -self._search(depth, -beta, -a, ply + 1, move)
        return value

    def _repetition(self, ply: int, key: int) -> int | None:
        """The value of a position decided by repetition (the game's own rules, or a repeat
        of a position on the current path: a draw), else None.  Only for cyclic games.
        """
        if self._rules is not None:
            return self._rules.repetition_value(ply)
        return 0 if key in self._path else None

    # ---- selective search (chess-style; each behind a SearchConfig switch) -----------------

    def _null_move_cut(self, depth: int, beta: int, ply: int, key: int, via: M | None
                       ) -> int | None:
        """Null move: let the opponent move twice, searched R plies shallower with a null
        window at beta; a fail high is returned (None: no cut).  Tried only after a real move,
        deep enough, against a finite non-mate beta, when the static value already reaches it.
        A fail high is a lower bound (mate scores are not trusted through a pass), stored.
        """
        nuller = self._nuller
        game = self.game
        if (nuller is None or via is None or depth < self.config.null_move_min_depth
                or beta >= INF or is_decisive(beta) or game.evaluate() < beta
                or not nuller.null_move_ok()):
            return None
        reduction = self.config.null_move_reduction + (1 if depth >= 7 else 0)
        if self._path_check:
            self._path.push(key)
        nuller.play_null()
        outer_horizon = self.hit_horizon
        try:
            value = -self._search(depth - 1 - reduction, -beta, -beta + 1, ply + 1, None)
        except BaseException as exc:
            raise unwind(exc, NULL_MOVE, game, nuller.undo_null)  # noqa: B904 (unwind sets the cause)
        nuller.undo_null()
        if self._path_check:
            self._path.pop(key)
        self.hit_horizon = outer_horizon
        if value < beta:
            return None
        self.hit_horizon = True  # a pass is not a move: never store this as solved
        if is_win(value):
            value = beta
        if self.tt is not None:
            self.tt.store(key, depth, to_tt(value, ply), Bound.LOWER, None)
        return value

    def _futile_value(self, depth: int, alpha: int) -> int | None:
        """Futility: the static value plus the margin for ``depth`` when even that cannot
        reach alpha (quiet moves are then skipped with it as their bound), else None.
        """
        margins = self.config.futility_margins
        if not self._futility or depth >= len(margins) or is_decisive(alpha):
            return None
        static = self.game.evaluate() + margins[depth]
        return static if static <= alpha else None

    def _play_selective(self, move: M, i: int, depth: int, ply: int, in_check: bool,
                        futile: int | None) -> tuple[int, int] | None:
        """Play ``move`` and return (child depth, reduction): a move that gives check is
        extended a ply (up to twice the root depth); a late quiet move is reduced (LMR) or,
        at a futile node, skipped: then it is taken back and None returned.
        """
        checks = self._checks
        assert checks is not None
        quiet = self._tactical is not None and not self._tactical.is_tactical(move)
        self.game.play(move)
        try:
            gives_check = checks.in_check()
        except BaseException as exc:
            raise unwind(exc, move, self.game, self.game.undo)  # noqa: B904 (unwind sets the cause)
        if gives_check and self._extend and ply < 2 * self._root_depth:
            return depth, 0
        if not quiet or gives_check or i == 0:
            return depth - 1, 0
        if futile is not None:
            self.game.undo()
            self.hit_horizon = True
            return None
        if (self._lmr and not in_check and i >= self.config.lmr_min_moves
                and depth >= self.config.lmr_min_depth
                and move not in self.orderer.killers[ply]):
            return depth - 1, 1 if i < 8 or depth < 6 else 2
        return depth - 1, 0

    def _presort(self, moves: list[M], tt_move: M | None, ply: int, key: int) -> list[M]:
        """Seed 003: a shallow full-window search of every move, then sort by its values."""
        game = self.game
        shallow = self.config.presort_depth - 1
        if self._path_check:
            self._path.push(key)
        values: dict[int, int] = {}
        for i, move in enumerate(moves):
            game.play(move)
            try:
                values[i] = -self._search(shallow, -INF, INF, ply + 1, move)
            except BaseException as exc:
                raise unwind(exc, move, game, game.undo)  # noqa: B904 (unwind sets the cause)
            game.undo()
        if self._path_check:
            self._path.pop(key)
        order = sorted(range(len(moves)), key=lambda i: (moves[i] != tt_move, -values[i]))
        return [moves[i] for i in order]

    def _quiesce(self, alpha: int, beta: int, ply: int) -> int:
        """Stand pat or try the noisy moves, fail-soft; in check every move is searched."""
        game = self.game
        noisy = self._noisy
        assert noisy is not None
        stats = self.stats
        in_check = noisy.in_check()
        best = -INF if in_check else game.evaluate()
        if best >= beta or ply >= MAX_PLY - 1:
            return best
        if best > alpha:
            alpha = best
        moves = game.legal_moves() if in_check else noisy.noisy_moves()
        if self._ordering:
            moves = self.orderer.order(moves, None, ply)
        for move in moves:
            game.play(move)
            try:
                stats.nodes += 1
                stats.qnodes += 1
                if stats.nodes >= self._next_poll:
                    self._poll()
                if ply + 1 > stats.seldepth:
                    stats.seldepth = ply + 1
                outcome = game.outcome()
                if outcome is not None:
                    value = -self._score_terminal(outcome, ply + 1)
                else:
                    value = -self._quiesce(-beta, -alpha, ply + 1)
            except BaseException as exc:
                raise unwind(exc, move, game, game.undo)  # noqa: B904 (unwind sets the cause)
            game.undo()
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if value >= beta:
                        break
        return best
