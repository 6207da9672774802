"""Monte Carlo tree search: winning moves, exact proofs (against the αβ solver), convergence to
the minimax move on random trees, fixed seeds, limits, stopping and tree reuse.
"""

from __future__ import annotations

import ast
import os
import random
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, cast

import pytest

from sakiyomi.engines import analyze_position, mcts_for, solve_position
from sakiyomi.games import load
from sakiyomi.games.tictactoe import TicTacToe
from sakiyomi.games.tree import Tree, TreeGame, negamax_value, random_tree
from sakiyomi.score import result_word
from sakiyomi.search.limits import StopSignal
from sakiyomi.search.mcts import MCTS, MCTSConfig
from sakiyomi.search.solve import analyze, solve

PONS = Path(__file__).resolve().parent / "data" / "connect4" / "pons_original"


def winning_moves(game: Any) -> set[Any]:
    """The moves that keep a win, by the exact αβ analysis (the independent oracle)."""
    values, _ = analyze(game.copy(), None)
    return {mv.move for mv in values if mv.value > 0}


def pons(name: str, count: int) -> list[tuple[str, int]]:
    lines = [ln.split() for ln in (PONS / name).read_text().splitlines() if ln.strip()]
    return [(a, int(b)) for a, b in lines][:count]


# ---- playing strength: won positions --------------------------------------------------------


@pytest.mark.parametrize("position", ["xx.oo....", "x.o.x.o..", "xo.xo....", "oxx.o.x.."])
@pytest.mark.parametrize("solver", [True, False])
def test_finds_the_winning_move_in_won_tictactoe(position: str, solver: bool) -> None:
    game: Any = load("tictactoe", position)
    expected = winning_moves(game)
    assert expected, "the position must be won for the side to move"
    result = MCTS(game, MCTSConfig(solver=solver, seed=3)).search(3000)
    assert result.best_move in expected
    assert game.position_text() == position  # searched in place, restored


# Won middle-game positions of Pons's test set (Test_L2_R1, Test_L1_R1), where not every move
# wins: the winner's next stone but one completes four.
WON_CONNECT4 = ["7343363417254", "47611556754127222", "1456346777667336372",
                "5266416344462647", "1225772337767151", "225626516711326624"]


@pytest.mark.parametrize("moves", WON_CONNECT4)
@pytest.mark.parametrize(("solver", "engine"), [(True, "python"), (False, "python"),
                                                (True, "compiled"), (False, "compiled")])
def test_finds_the_winning_move_in_won_connect4(moves: str, solver: bool, engine: str) -> None:
    game: Any = load("connect4", moves)
    values, _ = analyze_position(game, None)  # the compiled αβ solver as the oracle
    expected = {mv.move for mv in values if mv.value > 0}
    assert 0 < len(expected) < len(game.legal_moves())
    search = mcts_for(game, MCTSConfig(seed=1, solver=solver, reward="result"), engine=engine)
    result = search.search(4000)
    assert result.best_move in expected
    assert game.position_text() == moves


@pytest.mark.parametrize("moves", WON_CONNECT4)
def test_score_rewards_keep_a_proven_win_over_busier_moves(moves: str) -> None:
    # With Pons's scores as rewards a win is proved with its margin, not shortcut: the move
    # that secures it must still be played while other moves are being disproved.
    game: Any = load("connect4", moves)
    values, _ = analyze_position(game, None)
    expected = {mv.move for mv in values if mv.value > 0}
    result = mcts_for(game, MCTSConfig(seed=1, reward="score")).search(3000)
    assert result.best_move in expected and result.value > 0


# ---- the solver: exact values, cross-checked with solve -------------------------------------


@pytest.mark.parametrize("position", ["xo.xo....", "xoxo.....", "x...o...x", "xox.o....",
                                      "o.x.x.o.x", "xoxoxo...", "........."])
def test_solver_proves_tictactoe_positions_exactly(position: str) -> None:
    game = load("tictactoe", position)
    exact = solve(game.copy())
    result = MCTS(game, MCTSConfig(seed=0)).search(200_000)
    assert result.extra["proven"] == result_word(exact.value)
    assert result.complete
    if result.extra["proven"] != "draw":  # a decisive score, the distance may differ
        assert (result.value > 0) == (exact.value > 0)
    # The move it plays keeps the proven result (checked by the αβ analysis).
    values, _ = analyze(game.copy(), None)
    by_move = {mv.move: mv.value for mv in values}
    assert result_word(by_move[result.best_move]) == result_word(exact.value)


