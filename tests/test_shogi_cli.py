"""The CLI contract (DESIGN.md §8) for GAME shogi."""

from __future__ import annotations

import json

import cshogi
import pytest

from sakiyomi.cli import main
from tests.shogi_data import rows


def test_perft_through_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "shogi", "startpos", "3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["nodes"] == 25470  # published count


def test_search_returns_a_legal_move(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["search", "shogi", "startpos moves 7g7f", "--depth", "3", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    board = cshogi.Board()
    board.push_usi("7g7f")
    assert record["best_move"] in {cshogi.move_to_usi(m) for m in board.legal_moves}
    assert record["depth"] == 3 and len(record["pv"]) == 3


def test_search_finds_the_mate_in_one(capsys: pytest.CaptureFixture[str]) -> None:
    # c-006 of the classic set: G*5b mates (answer from tests/data/shogi/tsume_classic.tsv).
    row = next(r for r in rows("tsume_classic.tsv") if r["id"] == "c-006")
    assert main(["search", "shogi", row["sfen"], "--depth", "2", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["best_move"] in row["first_moves"].split(",")
    assert record["score"] == "win in 1"


@pytest.mark.parametrize("position", ["lnsg", "startpos moves 7g7f 7g7f", "sfen", "startpos x"])
def test_bad_positions_exit_2(position: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["search", "shogi", position, "--depth", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("sakiyomi: error:") and err.count("\n") == 1
