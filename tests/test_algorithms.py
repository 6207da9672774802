"""The algorithm registry is the one list: CLI choices, compare rows, docs table and README."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pytest

from sakiyomi.cli import build_parser
from sakiyomi.games.tree import TreeGame, negamax_value, random_tree
from sakiyomi.search import textbook
from sakiyomi.search.algorithms import ALGORITHMS, NAMES, Algorithm, get
from sakiyomi.viz.compare import compare

ROOT = Path(__file__).resolve().parent.parent


def _choices(command: str) -> tuple[str, ...]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    action = next(a for a in sub.choices[command]._actions if a.dest == "algorithm")
    assert action.choices is not None
    return tuple(action.choices)


@pytest.mark.parametrize("command", ["search", "tree"])
def test_cli_offers_exactly_the_registry(command: str) -> None:
    assert _choices(command) == NAMES


def test_compare_has_a_row_for_every_algorithm() -> None:
    report = compare(TreeGame(random_tree(2, 3, 0)), None, variants=False)
    assert [r.algorithm for r in report.rows][: len(NAMES)] == list(NAMES)


def test_docs_and_readme_name_every_algorithm() -> None:
    sys.path.insert(0, str(ROOT / "docs"))
    try:
        import generate
    finally:
        sys.path.pop(0)
    table = generate.d_algorithms()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in NAMES:
        assert f"`{name}`" in table
        assert f"`{name}`" in readme, f"README does not mention algorithm {name}"


@pytest.mark.parametrize("name", NAMES)
def test_every_entry_finds_the_negamax_value(name: str) -> None:
    tree = random_tree(3, 3, 7, ragged=True)
    expected = negamax_value(tree)
    result = get(name).run(TreeGame(tree), None)
    assert result.value == (int(expected > 0) if name == "and-or" else expected)
    assert result.nodes >= result.leaves > 0


def test_an_entry_has_exactly_one_way_to_run() -> None:
    with pytest.raises(ValueError, match="exactly one"):
        Algorithm("nothing", "runs nothing", "negamax", False)
    with pytest.raises(ValueError, match="exactly one"):
        Algorithm("both", "two ways", "negamax", False,
                  textbook=lambda g, d, t: textbook.negamax(g, d, tracer=t),
                  driver=ALGORITHMS["pvs"].driver)


def test_unknown_names_are_refused_with_the_choices() -> None:
    with pytest.raises(ValueError, match="choose from minimax"):
        get("alphabetta")
