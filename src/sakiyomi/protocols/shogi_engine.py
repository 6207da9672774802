"""The shogi engine behind USI: search set-up, thinking, the mate probe, ``go mate`` and options.

Search: the shared ``Searcher`` (PVS, TT, ordering, quiescence on captures, sennichite
verdicts, and its selective-search switches: check extension, null move, LMR, futility) under
iterative deepening, after a short df-pn mate probe whose mate, if it finds one, is played at
once.  Nothing here speaks the protocol: ``think`` and ``mate_search`` report through the go
session's ``Reply`` (info lines, the best move so far, the final answer).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sakiyomi.games.shogi import DEFAULT_EVALUATION, ShogiGame
from sakiyomi.protocols.engine_loop import GoSession
from sakiyomi.protocols.memory import entries_for
from sakiyomi.protocols.report import closing_info, info_line
from sakiyomi.search.dfpn import MateResult, solve_mate
from sakiyomi.search.drivers import iterative_deepening
from sakiyomi.search.limits import Limits, StopSignal
from sakiyomi.search.searcher import SearchConfig, Searcher
from sakiyomi.tt import TranspositionTable

# On by default.  bench/shogi.py vs fairy-stockfish at 1000 nodes, byoyomi 1 s (2026-11-22):
# on 7-0-5 in 12 games, off 2-0-2 in 4 — samples too small to tell them apart.
SWITCHES = {"CheckExtension": True, "NullMove": True, "LMR": True, "Futility": True,
            "LateMovePruning": True, "LogReduction": True, "ReverseFutility": True,
            "CounterMoves": True, "HistoryMalus": False, "HangingPruning": True,
            "HangingCheckExtension": True, "HistoryPruning": True,
            "QsHangingEvasions": False, "Improving": False}
# Shogi has ~80 legal moves a node (most of them drops): quiet moves late in the order are
# reduced by the logarithmic rule and, near the horizon, skipped (SearchConfig).
LMR_DIVISOR = 1.5
LATE_MOVE_COUNTS = (0, 8, 14, 22)
# Reverse futility ("static null move") at remaining depths 1-3: a static value this far above
# beta is returned as a bound.  With it, the depth finished at 10,000 nodes on 36 positions of
# our own games went from a mean 4.94 to 5.64 (bench/results/shogi/summary.md, session 13).
REVERSE_FUTILITY_MARGINS = (0, 150, 300, 450)
# Hanging-move pruning (HangingPruning) at remaining depths 1 to this: a move after the first
# that captures nothing and gives its piece away (ShogiGame.hangs_piece) is skipped, checks
# too; HangingCheckExtension=false also stops extending such checks deeper in the tree.
# Session 19 (bench/results/shogi/summary.md): 26 % fewer nodes to depth 5 and 43 % fewer to
# depth 6 on 36 positions of our games; at 10,000 nodes a move it scored 27-1-20 against the
# engine without it and better against fairy-stockfish, neither significant on its own.
HANGING_DEPTH = 3
# History pruning (HistoryPruning): at non-PV nodes not in check, a late quiet move whose child
# depth after the LMR reduction would be at most HISTORY_PRUNING_DEPTH and whose history credit
# (cut-offs in this search, depth² each) is below HISTORY_PRUNING_CREDIT is skipped.  Session
# 20 (bench/results/shogi/summary.md): nodes to depth 6 on 36 positions of our games −13 %;
# at 10,000 nodes a move against fairy-stockfish at 2,000, 27-0-21 where the engine without
# it scored 24-1-23.
HISTORY_PRUNING_DEPTH = 2
HISTORY_PRUNING_CREDIT = 1
# Session 22: the search's lines ran 10-15 plies past the nominal depth (checks extended up to
# twice the root depth; quiescence searching every evasion in check, interposed drops
# included).  USI CheckExtensionLimit caps the check extensions on one line (0: no cap);
# QsEvasionLimit skips quiescence evasions that capture nothing after this many, and the
# switch QsHangingEvasions those that leave their piece to be won; HangingEvasionDepth skips
# such evasions in the main search at remaining depths up to it; all only once a non-losing
# evasion is in hand (SearchConfig).  Session 22 (bench/results/shogi/summary.md), 96 games
# at 10,000 nodes against fairy-stockfish at 2,000: QsEvasionLimit=1 with
# HangingEvasionDepth=3 scored 70-0-26 where the engine without them scored 64-0-32 (kept);
# with CheckExtensionLimit=1 as well, 60-1-35 (no cap kept).
CHECK_EXTENSION_LIMIT = 0
QS_EVASION_LIMIT = 1
HANGING_EVASION_DEPTH = 3
# Delta pruning in quiescence (USI DeltaMargin, 0: off): a capture whose gain in the
# incremental score (ShogiGame.noisy_gain) plus this margin leaves the stand-pat value at or
# below alpha is skipped (SearchConfig.delta_margin).  27 % of our nodes are quiescence moves.
DELTA_MARGIN = 0
# R of the null move: NULL_MOVE_REDUCTION + depth // NULL_MOVE_DEPTH_DIVISOR (below).
NULL_MOVE_REDUCTION = 3
# Session 24 (SearchConfig): internal iterative reduction from this remaining depth (USI
# IIRDepth, 0: off); null-move R growing by a ply per NullMoveDepthDivisor plies of depth and,
# with it, per NullMoveEvalDivisor of static value above beta (0: off, the step above); the switch
# Improving (late-move pruning and reverse futility by the static value's trend).  On the 36
# positions of bench/shogi_depth.py, nodes to depth 6: 281,101 → 255,706 with IIRDepth 3
# (depth finished at 10,000 nodes 6.17 → 6.47); the growing null move 273,033, Improving
# 277,940.  IIRDepth 3 against the engine without it, 96 self-play games at 10,000 nodes:
# 53-4-39, +51 (−17 … +123) (bench/results/shogi/s24-iir3_vs_base_n10000.jsonl): kept; then
# IIRDepth 2 (nodes to depth 6: 230,214, depth at 10,000 nodes 6.83) against IIRDepth 3, the
# same games: 53-1-42, +40 (−29 … +112) (s24-iir2_vs_iir3_n10000.jsonl): kept.
IIR_DEPTH = 2
# Session 25: the growing null move, R = 3 + depth // 4 (nodes to depth 6 on the 36 positions
# 245,211 against 255,706 with IIRDepth 3 in session 24's screen), against R = 2 (3 from depth
# 7), 96 self-play games at 10,000 nodes: 53-0-43, +36 (−33 … +106)
# (bench/results/shogi/s25-nullgrow_vs_base_n10000.jsonl): kept by the rule written before it
# (at least 52 %).
NULL_MOVE_DEPTH_DIVISOR = 4
NULL_MOVE_EVAL_DIVISOR = 0
ASPIRATION_DELTA = 60  # centipawns around the previous iteration's value
CHECK_EVERY = 32  # nodes between stop polls (a few ms even on a loaded machine)
MATE_PROBE_SHARE = 0.2  # of the hard limit, at most, for the df-pn probe before the search
PROBE_CHECKS = 6  # checks at the root that make a mate likely by themselves
PROBE_OPEN = 4  # open squares around the enemy king that make a mate likely (with a check)
# Bytes a table entry costs once the table is full: its dict slot, the entry tuple, its key int
# and the move int.  bench/engine_memory.py measured 288 (USI_Hash 16) and 314 (USI_Hash 4)
# with the flat table of 23 Nov 2026.
BYTES_PER_ENTRY = 320


@dataclass(slots=True)
class Options:
    """Engine options (``setoption name … value …``)."""

    hash_mb: int = 64
    ponder: bool = False
    # What the GUI and the pipes lose per move; the engine loop's Punctuality adds what the
    # machine's load costs, measured.  50 ms, as UCI's Move Overhead.
    byoyomi_margin_ms: int = 50
    mate_probe_nodes: int = 3000
    evaluation: str = DEFAULT_EVALUATION  # one of shogi_eval.EVALUATIONS
    mate_plies: int = 1  # mate detection at every node: 0 off, 1 or 3 plies
    check_extension_limit: int = CHECK_EXTENSION_LIMIT  # USI CheckExtensionLimit
    qs_evasion_limit: int = QS_EVASION_LIMIT  # USI QsEvasionLimit
    hanging_evasion_depth: int = HANGING_EVASION_DEPTH  # USI HangingEvasionDepth
    delta_margin: int = DELTA_MARGIN  # USI DeltaMargin
    iir_depth: int = IIR_DEPTH  # USI IIRDepth
    null_move_reduction: int = NULL_MOVE_REDUCTION  # USI NullMoveReduction
    null_move_depth_divisor: int = NULL_MOVE_DEPTH_DIVISOR  # USI NullMoveDepthDivisor
    null_move_eval_divisor: int = NULL_MOVE_EVAL_DIVISOR  # USI NullMoveEvalDivisor
    # The shared Searcher's selective-search switches (game capabilities Checks, NullMove,
    # TacticalMoves), named as USI check options.
    switches: dict[str, bool] = field(default_factory=lambda: dict(SWITCHES))


def table_for(megabytes: int) -> TranspositionTable[int]:
    """A table that stays within ``megabytes`` when full (``USI_Hash``)."""
    return TranspositionTable(entries_for(megabytes, BYTES_PER_ENTRY))


def first_answer(game: ShogiGame) -> str:
    """What to answer before any search: a legal move, or ``resign`` when there is none."""
    moves = game.legal_moves()
    return game.move_to_text(moves[0]) if moves else "resign"


def think(game: ShogiGame, session: GoSession, options: Options,
          tt: TranspositionTable[int], depth: int | None) -> None:
    """Find a move for ``game`` within the session's limits; the answer goes to its reply:
    ``resign`` without legal moves, ``win`` when the side to move can declare (entering king),
    a mate found by the probe, else the best move of the last completed iteration.
    """
    reply = session.reply
    if not game.legal_moves():
        reply.update("resign")
        return
    if game.can_declare():
        reply.update("win")
        return
    budget = session.signal.node_limit
    probe_nodes = options.mate_probe_nodes if budget is None else min(
        options.mate_probe_nodes, budget // 5)  # go nodes N: the probe's nodes count too
    mate, probe_spent = mate_probe(game, session, probe_nodes)
    if mate is not None:
        reply.info(mate_info_line(game, mate))
        reply.update(game.move_to_text(mate.moves[0]))
        return
    config = search_config(options)
    searcher: Searcher[int] = Searcher(game, config, tt=tt, stop=session.signal)
    searcher.stats.nodes = probe_spent  # the probe's nodes count: in reports and in go nodes
    last = None
    for info in iterative_deepening(searcher, Limits(depth=depth),
                                    aspiration_delta=ASPIRATION_DELTA,
                                    past_soft=session.past_soft):
        last = info
        reply.info(info_line(info, [game.move_to_text(m) for m in info.pv], "usi"))
        if info.pv:
            reply.update(game.move_to_text(info.pv[0]))
            session.observe(game.move_to_text(info.pv[0]), info.value)
    closing = closing_info(last, searcher)
    if closing is not None:
        reply.info(info_line(closing, [game.move_to_text(m) for m in closing.pv], "usi"))


def search_config(options: Options) -> SearchConfig:
    """The shared Searcher's settings for these options (the USI switches)."""
    switch = options.switches
    return SearchConfig(check_every=CHECK_EVERY, check_extension=switch["CheckExtension"],
                        null_move=switch["NullMove"],
                        null_move_reduction=options.null_move_reduction, lmr=switch["LMR"],
                        futility=switch["Futility"],
                        lmr_divisor=LMR_DIVISOR if switch["LogReduction"] else 0.0,
                        late_move_counts=LATE_MOVE_COUNTS if switch["LateMovePruning"]
                        else (),
                        reverse_futility_margins=REVERSE_FUTILITY_MARGINS
                        if switch["ReverseFutility"] else (),
                        history_malus=switch["HistoryMalus"],
                        counter_moves=switch["CounterMoves"],
                        hanging_depth=HANGING_DEPTH if switch["HangingPruning"] else 0,
                        extend_hanging_checks=switch["HangingCheckExtension"],
                        history_pruning_depth=HISTORY_PRUNING_DEPTH
                        if switch["HistoryPruning"] else 0,
                        history_pruning_credit=HISTORY_PRUNING_CREDIT,
                        check_extension_limit=options.check_extension_limit,
                        qs_evasion_limit=options.qs_evasion_limit,
                        hanging_evasion_depth=options.hanging_evasion_depth,
                        delta_margin=options.delta_margin,
                        qs_hanging_evasions=switch["QsHangingEvasions"],
                        iir_depth=options.iir_depth,
                        null_move_depth_divisor=options.null_move_depth_divisor,
                        null_move_eval_divisor=options.null_move_eval_divisor,
                        improving=switch["Improving"])


