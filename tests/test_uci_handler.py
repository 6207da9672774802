"""UCI handler pieces without a subprocess: options, bad lines, go answers, scores; and
pondering, stop and time through a subprocess."""

from __future__ import annotations

import io
import sys
import time

import chess
import pytest

from sakiyomi.protocols import chess_engine
from sakiyomi.protocols.engine_loop import Output, ProtocolError
from sakiyomi.protocols.memory import MEGABYTE
from sakiyomi.protocols.report import uci_score, usi_score
from sakiyomi.protocols.uci import UciHandler
from sakiyomi.score import loss_in, win_in
from tests.engine_process import EngineProcess


def _handler() -> tuple[UciHandler, io.StringIO]:
    stream = io.StringIO()
    return UciHandler(Output(stream)), stream


@pytest.mark.parametrize("megabytes", [1, 3, 64, 1024])
def test_hash_option_sizes_a_full_table_within_the_setting(megabytes: int) -> None:
    handler, _ = _handler()
    handler.handle(f"setoption name Hash value {megabytes}")
    full = handler.tt.capacity * chess_engine.BYTES_PER_ENTRY
    assert megabytes * MEGABYTE / 2 < full <= megabytes * MEGABYTE


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
    "setoption name Hash value ²", "setoption name MultiPV value 1" + "0" * 5000,
    "position", "position startpos moves e2e4 e7e4", "bogus", "ponderhit", "__init__",
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


@pytest.mark.parametrize(("line", "error"), [
    ("go depth", "go depth needs a number"),
    ("go wtime soon", "go wtime: 'soon' is not a number"),
    ("go depth ²", "go depth: '²' is not a number"),
    ("go fly", "unknown go parameter 'fly'"),
    ("go mate 0", "go mate 0: a mate takes at least one move"),
    ("go mate -1", "go mate -1: a mate takes at least one move"),
])
def test_a_bad_go_is_reported_and_still_answered_by_a_short_search(line: str,
                                                                   error: str) -> None:
    handler, stream = _handler()
    handler.handle("position startpos")
    handler.handle(line)
    handler.thread.wait()  # bounded: a short search, never an unbounded one
    lines = stream.getvalue().splitlines()
    assert lines[0].startswith("info string") and error in lines[0]
    assert [x for x in lines if x.startswith("bestmove")] == [lines[-1]]
    assert lines[-1].split()[1] in {m.uci() for m in chess.Board().legal_moves}


def test_absurd_times_are_clamped_and_answered() -> None:
    handler, stream = _handler()
    handler.handle("position startpos")
    handler.handle("go wtime 1" + "0" * 400 + " btime 1000 movetime 99999999999999999")
    handler.handle("stop")
    handler.handle("go wtime 1" + "0" * 400 + " btime 1000 nodes 300")
    handler.thread.wait()
    bestmoves = [x for x in stream.getvalue().splitlines() if x.startswith("bestmove")]
    assert len(bestmoves) == 2


def test_uci_scores_count_moves_not_plies() -> None:
    assert uci_score(win_in(1)) == "mate 1"
    assert uci_score(win_in(3)) == "mate 2"
    assert uci_score(loss_in(2)) == "mate -1"
    assert uci_score(loss_in(4)) == "mate -2"
    assert uci_score(-35) == "cp -35"
    assert usi_score(win_in(3)) == "mate 3" and usi_score(loss_in(2)) == "mate -2"
    assert usi_score(120) == "cp 120"


def _engine() -> EngineProcess:
    return EngineProcess([sys.executable, "-m", "sakiyomi", "uci"])


def test_ponder_waits_for_ponderhit_then_moves_in_time() -> None:
    engine = _engine()
    try:
        engine.send("isready")
        engine.until("readyok", timeout=60)  # started (imports take seconds on a loaded box)
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


def test_multipv_reports_ranked_lines_and_plays_the_first() -> None:
    """MultiPV 3 on a position where one capture wins a queen: three ranked lines per depth,
    values not increasing with the rank, and the bestmove is line 1's first move.
    """
    handler, stream = _handler()
    handler.handle("setoption name MultiPV value 3")
    handler.handle("position fen 4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1")
    handler.handle("go depth 3")
    handler.thread.wait()
    lines = stream.getvalue().splitlines()
    infos = [line.split() for line in lines if " multipv " in line and " depth 3 " in line]
    ranks = [int(words[words.index("multipv") + 1]) for words in infos]
    assert ranks == [1, 2, 3]
    values = [int(words[words.index("cp") + 1]) for words in infos]
    assert values == sorted(values, reverse=True)
    first = infos[0][infos[0].index("pv") + 1]
    assert first == "d2d5"
    assert lines[-1].split()[:2] == ["bestmove", "d2d5"]
