"""Where a shogi search's nodes go (not a test): depth finished and node split at a node budget.

On positions of our own games (a ``bench/shogi.py`` match file: games 1-12 at plies 16, 30
and 44, as in sessions 13 and 19), the engine's search settings (``shogi_engine.Options``,
USI check switches changed with ``--switch NAME=true|false``, the module's tuning constants
with ``--constant NAME=VALUE``, e.g. ``LATE_MOVE_COUNTS=(0,4,8,12)``) search each position under
``go nodes N`` (no mate probe, a 2^16 table); printed per run, as one JSON line: the mean and
median depth finished, the mean seldepth, the share of quiescence nodes and of leaves, the
first-move cut-off rate, and the nodes spent to finish ``--to-depth`` (summed;
load-independent, as are all node counts); also the CPU seconds of the searches at the node
budget (load-dependent: a node's cost, to compare settings run under the same load).
``--evaluation`` picks one of ``shogi_eval.EVALUATIONS``; ``--spin NAME=N`` sets a USI spin
option of the search (session 22).  ``--split`` adds, from a counting tracer (session 21): the node
searches entered by remaining depth, and the median nodes each iteration of iterative
deepening cost (with the number of positions that finished it).

Run: ``python bench/shogi_depth.py [--nodes 10000] [--to-depth 5] [--switch NAME=VALUE ...]
[--spin NAME=N ...] [--constant NAME=VALUE ...]``.
"""

from __future__ import annotations

import argparse
import ast
import json
import statistics
import time
from pathlib import Path

from sakiyomi.games.shogi import EVALUATIONS, ShogiGame
from sakiyomi.protocols import shogi_engine
from sakiyomi.protocols.shogi_engine import Options, search_config
from sakiyomi.protocols.usi import SEARCH_SPINS
from sakiyomi.search.drivers import iterative_deepening
from sakiyomi.search.limits import Limits, StopSignal
from sakiyomi.search.result import SearchStats
from sakiyomi.search.searcher import Searcher
from sakiyomi.search.tracing import NULL_TRACER, NullTracer, Tracer
from sakiyomi.tt import TranspositionTable

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "bench" / "results" / "shogi" / "s11_fsf1k_n1000.jsonl"


def positions(path: Path, games: int = 12, plies: tuple[int, ...] = (16, 30, 44)
              ) -> list[list[str]]:
    """Move lists (from the start position) of the first ``games`` games at ``plies``."""
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
               if '"match-game"' in line]
    result: list[list[str]] = []
    for record in records[:games]:
        moves = record["moves"].split()
        result.extend(moves[:ply] for ply in plies if ply < len(moves))
    return result


class DepthCounter(NullTracer):
    """A tracer that counts the node searches entered by remaining depth (quiescence moves are
    not node searches: ``SearchStats.qnodes`` counts them); the other events stay
    ``NullTracer``'s no-ops.
    """

    enabled = True

    def __init__(self) -> None:
        self.by_depth: dict[int, int] = {}

    def enter(self, ply: int, move: object | None, depth: int, alpha: int, beta: int) -> None:
        """Count a node at ``depth`` (below 0: 0)."""
        depth = max(depth, 0)
        self.by_depth[depth] = self.by_depth.get(depth, 0) + 1


def search(moves: list[str], options: Options, nodes: int, depth: int | None = None,
           tracer: Tracer = NULL_TRACER, iterations: dict[int, list[int]] | None = None
           ) -> tuple[int, SearchStats]:
    """(depth finished, counters) of the engine's search of the position after ``moves``;
    the nodes of each finished iteration are appended to ``iterations[depth]`` when given.
    """
    game = ShogiGame(moves=moves, evaluation=options.evaluation)
    searcher: Searcher[int] = Searcher(game, search_config(options), tracer=tracer,
                                       tt=TranspositionTable(1 << 16),
                                       stop=StopSignal(nodes=nodes))
    finished = 0
    spent = 0
    for info in iterative_deepening(searcher, Limits(depth=depth),
                                    aspiration_delta=shogi_engine.ASPIRATION_DELTA):
        finished = info.depth
        if iterations is not None:
            iterations.setdefault(info.depth, []).append(info.stats.nodes - spent)
        spent = info.stats.nodes
    return finished, searcher.stats


