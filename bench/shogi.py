"""Shogi benchmark (not a test): mate solving, the cost of our Python layer, a match.

1. Mate sets (tests/data/shogi): df-pn solve rate per set, "shortest" (length == mate_ply,
   first move in the answer list, line re-checked with cshogi) and "any" (a verified mate of
   any length), with median / mean / max seconds per problem.
2. Speed: leaf-counting perft through a bare loop over ``cshogi.Board`` (the anchor: cshogi has
   no native perft, so this is its push/pop/move-generation rate seen from Python) versus the
   same perft through our ``ShogiGame`` and versus the nodes/s of the Searcher, on the 20
   mid-game positions; ratios printed.
3. Matches (one JSON line per game with its moves, then W/D/L, score, Elo and its 95 %
   interval, the load at start and end, the engines' CPU time): against Debian's
   ``fairy-stockfish`` (installed with apt in ``setup()`` when missing) at each of
   ``--fsf-nodes`` nodes per move (1,000 and 10,000 unless YaneuraOu is named); against
   YaneuraOu (``--yaneuraou PATH``: a binary of its
   material-only edition that the user built) at equal byoyomi, or at ``--yaneuraou-nodes N``
   nodes a move (with ``--our-nodes``: a load-independent match at node odds); or against our
   own engine with other options (``--self-nodes N --their-option Evaluation=komawari``), or
   at equal time (``--self-byoyomi MS``), or another USI program (``--usi-opponent PATH``,
   e.g. a script that runs an older sakiyomi: what a speed-up is worth at a time limit).
   Ours plays with ``--byoyomi MS`` or, load-independent, ``--our-nodes N`` (in a
   ``--self-nodes N`` or ``--self-byoyomi MS`` match naming neither, at the other side's
   limit).  The games start
   from ``OPENINGS`` in turn, each line once with either colour.

Run: ``python bench/shogi.py [--skip-mates] [--skip-speed] [--games N] [--fsf-nodes N ...]
[--our-nodes N | --byoyomi MS] [--yaneuraou PATH [--yaneuraou-nodes N]] [--mate-seconds S]``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cshogi
from cshogi.usi import Engine

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository: bench.*
from bench.match_stats import RESULT_SCORE, Sprt, pairs, summary
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
DEFAULT_BYOYOMI = 1000  # ms a move for ours when neither --byoyomi nor --our-nodes is given


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

# Opening lines (USI) from the start position, each played with either colour: common first
# moves of the main openings (static rook, ranging rook, bishop exchange, ...).
OPENINGS = [
    "7g7f 3c3d 2g2f 8c8d",  # side pawn / static rook
    "2g2f 8c8d 2f2e 8d8e 6i7h 4a3b",  # double wing attack
    "7g7f 8c8d 6g6f 3c3d 6f6e 7a6b",  # yagura-style
    "7g7f 3c3d 6g6f 8c8d 2h6h 7a6b",  # fourth-file rook
    "7g7f 3c3d 2h7h 8c8d 7f7e 4a3b",  # third-file rook
    "7g7f 3c3d 2h5h 8c8d 5g5f 8d8e",  # central rook
    "7g7f 8c8d 2g2f 8d8e 8h7g 3c3d 7i8h 2b7g+ 8h7g",  # bishop exchange
    "2g2f 3c3d 7g7f 4c4d 2f2e 2b3c",  # white's fourth-file rook set-up
    "7g7f 3c3d 2g2f 5c5d 2f2e 8b5b",  # white's central rook
    "5g5f 3c3d 2h5h 8c8d",  # black's early central pawn
    "7g7f 8c8d 7i6h 3c3d 6g6f 7a6b",  # slow yagura
    "1g1f 8c8d 7g7f 3c3d 2g2f 4a3b",  # edge pawn first
    "2g2f 8c8d 2f2e 8d8e 7g7f 4a3b 8h7g 3c3d",  # double wing, bishop's diagonal opened
    "7g7f 3c3d 8h2b+ 3a2b",  # early bishop exchange
    "7g7f 3c3d 2g2f 4c4d 2f2e 2b3c 3i4h 3a4b",  # vs white's fourth-file rook, silver up
    "6g6f 8c8d 7g7f 3c3d 7i6h 7a6b",  # black's slow yagura with 6g6f first
    "7g7f 8c8d 6g6f 8d8e 8h7g 3c3d 7i6h 7a6b",  # bishop to 7g, yagura shape
    "7g7f 3c3d 6g6f 8c8d 6i7h 7a6b 5i6h",  # black castles early
    "2g2f 8c8d 7g7f 8d8e 8h7g 3c3d 7i6h 2b7g+ 6h7g",  # bishop exchange, silver recaptures
    "7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d 2h2d",  # side pawn, rook exchange of pawns
    "5g5f 8c8d 5f5e 3c3d 2h5h",  # early central pawn advance
    "7g7f 3c3d 7f7e 8c8d 2h7h",  # third-file rook with the 7e pawn
    "3g3f 8c8d 2g2f 8d8e 2f2e 4a3b",  # black's third-file pawn first
    "9g9f 3c3d 7g7f 9c9d 2g2f 8c8d",  # edge pawns both sides
    # Session 22: 24 more, so that a 96-game match plays each of 48 lines with either colour.
    "7g7f 3c3d 2g2f 4c4d 2f2e 2b3c 3i4h 8b4b",  # vs white's fourth-file rook, rook moved
    "2g2f 3c3d 7g7f 4c4d 3i4h 8b4b 5i6h 3a3b",  # vs white's fourth-file rook, silver to 3b
    "7g7f 3c3d 6g6f 8c8d 6i7h 8d8e 7h6g 4a3b",  # black's bishop-pawn castle
    "7g7f 8c8d 2g2f 8d8e 8h7g 3c3d 7i8h 4a3b 3i3h",  # bishop's diagonal, silver slow
    "2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d 2h2d",  # double wing, pawn exchange
    "7g7f 3c3d 2h6h 8c8d 5i4h 7a6b 4h3h",  # fourth-file rook, king to the right
    "7g7f 3c3d 8h7g 8c8d 2h8h",  # black's opposing rook
    "7g7f 8c8d 2h6h 3c3d 5i4h 5a4b",  # fourth-file rook vs static rook
    # side pawn, both sides exchange pawns
    "7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d 2h2d 8e8f 8g8f 8b8f",
    "2g2f 3c3d 7g7f 4c4d 4i5h 8b4b 5i6h 5a6b",  # static rook vs ranging rook, both castle
    "7g7f 3c3d 2g2f 5c5d 5g5f 8b5b 2f2e 2b3c",  # central rooks
    "7g7f 8c8d 7i6h 3c3d 6h7g 7a6b 2g2f 5c5d",  # yagura climbing silver
    "2g2f 8c8d 7g7f 8d8e 8h7g 3c3d 7i8h 2b7g+ 8h7g 3a2b",  # bishop exchange, both silvers up
    "1g1f 1c1d 7g7f 3c3d 2g2f 8c8d",  # edge pawns on the right
    "7g7f 3c3d 6g6f 8c8d 7i6h 8d8e 8h7g 7a6b",  # yagura vs quick wing attack
    "7g7f 3c3d 8h2b+ 3a2b 7i8h 2b3c 8h7g",  # early bishop exchange, silvers up
    "5g5f 8c8d 2h5h 3c3d 5f5e 7a6b",  # central rook with the 5e pawn
    "7g7f 3c3d 2g2f 4c4d 2f2e 2b3c 7i6h 8b2b",  # vs white's opposing rook
    "2g2f 3c3d 2f2e 2b3c 7g7f 4c4d 3i4h 3a4b",  # side pawn first vs ranging rook
    "7g7f 3c3d 6g6f 3d3e 2h6h 8b3b",  # white's third-file pawn advance
    "7g7f 3c3d 2g2f 4a3b 2f2e 8c8d",  # white's gold up first
    "7g7f 8c8d 2g2f 8d8e 2f2e 4a3b 2e2d 2c2d 2h2d P*2c 2d2f",  # double wing, rook back
    "6g6f 3c3d 6i7h 8c8d 2g2f 8d8e",  # black's slow left
    "2g2f 8c8d 7g7f 8d8e 8h7g 3c3d 7i8h 2b7g+ 8h7g 3a2b 3i3h 7a7b",  # bishop exchange, slow
]


def load_avg() -> list[float]:
    """The 1-, 5- and 15-minute load averages (as ``uptime`` prints them)."""
    return [round(x, 2) for x in os.getloadavg()]


def setup() -> str | None:
    """Path of fairy-stockfish, installing Debian's package when it is missing (needs root)."""
    path = shutil.which(FSF) or shutil.which(f"/usr/games/{FSF}")
    if path is None:
        subprocess.run(["apt-get", "install", "-y", "-q", FSF], check=False,
                       capture_output=True)
        path = shutil.which(FSF) or shutil.which(f"/usr/games/{FSF}")
    return path


