"""Shogi benchmark (not a test): mate solving, the cost of our Python layer, a match.

1. Mate sets (tests/data/shogi): df-pn solve rate per set, "shortest" (length == mate_ply,
   first move in the answer list, line re-checked with cshogi) and "any" (a verified mate of
   any length), with median / mean / max seconds per problem.
2. Speed: leaf-counting perft through a bare loop over ``cshogi.Board`` (the anchor: cshogi has
   no native perft, so this is its push/pop/move-generation rate seen from Python) versus the
   same perft through our ``ShogiGame`` and versus the nodes/s of the Searcher, on the 20
   mid-game positions; ratios printed.
3. A small match against Debian's ``fairy-stockfish`` (installed with apt in ``setup()`` when
   missing) at a fixed node budget for it; our engine plays with byoyomi.  Prints W/D/L.

Run: ``python bench/shogi.py [--skip-mates] [--skip-speed] [--games N] [--fsf-nodes N]
[--byoyomi MS] [--mate-seconds S]``.  One JSON line per measurement.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import cshogi
from cshogi.usi import Engine

from sakiyomi.games.shogi import ShogiGame
from sakiyomi.games.shogi_facade import is_forced_mate_line
from sakiyomi.search.dfpn import solve_mate
from sakiyomi.search.drivers import run
from sakiyomi.search.limits import Limits, StopSignal
from sakiyomi.search.perft import perft
from sakiyomi.search.searcher import SearchConfig, Searcher

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "shogi"
FSF = "fairy-stockfish"


def emit(record: dict[str, Any]) -> None:
    print(json.dumps(record, ensure_ascii=False), flush=True)


def rows(name: str) -> list[dict[str, str]]:
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    header = lines[0].split("\t")
    return [dict(zip(header, line.split("\t"), strict=False)) for line in lines[1:] if line]


# ---- 1. mates ------------------------------------------------------------------------------


def bench_mates(seconds: float) -> None:
    for name in ("mate3_yaneuraou.tsv", "mate5_yaneuraou.tsv", "mate7_yaneuraou.tsv",
                 "tsume_classic.tsv"):
        shortest = found = controls = controls_ok = 0
        times: list[float] = []
        nodes: list[int] = []
        problems = rows(name)
        for row in problems:
            game = ShogiGame(row["sfen"])
            start = time.perf_counter()
            result = solve_mate(game, stop=StopSignal(seconds=seconds))
            times.append(time.perf_counter() - start)
            nodes.append(result.nodes)
            if row["mate_ply"].startswith("none"):
                controls += 1
                controls_ok += result.status == "nomate"
                continue
            line = [game.move_to_text(m) for m in result.moves]
            if result.status == "mate" and is_forced_mate_line(row["sfen"], line):
                found += 1
                if len(line) == int(row["mate_ply"]) and line[0] in row["first_moves"].split(","):
                    shortest += 1
        mates = len(problems) - controls
        emit({"bench": "mates", "set": name, "problems": mates, "solved_shortest": shortest,
              "solved_any": found, "rate_shortest": round(shortest / mates, 3),
              "nomate_controls": controls, "nomate_ok": controls_ok,
              "seconds_median": round(statistics.median(times), 4),
              "seconds_mean": round(statistics.fmean(times), 4),
              "seconds_max": round(max(times), 3), "nodes_median": statistics.median(nodes),
              "limit_seconds": seconds})


# ---- 2. speed ------------------------------------------------------------------------------


def cshogi_perft(board: Any, depth: int) -> int:
    if depth == 1:
        return len(list(board.legal_moves))
    total = 0
    for move in list(board.legal_moves):
        board.push(move)
        total += cshogi_perft(board, depth - 1)
        board.pop()
    return total


def cshogi_visits(board: Any, depth: int) -> int:
    """Positions visited (every push, leaves included): the library's per-node rate."""
    total = 0
    for move in list(board.legal_moves):
        board.push(move)
        total += 1 + (cshogi_visits(board, depth - 1) if depth > 1 else 0)
        board.pop()
    return total


def cpu_rate(count_nodes: Any, repeats: int = 3) -> tuple[int, float]:
    """(nodes, best nodes per CPU second over ``repeats`` runs) of a zero-argument counter."""
    best = 0.0
    nodes = 0
    for _ in range(repeats):
        start = time.process_time()
        nodes = count_nodes()
        elapsed = max(time.process_time() - start, 1e-9)
        best = max(best, nodes / elapsed)
    return nodes, best


def bench_speed(depth: int, search_nodes: int) -> None:
    """Per position (CPU time, best of 3): cshogi push/pop rate, leaf-counting perft through
    cshogi and through ShogiGame, and Searcher nodes/s; medians and ratios over 20 positions.
    """
    visit_rates, anchor_rates, ours_rates, search_rates = [], [], [], []
    for row in rows("midgame_perft.tsv"):
        board = cshogi.Board(row["sfen"])
        visit_rates.append(cpu_rate(lambda b=board: cshogi_visits(b, depth))[1])
        leaves, anchor = cpu_rate(lambda b=board: cshogi_perft(b, depth))
        game = ShogiGame(row["sfen"])
        ours_leaves, ours = cpu_rate(lambda g=game: perft(g, depth))
        assert ours_leaves == leaves
        anchor_rates.append(anchor)
        ours_rates.append(ours)

        def search(g: ShogiGame = game) -> int:
            searcher: Searcher[int] = Searcher(g, SearchConfig(),
                                               stop=StopSignal(nodes=search_nodes))
            return run(searcher, Limits(nodes=search_nodes)).stats.nodes

        search_rates.append(cpu_rate(search, repeats=1)[1])
    med = statistics.median
    emit({"bench": "speed", "positions": 20, "perft_depth": depth, "clock": "CPU, best of 3",
          "cshogi_push_pop_nodes_per_s_median": round(med(visit_rates)),
          "cshogi_perft_leaves_per_s_median": round(med(anchor_rates)),
          "sakiyomi_perft_leaves_per_s_median": round(med(ours_rates)),
          "perft_ratio_ours_to_cshogi_median": round(
              med(o / a for o, a in zip(ours_rates, anchor_rates, strict=True)), 3),
          "search_nodes_budget": search_nodes,
          "search_nodes_per_s_median": round(med(search_rates)),
          "search_nps_to_cshogi_push_pop_ratio_median": round(
              med(s / v for s, v in zip(search_rates, visit_rates, strict=True)), 4)})


