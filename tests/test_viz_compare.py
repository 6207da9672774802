"""``compare``: every algorithm agrees on the value, and move ordering visibly saves nodes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sakiyomi.cli import main
from sakiyomi.games import load
from sakiyomi.games.tictactoe import TicTacToe
from sakiyomi.games.tree import TreeGame, negamax_value, random_tree
from sakiyomi.search import textbook
from sakiyomi.search.result import SearchInfo, SearchStats
from sakiyomi.viz.compare import Row, compare, minimal_leaves
from sakiyomi.viz.progress import Watch, batch, interactive


def rows(report_rows: list[Row]) -> dict[str, Row]:
    return {r.algorithm: r for r in report_rows}


def test_ordering_effect_on_tictactoe() -> None:
    report = compare(TicTacToe(), 4)
    table = rows(report.rows)
    # and-or answers win/no-win; mcts plays out to the end (no depth): its own scale
    assert len({r.value for r in report.rows if r.algorithm not in ("and-or", "mcts")}) == 1
    # Counts of the textbook algorithms come from the textbook functions themselves.
    assert table["minimax"].nodes == textbook.minimax(TicTacToe(), 4).nodes
    assert table["alphabeta"].nodes < table["minimax"].nodes
    assert table["pvs"].nodes < table["pvs -ordering"].nodes  # ordering saves nodes
    assert table["pvs"].tt_hits > 0 and table["pvs -tt"].tt_hits == 0
    assert table["alphabeta"].cutoffs > 0 and table["minimax"].cutoffs == 0
    assert report.depth == 4
    assert report.full_leaves == pytest.approx(table["minimax"].leaves)  # b = leaves^(1/d)


@pytest.mark.parametrize("seed", range(3))
def test_ordering_effect_on_a_depth_6_uniform_random_tree(seed: int) -> None:
    tree = random_tree(3, 6, seed, low=-999_000, high=999_000)
    report = compare(TreeGame(tree), None)
    table = rows(report.rows)
    assert {r.value for r in report.rows if r.algorithm != "and-or"} == {negamax_value(tree)}
    assert table["and-or"].value == int(negamax_value(tree) > 0)
    assert report.depth == 6 and report.branching == pytest.approx(3)
    assert table["minimax"].leaves == 3**6 == round(report.full_leaves)
    # Best-first ordering reaches Knuth & Moore's minimal tree; worst-first is far above it.
    best, worst = table["alphabeta best-first"], table["alphabeta worst-first"]
    assert best.leaves == round(minimal_leaves(3, 6)) == 3**3 + 3**3 - 1
    assert best.leaves <= table["alphabeta"].leaves <= worst.leaves <= table["minimax"].leaves
    assert best.leaves < worst.leaves / 4


def test_compare_cli_json_and_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    plot = tmp_path / "nodes.svg"
    assert main(["compare", "bones", "8", "--depth", "4", "--json", "--plot", str(plot)]) == 0
    record = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    names = [r["algorithm"] for r in record["rows"]]
    assert {"minimax", "alphabeta", "negascout", "mtdf", "pvs", "pvs -ordering", "pvs -tt",
            "pvs -pvs", "pvs -killers", "pvs +presort"} <= set(names)
    assert {"nodes", "leaves", "cutoffs", "tt_hits", "seconds"} <= set(record["rows"][0])
    assert plot.read_text(encoding="utf-8").lstrip().startswith(("<?xml", "<svg"))
    assert main(["compare", "bones", "8", "--plot", str(tmp_path / "x.gif")]) == 2


def test_progress_is_silent_off_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    assert not interactive(False)  # pytest captures stdout: not a TTY
    with Watch(interactive(False)) as watch:
        signal = watch.signal()
        assert not signal.should_stop(10)
        watch.on_info(SearchInfo(1, 0, (), SearchStats(nodes=5), 0.1))
    assert list(batch(iter([1, 2, 3]), enabled=False)) == [1, 2, 3]
    assert capsys.readouterr().out == ""


def test_progress_lines_when_enabled(capsys: pytest.CaptureFixture[str]) -> None:
    class Live:
        stats = SearchStats(nodes=2048)

    with Watch(True, move_text=lambda m: f"m{m}") as watch:
        assert not watch.signal().should_stop(2048)
        watch.follow(Live())
        assert "2,048 nodes" in str(watch._status())  # the live count of the followed engine
        watch.on_info(SearchInfo(3, 7, (1, 2), SearchStats(nodes=5000), 0.5))
    out = capsys.readouterr().out
    assert "depth   3" in out and "pv m1 m2" in out and "5,000" in out
    assert list(batch(iter("abc"), enabled=True)) == ["a", "b", "c"]


@pytest.mark.parametrize(("game", "position"), [("tictactoe", "start"), ("connect4", "4453")])
def test_the_presort_row_changes_the_tree_not_the_value(game: str, position: str) -> None:
    # Seed 003's preliminary search, on the Python engine (tic-tac-toe) and the compiled one
    # (Connect Four), which once searched without it: its shallow searches are nodes of the
    # row (tic-tac-toe at depth 6: 4,011 against 1,693 for "pvs" when written).
    rows = {r.algorithm: r for r in compare(load(game, position), 6).rows}
    assert rows["pvs +presort"].value == rows["pvs"].value == rows["minimax"].value
    assert rows["pvs +presort"].nodes != rows["pvs"].nodes
