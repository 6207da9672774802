"""The UCI engine driven by a real client (python-chess's chess.engine) and by raw lines."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator

import chess
import chess.engine
import pytest

from tests.chess_support import epd_lines, mate_in

ENGINE = [sys.executable, "-m", "sakiyomi", "uci"]


@pytest.fixture(scope="module")
def engine() -> Iterator[chess.engine.SimpleEngine]:
    eng = chess.engine.SimpleEngine.popen_uci(ENGINE, timeout=30)
    try:
        yield eng
    finally:
        eng.quit()


def test_identifies_itself_with_options(engine: chess.engine.SimpleEngine) -> None:
    assert engine.id["name"] == "sakiyomi"
    for name in ("Hash", "MultiPV", "Move Overhead", "Ponder"):
        assert name in engine.options
    engine.configure({"Hash": 4, "Move Overhead": 30})


def test_analyse_gives_depth_score_and_legal_pv(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    info = engine.analyse(board, chess.engine.Limit(depth=4))
    assert info["depth"] == 4
    for key in ("seldepth", "score", "nodes", "nps", "time", "hashfull", "pv"):
        assert key in info
    probe = board.copy()
    for move in info["pv"]:
        assert move in probe.legal_moves
        probe.push(move)


def test_play_with_node_and_time_limits(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board()
    for limit in (chess.engine.Limit(nodes=2000), chess.engine.Limit(time=0.3)):
        result = engine.play(board, limit)
        assert result.move is not None and result.move in board.legal_moves


def test_multipv_gives_distinct_best_lines(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
    infos = engine.analyse(board, chess.engine.Limit(depth=2), multipv=3)
    assert len(infos) == 3
    firsts = [info["pv"][0] for info in infos]
    assert len(set(firsts)) == 3 and firsts[0] == chess.Move.from_uci("d1d8")
    assert infos[0]["score"].relative == chess.engine.Mate(1)


def test_stop_after_go_infinite(engine: chess.engine.SimpleEngine) -> None:
    with engine.analysis(chess.Board()) as analysis:
        time.sleep(0.5)
        start = time.perf_counter()
        analysis.stop()
        best = analysis.wait()
        assert time.perf_counter() - start < 5
    assert best.move is not None and best.move in chess.Board().legal_moves


def _mate_cases() -> list[tuple[str, int]]:
    wac = {line.split('id "')[1].split('"')[0]: line for line in epd_lines("wac_001-200.epd")}
    bk01 = epd_lines("bratko_kopec.epd")[0]
    return [("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 1), (wac["WAC.005"], 2),
            (wac["WAC.027"], 2), (bk01, 3)]


@pytest.mark.parametrize(("epd", "moves"), _mate_cases())
def test_mates_are_reported_as_score_mate_n(
    engine: chess.engine.SimpleEngine, epd: str, moves: int,
) -> None:
    board = chess.Board.from_epd(epd)[0] if ";" in epd else chess.Board(epd)
    # independent check: a full-width python-chess search proves mate in n and none shorter
    if moves <= 2:
        assert mate_in(board.copy(), moves)
    assert not (moves > 1 and mate_in(board.copy(), moves - 1))
    info = engine.analyse(board, chess.engine.Limit(depth=2 * moves + 1, time=20))
    assert info["score"].relative == chess.engine.Mate(moves)
    probe = board.copy()
    for move in info["pv"]:
        probe.push(move)
    assert probe.is_checkmate() and len(info["pv"]) == 2 * moves - 1


def test_full_game_against_itself_with_a_clock() -> None:
    white = chess.engine.SimpleEngine.popen_uci(ENGINE, timeout=30)
    black = chess.engine.SimpleEngine.popen_uci(ENGINE, timeout=30)
    try:
        board = chess.Board()
        clock = {chess.WHITE: 4.0, chess.BLACK: 4.0}
        increment = 0.05
        while not board.is_game_over(claim_draw=True) and board.fullmove_number <= 40:
            side = board.turn
            player = white if side == chess.WHITE else black
            limit = chess.engine.Limit(white_clock=clock[chess.WHITE],
                                       black_clock=clock[chess.BLACK],
                                       white_inc=increment, black_inc=increment)
            start = time.perf_counter()
            result = player.play(board, limit)
            clock[side] -= time.perf_counter() - start
            assert clock[side] > 0, f"lost on time at move {board.fullmove_number}"
            clock[side] += increment
            assert result.move is not None and result.move in board.legal_moves
            board.push(result.move)
        assert board.fullmove_number > 40 or board.is_game_over(claim_draw=True)
    finally:
        white.quit()
        black.quit()


def _raw_session(lines: list[str], wait: float = 0.3) -> list[str]:
    proc = subprocess.Popen(ENGINE, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stdin is not None
    for line in lines:
        proc.stdin.write(line + "\n")
        proc.stdin.flush()
        time.sleep(0.01)
    time.sleep(wait)
    out, err = proc.communicate("quit\n", timeout=30)
    assert proc.returncode == 0 and "Traceback" not in err
    return out.splitlines()


def test_isready_is_answered_during_a_search() -> None:
    out = _raw_session(["position startpos", "go infinite", "isready", "stop"], wait=0.5)
    assert "readyok" in out
    assert out.index("readyok") < next(i for i, x in enumerate(out) if x.startswith("bestmove"))
    assert sum(line.startswith("bestmove") for line in out) == 1


def test_bad_input_gives_info_string_and_the_engine_keeps_running() -> None:
    bad = [
        "xyzzy", "position fen not/a/fen w - - 0 1", "position startpos moves e2e5",
        "position startpos moves e2e4 zz", "position", "setoption name NoSuch value 1",
        "setoption name Hash value lots", "go depth x", "go sideways", "\x00\x01garbage",
        "ponderhit",
    ]
    out = _raw_session([*bad, "isready", "position startpos moves e2e4", "go depth 2"], wait=1.5)
    infos = [line for line in out if line.startswith("info string")]
    assert len(infos) == len(bad)
    assert "readyok" in out
    assert [line for line in out if line.startswith("bestmove")][-1].split()[1] in {
        m.uci() for m in chess.Board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
        .legal_moves}


def test_exactly_one_bestmove_per_go() -> None:
    out = _raw_session(["position startpos", "go depth 3", "go nodes 500", "go movetime 100",
                        "go wtime 1000 btime 1000 winc 10 binc 10 movestogo 5"], wait=2.0)
    assert sum(line.startswith("bestmove") for line in out) == 4