# ---- 3. match ------------------------------------------------------------------------------


def setup() -> str | None:
    """Path of fairy-stockfish, installing Debian's package when it is missing (needs root)."""
    path = shutil.which(FSF) or shutil.which(f"/usr/games/{FSF}")
    if path is None:
        subprocess.run(["apt-get", "install", "-y", "-q", FSF], check=False,
                       capture_output=True)
        path = shutil.which(FSF) or shutil.which(f"/usr/games/{FSF}")
    return path


SLOWEST: list[float] = [0.0]  # our longest answer to 'go byoyomi' in the match (seconds)


def play_game(ours: Engine, theirs: Engine, ours_black: bool, byoyomi: int,
              fsf_nodes: int) -> tuple[str, str, int]:
    """One game from the start position: (result for us 'W'/'D'/'L', reason, plies)."""
    board = cshogi.Board()
    moves: list[str] = []
    keys: list[int] = [board.zobrist_hash()]
    for engine in (ours, theirs):
        engine.usinewgame()
    while True:
        our_turn = (board.turn == cshogi.BLACK) == ours_black
        engine = ours if our_turn else theirs
        engine.position(moves)
        if our_turn:
            start = time.perf_counter()
            best, _ = engine.go(byoyomi=byoyomi)
            SLOWEST[0] = max(SLOWEST[0], time.perf_counter() - start)
        else:
            best, _ = engine.go(nodes=fsf_nodes)
        mover_wins = "W" if our_turn else "L"
        mover_loses = "L" if our_turn else "W"
        if best == "resign":
            return mover_loses, "resign", len(moves)
        if best == "win":
            return (mover_wins, "declaration", len(moves)) if board.is_nyugyoku() \
                else (mover_loses, "false declaration", len(moves))
        move = board.move_from_usi(best)
        if move == 0 or not board.is_legal(move):
            return mover_loses, f"illegal move {best}", len(moves)
        board.push(move)
        moves.append(best)
        keys.append(board.zobrist_hash())
        if board.is_game_over():
            return mover_wins, "mate", len(moves)
        verdict = board.is_draw()
        if keys.count(keys[-1]) >= 4 and verdict in (cshogi.REPETITION_DRAW,
                                                     cshogi.REPETITION_WIN,
                                                     cshogi.REPETITION_LOSE):
            if verdict == cshogi.REPETITION_DRAW:
                return "D", "sennichite", len(moves)
            # REPETITION_WIN: the side to move (not the mover) was checked perpetually
            return (mover_loses if verdict == cshogi.REPETITION_WIN else mover_wins,
                    "perpetual check", len(moves))
        if len(moves) >= 256:
            return "D", "256-move rule", len(moves)


def bench_match(games: int, byoyomi: int, fsf_nodes: int, options: list[str]) -> None:
    path = setup()
    if path is None:
        emit({"bench": "match", "skipped": "fairy-stockfish not installed and apt-get failed"})
        return
    ours_path = shutil.which("sakiyomi-usi") or str(Path(sys.executable).parent / "sakiyomi-usi")
    ours, theirs = Engine(ours_path), Engine(path)
    for setting in options:
        name, _, value = setting.partition("=")
        ours.setoption(name, value)
    theirs.setoption("Threads", 1)
    score = {"W": 0, "D": 0, "L": 0}
    for number in range(games):
        ours_black = number % 2 == 0
        start = time.perf_counter()
        result, reason, plies = play_game(ours, theirs, ours_black, byoyomi, fsf_nodes)
        score[result] += 1
        emit({"bench": "match-game", "game": number + 1, "sakiyomi": "black" if ours_black
              else "white", "result": result, "reason": reason, "plies": plies,
              "seconds": round(time.perf_counter() - start, 1)})
    ours.quit()
    theirs.quit()
    emit({"bench": "match", "opponent": theirs.name if theirs.name else FSF,
          "fsf_nodes_per_move": fsf_nodes, "sakiyomi_byoyomi_ms": byoyomi, "games": games,
          "sakiyomi_options": options,
          "W": score["W"], "D": score["D"], "L": score["L"],
          "sakiyomi_slowest_move_ms": round(SLOWEST[0] * 1000)})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--skip-mates", action="store_true")
    parser.add_argument("--skip-speed", action="store_true")
    parser.add_argument("--mate-seconds", type=float, default=30.0)
    parser.add_argument("--perft-depth", type=int, default=2)
    parser.add_argument("--search-nodes", type=int, default=20_000)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--byoyomi", type=int, default=1000)
    parser.add_argument("--fsf-nodes", type=int, default=1000)
    parser.add_argument("--option", action="append", default=[],
                        help="NAME=VALUE: a USI option for our engine (repeatable)")
    args = parser.parse_args()
    if not args.skip_mates:
        bench_mates(args.mate_seconds)
    if not args.skip_speed:
        bench_speed(args.perft_depth, args.search_nodes)
    if args.games:
        bench_match(args.games, args.byoyomi, args.fsf_nodes, args.option)


if __name__ == "__main__":
    main()
