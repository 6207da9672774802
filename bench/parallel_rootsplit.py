"""Would UCI/USI ``Threads`` help?  Root splitting over 2 processes, estimated in nodes.

The chess engine's search (the Python ``Searcher`` with ``CHESS_CONFIG``) is measured in node
counts, which the machine's load does not change (docs/parallel.md, "Engine search on several
cores"):

* serial: iterative deepening to DEPTH from the root, with the engine's aspiration windows;
* plain root split: each root move's child searched to DEPTH-1 with the full window by an
  engine of its own (a process does not see the other's alpha or table), the moves dealt to
  2 workers largest first: ``split_ratio_2`` = serial nodes / the busiest worker's nodes;
* YBWC at the root: the best move's child searched first (alone), then every other move's
  child refuted with a null window at the best value, dealt to the 2 workers:
  ``ybw_ratio_2`` = serial nodes / (first + the busiest worker's share of the rest).

Both ignore process start-up and messages: upper bounds of what 2 processes would gain.

Usage, from the repository root: python -m bench.parallel_rootsplit DEPTH  (the ``chess`` extra;
run as a module, bench/chess.py does not shadow python-chess)
"""

from __future__ import annotations

import heapq
import json
import subprocess
import sys

from sakiyomi.games import load
from sakiyomi.protocols.chess_engine import ASPIRATION_DELTA, CHESS_CONFIG
from sakiyomi.search.drivers import run
from sakiyomi.search.limits import Limits
from sakiyomi.search.searcher import Searcher

FENS = [  # our own positions: an opening, a middlegame and a rook endgame, not a test suite
    "startpos",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 10",
    "8/5pk1/6p1/3R4/5P2/6KP/r7/8 w - - 0 40",
]


def makespan(costs: list[int], workers: int) -> int:
    """The busiest worker's total when ``costs`` are dealt largest first."""
    free = [0] * workers
    for cost in sorted(costs, reverse=True):
        heapq.heappush(free, heapq.heappop(free) + cost)
    return max(free)


def measure(fen: str, depth: int) -> dict[str, object]:
    """One position's serial and split node counts (see the module doc)."""
    game = load("chess", fen)
    result = run(Searcher(game.copy(), CHESS_CONFIG), Limits(depth=depth),
                 aspiration_delta=ASPIRATION_DELTA)
    serial, best, value = result.stats.nodes, result.best_move, result.value
    plain: list[int] = []
    first, rest = 0, []
    for move in list(game.legal_moves()):
        child = game.copy()
        child.play(move)
        if child.outcome() is not None:
            plain.append(1)
            continue
        plain.append(1 + run(Searcher(child.copy(), CHESS_CONFIG),
                             Limits(depth=depth - 1)).stats.nodes)
        if move == best:
            first = plain[-1]
            continue
        refuter = Searcher(child, CHESS_CONFIG)  # iterative deepening of null windows
        for d in range(1, depth):
            refuter.search(d, -value - 1, -value)
        rest.append(1 + refuter.stats.nodes)
    return {"fen": fen, "depth": depth, "serial_nodes": serial, "split_total": sum(plain),
            "split_busiest_of_2": makespan(plain, 2),
            "split_ratio_2": round(serial / makespan(plain, 2), 2),
            "ybw_ratio_2": round(serial / (first + makespan(rest, 2)), 2)}


def main() -> None:
    depth = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    print(f"# uptime: {subprocess.run(['uptime'], capture_output=True, text=True).stdout}",
          end="")
    for fen in FENS:
        print(json.dumps(measure(fen, depth)), flush=True)


if __name__ == "__main__":
    main()
