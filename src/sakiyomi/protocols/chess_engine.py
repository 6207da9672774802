"""The chess engine: the shared Searcher with the chess settings, and its time management.

Nothing here is a new search: ``CHESS_CONFIG`` switches on the Searcher's generic selective
techniques (check extension, null move, late-move reductions, futility) that the chess adapter's
capabilities drive, and ``think`` runs the shared iterative-deepening driver with aspiration
windows.  bench/chess.py turns each switch off in turn to measure what it is worth.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import chess

from sakiyomi.games.chess import ChessGame
from sakiyomi.score import WIN, is_loss, is_win
from sakiyomi.search.drivers import iterative_deepening
from sakiyomi.search.limits import Limits, StopSignal
from sakiyomi.search.result import SearchInfo
from sakiyomi.search.searcher import SearchConfig, Searcher
from sakiyomi.tt import TranspositionTable

CHESS_CONFIG = SearchConfig(
    check_every=256,  # ~20 ms between clock polls at chess speeds: never lose on time
    check_extension=True,
    null_move=True,
    lmr=True,
    futility=True,
)
ASPIRATION_DELTA = 40  # centipawns around the previous iteration's value


@dataclass(frozen=True, slots=True)
class TimePlan:
    """Seconds for one move: stop starting iterations after ``soft``, abort at ``hard``."""

    soft: float
    hard: float


def plan_time(
    remaining: float, increment: float = 0.0, moves_to_go: int | None = None,
    overhead: float = 0.05,
) -> TimePlan:
    """Budget from a clock (seconds).  The hard limit never exceeds a third of what is left
    after the overhead, so even a loaded machine that overshoots twice keeps time on the clock.
    """
    usable = max(0.0, remaining - overhead)
    moves = moves_to_go if moves_to_go else 30
    target = usable / (moves + 2) + 0.75 * increment
    hard = min(usable / 3 if moves > 1 else usable * 0.8, max(target * 3, 0.0))
    hard = max(0.0, min(hard, usable - overhead))
    soft = min(target, hard) * 0.6
    return TimePlan(soft, hard)


def uci_score(value: int) -> str:
    """``cp N`` or ``mate N`` (moves, negative when the side to move is mated)."""
    if is_win(value):
        return f"mate {(WIN - value + 1) // 2}"
    if is_loss(value):
        return f"mate -{(WIN + value) // 2}"
    return f"cp {value}"


def think(
    board: chess.Board,
    limits: Limits,
    signal: StopSignal,
    *,
    tt: TranspositionTable[chess.Move] | None = None,
    config: SearchConfig = CHESS_CONFIG,
    soft_time: float | None = None,
    aspiration_delta: int = ASPIRATION_DELTA,
    on_info: Callable[[SearchInfo[chess.Move]], None] | None = None,
) -> tuple[chess.Move | None, SearchInfo[chess.Move] | None]:
    """Search ``board`` until a limit or the signal; the best move and the last completed
    iteration.  ``soft_time``: no new iteration starts after that many seconds.
    """
    game = ChessGame(board)
    searcher: Searcher[chess.Move] = Searcher(game, config, tt=tt, stop=signal)
    last: SearchInfo[chess.Move] | None = None
    start = time.perf_counter()
    for info in iterative_deepening(searcher, limits, aspiration_delta=aspiration_delta):
        last = info
        if on_info is not None:
            on_info(info)
        if soft_time is not None and time.perf_counter() - start >= soft_time:
            break
    if last is not None and last.pv:
        return last.pv[0], last
    moves = game.legal_moves()
    fallback = searcher.root_best_move if searcher.root_best_move is not None else (
        moves[0] if moves else None)
    return fallback, last
