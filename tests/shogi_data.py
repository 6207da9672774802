"""Readers for the shogi data copied into tests/data/shogi (origin: README there)."""

from __future__ import annotations

import csv
import os
from pathlib import Path

import pytest

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
