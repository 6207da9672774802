"""The pure-Python Searcher against the Python αβ of OpenSpiel and easyAI, on the same trees.

Peers: OpenSpiel 2.0.2 (``open_spiel.python.algorithms.minimax.alpha_beta_search`` over its
C++ ``connect_four``) and easyAI 2.0.12 (``Negamax`` over its own ``ConnectFour`` class).  This
script installs them into a scratch environment of its own (``~/.cache/sakiyomi/peers-venv``,
never a dependency of sakiyomi) and runs them there as subprocesses that report JSON; our side
runs in this interpreter.

**Same tree** (Connect Four, depth 7, no table): the peers search columns in ascending order
and are given a value function that returns 0 at the depth limit; OpenSpiel scores a finished
game ±1 for the root player, easyAI (with the ``scoring`` of its documentation, -100 for a
loss) multiplies it by ``1 + 0.001 * depth left``, so that quicker wins rank higher, as Pons's
scores do.  Our side searches the same trees: sakiyomi's ``Connect4`` with an evaluation of 0,
ascending columns and, against OpenSpiel, a finished game worth ±1 (against easyAI, Pons's
scores, which rank every pair of results as easyAI's do), with the Searcher's
``SearchConfig(tt=False, pvs=False, ordering=False, shortcuts=False)``: plain fail-soft αβ,
which visits exactly the nodes OpenSpiel's fail-soft MinMax αβ visits.  Node counts are
printed side by side (the peers' counted by wrapping their recursive function in a separate,
untimed run), so "same tree" is checked, not assumed.

**As shipped**: each side's own defaults, answering a depth-7 search: OpenSpiel's
``alpha_beta_search`` as above (it has no table or ordering), against ``sakiyomi search
connect4 POS --depth 7 --engine python`` (``engines.search_position``: iterative deepening,
table, ordering, Pons's shortcuts, the game's own evaluation; the engine's set-up included).

CPU time (``time.process_time``) inside each process, medians of ``--repeats`` rounds that
alternate ours and theirs; ratios are ours over theirs in nodes per second (same tree) and in
time to answer (as shipped).  The load (``uptime``) is printed before and after.  Our own
positions (not from any test suite).

    python bench/peers.py [--repeats 5] [--depth 7] [--positions '' 4453 ...] [--no-easyai]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sakiyomi.engines import search_position
from sakiyomi.games import load
from sakiyomi.games.connect4.game import Connect4
from sakiyomi.search.limits import Limits
from sakiyomi.search.searcher import SearchConfig, Searcher

VENV = Path.home() / ".cache" / "sakiyomi" / "peers-venv"
PEERS = ("open-spiel==2.0.2", "easyAI==2.0.12")
POSITIONS = ("", "4453", "4455", "44444432", "1234567")
PLAIN = SearchConfig(tt=False, pvs=False, ordering=False, shortcuts=False, quiescence=False)

PEER_SCRIPT = r"""
import json, sys, time
job = json.loads(sys.argv[1])
depth, repeats = job["depth"], job["repeats"]
if job["lib"] == "openspiel":
    import pyspiel
    from open_spiel.python.algorithms import minimax
    game = pyspiel.load_game("connect_four")
    def make(moves):
        state = game.new_initial_state()
        for col in moves:
            state.apply_action(col)
        return state
    def search(state):
        value, move = minimax.alpha_beta_search(
            game, state=state, value_function=lambda s: 0.0, maximum_depth=depth)
        return value, move
    module, name = minimax, "_alpha_beta"
else:
    import sys as _sys
    import easyAI.AI.Negamax
    from easyAI import AI_Player, Negamax
    from easyAI.games import ConnectFour
    module, name = _sys.modules["easyAI.AI.Negamax"], "negamax"
    def scoring(g):
        return -100 if g.lose() else 0
    def make(moves):
        ai = Negamax(depth, scoring)
        g = ConnectFour([AI_Player(ai), AI_Player(ai)])
        for col in moves:
            g.play_move(col)
        return g
    def search(g):
        ai = Negamax(depth, scoring)
        move = ai(g)
        return ai.alpha, move
