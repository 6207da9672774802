"""Side-by-side counts: every algorithm, the Searcher without each enhancement, and theory.

The seeds' central claim made visible: MinMax costs b^d leaves, αβ at best about b^(d/2)
(Knuth & Moore's minimal tree, b^⌈d/2⌉ + b^⌊d/2⌋ − 1 leaves), and how close real ordering gets.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from sakiyomi.game import Game
from sakiyomi.games.tree import TreeGame, sort_best_first, to_first_player_convention
from sakiyomi.search.algorithms import (
    MONTE_CARLO,
    SEARCHER_BASED,
    TEXTBOOK,
    AlgorithmRun,
    get,
)
from sakiyomi.search.searcher import SearchConfig
from sakiyomi.search.tracing import NULL_TRACER, Tracer
from sakiyomi.viz.runs import CountingTracer

# The Searcher without one enhancement at a time (rows "pvs -X"; "pvs" itself comes first),
# then with seed 003's shallow preliminary search to sort the moves ("pvs +presort": every move
# of a node more than three plies from the horizon searched two plies deep first).
VARIANTS: dict[str, SearchConfig] = {
    "pvs -ordering": SearchConfig(ordering=False),
    "pvs -tt": SearchConfig(tt=False),
    "pvs -pvs": SearchConfig(pvs=False),
    "pvs -killers": SearchConfig(killers=False),
    "pvs +presort": SearchConfig(presort_depth=2),
}


@dataclass(frozen=True, slots=True)
class Row:
    """One algorithm's work on the position."""

    algorithm: str
    value: int
    best_move: str | None
    nodes: int
    leaves: int
    cutoffs: int
    tt_hits: int
    researches: int
    seconds: float

    @property
    def interior(self) -> int:
        """Expanded nodes."""
        return self.nodes - self.leaves


@dataclass(slots=True)
class Report:
    """All rows plus the theoretical sizes for the observed branching factor."""

    depth: int
    branching: float
    full_leaves: float
    minimal_leaves: float
    rows: list[Row] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """Plain data for ``--json``."""
        return {
            "depth": self.depth, "branching": round(self.branching, 4),
            "theory": {"full_tree_leaves": round(self.full_leaves, 1),
                       "minimal_tree_leaves": round(self.minimal_leaves, 1)},
            "rows": [{**asdict(r), "interior": r.interior, "seconds": round(r.seconds, 6)}
                     for r in self.rows],
        }


