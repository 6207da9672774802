"""UCI handler pieces without a subprocess: options, go parsing, time plan, scores, pondering."""

from __future__ import annotations

import io
import sys
import time

import pytest

from sakiyomi.protocols.chess_engine import plan_time, uci_score
from sakiyomi.protocols.engine_loop import Output, ProtocolError
from sakiyomi.protocols.uci import UciHandler, parse_go
from sakiyomi.score import loss_in, win_in
from sakiyomi.tt import TranspositionTable
from tests.engine_process import EngineProcess


def _handler() -> tuple[UciHandler, io.StringIO]:
    stream = io.StringIO()
    return UciHandler(Output(stream)), stream


def test_hash_option_resizes_the_table() -> None:
    handler, _ = _handler()
    handler.handle("setoption name Hash value 1")
    small = handler.tt.capacity
    assert small == TranspositionTable.from_megabytes(1).capacity
    handler.handle("setoption name Hash value 64")
    assert handler.tt.capacity == TranspositionTable.from_megabytes(64).capacity > small


def test_other_options() -> None:
    handler, _ = _handler()
    handler.handle("setoption name MultiPV value 3")
    handler.handle("setoption name Move Overhead value 120")
    handler.handle("setoption name Ponder value true")
    handler.handle("setoption name Clear Hash")
    assert handler.multipv == 3 and handler.overhead == pytest.approx(0.12)


@pytest.mark.parametrize("line", [
    "setoption name Hash value 0", "setoption name Hash value many", "setoption name Nope value 1",
    "setoption Hash 5", "setoption name MultiPV value 999", "setoption name Ponder value maybe",
    "position", "position startpos moves e2e4 e7e4", "go depth", "go wtime soon", "go fly",
    "bogus", "ponderhit",
])
def test_bad_lines_raise_protocol_errors(line: str) -> None:
    handler, _ = _handler()
    with pytest.raises(ProtocolError):
        handler.handle(line)


def test_illegal_move_keeps_the_legal_prefix() -> None:
    handler, _ = _handler()
    with pytest.raises(ProtocolError):
        handler.handle("position startpos moves e2e4 e7e5 e1e3")
    assert handler.board is not None
    assert [m.uci() for m in handler.board.move_stack] == ["e2e4", "e7e5"]


def test_go_after_a_rejected_fen_answers_bestmove_0000() -> None:
    handler, stream = _handler()
    with pytest.raises(ProtocolError):
        handler.handle("position fen 8/8/8/4k3/8/8/8/Q3K3 w - - 0 1")  # Black is in check
    handler.handle("go depth 1")
    lines = stream.getvalue().splitlines()
    assert lines[-1] == "bestmove 0000" and lines[-2].startswith("info string")


def test_parse_go() -> None:
    words = ["wtime", "1000", "btime", "2000", "winc", "5", "binc", "6", "movestogo", "7"]
    assert parse_go(words) == {"wtime": 1000, "btime": 2000, "winc": 5, "binc": 6, "movestogo": 7}
    assert parse_go(["infinite"]) == {"infinite": True}
    assert parse_go(["ponder", "movetime", "50"]) == {"ponder": True, "movetime": 50}


@pytest.mark.parametrize(("remaining", "inc", "togo"), [
    (0.05, 0.0, None), (0.5, 0.0, None), (10.0, 0.1, None), (60.0, 0.0, 40), (3.0, 0.0, 1),
    (300.0, 2.0, None), (0.0, 0.0, None),
])
def test_time_plan_never_spends_the_clock(remaining: float, inc: float, togo: int | None) -> None:
    plan = plan_time(remaining, inc, togo, overhead=0.05)
    assert 0 <= plan.soft <= plan.hard
    usable = max(0.0, remaining - 0.05)
    assert plan.hard <= usable * (0.8 if togo == 1 else 1 / 3) + 1e-9
    assert plan.hard <= max(0.0, remaining - 0.1) + 1e-9  # the overhead is kept twice over


def test_uci_scores_count_moves_not_plies() -> None:
    assert uci_score(win_in(1)) == "mate 1"
    assert uci_score(win_in(3)) == "mate 2"
    assert uci_score(loss_in(2)) == "mate -1"
    assert uci_score(loss_in(4)) == "mate -2"
    assert uci_score(-35) == "cp -35"


def _engine() -> EngineProcess:
    return EngineProcess([sys.executable, "-m", "sakiyomi", "uci"])


def test_ponder_waits_for_ponderhit_then_moves_in_time() -> None:
    engine = _engine()
    try:
        engine.send("position startpos moves e2e4")
        engine.send("go ponder wtime 3000 btime 3000")
        assert engine.wait_for("bestmove", 1.0) is None  # pondering: no move before ponderhit
        start = time.monotonic()
        engine.send("ponderhit")
        line = engine.wait_for("bestmove", 10.0)
        assert line is not None and time.monotonic() - start < 3.0
    finally:
        engine.close()


def test_go_depth_finishes_by_itself_and_stop_after_it_is_harmless() -> None:
    engine = _engine()
    try:
        engine.send("position startpos")
        engine.send("go depth 3")
        assert engine.wait_for("bestmove", 20.0) is not None
        engine.send("stop")
        engine.send("isready")
        assert engine.wait_for("readyok", 5.0) == "readyok"
        assert engine.lines.empty()
    finally:
        engine.close()
