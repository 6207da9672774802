"""The production node search: negamax αβ, fail-soft, with PVS, TT, ordering and repetition.

Every driver (iterative deepening, aspiration, MTD(f), exact and win/loss solving, analyze)
calls ``Searcher.search`` with the window and depth it needs (DESIGN.md §1.1).

Fail-soft contract of ``search(depth, alpha, beta)`` with true value ``t`` (of the depth-limited
tree): ``v <= alpha`` ⇒ ``t <= v``; ``v >= beta`` ⇒ ``t >= v``; otherwise ``v == t``.

Whatever is raised below a move (a stop, a game method's exception) takes that move back on
its way up (``search.errors``), so the caller's game is always back at the root; a game
method's exception arrives as a ``GameMethodError`` naming the method and the line.

Speed (issue 12): the node search is one definition, ``Searcher._build``, which every
``search`` call turns into a closure over that search's settings: the game's bound methods,
the capabilities and switches decided once, the table's flat storage and the counters are
closure variables, so a node does no attribute look-ups, no capability tests and no
``isinstance``.  The counters live in the closure and are written to ``stats`` every
``check_every`` nodes (when the stop signal is polled, so live readers lag by at most that)
and when the search returns.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar, cast

from sakiyomi.game import (
    Checks,
    Game,
    HangingBeforePlay,
    HangingMoves,
    KingDanger,
    MoveHints,
    MoveIds,
    NoisyGains,
    NoisyMoves,
    NullMove,
    QuietChecks,
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
    WIN_BOUND,
    is_decisive,
    is_win,
    loss_in,
    to_tt,
    win_in,
)
from sakiyomi.search.errors import NULL_MOVE, at_root, unwind
from sakiyomi.search.leaf import own_terminal_value, terminal_scorer
from sakiyomi.search.limits import SearchAborted, StopSignal
from sakiyomi.search.result import SearchStats
from sakiyomi.search.tracing import NULL_TRACER, Tracer
from sakiyomi.search.validate import CheckedGame
from sakiyomi.tt import Bound, TranspositionTable

M = TypeVar("M", bound=Hashable)

_EMPTY: tuple[object, ...] = ()

NodeSearch = Callable[[int, int, int, int, M | None], int]


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
    # History malus (off by default): at a cut-off by a quiet move the quiet moves searched
    # before it lose the credit it gains, in a saturating table (ordering.MoveOrderer); for
    # wide games whose quiet moves are ordered by history alone (shogi's drops).
    history_malus: bool = False
    # Counter moves (off by default): the move that refuted the previous move is tried after
    # the killers when that move recurs.
    counter_moves: bool = False
    # Seed 003: a shallow search of every move first, then sort (0 = off), at nodes more than
    # presort_depth + 1 plies from the horizon: a depth-limited search's idea (an exact solve
    # has no horizon, so every node of it would presort).  Both engines carry it out.
    presort_depth: int = 0
    quiescence: bool = True
    # Delta pruning in quiescence (NoisyGains; 0 = off, so other games' counts stay put): out
    # of check, a noisy move whose gain plus this margin cannot lift the stand-pat value to
    # alpha is skipped, that sum counting as its (upper-bound) value.
    delta_margin: int = 0
    repetition: bool = True
    # The game's SearchShortcuts (Connect Four: Pons's bounds and move filter), when offered.
    shortcuts: bool = True
    check_every: int = 64  # nodes between polls of the stop signal (a poll costs ~0.3 µs)
    validate: bool = False  # check every answer of the game's methods (search.validate)
    # exact_value's probe order: "zero" tries 0 first, then halves the interval; "pons" is
    # Pons's Connect Four rule (the midpoint moved out to half of the bound on its side).
    bisection: str = "zero"
    # Exact solving with a first guess (0 = off): a search this many plies deep gives the first
    # probe, and the next probes gallop away from it (steps 0, 2, 6, 14, ...) until one fails
    # the other way; bisection then finishes.  Probes close to the value cost the most, so a
    # near guess saves whole probes (Othello: bench/othello.py).
    guess_depth: int = 0
    # Game hooks (SubtreeHooks, e.g. Othello's last-empties solver and stability cut-off),
    # used below the root when the game offers them, by both engines.
    leaf_solver: bool = True
    cutoff: bool = True
    # Selective search (chess-style); all off by default so other games' node counts stay put.
    # Each needs a game capability (game.py) and is ignored without it.
    check_extension: bool = False  # Checks: a move that gives check is searched one ply deeper
    # At most this many check extensions on one line from the root (0: no cap but the usual
    # one, up to twice the root depth).  Shogi's checks are cheap (drops next to the king),
    # and uncapped extensions ran its lines 10-15 plies past the nominal depth (session 21).
    check_extension_limit: int = 0
    null_move: bool = False  # NullMove: pass at non-PV nodes; if still >= beta, cut
    null_move_reduction: int = 2  # R (one more from depth 7 on)
    null_move_min_depth: int = 3
    lmr: bool = False  # TacticalMoves + Checks: reduce late quiet moves by a ply, re-search
    lmr_min_depth: int = 3
    lmr_min_moves: int = 3  # the first moves searched are never reduced
    # 0: reduce by 1 (2 from the 8th move at depth >= 6); > 0: by
    # ⌊ln(depth)·ln(move number)/lmr_divisor + 0.5⌋ (at least 1), capped at depth - 2 —
    # the logarithmic rule for wide games (shogi: ~80 moves a node).
    lmr_divisor: float = 0.0
    # At PV nodes (open window) late moves are reduced this many plies less (0: as elsewhere):
    # the principal variation is where a reduced refutation costs a wrong move at the root.
    lmr_pv_less: int = 0
    # Late-move pruning (TacticalMoves + Checks): at non-PV nodes not in check with remaining
    # depth d < len(late_move_counts), quiet moves that give no check are skipped once
    # late_move_counts[d] moves have been tried (0 or an empty tuple: off).
    late_move_counts: tuple[int, ...] = ()
    futility: bool = False  # TacticalMoves + Checks: skip quiet moves that cannot reach alpha
    futility_margins: tuple[int, ...] = (0, 200, 450)  # by remaining depth; beyond: no pruning
    # Reverse futility ("static null move", Checks): at non-PV nodes not in check with remaining
    # depth d < len(reverse_futility_margins), a static value that beats beta by the margin
    # for d is returned as the node's lower bound (empty tuple: off).
    reverse_futility_margins: tuple[int, ...] = ()
    # Razoring (Checks + NoisyMoves; empty tuple or a 0 margin: off): at non-PV nodes not in
    # check with remaining depth d < len(razor_margins), a static value that falls short of
    # alpha by the margin for d sends the node to quiescence with a null window at alpha; a
    # value still at or below alpha is the node's upper bound (the quiet moves of a
    # shallow search would rarely win back that much), else the node is searched as usual.
    razor_margins: tuple[int, ...] = ()
    # Hanging-move pruning (HangingMoves + Checks; 0: off): at non-PV nodes not in check with
    # remaining depth <= this, a move other than the first that captures nothing and leaves
    # the moved piece to be won (the game's static exchange estimate) is skipped, checks too.
    hanging_depth: int = 0
    # With HangingMoves, False: a check that gives its piece away is not extended.
    extend_hanging_checks: bool = True
    # History pruning (TacticalMoves + Checks; 0: off): at non-PV nodes not in check, a quiet
    # move that gives no check, is not a killer and comes after the first ``lmr_min_moves``,
    # is skipped when its child depth after the LMR reduction would be at most this and its
    # history credit is below ``history_pruning_credit`` (it has caused too few cut-offs in
    # this search).  For wide games where most late quiet moves are reduced to a ply or two
    # (shogi: ~80 moves a node, most of them drops).
    history_pruning_depth: int = 0
    history_pruning_credit: int = 1
    # Evasion pruning in quiescence (TacticalMoves + Checks; off by default): in check, once
    # the best value found is no loss, an evasion that captures nothing (a king move or an
    # interposition: shogi's drops) is skipped when ``qs_evasion_limit`` evasions (0: no
    # limit) have been searched, or, with ``qs_hanging_evasions`` and HangingMoves, when it
    # leaves its piece to be won (an interposed piece the checker simply takes).  Only with a
    # non-losing value in hand: a skipped evasion could only raise the value of the side in
    # check, so no mate score is ever claimed on the strength of unsearched moves.
    qs_evasion_limit: int = 0
    qs_hanging_evasions: bool = False
    # Hanging evasions in the main search (HangingMoves + Checks; 0: off): at non-PV nodes in
    # check with remaining depth <= this, once the best value found is no loss, an evasion
    # that captures nothing and leaves its piece to be won is skipped (as hanging-move pruning
    # does out of check; the same soundness rule as in quiescence).
    hanging_evasion_depth: int = 0
    # Internal iterative reduction (0: off): below the root, a node at remaining depth >=
    # this with no move from the table is searched a ply shallower.  Without a move to try
    # first its ordering is mostly guesswork and its search mostly wasted; the next
    # iteration of iterative deepening finds it with a table move (Stockfish's and most
    # engines' successor to internal iterative deepening, at no extra search).
    iir_depth: int = 0
    # Null-move reductions that grow (0: off; the fixed R, one more from depth 7, instead):
    # R = null_move_reduction + depth // null_move_depth_divisor, plus, with
    # null_move_eval_divisor, min(3, (static - beta) // null_move_eval_divisor): the
    # further the static value is above beta, the less a pass needs verifying.  The eval
    # term is part of the growing rule: without a depth divisor it is not used.
    null_move_depth_divisor: int = 0
    null_move_eval_divisor: int = 0
    # Improving (off by default): the static value compared with the same side's two plies
    # up.  Not improving, late-move pruning keeps half its count of quiet moves; improving,
    # reverse futility uses the margin of a ply less (depth >= 2).  Unknown (a PV node or
    # a node in check two plies up): as many moves as without the switch, the full margin.
    improving: bool = False
    # Mate-distance pruning: below the root, the window is clipped to what a win or loss at
    # this ply can still score (lost here at worst, winning next ply at best).  Off by
    # default: it only moves node counts in games decided by win/loss distances.
    mate_distance: bool = False
    # King-danger guard (KingDanger; off by default, so every game's trees stay as they are):
    # at a node where the game says a king is under attack, no null move and no late-move
    # pruning.
    guard_king_danger: bool = False


@functools.cache
def _reduction_table(divisor: float) -> tuple[tuple[int, ...], ...]:
    """LMR reductions by [depth][move index] for ``SearchConfig.lmr_divisor``: at least one
    ply, and never below a child depth of 1.

    Cached per divisor (the table is immutable): every ``search`` call builds its node search
    afresh, and the 4,096 logarithms cost about 1.7 ms: a chess move at UCI movetime 200
    (165 ms of search) made 5-11 calls (iterations and aspiration re-searches; 6.4 on average
    over five middlegames of ours), about 7 % of its time.
    """
    table = []
    for depth in range(64):
        row = []
        for index in range(64):
            raw = math.log(max(depth, 1)) * math.log(max(index, 1)) / divisor + 0.5
            row.append(max(1, min(int(raw), depth - 2)) if depth >= 2 else 1)
        table.append(tuple(row))
    return tuple(table)


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
        self._terminal_value = own_terminal_value(cast(Game[object], game))
        hints = (cast(MoveHints[M], game).move_hints
                 if config.hints and capable(game, MoveHints) else None)
        ids = cast(MoveIds[M], game) if capable(game, MoveIds) else None
        self.orderer: MoveOrderer[M] = MoveOrderer(
            hints, killers=config.killers, history=config.history,
            malus=config.history_malus, counters=config.counter_moves,
            ids=(ids.move_id, ids.move_ids) if ids is not None else None,
        )
        self._noisy = (cast(NoisyMoves[M], game)
                       if config.quiescence and capable(game, NoisyMoves) else None)
        self._gain_of = (cast(NoisyGains[M], game).noisy_gain
                         if self._noisy is not None and config.delta_margin > 0
                         and capable(game, NoisyGains) else None)
        self._rules = cast(RepetitionRules, game) if capable(game, RepetitionRules) else None
        self._shortcuts = (
            cast(SearchShortcuts[M], game)
            if config.shortcuts and capable(game, SearchShortcuts) else None
        )
        self._checks = cast(Checks, game) if capable(game, Checks) else None
        self._nuller = (cast(NullMove, game)
                        if config.null_move and capable(game, NullMove) else None)
        tactical = cast(TacticalMoves[M], game) if capable(game, TacticalMoves) else None
        self._hanging = (cast(HangingMoves, game).hangs_piece
                         if capable(game, HangingMoves) and self._checks is not None
                         and (config.hanging_depth > 0 or not config.extend_hanging_checks
                              or config.qs_hanging_evasions
                              or config.hanging_evasion_depth > 0)
                         else None)
        self._tactical = tactical if self._checks is not None else None
        # Skipping a move before playing it: a late or futile quiet move that cannot give
        # check (QuietChecks; played, it would be pruned by the hanging test or as late), a
        # hanging move where hanging-move pruning is on (HangingBeforePlay).
        self._may_check = (cast(QuietChecks[M], game).may_give_check
                           if capable(game, QuietChecks) and self._tactical is not None
                           else None)
        self._hangs_before = (cast(HangingBeforePlay[M], game).move_hangs_piece
                              if self._hanging is not None and capable(game, HangingBeforePlay)
                              else None)
        self._path_check = config.repetition and self._rules is None and not is_acyclic(game)
        hooked = (config.leaf_solver or config.cutoff) and capable(game, SubtreeHooks)
        self._hooks = cast(SubtreeHooks, game) if hooked else None
        self._history_keys = tuple(history)
        self._path = PathHistory(self._history_keys)
        self._pv: list[tuple[M, ...]] = [cast(tuple[M, ...], _EMPTY)] * (MAX_PLY + 2)
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

    def search(self, depth: int, alpha: int = -INF, beta: int = INF, ply: int = 0) -> int:
        """Search the root to ``depth`` plies inside (alpha, beta); fail-soft (see module doc).

        ``ply`` > 0: the game's position is searched as a node that many plies below the root
        (a solve's walk of its principal variation, ``sakiyomi.probes.l_walk``, played the
        moves): values stay in the root's frame, the root's PV and best move are left alone.
        The moves of that line are not on the repetition path of games that need one.

        Raises SearchAborted if the stop signal fires, GameMethodError if a game method fails
        (search.errors); either way the game is back at the root.
        """
        if ply == 0:
            self.root_best_move = None
        self.hit_horizon = False
        node, flush = self._build(depth)
        try:
            return node(min(depth, MAX_PLY - 1 - ply), alpha, beta, ply, None)
        except BaseException as exc:  # the moves below the root are already taken back
            self._path = PathHistory(self._history_keys)
            raise at_root(exc, self.game)  # noqa: B904 (at_root sets the cause)
        finally:
            flush()

    def node_moves(self) -> list[M]:
        """The moves a node of this search tries at the game's position (before ordering):
        the game's search moves with its shortcuts on, else its legal moves.
        """
        if self._shortcuts is not None:
            return list(self._shortcuts.search_moves())
        return list(self.game.legal_moves())

    def keep_line(self, line: tuple[M, ...]) -> None:
        """Make ``line`` the principal variation and its first move the root's best move (a
        solve's walk found it: ``sakiyomi.probes.l_walk``).
        """
        self._pv[0] = line
        self.root_best_move = line[0] if line else None

    # ---- the node search ----------------------------------------------------------------

    def _build(self, root_depth: int) -> tuple[NodeSearch[M], Callable[[], None]]:
        """The node search of one ``search`` call and the function that writes its counters
        to ``stats``: one definition, specialised by the closure variables it reads (the
        settings and capabilities decided in ``__init__``, the game's bound methods, the
        table's storage), so that no node looks anything up.
        """
        game = self.game
        config = self.config
        stats = self.stats
        tracer = self.tracer
        tracing = tracer.enabled
        pv = self._pv
        path = self._path
        orderer = self.orderer
        order = orderer.order
        record_cutoff = orderer.record_cutoff
        score_terminal = self._score_terminal
        terminal_value = self._terminal_value  # score_terminal's own call, when it has one
        outcome_of = game.outcome
        play = game.play
        undo = game.undo
        evaluate = game.evaluate
        key_of = game.key
        shortcuts = self._shortcuts
        bounds_of = shortcuts.value_bounds if shortcuts is not None else None
        moves_of = shortcuts.search_moves if shortcuts is not None else game.legal_moves
        noisy = self._noisy
        gain_of = self._gain_of
        delta_margin = config.delta_margin
        rules = self._rules
        checks = self._checks
        tactical = self._tactical
        nuller = self._nuller
        hooks = self._hooks
        leaf_solver = config.leaf_solver
        cutoff_hook = config.cutoff
        tt = self.tt
        if tt is not None:
            tt.settle()  # a table cleared for later is emptied before its slots are read
        slots = tt.slots if tt is not None else {}
        mask = tt.mask if tt is not None else 0
        tt_store = tt.store if tt is not None else None
        exact, lower, upper = Bound.EXACT, Bound.LOWER, Bound.UPPER
        check_every = config.check_every
        pvs = config.pvs
        mate_distance = config.mate_distance
        ordering = config.ordering
        presort_depth = config.presort_depth
        path_check = self._path_check
        cyclic = path_check or rules is not None
        need_key = tt is not None or cyclic
        extend = config.check_extension and checks is not None
        extension_cap = config.check_extension_limit if extend else 0
        extended = [0] * (MAX_PLY + 2)  # with a cap: check extensions on the line to each ply
        lmr = config.lmr and pvs and tactical is not None
        lmr_min_moves = config.lmr_min_moves
        lmr_min_depth = config.lmr_min_depth
        lmr_pv_less = config.lmr_pv_less
        futility = config.futility and tactical is not None
        margins = config.futility_margins
        late_counts = config.late_move_counts if tactical is not None else ()
        danger = (cast(KingDanger, game).king_in_danger
                  if config.guard_king_danger and capable(game, KingDanger) else None)
        reductions = _reduction_table(config.lmr_divisor) if config.lmr_divisor > 0 else None
        hangs = self._hanging
        hangs_before = self._hangs_before
        may_check = self._may_check
        hanging_depth = config.hanging_depth if hangs is not None else 0
        evasion_depth = config.hanging_evasion_depth if hangs is not None else 0
        hanging_checks = extend and hangs is not None and not config.extend_hanging_checks
        history_depth = (config.history_pruning_depth
                         if tactical is not None and config.history and ordering else 0)
        history_credit = config.history_pruning_credit
        iir_depth = config.iir_depth if tt is not None else 0
        depth_divisor = config.null_move_depth_divisor
        eval_divisor = config.null_move_eval_divisor
        improving_on = config.improving
        # The static value at each ply where step 3b computed it (None elsewhere), for the
        # improving test two plies down.
        statics: list[int | None] = [None] * (MAX_PLY + 2)
        credit_of = orderer.credit  # by the game's move ids (MoveIds) when it has them
        selective = (extend or lmr or futility or bool(late_counts) or hanging_depth > 0
                     or history_depth > 0 or evasion_depth > 0)
        rf_margins = config.reverse_futility_margins if checks is not None else ()
        razor = config.razor_margins if checks is not None and noisy is not None else ()
        pruning = (nuller is not None or futility or bool(late_counts) or bool(rf_margins)
                   or bool(razor) or hanging_depth > 0 or history_depth > 0)
        needs_check = (selective or nuller is not None or bool(rf_margins) or bool(razor)
                       ) and checks is not None
        # The TT move is tried before the others are ordered (their hints computed) when the
        # order of the others cannot change meanwhile: no history (credited below), no
        # presort, no tracer (which is shown the moves a cut-off skips).
        defer = ordering and not config.history and not presort_depth and not tracing
        # With the game's hints alone to order by (no killers either), the order is
        # ``by_hints``'s: the same list, without ``order``'s bonuses and look-ups.
        hinted = orderer.by_hints if defer and orderer.hints_only else None
        counter_moves = config.counter_moves
        malus = config.history_malus and config.history
        is_tactical = tactical.is_tactical if tactical is not None else None
        evasion_limit = config.qs_evasion_limit if is_tactical is not None else 0
        hanging_evasions = config.qs_hanging_evasions and is_tactical is not None and (
            hangs is not None)
        prune_evasions = evasion_limit > 0 or hanging_evasions
        # Read only when prune_evasions, which needs the test.
        evasion_tactical = cast(Callable[[M], bool], is_tactical)
        # Quiet moves that cannot give check are skipped unplayed at futile and late nodes
        # (step 5) when the game says which moves check (``QuietChecks``); the two tests are
        # read only then.
        unplayed_skips = may_check is not None and is_tactical is not None
        skip_tactical = cast(Callable[[M], bool], is_tactical)
        skip_check = cast(Callable[[M], bool], may_check)
        empty = cast(tuple[M, ...], _EMPTY)
        top = MAX_PLY - 1
        path_push = path.push
        path_pop = path.pop
        # Nothing between a finished-game test and the depth limit can answer for a node
        # (no hooks, table, shortcuts, window clipping, quiescence or tracer): a node at the
        # limit is scored at once (plain αβ, ``bench/peers.py``'s same-tree runs).
        bare_leaves = (hooks is None and not need_key and not mate_distance and bounds_of is None
                       and tt_store is None and noisy is None and not tracing)
        # In plain αβ (no PVS re-searches, no selective search) such a leaf is scored in its
        # parent's loop, as ``node`` would score it, without the call (most nodes are leaves).
        inline_leaves = bare_leaves and not pvs and not selective
        # Anything to do below the root before the table (steps 1a-1b)?  One test for the
        # four switches in a plain search.
        guarded = hooks is not None or cyclic or mate_distance or bounds_of is not None

        nodes = stats.nodes
        leaves = stats.leaves
        tt_probes = stats.tt_probes
        tt_hits = stats.tt_hits
        tt_cutoffs = stats.tt_cutoffs
        cutoffs = stats.cutoffs
        first_move_cutoffs = stats.first_move_cutoffs
        researches = stats.researches
        qnodes = stats.qnodes
        seldepth = stats.seldepth
        horizon = False  # did the subtree being searched meet its depth limit anywhere?
        next_poll = nodes  # poll at the first node (it sets the next poll)

        def flush() -> None:
            """Write the counters to ``stats`` (and the horizon flag to the searcher)."""
            stats.nodes = nodes
            stats.leaves = leaves
            stats.tt_probes = tt_probes
            stats.tt_hits = tt_hits
            stats.tt_cutoffs = tt_cutoffs
            stats.cutoffs = cutoffs
            stats.first_move_cutoffs = first_move_cutoffs
            stats.researches = researches
            stats.qnodes = qnodes
            stats.seldepth = seldepth
            self.hit_horizon = horizon

        def poll() -> None:
            """Publish the counters and check the stop signal (every ``check_every`` nodes,
            and exactly at a node budget, so ``go nodes N`` never counts more than N).
            """
            nonlocal next_poll
            flush()
            stop = self.stop
            next_poll = stop.next_poll(nodes, check_every)
            if stop.should_stop(nodes):
                raise SearchAborted

        def node(depth: int, alpha: int, beta: int, ply: int, via: M | None) -> int:
            """One node, fail-soft: 1 finished game or repetition, 1a game hooks, 1b game
            shortcuts, 2 table, 3 horizon, 3b selective pruning, 4 move ordering,
            5 children (PVS), 6 store.
            """
            nonlocal nodes, leaves, seldepth, tt_probes, tt_hits, tt_cutoffs, cutoffs
            nonlocal first_move_cutoffs, horizon
            nodes += 1
            if nodes >= next_poll:
                poll()
            if ply > seldepth:
                seldepth = ply
            pv[ply] = empty
            if tracing:
                tracer.enter(ply, via, depth, alpha, beta)

            # 1. Finished game, or a repetition of a position on the path.
            outcome = outcome_of()
            if outcome is not None:
                leaves += 1
                value = (terminal_value(ply) if terminal_value is not None
                         else score_terminal(outcome, ply))
                if tracing:
                    tracer.leave(ply, value, exact)
                return value
            if bare_leaves and depth <= 0:  # step 3 at once: steps 1a-2 have nothing to do
                leaves += 1
                horizon = True
                return evaluate()
            # The PV-node test keeps the caller's window (before 1b narrows it).
            pv_node = beta - alpha > 1
            key = 0
            if guarded and ply > 0:  # steps 1a-1b, each behind its own switch
                # 1a. Game hooks (SubtreeHooks): an exact value for a small subtree, or a
                # bound proved without search.
                if hooks is not None:
                    hooked = run_hooks(hooks, depth, alpha, beta)
                    if hooked is not None:
                        if tracing:
                            tracer.leave(ply, hooked, exact)
                        return hooked
                if need_key:
                    key = key_of()
                # A repetition of a position on the path.
                if cyclic:
                    if rules is not None:
                        rep = rules.repetition_value(ply)
                    else:
                        rep = 0 if key in path else None
                    if rep is not None:
                        leaves += 1
                        horizon = True  # path-dependent: never stored as solved
                        if tracing:
                            tracer.leave(ply, rep, exact)
                        return rep
                # 1b. Mate-distance pruning (switch), then game knowledge (SearchShortcuts):
                # a value without search, or a narrower window.
                if mate_distance:
                    lo, hi = loss_in(ply), win_in(ply + 1)
                    if lo >= beta or hi <= alpha:
                        leaves += 1
                        value = lo if lo >= beta else hi
                        if tracing:
                            tracer.leave(ply, value, exact)
                        return value
                    if lo > alpha:
                        alpha = lo
                    if hi < beta:
                        beta = hi
                if bounds_of is not None:
                    lo, hi = bounds_of(ply)
                    if lo == hi or lo >= beta or hi <= alpha:
                        leaves += 1
                        value = hi if hi <= alpha else lo
                        if tracing:
                            tracer.leave(ply, value, exact)
                        return value
                    if lo > alpha:
                        alpha = lo
                    if hi < beta:
                        beta = hi
            elif need_key:
                key = key_of()

            # 2. Transposition table: a cut-off, or at least a move to try first.
            tt_move: M | None = None
            if tt_store is not None:
                tt_probes += 1
                entry = slots.get(key & mask)
                if entry is not None and entry[0] == key:
                    tt_hits += 1
                    tt_move = entry[4]
                    # No cut-offs at PV nodes (open window), so principal variations stay whole.
                    if ply > 0 and entry[1] >= depth and not pv_node:
                        value = entry[2]  # score.from_tt, inline
                        if value >= WIN_BOUND:
                            value -= ply
                        elif value <= -WIN_BOUND:
                            value += ply
                        bound = entry[3]
                        if bound == exact or (
                                value >= beta if bound == lower else value <= alpha):
                            tt_cutoffs += 1
                            if entry[1] < SOLVED:
                                horizon = True  # the stored value rests on a horizon
                            if tracing:
                                tracer.tt_hit(ply, value, bound)
                                tracer.leave(ply, value, bound)
                            return value

            # 2b. Internal iterative reduction: no table move, a ply shallower.
            if tt_move is None and iir_depth and depth >= iir_depth and ply > 0:
                depth -= 1

            # 3. Depth exhausted: static evaluation, or quiescence over noisy moves.
            if depth <= 0 or ply >= top:
                leaves += 1
                horizon = True
                value = quiesce(alpha, beta, ply) if noisy is not None else evaluate()
                if tracing:
                    tracer.leave(ply, value, exact)
                return value

            # 3b. Selective search at non-PV nodes, off unless switched on: null move,
            # futility.
            in_check = checks.in_check() if needs_check and checks is not None else False
            futile: int | None = None
            late = 0  # late-move pruning: quiet moves from this index on are skipped
            hanging = False  # hanging-move pruning at this node
            by_history = False  # history pruning at this node
            if improving_on:
                statics[ply] = None
            if pruning and not pv_node and not in_check and ply > 0:
                static = evaluate()  # once for all three tests (evaluate has no side effects)
                # Improving: True, False, or None (unknown) against two plies up.
                better: bool | None = None
                if improving_on:
                    statics[ply] = static
                    before = statics[ply - 2] if ply >= 2 else None
                    better = None if before is None else static > before
                cut = (reverse_futile(depth - 1 if better and depth >= 2 else depth, beta,
                                      static) if depth < len(rf_margins) else None)
                if cut is None and depth < len(razor):
                    razored = razored_value(depth, alpha, ply, static)
                    if razored is not None:
                        if tracing:
                            tracer.leave(ply, razored, upper)
                        return razored
                sharp = danger is not None and danger()
                if cut is None and not sharp:
                    cut = null_move_cut(depth, beta, ply, key, via, static)
                if cut is not None:
                    if tracing:
                        tracer.leave(ply, cut, lower)
                    return cut
                futile = futile_value(depth, alpha, static)
                if depth < len(late_counts) and not is_decisive(alpha) and not sharp:
                    late = late_counts[depth]
                    if better is False:
                        late = max(1, late // 2) if late else 0
                hanging = depth <= hanging_depth
                by_history = history_depth > 0 and not is_decisive(alpha)
            # Hanging evasions: switched on below once a non-losing evasion is in hand.
            evading = in_check and depth <= evasion_depth and not pv_node and ply > 0

            # 4. Move ordering; the TT move may be tried before the rest are ordered.
            moves = moves_of()
            deferred = False
            if ordering:
                if defer and tt_move is not None and tt_move in moves:
                    deferred = True
                    unordered = moves
                    moves = [tt_move] * len(moves)  # the rest are filled in after it
                elif hinted is not None:  # no TT move among the moves
                    moves = hinted(moves, None)
                else:
                    moves = (order(moves, tt_move, ply, via) if counter_moves
                             else order(moves, tt_move, ply))
                    if presort_depth and depth > presort_depth + 1:
                        moves = presort(moves, tt_move, ply, key)

            # 5. Children: the first with the full window, the rest with a null window (PVS).
            if path_check:
                path_push(key)
            best = -INF
            best_move: M | None = None
            a = alpha
            outer_horizon = horizon
            horizon = False
            child_ply = ply + 1
            new_depth = depth - 1  # and no reduction: selective search sets both per move
            reduction = 0
            frontier = inline_leaves and new_depth <= 0
            # At a futile node from the second move on, or from the ``late``-th (late-move
            # pruning), a quiet move the game says cannot give check is skipped unplayed,
            # here rather than in ``play_selective`` (most moves of shogi's futile and late
            # nodes: the call was a tenth of a search's time, session 28); 0: none.
            doomed_from = (1 if futile is not None else late) if unplayed_skips else 0
            for i in range(len(moves)):
                move = moves[i]
                if selective:  # extensions and reductions; plays the move unless futile
                    if doomed_from and i >= doomed_from and not skip_tactical(move) \
                            and not skip_check(move):
                        horizon = True  # skipped: what playing it would have found below
                        if futile is not None and futile > best:  # a bound, as below
                            best = futile
                        continue
                    if evading and best > -WIN_BOUND:
                        hanging = True
                        evading = False
                    plan = play_selective(move, i, depth, ply, in_check, futile, late,
                                          hanging, by_history)
                    if plan is None:
                        if futile is not None and futile > best:  # cannot reach alpha: a bound
                            best = futile
                        continue
                    new_depth, reduction = plan
                    if reduction and pv_node and lmr_pv_less:
                        reduction = max(0, reduction - lmr_pv_less)
                else:
                    play(move)
                try:
                    if frontier:  # node()'s steps for a bare leaf, without the call
                        nodes += 1
                        if nodes >= next_poll:
                            poll()
                        if child_ply > seldepth:
                            seldepth = child_ply
                        pv[child_ply] = empty
                        leaves += 1
                        outcome = outcome_of()
                        if outcome is not None:
                            value = -(terminal_value(child_ply) if terminal_value is not None
                                      else score_terminal(outcome, child_ply))
                        else:
                            horizon = True
                            value = -evaluate()
                    elif i == 0 or not pvs:
                        value = -node(new_depth, -beta, -a, child_ply, move)
                    else:  # a null-window scout; one that fails high may need verifying
                        value = -node(new_depth - reduction, -a - 1, -a, child_ply, move)
                        if value > a and (reduction or value < beta):
                            value = research(move, new_depth, reduction, value, a, beta, ply)
                except BaseException as exc:  # take the move back, name it in the error
                    raise unwind(exc, move, game, undo)  # noqa: B904 (unwind sets the cause)
                undo()
                if value > best:
                    best = value
                    best_move = move
                    if ply == 0:
                        self.root_best_move = move
                    if value > a:
                        a = value
                        pv[ply] = (move,) + pv[child_ply]  # cheaper than (move, *pv[...])
                        if value >= beta:  # cut: counters, killers, history, pruned moves
                            cutoffs += 1
                            if i == 0:
                                first_move_cutoffs += 1
                            if ordering:
                                if counter_moves or malus:
                                    record_cutoff(move, ply, depth, via,
                                                  quiet_before(moves, i) if malus else ())
                                else:
                                    record_cutoff(move, ply, depth)
                            if tracing:
                                tracer.cutoff(ply, "beta" if ply % 2 == 0 else "alpha",
                                              moves[i + 1:])
                            break
                if deferred:  # the TT move did not cut: order the others behind it
                    deferred = False
                    moves = (hinted(unordered, move) if hinted is not None else
                             [move, *order([m for m in unordered if m != move], None, ply)])
            if path_check:
                path_pop(key)

            # 6. Store and return (the bound only where it is used: a table, a tracer).
            if tt_store is not None or tracing:
                bound = lower if best >= beta else upper if best <= alpha else exact
                if tt_store is not None:
                    # A subtree that never met the depth limit is solved: valid at any depth.
                    tt_store(key, depth if horizon else SOLVED, to_tt(best, ply), bound,
                             best_move)
                if tracing:
                    tracer.leave(ply, best, bound)
            horizon = horizon or outer_horizon
            return best

        # ---- helpers of the node search, called only where their case arises --------------

        def run_hooks(hooks: SubtreeHooks, depth: int, alpha: int, beta: int) -> int | None:
            """Step 1a: the game's subtree solver, then its proven bound (the template's
            ``k_leaf_solve`` and ``k_cutoff`` order and node accounting); None if neither
            applies.
            """
            nonlocal nodes, leaves
            if leaf_solver:
                solved, value, solved_nodes, solved_leaves = hooks.solve_subtree(
                    depth, alpha, beta)
                if solved:
                    nodes += solved_nodes
                    leaves += solved_leaves
                    return value
            if cutoff_hook:
                cut, value = hooks.proven_bound(alpha, beta)
                if cut:
                    leaves += 1
                    return value
            return None

        def quiet_before(moves: Sequence[M], i: int) -> list[M]:
            """The quiet moves ordered before the cut-off move ``moves[i]`` (the history
            malus), none when that move is itself tactical.
            """
            if is_tactical is None:
                return list(moves[:i])
            if is_tactical(moves[i]):
                return []
            return [m for m in moves[:i] if not is_tactical(m)]

        def research(move: M, depth: int, reduction: int, value: int, a: int, beta: int,
                     ply: int) -> int:
            """A scout of ``move`` failed high (``value > a``): a reduced scout is repeated at
            full depth, and a value inside the window is searched again with the window (PVS),
            so that it is exact and its PV complete.
            """
            nonlocal researches
            if reduction:
                value = -node(depth, -a - 1, -a, ply + 1, move)
            if a < value < beta:
                researches += 1
                if tracing:
                    tracer.research(ply + 1, move)
                value = -node(depth, -beta, -a, ply + 1, move)
            return value

        # ---- selective search (chess-style; each behind a SearchConfig switch) -------------

        def null_move_cut(depth: int, beta: int, ply: int, key: int, via: M | None,
                          static: int) -> int | None:
            """Null move: let the opponent move twice, searched R plies shallower with a null
            window at beta; a fail high is returned (None: no cut).  Tried only after a real
            move, deep enough, against a finite non-mate beta, when the static value already
            reaches it.  A fail high is a lower bound (mate scores are not trusted through a
            pass), stored.
            """
            nonlocal horizon
            if (nuller is None or via is None or depth < config.null_move_min_depth
                    or beta >= INF or is_decisive(beta) or static < beta
                    or not nuller.null_move_ok()):
                return None
            if depth_divisor:
                reduction = config.null_move_reduction + depth // depth_divisor
                if eval_divisor:
                    reduction += min(3, (static - beta) // eval_divisor)
            else:
                reduction = config.null_move_reduction + (1 if depth >= 7 else 0)
            if path_check:
                path_push(key)
            nuller.play_null()
            extended[ply + 1] = extended[ply]
            outer_horizon = horizon
            try:
                value = -node(depth - 1 - reduction, -beta, -beta + 1, ply + 1, None)
            except BaseException as exc:
                raise unwind(exc, NULL_MOVE, game, nuller.undo_null)  # noqa: B904 (unwind sets the cause)
            nuller.undo_null()
            if path_check:
                path_pop(key)
            horizon = outer_horizon
            if value < beta:
                return None
            horizon = True  # a pass is not a move: never store this as solved
            if is_win(value):
                value = beta
            if tt_store is not None:
                tt_store(key, depth, to_tt(value, ply), lower, None)
            return value

        def reverse_futile(depth: int, beta: int, static: int) -> int | None:
            """Reverse futility: the static value less the margin for ``depth`` when that
            still reaches beta (a lower bound the moves would only confirm), else None.
            """
            nonlocal horizon
            if is_decisive(beta):
                return None
            value = static - rf_margins[depth]
            if value < beta:
                return None
            horizon = True  # a guess from the static value: never stored as solved
            return value

        def razored_value(depth: int, alpha: int, ply: int, static: int) -> int | None:
            """Razoring: when the static value plus the margin for ``depth`` stays at or
            below alpha, quiescence with a null window at alpha; its value when that still
            fails low (an upper bound), else None (search the node).
            """
            nonlocal horizon
            margin = razor[depth]
            if not margin or is_decisive(alpha) or static + margin > alpha:
                return None
            value = quiesce(alpha, alpha + 1, ply)
            if value > alpha:
                return None
            horizon = True  # a guess from quiescence: never stored as solved
            return value

        def futile_value(depth: int, alpha: int, static: int) -> int | None:
            """Futility: the static value plus the margin for ``depth`` when even that cannot
            reach alpha (quiet moves are then skipped with it as their bound), else None.
            """
            if not futility or depth >= len(margins) or is_decisive(alpha):
                return None
            bound = static + margins[depth]
            return bound if bound <= alpha else None

        def play_selective(move: M, i: int, depth: int, ply: int, in_check: bool,
                           futile: int | None, late: int, hanging: bool, by_history: bool
                           ) -> tuple[int, int] | None:
            """Play ``move`` and return (child depth, reduction): a move that gives check is
            extended a ply (up to twice the root depth; not one that gives its piece away when
            ``extend_hanging_checks`` is off); a late quiet move is reduced (LMR) or, at a
            futile node or from the ``late``-th move on (late-move pruning, 0: off), skipped;
            with ``hanging`` (hanging-move pruning here) a move after the first that gives a
            piece away is skipped, checks too; with ``by_history`` (history pruning here) a
            late quiet move whose reduced child depth is at most ``history_pruning_depth`` and
            whose history credit is below ``history_pruning_credit`` is skipped: a skipped move
            is taken back and None returned.  A quiet move that would be skipped at a futile
            or late node and that the game says cannot give check (``QuietChecks``) never
            comes here (the loop of step 5 skips it), and a move the game says hangs its
            piece where hanging-move pruning is on (``HangingBeforePlay``) is not played: the
            same tree, without their play and undo (about half of the moves played at
            chess's futile and late nodes, four in five of those played in shogi's main
            search).
            """
            nonlocal horizon
            assert checks is not None
            quiet = tactical is not None and not tactical.is_tactical(move)
            # At a futile node, or from the ``late``-th move on, a quiet move after the first
            # is skipped unless it gives check (unplayed by the loop of step 5 when the game
            # says which moves check: then a doomed move here checks).
            doomed = quiet and i > 0 and (futile is not None or bool(late and i >= late))
            tested = False  # whether the hanging test is already answered (no)
            if hanging and i > 0 and hangs_before is not None:
                if hangs_before(move):
                    horizon = True  # the same: played, it would be taken back as hanging
                    return None
                tested = True
            play(move)
            try:
                gives_check = checks.in_check()
                hung = (hangs is not None and not tested
                        and ((hanging and i > 0) or (gives_check and hanging_checks))
                        and hangs())
            except BaseException as exc:
                raise unwind(exc, move, game, undo)  # noqa: B904 (unwind sets the cause)
            if hung and hanging and i > 0:
                undo()
                horizon = True
                return None
            if extension_cap:
                extended[ply + 1] = extended[ply]
            if gives_check and extend and ply < 2 * root_depth and not (hung and hanging_checks):
                if not extension_cap:
                    return depth, 0
                if extended[ply] < extension_cap:
                    extended[ply + 1] += 1
                    return depth, 0
            if not quiet or gives_check or i == 0:
                return depth - 1, 0
            if doomed:
                undo()
                horizon = True
                return None
            if i < lmr_min_moves or move in orderer.killers[ply]:
                return depth - 1, 0
            reduction = 0
            if lmr and not in_check and depth >= lmr_min_depth:
                reduction = (reductions[min(depth, 63)][min(i, 63)] if reductions is not None
                             else 1 if i < 8 or depth < 6 else 2)
            if (by_history and depth - 1 - reduction <= history_depth
                    and credit_of(move) < history_credit):
                undo()
                horizon = True
                return None
            return depth - 1, reduction

        def presort(moves: Sequence[M], tt_move: M | None, ply: int, key: int) -> list[M]:
            """Seed 003: a shallow full-window search of every move, then sort by its
            values.
            """
            shallow = presort_depth - 1
            if path_check:
                path_push(key)
            values: dict[int, int] = {}
            extended[ply + 1] = extended[ply]
            for i, move in enumerate(moves):
                play(move)
                try:
                    values[i] = -node(shallow, -INF, INF, ply + 1, move)
                except BaseException as exc:
                    raise unwind(exc, move, game, undo)  # noqa: B904 (unwind sets the cause)
                undo()
            if path_check:
                path_pop(key)
            order = sorted(range(len(moves)), key=lambda i: (moves[i] != tt_move, -values[i]))
            return [moves[i] for i in order]

        def quiesce(alpha: int, beta: int, ply: int) -> int:
            """Stand pat or try the noisy moves, fail-soft; in check every move is
            searched.  With delta pruning (``gain_of``), out of check a move whose gain plus
            the margin leaves the stand-pat value at or below alpha is skipped, and that
            value is its bound.  With evasion pruning (``qs_evasion_limit``,
            ``qs_hanging_evasions``), in check, once the best value is no loss, an evasion
            that captures nothing is skipped after the limit, or when it leaves its piece to
            be won (tested after playing it; a skipped move counts no node): the value is
            then that of the evasions searched, never a mate score a skipped move could
            refute.
            """
            nonlocal nodes, qnodes, seldepth
            assert noisy is not None
            in_check = noisy.in_check()
            best = -INF if in_check else evaluate()
            if best >= beta or ply >= top:
                return best
            if best > alpha:
                alpha = best
            moves = game.legal_moves() if in_check else noisy.noisy_moves()
            if ordering:
                moves = order(moves, None, ply)
            gain = None if in_check else gain_of
            stand = best + delta_margin  # the stand-pat value with the margin (delta pruning)
            evading = in_check and prune_evasions
            searched = 0  # evasions searched (evasion pruning)
            for move in moves:
                if gain is not None:
                    hope = stand + gain(move)
                    if hope <= alpha:
                        if hope > best:
                            best = hope
                        continue
                prunable = evading and best > -WIN_BOUND and not evasion_tactical(move)
                if prunable and evasion_limit and searched >= evasion_limit:
                    continue
                play(move)
                try:
                    if prunable and hanging_evasions and hangs is not None and hangs():
                        undo()
                        continue
                    nodes += 1
                    qnodes += 1
                    if nodes >= next_poll:
                        poll()
                    if ply + 1 > seldepth:
                        seldepth = ply + 1
                    outcome = outcome_of()
                    if outcome is not None:
                        value = -score_terminal(outcome, ply + 1)
                    else:
                        value = -quiesce(-beta, -alpha, ply + 1)
                except BaseException as exc:
                    raise unwind(exc, move, game, undo)  # noqa: B904 (unwind sets the cause)
                undo()
                searched += 1
                if value > best:
                    best = value
                    if value > alpha:
                        alpha = value
                        if value >= beta:
                            break
            return best

        return node, flush
