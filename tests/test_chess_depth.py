"""bench/chess_depth.py's screen on two positions at depth 2: the summaries agree with the
lines they sum, the engine is its own reference, and a variant with the engine's search
settings (``no-partial`` differs only in which move a stopped iteration plays) searches the
same trees, so every search starts from a fresh table and fresh tables only.
"""

from __future__ import annotations

import json
import math

import pytest
from bench.chess_depth import main, positions

from sakiyomi.games.chess import ChessGame
from sakiyomi.games.chess_endgame import ENDGAME_PHASE
from sakiyomi.games.chess_eval_parts import phase


def test_positions_are_middlegames() -> None:
    fixed = positions(0)
    assert fixed
    assert len(positions(3)) == len(fixed) + 3
    assert all(phase(ChessGame(board)) > ENDGAME_PHASE for board in positions(3))


def test_screen_summaries_match_their_lines(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--variants", "improving", "no-partial", "--depth", "2", "--nodes", "300",
          "--middlegames", "0", "--positions", "2", "--table-bits", "12"])
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    lines = [record for record in records if not record.get("summary")]
    summaries = {record["variant"]: record for record in records if record.get("summary")}
    assert list(summaries) == ["engine", "improving", "no-partial"]
    assert len(lines) == 2 * 3
    engine = summaries["engine"]
    assert engine["nodes"] > 0
    assert engine["ratio"] == engine["geo_ratio"] == 1.0
    assert engine["same_move"] == engine["budget_same_move"] == 2
    assert summaries["no-partial"]["nodes"] == engine["nodes"]
    assert summaries["no-partial"]["same_move"] == 2
    for name, summary in summaries.items():
        own = [line for line in lines if line["variant"] == name]
        assert [line["position"] for line in own] == [0, 1]
        assert summary["positions"] == 2 and summary["depth"] == 2
        assert summary["nodes"] == sum(line["nodes"] for line in own)
        assert summary["ratio"] == round(summary["nodes"] / engine["nodes"], 4)
        assert summary["geo_ratio"] == pytest.approx(
            math.sqrt(own[0]["ratio"] * own[1]["ratio"]), abs=1e-3)
        assert summary["same_move"] == sum(line["same_move"] for line in own)
        assert all(line["budget_depth"] >= 1 and line["move"] for line in own)
        assert summary["budget_depth_mean"] == pytest.approx(
            sum(line["budget_depth"] for line in own) / 2)
        assert len(summary["load_start"]) == len(summary["load_end"]) == 3


@pytest.mark.parametrize(("flag", "value", "message"), [
    ("--depth", "0", "--depth must be in 1..64"), ("--nodes", "-5", "--nodes must be 1 or more"),
    ("--table-bits", "40", "--table-bits must be in 1..30")])
def test_bad_numbers_are_refused_before_any_search(
        flag: str, value: str, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main([flag, value, "--positions", "1"])
    assert stopped.value.code == 2
    assert message in capsys.readouterr().err
