"""What a Python search node costs beyond the rules library's own move, and what it cannot go
below (issue 12's chess and shogi rows: "per-node search overhead ≤ the rules library's own
move cost").

For each rules library (python-chess, cshogi), on our own positions (chess: 20 random
positions of ``bench/chess.py``'s generator, seed 7; shogi: the 20 mid-game positions of
``tests/data/shogi/midgame_perft.tsv``), CPU time per node of four walks:

1. **library** — a Python loop over the library that lists the legal moves of each position
   and pushes and pops each (``bench/shogi.py``'s ``cshogi_visits``; a node is a push):
   the library's own move cost as Python sees it, the issue's anchor;
2. **bare αβ** — the least a recursive search over the library does: negamax αβ, the legal
   moves listed at each inner node, push, recurse, pop, a value of 0 at the depth limit and a
   loss at a node without moves; no table, ordering, evaluation or statistics;
3. **recursion** — the same negamax over a tree of plain Python lists (no library at all),
   with the same shape as the bare αβ's tree: the interpreter's own cost of a node (a call, a
   loop step, a comparison);
4. **ours** — the engine's Searcher with the settings its UCI/USI engine uses, iterative
   deepening within a node budget;

and, for chess, by cProfile on five of the positions, the share of our search's time spent
inside python-chess's own functions (its move generation, push, pop, attack tests): the
library's cost *in our search*, where a node lists all its moves but, cut off, plays few of
them.  (cshogi is compiled, and cProfile does not see inside it.)

Printed per library: µs per node of each, the overhead of (2) and (4) beyond (1) (per node,
less the library walk's per-node cost), and each overhead over (1).  Row (3) beside (1) shows
whether any Python search can meet the row at all: when the interpreter's own recursion costs
more than the library's move, no search written in Python can add less than the library's
move cost per node.

Medians of ``--repeats`` runs, CPU time (``time.process_time``); the load (``uptime``) is
printed before and after.

    python bench/search_floor.py [--repeats 5] [--depth 3] [--nodes 20000] [--only chess|shogi]
"""

from __future__ import annotations

import sys
from pathlib import Path

if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)  # run as a script, bench/chess.py would shadow python-chess
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # bench.chess, bench.shogi

import argparse
import json
import os
import statistics
import time
from collections.abc import Callable, Iterable
from typing import Any, Protocol

ROOT = Path(__file__).resolve().parent.parent


class Board(Protocol):
    """What the walks ask of a rules library's board."""

    @property
    def legal_moves(self) -> Iterable[Any]: ...

    def push(self, move: Any) -> None: ...

    def pop(self) -> Any: ...


def load() -> str:
    """The load averages, as ``uptime`` prints them."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def bare_alpha_beta(board: Board, depth: int, alpha: int, beta: int,
                    counter: list[int], shape: list[int]) -> int:
    """Walk 2: negamax αβ with nothing but the library: 0 at the depth limit, -1 without
    moves.  ``counter[0]`` counts the nodes; ``shape`` records, node by node in visiting
    order, how many children each visited (walk 3 rebuilds the tree from it).
    """
    counter[0] += 1
    if depth == 0:
        shape.append(0)
        return 0
    moves = list(board.legal_moves)
    if not moves:
        shape.append(0)
        return -1
    index = len(shape)
    shape.append(0)
    best = -2
    tried = 0
    for move in moves:
        board.push(move)
        value = -bare_alpha_beta(board, depth - 1, -beta, -alpha, counter, shape)
        board.pop()
        tried += 1
        if value > best:
            best = value
            if value > alpha:
                alpha = value
                if value >= beta:
                    break
    shape[index] = tried
    return best


def tree_from(shape: list[int]) -> list[Any]:
    """The tree of nested lists a pre-order ``shape`` (children per node) describes."""
    position = 0

    def build() -> list[Any]:
        nonlocal position
        count = shape[position]
        position += 1
        return [build() for _ in range(count)]

    return build()


def recursion(children: list[Any], depth: int, alpha: int, beta: int,
              counter: list[int]) -> int:
    """Walk 3: the same negamax over nested lists: the interpreter's cost of a node."""
    counter[0] += 1
    if depth == 0:
        return 0
    if not children:
        return -1
    best = -2
    for child in children:
        value = -recursion(child, depth - 1, -beta, -alpha, counter)
        if value > best:
            best = value
            if value > alpha:
                alpha = value
                if value >= beta:
                    break
    return best


def cpu(fn: Callable[[], int], repeats: int) -> tuple[int, float]:
    """(nodes, median CPU seconds) of ``repeats`` runs of a node-counting function."""
    times = []
    nodes = 0
    for _ in range(repeats):
        start = time.process_time()
        nodes = fn()
        times.append(time.process_time() - start)
    return nodes, statistics.median(times)


def chess_positions() -> tuple[list[Any], Callable[[Any], Any], Callable[[Any], Any]]:
    """python-chess boards, a function making our game of one, and the engine's settings."""
    from bench.chess import _positions  # random games of 10-80 plies, seed 7
    from sakiyomi.games.chess import ChessGame
    from sakiyomi.protocols.chess_engine import CHESS_CONFIG

    boards: list[Any] = _positions(20)
    return boards, lambda b: ChessGame(b.copy()), lambda _b: CHESS_CONFIG


