"""Before/after in one run: a benchmark script of this tree against the same script of an
earlier commit, alternating, on the same positions, so that a refactoring's cost is measured
under the same machine load.

The earlier commit is checked out into a temporary git worktree (removed afterwards) and its
own copy of the benchmark runs there with ``PYTHONPATH`` pointing at its ``src``; ours runs
from this tree.  Both print JSON lines; the records are matched by the key fields and a CPU
field is compared: the median over ``--rounds`` rounds of ours / theirs (below 1: we are
faster), and node counts are checked equal.

Usage:
  python bench/before_after.py --ref dc6f728 -- bench/connect4.py --sets L3_R1,L2_R1,L1_R1
  python bench/before_after.py --ref dc6f728 --key ffo --cpu cpu_s -- bench/othello.py --set 20-30
  python bench/before_after.py --ref dc6f728 --key ffo --cpu cpu_s --nodes nodes \
      -- bench/before_after.py --othello-solve 1-19

``--chess-nps DEPTH`` searches a few middlegame and endgame positions (our own, not a test
suite) to DEPTH with the chess engine's settings, and times python-chess's own push+pop on the
same positions as the anchor (the same code in both trees, so its ratio shows the load's drift):

  python bench/before_after.py --ref main --key chess --cpu cpu_s --rounds 5 \
      -- bench/before_after.py --chess-nps 5

``--shogi-nps NODES`` does the same for shogi: a search of NODES nodes with the USI engine's
settings from each of twelve quiet middlegame positions of our own games (the first lines with
a centipawn score of bench/results/shogi/s22-eval-labels-fsf20k.jsonl):

  python bench/before_after.py --ref main --key shogi --cpu cpu_s --rounds 3 \
      -- bench/before_after.py --shogi-nps 10000

``--othello-solve A-B`` is a harness that runs under either API (the compiled template's own
``CompiledSearch.solve`` before the engine interface, the shared ``solve`` driver on a
``CompiledEngine`` after it) with one table allocated and touched once, as Edax does, so that
first-touch page faults (which vary with the kernel's huge-page luck) stay out of the timings.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sakiyomi.search.result import SearchResult

ROOT = Path(__file__).resolve().parents[1]


def run_script(tree: Path, argv: list[str]) -> list[dict[str, Any]]:
    """The JSON records a benchmark script prints when run from ``tree``."""
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    # this file's own harnesses run from this tree against the other tree's sources
    script = ROOT / argv[0] if argv[0].endswith("before_after.py") else tree / argv[0]
    out = subprocess.run([sys.executable, str(script), *argv[1:]], cwd=tree, env=env,
                         capture_output=True, text=True, check=True)
    records = []
    for line in out.stdout.splitlines():
        if line.startswith("{"):
            records.append(json.loads(line))
    return records


def load() -> str:
    """The load averages, for the record."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def othello_solve(spec: str, repeats: int = 3) -> None:
    """Solve FFO positions ``spec`` with whichever compiled API this tree has (see the doc)."""
    from sakiyomi.compiled import template
    from sakiyomi.games.othello import KERNEL_MODULE, KERNEL_PARAMS, from_position
    from sakiyomi.search.searcher import SearchConfig

    config = SearchConfig(killers=False, history=False, tt_capacity=1 << 22)
    module = template.build(KERNEL_MODULE, dict(KERNEL_PARAMS))
    search: Any = template.CompiledSearch(module, config, shortcuts=False)
    search.touch()
    lo, hi = (int(x) for x in spec.split("-"))
    files = {1: "fforum-1-19.obf", 20: "fforum-20-39.obf", 40: "fforum-40-49.obf"}
    lines = {}
    for first, name in files.items():
        text = (ROOT / "tests" / "data" / "othello" / name).read_text().splitlines()
        for number, line in enumerate([x for x in text if x.strip()], first):
            lines[number] = line
    old_api = hasattr(search, "solve")

    def one(game: Any) -> tuple[int, int]:
        search.reset()
        if old_api:
            result = search.solve(module.make_state(*game.kernel_state()))
            return int(result.value), int(result.stats["nodes"])
        from sakiyomi.engines import CompiledEngine
        from sakiyomi.search.solve import solve

        engine = CompiledEngine(game.copy(), config, workspace=search, fresh=False)
        result = solve(engine.game, searcher=engine)
        return int(result.value), int(result.stats.nodes)

    one(from_position("othello", lines[lo]))  # load the compiled code
    for number in range(lo, hi + 1):
        game = from_position("othello", lines[number])
        times = []
        for _ in range(repeats):
            start = time.process_time()
            value, nodes = one(game)
            times.append(time.process_time() - start)
        print(json.dumps({"ffo": number, "value": value, "nodes": nodes,
                          "cpu_s": statistics.median(times)}), flush=True)


CHESS_POSITIONS = (
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNB1K2R w KQkq - 4 4",
    "r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 10",
    "2r2rk1/pp3ppp/2n1p3/3pP3/3P4/P1q2N2/5PPP/R2Q1RK1 w - - 0 18",
    "r4rk1/1b2qppp/p2bpn2/1p6/3N4/1BN1B3/PPP2PPP/R2Q1RK1 b - - 3 13",
    "8/5pk1/6p1/3p3p/3P3P/5PP1/4K3/8 w - - 0 40",
    "6k1/1r3pp1/4p2p/8/2R5/6P1/5PKP/8 w - - 0 35",
)


