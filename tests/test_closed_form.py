"""Bones and Nim by formula (ClosedForm), cross-checked against the search that reads them."""

from __future__ import annotations

import itertools
import time
from functools import reduce
from operator import xor

import pytest

from sakiyomi.game import ClosedForm
from sakiyomi.games.nim import MAX_BONES, SEARCHED_OBJECTS, SEARCHED_STATES, Bones, Nim
from sakiyomi.score import MAX_PLY, is_loss, is_win, sign, win_in
from sakiyomi.search.searcher import SearchConfig, Searcher
from sakiyomi.search.solve import exact_value, solve


def searched_value(game: Nim) -> int:
    """The exact value by search alone (the formula is not consulted below solve())."""
    return exact_value(Searcher(game.copy(), SearchConfig()))


@pytest.mark.parametrize("n", [*range(1, 40), 101, 255, 256, 257, 258, 259])
def test_bones_formula_is_the_searched_value_with_its_distance(n: int) -> None:
    game = Bones(n)
    value, best = game.formula()
    assert value == searched_value(game)  # same value, same "win/loss in k plies"
    assert best is not None
    game.play(best)  # the formula's move keeps that value, one ply nearer the end
    assert -searched_value(game) == value + sign(value)


@pytest.mark.parametrize("heaps", [list(h) for h in itertools.product(range(5), repeat=3)
                                   if any(h)] + [[6, 1], [7, 2, 5, 1], [1, 1, 1, 1, 1]])
def test_nim_formula_agrees_with_search(heaps: list[int]) -> None:
    game = Nim(heaps)
    value, best = game.formula()
    searched = searched_value(game)
    assert sign(value) == sign(searched)
    assert is_win(value) or is_loss(value)
    if len([h for h in heaps if h]) > 1:
        assert abs(value) == win_in(MAX_PLY - 1)  # the distance is not known by formula
    assert best is not None and best in game.legal_moves()
    game.play(best)
    after = searched_value(game)
    assert (after < 0) if value > 0 else (after > 0)  # a winning move leaves a lost position


def test_capped_nim_of_several_heaps_follows_sprague_grundy() -> None:
    for heaps in itertools.product(range(7), repeat=2):
        if not any(heaps):
            continue
        game = Nim(list(heaps), max_take=2)
        value, _ = game.formula()
        assert sign(value) == sign(searched_value(game)), heaps


def test_small_positions_are_left_to_the_search() -> None:
    assert Bones(8).closed_form() is None
    assert Nim([3, 4, 5]).closed_form() is None
    result = solve(Bones(8))
    assert result.stats.nodes > 0 and "closed_form" not in result.extra
    assert len(result.pv) == 4  # the search's whole line: two rounds that take 4 bones each
    assert isinstance(Bones(8), ClosedForm)


def test_large_positions_are_solved_at_once_and_correctly() -> None:
    for n in (MAX_BONES, MAX_BONES - 1, MAX_BONES - 2, MAX_BONES - 3, SEARCHED_OBJECTS + 1):
        start = time.perf_counter()
        result = solve(Bones(n))
        assert time.perf_counter() - start < 1.0
        assert result.extra["closed_form"] is True and result.stats.nodes == 0
        assert result.extra["result"] == ("loss" if n % 4 == 0 else "win")
        taken = result.best_move[1] if result.best_move else 0
        assert (n - taken) % 4 == 0 or n % 4 == 0
    heaps = [10_000 - 2 * 1234 - 99, 1234, 1234, 99]
    result = solve(Nim(heaps))
    assert result.extra["result"] == "win" and result.best_move is not None
    heap, count = result.best_move
    after = list(heaps)
    after[heap] -= count
    assert reduce(xor, after) == 0  # Bouton: the move leaves a zero nim-sum


def test_weak_solve_by_formula_gives_the_sign() -> None:
    assert solve(Bones(MAX_BONES + 0), weak=True).value == -1
    assert solve(Bones(MAX_BONES - 1), weak=True).value == 1


def test_the_threshold_is_where_stated() -> None:
    side = 1
    while (side + 2) ** 2 <= SEARCHED_STATES:
        side += 1
    assert Nim([side, side]).closed_form() is None  # (side+1)^2 states: searched
    assert Nim([side + 1, side + 1]).closed_form() is not None
    assert Bones(SEARCHED_OBJECTS).closed_form() is None
    assert Bones(SEARCHED_OBJECTS + 1).closed_form() is not None
