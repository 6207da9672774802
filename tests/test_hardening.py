"""Issue 11 (CLI and games): each input class that once gave a traceback, a hang or a wrong
answer, run through ``sakiyomi.cli.main`` in-process: exit 2 with one stderr line, or the
right answer.
"""

from __future__ import annotations

import importlib.util
import io
import json
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from sakiyomi.cli import main
from sakiyomi.game import PositionError
from sakiyomi.games import GAMES, MAX_POSITION_CHARS, load
from sakiyomi.games import limits as game_limits
from sakiyomi.games.tree import LEAF_LIMIT, MAX_DEPTH, TreeGame, negamax_value, parse_tree
from sakiyomi.match import board_text
from sakiyomi.score import WIN_BOUND


def run(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    """Exit status, stdout and stderr of one in-process CLI run."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = io.StringIO(stdin), out, err
    try:
        status = main(argv)
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
    return status, out.getvalue(), err.getvalue()


def refused(argv: list[str], stdin: str = "") -> str:
    """The one error line of a run that must exit with status 2."""
    status, _, err = run(argv, stdin)
    assert status == 2, (argv, err)
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("sakiyomi: error: "), err
    return lines[0]


@pytest.mark.parametrize("argv", [
    ["solve", "bones", "²"], ["solve", "nim", "3,²"], ["search", "tree", "random:2,²,1"],
    ["solve", "nim", "3,٣"], ["search", "tictactoe", "start", "--depth", "²"],
    ["solve", "bones", "9" * 5000], ["solve", "nim", "1," + "9" * 5000],
    ["search", "tree", "[" + "9" * 5000 + "]"], ["search", "tree", "random:2,2," + "9" * 5000],
    ["search", "connect4", "9" * 5000 + "x7:"], ["perft", "tictactoe", "start", "9" * 5000],
    ["search", "shogi", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - ²"],
    ["search", "shogi", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - "
     + "9" * 5000],
    ["search", "shogi", "lnsgkgs1l/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b "
     + "9" * 5000 + "N 1"],
    ["solve", "connect4", "44", "--workers", "2", "--ray", "localhost:²"],
    ["solve", "connect4", "44", "--workers", "2", "--ray", "localhost:" + "9" * 5000],
])
def test_unicode_digits_and_huge_integers_are_refused(argv: list[str]) -> None:
    line = refused(argv)
    assert "whole number" in line or "too large" in line


@pytest.mark.parametrize(("argv", "says"), [
    (["perft", "chess", "startpos", "99999999999999999999"], "at most 511"),
    (["search", "connect4", "start", "--time", "inf"], "not a number of seconds"),
    (["search", "connect4", "start", "--time", "1e309"], "too large"),
    (["search", "connect4", "start", "--nodes", "99999999999999999999"], "at most"),
    (["play", "bones", "--position", "10000000000000000000"], "at most"),
    (["solve", "nim", str(10**12)], "too large: at most 10,000"),
    (["solve", "nim", str(10**26)], "too large"),
    (["solve", "nim", ",".join(["1"] * 65)], "too many heaps: at most 64"),
    (["solve", "nim", ",".join(["5000"] * 3)], "at most 10,000 objects in all"),
    (["search", "tictactoe", "start", "--depth", "512"], "at most 511"),
    (["search", "tictactoe", "start", "--depth", "0"], "at least 1"),
    (["search", "tictactoe", "start", "--time", "nan"], "not a number of seconds"),
    (["search", "tictactoe", "start", "--time", "0"], "more than 0"),
    (["search", "connect4", "65x1:"], "at most 64"),
    (["search", "tree", "x" * (MAX_POSITION_CHARS + 1)], "position too long"),
])
def test_huge_values_get_one_line_naming_the_limit(argv: list[str], says: str) -> None:
    assert says in refused(argv)


def test_solve_bones_of_a_huge_heap_answers_at_once() -> None:
    for n in (10**18, 10**18 - 1, 10**18 - 2, 10**18 - 3):
        start = time.perf_counter()
        status, out, _ = run(["solve", "bones", str(n), "--json"])
        assert status == 0 and time.perf_counter() - start < 5
        record = json.loads(out)
        assert record["result"] == ("loss" if n % 4 == 0 else "win")
        if n % 4:
            assert record["best_move"] == str(n % 4)  # leave a multiple of 4


def test_analyze_of_a_huge_heap_uses_the_formula_for_every_move() -> None:
    n = 10**18 - 1  # 3 mod 4: taking 3 wins, the other moves lose
    status, out, err = run(["analyze", "bones", str(n), "--json"])
    assert status == 0, err
    moves = {m["move"]: m["value"] for m in json.loads(out)["moves"]}
    assert moves == {"3": 1, "1": -1, "2": -1}


def test_every_game_states_its_limits() -> None:
    for name, info in GAMES.items():
        library = {"chess": "chess", "shogi": "cshogi"}.get(info.extra or "")
        if library and importlib.util.find_spec(library) is None:
            continue
        text = game_limits(name)
        assert isinstance(text, str) and text and "\n" not in text


def nested(depth: int) -> str:
    return "[" * depth + "1,2" + "]" * depth


def test_deep_nesting_is_refused_clearly_and_the_horizon_is_accepted() -> None:
    for depth in (MAX_DEPTH + 1, 5_000, 100_000):
        assert "too deep: at most 511 levels" in refused(["search", "tree", nested(depth)])
    status, out, err = run(["solve", "tree", nested(MAX_DEPTH - 1), "--json"])
    assert status == 0, err
    assert json.loads(out)["value"] == negamax_value(json.loads(nested(MAX_DEPTH - 1)))
    status, out, err = run(["search", "tree", nested(MAX_DEPTH - 1), "--algorithm", "negamax",
                            "--json"])
    assert status == 0, err


def test_tree_parser_reads_what_json_reads() -> None:
    text = "max:[[3, -5 ,1],[7,[3]],[ -3,0,3]]"
    tree, first = parse_tree(text)
    assert first and tree == json.loads(text[4:])
    assert TreeGame(tree).subtree() == tree
    for bad in ("[1,", "[1,]", "[[1],[]]", '["a"]', "[1] 2", "[1.5]", "[true]", "]", "",
                "[1 2]", "[,1]", "[1]]", "[\u20031]"):
        with pytest.raises(PositionError):
            TreeGame(parse_tree(bad)[0])


@pytest.mark.parametrize("leaf", [LEAF_LIMIT + 1, WIN_BOUND, 1_000_000, -1_000_000])
def test_tree_leaves_in_the_win_range_are_refused(leaf: int) -> None:
    line = refused(["search", "tree", f"[{leaf},-1]", "--depth", "2"])
    assert "too large" in line or "too small" in line
    refused(["solve", "tree", f"[{leaf},-1]"])
    with pytest.raises(PositionError, match="outside the score range"):
        TreeGame([[leaf]])


def test_leaves_at_the_limit_are_plain_values() -> None:
    status, out, _ = run(["solve", "tree", f"[{LEAF_LIMIT},{-LEAF_LIMIT}]", "--json"])
    assert status == 0 and json.loads(out)["value"] == LEAF_LIMIT
    assert negamax_value([LEAF_LIMIT, -LEAF_LIMIT]) == LEAF_LIMIT


@pytest.mark.parametrize(("game", "line"), [
    ("connect4", ";"), ("othello", ";"), ("tictactoe", ";"), ("tictactoe", "; garbage"),
    ("tictactoe", "x........ garbage"), ("tictactoe", "garbage"), ("bones", "6 six"),
    ("connect4", " ; 4453"), ("othello", "; X"),
])
def test_batch_lines_hold_a_real_position_or_are_reported(game: str, line: str) -> None:
    status, out, err = run(["solve", game, "-"], stdin=line + "\n")
    assert status == 2 and out == "", out
    assert err.startswith("sakiyomi: line 1: ") and len(err.splitlines()) == 1


def test_batch_lines_may_end_with_a_score() -> None:
    lines = "x........ 0\nxx.oo.... 1\n"
    status, out, err = run(["solve", "tictactoe", "-", "--json"], stdin=lines)
    assert status == 0, err
    positions = [json.loads(line)["position"] for line in out.splitlines()]
    assert positions == ["x........", "xx.oo...."]


@pytest.mark.parametrize("game", ["chess", "shogi", "tictactoe", "connect4", "othello", "nim",
                                  "bones", "tree"])
def test_play_shows_a_board_for_every_game(game: str) -> None:
    pytest.importorskip({"chess": "chess", "shogi": "cshogi"}.get(game, "sakiyomi"))
    status, out, err = run(["play", game, "--first", "human", "--second", "human"], "quit\n")
    assert status == 0, err
    assert " object at 0x" not in out and "game abandoned" in out
    board = out.split("your move")[0]
    assert board.strip()
    if game == "chess":
        assert "r n b q k b n r" in board and "white to move" in board
    if game == "shogi":
        assert "l  n  s  g  k  g  s  n  l" in board and "black (sente) to move" in board


def test_a_game_without_a_diagram_is_shown_by_its_moves() -> None:
    class Bare(TreeGame):
        __str__ = object.__str__

    text = board_text(Bare([[1, 2], [3]]))
    assert text == "first to move; legal moves: 0, 1"


def test_huge_heaps_are_drawn_as_numbers() -> None:
    assert str(load("bones", str(10**18))) == "bones: (1,000,000,000,000,000,000)"
    assert str(load("nim", "2,41")) == "heap 0: || (2)  heap 1: (41)"


def test_othello_side_to_move_is_one_letter() -> None:
    board = "-" * 27 + "OX" + "-" * 6 + "XO" + "-" * 27
    assert "side to move 'Xx*'" in refused(["search", "othello", f"{board} Xx*"])
    assert load("othello", f"{board} *").to_move == load("othello", "start").to_move


def test_shogi_side_not_to_move_needs_a_king() -> None:
    pytest.importorskip("cshogi")
    line = refused(["search", "shogi", "9/9/9/9/9/9/9/9/4K4 b - 1", "--depth", "1"])
    assert "white has no king" in line
    refused(["search", "shogi", "4k4/9/9/9/9/9/9/9/9 w G 1", "--depth", "1"])
    # A mate problem: the attacker, to move, has no king.
    status, _, err = run(["search", "shogi", "4k4/9/9/9/9/9/9/9/9 b G 1", "--depth", "1"])
    assert status == 0, err


def test_messages_stay_one_line_whatever_they_quote() -> None:
    line = refused(["search", "tictactoe", "x\n" * 5000])
    assert len(line) < 700


@pytest.fixture
def no_debug(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.delenv("SAKIYOMI_DEBUG", raising=False)
    yield


def test_an_internal_error_is_one_line_and_status_1(monkeypatch: pytest.MonkeyPatch,
                                                    no_debug: None) -> None:
    def broken(*args: object, **kwargs: object) -> int:
        raise ZeroDivisionError("boom\nsecond line")

    monkeypatch.setattr("sakiyomi.cli.perft_position", broken)
    status, _, err = run(["perft", "tictactoe", "start", "1"])
    assert status == 1
    assert err.startswith("sakiyomi: internal error: ZeroDivisionError: boom")
    assert len(err.splitlines()) == 1


def test_real_streams_survive_bad_bytes() -> None:
    """The console entry point with undecodable bytes on stdin and in argv (subprocess)."""
    command = [sys.executable, "-c", "import sys; from sakiyomi.cli import main; "
               "sys.exit(main())"]
    out = subprocess.run([*command, "solve", "bones", "-"], input=b"\xff\xfe\n6\n",
                         capture_output=True, timeout=120, check=False)
    assert out.returncode == 2 and b"Traceback" not in out.stderr
    assert out.stderr.decode().startswith("sakiyomi: line 1:")
    assert out.stdout.decode().startswith("6 1 win")
    argv: list[str | bytes] = [*command, "solve", "tictactoe", b"x\xff......."]
    out = subprocess.run(argv, capture_output=True, timeout=120, check=False)
    assert out.returncode == 2 and len(out.stderr.splitlines()) == 1
    assert b"Traceback" not in out.stderr


def test_the_human_prompt_counts_many_moves_instead_of_listing_them() -> None:
    from sakiyomi.agents import PROMPT_MOVES, HumanAgent
    from sakiyomi.games.nim import Nim

    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return "0:1"

    small, big = Nim([2, 1]), Nim([500, 400])
    agent: HumanAgent[tuple[int, int]] = HumanAgent(read, lambda _: None)
    for game in (small, big):
        agent.choose(game)
    every = [small.move_to_text(m) for m in small.legal_moves()]
    assert all(text in prompts[0] for text in every) and "in all" not in prompts[0]
    assert "900 moves in all" in prompts[1]
    assert prompts[1].count(",") == PROMPT_MOVES  # the first moves, then the count
    assert len(prompts[1]) < 400
