"""Connect Four: rules against a naive board, Pons's test sets (strong and weak), the compiled
and Python engines agreeing node for node, kernels under plain Python, CLI and bad input.
"""

from __future__ import annotations

import functools
import json
import os
import random
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from sakiyomi.cli import main
from sakiyomi.compiled.template import build
from sakiyomi.engines import (
    SOLVER_CONFIG,
    analyze_position,
    engine_for,
    perft_position,
    solve_position,
)
from sakiyomi.game import GameError, MoveError, Player, PositionError
from sakiyomi.games.connect4 import Connect4, from_position
from sakiyomi.games.connect4 import game as connect4_game
from sakiyomi.games.connect4.game import _replay
from sakiyomi.search.drivers import run
from sakiyomi.search.limits import Limits
from sakiyomi.search.perft import perft
from sakiyomi.search.searcher import SearchConfig
from sakiyomi.search.solve import analyze, solve

DATA = Path(__file__).resolve().parent / "data" / "connect4" / "pons_original"


def pons_lines(name: str, count: int | None = None, step: int = 1) -> list[tuple[str, int]]:
    lines = (DATA / name).read_text().split("\n")
    pairs = [(ln.split()[0], int(ln.split()[1])) for ln in lines if ln.strip()]
    return pairs[::step][:count]


def sign(v: int) -> int:
    return (v > 0) - (v < 0)


# ---- rules against a naive board --------------------------------------------------------


def naive_winner(cols: list[list[int]], width: int, height: int) -> int | None:
    """Four in a row on a plain grid (0 first player, 1 second), checked cell by cell."""
    def at(c: int, r: int) -> int | None:
        return cols[c][r] if 0 <= c < width and 0 <= r < len(cols[c]) else None

    for c in range(width):
        for r in range(height):
            p = at(c, r)
            if p is None:
                continue
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                if all(at(c + k * dc, r + k * dr) == p for k in range(4)):
                    return p
    return None