LAST_GAME: list[str] = []  # the moves of the game play_game played last


@dataclass
class Player:
    """One side of a match: a USI engine and how it is asked for a move."""

    engine: Engine
    name: str
    nodes: int | None = None  # go nodes N
    byoyomi: int | None = None  # go btime 0 wtime 0 byoyomi MS
    slowest: float = 0.0

    def move(self, moves: list[str]) -> str:
        self.engine.position(moves)
        start = time.perf_counter()
        if self.nodes is not None:
            best, _ = self.engine.go(nodes=self.nodes)
        else:
            best, _ = self.engine.go(btime=0, wtime=0, byoyomi=self.byoyomi)
        self.slowest = max(self.slowest, time.perf_counter() - start)
        return str(best)


def play_game(ours: Player, theirs: Player, ours_black: bool, opening: list[str],
              max_plies: int) -> tuple[str, str, int]:
    """One game after ``opening``: (result for us 'W'/'D'/'L', reason, plies); its moves are
    left in ``LAST_GAME``.
    """
    board = cshogi.Board()
    moves: list[str] = LAST_GAME
    moves.clear()
    for text in opening:
        board.push_usi(text)
        moves.append(text)
    keys: list[int] = [board.zobrist_hash()]
    for side in (ours, theirs):
        side.engine.usinewgame()
    while True:
        our_turn = (board.turn == cshogi.BLACK) == ours_black
        best = (ours if our_turn else theirs).move(moves)
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
        if len(moves) >= max_plies:
            return "D", f"{max_plies}-ply limit", len(moves)


