"""The search built ahead of time (``sakiyomi.compiled.aot``): the same answers and node counts
as numba's build of the same text, the GIL released while it searches, numba never imported
by a process that uses it, and every way of not having it falls back to numba.

Building the Connect Four extension costs ~5-15 CPU-s (numba's pipeline and a C link), once
for the module.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sakiyomi.compiled import aot
from sakiyomi.compiled.template import CompiledSearch, build
from sakiyomi.engines import CompiledEngine, solver_config
from sakiyomi.games import load
from sakiyomi.games.connect4 import Connect4, from_position
from sakiyomi.search.limits import StopSignal
from sakiyomi.search.solve import solve

PONS = Path(__file__).resolve().parents[2] / "shared" / "data" / "connect4" / "pons_original"
# Positions with their values from Pons's own test file (Middle-Easy), when it is there,
# and positions of our own; every one is solved by both builds.
OWN = ["1234567123", "4444443333", "445544332"]


def _random_positions(count: int, moves: int, seed: int) -> list[str]:
    """``count`` positions of ``moves`` random legal moves each, none of them finished."""
    rng = random.Random(seed)
    found: list[str] = []
    while len(found) < count:
        game = Connect4()
        for _ in range(moves):
            if game.outcome() is not None:
                break
            game.play(rng.choice(list(game.legal_moves())))
        if game.outcome() is None:
            found.append(game.position_text())
    return found


def _pons_lines(count: int) -> list[tuple[str, int]]:
    path = PONS / "Test_L2_R1"
    if not path.exists():
        return []
    lines = path.read_text().split("\n")[:count]
    return [(line.split()[0], int(line.split()[1])) for line in lines if line.strip()]


@pytest.fixture(scope="module")
def extension() -> Iterator[Any]:
    """The Connect Four search from its extension, built now (SAKIYOMI_AOT on meanwhile)."""
    saved = os.environ.get("SAKIYOMI_AOT")
    os.environ["SAKIYOMI_AOT"] = "1"
    aot._loaded.clear()
    game = Connect4()
    module_name, params = game.kernel_spec()
    path = aot.build_now(module_name, params, game.kernel_state())
    assert path.exists() and path == aot.extension_path(module_name, params)
    module = aot.load(module_name, params)
    assert module is not None and module.AOT
    yield module
    aot._loaded.clear()
    os.environ["SAKIYOMI_AOT"] = saved if saved is not None else "0"


def _solved(module: Any, position: str, stop: StopSignal | None = None) -> Any:
    game = load("connect4", position)
    config = solver_config(game)
    engine = CompiledEngine(game.copy(), config, workspace=CompiledSearch(module, config))
    if stop is not None:
        engine.stop = stop
    return solve(engine.game, searcher=engine)


def test_same_values_nodes_and_pv_as_numba(extension: Any) -> None:
    jit = build(*Connect4().kernel_spec())
    assert not getattr(jit, "AOT", False)
    known = _pons_lines(6)
    for position in OWN + _random_positions(6, 14, 7) + [p for p, _ in known]:
        ours, theirs = _solved(extension, position), _solved(jit, position)
        assert (ours.value, ours.stats.nodes, ours.pv) == (theirs.value, theirs.stats.nodes,
                                                           theirs.pv), position
    for position, score in known:  # Pons's scores: the value's distance to the end
        value = _solved(extension, position).value
        assert (value > 0) == (score > 0) and (value < 0) == (score < 0), position


def test_the_gil_is_released_and_a_stop_is_honoured(extension: Any) -> None:
    ticks: list[float] = []
    done = threading.Event()

    def tick() -> None:
        while not done.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.01)

    ticker = threading.Thread(target=tick)
    ticker.start()
    try:  # the start position: many minutes unless stopped
        result = _solved(extension, "", StopSignal(seconds=0.3))
    finally:
        done.set()
        ticker.join()
    assert not result.complete
    assert len(ticks) >= 10  # the other thread ran during the search


def test_a_process_with_the_extension_never_imports_numba(extension: Any) -> None:
    script = ("import sys\n"
              "from sakiyomi.engines import solve_position\n"
              "from sakiyomi.games import load\n"
              "r = solve_position(load('connect4', '4453'))\n"
              "print(r.value, r.stats.nodes, r.extra['engine'], 'numba' in sys.modules)\n")
    env = {**os.environ, "SAKIYOMI_AOT": "1"}
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                         text=True, timeout=240, check=True).stdout.split()
    expected = _solved(extension, "4453")
    assert out == [str(expected.value), str(expected.stats.nodes), "compiled", "False"]


def test_no_extension_or_a_damaged_one_falls_back(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SAKIYOMI_CACHE", str(tmp_path))
    monkeypatch.setenv("SAKIYOMI_AOT", "1")
    monkeypatch.setattr(aot, "_loaded", {})
    module_name, params = Connect4().kernel_spec()
    assert aot.load(module_name, params) is None  # none built here
    path = aot.extension_path(module_name, params)
    assert path is not None
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not a shared object")
    monkeypatch.setattr(aot, "_loaded", {})
    assert aot.load(module_name, params) is None
    monkeypatch.setenv("SAKIYOMI_AOT", "0")
    monkeypatch.setattr(aot, "_loaded", {})
    path.unlink()
    assert aot.load(module_name, params) is None


def test_build_later_starts_one_build_at_a_time(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SAKIYOMI_CACHE", str(tmp_path))
    started: list[list[str]] = []
    monkeypatch.setattr(subprocess, "Popen", lambda command, **_: started.append(command))
    game = Connect4()
    module_name, params = game.kernel_spec()
    monkeypatch.setenv("SAKIYOMI_AOT", "0")
    assert not aot.build_later(module_name, params, game.kernel_state())  # switched off
    monkeypatch.setenv("SAKIYOMI_AOT", "1")
    assert aot.build_later(module_name, params, game.kernel_state())
    assert not aot.build_later(module_name, params, game.kernel_state())  # under way
    path = aot.extension_path(module_name, params)
    assert path is not None
    lock = path.with_name(path.name + ".lock")
    old = time.time() - aot.LOCK_SECONDS - 1
    os.utime(lock, (old, old))  # left by a killed build
    assert aot.build_later(module_name, params, game.kernel_state())
    assert len(started) == 2 and started[0][1:3] == ["-m", "sakiyomi.compiled.aot"]
    lock.unlink()
    path.write_bytes(b"")  # built already
    assert not aot.build_later(module_name, params, game.kernel_state())


def test_the_block_solver_answers_as_single_solves(extension: Any) -> None:
    import numpy as np

    from sakiyomi.engines import block_solver

    lines = [*OWN, *_random_positions(8, 16, 11), "12a4", "44444444", "1212121"]
    pieces = [line.encode() for line in lines]
    ends = np.cumsum([len(p) + 1 for p in pieces], dtype=np.int64) - 1
    starts = ends - np.array([len(p) for p in pieces], dtype=np.int64)
    for weak in (False, True):
        block = block_solver(Connect4(), weak)
        assert block is not None
        rows, pvs = block(b"\n".join(pieces), starts, ends)
        for line, row, pv in zip(lines, rows.tolist(), pvs.tolist(), strict=True):
            if line in ("12a4", "44444444", "1212121", "445544332"):  # bad, full, finished
                assert row[0] != 0, line
                continue
            single = solve(load("connect4", line), weak=weak, searcher=CompiledEngine(
                load("connect4", line), solver_config(Connect4()),
                workspace=CompiledSearch(extension, solver_config(Connect4()))))
            assert row[0] == 0 and row[1] == single.value and row[2] == single.stats.nodes, line
            if not weak:
                assert tuple(pv[:row[5]]) == single.pv, line
    assert block_solver(Connect4(), False, engine="python") is None


def test_a_full_clear_zeroes_only_what_solves_wrote(extension: Any) -> None:
    """At the epoch limit the table is zeroed as far as the solves since the last clear wrote
    (``C_DIRTY``, their largest table region), in ``reset`` and in the block entry alike: a
    batch of small endgames never faults in the rest of the table.  A word planted beyond
    that part stands for the untouched rest: it survives the clear, and the answers after
    the clear are those before it.
    """
    import numpy as np

    line = "2252576253462244111563365343671351441"  # 5 empty cells: a 2**12-slot region
    used = (1 << from_position("connect4", line).solve_table_bits()) - 1
    config = solver_config(Connect4())
    workspace = CompiledSearch(extension, config)
    slot = int(extension.SLOT)
    far = workspace.tt.size - 1

    def single() -> tuple[int, int]:
        result = solve(load("connect4", line), searcher=CompiledEngine(
            load("connect4", line), config, workspace=workspace))
        return result.value, result.stats.nodes

    before = single()
    assert workspace.mem[extension.C_DIRTY] == used
    assert workspace.tt[:slot * (used + 1)].any() and not workspace.tt[slot * (used + 1):].any()
    workspace.tt[far] = 12345
    workspace.mem[extension.C_EPOCH] = extension.EPOCH_LIMIT
    workspace.reset()
    assert workspace.mem[extension.C_EPOCH] == 1 and workspace.mem[extension.C_DIRTY] == 0
    assert not workspace.tt[:slot * (used + 1)].any() and workspace.tt[far] == 12345
    assert single() == before
    text = f"{line}\n{line}".encode()
    starts, ends = np.array([0, len(line) + 1]), np.array([len(line), 2 * len(line) + 1])
    workspace.mem[extension.C_EPOCH] = extension.EPOCH_LIMIT - 1  # the second line wraps
    rows, _ = workspace.block(text, starts, ends, False, True, config.guess_depth)
    assert rows[:, 1].tolist() == [before[0]] * 2 and rows[:, 2].tolist() == [before[1]] * 2
    assert workspace.mem[extension.C_EPOCH] == 1 and workspace.mem[extension.C_DIRTY] == used
    assert workspace.tt[far] == 12345


def _cli(lines: list[str], aot_on: bool, *flags: str) -> tuple[int, list[str], str]:
    """``sakiyomi solve connect4 -`` fed ``lines``; timings blanked in its answers."""
    import re

    env = {**os.environ, "SAKIYOMI_AOT": "1" if aot_on else "0"}
    done = subprocess.run([sys.executable, "-m", "sakiyomi", "solve", "connect4", "-", *flags],
                          input="".join(f"{line}\n" for line in lines), env=env,
                          capture_output=True, text=True, timeout=240)
    timing = re.compile(r'("seconds": |"microseconds": | us )[0-9.e-]+')
    return (done.returncode, [timing.sub(r"\1T", out) for out in done.stdout.splitlines()],
            done.stderr)


def test_the_batch_command_answers_the_same_in_blocks(extension: Any) -> None:
    lines = [*OWN, "  4453  ", "4453 x", "", "44444444", "1212121", "6x5:1234", "12345678",
             "2252576253462244111563365343671351441 -1", "12a4", "71717171",
             *_random_positions(10, 16, 5)]
    for flags in ((), ("--weak", "--json")):
        block = _cli(lines, True, *flags)
        single = _cli(lines, False, *flags)
        assert block == single, flags
        assert block[0] == 2 and len(block[1]) == len(lines) - 8  # 7 refused, 1 blank
        assert block[2].count("\n") == 7 and "line 5:" in block[2]  # one message each


def test_the_batch_command_names_a_line_of_text_that_was_not_utf8(extension: Any) -> None:
    # In process (sakiyomi.cli.main over a text stream), a line may hold a lone surrogate
    # (bytes decoded with surrogateescape): the block path must name it, not fail encoding it.
    import io

    from sakiyomi.cli import main

    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = io.StringIO("5\udcff4\n44444432\n"), out, err
    try:
        status = main(["solve", "connect4", "-", "--json"])
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
    assert status == 2, err.getvalue()
    assert err.getvalue().startswith("sakiyomi: line 1: ") and err.getvalue().count("\n") == 1
    assert [json.loads(line)["position"] for line in out.getvalue().splitlines()] == [
        "44444432"]


def test_prepare_builds_what_is_missing_once(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from sakiyomi.engines import prepare
    from sakiyomi.game import GameError

    built: list[tuple[str, dict[str, int]]] = []
    target = tmp_path / "extension.so"

    def build_now(module_name: str, params: dict[str, int], state: tuple[int, ...]) -> Path:
        built.append((module_name, params))
        target.write_bytes(b"")
        return target

    monkeypatch.setattr(aot, "extension_path", lambda module_name, params: target)
    monkeypatch.setattr(aot, "build_now", build_now)
    monkeypatch.setenv("SAKIYOMI_AOT", "0")
    assert [step for step, _ in prepare(Connect4())] == [
        "search and playouts ready (numba's build or cache)"]
    monkeypatch.setenv("SAKIYOMI_AOT", "1")
    assert len(prepare(Connect4(), ahead=False)) == 1 and not built
    steps = prepare(Connect4())
    assert [step for step, _ in steps][1:] == ["search built ahead of time"]
    assert built == [Connect4().kernel_spec()] and all(cpu >= 0 for _, cpu in steps)
    assert len(prepare(Connect4())) == 1 and len(built) == 1  # there already
    with pytest.raises(GameError, match="no compiled search"):
        prepare(load("tictactoe", "start"))


def test_the_compile_command() -> None:
    import json

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "sakiyomi", "compile", *args],
                              capture_output=True, text=True, timeout=240)

    done = run("connect4", "--no-ahead", "--json")
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert record["game"] == "connect4" and len(record["built"]) == 1
    for bad, word in (("chess", "no compiled search"), ("nope", "unknown game 'nope'")):
        done = run(bad)
        assert done.returncode == 2 and done.stderr.count("\n") == 1 and word in done.stderr
