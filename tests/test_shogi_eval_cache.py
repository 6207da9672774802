"""The full evaluation remembered by position key (``ShogiGame.evaluate``, session 24): the
same value as computing it afresh, after moves, passes and take-backs, and a bounded memory;
and the incremental score after a king move, remembered the same way."""

from __future__ import annotations

import pytest

from sakiyomi.games import shogi
from sakiyomi.games import shogi_eval as ev
from sakiyomi.games import shogi_facade as cs
from sakiyomi.games.shogi import ShogiGame
from tests.shogi_data import random_positions


def test_remembered_values_equal_fresh_ones_along_moves_passes_and_undos() -> None:
    checked = 0
    for game in random_positions(20, seed=31):
        sfen = game.sfen()
        first = game.evaluate()
        assert first == game.evaluate() == ShogiGame(sfen).evaluate()
        for move in list(game.legal_moves())[:12]:
            game.play(move)
            value = game.evaluate()
            assert value == ShogiGame(game.sfen()).evaluate()
            if not game.board.is_check():
                game.play_null()
                assert game.evaluate() == ShogiGame(game.sfen()).evaluate()
                game.undo_null()
                assert game.evaluate() == value
            game.undo()
            checked += 1
        assert game.evaluate() == first
    assert checked > 200


def test_king_moves_rescored_or_remembered_give_the_same_incremental_score() -> None:
    # King-relative tables rescore every cell after a king move; the score is remembered by
    # position key, so the same king move played twice must give the same score as a rescore.
    kings = 0
    for game in random_positions(20, seed=41):
        assert game._king_relative  # the default tables: the remembered path is taken
        for move in game.legal_moves():
            if (move >> 16) & 0xF != cs.KING:
                continue
            for _ in range(2):
                game.play(move)
                assert game._score[-1] == ev.board_score(game.tables, game.board)
                game.undo()
            kings += 1
    assert kings > 40


def test_the_side_to_move_matters() -> None:
    # The same placement with the other side to move: the key differs, so does the value.
    black = ShogiGame("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 1")
    white = ShogiGame("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 1")
    assert black.evaluate() != white.evaluate()
    assert black.evaluate() == ShogiGame(black.sfen()).evaluate()


def test_the_memory_is_emptied_when_full(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shogi, "EVAL_CACHE_ENTRIES", 5)
    game = random_positions(1, seed=5)[0]
    for move in list(game.legal_moves())[:12]:
        game.play(move)
        game.evaluate()
        assert len(game._evals) <= 5
        game.undo()
    assert 1 <= len(game._evals) <= 5


def test_the_baseline_evaluation_keeps_no_memory() -> None:
    game = ShogiGame(evaluation="komawari")
    game.evaluate()
    assert not game._evals
