"""Readers for the shogi data copied into tests/data/shogi (origin: README there)."""

from __future__ import annotations

import csv
import os
import random
from pathlib import Path

import pytest

from sakiyomi.games.shogi import START, ShogiGame

DATA = Path(__file__).parent / "data" / "shogi"


def rows(name: str) -> list[dict[str, str]]:
    """The rows of ``name`` (a .tsv file in tests/data/shogi) as dicts."""
    with (DATA / name).open(encoding="utf-8") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


# The project runs every test by default; long shogi checks also need SAKIYOMI_SLOW=1.
SLOW = [
    pytest.mark.slow,
    pytest.mark.skipif(not os.environ.get("SAKIYOMI_SLOW"),
                       reason="long run: set SAKIYOMI_SLOW=1 (or see bench/shogi.py)"),
]


def random_positions(count: int, seed: int) -> list[ShogiGame]:
    """Positions of seeded random games from the start (captures, so drops and promotions
    come up), one every few plies.
    """
    rng = random.Random(seed)
    positions: list[ShogiGame] = []
    while len(positions) < count:
        game = ShogiGame(START)
        for ply in range(120):
            moves = game.legal_moves()
            if not moves:
                break
            captures = [move for move in moves if move & 0xF00000]
            game.play(rng.choice(captures if captures and rng.random() < 0.5 else moves))
            if ply % 7 == 6:
                positions.append(ShogiGame(game.sfen()))
    return positions[:count]
