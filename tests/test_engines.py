"""The one engine interface: every driver on both engines, live stop, progress, engine choice.

DESIGN.md §1.8: the compiled template and the Python Searcher are the same algorithm, so every
driver written once against the Engine protocol must give equal values, principal variations
and node counts on both (Connect Four and Othello positions, several settings).
"""

from __future__ import annotations

import os
import pty
import random
import select
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import fields, replace
from typing import Any

import pytest

from sakiyomi.engines import (
    COMPILED_FIELDS,
    SOLVER_CONFIG,
    CompiledEngine,
    EngineSession,
    engine_for,
    python_only_settings,
    search_position,
    solve_position,
    solver_config,
)
from sakiyomi.game import Game, GameError
from sakiyomi.games import load
from sakiyomi.games.connect4 import Connect4
from sakiyomi.games.othello import Othello
from sakiyomi.search.drivers import run
from sakiyomi.search.engine import Engine
from sakiyomi.search.limits import Limits, StopSignal
from sakiyomi.search.searcher import SearchConfig, Searcher
from sakiyomi.search.solve import analyze, multipv, solve
from tests.test_othello_solver import random_position

BEGIN_HARD = "5455221"  # not solved in a fraction of a second by either engine

C4_CONFIGS = [
    SOLVER_CONFIG,
    SearchConfig(),  # killers and history on, zero-first bisection, 2**18 slots
    SearchConfig(tt_capacity=1 << 8, pvs=False, ordering=False),  # replacement, plain αβ
    replace(SOLVER_CONFIG, presort_depth=2),  # seed 003's shallow pre-search
]
OTHELLO_CONFIGS = [  # the game's subtree hooks (last-empties solver, stability) on and off
    SearchConfig(killers=False, history=False, tt_capacity=1 << 16),
    SearchConfig(tt_capacity=1 << 10, cutoff=False),
    SearchConfig(tt=False, leaf_solver=False, cutoff=False),
    SearchConfig(killers=False, tt_capacity=1 << 12, presort_depth=1),  # seed 003's presort
]


def counters(engine: Engine[Any]) -> tuple[int, ...]:
    s = engine.stats
    return (s.nodes, s.leaves, s.tt_probes, s.tt_hits, s.tt_cutoffs, s.cutoffs,
            s.first_move_cutoffs, s.researches, s.seldepth)


def othello_position(seed: int, empties: int) -> Othello:
    return random_position(random.Random(seed), empties)


Driver = Callable[[Engine[Any]], object]

DRIVERS: dict[str, Driver] = {
    "iterative-deepening": lambda e: run(e, Limits(depth=5)).value,
    "mtdf": lambda e: run(e, Limits(depth=4), use_mtdf=True).value,
    "aspiration": lambda e: run(e, Limits(depth=5), aspiration_delta=2).value,
    "exact": lambda e: solve(e.game, searcher=e).value,
    "weak": lambda e: solve(e.game, searcher=e, weak=True).value,
    "analyze-exact": lambda e: [(m.move, m.value) for m in analyze(e.game, None,
                                                                    searcher=e)[0]],
    "analyze-depth": lambda e: [(m.move, m.value) for m in analyze(e.game, 3, searcher=e)[0]],
    "multipv": lambda e: [(d, [(m.move, m.value) for m in vs])
                          for d, vs, _ in multipv(e, Limits(depth=3))],
}


def both(game: Game[Any], config: SearchConfig, driver: Driver) -> None:
    python = engine_for(game.copy(), config, engine="python")
    compiled = engine_for(game.copy(), config, engine="compiled")
    assert isinstance(python, Searcher) and isinstance(compiled, CompiledEngine)
    got_python, got_compiled = driver(python), driver(compiled)
    assert got_python == got_compiled
    assert counters(python) == counters(compiled)
    assert python.pv == compiled.pv and python.root_best_move == compiled.root_best_move


@pytest.mark.parametrize("driver", list(DRIVERS))
@pytest.mark.parametrize("config", range(len(C4_CONFIGS)),
                         ids=["solver", "default", "plain", "presort"])
def test_every_driver_agrees_on_connect4(driver: str, config: int) -> None:
    for position in ("4453", "44455554221", "3344553"):
        game = load("connect4", position)
        if driver in ("exact", "weak", "analyze-exact") and len(position) < 8:
            continue  # solving the opening in Python takes minutes
        both(game, C4_CONFIGS[config], DRIVERS[driver])


@pytest.mark.parametrize("driver", ["iterative-deepening", "mtdf", "aspiration",
                                    "analyze-depth", "multipv"])
