"""Both engines (UCI chess, USI shogi) as subprocesses: ``stop`` is answered within 100 ms on a
running infinite search, and hostile input under a strict UTF-8 locale gets clear answers.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterator

import pytest

from tests.engine_process import STRICT_UTF8, EngineProcess
from tests.protocol_fuzz import COMMANDS, HELLO

STOP_LIMIT = 0.1  # seconds from sending stop to reading bestmove


@pytest.fixture(params=["uci", "usi"])
def engine(request: pytest.FixtureRequest) -> Iterator[tuple[str, EngineProcess]]:
    name = request.param
    process = EngineProcess(COMMANDS[name], env=STRICT_UTF8)
    hello, ok = HELLO[name]
    process.send(hello)
    process.until(ok, timeout=60)
    yield name, process
    assert process.close() == 0
    assert not any("Traceback" in line for line in process.errors)


def test_stop_answers_within_100_ms(engine: tuple[str, EngineProcess]) -> None:
    name, process = engine
    delays = []
    for position in ("startpos", "startpos moves " + ("e2e4 e7e5" if name == "uci" else
                                                      "7g7f 3c3d")):
        for _ in range(2):
            process.send(f"position {position}")
            process.send("go infinite")
            assert process.wait_for("info depth 2", 30) is not None  # the search is running
            time.sleep(0.2)
            start = time.monotonic()
            process.send("stop")
            line = process.wait_for("bestmove", 10)
            delays.append(time.monotonic() - start)
            assert line is not None and line != "bestmove resign"
    # The median of four stops, so one scheduling hiccup of the shared machine is not a failure.
    assert statistics.median(delays) < STOP_LIMIT, delays
    assert max(delays) < 10 * STOP_LIMIT, delays


def test_hostile_lines_get_clear_answers(engine: tuple[str, EngineProcess]) -> None:
    name, process = engine
    hash_option = "Hash" if name == "uci" else "USI_Hash"
    process.send_bytes(b"\xff\xfe\x80 junk\n" + b"y" * 3_000_000 + b"\n")
    assert process.wait_for("info string error: unknown command", 30) is not None
    assert process.wait_for("info string error: unknown command 'yyy", 30) is not None
    process.send(f"setoption name {hash_option} value ²")
    assert process.wait_for("info string", 10) == (
        f"info string error: option {hash_option}: '²' is not a number")
    process.send("position startpos")
    process.send("go depth ²")
    assert process.wait_for("info string", 10) == (
        "info string error: go depth: '²' is not a number; searching briefly")
    assert process.wait_for("bestmove", 10) is not None
    process.send("go movetime 99999999999999999")
    process.send("isready")
    assert process.wait_for("readyok", 10) == "readyok"
    process.send("stop")
    assert process.wait_for("bestmove", 10) is not None
    huge = "1" + "0" * 400
    process.send(f"go wtime {huge} btime {huge} byoyomi {huge} nodes 200")
    assert process.wait_for("bestmove", 30) is not None
    process.send("isready")
    assert process.wait_for("readyok", 10) == "readyok"


@pytest.mark.parametrize("budget", [700, 3000])
def test_go_nodes_spends_its_whole_budget_and_never_more(
        engine: tuple[str, EngineProcess], budget: int) -> None:
    name, process = engine
    moves = "e2e4 e7e5 g1f3" if name == "uci" else "7g7f 3c3d 2g2f"
    process.send(f"position startpos moves {moves}")
    process.send(f"go nodes {budget}")
    lines = process.until("bestmove", timeout=120)
    counts = [int(line.split(" nodes ")[1].split()[0]) for line in lines
              if line.startswith("info depth") and " nodes " in line]
    assert counts, lines
    assert 0.95 * budget <= counts[-1] <= budget, counts  # the last line counts the whole move
    assert max(counts) <= budget, counts
