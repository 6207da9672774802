"""The recorder: it sees exactly the nodes every algorithm counts, and tracing changes nothing."""

from __future__ import annotations

import pytest

from sakiyomi.games.tictactoe import TicTacToe
from sakiyomi.games.tree import Tree, TreeGame, negamax_value, random_tree
from sakiyomi.search.algorithms import NAMES, get
from sakiyomi.search.drivers import run
from sakiyomi.search.limits import Limits
from sakiyomi.search.searcher import SearchConfig, Searcher
from sakiyomi.viz.trace import TraceCapError, TreeRecorder


@pytest.mark.parametrize("algorithm", [n for n in NAMES if get(n).traceable])
@pytest.mark.parametrize("seed", range(4))
def test_recorder_sees_every_counted_node(algorithm: str, seed: int) -> None:
    tree = random_tree(3, 4, seed, ragged=True)
    game = TreeGame(tree)
    recorder = TreeRecorder(game, view=get(algorithm).form)
    result = get(algorithm).run(game, None, recorder)
    assert recorder.nodes == result.nodes
    assert sum(root.count() for root in recorder.roots) == result.nodes
    expected = negamax_value(tree)
    assert result.value == (int(expected > 0) if algorithm == "and-or" else expected)
    # Every node was closed with a value; the last root carries the answer.
    assert all(n.value is not None for r in recorder.roots for n in r.walk() if n.searched)
    assert recorder.last_root.value == result.value
    assert game.node == 0  # the game is back at the root


def test_tracing_does_not_change_the_searcher() -> None:
    plain = Searcher(TicTacToe(), SearchConfig())
    game = TicTacToe()
    recorded = Searcher(game, SearchConfig(), tracer=TreeRecorder(game))
    a = run(plain, Limits(depth=5))
    b = run(recorded, Limits(depth=5))
    assert (a.value, a.pv, a.stats.as_dict()) == (b.value, b.pv, b.stats.as_dict())


def test_pruned_moves_are_the_unsearched_siblings() -> None:
    # Each cut node lists every move exactly once: searched children first, then pruned.
    tree = random_tree(4, 4, 5)
    game = TreeGame(tree)
    recorder = TreeRecorder(game)
    get("alphabeta").run(game, None, recorder)
    cuts = [n for n in recorder.last_root.walk() if n.cut is not None]
    assert cuts
    for node in cuts:
        moves = [c.move for c in node.children]
        assert sorted(moves) == list(range(4))  # type: ignore[type-var]
        flags = [c.pruned for c in node.children]
        assert flags == sorted(flags)  # searched ones, then (possibly no) pruned ones
    assert any(c.pruned for n in cuts for c in n.children)


def test_pruned_subtrees_show_the_real_leaves() -> None:
    # Seed 002 figure-1-style tree: αβ prunes K only; the recorder draws K's own leaf value.
    tree: Tree = [[[40, 55], [60, 20]], [[70, 80], [65, 50]]]
    game = TreeGame(tree, first_player_leaves=True)
    recorder = TreeRecorder(game, view="minmax")
    get("alphabeta-minmax").run(game, None, recorder)
    pruned = [n for n in recorder.last_root.walk() if n.pruned]
    assert [(n.move, n.value) for n in pruned] == [(1, 20)]


def test_node_cap_stops_with_a_clear_message() -> None:
    game = TicTacToe()
    recorder = TreeRecorder(game, cap=50)
    with pytest.raises(TraceCapError, match="more than 50 nodes"):
        get("minimax").run(game, 3, recorder)


def test_pruned_budget_limits_drawn_pruned_positions() -> None:
    game = TicTacToe()
    recorder = TreeRecorder(game, pruned_budget=30)
    get("alphabeta").run(game, 4, recorder)
    # The skipped moves themselves are always kept; their subtrees only within the budget.
    below = sum(1 for r in recorder.roots for n in r.walk() if n.pruned
                for c in n.children)
    assert 0 < below <= 30
    assert recorder.pruned_dropped > 0
