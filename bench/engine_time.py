"""Engine timing under load (not a test): how late are moves past their movetime or hard limit.

The script starts two busy-loop processes itself (so the machine has more runnable processes
than cores, as in a tournament on a shared box), then drives each engine in self-play games
through ``tests/engine_process.py`` and measures, per move, the wall time from writing ``go``
to reading ``bestmove`` (pipes included):

1. ``go movetime 100``, 300 moves: overrun = elapsed - 100 ms (the limit the GUI gave);
   (``--byoyomi MS --engines usi``: ``go btime 0 wtime 0 byoyomi MS`` instead, with the share
   of the byoyomi used per move);
   (``--nodes N``: ``go nodes N`` instead, load-independent: the share of the budget the
   last ``info`` line counts, per move; issue 16 wants every move within [0.95, 1]);
2. a 2 s + 0.1 s Fischer clock per side, 300 moves: overrun = elapsed - the hard limit of the
   engine's own time plan for that clock (``GoParams.plan``, computed here from the same go
   line and the engine's overhead); a time loss is a move longer than the clock had left.

3. ``--games N``: N games at 1 s + 0.1 s per side against another engine (Stockfish for UCI,
   Fairy-Stockfish for USI, from Debian's packages, installed with apt when missing), colours
   alternating, the clocks kept here as a GUI keeps them (from writing ``go`` to reading
   ``bestmove``): time losses of each side, and our overruns past our own hard limit.  Games
   are cut (not scored) after ``MAX_PLIES``; only the clock matters here.

Both engines run with a 50 ms overhead setting (UCI ``Move Overhead``, USI ``ByoyomiMargin``)
so their limits are alike; ``--overhead MS`` sets ours to another value (to measure what a
smaller default does to lateness and time losses), and ``--movetime MS`` the fixed-time mode's
movetime.  The anchor is the limit itself: one JSON line per engine and mode
with moves, max / p50 / p99 overrun, moves more than 50 ms over, time losses, and the load
(``uptime``) before and after.  Goal (issue 11): no move more than 50 ms over.

Run from the repository root: ``python -m bench.engine_time [--moves 300] [--engines uci usi]
[--busy 2] [--games 100 | --nodes 10000 | --byoyomi 1000] [--overhead 50] [--movetime 100]``.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import chess
import cshogi
from tests.engine_process import EngineProcess
from tests.protocol_fuzz import COMMANDS, HELLO

from sakiyomi.protocols.go import parse_go

OVERHEAD_MS = 50
OVERHEAD = {"ms": OVERHEAD_MS}  # ours: --overhead may change it
OVERHEAD_OPTION = {"uci": "Move Overhead", "usi": "ByoyomiMargin"}
MAX_PLIES = 160  # a self-play game is restarted after this many plies


def emit(record: dict[str, Any]) -> None:
    print(json.dumps(record), flush=True)


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


@contextmanager
def busy_load(count: int) -> Iterator[None]:
    """``count`` processes spinning on a CPU each, ended (by their pid) afterwards."""
    procs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        time.sleep(0.5)
        yield
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()


class SelfPlay:
    """A game the engine plays against itself; legal moves tracked by the game library."""

    def __init__(self, engine: str) -> None:
        self.engine = engine
        self.moves: list[str] = []
        self.chess = chess.Board()
        self.shogi = cshogi.Board()

    @property
    def white(self) -> bool:
        """True when the side to move is UCI White / USI gote."""
        return self.chess.turn == chess.WHITE if self.engine == "uci" else \
            self.shogi.turn == cshogi.WHITE

    def position(self) -> str:
        return "position startpos" + (" moves " + " ".join(self.moves) if self.moves else "")

    def play(self, answer: str) -> bool:
        """Apply the engine's move; False when the game is over (restart it)."""
        if self.engine == "uci":
            move = chess.Move.from_uci(answer) if answer != "0000" else None
            if move is None or move not in self.chess.legal_moves:
                return False
            self.chess.push(move)
            over = self.chess.is_game_over(claim_draw=True)
        else:
            if answer in ("resign", "win"):
                return False
            self.shogi.push_usi(answer)
            over = self.shogi.is_game_over() or self.shogi.is_draw() == cshogi.REPETITION_DRAW
        self.moves.append(answer)
        return not over and len(self.moves) < MAX_PLIES


def summary(engine: str, mode: str, elapsed: list[float], limits: list[float],
            losses: int, load_before: str) -> dict[str, Any]:
    over = [(e - lim) * 1000 for e, lim in zip(elapsed, limits, strict=True)]
    quantiles = statistics.quantiles(over, n=100)
    return {
        "engine": engine, "mode": mode, "moves": len(over),
        "max_overrun_ms": round(max(over), 1), "p50_overrun_ms": round(quantiles[49], 1),
        "p99_overrun_ms": round(quantiles[98], 1),
        "over_50ms": sum(x > 50 for x in over), "over_0ms": sum(x > 0 for x in over),
        "median_elapsed_ms": round(statistics.median(elapsed) * 1000, 1),
        "median_limit_ms": round(statistics.median(limits) * 1000, 1),
        "time_losses": losses, "uptime_before": load_before, "uptime_after": uptime(),
    }


