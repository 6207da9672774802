"""Chess benchmark: speed of the adapter, what each search technique is worth, WAC vs sunfish,
and a match against sunfish.  Not a test: it prints one JSON line per measurement.

    python bench/chess.py setup              # sunfish from PyPI into its own venv (scratch dir)
    python bench/chess.py speed              # key and repetition costs, nps
    python bench/chess.py techniques         # nodes to fixed depth + WAC solved, per switch
    python bench/chess.py wac                # WAC 1-200, fixed nodes and fixed time, vs sunfish
    python bench/chess.py match --games 100  # equal time per move, openings x both colours
    python bench/chess.py match --opponent stockfish --elo 1800 --games 40 --time 0.2
    python bench/chess.py endings --starts 20 --nodes 2000   # K+Q/K+R/K+B+B vs K, Stockfish defends

sunfish (PyPI package ``sunfish``, a UCI engine as ``sunfish-uci``) pins an older python-chess,
so it lives in its own venv under ``--scratch`` (default /tmp/sakiyomi-bench).  Stockfish is the
Debian package ``stockfish`` (installed with apt-get when ``stockfish`` is not on the PATH or in
/usr/games); matches use its ``UCI_LimitStrength``/``UCI_Elo``, the endings its full strength.
All engines are driven as UCI subprocesses through python-chess's ``chess.engine`` in the same
run, so they share the machine's load; every record carries the load average.
"""

from __future__ import annotations

import sys
from pathlib import Path

if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)  # run as a script, this file (chess.py) would shadow python-chess
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository: bench.*

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import time
from collections.abc import Callable
from dataclasses import replace

import chess
import chess.engine

from bench.match_stats import elo, elo_interval
from sakiyomi.games import chess as chess_game
from sakiyomi.games.chess import ChessGame
from sakiyomi.games.chess_endgame import random_ending
from sakiyomi.protocols.chess_engine import CHESS_CONFIG
from sakiyomi.search.drivers import run
from sakiyomi.search.limits import Limits, StopSignal
from sakiyomi.search.searcher import SearchConfig, Searcher

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "chess"
OURS = [sys.executable, "-m", "sakiyomi", "uci"]

