"""Regenerate the tutorial: every picture and node-count table comes from the CLI.

Pages are written from the templates in ``docs/src/*.md``.  A template line that starts with
``@@`` is a directive, replaced by the command it runs and what the command produced:

    @@tree NAME ARGS...          sakiyomi tree ARGS -o img/NAME.svg       (command + picture)
    @@text ARGS...               sakiyomi tree ARGS --format text         (command + output)
    @@compare ROWS ARGS...       sakiyomi compare ARGS --json             (table; ROWS a,b,c or *)
    @@depths ROWS D ARGS...      sakiyomi compare ARGS --depth d --json for d = 1..D
    @@plot NAME ARGS...          sakiyomi compare ARGS --plot img/NAME.svg
    @@solve GAME P1,P2,...       sakiyomi solve GAME - --json   (positions on stdin)
    @@algorithms                 the algorithm registry (sakiyomi.search.algorithms) as a table
    @@mcts-grow GAME POS N1,N2 [OPTIONS]   sakiyomi search GAME POS --algorithm mcts
                                 --iterations N [OPTIONS] --json for each N: best move, its
                                 share of the visits, value, proof
    @@mcts-c GAME POS N C1,C2    the same at N iterations for each exploration constant C
    @@mcts-analyze GAME POS N    sakiyomi analyze GAME POS --algorithm mcts --iterations N
    @@include PATH               a file of the repository, verbatim (measured results)
    @@repetition NAME            a small cyclic game searched through the library (no CLI game
                                 has cycles yet): picture and table

Usage: python docs/generate.py [PAGE ...]   (from the repository root, with sakiyomi
installed; PAGE e.g. 11-mcts: only those pages)
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, ClassVar, Self

DOCS = Path(__file__).resolve().parent
IMG = DOCS / "img"
COLUMNS = ("algorithm", "value", "nodes", "leaves", "cutoffs", "tt_hits", "researches")
HEADINGS = ("algorithm", "value", "nodes", "leaves", "cut-offs", "TT hits", "re-searches")


def sakiyomi(args: Sequence[str], stdin: str = "") -> str:
    """Run the CLI exactly as a reader would (``python -m sakiyomi``)."""
    done = subprocess.run([sys.executable, "-m", "sakiyomi", *args], input=stdin,
                          capture_output=True, text=True, check=False, cwd=DOCS)
    if done.returncode != 0:
        raise SystemExit(f"sakiyomi {shlex.join(args)} failed: {done.stderr.strip()}")
    return done.stdout


def console(args: Sequence[str], stdin: str = "") -> str:
    shown = f"$ sakiyomi {shlex.join(args)}"
    if stdin:
        lines = " ".join(shlex.quote(line) for line in stdin.split())
        shown = f"$ printf '%s\\n' {lines} | sakiyomi {shlex.join(args)}"
    return f"```console\n{shown}\n```\n"


def table(head: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def pick(rows: list[dict[str, Any]], wanted: str) -> list[dict[str, Any]]:
    if wanted == "*":
        return rows
    names = wanted.split(",")
    by_name = {r["algorithm"]: r for r in rows}
    return [by_name[n] for n in names]


# ---- directives -------------------------------------------------------------------------


def d_tree(name: str, *args: str) -> str:
    out = f"img/{name}.svg"
    command = ["tree", *args, "-o", out]
    sakiyomi(command)
    return console(command) + f"\n![{name}]({out})\n"


def d_text(*args: str) -> str:
    command = ["tree", *args, "--format", "text"]
    return console(command) + "```text\n" + sakiyomi(command) + "```\n"


def d_compare(rows: str, *args: str) -> str:
    command = ["compare", *args, "--json"]
    record = json.loads(sakiyomi(command))
    body = [[r[c] for c in COLUMNS] for r in pick(record["rows"], rows)]
    theory = record["theory"]
    note = (f"\nDepth {record['depth']}, average branching factor b = "
            f"{record['branching']:.2f}: a full tree has b^d = "
            f"{theory['full_tree_leaves']:,.0f} leaves; the minimal αβ tree (Knuth & Moore) "
            f"b^⌈d/2⌉ + b^⌊d/2⌋ − 1 = {theory['minimal_tree_leaves']:,.0f} leaves.\n")
    return console(command[:-1]) + "\n" + table(HEADINGS, body) + note


def d_depths(rows: str, max_depth: str, *args: str) -> str:
    names = rows.split(",")
    body = []
    for depth in range(1, int(max_depth) + 1):
        record = json.loads(sakiyomi(["compare", *args, "--depth", str(depth), "--json"]))
        chosen = pick(record["rows"], rows)
        body.append([depth, *(r["nodes"] for r in chosen)])
    shown = ["compare", *args, "--depth", "D"]
    return (console(shown) + f"\nNodes for D = 1 … {max_depth}:\n\n"
            + table(["depth", *names], body))


def d_plot(name: str, *args: str) -> str:
    out = f"img/{name}.svg"
    command = ["compare", *args, "--plot", out, "--json"]
    sakiyomi(command)
    return console(command[:-1]) + f"\n![{name}]({out})\n"


def d_solve(game: str, positions: str) -> str:
    stdin = "\n".join(positions.split(",")) + "\n"
    command = ["solve", game, "-", "--json"]
    records = [json.loads(line) for line in sakiyomi(command, stdin).splitlines()]
    body = [[r["position"], r["result"], r["value"], r["best_move"], r["nodes"],
             " ".join(r["pv"])] for r in records]
    return (console(command, stdin) + "\n"
            + table(["position", "result", "value", "best move", "nodes",
                     "principal variation"], body))


def d_algorithms() -> str:
    from sakiyomi.search.algorithms import ALGORITHMS

    body = [[f"`{a.name}`", a.summary, "MinMax" if a.form == "minmax" else "NegaMax",
             "yes" if a.windowed else "no",
             "Searcher" if a.searcher_based else "MCTS" if a.monte_carlo else "textbook"]
            for a in ALGORITHMS.values()]
    return table(["`--algorithm`", "what it does", "form", "window", "runs on"], body)


# ---- Monte Carlo tree search --------------------------------------------------------------


def _mcts_row(record: dict[str, Any]) -> list[object]:
    stats = record["stats"]
    best = stats["visits"].get(record["best_move"], 0)
    share = f"{best / max(1, sum(stats['visits'].values())):.0%}"
    return [record["best_move"], share, record["value"], stats["proven"] or "-",
            f"{record['nodes']:,}"]


def d_mcts_grow(game: str, position: str, counts: str, *extra: str) -> str:
    body = []
    for n in counts.split(","):
        command = ["search", game, position, "--algorithm", "mcts", "--iterations", n, *extra]
        record = json.loads(sakiyomi([*command, "--json"]))
        body.append([f"{int(n):,}", record["stats"]["iterations"], *_mcts_row(record)])
    shown = ["search", game, position, "--algorithm", "mcts", "--iterations", "N", *extra]
    return console(shown) + "\n" + table(
        ["N", "iterations run", "best move", "its visits", "value", "proven", "nodes"], body)


def d_mcts_c(game: str, position: str, count: str, constants: str) -> str:
    body = []
    for c in constants.split(","):
        command = ["search", game, position, "--algorithm", "mcts", "--iterations", count,
                   "--exploration", c]
        record = json.loads(sakiyomi([*command, "--json"]))
        body.append([c, *_mcts_row(record), record["stats"]["seldepth"]])
    shown = ["search", game, position, "--algorithm", "mcts", "--iterations", count,
             "--exploration", "C"]
    return console(shown) + "\n" + table(
        ["C", "best move", "its visits", "value", "proven", "nodes", "deepest"], body)


def d_mcts_analyze(game: str, position: str, count: str) -> str:
    command = ["analyze", game, position, "--algorithm", "mcts", "--iterations", count]
    record = json.loads(sakiyomi([*command, "--json"]))
    body = [[m["move"], m["visits"], f"{m['mean']:+.3f}", m["score"], m["proven"] or "-",
             " ".join(m["pv"])] for m in record["moves"]]
    return (console(command) + "\n"
            + table(["move", "visits", "mean", "value", "proven", "line"], body)
            + f"\n{record['iterations']:,} iterations, {record['nodes']:,} positions.\n")


def d_include(path: str) -> str:
    return (DOCS.parent / path).read_text(encoding="utf-8")


# ---- a cyclic game for the repetition page ----------------------------------------------


class CycleGame:
    """A tiny directed graph with a cycle: A ⇄ B, and an exit from each into a finished game.

    From A the first player may leave to X (worth −5 to them) or go to B; from B the second
    player may leave to Y (worth −3 to them) or go back to A.  Going round forever is a draw.
    """

    ACYCLIC = False
    EDGES: ClassVar[dict[str, tuple[str, ...]]] = {"A": ("B", "X"), "B": ("A", "Y")}
    # Final values for the side to move there (the player who did not leave).
    FINAL: ClassVar[dict[str, int]] = {"X": 5, "Y": 3}

    def __init__(self) -> None:
        self.path = ["A"]

    @property
    def to_move(self) -> Any:
        from sakiyomi.game import Player

        return Player.FIRST if len(self.path) % 2 == 1 else Player.SECOND

    def legal_moves(self) -> Sequence[str]:
        return self.EDGES.get(self.path[-1], ())

    def play(self, move: str) -> None:
        self.path.append(move)

    def undo(self) -> None:
        self.path.pop()

    def outcome(self) -> Any:
        from sakiyomi.game import Outcome

        value = self.FINAL.get(self.path[-1])
        if value is None:
            return None
        return Outcome(self.to_move if value > 0 else self.to_move.other, "exit", value)

    def terminal_value(self, ply: int) -> int:
        return self.FINAL[self.path[-1]]

    def evaluate(self) -> int:
        return 1  # a small edge for the side to move in an unfinished position

    def key(self) -> int:
        return hash((self.path[-1], len(self.path) % 2))

    def copy(self) -> Self:
        clone = type(self)()
        clone.path = list(self.path)
        return clone

    def move_to_text(self, move: str) -> str:
        return move

    def move_from_text(self, text: str) -> str:
        return text


def d_repetition(name: str) -> str:
    from sakiyomi.search.drivers import run
    from sakiyomi.search.limits import Limits
    from sakiyomi.search.searcher import SearchConfig, Searcher
    from sakiyomi.viz.picture import Picture
    from sakiyomi.viz.svg import render_svg
    from sakiyomi.viz.trace import TreeRecorder

    game = CycleGame()
    recorder = TreeRecorder(game)
    result = run(Searcher(game, SearchConfig(), tracer=recorder), Limits(depth=8))
    roots = recorder.final_roots()
    picture = Picture(roots, "negamax",
                      f"pvs with repetition detection · value {result.value} · "
                      f"{sum(r.count() for r in roots)} nodes",
                      "CycleGame (docs/generate.py): A ⇄ B, exits A→X and B→Y",
                      pv=result.pv,
                      notes=["A leaf 0 below A→B→A is the repeated position A: a draw."])
    (IMG / f"{name}.svg").write_text(render_svg(picture), encoding="utf-8")
    body = []
    for depth in (2, 4, 6, 8, 12, 16):
        row: list[object] = [depth]
        for repetition in (True, False):
            searcher: Searcher[str] = Searcher(CycleGame(), SearchConfig(
                repetition=repetition, tt=False))
            res = run(searcher, Limits(depth=depth))
            row += [res.value, res.stats.nodes]
        body.append(row)
    head = ["depth", "value (detection)", "nodes (detection)", "value (no detection)",
            "nodes (no detection)"]
    return (f"![{name}](img/{name}.svg)\n\n"
            "Searcher without a table, iterative deepening 1 … depth, with and without "
            "repetition detection (`SearchConfig(repetition=...)`):\n\n" + table(head, body))


DIRECTIVES: dict[str, Callable[..., str]] = {
    "tree": d_tree, "text": d_text, "compare": d_compare, "depths": d_depths,
    "plot": d_plot, "solve": d_solve, "repetition": d_repetition, "algorithms": d_algorithms,
    "include": d_include, "mcts-grow": d_mcts_grow, "mcts-c": d_mcts_c,
    "mcts-analyze": d_mcts_analyze,
}


def build(template: Path) -> str:
    out: list[str] = [f"<!-- generated by docs/generate.py from docs/src/{template.name}; "
                      "edit the template, then run the script -->\n"]
    for line in template.read_text(encoding="utf-8").splitlines(keepends=True):
        if line.startswith("@@"):
            kind, *args = shlex.split(line[2:])
            print(f"  {kind} {' '.join(args)[:70]}", flush=True)
            out.append(DIRECTIVES[kind](*args))
        else:
            out.append(line)
    return "".join(out)


def main() -> None:
    IMG.mkdir(exist_ok=True)
    wanted = set(sys.argv[1:])
    for template in sorted((DOCS / "src").glob("*.md")):
        if wanted and template.stem not in wanted:
            continue
        print(template.name, flush=True)
        (DOCS / template.name).write_text(build(template), encoding="utf-8")


if __name__ == "__main__":
    main()