def test_depth_drivers_agree_on_connect4_without_table_or_shortcuts(driver: str) -> None:
    """The Python Searcher's bare αβ (leaves scored without the node call, in the parent's
    loop) against the compiled search: same answers, counters and PV (depth-limited drivers
    only: an exact solve without a table takes minutes in Python).
    """
    bare = SearchConfig(tt=False, pvs=False, ordering=False, shortcuts=False)
    for position in ("4453", "3344553", "1234567"):
        both(load("connect4", position), bare, DRIVERS[driver])


@pytest.mark.parametrize("driver", list(DRIVERS))
@pytest.mark.parametrize("config", range(len(OTHELLO_CONFIGS)),
                         ids=["hooks", "small-solver-only", "no-tt-no-hooks", "presort"])
def test_every_driver_agrees_on_othello(driver: str, config: int) -> None:
    for seed, empties in ((1, 7), (2, 11)):
        both(othello_position(seed, empties), OTHELLO_CONFIGS[config], DRIVERS[driver])


def test_engine_choice() -> None:
    c4 = load("connect4", "44")
    assert isinstance(engine_for(c4), CompiledEngine)
    assert isinstance(engine_for(c4, engine="python"), Searcher)
    assert isinstance(engine_for(load("tictactoe", "start")), Searcher)
    with pytest.raises(GameError, match="no compiled kernels"):
        engine_for(load("tictactoe", "start"), engine="compiled")
    with pytest.raises(GameError, match="unknown engine"):
        engine_for(c4, engine="fast")
    assert solver_config(c4) == SOLVER_CONFIG
    assert solver_config(Othello()).tt_capacity == 1 << 22


PYTHON_ONLY = [  # a setting of each kind the compiled template does not carry out
    SearchConfig(mate_distance=True),
    SearchConfig(history_malus=True),
    SearchConfig(counter_moves=True),
]


@pytest.mark.parametrize("config", PYTHON_ONLY, ids=lambda c: python_only_settings(c)[0])
def test_settings_of_the_python_searcher_alone_are_never_ignored(config: SearchConfig) -> None:
    # "auto" searches them on the Python engine (the same tree as asking for it), "compiled"
    # refuses them by name, instead of a compiled search that would quietly leave them out.
    name = python_only_settings(config)[0]
    game = load("connect4", "4453")
    auto = engine_for(game.copy(), config)
    assert isinstance(auto, Searcher)
    python = engine_for(game.copy(), config, engine="python")
    limits = Limits(depth=6)
    assert run(auto, limits).stats == run(python, limits).stats
    with pytest.raises(GameError, match=f"compiled engine has no {name}"):
        engine_for(game.copy(), config, engine="compiled")
    for kind in ("auto", "python"):
        assert isinstance(EngineSession(config, kind).engine(game.copy()), Searcher)
    with pytest.raises(GameError, match=f"compiled engine has no {name}"):
        EngineSession(config, "compiled").engine(game.copy())


def test_every_search_setting_is_placed_on_an_engine() -> None:
    # A new SearchConfig field is either in COMPILED_FIELDS (the template carries it out: then
    # a parity test above covers it) or Python-only: away from its default it moves the search
    # to the Python engine.
    for field in fields(SearchConfig):
        if field.name in COMPILED_FIELDS:
            continue
        default = getattr(SearchConfig(), field.name)
        other: Any = (not default if isinstance(default, bool)
                         else default + 1 if isinstance(default, int)
                         else (*default, 1) if isinstance(default, tuple) else "x")
        config = replace(SearchConfig(), **{field.name: other})
        assert python_only_settings(config) == [field.name]
    assert python_only_settings(SOLVER_CONFIG) == []
    assert python_only_settings(solver_config(Othello())) == []


def test_same_command_same_nodes_on_both_engines() -> None:
    game = load("connect4", "4453")
    results = [search_position(game, Limits(depth=7), engine=e) for e in ("python", "compiled")]
    assert results[0].extra["engine"] == "python" and results[1].extra["engine"] == "compiled"
    assert results[0].stats == results[1].stats
    assert results[0].pv == results[1].pv and results[0].value == results[1].value