@pytest.mark.parametrize(("moves", "score"), pons("Test_L3_R1", 4))
@pytest.mark.parametrize("reward", ["result", "score"])
@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_solver_proves_connect4_endgames(moves: str, score: int, reward: Any,
                                         engine: str) -> None:
    game = load("connect4", moves)
    search = mcts_for(game, MCTSConfig(seed=2, reward=reward), engine=engine)
    result = search.search(200_000)
    assert result.extra["proven"] == result_word(score)
    if reward == "score":  # Pons's exact score
        assert result.value == score


def _othello_endgame(seed: int, empties: int) -> Any:
    """A position reached by random moves from the start, ``empties`` squares left."""
    rng = random.Random(seed)
    game: Any = load("othello", "start")
    while game.empties() > empties and game.outcome() is None:
        moves = game.legal_moves()
        game.play(moves[rng.randrange(len(moves))])
    return game


@pytest.mark.parametrize("seed", range(3))
def test_compiled_solver_proves_othello_endgames(seed: int) -> None:
    game = _othello_endgame(seed, 8)
    exact = solve_position(game)
    result = mcts_for(game, MCTSConfig(seed=seed, reward="result")).search(300_000)
    assert result.extra["proven"] == result_word(exact.value)
    result = mcts_for(game, MCTSConfig(seed=seed, reward="score")).search(300_000)
    assert result.value == exact.value  # the final disc difference


@pytest.mark.parametrize("seed", range(8))
def test_solver_with_scores_proves_the_negamax_value_of_random_trees(seed: int) -> None:
    tree = random_tree(3, 4, seed, ragged=True)
    result = MCTS(TreeGame(tree), MCTSConfig(seed=seed)).search(100_000)  # auto: score
    assert result.complete and result.extra["proven"] is not None
    assert result.value == negamax_value(tree)


# ---- convergence without the solver ---------------------------------------------------------


def _regret(tree: Any, iterations: int, seed: int) -> int:
    """How much worse than the minimax move the chosen move is (0: a minimax move)."""
    game = TreeGame(tree)
    config = MCTSConfig(reward="score", solver=False, seed=seed)
    move = MCTS(game, config).search(iterations).best_move
    assert isinstance(move, int) and isinstance(tree, list)
    return negamax_value(tree) - (-negamax_value(tree[move]))


def test_choice_converges_to_the_minimax_move_on_random_trees() -> None:
    trees = [random_tree(3, 3, seed) for seed in range(12)]
    regrets = []
    for iterations in (20, 400, 8000):
        regrets.append(sum(_regret(t, iterations, 5) for t in trees))
    assert regrets[0] > 0  # a few iterations are not enough...
    assert regrets[0] >= regrets[1] >= regrets[2] == 0  # ...many are


def test_visits_concentrate_on_the_best_move() -> None:
    tree: Tree = [[5, 9], [-3, 20], [1, 2]]  # the moves are worth 5, -3 and 1 to the root
    assert negamax_value(tree) == 5
    result = MCTS(TreeGame(tree), MCTSConfig(reward="score", solver=False)).search(3000)
    visits = result.extra["visits"]
    assert isinstance(visits, dict)
    assert result.best_move == 0 and visits[0] > visits[1] + visits[2]
    assert result.pv == (0, 0) and abs(result.value - 5) <= 1


# ---- reproducibility, limits, stopping, reuse -----------------------------------------------


def _fingerprint(seed: int, game: Any, engine: str) -> tuple[object, ...]:
    result = mcts_for(game, MCTSConfig(seed=seed, solver=False), engine=engine).search(1500)
    return result.best_move, result.extra["visits"], result.stats.nodes, result.value


@pytest.mark.parametrize(("position", "engine"), [
    (("tictactoe", "x........"), "python"), (("connect4", "44"), "python"),
    (("connect4", "44"), "compiled"), (("othello", "start"), "compiled")])
def test_a_fixed_seed_gives_the_same_search(position: tuple[str, str], engine: str) -> None:
    a = _fingerprint(7, load(*position), engine)
    assert a == _fingerprint(7, load(*position), engine)
    assert a[1] != _fingerprint(8, load(*position), engine)[1]