def start_ours(options: list[str]) -> Engine:
    """Our USI engine (this tree's ``sakiyomi usi``) with ``NAME=VALUE`` options set."""
    engine = Engine(shutil.which("sakiyomi-usi")
                    or str(Path(sys.executable).parent / "sakiyomi-usi"))
    for setting in options:
        name, _, value = setting.partition("=")
        engine.setoption(name, value)
    engine.isready()
    return engine


def start_opponent(kind: str, path: str | None, options: list[str]) -> Engine | None:
    """Fairy-Stockfish (shogi variant, one thread), YaneuraOu at ``path`` or a second copy of
    our own engine with other options; None when the program is missing.
    """
    if kind == "self":
        return start_ours(options)
    if path is None:
        return None
    engine = Engine(path)
    engine.setoption("Threads", 1)
    if kind == "fsf":
        engine.setoption("USI_Variant", "shogi")
    elif kind == "yaneuraou":  # no book, one thread
        engine.setoption("BookFile", "no_book")
    for setting in options:
        name, _, value = setting.partition("=")
        engine.setoption(name, value)
    engine.isready()
    return engine


def bench_match(args: argparse.Namespace, kind: str, limit: dict[str, int | None]) -> None:
    """``args.games`` games (the openings in turn, each with both colours) against ``kind``
    under ``limit`` for the opponent; W/D/L, Elo and its 95 % interval, the load.
    """
    path = setup() if kind == "fsf" else args.yaneuraou if kind == "yaneuraou" \
        else args.usi_opponent
    theirs_engine = start_opponent(kind, path, args.their_option)
    if theirs_engine is None:
        emit({"bench": "match", "opponent": kind, "skipped": "program not found"})
        return
    ours = Player(start_ours(args.option), "sakiyomi", nodes=args.our_nodes,
                  byoyomi=None if args.our_nodes else args.byoyomi)
    theirs = Player(theirs_engine, kind, nodes=limit.get("nodes"), byoyomi=limit.get("byoyomi"))
    scores: dict[int, float] = {}  # our score by game number (the statistics' input)
    sprt = Sprt(args.sprt[0], args.sprt[1]) if args.sprt else None
    decision = None
    load_start = load_avg()
    wall = time.perf_counter()
    cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    for number in range(args.start_game, args.start_game + args.games):
        ours_black = number % 2 == 0
        opening = OPENINGS[(number // 2) % len(OPENINGS)].split()
        start = time.perf_counter()
        result, reason, plies = play_game(ours, theirs, ours_black, opening, args.max_plies)
        scores[number] = RESULT_SCORE[result]
        record: dict[str, Any] = {
            "bench": "match-game", "opponent": kind, "game": number + 1,
            "sakiyomi": "black" if ours_black else "white", "opening": " ".join(opening),
            "result": result, "reason": reason, "plies": plies,
            "seconds": round(time.perf_counter() - start, 1), "load": load_avg(),
            "moves": " ".join(LAST_GAME)}
        if sprt is not None:
            samples = pairs(scores)
            decision = sprt.decision(samples)
            record["llr"] = round(sprt.llr(samples), 3)
        emit(record)
        if decision is not None:
            break
    ours.engine.quit()
    theirs.engine.quit()
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    final = summary(scores, sprt)  # W/D/L, score, Elo, its interval, LOS, pairs, the SPRT
    emit({"bench": "match", "opponent": kind, "opponent_limit": limit,
          "sakiyomi_limit": {"nodes": args.our_nodes} if args.our_nodes
          else {"byoyomi": args.byoyomi},
          "sakiyomi_options": args.option, "opponent_options": args.their_option, **final,
          "sakiyomi_slowest_move_ms": round(ours.slowest * 1000),
          "wall_seconds": round(time.perf_counter() - wall),
          "children_cpu_seconds": round(used.ru_utime + used.ru_stime
                                        - cpu.ru_utime - cpu.ru_stime),
          "load_start": load_start, "load_end": load_avg()})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--skip-mates", action="store_true")
    parser.add_argument("--skip-speed", action="store_true")
    parser.add_argument("--mate-seconds", type=float, default=30.0)
    parser.add_argument("--perft-depth", type=int, default=2)
    parser.add_argument("--search-nodes", type=int, default=20_000)
    parser.add_argument("--games", type=int, default=20, help="per match (0: no match)")
    parser.add_argument("--start-game", type=int, default=0,
                        help="number of the first game (its opening and colour): shards of "
                             "one match run side by side")
    parser.add_argument("--max-plies", type=int, default=320)
    parser.add_argument("--byoyomi", type=int, default=None,
                        help=f"ours, ms per move (default {DEFAULT_BYOYOMI}; with "
                             "--self-byoyomi MS and no --our-nodes: MS)")
    parser.add_argument("--our-nodes", type=int, default=None,
                        help="ours node-limited instead of byoyomi (load-independent; with "
                             "--self-nodes N and neither flag: N)")
    parser.add_argument("--fsf-nodes", type=int, nargs="*", default=None,
                        help="one match vs fairy-stockfish per node budget (default 1000 and "
                             "10000, none when --yaneuraou names another opponent)")
    parser.add_argument("--yaneuraou", default=None,
                        help="path of a YaneuraOu binary (material edition): a match at equal "
                             "byoyomi")
    parser.add_argument("--yaneuraou-nodes", type=int, default=None,
                        help="with --yaneuraou: it plays at N nodes a move instead of the "
                             "byoyomi (load-independent; with --our-nodes a match at node odds)")
    parser.add_argument("--self-nodes", type=int, default=None,
                        help="a match against our own engine at N nodes (A/B of options: "
                             "--option for us, --their-option for it)")
    parser.add_argument("--self-byoyomi", type=int, default=None,
                        help="a match against our own engine at byoyomi MS a move, ours at "
                             "MS too unless named (equal time: what a speed-up is worth; "
                             "load-dependent)")
    parser.add_argument("--usi-opponent", default=None,
                        help="with --self-nodes or --self-byoyomi: another USI engine (e.g. a "
                             "wrapper running an older sakiyomi) instead of our own")
    parser.add_argument("--option", action="append", default=[],
                        help="NAME=VALUE: a USI option for our engine (repeatable)")
    parser.add_argument("--their-option", action="append", default=[],
                        help="NAME=VALUE: a USI option for the opponent (repeatable)")
    parser.add_argument("--sprt", type=float, nargs=2, metavar=("ELO0", "ELO1"),
                        help="stop a match once Wald's test (bench/match_stats.py, α = β = "
                             "0.05, on opening pairs) accepts ELO0 or ELO1 for our side")
    args = parser.parse_args()
    if args.our_nodes is None and args.byoyomi is None:
        # A self match's limit is both sides' unless ours is named (session 26 lost a match
        # to ours silently playing the default byoyomi against the other side's nodes).
        if args.self_nodes is not None:
            args.our_nodes = args.self_nodes
        elif args.self_byoyomi is not None:
            args.byoyomi = args.self_byoyomi
    if args.byoyomi is None:
        args.byoyomi = DEFAULT_BYOYOMI
    if args.sprt and not args.sprt[1] > args.sprt[0]:
        parser.error("--sprt needs ELO0 < ELO1")
    if args.fsf_nodes is None:  # asked for YaneuraOu alone, play YaneuraOu alone
        args.fsf_nodes = [] if args.yaneuraou else [1000, 10_000]
    for flag, number, least in (("--games", args.games, 0), ("--start-game", args.start_game, 0),
                                ("--mate-seconds", args.mate_seconds, 1e-9),
                                ("--perft-depth", args.perft_depth, 1),
                                ("--search-nodes", args.search_nodes, 1),
                                ("--max-plies", args.max_plies, 1),
                                ("--byoyomi", args.byoyomi, 1),
                                *(("--fsf-nodes", n, 1) for n in args.fsf_nodes),
                                *((flag, value, 1) for flag, value in (
                                    ("--our-nodes", args.our_nodes),
                                    ("--yaneuraou-nodes", args.yaneuraou_nodes),
                                    ("--self-nodes", args.self_nodes),
                                    ("--self-byoyomi", args.self_byoyomi)) if value is not None)):
        if number < least:
            parser.error(f"{flag} must be at least {least:g}, not {number}")
    if not args.skip_mates:
        bench_mates(args.mate_seconds)
    if not args.skip_speed:
        bench_speed(args.perft_depth, args.search_nodes)
    if not args.games:
        return
    if args.self_nodes or args.self_byoyomi:
        bench_match(args, "usi" if args.usi_opponent else "self",
                    {"nodes": args.self_nodes} if args.self_nodes
                    else {"byoyomi": args.self_byoyomi})
        return
    for nodes in args.fsf_nodes:
        bench_match(args, "fsf", {"nodes": nodes})
    if args.yaneuraou:
        bench_match(args, "yaneuraou", {"nodes": args.yaneuraou_nodes} if args.yaneuraou_nodes
                    else {"byoyomi": args.byoyomi})


if __name__ == "__main__":
    main()