# Opening lines (UCI moves) for the match: common first moves of 50 main openings, each played
# once with either colour (the first 20 in a 40-game match, all 50 in the 100 games).
OPENINGS = [
    "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6",  # Ruy Lopez
    "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5",  # Italian
    "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6",  # Sicilian Najdorf
    "e2e4 c7c5 b1c3 b8c6 g2g3",  # Closed Sicilian
    "e2e4 e7e6 d2d4 d7d5 b1c3 g8f6",  # French
    "e2e4 c7c6 d2d4 d7d5 e4e5 c8f5",  # Caro-Kann advance
    "e2e4 d7d6 d2d4 g8f6 b1c3 g7g6",  # Pirc
    "e2e4 d7d5 e4d5 d8d5 b1c3 d5a5",  # Scandinavian
    "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6",  # Queen's Gambit Declined
    "d2d4 d7d5 c2c4 d5c4 g1f3 g8f6",  # Queen's Gambit Accepted
    "d2d4 d7d5 c2c4 c7c6 g1f3 g8f6",  # Slav
    "d2d4 g8f6 c2c4 g7g6 b1c3 f8g7 e2e4 d7d6",  # King's Indian
    "d2d4 g8f6 c2c4 e7e6 b1c3 f8b4",  # Nimzo-Indian
    "d2d4 g8f6 c2c4 e7e6 g1f3 b7b6",  # Queen's Indian
    "d2d4 g8f6 c2c4 c7c5 d4d5 b7b5",  # Benko
    "c2c4 e7e5 b1c3 g8f6 g1f3 b8c6",  # English
    "g1f3 d7d5 g2g3 g8f6 f1g2 e7e6",  # Reti
    "d2d4 f7f5 g2g3 g8f6 f1g2 e7e6",  # Dutch
    "e2e4 e7e5 f2f4 e5f4 g1f3",  # King's Gambit
    "e2e4 e7e5 g1f3 g8f6 f3e5 d7d6",  # Petrov
    "e2e4 g7g6 d2d4 f8g7 b1c3 d7d6",  # Modern
    "d2d4 d7d5 c1f4 g8f6 e2e3 c7c5",  # London
    "e2e4 c7c5 g1f3 e7e6 d2d4 c5d4 f3d4 b8c6",  # Sicilian Taimanov
    "e2e4 e7e5 b1c3 g8f6 f2f4 d7d5",  # Vienna
    "c2c4 c7c5 b1c3 b8c6 g2g3 g7g6",  # Symmetrical English
    "e2e4 e7e5 g1f3 b8c6 d2d4 e5d4 f3d4",  # Scotch
    "e2e4 e7e5 g1f3 b8c6 b1c3 g8f6",  # Four Knights
    "e2e4 e7e5 g1f3 d7d6 d2d4 g8f6",  # Philidor
    "e2e4 c7c5 g1f3 b8c6 d2d4 c5d4 f3d4 g7g6",  # Accelerated Dragon
    "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 g7g6",  # Dragon
    "e2e4 c7c5 c2c3 g8f6 e4e5 f6d5",  # Alapin
    "e2e4 e7e6 d2d4 d7d5 e4e5 c7c5",  # French advance
    "e2e4 e7e6 d2d4 d7d5 b1d2 c7c5",  # French Tarrasch
    "e2e4 c7c6 d2d4 d7d5 b1c3 d5e4 c3e4 c8f5",  # Caro-Kann classical
    "e2e4 g8f6 e4e5 f6d5 d2d4 d7d6",  # Alekhine
    "e2e4 b8c6 d2d4 d7d5 b1c3",  # Nimzowitsch defence
    "e2e4 e7e5 f1c4 g8f6 d2d3",  # Bishop's opening
    "d2d4 d7d5 c2c4 e7e6 b1c3 c7c5",  # Tarrasch
    "d2d4 d7d5 c2c4 c7c6 b1c3 g8f6 e2e3 e7e6",  # Semi-Slav
    "d2d4 g8f6 c2c4 g7g6 b1c3 d7d5",  # Grunfeld
    "d2d4 g8f6 c2c4 e7e6 g2g3 d7d5 f1g2",  # Catalan
    "d2d4 g8f6 c2c4 c7c5 d4d5 e7e6 b1c3 e6d5 c4d5 d7d6",  # Modern Benoni
    "d2d4 g8f6 c2c4 e7e6 g1f3 f8b4",  # Bogo-Indian
    "d2d4 g8f6 c1g5 e7e6 e2e4",  # Trompowsky
    "d2d4 d7d5 g1f3 g8f6 e2e3 e7e6 f1d3",  # Colle
    "c2c4 g8f6 b1c3 e7e6 e2e4",  # English, Mikenas
    "c2c4 e7e5 g2g3 g8f6 f1g2 d7d5",  # English, reversed Sicilian
    "g1f3 g8f6 c2c4 b7b6 g2g3 c8b7",  # Reti, double fianchetto
    "f2f4 d7d5 g1f3 g8f6 e2e3",  # Bird
    "b2b3 e7e5 c1b2 b8c6 e2e3",  # Larsen
]


def emit(record: dict[str, object]) -> None:
    print(json.dumps(record), flush=True)


def load_avg() -> float:
    return os.getloadavg()[0]


# ---- setup ---------------------------------------------------------------------------------


def sunfish_command(scratch: Path) -> list[str]:
    return [str(scratch / "sunfish-venv" / "bin" / "sunfish-uci")]


def setup(scratch: Path) -> list[str]:
    """Install sunfish from PyPI into its own venv (it pins its own python-chess)."""
    command = sunfish_command(scratch)
    if not Path(command[0]).exists():
        venv = scratch / "sunfish-venv"
        scratch.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "sunfish"], check=True)
    version = subprocess.run(
        [str(scratch / "sunfish-venv" / "bin" / "pip"), "show", "sunfish"],
        capture_output=True, text=True, check=True).stdout.split("\n")[1]
    emit({"bench": "setup", "sunfish": version, "command": command})
    return command


