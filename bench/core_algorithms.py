"""Node counts and speed of every algorithm on the same positions (medians of repeats).

The anchor for the Python Searcher is the textbook αβ over the same Game object: the ratio
shows what TT, PVS and ordering buy on the same machine in the same run.
Usage: python bench/core_algorithms.py [--repeats N]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable

from sakiyomi.games.tictactoe import TicTacToe
from sakiyomi.games.tree import TreeGame, random_tree
from sakiyomi.search import textbook
from sakiyomi.search.searcher import SearchConfig, Searcher


def measure(work: Callable[[], int], repeats: int) -> tuple[int, float]:
    times, nodes = [], 0
    for _ in range(repeats):
        start = time.process_time()
        nodes = work()
        times.append(time.process_time() - start)
    return nodes, statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    tree = random_tree(4, 7, 1)
    cases: dict[str, Callable[[], TreeGame | TicTacToe]] = {
        "tictactoe-start": TicTacToe,
        "uniform-b4-d7": lambda: TreeGame(tree),
    }
    for name, make in cases.items():
        run_case(name, make, args.repeats)


def run_case(name: str, make: Callable[[], TreeGame | TicTacToe], repeats: int) -> None:
    anchor_nodes, anchor_time = measure(lambda: textbook.alphabeta(make()).nodes, repeats)
    rows = {
        "negamax": lambda: textbook.negamax(make()).nodes,
        "negascout": lambda: textbook.negascout(make()).nodes,
        "searcher": lambda: _searcher(make(), SearchConfig()),
        "searcher-no-tt": lambda: _searcher(make(), SearchConfig(tt=False)),
    }
    for algo, work in rows.items():
        nodes, seconds = measure(work, repeats)
        print(json.dumps({
            "case": name, "algorithm": algo, "nodes": nodes, "median_cpu_s": round(seconds, 4),
            "nodes_per_s": int(nodes / seconds) if seconds else None,
            "anchor": "textbook alphabeta", "anchor_nodes": anchor_nodes,
            "node_ratio": round(nodes / anchor_nodes, 3),
            "time_ratio": round(seconds / anchor_time, 3) if anchor_time else None,
        }))


def _searcher(game: TreeGame | TicTacToe, config: SearchConfig) -> int:
    searcher = Searcher(game, config)
    searcher.search(64)
    return searcher.stats.nodes


if __name__ == "__main__":
    main()
