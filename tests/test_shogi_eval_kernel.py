"""The evaluation-time terms in one kernel call (session 28): ``shogi_eval_kernel.BoardTerms``
against the Python definitions of ``shogi_eval`` (king danger, mobility, king zone, the
weighted threat features) for every evaluation, and ``ShogiGame.evaluate`` built on it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from sakiyomi.games import shogi_eval as ev
from sakiyomi.games import shogi_facade as cs
from sakiyomi.games.shogi import ShogiGame
from sakiyomi.games.shogi_eval_kernel import BoardTerms
from sakiyomi.games.shogi_threats import MAX_CHECKS, ThreatMaps
from tests.shogi_data import random_positions

POSITIONS = random_positions(150, seed=280)
# Every evaluation with terms at evaluation time, and the fitted one with other threat
# weights: the kernel reads its weights from the tables, not from compiled-in constants.
TABLES = [tables for tables in ev.EVALUATIONS.values() if tables.safety] + [
    replace(ev.FITTED, name="reweighted", zone=35, safety_percent=130,
            threats=tuple(3 * w + 7 for w in ev.FITTED.threats))]


def checks(board: cs.CBoard) -> int:
    return min(len(list(board.check_moves)), MAX_CHECKS)


def reference(tables: ev.Tables, board: cs.CBoard) -> int:
    """The terms by the Python definitions, the side to move's view."""
    pieces = board.pieces
    black_hand, white_hand = board.pieces_in_hand
    black_king, white_king = board.king_square(cs.BLACK), board.king_square(cs.WHITE)
    black = ev.king_danger(tables, board, cs.WHITE, black_hand) \
        - ev.king_danger(tables, board, cs.BLACK, white_hand) \
        + tables.mobility * ev.slider_mobility(pieces)
    if tables.zone:
        black += ev.king_zone(tables, pieces, white_king, cs.WHITE, black_hand) \
            - ev.king_zone(tables, pieces, black_king, cs.BLACK, white_hand)
    score = -black if board.turn == cs.WHITE else black
    if tables.threats:
        maps = ThreatMaps(tables.material, tables.threats)
        features = ev.threat_features(maps, board, pieces, tables.hand_threat)
        score += sum(w * f for w, f in zip(tables.threats, features, strict=True)) // 100
    return score


@pytest.mark.parametrize("tables", TABLES, ids=lambda tables: tables.name)
def test_the_kernel_is_the_python_terms(tables: ev.Tables) -> None:
    terms = BoardTerms(tables)
    scores = set()
    for game in POSITIONS:
        board = game.board
        got = terms.score(board.pieces, board.pieces_in_hand, board.turn, checks(board))
        assert got == reference(tables, board), game.sfen()
        scores.add(got)
    assert len(scores) > 50  # the positions do exercise the terms


def test_each_term_shows_in_the_kernels_score() -> None:
    # A white rook on 5e next to black's bishop on 5h (next to black's king), a gold in
    # black's hand: switching one weight off at a time changes the score, so no term is
    # silently dropped.
    board = ShogiGame("4k4/9/9/9/4r4/9/9/4B4/4K4 b G 1").board
    args = (board.pieces, board.pieces_in_hand, board.turn, checks(board))
    every = replace(ev.FITTED, zone=40)
    full = BoardTerms(every).score(*args)
    for change in ({"mobility": 0}, {"zone": 0}, {"safety_percent": 0},
                   {"threats": (0,) * len(ev.FITTED.threats)}):
        tables = replace(every, **change)
        assert BoardTerms(tables).score(*args) == reference(tables, board) != full, change


@pytest.mark.parametrize("name", [name for name, tables in ev.EVALUATIONS.items()
                                  if tables.safety])
def test_evaluate_is_the_incremental_score_plus_the_terms(name: str) -> None:
    for game in POSITIONS[:60]:
        game = game.with_settings(name, 1)
        board, tables = game.board, game.tables
        black = ev.board_score(tables, board)
        expected = (-black if board.turn == cs.WHITE else black) + reference(tables, board) \
            + tables.tempo - game.mate_threat_penalty(board)
        assert game.evaluate() == expected, game.sfen()


@pytest.mark.parametrize("tables", [ev.FITTED, ev.FULL, ev.KOMAWARI], ids=lambda t: t.name)
def test_board_score_is_the_cells_and_hands(tables: ev.Tables) -> None:
    # ``board_score`` writes ``Tables.cell`` out; here it is called piece by piece.
    for game in POSITIONS[:60]:
        board = game.board
        kings = board.king_square(cs.BLACK), board.king_square(cs.WHITE)
        total = 0
        for square, piece in enumerate(board.pieces):
            if piece:
                white = piece >> 4 == cs.WHITE
                cell = tables.cell(piece & 0xF, square, kings[white], kings[not white], white)
                total += -cell if white else cell
        for kind, (ours, theirs) in enumerate(zip(*board.pieces_in_hand, strict=True)):
            total += tables.hand[kind][ours] - tables.hand[kind][theirs]
        assert ev.board_score(tables, board) == total, game.sfen()
