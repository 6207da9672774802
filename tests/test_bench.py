"""`sakiyomi bench`: the node signature is the committed one, on both engines.

A failure here means the search visits other nodes than before.  If that is deliberate (a new
ordering rule, a pruning change, a game's new evaluation), run `sakiyomi bench --depth 2` and
`sakiyomi bench` (depth 4), put their "Nodes searched" totals into SIGNATURES in
src/sakiyomi/benchmark.py, and say why in the same commit.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from sakiyomi.benchmark import CI_DEPTH, POSITIONS, SIGNATURES, bench

HOW = ("search behaviour changed: if deliberate, update SIGNATURES in src/sakiyomi/benchmark.py "
       "with the totals of `sakiyomi bench --depth 2` and `sakiyomi bench` "
       "(see tests/test_bench.py)")


def test_cli_bench_prints_every_position_and_the_committed_signature() -> None:
    done = subprocess.run([sys.executable, "-m", "sakiyomi", "bench", "--depth", str(CI_DEPTH),
                           "--json"], capture_output=True, text=True, check=False,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    rows, total = lines[:-1], lines[-1]
    assert [(r["game"], r["position"]) for r in rows] == [(p.game, p.position) for p in POSITIONS]
    assert all(r["nodes"] > 0 and r["depth"] >= CI_DEPTH for r in rows)
    assert total["nodes"] == sum(r["nodes"] for r in rows)
    assert total["signature"] == SIGNATURES[CI_DEPTH], HOW


def test_the_python_engine_gives_the_same_signature_row_by_row() -> None:
    # The compiled engine (auto) and the Python one visit the same nodes: an independent check
    # of the compiled games' rows, and of the signature.
    auto = [r.nodes for r in bench(CI_DEPTH, "auto")]
    python = [r.nodes for r in bench(CI_DEPTH, "python")]
    assert auto == python
    assert sum(python) == SIGNATURES[CI_DEPTH], HOW


def test_default_depth_signature() -> None:
    # In CI since session 19 (about 2 s once the kernels are loaded): unchecked, the depth-4
    # figure had drifted for a session (chess, 3283 -> 3191 nodes) before anyone saw it.
    assert sum(r.nodes for r in bench()) == SIGNATURES[4], HOW


def test_bad_depth_is_refused_in_one_line() -> None:
    done = subprocess.run([sys.executable, "-m", "sakiyomi", "bench", "--depth", "0"],
                          capture_output=True, text=True, check=False,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "depth too small: at least 1" in done.stderr
