"""A table cleared "later" (``TranspositionTable.clear(now=False)``): what engines do on a new
game, so that freeing a full table (tens of milliseconds holding the GIL) falls inside the
next move's clock instead of delaying the stamp of a ``go`` sent right after ``usinewgame``.
Checked here: the stale table answers as empty at once, is emptied by the next search, by
``new_search`` or at ``isready``, and the searches after it are those of a fresh table.
"""

from __future__ import annotations

import io
from typing import Any

import pytest

from sakiyomi.games import load
from sakiyomi.protocols.engine_loop import HOUSEKEEPING_COMMANDS, Output
from sakiyomi.search.searcher import Searcher
from sakiyomi.tt import Bound, TranspositionTable


def test_a_table_cleared_later_answers_as_empty_and_is_emptied_by_settle() -> None:
    table: TranspositionTable[int] = TranspositionTable(1 << 6)
    for key in range(40):
        table.store(key, 3, key, Bound.EXACT, key % 7)
    assert table.used == 40 and table.probe(5) is not None
    table.clear(now=False)
    assert table.stale and len(table.slots) == 40  # nothing freed yet
    assert table.used == 0 and table.hashfull() == 0
    assert table.probe(5) is None and not table.stale and not table.slots  # probe settles
    table.store(1, 2, 3, Bound.LOWER, None)
    table.clear(now=False)
    table.new_search()
    assert not table.slots and not table.stale


def test_a_search_after_clear_later_counts_the_nodes_of_a_fresh_table() -> None:
    table: TranspositionTable[int] = TranspositionTable(1 << 12)
    warm = Searcher(load("connect4", "4453"), tt=table)
    warm.search(5)
    assert table.used > 0
    table.clear(now=False)
    again = Searcher(load("connect4", "4453"), tt=table)
    fresh = Searcher(load("connect4", "4453"))
    assert again.search(5) == fresh.search(5)
    assert again.stats.nodes == fresh.stats.nodes


@pytest.mark.parametrize("protocol", ["uci", "usi"])
def test_a_new_game_marks_the_table_and_isready_empties_it(protocol: str) -> None:
    """The new-game command frees nothing (a ``go`` may follow at once); ``isready``, where
    GUIs wait, empties it; no garbage collection runs on the new-game command either.
    """
    handler: Any
    if protocol == "uci":
        pytest.importorskip("chess")
        from sakiyomi.protocols.uci import UciHandler

        handler = UciHandler(Output(io.StringIO()))
    else:
        pytest.importorskip("cshogi")
        from sakiyomi.protocols.usi import UsiEngine

        handler = UsiEngine(Output(io.StringIO()))
    table = handler.tt
    for key in range(100):
        table.store(key, 1, 0, Bound.EXACT, None)
    handler.handle(f"{protocol}newgame")
    assert table.stale and len(table.slots) == 100 and table.used == 0
    handler.handle("isready")
    assert not table.stale and not table.slots
    assert "usinewgame" not in HOUSEKEEPING_COMMANDS and "ucinewgame" not in HOUSEKEEPING_COMMANDS
