"""The chess engine: the shared Searcher with the chess settings, MultiPV and table sizing.

Nothing here is a new search: ``CHESS_CONFIG`` switches on the Searcher's generic selective
techniques (check extension, null move, late-move reductions, futility) that the chess adapter's
capabilities drive, and ``think`` runs the shared iterative-deepening driver with aspiration
windows.  bench/chess.py turns each switch off in turn to measure what it is worth.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import chess

from sakiyomi.games.chess import ChessGame
from sakiyomi.games.chess_see import SEE_VALUE
from sakiyomi.protocols.memory import entries_for
from sakiyomi.protocols.report import closing_info
from sakiyomi.score import INF
from sakiyomi.search.drivers import iterative_deepening
from sakiyomi.search.limits import Limits, StopSignal
from sakiyomi.search.result import SearchInfo, SearchStats
from sakiyomi.search.searcher import SearchConfig, Searcher
from sakiyomi.search.solve import multipv
from sakiyomi.tt import TranspositionTable

CHESS_CONFIG = SearchConfig(
    check_every=32,  # a few ms between clock polls even on a loaded machine (costs < 0.1 %)
    check_extension=True,
    null_move=True,
    lmr=True,
    futility=True,
    mate_distance=True,
    # Session 17 (bench/chess_selfplay.py, 1000 nodes a move, 480 games of our own random
    # openings against the settings without these three): +30 Elo (+3 ... +57).  Together
    # they cut the nodes to depth 5 of five middlegames of ours by 2.3x.
    lmr_divisor=2.25,  # logarithmic late-move reductions
    reverse_futility_margins=(0, 90, 180, 270),  # by remaining depth 1-3
    late_move_counts=(0, 6, 10, 16),  # quiet moves tried at remaining depth 1-3
    # Session 19 (the same self-play, 240 games at 1000 nodes and 240 at equal time, two
    # opening seeds): delta pruning in quiescence, +31 Elo pooled (+4 ... +59).
    delta_margin=200,
    # Session 29: late moves at PV nodes reduced a ply less (SearchConfig.lmr_pv_less).
    # Self-play at 1000 nodes, 240 games: +44 (-1 ... +88); against Stockfish 1800 at 200 ms,
    # 100 games: 0.475 (the engine without it: 0.430 over 300 games).
    lmr_pv_less=1,
)
ASPIRATION_DELTA = 40  # centipawns around the previous iteration's value
# Bytes a table entry costs once the table is full: its dict slot, the entry tuple, its key int
# and a python-chess Move object.  bench/engine_memory.py measured 362 (Hash 16) and 384
# (Hash 4) with the flat table of 23 Nov 2026.
BYTES_PER_ENTRY = 390


class PvLine(NamedTuple):
    """One MultiPV line: value from the root's side to move, moves, nodes and seldepth."""

    value: int
    pv: tuple[chess.Move, ...]
    nodes: int
    seldepth: int


def think(
    board: chess.Board,
    limits: Limits,
    signal: StopSignal,
    *,
    tt: TranspositionTable[chess.Move] | None = None,
    config: SearchConfig = CHESS_CONFIG,
    past_soft: Callable[[], bool] | None = None,
    aspiration_delta: int = ASPIRATION_DELTA,
    on_info: Callable[[SearchInfo[chess.Move]], None] | None = None,
    partial: bool = True,
) -> tuple[chess.Move | None, SearchInfo[chess.Move] | None]:
    """Search ``board`` until a limit or the signal; the best move and the last completed
    iteration.  No new iteration starts once ``past_soft()`` is true (the soft time limit).

    With ``partial`` (the default) an iteration stopped by the clock or the node budget still
    counts when it got far enough: if a root move had already raised α in it (its value is
    exact or a fail high, searched one ply deeper than the last completed iteration), that
    move is played.  At a 200 ms movetime the last iteration is nearly always cut short, and
    its half-finished work would otherwise be thrown away; a root move replaces the earlier
    choice only by beating α at the deeper depth, so nothing unproven is played.  ``partial``
    off is the earlier behaviour (kept for bench/chess_selfplay.py's comparison).
    """
    game = ChessGame(board)
    searcher: Searcher[chess.Move] = Searcher(game, config, tt=tt, stop=signal)
    last: SearchInfo[chess.Move] | None = None
    for info in iterative_deepening(searcher, limits, aspiration_delta=aspiration_delta,
                                    past_soft=past_soft):
        last = info
        if on_info is not None:
            on_info(info)
    closing = closing_info(last, searcher)
    if closing is not None and on_info is not None:
        on_info(closing)
    if partial and last is not None:
        unfinished = searcher.pv  # the root's line of the stopped iteration, if any
        if unfinished and unfinished != last.pv:
            return unfinished[0], last
    if last is not None and last.pv:
        return last.pv[0], last
    # No iteration finished: the stopped first one's best move so far is merely the first it
    # searched (every move beats -INF), unproven against the rest; the static look is better.
    return first_choice(board, tt), last