PLAYOUTS = """
import numpy as np
from sakiyomi.compiled.template import build
from sakiyomi.games.othello.game import KERNEL_PARAMS
for name, params, words in [
        ("sakiyomi.games.connect4.kernels", {"WIDTH": 7, "HEIGHT": 6}, (0, 0, 0)),
        ("sakiyomi.games.othello.kernels", dict(KERNEL_PARAMS), (0x810000000, 0x1008000000))]:
    module = build(name, params)
    state = module.make_state(*words)
    rng = np.array([12345], dtype=np.uint64)
    buf = np.zeros(128, dtype=np.int64)
    print([tuple(int(x) for x in module.p_playout(state, rng, buf, smart))
           for smart in (False, True) for _ in range(20)])
"""


def test_compiled_playouts_match_plain_python(tmp_path: Path) -> None:
    # The same kernel text run as Python (NUMBA_DISABLE_JIT) and compiled: same games.
    runs = []
    for jit in ("0", "1"):
        env = {**os.environ, "NUMBA_DISABLE_JIT": jit, "SAKIYOMI_CACHE": str(tmp_path / jit)}
        out = subprocess.run([sys.executable, "-c", PLAYOUTS], env=env, capture_output=True,
                             text=True, timeout=600)
        assert out.returncode == 0, out.stderr
        runs.append(out.stdout)
    assert runs[0] == runs[1]
    first = ast.literal_eval(runs[0].splitlines()[0])
    assert len(set(first)) > 5  # different games, of plausible lengths
    assert all(7 <= plies <= 42 for _, plies in first)


def test_node_budget_and_iteration_limit() -> None:
    game = TicTacToe()
    result = MCTS(game, MCTSConfig(solver=False), stop=StopSignal(nodes=5000)).search()
    assert 5000 <= result.stats.nodes < 5000 + 11  # one iteration stands on at most 10
    assert not result.complete
    result = MCTS(game, MCTSConfig(solver=False)).search(123)
    assert result.extra["iterations"] == 123 == result.stats.leaves
    assert result.complete


def test_another_thread_stops_the_search() -> None:
    game: Any = load("connect4", "")
    stop = StopSignal()
    search = MCTS(game, MCTSConfig(), stop=stop)
    timer = threading.Timer(0.3, stop.stop)
    start = time.perf_counter()
    timer.start()
    result = search.search()  # no limit of its own
    elapsed = time.perf_counter() - start
    timer.join()
    assert elapsed < 5.0
    assert not result.complete and result.best_move is not None
    assert result.stats.leaves > 0
    assert game.position_text() == ""


def test_deadline_stops_the_search() -> None:
    result = MCTS(TicTacToe(), stop=StopSignal(seconds=0.2)).search()
    assert not result.complete and result.seconds < 3.0


def test_tree_is_reused_after_two_plies() -> None:
    game = TicTacToe()
    search = MCTS(game, MCTSConfig(seed=4))
    first = search.search(3000)
    assert first.best_move is not None
    game.play(first.best_move)
    reply = max(search.ranked(search.root)[0].children, key=lambda n: n.visits).move
    assert reply is not None
    game.play(reply)
    kept = search.set_game(game)
    assert kept > 0 and search.root.visits == kept
    second = search.search(500)
    assert second.extra["reused"] == kept
    assert search.root.visits == kept + cast(int, second.extra["iterations"])  # (fewer once proven)


def test_unrelated_position_starts_a_new_tree() -> None:
    search = MCTS(TicTacToe(), MCTSConfig(seed=4))
    search.search(500)
    assert search.set_game(load("tictactoe", "xo.xo.x..")) == 0


def test_finished_positions_and_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="already finished"):
        MCTS(load("tictactoe", "xxxoo....")).search(10)
    with pytest.raises(ValueError, match="exploration"):
        MCTSConfig(exploration=-1)
    with pytest.raises(ValueError, match="rollout_move"):
        MCTS(load("bones", "5"), MCTSConfig(rollout="game"))


def test_game_rollout_policy_is_used() -> None:
    game = TicTacToe()
    result = MCTS(game, MCTSConfig(rollout="game", seed=1)).search(2000)
    assert result.best_move is not None and game.position_text() == "........."
