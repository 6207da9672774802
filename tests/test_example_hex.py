"""The Hex example (examples/hex): a game written as kernels outside the package.

Its rules are checked against a naive board (cells in a list, connection by breadth-first
search), its solved values against a memoised minimax written here, and its two engines
against each other: the compiled template built from a kernel module outside ``sakiyomi``
and the Python Searcher over the game class must give the same values, PVs and node counts.
"""

from __future__ import annotations

import functools
import os
import random
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "hex"
if str(EXAMPLE) not in sys.path:
    sys.path.insert(0, str(EXAMPLE))  # the example package, as a user would put it on the path

from sakiyomi_hex.game import Hex, from_position  # noqa: E402

from sakiyomi.compiled.template import build  # noqa: E402
from sakiyomi.engines import CompiledEngine, engine_for, solve_position  # noqa: E402
from sakiyomi.game import MoveError, Player, PositionError  # noqa: E402
from sakiyomi.score import WIN  # noqa: E402
from sakiyomi.search.drivers import run  # noqa: E402
from sakiyomi.search.engine import Engine  # noqa: E402
from sakiyomi.search.limits import Limits  # noqa: E402
from sakiyomi.search.searcher import SearchConfig, Searcher  # noqa: E402
from sakiyomi.search.solve import analyze, solve  # noqa: E402
from tests.test_games import walk  # noqa: E402

# ---- an independent model: a list of cells, connection by breadth-first search ------------

Board = tuple[int, ...]  # cell r*n+c: 0 empty, 1 X, 2 O


def neighbours(cell: int, n: int) -> list[int]:
    r, c = divmod(cell, n)
    out = []
    for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0), (1, -1), (-1, 1)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < n and 0 <= cc < n:
            out.append(rr * n + cc)
    return out


