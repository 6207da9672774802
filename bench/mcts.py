"""Monte Carlo tree search against αβ, and its playout speed against OpenSpiel's Python MCTS.

1. **Matches** (``--games N --time S``): ``MCTSAgent`` (compiled playouts for Connect Four and
   Othello, tree kept between moves) against ``SearchAgent`` (the production αβ searcher:
   iterative deepening, and for kernel games a quarter of the move spent trying to solve every
   move first) with the same wall-clock time per move, on tic-tac-toe (from the empty board:
   both must never lose), Connect Four and Othello (from random openings of a few plies, each
   opening played twice with the colours swapped).  Score, Elo difference for MCTS and its 95 %
   interval (``bench.match_stats``: Wilson's interval of the mean score).
2. **Playout speed** (``--speed``): simulations per CPU second from the start position, ours
   (``MCTSConfig(reward="result")``: UCT with c = √2, solver on, one random playout per
   simulation) against OpenSpiel 2.0.2's ``open_spiel.python.algorithms.mcts.MCTSBot`` with
   the same settings (``RandomRolloutEvaluator(n_rollouts=1)``, ``solve=True``), run side by
   side and alternated, medians of ``--repeats``.  OpenSpiel is installed into the peers'
   scratch environment (``bench/peers.py``: ``~/.cache/sakiyomi/peers-venv``); it is not a
   dependency.

Prints one JSON line per measurement; ``--markdown FILE`` also writes the tables (the
tutorial page 11 includes ``bench/results/mcts/summary.md``).  The machine's load (``uptime``)
is recorded with the results: absolute rates on a loaded machine are low, ratios hold.

    python bench/mcts.py --games 20 --time 0.1 0.5 --speed \
        --markdown bench/results/mcts/summary.md > bench/results/mcts/run.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

# The repository root on the path (for bench.peers) when this file is run as a script.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.match_stats import elo, elo_interval
from bench.peers import peer_python
from sakiyomi.agents import MCTSAgent, SearchAgent
from sakiyomi.engines import mcts_for
from sakiyomi.game import Game, Player
from sakiyomi.games import load
from sakiyomi.search.limits import Limits
from sakiyomi.search.mcts import MCTSConfig

GAMES = {"tictactoe": ("tictactoe", "start", 0, "tic_tac_toe"),
         "connect4": ("connect4", "", 2, "connect_four"),
         "othello": ("othello", "start", 4, "othello")}  # name, start, opening plies, OpenSpiel


def load_average() -> str:
    return os.popen("uptime").read().strip().split("load average:")[-1].strip()


# ---- matches ----------------------------------------------------------------------------------


def opening(name: str, plies: int, rng: random.Random) -> Game[Any]:
    game, start, _, _ = GAMES[name]
    position: Game[Any] = load(game, start)
    while plies and position.outcome() is None:
        moves = list(position.legal_moves())
        position.play(moves[rng.randrange(len(moves))])
        plies -= 1
    return position


def play(game: Game[Any], agents: dict[Player, Any]) -> Player | None:
    while (outcome := game.outcome()) is None:
        game.play(agents[game.to_move].choose(game))
    return outcome.winner


def match(name: str, games: int, seconds: float, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    scores: list[float] = []
    wins = draws = losses = 0
    start = time.perf_counter()
    for pair in range(max(1, games // 2)):
        root = opening(name, GAMES[name][2], rng)
        if root.outcome() is not None:
            continue
        for mcts_side in (Player.FIRST, Player.SECOND):
            limits = Limits(time=seconds)
            config = MCTSConfig(seed=seed * 1000 + pair, reward="result")
            mc: MCTSAgent[Any] = MCTSAgent(limits, config, name="mcts")
            ab: SearchAgent[Any] = SearchAgent(limits, name="alphabeta")
            agents = {mcts_side: mc, mcts_side.other: ab}
            winner = play(root.copy(), agents)
            if winner is None:
                draws += 1
                scores.append(0.5)
            elif winner == mcts_side:
                wins += 1
                scores.append(1.0)
            else:
                losses += 1
                scores.append(0.0)
    played = len(scores)
    score, lo, hi = elo_interval(wins, draws, losses)
    e = elo(score)
    return {"bench": "match", "game": name, "time_per_move": seconds, "games": played,
            "mcts_wins": wins, "draws": draws, "alphabeta_wins": losses,
            "mcts_score": round(score, 4), "elo": _round(e), "elo_low": _round(lo),
            "elo_high": _round(hi), "wall_seconds": round(time.perf_counter() - start, 1),
            "load": load_average()}


def _round(value: float | None) -> int | None:
    return None if value is None else round(value)


def _elo_text(value: int | None, low_end: bool) -> str:
    if value is None:
        return "−∞" if low_end else "+∞"
    return f"{value:+d}"


# ---- playout speed ----------------------------------------------------------------------------

OPENSPIEL_SCRIPT = """
import json, sys, time
import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts
game = pyspiel.load_game(sys.argv[1])
sims = int(sys.argv[2])
rng = np.random.RandomState(int(sys.argv[3]))
evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
bot = mcts.MCTSBot(game, uct_c=2 ** 0.5, max_simulations=sims, evaluator=evaluator,
                   solve=True, random_state=rng)