def test_compiled_solve_stops_within_its_time_and_keeps_what_it_proved() -> None:
    game = load("connect4", BEGIN_HARD)
    solve_position(game, weak=True, limits=Limits(nodes=1000))  # load the compiled code first
    start = time.perf_counter()
    result = solve_position(game, limits=Limits(time=0.2))
    elapsed = time.perf_counter() - start
    assert result.extra["engine"] == "compiled"
    assert not result.complete and result.extra["result"] == "unknown"
    assert elapsed < 0.3 + 0.2  # 0.2 s of search, answered within 0.3 s (+ slack for load)
    lower, upper = result.extra["lower"], result.extra["upper"]
    assert isinstance(lower, int) and isinstance(upper, int) and lower < upper
    assert result.stats.nodes > 10_000  # it really searched
    exact = solve_position(game, weak=True, engine="compiled")  # the true value is inside
    assert (exact.value > 0 and upper > 0) or (exact.value < 0 and lower < 0) or (
        exact.value == 0 and lower <= 0 <= upper)


def test_compiled_search_stops_on_request_from_another_thread() -> None:
    signal = StopSignal()
    engine = engine_for(load("connect4", BEGIN_HARD), stop=signal)
    assert isinstance(engine, CompiledEngine)
    done: list[float] = []
    seen: list[int] = []

    def work() -> None:
        solve(engine.game, searcher=engine)
        done.append(time.perf_counter())

    thread = threading.Thread(target=work)
    thread.start()
    time.sleep(0.2)
    seen.append(engine.stats.nodes)  # live counters while it runs
    time.sleep(0.05)
    seen.append(engine.stats.nodes)
    asked = time.perf_counter()
    signal.stop()
    thread.join(5)
    assert done and done[0] - asked < 0.1  # the loop polls about every millisecond
    assert 0 < seen[0] < seen[1]


def test_node_limit_is_exact_on_the_compiled_engine() -> None:
    engine = engine_for(load("connect4", BEGIN_HARD), stop=StopSignal(nodes=12_345))
    result = run(engine, Limits())
    assert engine.stats.nodes == 12_346  # the node that found the budget spent, no more
    assert result.best_move is not None


@pytest.mark.parametrize("kind", ["python", "compiled"])
def test_run_honours_the_node_budget_of_its_limits(kind: str) -> None:
    # The engine's own signal has no budget: run() must add the one its limits give.
    engine = engine_for(load("connect4", BEGIN_HARD), engine=kind)
    result = run(engine, Limits(nodes=12_345))
    assert 12_345 <= engine.stats.nodes <= 12_346, engine.stats.nodes
    assert result.best_move is not None and not result.complete


def test_a_time_limit_moves_an_armed_deadline_earlier() -> None:
    signal = StopSignal(seconds=1000.0)
    fired: list[bool] = []
    signal.on_stop(lambda: fired.append(True))  # arms the 1000 s timer
    signal.tighten(Limits(time=0.0))
    deadline = time.perf_counter() + 5.0
    while not fired and time.perf_counter() < deadline:
        time.sleep(0.01)
    assert fired and signal.stopped()
    later = StopSignal(nodes=10)
    later.tighten(Limits(nodes=99, time=1000.0))
    assert later.node_limit == 10 and later.deadline is not None


def test_session_keeps_one_table_across_positions() -> None:
    session = EngineSession()
    game = load("connect4", "4453")
    first = session.engine(game.copy())
    run(first, Limits(depth=8))
    cold = first.stats.nodes
    second = session.engine(game.copy())
    assert second is first  # the compiled engine (and its table) is reused
    run(second, Limits(depth=8))
    assert second.stats.nodes - cold < cold / 2  # the kept table answers most of it
    python = EngineSession(engine="python")
    a = python.engine(load("tictactoe", "start"))
    run(a, Limits(depth=4))
    b = python.engine(load("tictactoe", "x........"))
    assert isinstance(a, Searcher) and isinstance(b, Searcher) and a.tt is b.tt


