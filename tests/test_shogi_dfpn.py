"""The df-pn mate solver against the mate sets (answers from an independent AND/OR search)."""

from __future__ import annotations

import pytest

from sakiyomi.games.shogi import ShogiGame
from sakiyomi.games.shogi_facade import is_forced_mate_line
from sakiyomi.search.dfpn import solve_mate
from sakiyomi.search.limits import StopSignal
from tests.shogi_data import SLOW, rows

MATE3 = rows("mate3_yaneuraou.tsv")
MATE5 = rows("mate5_yaneuraou.tsv")
MATE7 = rows("mate7_yaneuraou.tsv")
CLASSIC = rows("tsume_classic.tsv")


def _check(row: dict[str, str]) -> None:
    game = ShogiGame(row["sfen"])
    result = solve_mate(game, stop=StopSignal(seconds=60))
    assert game.sfen() == ShogiGame(row["sfen"]).sfen()  # the game is restored
    if row["mate_ply"].startswith("none"):
        assert result.status == "nomate"
        return
    line = [game.move_to_text(m) for m in result.moves]
    assert result.status == "mate"
    assert len(line) == int(row["mate_ply"])  # shortest mate under normal rules
    assert line[0] in row["first_moves"].split(",")
    assert is_forced_mate_line(row["sfen"], line)


@pytest.mark.parametrize("row", MATE3, ids=[r["id"] for r in MATE3])
def test_every_mate_in_3(row: dict[str, str]) -> None:
    _check(row)


@pytest.mark.parametrize("row", CLASSIC, ids=[r["id"] for r in CLASSIC])
def test_classic_tsume_and_no_mate_controls(row: dict[str, str]) -> None:
    _check(row)


@pytest.mark.parametrize("row", MATE5, ids=[r["id"] for r in MATE5])
def test_every_mate_in_5(row: dict[str, str]) -> None:
    _check(row)


@pytest.mark.parametrize("row", [pytest.param(r, marks=SLOW, id=r["id"]) for r in MATE7])
def test_every_mate_in_7(row: dict[str, str]) -> None:
    _check(row)


def test_no_checks_is_nomate_and_a_stop_is_unknown() -> None:
    assert solve_mate(ShogiGame()).status == "nomate"
    row = MATE7[0]
    stopped = StopSignal()
    stopped.stop()
    result = solve_mate(ShogiGame(row["sfen"]), stop=stopped)
    assert result.status == "unknown" and result.moves == ()


def test_ply_limit_reports_nomate_below_the_mate_length() -> None:
    row = MATE5[0]
    assert solve_mate(ShogiGame(row["sfen"]), max_ply=3).status == "nomate"
    assert solve_mate(ShogiGame(row["sfen"]), max_ply=5).plies == 5


def test_a_small_table_still_finds_the_shortest_mates() -> None:
    from sakiyomi.search.dfpn import DfPn

    for row in MATE5[:8]:
        game = ShogiGame(row["sfen"])
        solver = DfPn(game, StopSignal(seconds=60), check_every=16, max_entries=300)
        plies = next(p for p in range(1, 9, 2) if solver.prove(p))
        assert plies == int(row["mate_ply"])
        line = [game.move_to_text(m) for m in solver.mate_line(plies)]
        assert len(line) == plies and is_forced_mate_line(row["sfen"], line)
