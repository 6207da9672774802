"""The README's bring-your-own-game example works and gives the known theory."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

from sakiyomi.search import textbook
from sakiyomi.search.solve import solve

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "subtraction_game.py"


def load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("subtraction_game", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_subtraction_game_matches_its_period() -> None:
    # Subtraction game {1, 3, 4}: the player to move loses exactly when n mod 7 is 0 or 2.
    example = load_example()
    for n in range(0, 30):
        word = solve(example.Subtraction(n)).extra["result"]
        assert word == ("loss" if n % 7 in (0, 2) else "win"), n
        if 0 < n <= 15:
            assert textbook.alphabeta(example.Subtraction(n)).value != 0
