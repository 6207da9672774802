"""Known results of the small games, and the conformance test every registered game must pass."""

from __future__ import annotations

import itertools
import random
from functools import reduce
from operator import xor
from typing import Any

import pytest

from sakiyomi.game import Game, GameError, MoveError, PositionError
from sakiyomi.games import BUILTIN, load
from sakiyomi.games.nim import Bones, Nim
from sakiyomi.games.tictactoe import TicTacToe, from_position
from sakiyomi.search import textbook
from sakiyomi.search.drivers import run
from sakiyomi.search.limits import Limits
from sakiyomi.search.searcher import SearchConfig, Searcher
from sakiyomi.search.solve import analyze, solve
from sakiyomi.search.validate import CheckedGame

# Positions each registered game's conformance test starts from (a game added to the registry
# without an entry here fails test_every_registered_game_has_conformance_positions).
CONFORMANCE_POSITIONS: dict[str, list[str]] = {
    "tree": ["[[3,5,1],[7,3,-4],[-3,0,3]]", "max:[[1,[2,3]],[4,5],-6]"],
    "bones": ["6", "9"],
    "nim": ["3,4,5", "1,1,2"],
    "tictactoe": ["start", "x...o...."],
    "connect4": ["", "4453"],
    "othello": ["start"],
    "chess": ["startpos", "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"],
    "shogi": ["startpos"],
}


def test_every_registered_game_has_conformance_positions() -> None:
    # Built-in games; a plugin game runs the same walk in its own tests (test_example_hex).
    assert set(BUILTIN) <= set(CONFORMANCE_POSITIONS)


def walk(game: Game[Any], rng: random.Random, plies: int) -> None:
    """Play random moves checking the protocol's promises at every step."""
    for _ in range(plies):
        moves = list(game.legal_moves())
        outcome = game.outcome()
        assert (outcome is None) == bool(moves), "outcome must be None exactly when moves exist"
        if not moves:
            return
        key, texts = game.key(), sorted(game.move_to_text(m) for m in moves)
        for move in moves:
            assert game.move_from_text(game.move_to_text(move)) == move
            game.play(move)
            game.undo()
            assert game.key() == key
            assert sorted(game.move_to_text(m) for m in game.legal_moves()) == texts
        game.play(rng.choice(moves))


@pytest.mark.parametrize("name", sorted(BUILTIN))
def test_conformance(name: str) -> None:
    rng = random.Random(1)
    for position in CONFORMANCE_POSITIONS[name]:
        try:
            game = load(name, position)
        except GameError as exc:
            pytest.skip(str(exc))
        start_key = game.key()
        copy = game.copy()
        walk(game, rng, 12)
        assert copy.key() == start_key, "copies must be independent"
        fresh = load(name, position)
        assert fresh.key() == start_key


@pytest.mark.parametrize("name", sorted(BUILTIN))
def test_conformance_of_every_answer_under_validation(name: str) -> None:
    # The validating mode (search.validate) checks what every game method answers: move lists,
    # integer keys, evaluations inside the heuristic range, undo restoring the position.
    for position in CONFORMANCE_POSITIONS[name]:
        try:
            game = load(name, position)
        except GameError as exc:
            pytest.skip(str(exc))
        if game.outcome() is not None:
            continue
        start_key = game.key()
        depth = 2 if name in ("chess", "shogi", "othello") else 4
        plain = run(Searcher(game, SearchConfig()), Limits(depth=depth))
        checked = run(Searcher(game, SearchConfig(validate=True)), Limits(depth=depth))
        assert (checked.value, checked.stats.nodes) == (plain.value, plain.stats.nodes)
        book = textbook.alphabeta(game, depth)
        watched = CheckedGame(game)
        assert textbook.alphabeta(watched, depth) == book
        assert game.key() == start_key


def _transposition_check(game: Game[Any], first: list[str], second: list[str]) -> None:
    for line in (first, second):
        for text in line:
            game.play(game.move_from_text(text))
        key = game.key()
        for _ in line:
            game.undo()
        if line is first:
            key_first = key
    assert key == key_first


