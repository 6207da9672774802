"""The compiled table's pages: 4 KiB until a search proves long, huge pages for solves, batches
and long searches (``sakiyomi.compiled.memory``), with the same answers either way."""

from __future__ import annotations

import numpy as np

from sakiyomi.compiled.memory import MIN_BYTES, advise_huge, zeroed
from sakiyomi.compiled.template import CompiledSearch, build
from sakiyomi.engines import HUGE_AFTER, CompiledEngine, solver_config
from sakiyomi.games import load
from sakiyomi.search.drivers import run
from sakiyomi.search.limits import Limits
from sakiyomi.search.searcher import Searcher
from sakiyomi.search.solve import solve


def test_a_table_mapped_for_later_can_be_advised_and_keeps_its_values() -> None:
    table = zeroed(MIN_BYTES // 8, huge=False)
    assert table.size == MIN_BYTES // 8 and not table.any()
    table[::4096] = 7
    assert advise_huge(table) and advise_huge(table)  # idempotent
    assert int(table[::4096].sum()) == 7 * len(table[::4096]) and int(table.sum()) == int(
        table[::4096].sum())
    assert not advise_huge(np.zeros(16, dtype=np.uint64))  # not a mapping of ours
    assert not advise_huge(zeroed(16))  # too small to be mapped


def _workspace(position: str) -> tuple[CompiledSearch, CompiledEngine]:
    game = load("connect4", position)
    module_name, params = game.kernel_spec()  # type: ignore[attr-defined]
    config = solver_config(game)
    search = CompiledSearch(build(module_name, params), config)
    return search, CompiledEngine(game.copy(), config, workspace=search)


def test_short_searches_stay_on_small_pages_long_ones_and_solves_move() -> None:
    search, engine = _workspace("44")
    short = run(engine, Limits(depth=7))
    assert short.stats.nodes < HUGE_AFTER and not search.huge
    python = run(Searcher(load("connect4", "44"), solver_config(load("connect4", "44"))),
                 Limits(depth=7))
    assert (short.value, short.stats.nodes, short.pv) == (python.value, python.stats.nodes,
                                                          python.pv)
    long = run(engine, Limits(depth=13))  # the advice comes between iterations
    assert long.stats.nodes > 2 * HUGE_AFTER and search.huge

    line = "2252576253462244111563365343671351441"  # a solve, however small, asks at once
    search, engine = _workspace(line)
    result = solve(engine.game, searcher=engine)
    python = solve(load("connect4", line), solver_config(load("connect4", line)))
    assert search.huge and (result.value, result.stats.nodes) == (python.value,
                                                                  python.stats.nodes)
