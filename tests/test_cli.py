"""The command line as scripts and people use it: JSON contract, batch mode, play, bad input."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from sakiyomi.cli import main


def sakiyomi(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sakiyomi", *args], input=stdin, capture_output=True, text=True,
        timeout=120,
    )


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main([*args, "--json"]) == 0
    record: dict[str, object] = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    return record


CONTRACT = {"game", "position", "algorithm", "value", "best_move", "pv", "nodes", "leaves",
            "depth", "seconds"}


@pytest.mark.parametrize(
    "algorithm",
    ["minimax", "negamax", "alphabeta-hard", "alphabeta", "negascout", "mtdf", "pvs",
     "alphabeta-minmax", "alphabeta-minmax-hard", "and-or"],
)
def test_search_seed_tree_with_every_algorithm(
    capsys: pytest.CaptureFixture[str], algorithm: str
) -> None:
    record = run_json(capsys, "search", "tree", "[[3,5,1],[7,3,-4],[-3,0,3]]",
                      "--algorithm", algorithm)
    assert set(record) >= CONTRACT
    assert record["value"] == 1 and record["best_move"] == "0"
    pv = record["pv"]
    assert isinstance(pv, list) and pv[:1] == ["0"]


def test_search_minmax_convention(capsys: pytest.CaptureFixture[str]) -> None:
    record = run_json(capsys, "search", "tree", "max:[[3,5],[2,9]]", "--algorithm", "minimax")
    assert record["value"] == 3


def test_search_says_when_its_value_is_proven(capsys: pytest.CaptureFixture[str]) -> None:
    """A value no depth limit touched is the game's result, and the output says so; a
    heuristic value at the horizon does not claim it (Connect Four's 18 and a heuristic 18
    look alike as numbers)."""
    assert main(["search", "tictactoe", "start", "--depth", "9"]) == 0
    assert capsys.readouterr().out.startswith("value 0 (draw, proven)  best ")
    assert main(["search", "connect4", "4455", "--depth", "7", "--engine", "python"]) == 0
    assert capsys.readouterr().out.startswith("value 18 (win, proven)  best 3 ")
    record = run_json(capsys, "search", "connect4", "44", "--depth", "3", "--engine", "python")
    assert record["exact"] is False
    assert main(["search", "connect4", "44", "--depth", "3", "--engine", "python"]) == 0
    assert "proven" not in capsys.readouterr().out
    assert run_json(capsys, "search", "tictactoe", "start", "--depth", "9")["exact"] is True
    # a textbook run reports no such flag
    record = run_json(capsys, "search", "tree", "[[3,5],[2,9]]", "--algorithm", "minimax")
    assert record["exact"] is None


def test_solve_contract(capsys: pytest.CaptureFixture[str]) -> None:
    record = run_json(capsys, "solve", "bones", "8")
    assert set(record) >= CONTRACT and record["result"] == "loss" and record["value"] == -1
    record = run_json(capsys, "solve", "tictactoe", "xx.oo....", "--weak")
    assert record["result"] == "win" and record["value"] == 1 and record["best_move"] == "3"


def test_batch_solve_reports_bad_lines_and_goes_on() -> None:
    out = sakiyomi("solve", "bones", "-", "--json", stdin="6\nseven\n8\n")
    assert out.returncode == 2
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    assert [r["result"] for r in lines] == ["win", "loss"]
    assert "line 2" in out.stderr and "seven" in out.stderr
    assert "Traceback" not in out.stderr


def test_analyze_and_perft(capsys: pytest.CaptureFixture[str]) -> None:
    record = run_json(capsys, "analyze", "nim", "1,2")
    moves = record["moves"]
    assert isinstance(moves, list)
    winning = [m["move"] for m in moves if m["value"] == 1]
    assert winning == ["1:1"]  # only equalising the heaps wins (Bouton)
    record = run_json(capsys, "perft", "tictactoe", "start", "2")
    assert record["nodes"] == 72


def test_analyze_text_shows_scores_not_table_values(capsys: pytest.CaptureFixture[str]) -> None:
    """A mate reads 'win in 1', not the table's number; exact values carry their result."""
    assert main(["analyze", "chess", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "--depth", "3"]) == 0
    first = capsys.readouterr().out.splitlines()[0].split()
    assert first[:4] == ["d1d8", "win", "in", "1"]
    assert main(["analyze", "tictactoe", "x........", "--exact"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[1:3] == ["0", "draw"]
    assert all(" draw " in line or " loss in " in line for line in lines[:-1])


@pytest.mark.parametrize(
    "args",
    [
        ["search", "tictactoe", "xxxxxxxxx"],
        ["search", "chequers", "start"],
        ["search", "tictactoe", "start", "--depth", "0"],
        ["search", "tictactoe", "start", "--depth", "x"],
        ["search", "tictactoe", "start", "--algorithm", "nonsense"],
        ["search", "tictactoe", "start", "--frobnicate"],
        ["solve", "tree", "[1,"],
        ["perft", "nim", "3,4", "-1"],
        ["analyze", "tictactoe", "xxxooo..."],
        ["search", "tictactoe", "xxx.oo.o."],
        [],
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str]) -> None:
    out = sakiyomi(*args)
    assert out.returncode == 2, out
    assert "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert out.stderr.startswith("sakiyomi: error: ")


def test_play_human_against_computer_refuses_bad_moves_and_quits() -> None:
    out = sakiyomi("play", "tictactoe", "--first", "human", "--second", "cpu", "--depth", "3",
                   stdin="5\n5\nbanana\n0\nquit\n")
    assert out.returncode == 0, out.stderr
    assert "refused: cell 5 is already taken" in out.stdout
    assert "refused: move 'banana' is not a cell number 1-9" in out.stdout
    assert "refused: move '0'" in out.stdout
    assert "cpu plays" in out.stdout and "nodes" in out.stdout and "pv" in out.stdout
    assert "game abandoned" in out.stdout


def test_play_ends_cleanly_on_end_of_input() -> None:
    out = sakiyomi("play", "bones", "--position", "9", stdin="")
    assert out.returncode == 0 and "game abandoned" in out.stdout
    assert "Traceback" not in out.stderr


def test_computer_against_computer_draws_tictactoe() -> None:
    out = sakiyomi("play", "tictactoe", "--first", "cpu", "--second", "cpu")
    assert out.returncode == 0
    assert out.stdout.strip().splitlines()[-1].startswith("draw")


def test_human_can_play_second_and_lose_to_perfect_bones() -> None:
    # 9 bones: the computer (first) takes 1 leaving 8, a lost heap for the human.
    out = sakiyomi("play", "bones", "--first", "cpu", "--second", "human", "--position", "9",
                   stdin="1\n1\n1\n1\n1\n1\n")
    assert "first (cpu) plays 1" in out.stdout
    assert out.stdout.strip().splitlines()[-1].startswith("first wins")


@pytest.mark.parametrize("chunk_size", [1, 2, 3, 1 << 16])
def test_batch_input_lines_whatever_the_reads(chunk_size: int) -> None:
    """The batch reader (``_input_lines``: stdin read in chunks, so that answers are flushed
    only when input runs dry) gives the lines a text stream gives, universal newlines and
    replaced bytes included, wherever the reads split a line, a CR LF or a character.
    """
    import io
    import os

    from sakiyomi.cli import _input_lines

    data = "4453\r\n12\rabc \n\n\u00e9\u4e00x\n".encode() + b"\xff\xfe7\r\nlast"
    expected = list(io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="replace"))
    read, write = os.pipe()
    os.write(write, data)
    os.close(write)
    with open(read, encoding="utf-8") as stream:
        got = list(_input_lines(stream, chunk_size))
    assert got == [line.removesuffix("\n") for line in expected]


def test_batch_answers_each_line_before_the_next_arrives() -> None:
    """A program that sends one line and waits for its answer gets it (no deadlock): the
    batch flushes whenever its input runs dry, not only at the end.
    """
    lines = ["2252576253462244111563365343671351441", "7422341735647741166133573473242566"]
    with subprocess.Popen([sys.executable, "-m", "sakiyomi", "solve", "connect4", "-",
                           "--json"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          text=True) as proc:
        assert proc.stdin is not None and proc.stdout is not None
        for line in lines:
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
            assert json.loads(proc.stdout.readline())["position"] == line
        proc.stdin.close()
        assert proc.stdout.read() == ""
        assert proc.wait(timeout=60) == 0


def test_the_programs_ask_openblas_for_one_thread_and_a_library_user_keeps_its_own() -> None:
    """``sakiyomi/__init__``: the command-line programs set ``OPENBLAS_NUM_THREADS`` (unless
    already set) before numpy starts its thread pool; importing sakiyomi as a library does not.
    """
    import os
    import subprocess
    import sys

    def seen(argv0: str, preset: str | None) -> str:
        env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
        if preset is not None:
            env["OPENBLAS_NUM_THREADS"] = preset
        code = (f"import sys; sys.argv[0] = {argv0!r}; import sakiyomi, os; "
                "print(os.environ.get('OPENBLAS_NUM_THREADS'))")
        done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                              text=True, check=True, timeout=60)
        return done.stdout.strip()

    assert seen("/venv/bin/sakiyomi", None) == "1"
    assert seen("/venv/bin/sakiyomi-usi", None) == "1"
    assert seen("-m", None) == "1"
    assert seen("/venv/bin/sakiyomi", "4") == "4"  # the user's own setting stays
    assert seen("notebook.py", None) == "None"


def test_every_option_of_every_command_says_what_it_does() -> None:
    # `sakiyomi COMMAND --help` is where a new user learns the options: none may be bare.
    import argparse

    from sakiyomi.cli import build_parser

    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    bare = [f"{name} {'/'.join(action.option_strings) or action.dest}"
            for name, sub in commands.choices.items() for action in sub._actions
            if not isinstance(action, argparse._HelpAction) and not action.help]
    assert bare == []
