"""Cost of the tracer hooks when nobody traces: Searcher with the default NULL_TRACER against a
build of the same Searcher whose tracing calls are removed.

The anchor is generated from ``sakiyomi/search/searcher.py`` at run time: every ``if tracing:``
block and the ``tracer``/``tracing`` locals are stripped with ``ast``, and the result is
loaded as a separate module.  Both must visit the same nodes (checked).  Runs alternate
between the two builds (ABBA order); ``time_ratio`` is the median of the paired ratios (robust
on a shared machine), with the ratio of median and of minimum CPU times beside it; the target
is a ratio within 3 %.
Usage: python bench/trace_overhead.py [--repeats N]
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import json
import statistics
import sys
import time
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import sakiyomi.search.searcher as traced
from sakiyomi.games.tictactoe import TicTacToe
from sakiyomi.games.tree import TreeGame, random_tree
from sakiyomi.search.searcher import SearchConfig


class _StripTracing(ast.NodeTransformer):
    """Drop ``if tracing:`` / ``if tracer.enabled:`` blocks and the locals they use."""

    def visit_If(self, node: ast.If) -> Any:
        test = node.test
        if (isinstance(test, ast.Name) and test.id == "tracing") or (
            isinstance(test, ast.Attribute) and test.attr == "enabled"
        ):
            return node.orelse or None
        return self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign) -> Any:
        names = [t.id for t in node.targets if isinstance(t, ast.Name)]
        if names in (["tracing"], ["tracer"]):
            return None
        return node


def untraced_module() -> types.ModuleType:
    """The Searcher module without any tracing code."""
    path = Path(traced.__file__)
    tree = _StripTracing().visit(ast.parse(path.read_text(encoding="utf-8")))
    ast.fix_missing_locations(tree)
    source = ast.unparse(tree)
    assert "tracing" not in source.replace("tracing import", ""), "strip failed"
    name = "sakiyomi.search._searcher_untraced"
    spec = importlib.util.spec_from_loader(name, loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up
    exec(compile(source, f"<untraced {path.name}>", "exec"), module.__dict__)
    return module


def run_once(make_searcher: Callable[[Any], Any], make_game: Callable[[], Any],
             depth: int) -> tuple[int, float]:
    searcher = make_searcher(make_game())
    start = time.process_time()
    for d in range(1, depth + 1):  # iterative deepening by hand: same calls for both builds
        searcher.search(d)
    return searcher.stats.nodes, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=41)
    args = parser.parse_args()
    plain = untraced_module()
    tree = random_tree(5, 7, 3)
    cases: dict[str, tuple[Callable[[], Any], int, SearchConfig]] = {
        "tictactoe-start-d9-no-tt": (TicTacToe, 9, SearchConfig(tt=False)),
        "uniform-b5-d7": (lambda: TreeGame(tree), 7, SearchConfig()),
        "uniform-b5-d7-no-tt": (lambda: TreeGame(tree), 7, SearchConfig(tt=False)),
    }
    ratios = []
    for name, (make_game, depth, config) in cases.items():
        def with_null(game: Any, config: SearchConfig = config) -> Any:
            return traced.Searcher(game, config)  # default tracer: NULL_TRACER

        def without(game: Any, config: SearchConfig = config) -> Any:
            return plain.Searcher(game, plain.SearchConfig(**_fields(config)))

        times: dict[str, list[float]] = {"null_tracer": [], "no_tracing_code": []}
        nodes: dict[str, int] = {}
        pair_ratios = []
        builds = [("null_tracer", with_null), ("no_tracing_code", without)]
        for i in range(args.repeats):
            pair: dict[str, float] = {}
            for label, make in builds if i % 2 == 0 else builds[::-1]:  # ABBA: cancel drift
                count, seconds = run_once(make, make_game, depth)
                nodes[label] = count
                times[label].append(seconds)
                pair[label] = seconds
            pair_ratios.append(pair["null_tracer"] / pair["no_tracing_code"])
        assert nodes["null_tracer"] == nodes["no_tracing_code"], nodes
        med = {k: statistics.median(v) for k, v in times.items()}
        ratio = statistics.median(pair_ratios)
        ratios.append(ratio)
        print(json.dumps({
            "case": name, "nodes": nodes["null_tracer"], "repeats": args.repeats,
            "median_cpu_s_null_tracer": round(med["null_tracer"], 5),
            "median_cpu_s_no_tracing_code": round(med["no_tracing_code"], 5),
            "nodes_per_s_null_tracer": int(nodes["null_tracer"] / med["null_tracer"]),
            "nodes_per_s_no_tracing_code": int(nodes["null_tracer"] / med["no_tracing_code"]),
            "anchor": "same Searcher with the tracing code stripped",
            "ratio_of_medians": round(med["null_tracer"] / med["no_tracing_code"], 4),
            "ratio_of_minima": round(min(times["null_tracer"]) / min(times["no_tracing_code"]), 4),
            "time_ratio": round(ratio, 4), "within_3_percent": ratio <= 1.03,
        }), flush=True)
    print(json.dumps({"summary": "median of paired time ratios, null tracer / no tracing code",
                      "median_ratio": round(statistics.median(ratios), 4),
                      "max_ratio": round(max(ratios), 4)}))


def _fields(config: SearchConfig) -> dict[str, Any]:
    return {f: getattr(config, f) for f in config.__dataclass_fields__}


if __name__ == "__main__":
    main()