def timed_searches(kind: str, searches: Iterable[Callable[[], SearchResult[Any]]]) -> None:
    """Run each search and print one JSON line: its number (under ``kind``), nodes, CPU
    seconds and nodes per CPU second (the harnesses' one shape, for ``--key kind``).
    """
    for number, search in enumerate(searches, 1):
        start = time.process_time()
        result = search()
        cpu = time.process_time() - start
        print(json.dumps({kind: number, "nodes": result.stats.nodes, "cpu_s": cpu,
                          "nps": round(result.stats.nodes / cpu)}), flush=True)


def chess_nps(depth: int) -> None:
    """Chess: CPU seconds and nodes of a depth-``depth`` search per position (a fresh
    searcher each, the engine's settings), and python-chess's push+pop on them.
    """
    here = str(Path(__file__).resolve().parent)
    sys.path[:] = [p for p in sys.path if str(Path(p or ".").resolve()) != here]  # bench/chess.py
    import chess

    from sakiyomi.games.chess import ChessGame
    from sakiyomi.protocols.chess_engine import CHESS_CONFIG
    from sakiyomi.search.drivers import run
    from sakiyomi.search.limits import Limits
    from sakiyomi.search.searcher import Searcher

    def search(fen: str) -> SearchResult[chess.Move]:
        return run(Searcher(ChessGame(chess.Board(fen)), CHESS_CONFIG), Limits(depth=depth))

    timed_searches("chess", (partial(search, fen) for fen in CHESS_POSITIONS))
    boards = [chess.Board(fen) for fen in CHESS_POSITIONS]
    pairs = [(board, move) for board in boards for move in board.legal_moves]
    start = time.process_time()
    for _ in range(200):
        for board, move in pairs:
            board.push(move)
            board.pop()
    cpu = time.process_time() - start
    print(json.dumps({"chess": "push+pop", "cpu_s": cpu,
                      "per_s": round(200 * len(pairs) / cpu)}), flush=True)


def shogi_nps(nodes: int, count: int = 12) -> None:
    """Shogi: CPU seconds of a ``nodes``-node search per position (a fresh searcher each,
    the USI engine's settings) on ``count`` positions of our own games.
    """
    from sakiyomi.games.shogi import ShogiGame
    from sakiyomi.protocols.shogi_engine import Options, search_config
    from sakiyomi.search.drivers import run
    from sakiyomi.search.limits import Limits
    from sakiyomi.search.searcher import Searcher

    labels = ROOT / "bench" / "results" / "shogi" / "s22-eval-labels-fsf20k.jsonl"
    records = (json.loads(line) for line in labels.read_text().splitlines())
    sfens = [record["sfen"] for record in records if record["score"] is not None][:count]
    def search(sfen: str) -> SearchResult[int]:
        return run(Searcher(ShogiGame(sfen + " 1"), search_config(Options())),
                   Limits(nodes=nodes))

    timed_searches("shogi", (partial(search, sfen) for sfen in sfens))


def harness_number(flag: str, text: str) -> int:
    """The positive integer a harness flag was given; else one error line and exit 2."""
    if not text.isdigit() or int(text) == 0:
        print(f"before_after.py: error: {flag} needs a positive integer, not {text!r}",
              file=sys.stderr)
        sys.exit(2)
    return int(text)


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--shogi-nps":
        shogi_nps(harness_number(sys.argv[1], sys.argv[2]))
        return
    if len(sys.argv) == 3 and sys.argv[1] == "--othello-solve":
        othello_solve(sys.argv[2])
        return
    if len(sys.argv) == 3 and sys.argv[1] == "--chess-nps":
        chess_nps(harness_number(sys.argv[1], sys.argv[2]))
        return
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ref", required=True, help="the earlier commit")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--key", default="set,mode", help="fields that identify a record")
    parser.add_argument("--cpu", default="mean_cpu_us", help="the CPU field to compare")
    parser.add_argument("--nodes", default="mean_nodes,nodes", help="node fields to check")
    parser.add_argument("script", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    argv = [a for a in args.script if a != "--"]
    keys = args.key.split(",")
    with tempfile.TemporaryDirectory() as scratch:
        old = Path(scratch) / "old"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(old),
                        args.ref], check=True, capture_output=True)
        try:
            ours: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
            theirs: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
            for _ in range(args.rounds):
                for tree, into in ((ROOT, ours), (old, theirs)):
                    for record in run_script(tree, argv):
                        if args.cpu in record and all(k in record for k in keys):
                            into.setdefault(tuple(record[k] for k in keys), []).append(record)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(old)],
                           check=False, capture_output=True)
    ratios = []
    for key, mine in ours.items():
        other = theirs.get(key)
        if not other:
            continue
        a = statistics.median(r[args.cpu] for r in mine)
        b = statistics.median(r[args.cpu] for r in other)
        same_nodes = all(mine[0].get(f) == other[0].get(f)
                         for f in args.nodes.split(",") if f in mine[0])
        ratios.append(a / b)
        print(json.dumps({"key": list(key), "after": a, "before": b,
                          "ratio": round(a / b, 4), "same_nodes": same_nodes,
                          "rounds": len(mine), "ref": args.ref, "load": load()}), flush=True)
    if ratios:
        print(json.dumps({"summary": "after/before CPU", "median_ratio":
                          round(statistics.median(ratios), 4), "ratios": len(ratios),
                          "load": load()}))


if __name__ == "__main__":
    main()