def joined(board: Board, n: int, side: int) -> bool:
    """X (1) joins row 0 to row n-1; O (2) column 0 to column n-1."""
    starts = [i for i in range(n * n) if board[i] == side
              and (i // n == 0 if side == 1 else i % n == 0)]
    seen = set(starts)
    todo = list(starts)
    while todo:
        cell = todo.pop()
        if (cell // n == n - 1) if side == 1 else (cell % n == n - 1):
            return True
        for nb in neighbours(cell, n):
            if board[nb] == side and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return False


@functools.cache
def oracle(board: Board, n: int) -> int:
    """Exact value for the side to move, in sakiyomi's units: a win ``p`` plies ahead is
    ``WIN - p``, a loss ``-(WIN - p)`` (plain memoised negamax over every move).
    """
    stones = sum(1 for v in board if v)
    side = 1 if stones % 2 == 0 else 2
    if joined(board, n, 3 - side):
        return -WIN
    best = -WIN - 1
    for cell in range(n * n):
        if board[cell] == 0:
            child = (*board[:cell], side, *board[cell + 1:])
            best = max(best, from_parent(oracle(child, n)))
    return best


def from_parent(value: int) -> int:
    """A child's value seen from its parent: negated, and a decided result one ply further."""
    return -(value - 1) if value > 0 else -(value + 1) if value < 0 else 0


def naive_board(game: Hex) -> Board:
    black, white = game.stones()
    return tuple(1 if black >> i & 1 else 2 if white >> i & 1 else 0
                 for i in range(game.size * game.size))


def random_position(rng: random.Random, size: int, stones: int) -> Hex:
    """A game still going on with ``stones`` stones (random moves, retried until so)."""
    while True:
        game = Hex(size)
        while len(game._past) < stones and game.legal_moves():
            game.play(rng.choice(list(game.legal_moves())))
        if len(game._past) == stones and game.outcome() is None:
            return game


# ---- rules --------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [2, 3, 4, 5, 7])
def test_random_games_agree_with_the_naive_board(size: int) -> None:
    rng = random.Random(size)
    for _ in range(40):
        game = Hex(size)
        board = [0] * (size * size)
        while True:
            assert naive_board(game) == tuple(board)
            x_won, o_won = joined(tuple(board), size, 1), joined(tuple(board), size, 2)
            outcome = game.outcome()
            if x_won or o_won:
                assert not (x_won and o_won)
                assert outcome is not None and outcome.winner == (
                    Player.FIRST if x_won else Player.SECOND)
                assert game.legal_moves() == []
                break
            assert outcome is None  # a full board always has a winner: never reached here
            legal = list(game.legal_moves())
            assert sorted(legal) == [i for i in range(size * size) if board[i] == 0]
            key = game.key()
            move = rng.choice(legal)
            board[move] = 1 if game.to_move == Player.FIRST else 2
            game.play(move)
            game.undo()
            assert game.key() == key
            game.play(move)


def test_keys_are_exact_up_to_five_by_five() -> None:
    rng = random.Random(5)
    seen: dict[int, Board] = {}
    for _ in range(3000):
        game = random_position(rng, 5, rng.randrange(0, 12))
        board = naive_board(game)
        assert seen.setdefault(game.key(), board) == board


def test_hex_passes_the_conformance_walk() -> None:
    rng = random.Random(2)
    for text in ("start", "b2 c3", "3x3:b2", "7x7:d4 c5"):
        game = from_position("hex", text)
        key, copy = game.key(), game.copy()
        walk(game, rng, 12)
        assert copy.key() == key and from_position("hex", text).key() == key
        if game.outcome() is None:  # every answer checked by the validating mode
            plain = run(Searcher(game, SearchConfig()), Limits(depth=3))
            checked = run(Searcher(game, SearchConfig(validate=True)), Limits(depth=3))
            assert (checked.value, checked.stats.nodes) == (plain.value, plain.stats.nodes)


def test_transposed_move_orders_give_equal_keys() -> None:
    assert from_position("hex", "a1 b2 c3 d4").key() == from_position("hex", "c3 d4 a1 b2").key()
    assert from_position("hex", "a1 b2").key() != from_position("hex", "b2 a1").key()


def test_position_and_move_text() -> None:
    game = from_position("hex", "5x5:c3,a1 e5")
    assert game.size == 5 and len(game._past) == 3 and game.to_move == Player.SECOND
    assert [game.move_to_text(m) for m in (0, 4, 24)] == ["a1", "e1", "e5"]
    assert game.move_from_text(" b4 ") == 16
    assert from_position("hex", "start").key() == from_position("hex", "").key()
    assert str(from_position("hex", "3x3:a1b2")).splitlines() == [
        "  a  b  c", " 1 X  .  .", "  2 .  O  .", "   3 .  .  ."]


@pytest.mark.parametrize(("text", "words"), [
    ("a1 a1", "already taken"), ("e1", "off the board"), ("a0", "off the board"),
    ("a1 zz", "cells such as"), ("a1 b", "cells such as"), ("3x4:a1", "square"),
    ("9x9:", "2x2 to 7x7"), ("3x3:a1 b1 a2 b2 a3 b3", "after the game is over"),
])
def test_bad_positions_say_what_is_wrong(text: str, words: str) -> None:
    with pytest.raises(PositionError, match=words):
        from_position("hex", text)


def test_bad_moves_say_what_is_wrong() -> None:
    game = from_position("hex", "b2")
    for text, words in (("b2", "taken"), ("q", "cell such as"), ("d5", "off the board")):
        with pytest.raises(MoveError, match=words):
            game.move_from_text(text)


def test_score_bounds_hold_the_oracle_values() -> None:
    rng = random.Random(3)
    for size in (2, 3, 4):
        for _ in range(40):
            game = random_position(rng, size, rng.randrange(0, min(size * size - 1, 9)))
            if size == 4 and len(game._past) < 7:
                continue
            lo, hi = game.score_bounds()
            assert lo <= oracle(naive_board(game), size) <= hi


# ---- solving: oracle and both engines ------------------------------------------------------


def positions() -> list[Hex]:
    rng = random.Random(11)
    games = [Hex(3), from_position("hex", "3x3:b2"), from_position("hex", "3x3:a1"),
             from_position("hex", "3x3:c1 b2")]
    games += [random_position(rng, 4, stones) for stones in (7, 8, 8, 9, 10, 11)]
    return games


def counters(engine: Engine[Any]) -> tuple[int, ...]:
    s = engine.stats
    return (s.nodes, s.leaves, s.tt_probes, s.tt_hits, s.tt_cutoffs, s.cutoffs,
            s.first_move_cutoffs, s.researches, s.seldepth)


CONFIGS = [
    SearchConfig(),  # solver_config of a game without settings: the defaults
    SearchConfig(killers=False, history=False, bisection="pons"),
    SearchConfig(tt_capacity=1 << 6, pvs=False),  # a tiny table: replacement everywhere
    SearchConfig(tt=False, hints=False),
]


def test_exact_values_match_the_oracle_on_both_engines() -> None:
    for game in positions():
        expected = oracle(naive_board(game), game.size)
        for kind in ("compiled", "python"):
            result = solve_position(game, engine=kind)
            assert result.extra["engine"] == kind
            assert result.value == expected, (str(game), kind)
            line = game.copy()  # the PV is a legal line that ends the game on schedule
            for move in result.pv:
                assert move in line.legal_moves()
                line.play(move)
            assert line.outcome() is not None and len(result.pv) == WIN - abs(expected)


@pytest.mark.parametrize("config", CONFIGS, ids=["default", "pons", "tiny-tt", "no-tt"])
def test_engines_agree_node_for_node(config: SearchConfig) -> None:
    drivers: dict[str, Callable[[Engine[Any]], object]] = {
        "exact": lambda e: solve(e.game, searcher=e).value,
        "weak": lambda e: solve(e.game, searcher=e, weak=True).value,
        "deepening": lambda e: run(e, Limits(depth=4)).value,
        "mtdf": lambda e: run(e, Limits(depth=3), use_mtdf=True).value,
        "analyze": lambda e: [(m.move, m.value, m.pv) for m in analyze(e.game, searcher=e)[0]],
    }
    for game in positions()[2:7]:
        for name, driver in drivers.items():
            fast = engine_for(game.copy(), config, engine="compiled")
            slow = engine_for(game.copy(), config, engine="python")
            assert isinstance(fast, CompiledEngine)
            assert driver(fast) == driver(slow), (name, str(game))
            assert counters(fast) == counters(slow), (name, str(game))
            assert fast.pv == slow.pv


def test_move_values_match_the_oracle() -> None:
    game = from_position("hex", "4x4:b2 c2 b3 a4 d1")
    board = naive_board(game)
    values, _ = analyze(game, searcher=engine_for(game.copy(), engine="compiled"))
    side = 1 if game.to_move == Player.FIRST else 2
    for mv in values:
        child = (*board[:mv.move], side, *board[mv.move + 1:])
        assert mv.value == from_parent(oracle(child, 4))


SHORT_DIAGONAL = {3, 6, 9, 12}  # d1 c2 b3 a4


def test_empty_four_by_four_board_is_a_first_player_win() -> None:
    # Known results: Hex on any n×n board is a first-player win (strategy stealing), and on
    # 4×4 exactly the openings on the short diagonal win (also read out by the plain win/loss
    # search of the slow test below).
    result = solve_position(Hex(4), engine="compiled")
    assert result.extra["result"] == "win" and result.value == WIN - len(result.pv)
    values, _ = analyze(Hex(4), searcher=engine_for(Hex(4), engine="compiled"))
    assert {mv.move for mv in values if mv.value > 0} == SHORT_DIAGONAL
    assert max(mv.value for mv in values) == result.value


@functools.cache
def mover_wins(stones: int, n: int) -> bool:
    """Plain win/loss reading (memoised, no distances) of a board packed as one int: two bits
    per cell, 1 for X and 2 for O (kept small: millions of positions are cached).
    """
    board = tuple((stones >> 2 * i) & 3 for i in range(n * n))
    count = sum(1 for v in board if v)
    side = 1 if count % 2 == 0 else 2
    if joined(board, n, 3 - side):
        return False
    return any(not mover_wins(stones | side << 2 * cell, n)
               for cell in range(n * n) if board[cell] == 0)


@pytest.mark.slow
def test_winning_openings_of_four_by_four_against_plain_reading() -> None:
    try:  # about 40 CPU-s and 3 M cached positions
        assert {c for c in range(16) if not mover_wins(1 << 2 * c, 4)} == SHORT_DIAGONAL
    finally:
        mover_wins.cache_clear()


# ---- building a kernel module outside the package ------------------------------------------


def test_build_takes_a_module_name_or_a_file_path() -> None:
    path = EXAMPLE / "sakiyomi_hex" / "kernels.py"
    by_name = build("sakiyomi_hex.kernels", {"SIZE": 3}, compiled=False)
    by_path = build(str(path), {"SIZE": 3}, compiled=False)
    assert by_name.CELLS == by_path.CELLS == 9
    state = by_path.make_state(0, 0, 0)
    assert by_path.k_key(state) == by_name.k_key(state)
    with pytest.raises(ImportError, match="no kernel file"):
        build(str(path.with_name("missing.py")), {}, compiled=False)
    with pytest.raises(ImportError, match="no kernel module"):
        build("sakiyomi_hex.missing", {}, compiled=False)


def test_compiled_build_by_file_path_solves(tmp_path: Path) -> None:
    path = tmp_path / "my_hex.py"  # a user's single file, on no import path at all
    path.write_text((EXAMPLE / "sakiyomi_hex" / "kernels.py").read_text())
    game = from_position("hex", "3x3:b2")
    module = build(str(path), {"SIZE": 3})
    assert module.__name__.startswith("sakiyomi_gen_my_hex_")
    from sakiyomi.compiled.template import CompiledSearch

    engine = CompiledEngine(game.copy(), SearchConfig(),
                            workspace=CompiledSearch(module, SearchConfig()))
    assert solve(engine.game, searcher=engine).value == oracle(naive_board(game), 3)


def test_template_and_kernels_run_as_plain_python(tmp_path: Path) -> None:
    # NUMBA_DISABLE_JIT: the compiled build runs as Python, so a bad index would raise here
    # instead of corrupting memory; the node counts must still be the Python engine's.
    script = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(EXAMPLE)!r})
        from sakiyomi_hex.game import from_position
        from sakiyomi.engines import solve_position
        for text in ("3x3:start", "4x4:b2 c2 b3 a4 d1 c3 a2"):
            game = from_position("hex", text)
            fast = solve_position(game, engine="compiled")
            slow = solve_position(game, engine="python")
            print(fast.value == slow.value, fast.stats == slow.stats, fast.pv == slow.pv)
    """)
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "SAKIYOMI_CACHE": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\n") == ["True True True", "True True True", ""]