def timed_go(process: EngineProcess, position: str, go: str) -> tuple[float, str]:
    process.send(position)
    start = time.monotonic()
    process.send(go)
    line = process.wait_for("bestmove", 60)
    elapsed = time.monotonic() - start
    if line is None:
        raise RuntimeError(f"no bestmove for {go!r}")
    return elapsed, line.split()[1]


def run_fixed(process: EngineProcess, engine: str, moves: int, go: str = "go movetime 100",
              limit: float = 0.1) -> dict[str, Any]:
    """Self-play at a fixed time per move (``go``, ``limit`` seconds): how late, and how much
    of the time is used (``median_use``: elapsed ÷ limit).
    """
    load = uptime()
    elapsed: list[float] = []
    game = SelfPlay(engine)
    while len(elapsed) < moves:
        seconds, answer = timed_go(process, game.position(), go)
        elapsed.append(seconds)
        if not game.play(answer):
            game = SelfPlay(engine)
    record = summary(engine, go.removeprefix("go "), elapsed, [limit] * len(elapsed), 0, load)
    record["median_use"] = round(statistics.median(elapsed) / limit, 3)
    record["min_use"] = round(min(elapsed) / limit, 3)
    return record


def run_nodes(process: EngineProcess, engine: str, moves: int, budget: int) -> dict[str, Any]:
    """Self-play at ``go nodes budget``: the share of the budget each move spent, read from
    the last ``info`` line's node count before its ``bestmove`` (the whole move's count).
    """
    load = uptime()
    shares: list[float] = []
    game = SelfPlay(engine)
    while len(shares) < moves:
        process.send(game.position())
        process.send(f"go nodes {budget}")
        lines = process.until("bestmove", timeout=120)
        counts = [int(line.split(" nodes ")[1].split()[0]) for line in lines
                  if line.startswith("info") and " nodes " in line]
        shares.append(counts[-1] / budget if counts else 0.0)
        if not game.play(lines[-1].split()[1]):
            game = SelfPlay(engine)
    return {"engine": engine, "mode": f"nodes {budget}", "moves": len(shares),
            "share_median": round(statistics.median(shares), 4),
            "share_min": round(min(shares), 4), "share_max": round(max(shares), 4),
            "under_95": sum(share < 0.95 for share in shares),
            "over_budget": sum(share > 1 for share in shares),
            "uptime_before": load, "uptime_after": uptime()}


def clock_go(engine: str, clock: dict[bool, float]) -> str:
    """The ``go`` line of a Fischer clock with 0.1 s increments (``clock[True]``: White's /
    gote's seconds left; USI names the first player's time ``btime``).
    """
    first, second = ("wtime", "btime") if engine == "uci" else ("btime", "wtime")
    values = {"wtime": int(clock[True] * 1000), "btime": int(clock[False] * 1000)}
    return f"go {first} {values[first]} {second} {values[second]} winc 100 binc 100"


def hard_limit(engine: str, go: str, white: bool) -> float:
    """Our engine's hard limit for ``go`` (its own time plan, with the bench's overhead)."""
    plan = parse_go(go.split()[1:], "uci" if engine == "uci" else "usi").plan(
        white, OVERHEAD["ms"] / 1000)
    assert plan is not None
    return plan.hard


def run_clock(process: EngineProcess, engine: str, moves: int) -> dict[str, Any]:
    load = uptime()
    elapsed: list[float] = []
    limits: list[float] = []
    losses = 0
    game, clock = SelfPlay(engine), {True: 2.0, False: 2.0}
    while len(elapsed) < moves:
        white = game.white
        go = clock_go(engine, clock)
        seconds, answer = timed_go(process, game.position(), go)
        elapsed.append(seconds)
        limits.append(hard_limit(engine, go, white))
        clock[white] -= seconds
        lost = clock[white] < 0
        losses += lost
        clock[white] += 0.1
        if lost or not game.play(answer):
            game, clock = SelfPlay(engine), {True: 2.0, False: 2.0}
    return summary(engine, "clock 2s+0.1s", elapsed, limits, losses, load)


OPPONENTS = {"uci": "stockfish", "usi": "fairy-stockfish"}
# The opponents keep a wide margin (Move Overhead 400 ms): on a loaded machine their default
# (10-30 ms) lost most games on time within 15 moves, which would end games before our clock
# is low.  Only our losses are the measurement.
OPPONENT_OPTIONS = {"uci": ["Threads 1", "Hash 16", "UCI_LimitStrength true", "UCI_Elo 1500",
                            "Move Overhead 400"],
                    "usi": ["Threads 1", "Hash 16", "Move Overhead 400"]}