def mate_likely(game: ShogiGame) -> bool:
    """Worth a df-pn probe: the side to move has checks and the enemy king is exposed (at
    least ``PROBE_OPEN`` open squares around it) or there are many checks.
    """
    checks = len(game.checking_moves())
    if not checks:
        return False
    return checks >= PROBE_CHECKS or game.king_open(game.board.turn ^ 1) >= PROBE_OPEN


def mate_probe(game: ShogiGame, session: GoSession, nodes: int
               ) -> tuple[MateResult[int] | None, int]:
    """A short df-pn run when a mate is likely (``nodes``, a fifth of the time left at most):
    a mate it finds is played at once (the search would find it later).  The mate (None when
    it found none or did not look) and the nodes it spent.
    """
    if nodes <= 0 or not mate_likely(game):
        return None, 0
    left = session.hard_left()
    probe = StopSignal(nodes=nodes, seconds=None if left is None else left * MATE_PROBE_SHARE)
    probe.event = session.signal.event
    result = solve_mate(game.for_mate_search(), stop=probe, short_first=5, shortest=False)
    return (result if result.status == "mate" else None), result.nodes


def mate_search(game: ShogiGame, session: GoSession) -> None:
    """``go mate``: a tsume search; the reply becomes the mating line, ``nomate`` or
    ``timeout`` (its fallback).
    """
    result = solve_mate(game.for_mate_search(), stop=session.signal)
    if result.status == "mate":
        session.reply.info(mate_info_line(game, result))
        session.reply.update(" ".join(game.move_to_text(m) for m in result.moves))
    elif result.status == "nomate":
        session.reply.update("nomate")


def mate_info_line(game: ShogiGame, result: MateResult[int]) -> str:
    """The ``info`` line of a mate found by df-pn (score in plies, USI style)."""
    pv = " ".join(game.move_to_text(m) for m in result.moves)
    ms = int(result.seconds * 1000)
    nps = int(result.nodes / result.seconds) if result.seconds > 0 else 0
    return (f"info depth {result.plies} time {ms} nodes {result.nodes} nps {nps} "
            f"score mate {result.plies} pv {pv}")