def test_solve_shows_live_progress_on_a_terminal() -> None:
    main, child = pty.openpty()
    env = {**os.environ, "COLUMNS": "120", "TERM": "xterm"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "sakiyomi", "solve", "connect4", BEGIN_HARD, "--weak",
         "--time", "3"], stdin=child, stdout=child, stderr=child, env=env)
    os.close(child)
    out = b""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([main], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(main, 4096)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
        elif proc.poll() is not None:
            break
    proc.wait(10)
    os.close(main)
    text = out.decode(errors="replace")
    assert "nodes/s" in text and "solving" in text  # the live status line
    assert f"{BEGIN_HARD} " in text  # then the result line


def test_connect4_class_is_a_kernel_game() -> None:
    assert isinstance(engine_for(Connect4(6, 5)), CompiledEngine)


def test_compiled_solve_line_is_the_python_probe_sequence() -> None:
    """The compiled engine answers a solve in one call (``solve_line``: the probes of
    ``sakiyomi.probes`` compiled); the Python engine runs the same sequence probe by probe.
    Both give the same value, node count, PV and best move on random Connect Four positions
    (exact, weak, without the PV search), and, stopped by a node budget, the same interval
    and move proved so far.
    """
    rng = random.Random(12)
    checked = 0
    while checked < 6:
        game = load("connect4", "")
        for _ in range(rng.randint(16, 26)):
            game.play(rng.choice(list(game.legal_moves())))
            if game.outcome() is not None:
                break
        if game.outcome() is not None:
            continue
        checked += 1
        for weak, with_pv, nodes in ((False, True, None), (True, True, None),
                                     (False, False, None), (False, True, 40), (True, True, 30)):
            limits = Limits(nodes=nodes)
            ours, theirs = (solve_position(game, weak=weak, with_pv=with_pv, engine=kind,
                                           limits=limits) for kind in ("compiled", "python"))
            assert ours.extra["engine"] == "compiled" and theirs.extra["engine"] == "python"
            assert (ours.complete, ours.value, ours.best_move, ours.pv) == (
                theirs.complete, theirs.value, theirs.best_move, theirs.pv)
            if ours.complete:  # (a stopped compiled search also counts the node it stopped at)
                assert ours.stats.nodes == theirs.stats.nodes
            assert (ours.extra.get("lower"), ours.extra.get("upper")) == (
                theirs.extra.get("lower"), theirs.extra.get("upper"))


@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_an_exact_solve_walks_its_line_to_the_end_of_the_game(engine: str) -> None:
    """``probes.l_walk``: the PV of an exact solve is a line of legal moves to a finished game
    along which every position has the root's value (Connect Four's scores count stones, so a
    child's value is its parent's negated), also with a table far smaller than the tree.
    """
    for position, capacity in (("3344553", 1 << 20), ("44455554221", 1 << 20),
                               ("3344553", 1 << 6)):
        game = load("connect4", position)
        config = replace(solver_config(game), tt_capacity=capacity)
        searcher = engine_for(game.copy(), config, engine=engine)
        result = solve(searcher.game, searcher=searcher)
        assert result.best_move == result.pv[0]
        value = result.value
        walked = game.copy()
        for move in result.pv:
            assert move in walked.legal_moves()
            walked.play(move)
            value = -value
            if walked.outcome() is None:
                check = engine_for(walked.copy(), solver_config(walked), engine="compiled")
                assert solve(check.game, searcher=check, with_pv=False).value == value
        assert walked.outcome() is not None


@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_a_solve_stopped_in_its_walk_keeps_the_value_and_the_line_so_far(engine: str) -> None:
    """A node budget that runs out after the bisection, inside the walk of the PV: the value
    stands (complete) and the PV is the part of the full line walked until then.
    """
    game = load("connect4", "54253642437531")
    config = replace(solver_config(game), tt_capacity=1 << 12)  # the walk has to search

    def fresh(stop: StopSignal | None = None) -> Engine[Any]:
        return engine_for(game.copy(), config, engine=engine, stop=stop)

    full = solve(game, searcher=fresh())
    bare = solve(game, searcher=fresh(), with_pv=False)
    assert full.stats.nodes > bare.stats.nodes + 1000
    budget = (full.stats.nodes + bare.stats.nodes) // 2
    searcher = fresh(StopSignal(nodes=budget))
    result = solve(searcher.game, searcher=searcher)
    assert result.complete and result.value == full.value
    assert 0 < len(result.pv) < len(full.pv) and full.pv[:len(result.pv)] == result.pv
    assert result.best_move == full.best_move


def test_the_presort_is_compiled_only_into_its_own_build() -> None:
    # The usual build leaves step 4b out (no cost per node); a presort search gets a second
    # build, and a workspace of the usual build refuses a presort config.
    from sakiyomi.compiled.template import CompiledSearch, build, presort_params

    game = load("connect4", "4453")
    module_name, params = game.kernel_spec()  # type: ignore[attr-defined]
    presort = replace(SOLVER_CONFIG, presort_depth=2)
    assert presort_params(params, SOLVER_CONFIG) == params
    usual, with_presort = build(module_name, params), build(module_name,
                                                            presort_params(params, presort))
    assert usual.PRESORT == 0 and with_presort.PRESORT == 1 and usual is not with_presort
    with pytest.raises(ValueError, match="PRESORT=1"):
        CompiledSearch(usual, presort)
    engine = engine_for(game.copy(), presort, engine="compiled")
    assert isinstance(engine, CompiledEngine) and engine._search.module is with_presort
