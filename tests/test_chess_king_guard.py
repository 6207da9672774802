"""The king-danger guard: ``ChessGame.king_in_danger`` and ``SearchConfig.guard_king_danger``
(no null move and no late-move pruning where a king is attacked)."""

from __future__ import annotations

import random
from dataclasses import replace

import chess

from sakiyomi.games.chess import ChessGame
from sakiyomi.games.chess_terms import king_danger_peak
from sakiyomi.protocols.chess_engine import CHESS_CONFIG
from sakiyomi.search.searcher import Searcher
from tests.chess_support import random_walk

# Our own position: White Kg1 behind f2-g2-h2; Black's queen on h4 and knight on g4
# (danger 460 by the count of test_chess_king_attack).
ATTACKED = "4k3/8/8/8/6nq/8/5PPP/6K1 w - - 0 1"
# Our own quiet middlegame: both sides developed, both kings castled.
QUIET = "r1bq1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R1BQ1RK1 w - - 0 9"


class Counting(ChessGame):
    """Counts null moves; says a king is in danger when ``DANGER`` is True."""

    DANGER = True
    passes = 0

    def play_null(self) -> None:
        type(self).passes += 1
        super().play_null()

    def king_in_danger(self) -> bool:
        return self.DANGER


def test_the_danger_is_the_larger_of_the_two_kings() -> None:
    board = chess.Board(ATTACKED)
    assert king_danger_peak(board) == 460
    assert king_danger_peak(board.mirror()) == 460
    assert ChessGame(board).king_in_danger()
    assert not ChessGame(chess.Board()).king_in_danger()


def test_the_danger_peak_is_the_larger_side_on_random_positions() -> None:
    rng = random.Random(5)
    for _ in range(60):
        board = random_walk(rng, rng.randint(10, 50))
        if board.king(chess.WHITE) is None or board.king(chess.BLACK) is None:
            continue
        peak = king_danger_peak(board)
        assert peak == king_danger_peak(board.mirror())  # colour-symmetric
        assert ChessGame(board).king_in_danger() == (peak >= ChessGame.KING_DANGER_GUARD)


def _passes(danger: bool, guard: bool, null_move: bool = True) -> tuple[int, int]:
    """Null moves and nodes of a depth-5 search of QUIET."""
    Counting.DANGER = danger
    Counting.passes = 0
    searcher = Searcher(Counting(chess.Board(QUIET)),
                        replace(CHESS_CONFIG, guard_king_danger=guard, null_move=null_move))
    searcher.search(5)
    return Counting.passes, searcher.stats.nodes


def test_no_null_move_where_a_king_is_in_danger() -> None:
    assert _passes(danger=True, guard=True)[0] == 0
    assert _passes(danger=True, guard=False)[0] > 0


def test_no_late_move_pruning_where_a_king_is_in_danger() -> None:
    # Without null moves, the guard only switches late-move pruning off: another tree (with
    # no danger anywhere the trees are the same, the next test).
    guarded = _passes(danger=True, guard=True, null_move=False)[1]
    assert guarded != _passes(danger=True, guard=False, null_move=False)[1]


def test_the_guard_changes_nothing_where_no_king_is_in_danger() -> None:
    assert _passes(danger=False, guard=True) == _passes(danger=False, guard=False)