def test_transposed_move_orders_give_equal_keys() -> None:
    _transposition_check(TicTacToe(), ["1", "5", "9"], ["9", "5", "1"])
    _transposition_check(Nim([3, 4, 5]), ["0:1", "1:2"], ["1:2", "0:1"])
    _transposition_check(Bones(9), ["1", "2", "3", "3"], ["3", "2", "1", "3"])


def test_bones_seed_004_results() -> None:
    assert solve(Bones(6)).extra["result"] == "win"
    assert solve(Bones(8)).extra["result"] == "loss"
    # The known theory: multiples of 4 lose for the side to move.
    for n in range(0, 20):
        word = solve(Bones(n), weak=True).extra["result"]
        assert word == ("loss" if n % 4 == 0 else "win"), n


@pytest.mark.parametrize("heaps", [list(h) for h in itertools.product(range(4), repeat=3)])
def test_nim_matches_bouton(heaps: list[int]) -> None:
    if not any(heaps):
        return
    expected = "win" if reduce(xor, heaps) else "loss"  # Bouton's theorem (1901)
    assert solve(Nim(heaps), weak=True).extra["result"] == expected
    assert solve(Nim(heaps)).extra["result"] == expected


def test_tictactoe_is_a_draw_by_every_algorithm() -> None:
    game = TicTacToe()
    assert solve(game).value == 0
    assert solve(game, weak=True).value == 0
    assert textbook.negamax(game).value == 0
    assert textbook.alphabeta(game).value == 0
    assert textbook.negascout(game).value == 0


def test_tictactoe_full_tree_counts_are_the_known_ones() -> None:
    # 255,168 possible games (Schaefer's count): minimax visits each finished game once.
    result = textbook.negamax(TicTacToe())
    assert result.leaves == 255168
    assert result.nodes == 549946


def test_tictactoe_analyze_finds_the_win() -> None:
    game = from_position("tictactoe", "xx.oo....")
    moves, _ = analyze(game)
    assert game.move_to_text(moves[0].move) == "3"
    assert moves[0].value > 0
    assert all(mv.value <= 0 for mv in moves[1:])


def test_tictactoe_depth_limited_evaluation_blocks_a_threat() -> None:
    game = from_position("tictactoe", "oo..x.x..")
    result = textbook.alphabeta(game, depth=2)
    assert game.move_to_text(result.pv[0]) == "3"


@pytest.mark.parametrize(
    ("name", "position"),
    [
        ("tictactoe", "xxx......"), ("tictactoe", "xxxooo..."), ("tictactoe", "abc"),
        ("tictactoe", "oo......."), ("nim", "3,-1"), ("nim", ""), ("bones", "six"),
        ("tree", "[1,"), ("tree", "[[1],[]]"), ("tree", '["a"]'), ("chequers", "x"),
    ],
)
def test_bad_positions_are_refused(name: str, position: str) -> None:
    with pytest.raises(GameError):
        load(name, position)


@pytest.mark.parametrize(
    ("name", "position", "move"),
    [("tictactoe", "x........", "1"), ("tictactoe", "start", "0"), ("tictactoe", "start", "a"),
     ("bones", "2", "3"), ("bones", "5", "4"), ("nim", "3,4", "2:1"), ("nim", "3,4", "0:4"),
     ("nim", "3,4", "x"), ("tree", "[1,2]", "2"), ("tree", "[1,2]", "-1")],
)
def test_bad_moves_are_refused(name: str, position: str, move: str) -> None:
    with pytest.raises(MoveError):
        load(name, position).move_from_text(move)


def test_position_error_is_a_game_error() -> None:
    assert issubclass(PositionError, GameError)


@pytest.mark.parametrize("heaps", [[1, 2, 3], [1, 2, 4], [2, 2], [3, 1], [5]])
def test_and_or_reading_agrees_with_weak_solving(heaps: list[int]) -> None:
    won = textbook.and_or(Nim(heaps)).value == 1
    assert won == (solve(Nim(heaps), weak=True).extra["result"] == "win")
    for n in range(1, 13):
        assert (textbook.and_or(Bones(n)).value == 1) == (n % 4 != 0)
    assert textbook.and_or(TicTacToe()).value == 0  # x cannot force a win
    assert textbook.and_or(from_position("tictactoe", "xx.oo....")).pv[0] == 2
