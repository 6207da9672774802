"""Pictures read back: the SVG (parsed as XML), DOT and text agree with the recorded trace, and
the seeds' worked examples come out as the source documents describe them.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import pytest

from sakiyomi.cli import main
from sakiyomi.games.tree import random_tree
from sakiyomi.viz.commands import render, trace_picture
from sakiyomi.viz.picture import Picture
from sakiyomi.viz.trace import TraceNode, TreeRecorder

SVG = "{http://www.w3.org/2000/svg}"
SEED_000 = "[[3,5,1],[7,3,-4],[-3,0,3]]"
# Seed 002, figures 1 and 4: depth 3, two branches, A→C→G→N best with value 65; αβ in this
# order leaves only K unsearched.  Figures 5 and 6: the same tree sorted best-first, where
# L, E, K and J are never searched.  (Leaf values chosen to satisfy the figures' captions.)
FIG1 = "max:[[[40,55],[60,20]],[[70,80],[65,50]]]"
FIG5 = "max:[[[65,50],[80,70]],[[55,40],[60,20]]]"


def svg_nodes(picture: Picture) -> tuple[list[ET.Element], list[ET.Element]]:
    root = ET.fromstring(render(picture, "svg"))
    nodes = [g for g in root.iter(f"{SVG}g") if "node" in g.get("class", "").split()]
    cuts = [t for t in root.iter(f"{SVG}text") if t.get("class") == "cut"]
    return nodes, cuts


def classes(element: ET.Element) -> set[str]:
    return set(element.get("class", "").split())


def by_order(picture: Picture) -> dict[int, TraceNode]:
    return {n.order: n for r in picture.roots for n in r.walk() if n.searched}


def check_against_trace(picture: Picture, recorder: TreeRecorder) -> None:
    nodes, cuts = svg_nodes(picture)
    searched = [g for g in nodes if "searched" in classes(g)]
    recorded = by_order(picture)
    # Node count and values.
    assert len(searched) == len(recorded) == sum(r.count() for r in picture.roots)
    for g in searched:
        node = recorded[int(g.get("data-order", "0"))]
        assert g.get("data-value") == str(node.value)
        assert ("tt" in classes(g)) == node.tt_hit
        assert ("research" in classes(g)) == node.research
    # Cut markers: one per cut that skipped something, of the recorded kind.
    cut_nodes = [n for n in recorded.values() if n.cut and any(c.pruned for c in n.children)]
    assert sorted(t.get("data-cut", "") for t in cuts) == sorted(n.cut or "" for n in cut_nodes)
    assert len([g for g in nodes if "pruned" in classes(g)]) == sum(
        r.pruned_count() for r in picture.roots)
    # PV: the highlighted nodes are the PV moves walked from the last root.
    pv_paths = sorted(g.get("data-path", "") for g in nodes if "pv" in classes(g))
    texts = [recorder.game.move_to_text(m) for m in picture.pv] if recorder.game else []
    expected = ["/".join(["", *texts[:k]]) if k else "" for k in range(len(texts) + 1)]
    assert pv_paths == sorted(expected)


@pytest.mark.parametrize("algorithm", ["minimax", "negamax", "alphabeta-minmax-hard", "and-or",
                                       "alphabeta", "negascout", "mtdf", "pvs"])
@pytest.mark.parametrize("seed", range(3))
def test_svg_matches_the_recorded_trace(algorithm: str, seed: int) -> None:
    tree = json.dumps(random_tree(3, 4, seed, ragged=seed == 2))
    picture, recorder = trace_picture("tree", tree, algorithm, None)
    check_against_trace(picture, recorder)


def test_svg_matches_trace_on_tictactoe_with_tt_hits_and_researches() -> None:
    picture, recorder = trace_picture("tictactoe", "x...o....", "pvs", 4, max_drawn=5000)
    nodes = [n for r in picture.roots for n in r.walk()]
    assert any(n.tt_hit for n in nodes) and any(n.research for n in nodes)
    check_against_trace(picture, recorder)


def test_seed_000_negamax_values() -> None:
    # Seed 000: E1 = -1, E2 = 4, E3 = 3, R = 1; best move E1.
    picture, recorder = trace_picture("tree", SEED_000, "negamax", None)
    nodes, cuts = svg_nodes(picture)
    values = {g.get("data-path"): g.get("data-value") for g in nodes}
    assert values[""] == "1" and values["/0"] == "-1" and values["/1"] == "4"
    assert values["/2"] == "3"
    assert len(nodes) == 13 and not cuts
    check_against_trace(picture, recorder)


def pruned_paths(position: str) -> tuple[set[str], list[str], list[str]]:
    picture, recorder = trace_picture("tree", position, "alphabeta-minmax", None)
    check_against_trace(picture, recorder)
    nodes, cuts = svg_nodes(picture)
    pruned = {g.get("data-path", "") for g in nodes if "pruned" in classes(g)}
    pv = sorted(g.get("data-path", "") for g in nodes if "pv" in classes(g))
    return pruned, sorted(t.text or "" for t in cuts), pv


def test_seed_002_alphabeta_prunes_only_k() -> None:
    pruned, cuts, pv = pruned_paths(FIG1)
    assert pruned == {"/0/1/1"}  # K
    assert cuts == ["β-cut"]
    assert pv == ["", "/1", "/1/1", "/1/1/0"]  # A→C→G→N


def test_seed_002_sorted_tree_prunes_l_e_k_j() -> None:
    pruned, cuts, pv = pruned_paths(FIG5)
    # Sorted: A→C(first)→G(first)→N; F's second leaf L; B's second child E with J and K.
    assert pruned == {"/0/1/1", "/1/1", "/1/1/0", "/1/1/1"}
    assert cuts == ["α-cut", "β-cut"]
    assert pv == ["", "/0", "/0/0", "/0/0/0"]


def test_large_trees_are_summarised_with_counts() -> None:
    picture, _ = trace_picture("tictactoe", "start", "alphabeta", 3, max_drawn=60)
    assert picture.summarised
    nodes, _ = svg_nodes(picture)
    searched = [g for g in nodes if "searched" in classes(g)]
    assert len(nodes) <= 120
    shown = len(searched) + sum(int(g.get("data-hidden", "0")) for g in searched)
    assert shown == picture.searched


def test_dot_and_text_show_the_same_nodes() -> None:
    picture, _ = trace_picture("tree", FIG1, "alphabeta-minmax", None)
    dot = render(picture, "dot")
    drawn = len(picture.drawn())
    assert dot.startswith("digraph") and dot.count(" -> ") == drawn - 1
    assert dot.count("β-cut") == 1
    text = render(picture, "text")
    node_line = re.compile(r"[│├└─ ]*(\d+: )?(#\d+|~)( |$)")
    assert sum(1 for line in text.splitlines() if node_line.match(line)) == drawn
    assert text.count("✂ β-cut") == 1
    assert "#14" in text and "#15" not in text  # 14 nodes searched, in search order


def test_cli_tree_writes_svg_and_rejects_huge_trees(tmp_path: object,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    from pathlib import Path

    out = Path(str(tmp_path)) / "t.svg"
    assert main(["tree", "tree", SEED_000, "--algorithm", "negamax", "-o", str(out)]) == 0
    assert ET.fromstring(out.read_text(encoding="utf-8")).tag == f"{SVG}svg"
    assert main(["tree", "tictactoe", "start", "--algorithm", "minimax",
                 "--max-nodes", "100"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "more than 100 nodes" in err[0]
    assert main(["tree", "tree", "[[1,2],", "--format", "svg"]) == 2