def shogi_positions() -> tuple[list[Any], Callable[[Any], Any], Callable[[Any], Any]]:
    """Boards of cshogi, a function making our game of one, and the USI engine's settings."""
    import cshogi

    from sakiyomi.games.shogi import ShogiGame
    from sakiyomi.protocols.shogi_engine import Options, search_config

    lines = (ROOT / "tests" / "data" / "shogi" / "midgame_perft.tsv").read_text(
        encoding="utf-8").splitlines()
    header = lines[0].split("\t")
    sfens = [dict(zip(header, line.split("\t"), strict=True))["sfen"] for line in lines[1:]]
    config = search_config(Options())
    return ([cshogi.Board(sfen) for sfen in sfens], lambda b: ShogiGame(b.sfen()),
            lambda _b: config)


def library_share(games: list[Any], configs: list[Any], nodes_budget: int) -> float:
    """The share of our chess search's time spent inside python-chess's own functions, by
    cProfile (5 positions): those of its package's files and its moves' ``__hash__``
    (defined in a generated ``<string>``).  The profiler's cost per call falls on both
    sides, more on the side with more, smaller calls: a rough split, printed as such.
    """
    import cProfile
    import pstats

    from sakiyomi.search.drivers import run
    from sakiyomi.search.limits import Limits, StopSignal
    from sakiyomi.search.searcher import Searcher

    profile = cProfile.Profile()
    profile.enable()
    for game, config in zip(games, configs, strict=True):
        searcher = Searcher(game, config, stop=StopSignal(nodes=nodes_budget))
        run(searcher, Limits(nodes=nodes_budget))
    profile.disable()
    inside = total = 0.0
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    for (filename, _line, function), (_cc, _nc, tottime, _ct, _callers) in stats.items():
        total += tottime
        if (f"{os.sep}chess{os.sep}" in filename and "sakiyomi" not in filename) or (
                filename == "<string>" and function == "__hash__"):
            inside += tottime
    return inside / total


def measure(name: str, depth: int, nodes_budget: int, repeats: int) -> dict[str, Any]:
    """The four walks on one library's positions; per-node CPU µs as medians over positions."""
    from bench.shogi import cshogi_visits
    from sakiyomi.search.drivers import run
    from sakiyomi.search.limits import Limits, StopSignal
    from sakiyomi.search.searcher import Searcher

    boards, game_of, config_of = (chess_positions() if name == "chess" else shogi_positions())
    per_node: dict[str, list[float]] = {"library": [], "bare": [], "recursion": [], "ours": []}
    for board in boards:
        def library(b: Any = board) -> int:
            return int(cshogi_visits(b, depth))  # any board: legal_moves, push, pop

        n, t = cpu(library, repeats)
        per_node["library"].append(t / n)
        shape: list[int] = []
        counter = [0]
        bare_alpha_beta(board, depth + 1, -2, 2, counter, shape)  # one untimed run: the shape

        def bare(b: Any = board) -> int:
            count = [0]
            bare_alpha_beta(b, depth + 1, -2, 2, count, [])
            return count[0]

        n, t = cpu(bare, repeats)
        per_node["bare"].append(t / n)
        tree = tree_from(shape)

        def walk(tree: list[Any] = tree) -> int:
            count = [0]
            recursion(tree, depth + 1, -2, 2, count)
            return count[0]

        n, t = cpu(walk, repeats)
        assert n == counter[0], "the list tree is the bare search's tree"
        per_node["recursion"].append(t / n)

        def ours(b: Any = board) -> int:
            searcher = Searcher(game_of(b), config_of(b), stop=StopSignal(nodes=nodes_budget))
            return run(searcher, Limits(nodes=nodes_budget)).stats.nodes

        n, t = cpu(ours, 1)
        per_node["ours"].append(t / n)
    # cshogi's compiled functions are invisible to cProfile (their time falls on their
    # Python callers), so the split is made for python-chess only.
    share = (library_share([game_of(b) for b in boards[:5]],
                           [config_of(b) for b in boards[:5]], nodes_budget)
             if name == "chess" else None)
    med = {key: statistics.median(values) * 1e6 for key, values in per_node.items()}
    lib = med["library"]
    return {
        "library": name, "positions": len(boards), "depth": depth, "repeats": repeats,
        "ours_node_budget": nodes_budget, "clock": "CPU, median over positions",
        "us_per_node_library": round(lib, 3), "us_per_node_bare_alpha_beta": round(med["bare"], 3),
        "us_per_node_recursion_only": round(med["recursion"], 3),
        "us_per_node_ours": round(med["ours"], 3),
        "overhead_bare_over_library": round((med["bare"] - lib) / lib, 2),
        "overhead_ours_over_library": round((med["ours"] - lib) / lib, 2),
        "recursion_over_library": round(med["recursion"] / lib, 2),
        "profile_share_in_library": None if share is None else round(share, 3),
        "profile_ours_over_library": None if share is None else round((1 - share) / share, 2),
        "load": load(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5, help="runs per walk (medians)")
    parser.add_argument("--depth", type=int, default=2,
                        help="plies of the library walk (the αβ walks go one deeper)")
    parser.add_argument("--nodes", type=int, default=20_000,
                        help="node budget of our engine's search per position")
    parser.add_argument("--only", choices=("chess", "shogi"), default=None,
                        help="one library only")
    args = parser.parse_args()
    print(json.dumps({"load_before": load()}), flush=True)
    for name in ("chess", "shogi"):
        if args.only in (None, name):
            print(json.dumps(measure(name, args.depth, args.nodes, args.repeats)), flush=True)
    print(json.dumps({"load_after": load()}), flush=True)


if __name__ == "__main__":
    main()