@pytest.mark.parametrize(("width", "height"), [(7, 6), (6, 5), (4, 4), (8, 7), (9, 6)])
def test_random_games_agree_with_a_naive_board(width: int, height: int) -> None:
    rng = random.Random(width * 10 + height)
    for _ in range(60):
        game = Connect4(width, height)
        cols: list[list[int]] = [[] for _ in range(width)]
        while True:
            winner = naive_winner(cols, width, height)
            full = all(len(c) == height for c in cols)
            outcome = game.outcome()
            if winner is not None:
                assert outcome is not None and outcome.winner == Player(winner)
                stones = (len(game.moves_played) + 1) // 2  # the winner's, last one included
                assert game.terminal_value(0) == -(width * height // 2 + 1 - stones)
                break
            if full:
                assert outcome is not None and outcome.winner is None
                break
            assert outcome is None
            legal = sorted(game.legal_moves())
            assert legal == [c for c in range(width) if len(cols[c]) < height]
            move = rng.choice(legal)
            cols[move].append(len(game.moves_played) % 2)
            game.play(move)
        assert not game.legal_moves()


def test_four_in_a_row_in_every_direction() -> None:
    # Found by random play and checked with naive_winner: one line each, a single direction.
    for moves, who in [("1212121", Player.FIRST), ("1122334", Player.FIRST),
                       ("743224654352455711623", Player.FIRST),  # diagonal /
                       ("4725536343413", Player.FIRST),  # diagonal \
                       ("53233651363321727745271166512764", Player.SECOND),  # diagonal /
                       ("72612134724515216243", Player.SECOND),  # diagonal \
                       ("71212121", Player.SECOND), ("73141235", Player.SECOND)]:
        game = from_position("connect4", moves[:-1])
        assert game.outcome() is None
        game.play(game.move_from_text(moves[-1]))
        outcome = game.outcome()
        assert outcome is not None and outcome.winner == who, moves


def test_winning_cells_match_a_cell_by_cell_scan() -> None:
    """The unrolled bit kernels against a naive scan of every empty cell and every line of
    four through it, on random boards (stones of one side anywhere in the filled part)."""
    from sakiyomi.games.connect4 import kernels as k

    def bit(col: int, row: int) -> int:
        return 1 << (col * (k.HEIGHT + 1) + row)

    def owned(stones: int, col: int, row: int) -> bool:
        return 0 <= col < k.WIDTH and 0 <= row < k.HEIGHT and bool(stones & bit(col, row))

    lines = ((0, 1), (1, 0), (1, 1), (1, -1))
    rng = random.Random(12)
    for _ in range(400):
        mask = stones = 0
        for col in range(k.WIDTH):
            for row in range(rng.randint(0, k.HEIGHT)):
                mask |= bit(col, row)
                stones |= bit(col, row) if rng.random() < 0.6 else 0
        expected = 0
        for col in range(k.WIDTH):
            for row in range(k.HEIGHT):
                if mask & bit(col, row):
                    continue
                if any(all(owned(stones, col + (i - gap) * dc, row + (i - gap) * dr)
                           for i in range(4) if i != gap)
                       for dc, dr in lines for gap in range(4)):
                    expected |= bit(col, row)
        assert k.k_winning_cells(stones, mask) == expected
        four = any(all(owned(stones, col + i * dc, row + i * dr) for i in range(4))
                   for col in range(k.WIDTH) for row in range(k.HEIGHT) for dc, dr in lines)
        assert k.k_aligned(stones) == four


@pytest.mark.parametrize(("width", "height"), [(7, 6), (4, 4), (8, 7)])
def test_fused_bounds_and_moves_equal_the_two_kernels(width: int, height: int) -> None:
    """k_bounds_moves (the template's one-pass hook) answers what k_bounds and k_search_moves
    answer, on positions of random games (any ply, either side to move), plain Python."""
    k = build("sakiyomi.games.connect4.kernels", {"WIDTH": width, "HEIGHT": height},
              compiled=False)
    rng = random.Random(width * 31 + height)
    seen = {"open": 0, "decided": 0}
    for _ in range(150):
        state = k.make_state(0, 0, 0)
        for _ in range(rng.randint(0, width * height - 1)):
            finished, _value = k.k_outcome(state, 0)
            if finished:
                break
            fused = [-1] * (width + 4)
            lo, hi, count = k.k_bounds_moves(state, 1, fused, 2)
            assert (lo, hi) == k.k_bounds(state, 1)
            if lo < hi:
                apart = [-1] * (width + 4)
                assert count == k.k_search_moves(state, apart, 2)
                assert fused == apart
                seen["open"] += 1
            else:
                assert count == -1 and fused == [-1] * (width + 4)
                seen["decided"] += 1
            moves = [-1] * width
            state = k.k_play(state, moves[rng.randrange(k.k_legal_moves(state, moves, 0))])
    assert min(seen.values()) > 50


@pytest.mark.parametrize(("width", "height", "memo_limit"),
                         [(7, 6, 0), (4, 4, 0), (9, 6, 0), (7, 6, 3)])
def test_game_methods_answer_what_the_kernels_answer(width: int, height: int, memo_limit: int,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The Python game's value_bounds, search_moves, evaluate, move_hints and legal_moves
    (computed from memos of each state's answers, of each side's stones' winning cells and
    fours, of each set of cells' columns) against the kernels the compiled engine runs, on
    the positions of random games, asked in varying order and again after an undo; and the
    final position's terminal_value, just after outcome() and asked cold.  ``memo_limit``
    (0: the game's own) makes the memos clear themselves all the time."""
    if memo_limit:
        monkeypatch.setattr(connect4_game, "_MEMO_LIMIT", memo_limit)
    rng = random.Random(width * 7 + height)
    asked = 0
    for _ in range(60):
        game = Connect4(width, height)
        k = game.k
        while game.outcome() is None:
            state = game.kernel_state()
            buf = [-1] * width
            count = k.k_search_moves(state, buf, 0)
            moves = list(game.legal_moves())
            legal = [-1] * width
            answers = {
                "bounds": tuple(int(v) for v in k.k_bounds(state, 2)),
                "moves": buf[:count],
                "evaluate": k.k_evaluate(state),
                "hints": [k.k_hint(state, m) for m in moves],
                "legal": legal[:k.k_legal_moves(state, legal, 0)],
            }
            questions = list(answers)
            rng.shuffle(questions)
            for question in questions:
                assert ask(game, question, moves) == answers[question], game.position_text()
            asked += 1
            game.play(rng.choice(moves))
            if rng.random() < 0.2 and game.outcome() is None:
                game.evaluate()  # a memo of the child, then back to the parent
                game.undo()
                assert game.evaluate() == k.k_evaluate(state)
                game.play(rng.choice(moves))
        final = k.k_outcome(game.kernel_state(), 0)[1]
        assert game.legal_moves() == ()  # asked after outcome() found the end
        assert game.terminal_value(0) == final  # just after outcome() found the end
        assert game.copy().terminal_value(0) == final  # asked cold
    assert asked > 300


def test_python_search_does_not_depend_on_the_memos(monkeypatch: pytest.MonkeyPatch) -> None:
    """A depth-limited Python search gives the same value, PV and counters whether the game's
    memos keep their entries or clear themselves every few entries."""
    def searched() -> tuple[object, ...]:
        engine = engine_for(from_position("connect4", "4453"), SOLVER_CONFIG, engine="python")
        result = run(engine, Limits(depth=6))
        stats = result.stats
        return (result.value, result.pv, stats.nodes, stats.leaves, stats.tt_hits,
                stats.cutoffs)

    kept = searched()
    monkeypatch.setattr(connect4_game, "_MEMO_LIMIT", 5)
    assert searched() == kept


def ask(game: Connect4, question: str, moves: list[int]) -> object:
    """One of the game's answers, by name, as a plain value."""
    if question == "bounds":
        return game.value_bounds(2)
    if question == "moves":
        return list(game.search_moves())
    if question == "evaluate":
        return game.evaluate()
    if question == "legal":
        return list(game.legal_moves())
    return list(game.move_hints(moves))


def test_transposed_move_orders_give_equal_keys_and_undo_restores() -> None:
    a, b = from_position("connect4", "4433"), from_position("connect4", "3344")
    assert a.key() == b.key() and str(a) == str(b)
    key = a.key()
    a.play(0)
    assert a.key() != key
    a.undo()
    assert a.key() == key and a.position_text() == "4433"


@pytest.mark.parametrize(
    ("position", "words"),
    [("4444444", ["move 7", "'4'", "column 4", "full"]),
     ("1212121" + "3", ["move 8", "game is over"]),
     ("12a4", ["move 3", "'a'", "digit"]),
     ("128", ["move 3", "'8'", "beyond the board"]),
     ("120", ["move 3", "'0'", "beyond the board"]),
     ("5x4:66", ["move 1", "beyond the board"]),
     ("3x3:1", ["no room"]),
     ("9x7:1", ["64 bits"])],
)
def test_bad_positions_name_the_offending_move(position: str, words: list[str]) -> None:
    with pytest.raises(PositionError) as info:
        from_position("connect4", position)
    for word in words:
        assert word in str(info.value), (position, word, str(info.value))


@pytest.mark.parametrize(("width", "height"), [(7, 6), (4, 4), (9, 5)])
def test_one_pass_parse_equals_move_by_move_play(width: int, height: int) -> None:
    """from_position's one-pass replay (``_replay``) against play() with a check per move:
    the same state, history and moves, or both refuse (random digit strings, many illegal);
    and the one pass itself accepts exactly the legal strings (it is what a batch runs).
    """
    rng = random.Random(width * 100 + height)
    prefix = "" if (width, height) == (7, 6) else f"{width}x{height}:"
    digits = "0123456789"[:width + 2]
    for _ in range(500):
        text = "".join(rng.choice(digits) for _ in range(rng.randrange(width * height + 3)))
        game = Connect4(width, height)
        expected: object = None
        for ch in text:
            col = int(ch) - 1
            if (not 0 <= col < width or game.outcome() is not None
                    or col not in game.legal_moves()):
                expected = "refused"
                break
            game.play(col)
        if expected is None:
            expected = (game.kernel_state(), game._past, game.moves_played)
        try:
            parsed = from_position("connect4", prefix + text)
            got: object = (parsed.kernel_state(), parsed._past, parsed.moves_played)
        except PositionError:
            got = "refused"
        assert got == expected, text
        assert _replay(Connect4(width, height), text) == (expected != "refused"), text


def test_bad_move_texts_are_refused() -> None:
    game = from_position("connect4", "444444")
    for text in ("4", "8", "0", "x", "", "٣"):
        with pytest.raises(MoveError):
            game.move_from_text(text)
    assert game.move_from_text("3") == 2


# ---- known results: Pons's test sets ----------------------------------------------------


def solve_compiled(position: str, weak: bool) -> int:
    result = solve_position(from_position("connect4", position), weak=weak, engine="compiled",
                            with_pv=False)
    assert result.extra["engine"] == "compiled"
    return result.value


@pytest.mark.parametrize(("name", "count", "step"), [
    ("Test_L3_R1", None, 1), ("Test_L2_R1", None, 1), ("Test_L1_R1", None, 1),
    ("Test_L2_R2", 100, 10),
])
def test_pons_sets_strong_and_weak(name: str, count: int | None, step: int) -> None:
    """Every line of the fast sets (a tenth of Middle-Medium): exact score and weak sign."""
    wrong = []
    for position, score in pons_lines(name, count, step):
        if solve_compiled(position, False) != score:
            wrong.append((position, score, "strong"))
        if solve_compiled(position, True) != sign(score):
            wrong.append((position, score, "weak"))
    assert not wrong, wrong[:5]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["Test_L2_R2", "Test_L1_R2"])
def test_pons_slow_sets(name: str) -> None:
    for position, score in pons_lines(name):
        assert solve_compiled(position, False) == score, position
        assert solve_compiled(position, True) == sign(score), position


def naive_value(width: int, height: int, moves: str) -> int:
    """Pons's score by memoised plain negamax (no pruning) on tuples of columns, with its own
    four-in-a-row test around the last stone: independent of the bitboard kernels."""
    cells = width * height

    def wins(cols: tuple[tuple[int, ...], ...], c: int) -> bool:
        r = len(cols[c]) - 1
        p = cols[c][r]

        def at(x: int, y: int) -> bool:
            return 0 <= x < width and 0 <= y < len(cols[x]) and cols[x][y] == p

        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            run = 1
            for way in (1, -1):
                k = 1
                while at(c + way * k * dc, r + way * k * dr):
                    run += 1
                    k += 1
            if run >= 4:
                return True
        return False

    @functools.cache
    def value(cols: tuple[tuple[int, ...], ...]) -> int:
        n = sum(len(col) for col in cols)
        best = -cells
        for c in range(width):
            if len(cols[c]) == height:
                continue
            child = tuple((*col, n % 2) if i == c else col for i, col in enumerate(cols))
            if wins(child, c):
                return (cells + 1 - n) // 2
            best = max(best, 0 if n + 1 == cells else -value(child))
        return best

    start: list[tuple[int, ...]] = [() for _ in range(width)]
    for i, ch in enumerate(moves):
        start[int(ch) - 1] += (i % 2,)
    return value(tuple(start))


COMPILED_SIZES = {(7, 6), (6, 5)}


@pytest.mark.parametrize(("width", "height", "plies"),
                         [(4, 4, 5), (5, 4, 9), (4, 5, 9), (6, 5, 19), (7, 6, 30)])
def test_small_positions_match_a_naive_solver(width: int, height: int, plies: int) -> None:
    """Random positions with 11-12 empty cells: both engines, both probe orders, vs the oracle."""
    rng = random.Random(plies)
    checked = 0
    while checked < 4:
        game = Connect4(width, height)
        for _ in range(plies):
            moves = game.legal_moves()
            if not moves:
                break
            game.play(rng.choice(moves))
        if game.outcome() is not None:
            continue
        text = game.position_text().split(":")[-1]
        expected = naive_value(width, height, text)
        if (width, height) in COMPILED_SIZES:  # each size compiles once (seconds)
            assert solve_position(game).value == expected, text
        assert solve_position(game, engine="python").value == expected, text
        assert solve(game).value == expected, text  # default settings, zero-first probes
        checked += 1


# ---- the agreement proof: compiled and Python engines, node for node ----------------------

CONFIGS = [
    SOLVER_CONFIG,
    SearchConfig(),  # killers and history on, zero-first bisection, 2**18 slots
    SearchConfig(tt_capacity=1 << 8, pvs=False),  # heavy replacement, plain alpha-beta
]


def counters(stats: Any) -> tuple[int, ...]:
    return (stats.nodes, stats.leaves, stats.tt_probes, stats.tt_hits, stats.tt_cutoffs,
            stats.cutoffs, stats.first_move_cutoffs, stats.researches, stats.seldepth)


@pytest.mark.parametrize("config", CONFIGS, ids=["solver", "default", "small-tt-no-pvs"])
def test_compiled_and_python_agree_on_values_and_node_counts(config: SearchConfig) -> None:
    sample = pons_lines("Test_L3_R1", 12, 83) + pons_lines("Test_L2_R1", 6, 167)
    for position, score in sample:
        game = from_position("connect4", position)
        for weak in (False, True):
            python = solve(game, config, weak=weak)
            fast = solve_position(game, weak=weak, engine="compiled", config=config)
            assert fast.extra["engine"] == "compiled"
            assert python.value == fast.value == (sign(score) if weak else score)
            assert counters(python.stats) == counters(fast.stats), (position, weak)
            assert python.pv == fast.pv and python.best_move == fast.best_move


def test_kernel_perft_equals_the_python_game_perft() -> None:
    # The compiled kernels' move generator against the game's own methods, wins included
    # (from "121212" wins come at once: lines end early in both counts).
    for position in ("", "4453", "121212", "4444445"):
        game = from_position("connect4", position)
        for depth in (0, 1, 4):
            assert perft_position(game, depth) == (perft(game, depth), "compiled")


def test_analyze_agrees_between_engines() -> None:
    for position, score in pons_lines("Test_L2_R1", 3, 300):
        game = from_position("connect4", position)
        python_values, python_nodes = analyze(game, None, SOLVER_CONFIG)
        fast_values, fast_nodes = analyze_position(game, engine="compiled")
        assert python_nodes == fast_nodes
        assert [(m.move, m.value, m.pv) for m in python_values] == \
            [(m.move, m.value, m.pv) for m in fast_values]
        assert fast_values[0].value == score


def test_pure_python_kernels_under_numba_disable_jit(tmp_path: Path) -> None:
    """The compiled template and kernels run as plain Python (numpy words): same values and
    node counts as the Python Searcher on small positions."""
    script = textwrap.dedent("""
        from sakiyomi.compiled.template import CompiledSearch, build
        from sakiyomi.engines import CompiledEngine
        from sakiyomi.games.connect4 import from_position
        from sakiyomi.search.searcher import SearchConfig
        from sakiyomi.search.solve import solve
        config = SearchConfig(tt_capacity=1 << 12, bisection="pons")
        for text in ["2252576253462244111563365343671351441", "4455", "4x4:1234312",
                     "1212121", "44455554221", "7422341735647741166133573473242566"]:
            game = from_position("connect4", text)
            module = build("sakiyomi.games.connect4.kernels",
                           {"WIDTH": game.width, "HEIGHT": game.height})
            search = CompiledSearch(module, config)
            for weak in (False, True):
                search.reset()
                state = module.make_state(*game.kernel_state())
                if game.outcome() is not None:
                    print(text, "finished", module.p_outcome(state, 0)[1])
                    break
                engine = CompiledEngine(game.copy(), config, workspace=search)
                fast = solve(engine.game, weak=weak, searcher=engine)
                python = solve(game, config, weak=weak)
                print(text, weak, fast.value, python.value, fast.stats.nodes,
                      python.stats.nodes, list(fast.pv) == list(python.pv))
    """)
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "SAKIYOMI_CACHE": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.split("\n")[:-1]
    assert len(lines) == 11
    for line in lines:
        parts = line.split()
        if parts[1] == "finished":
            assert parts[2] == "-18"  # 1212121: first player won with its 4th stone
            continue
        assert parts[2] == parts[3] and parts[4] == parts[5] and parts[6] == "True", line
    assert "2252576253462244111563365343671351441 False -1 -1" in out.stdout


def test_python_engine_works_without_numba(capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from sakiyomi.compiled import template

    monkeypatch.setitem(sys.modules, "numba", None)  # import numba -> ImportError
    monkeypatch.setattr(template, "_warned", False)
    game = from_position("connect4", "2252576253462244111563365343671351441")
    first = solve_position(game)
    second = solve_position(game, weak=True)
    assert first.value == -1 and second.value == -1 and first.extra["engine"] == "python"
    err = capsys.readouterr().err
    assert err.count("numba is not installed") == 1


def test_generated_module_is_cached_by_source_hash(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SAKIYOMI_CACHE", str(tmp_path))
    plain = build("sakiyomi.games.connect4.kernels", {"WIDTH": 5, "HEIGHT": 4}, compiled=False)
    assert plain.WIDTH == 5 and not list(tmp_path.iterdir())  # plain builds stay in memory
    assert build("sakiyomi.games.connect4.kernels", {"WIDTH": 5, "HEIGHT": 4}, compiled=False) \
        is plain


# ---- command line ---------------------------------------------------------------------------


def sakiyomi(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sakiyomi", *args], input=stdin,
                          capture_output=True, text=True, timeout=300)


def test_cli_solve_and_analyze(capsys: pytest.CaptureFixture[str]) -> None:
    position = "2252576253462244111563365343671351441"
    assert main(["solve", "connect4", position, "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["value"] == -1 and record["result"] == "loss" and record["nodes"] > 0
    assert main(["solve", "connect4", "44455554221", "--engine", "python"]) == 0
    assert capsys.readouterr().out.startswith("44455554221 -15 loss")
    assert main(["analyze", "connect4", position, "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert [(m["move"], m["value"]) for m in record["moves"]] == [("6", -1), ("7", -2)]


def test_cli_batch_one_line_per_line_and_bad_lines_reported() -> None:
    good = (DATA / "Test_L3_R1").read_text().split("\n")[:5]
    stdin = "\n".join([good[0], "4444444 0", good[1], "12x4", "12121212 3", "128",
                       *good[2:]]) + "\n"
    out = sakiyomi("solve", "connect4", "-", stdin=stdin)
    assert out.returncode == 2
    lines = out.stdout.strip().split("\n")
    assert len(lines) == 5
    for line, expected in zip(lines, good, strict=True):
        fields = line.split()
        assert fields[:2] == expected.split()
        assert "nodes" in fields and "us" in fields
    errors = out.stderr.strip().split("\n")
    assert len(errors) == 4
    assert "line 2" in errors[0] and "column 4" in errors[0] and "full" in errors[0]
    assert "line 4" in errors[1] and "'x'" in errors[1]
    assert "line 5" in errors[2] and "game is over" in errors[2]
    assert "line 6" in errors[3] and "beyond the board" in errors[3]
    assert "Traceback" not in out.stderr


def test_cli_batch_answers_each_line_as_if_alone() -> None:
    """The batch keeps one engine but empties it per line: the same values, lines and node
    counts as solving each position on its own."""
    lines = [m for m, _ in pons_lines("Test_L2_R1", 6)]
    out = sakiyomi("solve", "connect4", "-", "--json", stdin="\n".join(lines) + "\n")
    assert out.returncode == 0, out.stderr
    batch = [json.loads(line) for line in out.stdout.strip().split("\n")]
    for moves, record in zip(lines, batch, strict=True):
        alone = solve_position(from_position("connect4", moves))
        assert (record["value"], record["nodes"], record["pv"]) == (
            alone.value, alone.stats.nodes, [str(m + 1) for m in alone.pv]), moves


def test_cli_batch_mixing_board_sizes_answers_each_on_its_own_board() -> None:
    """A batch may mix board sizes: each line runs on its own size's kernels (the batch's
    engine is kept only while the kernels stay the same), as a lone solve does."""
    rng = random.Random(7)
    small = []
    for width, height in ((5, 4), (4, 4), (6, 5)):
        while True:  # a random game on that board, stopped with six empty cells
            game = Connect4(width, height)
            for _ in range(width * height - 6):
                if game.outcome() is not None:
                    break
                game.play(rng.choice(list(game.legal_moves())))
            if game.outcome() is None:
                small.append(game.position_text())  # with its WxH: prefix
                break
    big = [m for m, _ in pons_lines("Test_L3_R1", 2)]
    lines = [big[0], *small, big[1], small[0]]
    out = sakiyomi("solve", "connect4", "-", "--json", stdin="\n".join(lines) + "\n")
    assert out.returncode == 0, out.stderr
    batch = [json.loads(line) for line in out.stdout.strip().split("\n")]
    for text, record in zip(lines, batch, strict=True):
        alone = solve_position(from_position("connect4", text), engine="python")
        assert (record["value"], record["nodes"], record["pv"]) == (
            alone.value, alone.stats.nodes, [str(m + 1) for m in alone.pv]), text


def test_cli_small_solve_skips_loading_numba_with_the_same_answer() -> None:
    """A one-position solve tries the Python engine within PYTHON_FIRST_NODES first: a small
    position is answered without importing numba, with the compiled engine's value, line and
    node count."""
    small = pons_lines("Test_L3_R1", 1)[0][0]
    code = textwrap.dedent(f"""
        import json, sys, io, contextlib
        from sakiyomi.cli import main
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            main(["solve", "connect4", "{small}", "--json"])
        print(json.dumps([json.loads(out.getvalue()), "numba" in sys.modules]))
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env={**os.environ, "SAKIYOMI_DEBUG": "1"})
    record, loaded = json.loads(out.stdout)
    assert not loaded
    compiled = solve_position(from_position("connect4", small), engine="compiled")
    assert (record["value"], record["nodes"], record["pv"]) == (
        compiled.value, compiled.stats.nodes, [str(m + 1) for m in compiled.pv])


def test_cli_bad_input_is_one_line_and_status_2() -> None:
    for position in ("4444444", "abc", "1212121"):
        out = sakiyomi("solve", "connect4", position)
        assert out.returncode == 2 and out.stderr.count("\n") == 1, out.stderr
    out = sakiyomi("solve", "connect4", "44", "--engine", "fast")
    assert out.returncode == 2


def test_cli_play_cpu_against_cpu_finishes() -> None:
    out = sakiyomi("play", "connect4", "--first", "cpu", "--second", "cpu",
                   "--position", "2252576253462244111563365343")
    assert out.returncode == 0, out.stderr
    assert "(solved)" in out.stdout


def test_perfect_agent_answers_a_human_and_refuses_a_full_column() -> None:
    out = sakiyomi("play", "connect4", "--first", "human", "--second", "cpu",
                   "--position", "444444", "--time", "0.2", stdin="4\n1\nquit\n")
    assert out.returncode == 0, out.stderr
    assert "refused" in out.stdout and "full" in out.stdout
    assert "cpu plays" in out.stdout


def test_game_error_for_finished_position() -> None:
    with pytest.raises(GameError):
        from_position("connect4", "12121212")


def test_a_small_solve_keeps_to_a_small_part_of_the_table() -> None:
    """``SolveTable``: a solve uses 2**k_table_bits slots of the table at most, in both
    engines alike (their node counts and PVs stay equal); the whole table is back after it.
    """
    from sakiyomi.engines import CompiledEngine, engine_for, solver_config
    from sakiyomi.search.searcher import Searcher

    position = "2252576253462244111563365343671351441"  # 5 empty cells
    game = from_position("connect4", position)
    bits = game.solve_table_bits()
    assert bits == 12
    assert from_position("connect4", "4" * 6 + "3" * 6 + "5" * 4).solve_table_bits() == 20
    assert from_position("connect4", "").solve_table_bits() >= 24  # the opening: all of it
    config = solver_config(game)
    compiled = engine_for(game.copy(), config, engine="compiled")
    assert isinstance(compiled, CompiledEngine)
    python = Searcher(game.copy(), config)
    assert python.tt is not None
    full = python.tt.mask
    seen: list[int] = []
    store = python.tt.store

    def spy(key: int, *rest: Any) -> None:
        seen.append(python.tt.mask if python.tt is not None else -1)
        store(key, *rest)

    python.tt.store = spy  # type: ignore[method-assign, assignment]
    ours, theirs = solve(compiled.game, searcher=compiled), solve(python.game, searcher=python)
    assert (ours.value, ours.stats.nodes, ours.pv) == (theirs.value, theirs.stats.nodes,
                                                       theirs.pv)
    assert seen and set(seen) == {(1 << bits) - 1} and python.tt.mask == full
    mem = compiled._search.mem  # the compiled solve's mask, then an ordinary search's
    module = compiled._search.module
    assert mem[module.C_MASK] == (1 << bits) - 1 < mem[module.C_FULL_MASK]
    compiled.search(2, -100, 100)
    assert mem[module.C_MASK] == mem[module.C_FULL_MASK]