for moves in job["positions"]:
    inner = getattr(module, name)
    count = [0]
    def counted(*args, **kwargs):
        count[0] += 1
        return inner(*args, **kwargs)
    setattr(module, name, counted)
    value, move = search(make(moves))
    setattr(module, name, inner)
    cpu = []
    for _ in range(repeats):
        state = make(moves)
        start = time.process_time()
        search(state)
        cpu.append(time.process_time() - start)
    print(json.dumps({"nodes": count[0], "value": float(value), "move": int(move), "cpu": cpu}))
"""


class PeerConnect4(Connect4):
    """sakiyomi's Connect Four as the peers see it: columns in ascending order, 0 at the depth
    limit, and (``FLAT``) ±1 for a finished game, as OpenSpiel scores it.
    """

    FLAT = True

    def __init__(self) -> None:
        super().__init__()
        # legal_moves lists the columns in the order of this table (centre first in the
        # game): ascending here, as the peers' games list them, without a sort per node.
        self._tops = tuple(sorted(self._tops, key=lambda top: top[1]))

    def evaluate(self) -> int:
        return 0

    def terminal_value(self, ply: int) -> int:
        # Connect4.terminal_value's own lines, not a call of it: the adapter costs no more
        # than the game's own scoring (an extra call at each of 614 ends was 3 % of the
        # time of the depth-7 search of 1234567).
        state, value = self._finished
        if state is not self._state:
            value = self.k.k_outcome(self._state, ply)[1]
        return (value > 0) - (value < 0) if self.FLAT else value


class GradedConnect4(PeerConnect4):
    """As easyAI sees it: Pons's scores for finished games (quicker wins rank higher)."""

    FLAT = False