def minimal_leaves(b: float, d: int) -> float:
    """Knuth & Moore (1975): leaves αβ must visit in a uniform tree, perfectly ordered."""
    return float(b ** ((d + 1) // 2) + b ** (d // 2) - 1)


def _timed(game: Game[Any], algorithm: str, depth: int | None, tracer: Tracer = NULL_TRACER,
           config: SearchConfig | None = None) -> tuple[AlgorithmRun, float]:
    position = game.copy()
    start = time.perf_counter()
    result = get(algorithm).run(position, depth, tracer, config)
    return result, time.perf_counter() - start


def _move(game: Game[Any], result: AlgorithmRun) -> str | None:
    return game.move_to_text(result.pv[0]) if result.pv else None


def _textbook_row(game: Game[Any], name: str, algorithm: str, depth: int | None,
                  counter: CountingTracer | None = None) -> tuple[Row, CountingTracer]:
    result, seconds = _timed(game, algorithm, depth)  # timed without any tracer
    counter = counter if counter is not None else CountingTracer()
    _timed(game, algorithm, depth, counter)  # again, counting cut-offs and re-searches
    return Row(name, result.value, _move(game, result), result.nodes, result.leaves,
               counter.cutoffs, 0, counter.researches, seconds), counter


def compare(game: Game[Any], depth: int | None, *, variants: bool = True) -> Report:
    """Run every registered algorithm on ``game`` (which is left unchanged) to ``depth``
    plies, then the Searcher variants (``variants``).

    The and-or row answers a different question (1: a forced win within the depth, else 0);
    the mcts row has no depth (``algorithms.MCTS_ITERATIONS`` iterations of playouts to the
    end, fewer once proven; its value is the expected result in percent for win/loss games).
    The first row must be MinMax (it expands everything: the tree's shape is read from it).
    """
    rows: list[Row] = []
    shape = CountingTracer()
    for entry in TEXTBOOK:
        row, _ = _textbook_row(game, entry.name, entry.name, depth,
                               shape if entry.name == "minimax" else None)
        rows.append(row)
    runs = [(a.name, a.name, SearchConfig()) for a in SEARCHER_BASED]
    runs += [(a.name, a.name, SearchConfig()) for a in MONTE_CARLO]
    if variants:
        runs += [(name, "pvs", config) for name, config in VARIANTS.items()]
    for name, algorithm, config in runs:
        result, seconds = _timed(game, algorithm, depth, config=config)
        stats = result.stats
        assert stats is not None
        rows.append(Row(name, result.value, _move(game, result), result.nodes, result.leaves,
                        stats.cutoffs, stats.tt_hits, stats.researches, seconds))
    if isinstance(game, TreeGame):
        rows.extend(_ordered_tree_rows(game, depth))
    # Shape of the full tree, from MinMax (which expands everything): the average branching
    # factor is the geometric mean per ply, b = leaves^(1/d), so that b^d is MinMax's count.
    d = shape.deepest
    b = rows[0].leaves ** (1 / d) if d else 0.0
    return Report(d, b, b**d, minimal_leaves(b, d), rows)


def _ordered_tree_rows(game: TreeGame, depth: int | None) -> list[Row]:
    """αβ on the same explicit tree sorted best-first (its minimum) and worst-first."""
    tree = game.copy().subtree()
    if game.first_player_leaves:
        tree = to_first_player_convention(tree)  # the conversion is its own inverse
    best = sort_best_first(tree)

    def reverse(tree: Any) -> Any:
        return tree if isinstance(tree, int) else [reverse(c) for c in reversed(tree)]

    out = []
    orders: dict[str, Callable[[], Any]] = {"best-first": lambda: best,
                                            "worst-first": lambda: reverse(best)}
    for label, make in orders.items():
        ordered = TreeGame(make())  # sorted trees are in the NegaMax convention
        row, _ = _textbook_row(ordered, f"alphabeta {label}", "alphabeta", depth)
        out.append(Row(row.algorithm, row.value, None, row.nodes, row.leaves, row.cutoffs,
                       0, 0, row.seconds))
    return out


def compare_depths(
    game: Game[Any], max_depth: int,
) -> tuple[dict[str, list[tuple[int, int]]], list[tuple[int, float]]]:
    """Nodes per algorithm for depths 1..max_depth, and the branching factor seen at each
    depth (for the log-scale plot).
    """
    series: dict[str, list[tuple[int, int]]] = {}
    branching: list[tuple[int, float]] = []
    for depth in range(1, max_depth + 1):
        report = compare(game, depth, variants=False)
        branching.append((report.depth, report.branching))
        for row in report.rows:
            series.setdefault(row.algorithm, []).append((depth, row.nodes))
    return series, branching


def format_table(report: Report) -> str:
    """The report as an aligned text table."""
    head = ("algorithm", "value", "best", "nodes", "leaves", "cut-offs", "TT hits",
            "re-search", "ms")
    base = report.rows[0].nodes or 1
    lines = []
    cells = [head]
    for r in report.rows:
        cells.append((r.algorithm, str(r.value), r.best_move or "-", str(r.nodes),
                      str(r.leaves), str(r.cutoffs), str(r.tt_hits), str(r.researches),
                      f"{r.seconds * 1000:.1f}"))
    widths = [max(len(c[i]) for c in cells) for i in range(len(head))]
    for j, c in enumerate(cells):
        line = "  ".join(c[0].ljust(widths[0]) if i == 0 else c[i].rjust(widths[i])
                         for i in range(len(head)))
        if j:
            line += f"  {report.rows[j - 1].nodes / base:6.1%}"
        else:
            line += "  of minimax"
        lines.append(line)
    lines.append("")
    lines.append(f"depth {report.depth}, observed average branching factor b = "
                 f"{report.branching:.2f} (MinMax leaves^(1/d))")
    lines.append(f"full tree b^d = {report.full_leaves:,.0f} leaves; minimal αβ tree "
                 f"b^⌈d/2⌉ + b^⌊d/2⌋ − 1 = {report.minimal_leaves:,.0f} leaves (Knuth–Moore)")
    # Two rows answer other questions than the value to the depth: say which, under them.
    names = {r.algorithm for r in report.rows}
    if "and-or" in names:
        lines.append("and-or: 1 if the side to move forces a win within the depth, else 0")
    if "mcts" in names:
        lines.append("mcts: no depth (playouts to the end); its value is the expected result "
                     "in percent")
    return "\n".join(lines)