def first_choice(board: chess.Board, tt: TranspositionTable[chess.Move] | None = None
                 ) -> chess.Move | None:
    """The answer before any search iteration has finished (a loaded machine may not even
    finish depth 1 within a short movetime): the table's move for this position if it has a
    legal one, else the best move by a one-ply static look (winning captures by exchange value,
    then the evaluation after the move, less the moved piece's value when it lands on a square
    the opponent attacks and we do not defend).  Never the raw first move of the generator,
    which is whatever the move order puts first (often a sacrifice such as Bxf7+).
    """
    game = ChessGame(board.copy(stack=False))
    moves = list(game.legal_moves())
    if not moves:
        return None
    if tt is not None:
        entry = tt.probe(game.key())
        if entry is not None and entry.move in moves:
            return entry.move
    hints = game.move_hints(moves)
    best, best_score = moves[0], None
    for move, hint in zip(moves, hints, strict=True):
        mover = game.board.piece_type_at(move.from_square) or chess.PAWN
        game.play(move)
        after = game.board
        score = -game.evaluate() + 10 * hint
        if after.is_attacked_by(after.turn, move.to_square) and not after.is_attacked_by(
                not after.turn, move.to_square):
            score -= SEE_VALUE[mover]
        if after.is_checkmate():
            score = INF
        game.undo()
        if best_score is None or score > best_score:
            best, best_score = move, score
    return best


def table_for(megabytes: int) -> TranspositionTable[chess.Move]:
    """A table that stays within ``megabytes`` when full (UCI ``Hash``)."""
    return TranspositionTable(entries_for(megabytes, BYTES_PER_ENTRY))


def think_multipv(
    board: chess.Board, limits: Limits, signal: StopSignal, *, count: int,
    tt: TranspositionTable[chess.Move] | None = None,
    past_soft: Callable[[], bool] | None = None,
    on_depth: Callable[[int, list[PvLine], SearchStats], None] | None = None,
) -> tuple[chess.Move | None, chess.Move | None]:
    """MultiPV with the shared driver (``search.solve.multipv``): every root move is searched
    one ply shallower per depth; ``on_depth`` sees the best ``count`` lines of each completed
    depth (exact values for each, not just a bound) and the counters so far.  Returns the best
    move and the expected reply of the last completed depth.
    """
    game = ChessGame(board)
    searcher: Searcher[chess.Move] = Searcher(game, CHESS_CONFIG, tt=tt, stop=signal)
    moves = list(board.generate_legal_moves())
    best: tuple[chess.Move | None, chess.Move | None] = (moves[0] if moves else None, None)
    for depth, values, stats in multipv(searcher, limits, past_soft=past_soft):
        lines = [PvLine(mv.value, mv.pv, stats.nodes, stats.seldepth + 1) for mv in values]
        if on_depth is not None:
            on_depth(depth, lines[:count], stats)
        top = lines[0].pv
        best = (top[0], top[1] if len(top) > 1 else None)
    return best
