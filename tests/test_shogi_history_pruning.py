"""History pruning (session 20): the Searcher's ``history_pruning_depth`` and
``history_pruning_credit`` and the shogi engine's USI switch ``HistoryPruning``."""

from __future__ import annotations

from dataclasses import replace

from sakiyomi.games.shogi import START, ShogiGame
from sakiyomi.protocols import shogi_engine as se
from sakiyomi.search.drivers import run
from sakiyomi.search.limits import Limits
from sakiyomi.search.searcher import SearchConfig, Searcher

# Our own positions: an opening line of our games, and a rook left en prise.
OPENING = ("7g7f", "3c3d", "2g2f", "8c8d", "2f2e", "8d8e", "6i7h", "4a3b", "2e2d", "2c2d",
           "2h2d")
HANGING_ROOK = "4k4/ppp3ppp/9/9/4r4/9/PP4PPP/9/B4K3 b - 1"


def engine_config(pruning: bool) -> SearchConfig:
    options = se.Options()
    options.switches["HistoryPruning"] = pruning
    return se.search_config(options)


def test_off_in_the_searcher_by_default_on_in_the_shogi_engine() -> None:
    assert SearchConfig().history_pruning_depth == 0
    assert se.search_config(se.Options()).history_pruning_depth == se.HISTORY_PRUNING_DEPTH
    assert engine_config(False).history_pruning_depth == 0


def test_the_usi_switch_sets_the_engine_constants() -> None:
    config = engine_config(True)
    assert config.history_pruning_depth == se.HISTORY_PRUNING_DEPTH > 0
    assert config.history_pruning_credit == se.HISTORY_PRUNING_CREDIT


# Four opening lines of our games: a single position's tree may grow with the pruning (the
# first did with session 23's refitted evaluation, 6,815 -> 7,682), the sum shrinks (-7 %).
LINES = (OPENING, ("7g7f", "3c3d", "2g2f", "8c8d", "5i5h", "7a7b"),
         ("2g2f", "8c8d", "2f2e", "8d8e", "6i7h", "4a3b", "3i3h", "7a7b"),
         ("7g7f", "8c8d", "6g6f", "3c3d", "7i6h", "7a6b"))


def test_history_pruning_saves_nodes_at_the_same_depth() -> None:
    def nodes(pruning: bool) -> int:
        return sum(run(Searcher(ShogiGame(START, line), engine_config(pruning)),
                       Limits(depth=6)).stats.nodes for line in LINES)

    assert nodes(True) < nodes(False)


def test_no_move_is_pruned_when_no_credit_is_too_small() -> None:
    """History credit is never negative without the malus: a threshold of 0 prunes nothing,
    so the search is the one without pruning, node for node."""
    plain = run(Searcher(ShogiGame(START, OPENING), engine_config(False)), Limits(depth=5))
    config = replace(engine_config(True), history_pruning_credit=0)
    same = run(Searcher(ShogiGame(START, OPENING), config), Limits(depth=5))
    assert same.stats.nodes == plain.stats.nodes and same.best_move == plain.best_move


def test_a_capture_is_never_history_pruned() -> None:
    """Only quiet moves are pruned: the rook left en prise is still taken."""
    game = ShogiGame(HANGING_ROOK)
    taken = game.move_from_text("9i5e")
    result = run(Searcher(game, engine_config(True)), Limits(depth=4))
    assert result.best_move == taken


def test_the_shallowest_setting_prunes_less_than_a_deeper_one() -> None:
    shallow = replace(engine_config(True), history_pruning_depth=1)
    deeper = replace(engine_config(True), history_pruning_depth=3)
    first = run(Searcher(ShogiGame(START, OPENING), shallow), Limits(depth=6))
    second = run(Searcher(ShogiGame(START, OPENING), deeper), Limits(depth=6))
    assert first.stats.nodes != second.stats.nodes
