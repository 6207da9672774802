"""Readers for the shogi data copied into tests/data/shogi (origin: README there)."""

from __future__ import annotations

import csv
from pathlib import Path

DATA = Path(__file__).parent / "data" / "shogi"


def rows(name: str) -> list[dict[str, str]]:
    """The rows of ``name`` (a .tsv file in tests/data/shogi) as dicts."""
    with (DATA / name).open(encoding="utf-8") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))
