"""Delta pruning in shogi's quiescence (session 22): ``ShogiGame.noisy_gain`` and the engine's
USI option ``DeltaMargin`` for the Searcher's ``delta_margin``.
"""

from __future__ import annotations

from dataclasses import replace

from sakiyomi.games.shogi import KING_GAIN, ShogiGame
from sakiyomi.protocols import shogi_engine as se
from sakiyomi.search.drivers import run
from sakiyomi.search.limits import Limits
from sakiyomi.search.searcher import Searcher

# Our own positions: an opening after a bishop exchange offer, and a rook the bishop on 9i
# can take for nothing (test_shogi_hanging's).
EXCHANGE = ("7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "B*6e")
HANGING_ROOK = "4k4/ppp3ppp/9/9/4r4/9/PP4PPP/9/B4K3 b - 1"
KINGS = "4k4/9/9/9/9/9/9/4p4/4K4 b - 1"  # the black king can take the pawn on 5h


def test_the_gain_is_the_change_of_a_material_only_evaluation() -> None:
    # With komawari (no king-safety term) the evaluation is the incremental score itself.
    for sfen, moves in ((HANGING_ROOK, ()), (ShogiGame().sfen(), EXCHANGE)):
        game = ShogiGame(sfen, moves, evaluation="komawari")
        noisy = game.noisy_moves()
        assert noisy
        for move in noisy:
            before = game.evaluate()
            gain = game.noisy_gain(move)
            game.play(move)
            assert before + gain == -game.evaluate(), game.move_to_text(move)
            game.undo()


def test_a_kings_capture_is_never_pruned_with_king_relative_tables() -> None:
    game = ShogiGame(KINGS)  # the full evaluation: its cells depend on the kings' squares
    assert game.tables.king_relative
    take = game.move_from_text("5i5h")
    assert take in game.noisy_moves()
    assert game.noisy_gain(take) == KING_GAIN


def test_delta_pruning_saves_quiescence_moves_and_keeps_the_free_rook() -> None:
    config = replace(se.search_config(se.Options()), tt=False)
    assert config.delta_margin == se.DELTA_MARGIN
    plain = replace(config, delta_margin=0)
    pruned = replace(config, delta_margin=200)
    game_moves = ("7g7f", "3c3d", "2g2f", "8c8d", "2f2e", "8d8e", "6i7h", "4a3b", "2e2d",
                  "2c2d", "2h2d")
    plain_run = run(Searcher(ShogiGame(moves=game_moves), plain), Limits(depth=4))
    pruned_run = run(Searcher(ShogiGame(moves=game_moves), pruned), Limits(depth=4))
    assert pruned_run.stats.qnodes < plain_run.stats.qnodes
    taken = ShogiGame(HANGING_ROOK).move_from_text("9i5e")
    assert run(Searcher(ShogiGame(HANGING_ROOK), pruned), Limits(depth=3)).best_move == taken


def test_the_usi_option_sets_the_margin() -> None:
    options = se.Options()
    options.delta_margin = 300
    assert se.search_config(options).delta_margin == 300