state = game.new_initial_state()
start = time.process_time()
bot.step(state)
print(json.dumps({"simulations": sims, "cpu": time.process_time() - start}))
"""


def theirs(python: Path, game: str, sims: int, seed: int) -> float:
    out = subprocess.run([str(python), "-c", OPENSPIEL_SCRIPT, game, str(sims), str(seed)],
                         capture_output=True, text=True, check=True)
    record = json.loads(out.stdout.strip().splitlines()[-1])
    return float(record["simulations"]) / float(record["cpu"])


def ours(name: str, sims: int, seed: int) -> tuple[float, str]:
    game, start, _, _ = GAMES[name]
    search = mcts_for(load(game, start), MCTSConfig(seed=seed, reward="result"))
    search.search(50)  # compiled code loaded, caches warm
    search = mcts_for(load(game, start), MCTSConfig(seed=seed, reward="result"))
    cpu = time.process_time()
    result = search.search(sims)
    spent = time.process_time() - cpu
    return int(str(result.extra["iterations"])) / spent, type(search.walker).__name__


def speed(name: str, sims: dict[str, tuple[int, int]], repeats: int,
          python: Path) -> dict[str, Any]:
    our_sims, their_sims = sims[name]
    mine: list[float] = []
    other: list[float] = []
    walker = ""
    for r in range(repeats):  # alternated, so that load changes hit both
        rate, walker = ours(name, our_sims, r)
        mine.append(rate)
        other.append(theirs(python, GAMES[name][3], their_sims, r))
    a, b = statistics.median(mine), statistics.median(other)
    return {"bench": "playouts", "game": name, "walker": walker,
            "ours_per_cpu_s": round(a), "openspiel_per_cpu_s": round(b),
            "ratio": round(a / b, 2), "repeats": repeats, "ours_simulations": our_sims,
            "openspiel_simulations": their_sims, "load": load_average()}


# ---- report -----------------------------------------------------------------------------------


def markdown(records: list[dict[str, Any]]) -> str:
    lines = [f"Measured {time.strftime('%Y-%m-%d')} by `bench/mcts.py` on a 2-core machine "
             f"shared with other work (load average {load_average()}).", ""]
    matches = [r for r in records if r["bench"] == "match"]
    if matches:
        lines += ["MCTS against αβ (`SearchAgent`) with the same time per move, colours "
                  "alternated (Elo for MCTS, 95 % interval):", "",
                  "| game | s/move | games | MCTS wins | draws | αβ wins | MCTS score | "
                  "Elo (95 %) |", "|---|---|---|---|---|---|---|---|"]
        for r in matches:
            lines.append(f"| {r['game']} | {r['time_per_move']} | {r['games']} | "
                         f"{r['mcts_wins']} | {r['draws']} | "
                         f"{r['alphabeta_wins']} | {r['mcts_score']:.0%} | "
                         f"{_elo_text(r['elo'], r['mcts_score'] <= 0)} "
                         f"({_elo_text(r['elo_low'], True)} … "
                         f"{_elo_text(r['elo_high'], False)}) |")
        lines.append("")
    fast = [r for r in records if r["bench"] == "playouts"]
    if fast:
        lines += ["Simulations (one playout each) per CPU second from the start position, "
                  "against OpenSpiel 2.0.2's Python MCTS with the same settings (medians):", "",
                  "| game | ours | OpenSpiel | ratio | our playouts |", "|---|---|---|---|---|"]
        for r in fast:
            kind = "compiled" if r["walker"] == "KernelWalker" else "Python"
            lines.append(f"| {r['game']} | {r['ours_per_cpu_s']:,} | "
                         f"{r['openspiel_per_cpu_s']:,} | {r['ratio']}× | {kind} |")
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games per game kind (0: none)")
    parser.add_argument("--time", type=float, nargs="+", default=[0.1],
                        help="seconds per move, each side (several: one match each)")
    parser.add_argument("--only", nargs="*", choices=list(GAMES), default=list(GAMES))
    parser.add_argument("--speed", action="store_true", help="playouts/s against OpenSpiel")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--markdown", help="also write the tables to this file")
    args = parser.parse_args(argv)
    records: list[dict[str, Any]] = []

    def emit(record: dict[str, Any]) -> None:
        records.append(record)
        print(json.dumps(record), flush=True)

    if args.games:
        for seconds in args.time:
            for name in args.only:
                emit(match(name, args.games, seconds, args.seed))
    if args.speed:
        python = peer_python()
        sims = {"tictactoe": (20000, 4000), "connect4": (20000, 2000),
                "othello": (10000, 400)}
        for name in args.only:
            emit(speed(name, sims, args.repeats, python))
    if args.markdown:
        Path(args.markdown).parent.mkdir(parents=True, exist_ok=True)
        Path(args.markdown).write_text(markdown(records), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
