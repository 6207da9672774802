"""The USI engine driven by a real client (cshogi.usi.Engine) and by raw protocol lines."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import cshogi
import pytest
from cshogi.usi import Engine

from tests.engine_process import EngineProcess
from tests.shogi_data import rows

SCRIPT = Path(sys.executable).parent / "sakiyomi-usi"
ENGINE = str(SCRIPT) if SCRIPT.exists() else shutil.which("sakiyomi-usi") or str(SCRIPT)
MATE3 = rows("mate3_yaneuraou.tsv")
CLASSIC = rows("tsume_classic.tsv")


@pytest.fixture
def engine() -> Iterator[Engine]:
    client = Engine(ENGINE)
    yield client
    client.quit()


class Raw(EngineProcess):
    """A line-level client with timeouts (cshogi's client would wait forever on a silent engine)."""

    def __init__(self) -> None:
        super().__init__([ENGINE])


@pytest.fixture
def raw() -> Iterator[Raw]:
    client = Raw()
    yield client
    if client.proc.poll() is None:
        client.close()


def test_handshake_and_byoyomi_move_is_legal_and_in_time(engine: Engine) -> None:
    assert engine.name.startswith("sakiyomi")
    engine.isready()
    engine.usinewgame()
    sfen = rows("midgame_perft.tsv")[1]["sfen"]  # the USI spec's example position
    for position, moves in (("startpos", ["7g7f", "3c3d"]), ("sfen " + sfen, [])):
        engine.position(moves, sfen=position)
        start = time.monotonic()
        best, _ = engine.go(byoyomi=1000)
        assert time.monotonic() - start < 1.0 + 0.5  # byoyomi plus transport slack
        board = cshogi.Board(position[5:] if position.startswith("sfen") else cshogi.STARTING_SFEN)
        for text in moves:
            board.push_usi(text)
        assert best in {cshogi.move_to_usi(m) for m in board.legal_moves}


@pytest.mark.parametrize("row", MATE3[:6] + [r for r in CLASSIC if r["mate_ply"] != "1"][:4],
                         ids=lambda r: r["id"])
def test_go_mate_answers_checkmate_or_nomate(engine: Engine, row: dict[str, str]) -> None:
    engine.position(sfen="sfen " + row["sfen"])
    answer = engine.go_mate(byoyomi=20_000)
    if row["mate_ply"].startswith("none"):
        assert answer == "nomate"
        return
    line = answer.split()
    assert len(line) == int(row["mate_ply"])
    assert line[0] in row["first_moves"].split(",")
    board = cshogi.Board(row["sfen"])
    for text in line:
        board.push_usi(text)
    assert board.is_check() and not list(board.legal_moves)


def test_no_mate_controls_answer_nomate(engine: Engine) -> None:
    for row in (r for r in CLASSIC if r["mate_ply"].startswith("none")):
        engine.position(sfen="sfen " + row["sfen"])
        assert engine.go_mate(byoyomi=60_000) == "nomate"


def test_mating_move_is_played_and_mated_side_resigns(engine: Engine) -> None:
    row = MATE3[0]
    engine.position(sfen="sfen " + row["sfen"])
    best, _ = engine.go(byoyomi=2000)
    assert best in row["first_moves"].split(",")
    engine.position(sfen="sfen 4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1")  # white is mated
    assert engine.go(byoyomi=500)[0] == "resign"
    engine.position(sfen="sfen KRRBBGG2/GGSS5/9/9/9/9/9/9/4k4 b 2S 1")  # entering king
    assert engine.go(byoyomi=500)[0] == "win"


def test_game_against_itself_to_the_end(engine: Engine) -> None:
    """Both sides by the engine at a small node budget until mate, resignation, declaration,
    sennichite, or the 256-move rule of computer-shogi tournaments.
    """
    engine.setoption("MateProbeNodes", 500)
    engine.usinewgame()
    board = cshogi.Board()
    moves: list[str] = []
    result = ""
    while not result:
        engine.position(moves)
        best, _ = engine.go(nodes=400)
        if best in ("resign", "win"):
            result = best
            break
        move = board.move_from_usi(best)
        assert board.is_legal(move), f"illegal {best} after {' '.join(moves)}"
        board.push(move)
        moves.append(best)
        if board.is_game_over():
            result = "mate"
        elif board.is_draw() == cshogi.REPETITION_DRAW and moves.count(best) >= 4:
            result = "sennichite"
        elif len(moves) >= 256:
            result = "move limit"
    engine.gameover("win")
    print(f"self-play: {result} after {len(moves)} plies")
    assert result
    if result == "resign":
        assert board.is_game_over()


def test_bad_input_gives_info_string_and_the_engine_keeps_running(raw: Raw) -> None:
    raw.send("usi")
    raw.until("usiok")
    bad = [
        "position sfen lnsgkgsnl/9/ppppppppp b - 1",
        "position startpos moves 7g7f 7g7f",
        "position startpos moves 7g7z",
        "position sfen P3k4/9/9/9/9/9/9/9/4K4 b - 1",
        "flurb",
        "go btime x",
        "go sideways",
        "setoption name USI_Hash value lots",
        "setoption name NullMove value maybe",
        "setoption",
        "go mate soon",
    ]
    for line in bad:
        raw.send(line)
        raw.send("isready")
        reply = raw.until("readyok")
        assert any(x.startswith("info string") and "error" in x for x in reply), line
        answers = [x for x in reply if x.startswith(("bestmove", "checkmate"))]
        assert len(answers) == (1 if line.startswith("go") else 0), line  # a go is answered
    raw.send("go byoyomi 100")  # no valid position after the bad ones
    assert raw.until("bestmove")[-1] == "bestmove resign"
    raw.send("position startpos")
    raw.send("go byoyomi 300")
    assert raw.until("bestmove")[-1] != "bestmove resign"
    assert raw.close() == 0


def test_infinite_ponder_stop_and_ponderhit(raw: Raw) -> None:
    raw.send("usi")
    raw.until("usiok")
    raw.send("position startpos")
    raw.send("go infinite")
    time.sleep(0.3)
    raw.send("isready")  # answered during the search
    assert "bestmove" not in " ".join(raw.until("readyok"))
    raw.send("stop")
    assert raw.until("bestmove")[-1].startswith("bestmove ")
    raw.send("position startpos moves 7g7f 3c3d")
    raw.send("go ponder btime 0 wtime 0 byoyomi 500")
    time.sleep(0.3)
    raw.send("ponderhit")
    lines = raw.until("bestmove", timeout=5)
    assert lines[-1].startswith("bestmove ")
    raw.send("position startpos")
    raw.send("go mate infinite")
    time.sleep(0.2)
    raw.send("stop")
    assert raw.until("checkmate")[-1] == "checkmate nomate"  # no check at all: proven at once
    sfen = rows("midgame_perft.tsv")[1]["sfen"]  # a middle game with many checks, no quick mate
    raw.send(f"position sfen {sfen}")
    raw.send("go mate 100")
    assert raw.until("checkmate")[-1] == "checkmate timeout"
    raw.send("gameover lose")
    raw.send("isready")
    raw.until("readyok")


def test_cli_subcommand_speaks_usi() -> None:
    proc = subprocess.run([sys.executable, "-m", "sakiyomi", "usi"], input="usi\nquit\n",
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0
    assert "usiok" in proc.stdout.split("\n")
