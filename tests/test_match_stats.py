"""bench/match_stats.py: Elo, its interval, LOS, opening pairs and Wald's SPRT, checked against
values worked out by hand and against simulated matches of known strength; and the SPRT
stopping a shogi bench match (its games stubbed)."""

from __future__ import annotations

import argparse
import json
import math
import random
from pathlib import Path
from typing import Any

import bench.shogi as bench_shogi
import pytest
from bench.match_stats import (
    MIN_PAIRS,
    Sprt,
    elo,
    elo_interval,
    expected_score,
    los,
    main,
    pairs,
    pentanomial,
    records_scores,
    summary,
)


def test_elo_and_expected_score_are_inverse() -> None:
    assert elo(0.5) == 0
    assert elo(0.75) == pytest.approx(400 * math.log10(3))
    assert elo(0.0) is None and elo(1.0) is None
    for difference in (-300, -40, 0, 25, 190):
        assert elo(expected_score(difference)) == pytest.approx(difference)


def test_interval_holds_the_estimate_and_mirrors() -> None:
    share, low, high = elo_interval(30, 10, 20)
    assert share == pytest.approx(35 / 60)
    point = elo(share)
    assert low is not None and high is not None and point is not None
    assert low < point < high
    mirrored = elo_interval(20, 10, 30)
    assert mirrored[1] == pytest.approx(-high) and mirrored[2] == pytest.approx(-low)
    share, low, high = elo_interval(0, 0, 12)  # all lost: no low end, a finite high end
    assert share == 0 and low is None and high is not None and high < 0
    with pytest.raises(ValueError, match="no games"):
        elo_interval(0, 0, 0)


def test_los() -> None:
    assert los(0, 0) == 0.5 and los(7, 7) == 0.5
    assert los(20, 10) == pytest.approx(0.5 * (1 + math.erf(10 / math.sqrt(60))))
    assert los(10, 20) == pytest.approx(1 - los(20, 10))


def test_pairs_are_the_two_colours_of_one_opening() -> None:
    scores = {0: 1.0, 1: 0.0, 2: 1.0, 3: 1.0, 4: 0.5, 7: 0.0}  # 4 and 7 have no partner
    assert pairs(scores) == [0.5, 1.0]
    assert pentanomial(scores) == [0, 0, 1, 0, 1]
    assert pentanomial({0: 0.5, 1: 0.0, 2: 0.5, 3: 1.0}) == [0, 1, 0, 1, 0]


def test_sprt_ratio_by_hand() -> None:
    test = Sprt(0, 40)
    lower, upper = test.bounds
    assert upper == pytest.approx(math.log(19)) and lower == pytest.approx(-math.log(19))
    s0, s1 = expected_score(0), expected_score(40)
    samples = [0.5, 0.75, 0.25, 1.0]
    mean, variance = 0.625, sum((x - 0.625) ** 2 for x in samples) / 4
    assert test.llr(samples) == pytest.approx(4 * (s1 - s0) * (2 * mean - s0 - s1)
                                              / (2 * variance))
    middle = (s0 + s1) / 2
    assert test.llr([middle - 0.25, middle + 0.25]) == pytest.approx(0)
    assert test.llr([]) == 0
    assert test.decision([1.0] * (MIN_PAIRS - 1)) is None  # too few pairs to decide
    assert test.decision([1.0] * MIN_PAIRS) == "H1"
    assert test.decision([0.0] * MIN_PAIRS) == "H0"
    with pytest.raises(ValueError, match="elo1 > elo0"):
        Sprt(10, 10)
    with pytest.raises(ValueError, match="error rates"):
        Sprt(0, 10, alpha=0.7)


