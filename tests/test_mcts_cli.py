"""``--algorithm mcts`` on the command line: search, analyze, play, tree, bad input."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from sakiyomi.cli import main

CONTRACT = {"game", "position", "algorithm", "value", "best_move", "pv", "nodes", "leaves",
            "depth", "seconds"}


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main([*args, "--json"]) == 0
    record: dict[str, object] = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    return record


def sakiyomi(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sakiyomi", *args], input=stdin,
                          capture_output=True, text=True, timeout=300)


def test_search_keeps_the_json_contract_and_proves_the_seed_tree(
        capsys: pytest.CaptureFixture[str]) -> None:
    record = run_json(capsys, "search", "tree", "[[3,5,1],[7,3,-4],[-3,0,3]]",
                      "--algorithm", "mcts")
    assert set(record) >= CONTRACT
    assert record["value"] == 1 and record["best_move"] == "0"  # the NegaMax value, proven
    stats = record["stats"]
    assert isinstance(stats, dict) and stats["proven"] == "win"
    assert sum(stats["visits"].values()) == stats["iterations"] == record["leaves"]


def test_search_text_says_whether_the_value_is_proven(
        capsys: pytest.CaptureFixture[str]) -> None:
    """A playouts' mean is not a NegaMax value: the text line says which it is."""
    assert main(["search", "tictactoe", "start", "--algorithm", "mcts", "--iterations",
                 "300"]) == 0
    assert "(playouts' mean, not proven)  best " in capsys.readouterr().out.splitlines()[0]
    assert main(["search", "tictactoe", "xo.x.o...", "--algorithm", "mcts", "--iterations",
                 "20000"]) == 0
    first = capsys.readouterr().out.splitlines()[0]  # x wins at once on 7: said as such
    assert first.startswith("value win in 1  best 7") and "mean" not in first
    assert main(["search", "tictactoe", "xoxxoo.x.", "--algorithm", "mcts", "--iterations",
                 "2000"]) == 0  # o must block on 7: a proven draw
    assert capsys.readouterr().out.startswith("value 0 (proven draw)  best 7")


def test_search_with_iterations_and_a_seed_is_reproducible(
        capsys: pytest.CaptureFixture[str]) -> None:
    args = ("search", "connect4", "44", "--algorithm", "mcts", "--iterations", "800",
            "--seed", "3")
    a, b = run_json(capsys, *args), run_json(capsys, *args)
    sa, sb = a["stats"], b["stats"]
    assert isinstance(sa, dict) and isinstance(sb, dict)
    assert {**sa, "nps": 0} == {**sb, "nps": 0}
    assert a["best_move"] == b["best_move"] and a["nodes"] == b["nodes"]
    assert sa["engine"] == "compiled"


def test_analyze_lists_every_move_with_visits(capsys: pytest.CaptureFixture[str]) -> None:
    record = run_json(capsys, "analyze", "tictactoe", "x........", "--algorithm", "mcts",
                      "--iterations", "4000")
    moves = record["moves"]
    assert isinstance(moves, list) and len(moves) == 8
    assert record["best_move"] == "5"  # the only move that does not lose to a corner
    assert moves[0]["proven"] in ("draw", None)
    assert all(m["proven"] in ("loss", None) for m in moves[1:])
    assert moves[0]["visits"] == max(m["visits"] for m in moves)


def test_computer_against_computer_mcts_draws_tictactoe() -> None:
    out = sakiyomi("play", "tictactoe", "--first", "cpu", "--second", "cpu", "--algorithm",
                   "mcts", "--iterations", "3000")
    assert out.returncode == 0, out.stderr
    assert "kept" in out.stdout  # the tree was reused between moves
    assert out.stdout.strip().splitlines()[-1].startswith("draw")


def test_tree_draws_visits_and_widths(tmp_path: Path) -> None:
    svg = tmp_path / "uct.svg"
    assert main(["tree", "tictactoe", "x...o....", "--algorithm", "mcts", "--iterations",
                 "300", "-o", str(svg)]) == 0
    text = svg.read_text(encoding="utf-8")
    nodes = re.findall(r'<g class="node[^"]*" data-visits="(\d+)"', text)
    assert int(nodes[0]) == 300  # the root saw every iteration
    widths = [(int(v), float(w)) for w, v in
              re.findall(r'stroke-width="([\d.]+)" stroke-opacity="0.75" data-visits="(\d+)"',
                         text)]
    assert widths and sorted(widths) == sorted(widths, key=lambda vw: (vw[1], vw[0]))
    assert 'class="node pv"' in text


def test_tree_text_and_dot(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tree", "tree", "[[3,5,1],[7,3,-4],[-3,0,3]]", "--algorithm", "mcts"]) == 0
    out = capsys.readouterr().out
    assert "n=" in out and "q=" in out and "*" in out
    assert main(["tree", "bones", "6", "--algorithm", "mcts", "--format", "dot"]) == 0
    assert capsys.readouterr().out.startswith("digraph mcts {")


@pytest.mark.parametrize("args", [
    ["search", "tictactoe", "start", "--algorithm", "mcts", "--depth", "3"],
    ["search", "tictactoe", "start", "--iterations", "10"],
    ["search", "bones", "7", "--algorithm", "mcts", "--rollout", "game"],
    ["search", "tictactoe", "start", "--algorithm", "mcts", "--exploration", "nan"],
    ["analyze", "tictactoe", "start", "--algorithm", "mcts", "--exact"],
    ["analyze", "tictactoe", "start", "--algorithm", "negamax"],
    ["play", "tictactoe", "--algorithm", "mcts", "--depth", "2"],
    ["tree", "tictactoe", "start", "--algorithm", "alphabeta", "--seed", "1"],
    ["tree", "tictactoe", "start", "--algorithm", "mcts", "--depth", "2"],
    ["tree", "tictactoe", "xxxoo....", "--algorithm", "mcts"],
])
def test_bad_input_is_one_line_and_exit_2(args: list[str]) -> None:
    out = sakiyomi(*args)
    assert out.returncode == 2, out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and "Traceback" not in out.stderr
