"""The shogi engine's search settings (``shogi_engine.search_config``): the USI switches map to
the shared Searcher's, and reverse futility (session 13) saves nodes without losing a hanging
rook."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest

from sakiyomi.games.shogi import START, ShogiGame
from sakiyomi.protocols import shogi_engine as se
from sakiyomi.protocols.engine_loop import Output, ProtocolError
from sakiyomi.protocols.usi import UsiEngine
from sakiyomi.search.drivers import run
from sakiyomi.search.limits import Limits
from sakiyomi.search.searcher import Searcher

# Our own position: Black's bishop on 9i takes the undefended rook on 5e (kings on 4i, 5a).
HANGING_ROOK = "4k4/ppp3ppp/9/9/4r4/9/PP4PPP/9/B4K3 b - 1"
OPENING = ("7g7f", "3c3d", "2g2f", "8c8d", "2f2e", "8d8e", "6i7h", "4a3b", "2e2d", "2c2d",
           "2h2d")


def test_switches_map_to_the_searcher_settings() -> None:
    config = se.search_config(se.Options())
    assert config.reverse_futility_margins == se.REVERSE_FUTILITY_MARGINS
    assert config.counter_moves and not config.history_malus
    assert config.lmr_divisor == se.LMR_DIVISOR
    options = se.Options()
    options.switches.update(ReverseFutility=False, CounterMoves=False, HistoryMalus=True)
    off = se.search_config(options)
    assert off.reverse_futility_margins == () and not off.counter_moves and off.history_malus


def test_reverse_futility_saves_nodes_and_keeps_the_capture() -> None:
    config = se.search_config(se.Options())
    without = replace(config, reverse_futility_margins=())
    pruned = run(Searcher(ShogiGame(START, OPENING), config), Limits(depth=4))
    plain = run(Searcher(ShogiGame(START, OPENING), without), Limits(depth=4))
    assert pruned.stats.nodes < plain.stats.nodes
    taken = ShogiGame(HANGING_ROOK).move_from_text("9i5e")
    for settings in (config, without):
        assert run(Searcher(ShogiGame(HANGING_ROOK), settings), Limits(depth=4)).best_move \
            == taken


def test_session_24_search_options_reach_the_searcher() -> None:
    config = se.search_config(se.Options())
    assert config.iir_depth == se.IIR_DEPTH and config.null_move_reduction == 3
    assert not config.improving and config.null_move_depth_divisor == 4
    engine = UsiEngine(Output(io.StringIO()))
    for line in ("setoption name IIRDepth value 0", "setoption name NullMoveReduction value 2",
                 "setoption name NullMoveDepthDivisor value 5",
                 "setoption name NullMoveEvalDivisor value 200",
                 "setoption name Improving value true"):
        engine.handle(line)
    config = se.search_config(engine.options)
    assert config.iir_depth == 0 and config.null_move_reduction == 2
    assert config.null_move_depth_divisor == 5 and config.null_move_eval_divisor == 200
    assert config.improving
    with pytest.raises(ProtocolError, match=r"NullMoveReduction takes an integer in 1\.\.16"):
        engine.handle("setoption name NullMoveReduction value 0")  # below its minimum
    assert se.search_config(engine.options).null_move_reduction == 2