def simulated_pairs(difference: float, seed: int, count: int) -> list[float]:
    """Pair means of a side ``difference`` Elo stronger: each game a win, draw or loss with
    a third of the games drawn."""
    rng = random.Random(seed)
    target = expected_score(difference)  # win + draw / 2 = target, draws 1/3
    win = target - 1 / 6
    result = []
    for _ in range(count):
        games = [1.0 if (r := rng.random()) < win else 0.5 if r < win + 1 / 3 else 0.0
                 for _ in range(2)]
        result.append(sum(games) / 2)
    return result


@pytest.mark.parametrize(("difference", "expected"), [(80, "H1"), (-40, "H0")])
def test_sprt_finds_a_known_strength(difference: float, expected: str) -> None:
    test = Sprt(0, 40)
    for seed in range(3):
        samples = simulated_pairs(difference, seed, 4000)
        decided = next(test.decision(samples[:n]) for n in range(MIN_PAIRS, 4001)
                       if test.decision(samples[:n]) is not None)
        assert decided == expected


def test_summary_and_the_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shogi = tmp_path / "shogi.jsonl"
    shogi.write_text("\n".join(json.dumps({"bench": "match-game", "game": n + 1,
                                           "result": "WLDW"[n]}) for n in range(4))
                     + "\nnot json\n" + json.dumps({"bench": "match", "W": 9}) + "\n")
    chess = tmp_path / "chess.jsonl"
    chess.write_text(json.dumps({"bench": "chess_selfplay", "game": 0, "score": 0.0}) + "\n")
    assert records_scores(shogi.read_text().splitlines()) == {0: 1.0, 1: 0.0, 2: 0.5, 3: 1.0}
    assert main([str(shogi), str(chess), "--sprt", "0", "40"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == summary({0: 1.0, 1: 0.0, 2: 0.5, 3: 1.0, 1 << 32: 0.0}, Sprt(0, 40))
    assert (printed["games"], printed["W"], printed["D"], printed["L"]) == (5, 2, 1, 2)
    assert printed["pairs"] == [0, 0, 1, 1, 0]  # the chess file's lone game has no partner
    # bench/chess.py's match lines (its closing summary line has no result), two shards
    played = [json.dumps({"bench": "match", "game": n + 1, "result": word})
              for n, word in ((0, "win"), (1, "draw"), (50, "loss"))]
    assert records_scores([*played, json.dumps({"bench": "match", "W": 1})]) == {
        0: 1.0, 1: 0.5, 50: 0.0}
    assert main([str(tmp_path / "missing.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert main([str(empty)]) == 2
    assert main([str(shogi), "--sprt", "40", "0"]) == 2
    assert "elo1 > elo0" in capsys.readouterr().err


class StubEngine:
    def quit(self) -> None:
        pass


def test_a_shogi_match_stops_when_the_sprt_decides(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    played: list[bool] = []

    def won(ours: Any, theirs: Any, ours_black: bool, opening: list[str],
            max_plies: int) -> tuple[str, str, int]:
        played.append(ours_black)
        return "W", "stub", 10

    monkeypatch.setattr(bench_shogi, "start_opponent", lambda *args: StubEngine())
    monkeypatch.setattr(bench_shogi, "start_ours", lambda options: StubEngine())
    monkeypatch.setattr(bench_shogi, "setup", lambda: "/usr/games/fairy-stockfish")
    monkeypatch.setattr(bench_shogi, "play_game", won)
    args = argparse.Namespace(yaneuraou=None, usi_opponent=None, their_option=[], option=[],
                              our_nodes=100, byoyomi=1000, start_game=0, games=96,
                              max_plies=10, sprt=[0.0, 40.0])
    bench_shogi.bench_match(args, "fsf", {"nodes": 100})
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(played) == 2 * MIN_PAIRS  # decided at the first moment it may be
    final = lines[-1]
    assert final["bench"] == "match" and final["games"] == 2 * MIN_PAIRS
    assert final["sprt"]["decision"] == "H1" and final["W"] == 2 * MIN_PAIRS
    assert all("llr" in line for line in lines[:-1])
