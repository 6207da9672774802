"""The compiled rescoring (session 28): ``shogi_rescore.Rescorer`` against
``shogi_eval.board_score`` on random positions, for each evaluation's tables."""

from __future__ import annotations

import pytest

from sakiyomi.games import shogi_eval as ev
from sakiyomi.games.shogi_rescore import NO_KING, Rescorer, cell_array
from tests.shogi_data import random_positions

POSITIONS = random_positions(120, seed=285)


@pytest.mark.parametrize("tables", list(ev.EVALUATIONS.values()), ids=lambda t: t.name)
def test_the_kernel_is_board_score(tables: ev.Tables) -> None:
    rescorer = Rescorer(tables)
    scores = set()
    for game in POSITIONS:
        board = game.board
        got = rescorer.score(board.pieces, board.pieces_in_hand)
        assert got == ev.board_score(tables, board), game.sfen()
        scores.add(got)
    assert len(scores) > 30


def test_the_layout_follows_shogi_eval() -> None:
    assert NO_KING == ev.NO_KING
    assert cell_array(ev.FITTED) is cell_array(ev.FITTED)  # made once per tables
    assert cell_array(ev.FITTED) is not cell_array(ev.FULL)
