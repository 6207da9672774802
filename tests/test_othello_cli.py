"""The CLI contract (DESIGN.md §8) for GAME othello: solve (single and OBF batch lines), search,
perft, play, and bad input (one line, exit status 2).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sakiyomi.cli import main

DATA = Path(__file__).parent / "data" / "othello"
FFO1 = (DATA / "fforum-1-19.obf").read_text().splitlines()[0]  # #1: +18, g8
FFO20 = (DATA / "fforum-20-39.obf").read_text().splitlines()[0]  # #20: +6, h5


def test_solve_json_gives_the_disc_difference_and_best_move(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "othello", FFO1.split(";")[0], "--json"]) == 0
    record = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert (record["value"], record["best_move"], record["result"]) == (18, "g8", "win")
    assert record["pv"][0] == "g8" and record["nodes"] > 0


def test_weak_solve(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "othello", FFO20.split(";")[0], "--weak", "--json"]) == 0
    record = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert (record["value"], record["result"]) == (1, "win")


def test_batch_reads_obf_lines(capsys: pytest.CaptureFixture[str],
                               monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO(f"{FFO1}\n\nnot a board X\n{FFO20}\n"))
    assert main(["solve", "othello", "-", "--json"]) == 2  # the bad line is reported
    captured = capsys.readouterr()
    values = [json.loads(line)["value"] for line in captured.out.splitlines()
              if line.startswith("{")]
    assert values == [18, 6]
    assert "line 3" in captured.err


def test_search_with_time_and_depth(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["search", "othello", "start", "--depth", "4", "--json"]) == 0
    record = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert record["best_move"] in {"c4", "d3", "e6", "f5"} and record["depth"] == 4
    # Near the end the search reads to the end: the exact value of FFO #20.
    assert main(["search", "othello", FFO20.split(";")[0], "--time", "1", "--json"]) == 0
    record = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert (record["value"], record["best_move"]) == (6, "h5")


def test_perft_and_play(capsys: pytest.CaptureFixture[str],
                        monkeypatch: pytest.MonkeyPatch) -> None:
    assert main(["perft", "othello", "start", "5"]) == 0
    assert capsys.readouterr().out.strip() == "1396"
    answers = iter(["i9", "e6", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    assert main(["play", "othello", "--first", "human", "--second", "cpu", "--depth", "2"]) == 0
    captured = capsys.readouterr()
    out = captured.out + captured.err
    assert "refused: move 'i9' is not a square" in out and "(human) plays e6" in out


@pytest.mark.parametrize("position, words", [
    ("X" * 10 + " X", "64 squares"),
    ("-" * 27 + "OX------XO" + "-" * 27 + " W", "side to move 'W'"),
    ("-" * 27 + "OZ------XO" + "-" * 27 + " X", "square e4 holds 'Z'"),
])
def test_bad_positions_exit_2_with_one_line(capsys: pytest.CaptureFixture[str], position: str,
                                            words: str) -> None:
    assert main(["solve", "othello", position]) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and len(err.splitlines()) == 1
