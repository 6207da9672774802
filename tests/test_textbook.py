"""The textbook algorithms against the seeds' worked example, each other, and αβ theory."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sakiyomi.games.tree import (
    Tree,
    TreeGame,
    negamax_value,
    random_tree,
    sort_best_first,
    to_first_player_convention,
)
from sakiyomi.score import INF
from sakiyomi.search import textbook
from sakiyomi.search.searcher import SearchConfig, Searcher

SEED_000: Tree = [[3, 5, 1], [7, 3, -4], [-3, 0, 3]]

ALGORITHMS: dict[str, Any] = {
    "minimax": textbook.minimax,
    "negamax": textbook.negamax,
    "alphabeta-minmax-hard": lambda g: textbook.alphabeta_minmax(g, fail_soft=False),
    "alphabeta-minmax": textbook.alphabeta_minmax,
    "alphabeta-hard": lambda g: textbook.alphabeta(g, fail_soft=False),
    "alphabeta": textbook.alphabeta,
    "negascout": textbook.negascout,
}

trees = st.builds(
    random_tree,
    branching=st.integers(1, 4),
    depth=st.integers(0, 5),
    seed=st.integers(0, 2**32),
    ragged=st.booleans(),
    low=st.just(-20),
    high=st.just(20),
)


def test_seed_000_example_values() -> None:
    game = TreeGame(SEED_000)
    children = []
    for move in range(3):
        game.play(move)
        children.append(textbook.negamax(game).value)
        game.undo()
    assert children == [-1, 4, 3]  # E1, E2, E3 as printed in seed 000
    result = textbook.negamax(game)
    assert result.value == 1
    assert result.pv[0] == 0
    assert (result.nodes, result.leaves) == (13, 9)


def test_seed_000_example_in_minmax_convention_gives_same_root() -> None:
    game = TreeGame(to_first_player_convention(SEED_000), first_player_leaves=True)
    assert textbook.minimax(game).value == 1
    assert textbook.minimax(game).pv[0] == 0


@given(trees, st.booleans())
def test_every_algorithm_agrees_on_random_trees(tree: Tree, minmax_convention: bool) -> None:
    if minmax_convention:
        game = TreeGame(to_first_player_convention(tree), first_player_leaves=True)
    else:
        game = TreeGame(tree)
    expected = negamax_value(tree)  # direct recursion, independent of the Game machinery
    for name, algorithm in ALGORITHMS.items():
        result = algorithm(game)
        assert result.value == expected, name
        assert game.node == 0, f"{name} did not restore the position"
    searcher = Searcher(game.copy(), SearchConfig())
    assert searcher.search(64) == expected
    no_tt = Searcher(game.copy(), SearchConfig(tt=False, pvs=False, ordering=False))
    assert no_tt.search(64) == expected


def _pv_value(tree: Tree, pv: tuple[int, ...]) -> int:
    """Value of the leaf the PV ends at, for the side to move at the root."""
    node = tree
    for move in pv:
        assert isinstance(node, list)
        node = node[move]
    assert isinstance(node, int)
    return node if len(pv) % 2 == 0 else -node


@given(trees)
def test_principal_variation_reaches_the_value(tree: Tree) -> None:
    game = TreeGame(tree)
    for name in ("minimax", "negamax", "alphabeta", "negascout"):
        result = ALGORITHMS[name](game)
        assert _pv_value(tree, result.pv) == result.value, name
    searcher = Searcher(game.copy(), SearchConfig())
    value = searcher.search(64)
    assert _pv_value(tree, searcher.pv) == value


windows = st.tuples(st.integers(-25, 25), st.integers(1, 20))


@given(trees, windows)
def test_fail_soft_contract_for_random_windows(tree: Tree, window: tuple[int, int]) -> None:
    alpha, width = window
    beta = alpha + width
    true = negamax_value(tree)
    game = TreeGame(tree)
    results = {
        "alphabeta": textbook.alphabeta(game, alpha=alpha, beta=beta).value,
        "alphabeta-minmax": textbook.alphabeta_minmax(game, alpha=alpha, beta=beta).value,
        "negascout": textbook.negascout(game, alpha=alpha, beta=beta).value,
        "searcher": Searcher(game.copy()).search(64, alpha, beta),
    }
    for name, v in results.items():
        if v <= alpha:
            assert true <= v, name
        elif v >= beta:
            assert true >= v, name
        else:
            assert v == true, name
    hard = textbook.alphabeta(game, alpha=alpha, beta=beta, fail_soft=False).value
    assert alpha <= hard <= beta
    assert hard == max(alpha, min(beta, true))


@pytest.mark.parametrize(("b", "d"), [(2, 3), (3, 4), (4, 3), (2, 8), (5, 4), (3, 6)])
def test_perfect_ordering_visits_the_knuth_moore_minimal_tree(b: int, d: int) -> None:
    for seed in range(5):
        tree = sort_best_first(random_tree(b, d, seed, low=-999_000, high=999_000))
        game = TreeGame(tree)
        minimal = b ** ((d + 1) // 2) + b ** (d // 2) - 1
        for fail_soft in (True, False):
            assert textbook.alphabeta(game, fail_soft=fail_soft).leaves == minimal
            assert textbook.alphabeta_minmax(game, fail_soft=fail_soft).leaves == minimal
        assert textbook.negascout(game).leaves == minimal
        assert textbook.minimax(game).leaves == b**d


def test_worst_ordering_costs_more_than_best() -> None:
    tree = random_tree(3, 5, 7)
    best = sort_best_first(tree)

    def reverse(t: Tree) -> Tree:
        return t if isinstance(t, int) else [reverse(c) for c in reversed(t)]

    worst = reverse(best)
    good = textbook.alphabeta(TreeGame(best)).leaves
    bad = textbook.alphabeta(TreeGame(worst)).leaves
    assert good < bad <= 3**5


def test_deterministic_node_counts() -> None:
    tree = random_tree(4, 6, 11, ragged=True)
    runs = {(r.nodes, r.leaves) for r in (textbook.negascout(TreeGame(tree)) for _ in range(3))}
    assert len(runs) == 1
    counts = set()
    for _ in range(3):
        s = Searcher(TreeGame(tree))
        s.search(64)
        counts.add((s.stats.nodes, s.stats.leaves, s.pv))
    assert len(counts) == 1


def test_window_outside_value_returns_bound() -> None:
    game = TreeGame(SEED_000)
    assert textbook.alphabeta(game, alpha=5, beta=9).value <= 5
    assert textbook.alphabeta(game, alpha=-9, beta=-5).value >= -5
    assert textbook.alphabeta(game, alpha=-INF, beta=INF).value == 1


@given(trees)
def test_searcher_without_enhancements_visits_exactly_what_the_textbook_does(tree: Tree) -> None:
    plain = SearchConfig(tt=False, ordering=False, pvs=False)
    scout = SearchConfig(tt=False, ordering=False, pvs=True)
    for config, reference in ((plain, textbook.alphabeta), (scout, textbook.negascout)):
        searcher = Searcher(TreeGame(tree), config)
        value = searcher.search(64)
        expected = reference(TreeGame(tree))
        assert value == expected.value
        assert (searcher.stats.nodes, searcher.stats.leaves) == (expected.nodes, expected.leaves)
        assert searcher.pv == expected.pv