def opponent_command(engine: str) -> list[str]:
    """The opponent engine's command, installing its Debian package when it is missing."""
    name = OPPONENTS[engine]
    path = shutil.which(name) or shutil.which(f"/usr/games/{name}")
    if path is None:
        subprocess.run(["apt-get", "install", "-y", "-q", name], check=False,
                       capture_output=True)
        path = shutil.which(name) or shutil.which(f"/usr/games/{name}")
    if path is None:
        raise SystemExit(f"{name} is not installed and apt-get could not install it")
    return [path]


def start(command: list[str], engine: str, options: list[str]) -> EngineProcess:
    process = EngineProcess(command)
    hello, ok = HELLO[engine]
    process.send(hello)
    process.until(ok, timeout=60)
    for option in options:
        name, value = option.rsplit(" ", 1)
        process.send(f"setoption name {name} value {value}")
    process.send("isready")
    process.until("readyok", timeout=60)
    return process


def run_games(engine: str, games: int) -> dict[str, Any]:
    """``games`` games at 1 s + 0.1 s against the opponent engine (module docstring, 3)."""
    load = uptime()
    ours = start(COMMANDS[engine], engine, [f"{OVERHEAD_OPTION[engine]} {OVERHEAD['ms']}"])
    theirs = start(opponent_command(engine), engine, OPPONENT_OPTIONS[engine])
    elapsed: list[float] = []
    limits: list[float] = []
    losses = {"ours": 0, "theirs": 0}
    lost_moves: list[dict[str, Any]] = []  # our losses: what the clock said and what we did
    try:
        for number in range(games):
            ours_white = number % 2 == 0
            game, clock = SelfPlay(engine), {True: 1.0, False: 1.0}
            for process in (ours, theirs):
                process.send("ucinewgame" if engine == "uci" else "usinewgame")
                process.send("isready")
                process.until("readyok", timeout=60)
            while True:
                white = game.white
                mine = white == ours_white
                go = clock_go(engine, clock)
                seconds, answer = timed_go(ours if mine else theirs, game.position(), go)
                if mine:
                    elapsed.append(seconds)
                    limits.append(hard_limit(engine, go, white))
                clock[white] -= seconds
                if clock[white] < 0:
                    losses["ours" if mine else "theirs"] += 1
                    if mine:
                        lost_moves.append({
                            "ply": len(game.moves), "go": go,
                            "elapsed_ms": round(seconds * 1000, 1),
                            "hard_limit_ms": round(limits[-1] * 1000, 1), "load": uptime()})
                    break
                clock[white] += 0.1
                if not game.play(answer):
                    break
    finally:
        ours.close()
        theirs.close()
    record = summary(engine, f"{games} games at 1s+0.1s vs {OPPONENTS[engine]}", elapsed,
                     limits, losses["ours"], load)
    record["opponent_time_losses"] = losses["theirs"]
    record["our_lost_moves"] = lost_moves
    return record


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--engines", nargs="+", default=["uci", "usi"], choices=list(COMMANDS))
    parser.add_argument("--busy", type=int, default=2, help="busy-loop processes to start")
    parser.add_argument("--games", type=int, default=0,
                        help="play this many games against another engine instead")
    parser.add_argument("--byoyomi", type=int, default=0, metavar="MS",
                        help="USI only: moves at byoyomi MS instead (time use and lateness)")
    parser.add_argument("--nodes", type=int, default=0, metavar="N",
                        help="moves at go nodes N instead (share of the budget spent)")
    parser.add_argument("--overhead", type=int, default=OVERHEAD_MS, metavar="MS",
                        help="our engine's Move Overhead / ByoyomiMargin")
    parser.add_argument("--movetime", type=int, default=100, metavar="MS",
                        help="the fixed-time mode's movetime")
    args = parser.parse_args()
    OVERHEAD["ms"] = args.overhead
    if args.byoyomi and args.engines != ["usi"]:
        parser.error("--byoyomi needs --engines usi")
    emit({"bench": "engine_time", "uptime": uptime(), "busy_processes": args.busy,
          "overhead_ms": args.overhead})
    with busy_load(args.busy):
        for engine in args.engines:
            if args.games:
                emit(run_games(engine, args.games))
                continue
            process = start(COMMANDS[engine], engine,
                            [f"{OVERHEAD_OPTION[engine]} {OVERHEAD['ms']}"])
            try:
                if args.nodes:
                    emit(run_nodes(process, engine, args.moves, args.nodes))
                    continue
                if args.byoyomi:
                    emit(run_fixed(process, engine, args.moves,
                                   f"go btime 0 wtime 0 byoyomi {args.byoyomi}",
                                   args.byoyomi / 1000))
                    continue
                emit(run_fixed(process, engine, args.moves, f"go movetime {args.movetime}",
                               args.movetime / 1000))
                emit(run_clock(process, engine, args.moves))
            finally:
                process.close()


if __name__ == "__main__":
    main()