def stockfish_command() -> list[str]:
    """Stockfish from the PATH or /usr/games, installed from Debian's package when missing."""
    found = shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")
    if found is None:
        emit({"bench": "setup", "installing": "stockfish (apt-get)"})
        subprocess.run(["apt-get", "install", "-y", "-q", "stockfish"], check=True,
                       stdout=subprocess.DEVNULL)
        found = shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")
        if found is None:
            raise SystemExit("stockfish: apt-get install stockfish did not provide it")
    return [found]


def opponent(name: str, scratch: Path, elo_setting: int | None) -> tuple[
        list[str], dict[str, str | int | bool]]:
    """The opponent's command and UCI options: sunfish, or Stockfish limited to ``elo``."""
    if name == "sunfish":
        return setup(scratch), {}
    command = stockfish_command()
    options: dict[str, str | int | bool] = {"Threads": 1, "Hash": 16}
    if elo_setting is not None:
        options.update({"UCI_LimitStrength": True, "UCI_Elo": elo_setting})
    emit({"bench": "setup", "stockfish": command[0], "options": options})
    return command, options


# ---- speed -----------------------------------------------------------------------------------


def _positions(n: int, seed: int = 7) -> list[chess.Board]:
    rng = random.Random(seed)
    boards: list[chess.Board] = []
    while len(boards) < n:
        board = chess.Board()
        for _ in range(rng.randint(10, 80)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if not board.is_game_over():
            boards.append(board)
    return boards


def _timeit(fn: Callable[[], object], repeat: int = 7) -> float:
    """Median seconds of ``repeat`` runs."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def speed() -> None:
    """Cost per node of the things the adapter keeps incrementally, against python-chess."""
    boards = _positions(200)
    games = [ChessGame(b) for b in boards]
    moves = [next(iter(b.legal_moves)) for b in boards]

    def ours_key() -> None:
        for game, move in zip(games, moves, strict=True):
            game.play(move)
            game.key()
            game.undo()

    def pc_key() -> None:
        for board in boards:
            hash(board._transposition_key())

    def ours_key_read() -> None:
        for game in games:
            game.key()

    def pc_push() -> None:
        for board, move in zip(boards, moves, strict=True):
            board.push(move)
            board.pop()

    def zobrist_part() -> None:
        # the key share of play(): XOR out/in the moved piece and the side, then the EP check
        for game, move in zip(games, moves, strict=True):
            game_z = chess_game._Z[int(game.board.turn)]
            piece = game.board.piece_type_at(move.from_square) or chess.PAWN
            _ = (game._kb ^ game_z[piece][move.from_square] ^ chess_game._Z_SIDE
                 ^ game_z[piece][move.to_square])
            game._full_key()

    def ours_rep() -> None:
        for game in games:
            game.repetition_value(1)

    def pc_rep() -> None:
        for board in boards:
            board.is_repetition(2)

    def ours_eval() -> None:
        for game in games:
            game.evaluate()

    n = len(boards)
    push = _timeit(pc_push) / n
    emit({"bench": "speed", "what": "push+pop (python-chess) us", "value": round(push * 1e6, 2)})
    ours = _timeit(ours_key) / n - push
    emit({"bench": "speed", "what": "play/undo bookkeeping (key, eval, history) + key() us",
          "value": round(ours * 1e6, 2)})
    theirs = _timeit(pc_key) / n
    part = _timeit(zobrist_part) / n + _timeit(ours_key_read) / n
    emit({"bench": "speed", "what": "key: hash(board._transposition_key()) per node us",
          "value": round(theirs * 1e6, 2)})
    emit({"bench": "speed", "what": "key: incremental Zobrist per node (XORs + EP test + read) us",
          "value": round(part * 1e6, 2), "ratio": round(theirs / part, 2)})
    ours = _timeit(ours_rep) / n
    theirs = _timeit(pc_rep) / n
    emit({"bench": "speed", "what": "repetition: key scan us", "value": round(ours * 1e6, 2)})
    emit({"bench": "speed", "what": "repetition: board.is_repetition(2) us",
          "value": round(theirs * 1e6, 2), "ratio": round(theirs / ours, 2)})
    emit({"bench": "speed", "what": "evaluate (incremental PeSTO) us",
          "value": round(_timeit(ours_eval) / n * 1e6, 2)})
    wac = _wac()[:20]
    nodes = 0
    start = time.perf_counter()
    for board, _, _ in wac:
        result = run(Searcher(ChessGame(board), CHESS_CONFIG), Limits(depth=4))
        nodes += result.stats.nodes
    seconds = time.perf_counter() - start
    emit({"bench": "speed", "what": "search nps (WAC 1-20, depth 4, CHESS_CONFIG)",
          "nodes": nodes, "seconds": round(seconds, 2), "nps": int(nodes / seconds),
          "load": load_avg()})


# ---- techniques ----------------------------------------------------------------------------


def _wac() -> list[tuple[chess.Board, list[chess.Move], str]]:
    suite = []
    for line in (DATA / "wac_001-200.epd").read_text().splitlines():
        if line.strip():
            board, ops = chess.Board.from_epd(line)
            best = [m for m in ops["bm"] if isinstance(m, chess.Move)]  # type: ignore[union-attr]
            suite.append((board, best, str(ops["id"])))
    return suite


TECHNIQUES: dict[str, SearchConfig] = {
    "all (CHESS_CONFIG)": CHESS_CONFIG,
    "no check extension": replace(CHESS_CONFIG, check_extension=False),
    "no null move": replace(CHESS_CONFIG, null_move=False),
    "no LMR": replace(CHESS_CONFIG, lmr=False),
    "no futility": replace(CHESS_CONFIG, futility=False),
    "no killers/history": replace(CHESS_CONFIG, killers=False, history=False),
    "no quiescence": replace(CHESS_CONFIG, quiescence=False),
    "none of the four": replace(CHESS_CONFIG, check_extension=False, null_move=False,
                                lmr=False, futility=False),
}


def techniques(depth: int, positions: int, node_budget: int, aspiration: int) -> None:
    """Nodes to a fixed depth and WAC solved at a fixed node budget, each switch turned off."""
    suite = _wac()[:positions]
    for name, config in TECHNIQUES.items():
        nodes = solved_depth = solved_nodes = 0
        start = time.perf_counter()
        for board, best, _ in suite:
            result = run(Searcher(ChessGame(board), config), Limits(depth=depth),
                         aspiration_delta=aspiration)
            nodes += result.stats.nodes
            solved_depth += result.best_move in best
        seconds = time.perf_counter() - start
        for board, best, _ in suite:
            signal = StopSignal(nodes=node_budget)
            result = run(Searcher(ChessGame(board), config, stop=signal), Limits(nodes=node_budget),
                         aspiration_delta=aspiration)
            solved_nodes += result.best_move in best
        emit({"bench": "techniques", "config": name, "positions": len(suite), "depth": depth,
              "nodes_to_depth": nodes, "seconds": round(seconds, 1),
              "solved_at_depth": solved_depth, f"solved_at_{node_budget}_nodes": solved_nodes,
              "load": load_avg()})
    for delta in (0, aspiration):
        nodes = 0
        for board, _, _ in suite:
            result = run(Searcher(ChessGame(board), CHESS_CONFIG), Limits(depth=depth),
                         aspiration_delta=delta)
            nodes += result.stats.nodes
        emit({"bench": "techniques", "config": f"aspiration delta {delta}", "depth": depth,
              "nodes_to_depth": nodes})


# ---- WAC vs sunfish ------------------------------------------------------------------------


def wac(sunfish: list[str], nodes: int, seconds: float, count: int) -> None:
    """WAC 1-count with the same node budget and the same time per move for both engines."""
    suite = _wac()[:count]
    for label, limit in (("nodes", chess.engine.Limit(nodes=nodes)),
                         ("time", chess.engine.Limit(time=seconds))):
        solved: dict[str, int] = {}
        missed: dict[str, list[str]] = {}
        load_before = load_avg()
        for name, command in (("sakiyomi", OURS), ("sunfish", sunfish)):
            engine = chess.engine.SimpleEngine.popen_uci(command, timeout=60)
            solved[name] = 0
            missed[name] = []
            try:
                for board, best, ident in suite:
                    result = engine.play(board, limit, game=ident)
                    if result.move in best:
                        solved[name] += 1
                    else:
                        missed[name].append(ident)
            finally:
                engine.quit()
        emit({"bench": "wac", "budget": f"{nodes} nodes" if label == "nodes"
              else f"{seconds}s per move", "positions": len(suite), "solved": solved,
              "load": [load_before, load_avg()], "missed": missed})


# ---- match ---------------------------------------------------------------------------------


def _rounded(value: float | None) -> int | None:
    return None if value is None else round(value)


def match(command: list[str], options: dict[str, str | int | bool], label: str, games: int,
          seconds: float, max_plies: int, first_game: int = 0) -> None:
    """Games at equal time per move, each opening with both colours; W/D/L and Elo with its
    95 % interval (``bench.match_stats``: Wilson's interval of the mean score, in Elo).  Games
    are numbered from ``first_game`` (its opening and colour), so that shards of one match run
    side by side play different games.  Each
    game's record also has its moves, and our answers' wall time as a share of the movetime
    (median and maximum; ``our_late_answers``: past the movetime), from calling python-chess's
    ``play`` to its return, pipes included.
    """
    wins = draws = losses = 0
    ours = chess.engine.SimpleEngine.popen_uci(OURS, timeout=60)
    theirs = chess.engine.SimpleEngine.popen_uci(command, timeout=60)
    if options:
        theirs.configure(options)
    limit = chess.engine.Limit(time=seconds)
    start = time.perf_counter()
    try:
        for number in range(first_game, first_game + games):
            opening = OPENINGS[(number // 2) % len(OPENINGS)].split()
            we_are_white = number % 2 == 0
            board = chess.Board()
            for text in opening:
                board.push_uci(text)
            reason = ""
            shares: list[float] = []  # our answers' wall time over the movetime
            first_answer = True
            while True:
                outcome = board.outcome(claim_draw=True)
                if outcome is not None:
                    winner = outcome.winner
                    reason = outcome.termination.name.lower()
                    break
                if board.ply() >= max_plies:
                    winner, reason = None, "ply limit"
                    break
                engine = ours if (board.turn == chess.WHITE) == we_are_white else theirs
                asked = time.perf_counter()
                result = engine.play(board, limit, game=number)
                if engine is ours:
                    # The first answer of a game also waits for ucinewgame/isready
                    # (python-chess sends them inside play), which no GUI clock counts.
                    if not first_answer:
                        shares.append((time.perf_counter() - asked) / seconds)
                    first_answer = False
                if result.move is None:
                    winner, reason = (not board.turn), "no move"
                    break
                board.push(result.move)
            if winner is None:
                draws += 1
                verdict = "draw"
            elif (winner == chess.WHITE) == we_are_white:
                wins += 1
                verdict = "win"
            else:
                losses += 1
                verdict = "loss"
            score, low, high = elo_interval(wins, draws, losses)
            emit({"bench": "match", "opponent": label, "game": number + 1,
                  "we_play": "white" if we_are_white else "black",
                  "opening": " ".join(opening), "result": verdict,
                  "reason": reason, "plies": board.ply(), "final": board.fen(),
                  "W": wins, "D": draws, "L": losses,
                  "score": round(score, 3), "elo": _rounded(elo(score)),
                  "elo_95": [_rounded(low), _rounded(high)],
                  "seconds_per_move": seconds,
                  "our_time_share": ([round(statistics.median(shares), 3),
                                      round(max(shares), 3)] if shares else None),
                  "our_late_answers": sum(share > 1 for share in shares),
                  "our_late_shares": [round(share, 3) for share in shares if share > 1],
                  "moves": " ".join(move.uci() for move in board.move_stack),
                  "elapsed": round(time.perf_counter() - start),
                  "load": load_avg()})
    finally:
        ours.quit()
        theirs.quit()


# ---- endings ---------------------------------------------------------------------------------


def endings(materials: list[str], starts: int, nodes: int | None, seconds: float | None,
            defender_seconds: float, seed: int) -> None:
    """Random legal K+X vs K starts (White: us, ``nodes`` or ``seconds`` per move) against
    Stockfish defending at full strength (``defender_seconds`` per move): mates, and the plies
    they took; a game ends at mate, the 50-move rule, repetition or insufficient material.
    """
    ours = chess.engine.SimpleEngine.popen_uci(OURS, timeout=60)
    theirs = chess.engine.SimpleEngine.popen_uci(stockfish_command(), timeout=60)
    our_limit = chess.engine.Limit(nodes=nodes) if nodes else chess.engine.Limit(time=seconds)
    their_limit = chess.engine.Limit(time=defender_seconds)
    try:
        for pieces in materials:
            rng = random.Random(seed)
            won = 0
            plies: list[int] = []
            for number in range(starts):
                board = random_ending(pieces, rng)
                start = board.fen()
                while board.outcome(claim_draw=True) is None:
                    engine = ours if board.turn == chess.WHITE else theirs
                    limit = our_limit if board.turn == chess.WHITE else their_limit
                    move = engine.play(board, limit, game=(pieces, number)).move
                    assert move is not None
                    board.push(move)
                outcome = board.outcome(claim_draw=True)
                assert outcome is not None
                mated = outcome.winner == chess.WHITE
                won += mated
                if mated:
                    plies.append(board.ply())
                emit({"bench": "endings", "material": f"K{pieces} vs K", "start": start,
                      "result": outcome.termination.name.lower(), "plies": board.ply(),
                      "load": load_avg()})
            emit({"bench": "endings", "material": f"K{pieces} vs K", "starts": starts,
                  "won": won, "median_plies_to_mate": statistics.median(plies) if plies else None,
                  "max_plies_to_mate": max(plies, default=None),
                  "ours": f"{nodes} nodes" if nodes else f"{seconds}s",
                  "stockfish": f"full strength, {defender_seconds}s", "seed": seed,
                  "load": load_avg()})
    finally:
        ours.quit()
        theirs.quit()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("setup", "speed", "techniques", "wac", "match",
                                         "endings", "all"))
    parser.add_argument("--scratch", type=Path, default=Path("/tmp/sakiyomi-bench"))
    parser.add_argument("--depth", type=int, default=5)
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--nodes", type=int, default=10_000)
    parser.add_argument("--time", type=float, default=0.5, help="seconds per move")
    parser.add_argument("--count", type=int, default=200, help="WAC positions")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--start-game", type=int, default=0,
                        help="match: number of the first game (its opening and colour), for "
                             "shards of one match run side by side")
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument("--aspiration", type=int, default=40)
    parser.add_argument("--opponent", choices=("sunfish", "stockfish"), default="sunfish")
    parser.add_argument("--elo", type=int, default=1800,
                        help="Stockfish's UCI_Elo in matches (its minimum is 1350)")
    parser.add_argument("--material", default="Q,R,BB",
                        help="endings: White's pieces besides the king, comma-separated")
    parser.add_argument("--starts", type=int, default=20, help="endings: starts per material")
    parser.add_argument("--defender-time", type=float, default=0.1,
                        help="endings: Stockfish's seconds per move")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.start_game < 0:
        parser.error(f"--start-game must be at least 0, not {args.start_game}")
    emit({"bench": "machine", "cpus": os.cpu_count(), "load": load_avg(),
          "python": sys.version.split()[0], "python_chess": chess.__version__})
    if args.what in ("speed", "all"):
        speed()
    if args.what in ("techniques", "all"):
        techniques(args.depth, args.positions, args.nodes, args.aspiration)
    if args.what in ("setup", "wac", "all"):
        sunfish = setup(args.scratch)
        if args.what in ("wac", "all"):
            wac(sunfish, args.nodes, args.time, args.count)
    if args.what in ("match", "all"):
        elo_setting = args.elo if args.opponent == "stockfish" else None
        command, options = opponent(args.opponent, args.scratch, elo_setting)
        label = args.opponent + (f" UCI_Elo {elo_setting}" if elo_setting else "")
        match(command, options, label, args.games, args.time, args.max_plies, args.start_game)
    if args.what == "endings":
        endings(args.material.split(","), args.starts, args.nodes if args.nodes else None,
                args.time, args.defender_time, args.seed)


if __name__ == "__main__":
    main()