def peer_python() -> Path:
    """The scratch environment's interpreter, with the peers installed once."""
    python = VENV / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    probe = subprocess.run([str(python), "-c", "import pyspiel, easyAI"], capture_output=True)
    if probe.returncode != 0:
        print(f"installing {' '.join(PEERS)} into {VENV} (once)", file=sys.stderr, flush=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", *PEERS], check=True)
    return python


def theirs(python: Path, lib: str, positions: Sequence[str], depth: int,
           repeats: int) -> list[dict[str, Any]]:
    """One peer's results, one record per position (nodes counted, CPU times)."""
    job = {"lib": lib, "depth": depth, "repeats": repeats,
           "positions": [[int(ch) - 1 for ch in p] for p in positions]}
    out = subprocess.run([str(python), "-c", PEER_SCRIPT, json.dumps(job)],
                         capture_output=True, text=True, check=True)
    return [json.loads(line) for line in out.stdout.splitlines() if line.strip()]


def peer_game(kind: type[PeerConnect4], position: str) -> PeerConnect4:
    game = kind()
    for ch in position:
        game.play(int(ch) - 1)
    return game


def ours_plain(kind: type[PeerConnect4], position: str, depth: int) -> tuple[int, int, float]:
    """(nodes, value, CPU seconds) of the Searcher's plain αβ on the peers' tree."""
    searcher = Searcher(peer_game(kind, position), PLAIN)
    start = time.process_time()
    value = searcher.search(depth)
    return searcher.stats.nodes, value, time.process_time() - start


def ours_shipped(position: str, depth: int) -> tuple[int, int, float]:
    """(nodes, value, CPU seconds) of ``sakiyomi search connect4 POS --depth D --engine
    python``: iterative deepening with every enhancement, the engine's set-up included.
    """
    game = load("connect4", position)
    start = time.process_time()
    result = search_position(game, Limits(depth=depth), engine="python")
    return result.stats.nodes, result.value, time.process_time() - start


def same_tree_record(peer: str, tree: str, position: str, depth: int, ours: tuple[int, int],
                     ours_cpu: list[float], record: dict[str, Any], their_cpu: list[float],
                     repeats: int) -> dict[str, Any]:
    """One "same tree" line: our (nodes, value) and CPU times beside the ``peer``'s record and
    CPU times on the same position, medians, and the nodes-per-second ratio.
    """
    ours_n, ours_v = ours
    theirs_n = record["nodes"]
    a, b = median(ours_cpu), median(their_cpu)
    return {
        "tree": tree, "position": position or "start", "depth": depth, "nodes_ours": ours_n,
        f"nodes_{peer}": theirs_n, "same_tree": ours_n == theirs_n,
        "value_ours": ours_v, f"value_{peer}": record["value"],
        "cpu_ours": round(a, 5), f"cpu_{peer}": round(b, 5),
        "nps_ours": round(ours_n / a), f"nps_{peer}": round(theirs_n / b),
        "nps_ratio": round((ours_n / a) / (theirs_n / b), 3),
        "repeats": repeats, "load": load_average()}


def load_average() -> str:
    return os.popen("uptime").read().strip().split("load average:")[-1].strip()


def median(values: list[float]) -> float:
    return statistics.median(values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--easyai-repeats", type=int, default=1)
    parser.add_argument("--depth", type=int, default=7)
    parser.add_argument("--positions", nargs="+", default=list(POSITIONS))
    parser.add_argument("--no-easyai", action="store_true")
    args = parser.parse_args()
    python = peer_python()
    positions, depth = args.positions, args.depth
    print(json.dumps({"load_before": load_average(), "depth": depth, "repeats": args.repeats,
                      "positions": positions, "peers": PEERS}), flush=True)
    for p in positions:  # warm-up: imports, kernels, caches
        ours_plain(PeerConnect4, p, 1)
        ours_shipped(p, 1)

    # Same tree as OpenSpiel, and as shipped: rounds alternate ours and theirs.
    plain: dict[str, list[float]] = {p: [] for p in positions}
    shipped: dict[str, list[float]] = {p: [] for p in positions}
    spiel_cpu: dict[str, list[float]] = {p: [] for p in positions}
    plain_nodes: dict[str, tuple[int, int]] = {}
    shipped_nodes: dict[str, tuple[int, int]] = {}
    spiel: dict[str, dict[str, Any]] = {}
    for _ in range(args.repeats):
        for p in positions:
            nodes, value, cpu = ours_plain(PeerConnect4, p, depth)
            plain[p].append(cpu)
            plain_nodes[p] = nodes, value
            nodes, value, cpu = ours_shipped(p, depth)
            shipped[p].append(cpu)
            shipped_nodes[p] = nodes, value
        for p, record in zip(positions, theirs(python, "openspiel", positions, depth, 1),
                             strict=True):
            spiel_cpu[p] += record["cpu"]
            spiel[p] = record
    for p in positions:
        print(json.dumps(same_tree_record(
            "openspiel", "same as OpenSpiel (no table, ascending columns, eval 0, ±1)", p,
            depth, plain_nodes[p], plain[p], spiel[p], spiel_cpu[p], args.repeats)),
            flush=True)
    for p in positions:
        ours_n, ours_v = shipped_nodes[p]
        a, b = median(shipped[p]), median(spiel_cpu[p])
        print(json.dumps({
            "tree": "as shipped (ours: search --depth 7 --engine python; OpenSpiel: the same "
                    "alpha_beta_search)",
            "position": p or "start", "depth": depth, "nodes_ours": ours_n,
            "nodes_openspiel": spiel[p]["nodes"], "value_ours": ours_v,
            "cpu_ours": round(a, 5), "cpu_openspiel": round(b, 5),
            "time_ratio": round(a / b, 3), "repeats": args.repeats,
            "load": load_average()}), flush=True)

    # Same tree as easyAI (slow: few repeats).
    if not args.no_easyai:
        graded: dict[str, list[float]] = {p: [] for p in positions}
        easy_cpu: dict[str, list[float]] = {p: [] for p in positions}
        graded_nodes: dict[str, tuple[int, int]] = {}
        easy: dict[str, dict[str, Any]] = {}
        for _ in range(args.easyai_repeats):
            for p in positions:
                nodes, value, cpu = ours_plain(GradedConnect4, p, depth)
                graded[p].append(cpu)
                graded_nodes[p] = nodes, value
            for p, record in zip(positions, theirs(python, "easyai", positions, depth, 1),
                                 strict=True):
                easy_cpu[p] += record["cpu"]
                easy[p] = record
        for p in positions:
            print(json.dumps(same_tree_record(
                "easyai", "same as easyAI (no table, ascending columns, eval 0, quicker wins "
                "higher)", p, depth, graded_nodes[p], graded[p], easy[p], easy_cpu[p],
                args.easyai_repeats)), flush=True)
    print(json.dumps({"load_after": load_average()}), flush=True)


if __name__ == "__main__":
    main()