def split(options: Options, nodes: int) -> dict[str, object]:
    """Node searches by remaining depth, and per iteration its median cost in nodes and the
    number of positions that finished it, over every position at the node budget.
    """
    counter = DepthCounter()
    iterations: dict[int, list[int]] = {}
    for moves in positions(GAMES):
        search(moves, options, nodes, tracer=counter, iterations=iterations)
    return {"node_searches_by_depth": dict(sorted(counter.by_depth.items())),
            "iteration_nodes_median": {depth: statistics.median(costs)
                                       for depth, costs in sorted(iterations.items())},
            "iteration_finished_by": {depth: len(costs)
                                      for depth, costs in sorted(iterations.items())}}


def profile(options: Options, nodes: int, to_depth: int, cap: int) -> dict[str, object]:
    """The figures of one setting over every position."""
    depths, spent, reach = [], [], []
    total = SearchStats()
    started = time.process_time()
    for moves in positions(GAMES):
        depth, stats = search(moves, options, nodes)
        depths.append(depth)
        reach.append(stats.seldepth)
        total.nodes += stats.nodes
        total.qnodes += stats.qnodes
        total.leaves += stats.leaves
        total.cutoffs += stats.cutoffs
        total.first_move_cutoffs += stats.first_move_cutoffs
    budget_seconds = time.process_time() - started
    for moves in positions(GAMES):
        if to_depth:  # after the timed runs: their CPU time is the node budget's alone
            spent.append(search(moves, options, cap, to_depth)[1].nodes)
    return {"positions": len(depths), "nodes": nodes, "evaluation": options.evaluation,
            "switches": options.switches, "constants": constants(),
            "spins": {name: getattr(options, field) for name, field in SPINS.items()},
            "cpu_seconds_at_budget": round(budget_seconds, 2),
            "depth_mean": round(statistics.fmean(depths), 3),
            "depth_median": statistics.median(depths),
            "seldepth_mean": round(statistics.fmean(reach), 2),
            "qnode_share": round(total.qnodes / total.nodes, 3),
            "leaf_share": round(total.leaves / total.nodes, 3),
            "first_move_cutoff_rate": round(total.first_move_cutoff_rate, 3),
            f"nodes_to_depth_{to_depth}": sum(spent) if to_depth else None}


TUNABLE = ("LMR_DIVISOR", "LATE_MOVE_COUNTS", "REVERSE_FUTILITY_MARGINS", "HANGING_DEPTH",
           "ASPIRATION_DELTA", "HISTORY_PRUNING_DEPTH",
           "HISTORY_PRUNING_CREDIT")


# USI spin options of the search, by the ``Options`` field each sets (the engine's table).
SPINS = {name: field for name, (field, _, _) in SEARCH_SPINS.items()}


def constants() -> dict[str, object]:
    """The engine's tuning constants as they are now."""
    return {name: getattr(shogi_engine, name) for name in TUNABLE}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--nodes", type=int, default=10_000)
    parser.add_argument("--to-depth", type=int, default=5, help="0: skip")
    parser.add_argument("--cap", type=int, default=200_000,
                        help="node cap of a search to --to-depth")
    parser.add_argument("--split", action="store_true",
                        help="also the node searches by remaining depth and each iteration's "
                             "median cost (a counting tracer)")
    parser.add_argument("--evaluation", default=Options().evaluation,
                        help=f"one of {', '.join(EVALUATIONS)}")
    parser.add_argument("--switch", action="append", default=[],
                        help="NAME=true|false: a USI check switch of the engine (repeatable)")
    parser.add_argument("--spin", action="append", default=[],
                        help=f"NAME=N: one of {', '.join(SPINS)} (a USI spin option)")
    parser.add_argument("--constant", action="append", default=[],
                        help=f"NAME=VALUE: one of {', '.join(TUNABLE)} (a Python literal)")
    args = parser.parse_args()
    for setting in args.constant:
        name, _, value = setting.partition("=")
        if name not in TUNABLE:
            parser.error(f"unknown constant {name}")
        setattr(shogi_engine, name, ast.literal_eval(value))
    options = Options()
    if args.evaluation not in EVALUATIONS:
        parser.error(f"--evaluation takes one of {', '.join(EVALUATIONS)}")
    options.evaluation = args.evaluation
    for setting in args.switch:
        name, _, value = setting.partition("=")
        if name not in options.switches:
            parser.error(f"unknown switch {name}")
        options.switches[name] = value.lower() == "true"
    for setting in args.spin:
        name, _, value = setting.partition("=")
        if name not in SPINS:
            parser.error(f"unknown spin option {name}")
        setattr(options, SPINS[name], int(value))
    figures = profile(options, args.nodes, args.to_depth, args.cap)
    if args.split:
        figures.update(split(options, args.nodes))
    print(json.dumps(figures), flush=True)


if __name__ == "__main__":
    main()
