"""Counts from cshogi's move lists without the moves as Python ints (session 28):
``ShogiGame._has_moves`` (the finished-game test) and ``_checks_count`` (the threat terms'
checks) agree with the lists themselves, before and after the lists are made."""

from __future__ import annotations

from sakiyomi.games.shogi import ShogiGame
from tests.shogi_data import random_positions

MATED = "4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1"  # white's king on 5a, the gold on 5b defended


def test_has_moves_is_whether_the_list_is_empty() -> None:
    games = [*random_positions(80, seed=281), ShogiGame(MATED)]
    for game in games:
        fresh = game._has_moves()
        assert fresh == bool(list(game.board.legal_moves)), game.sfen()
        game.legal_moves()  # the list made: answered from it
        assert game._has_moves() == fresh
    assert not ShogiGame(MATED)._has_moves()
    outcome = ShogiGame(MATED).outcome()
    assert outcome is not None and outcome.reason == "checkmate"


def test_checks_count_is_the_checking_moves() -> None:
    counts = set()
    for game in random_positions(80, seed=282):
        fresh = game._checks_count()
        assert fresh == len(game.checking_moves()), game.sfen()
        game.may_give_check(0)  # the set made: answered from it
        assert game._checks_count() == fresh
        counts.add(fresh)
    assert len(counts) > 3
