"""The search template as a real module: how ``build`` assembles a generated module from it,
the kernel interface's defaults, where its constants come from, and the template itself run as
plain Python (``build(..., compiled=False)``, which coverage sees) against the Python Searcher
through the shared drivers: same values, node counts and PVs.
"""

from __future__ import annotations

import io
import random
import re
import types
from pathlib import Path
from typing import Any

import pytest

from sakiyomi import ordering, score
from sakiyomi.compiled import kernel_api, search_template
from sakiyomi.compiled.perft import PERFT
from sakiyomi.compiled.playout import PLAYOUT
from sakiyomi.compiled.template import (
    KERNEL_MARKER,
    CompiledSearch,
    build,
    compiling_notice,
    section,
    source,
)
from sakiyomi.engines import CompiledEngine, engine_for
from sakiyomi.game import Game, SearchShortcuts
from sakiyomi.games import load
from sakiyomi.games.connect4 import KERNEL_MODULE as CONNECT4
from sakiyomi.games.othello import KERNEL_MODULE as OTHELLO
from sakiyomi.games.othello import KERNEL_PARAMS
from sakiyomi.search.drivers import run
from sakiyomi.search.limits import Limits
from sakiyomi.search.result import SearchResult
from sakiyomi.search.searcher import SearchConfig, Searcher
from sakiyomi.search.solve import analyze, solve
from sakiyomi.tt import Bound
from tests.test_othello_solver import random_position

SMALL = {"WIDTH": 5, "HEIGHT": 4}


def plain_connect4() -> types.ModuleType:
    return build(CONNECT4, SMALL, compiled=False)


def defining_line(function: Any, name: str) -> str:
    """The source line that defines ``function`` (the one after its decorator)."""
    code = function.__code__
    lines = Path(code.co_filename).read_text(encoding="utf-8").splitlines()
    first = code.co_firstlineno - 1
    return next(line for line in lines[first:first + 3] if line.startswith(f"def {name}("))


def test_shared_constants_are_written_from_their_own_modules() -> None:
    expected = {"WIN": score.WIN, "MAX_PLY": score.MAX_PLY, "INF": score.INF,
                "WIN_BOUND": score.WIN_BOUND, "SOLVED": score.SOLVED,
                "TT_BONUS": ordering.TT_BONUS, "KILLER_BONUS": ordering.KILLER_BONUS,
                "HINT_SCALE": ordering.HINT_SCALE, "EXACT": int(Bound.EXACT),
                "LOWER": int(Bound.LOWER), "UPPER": int(Bound.UPPER),
                "PRESORT": 0}  # (the build switch's default; presort_params overrides it)
    assert expected == search_template.SHARED
    text = source(CONNECT4, SMALL, compiled=True)
    header = text[:text.index(KERNEL_MARKER)]
    module = plain_connect4()
    for name, value in expected.items():
        assert f"\n{name} = {value}\n" in header
        assert getattr(module, name) == value
    # ... and nothing after the header assigns them again (no copies in the template text)
    body = text[len(header):]
    for name in expected:
        assert not re.search(rf"^{name}\s*=", body, re.M), name


def test_generated_text_is_header_hooks_kernels_search_in_that_order() -> None:
    text = source(OTHELLO, dict(KERNEL_PARAMS), compiled=True)
    parts = [section(name).text for name in
             ("sakiyomi.compiled.kernel_api", OTHELLO, "sakiyomi.compiled.search_template",
              "sakiyomi.probes")]
    at = [text.index(part) for part in parts]
    assert at == sorted(at) and text.endswith(parts[-1] + PLAYOUT + PERFT)  # then playouts, perft
    assert "kernel = njit(" in text[:at[0]]
    leaf = dict(KERNEL_PARAMS)["LEAF"]
    assert f"\nLEAF = {leaf}\n" in text[:at[0]]  # the build parameters, in the header


def test_plain_build_runs_each_section_under_its_own_file_and_lines() -> None:
    module = plain_connect4()
    assert module.t_search.__code__.co_filename == search_template.__file__
    assert defining_line(module.t_search, "t_search").startswith("def t_search(state")
    assert defining_line(module.t_store, "t_store")
    assert module.k_play.__code__.co_filename.endswith(str(Path("connect4", "kernels.py")))
    assert defining_line(module.k_play, "k_play")
    assert module.k_cutoff.__code__.co_filename == kernel_api.__file__
    assert defining_line(module.k_cutoff, "k_cutoff")


def test_optional_hooks_default_off_and_a_game_replaces_them() -> None:
    c4 = plain_connect4()
    assert not c4.HAS_LEAF_SOLVER and not c4.HAS_CUTOFF
    mem, _ = c4.make_workspace(16)
    state = c4.make_state(0, 0, 0)
    assert c4.k_leaf_solve(state, 3, -1, 1, mem) == (False, 0)
    assert c4.k_cutoff(state, -1, 1) == (False, 0)
    othello = build(OTHELLO, dict(KERNEL_PARAMS), compiled=False)
    assert othello.HAS_LEAF_SOLVER and othello.HAS_CUTOFF
    assert othello.k_leaf_solve.__code__.co_filename.endswith(str(Path("othello", "kernels.py")))


def test_prefetch_is_a_hint_in_compiled_code_and_a_no_op_in_plain_python() -> None:
    """The header's ``prefetch`` compiles to LLVM's prefetch instruction and changes nothing
    (any index, even past the end: a prefetch never faults); Connect Four turns the hook on,
    the default leaves it off; the plain build's prefetch does nothing.
    """
    numba = pytest.importorskip("numba")
    import numpy as np

    from sakiyomi.compiled.prefetch import prefetch

    def touched_py(table: Any, far: int) -> int:
        total = 0
        for i in range(len(table)):
            prefetch(table, i)
            prefetch(table, far)
            total += int(table[i])
        return total

    touched: Any = numba.njit(cache=False)(touched_py)

    table = np.arange(64, dtype=np.uint64)
    assert touched(table, 1 << 40) == 64 * 63 // 2
    assert "prefetch" in touched.inspect_asm(touched.signatures[0])
    assert not kernel_api.PREFETCH_CHILDREN
    c4 = plain_connect4()
    assert c4.PREFETCH_CHILDREN and c4.prefetch(table, 3) is None


def test_plain_and_compiled_sources_differ_only_in_the_header() -> None:
    plain = source(CONNECT4, SMALL, compiled=False)
    fast = source(CONNECT4, SMALL, compiled=True)
    assert plain[plain.index(KERNEL_MARKER):] == fast[fast.index(KERNEL_MARKER):]
    assert "njit" not in plain[:plain.index(KERNEL_MARKER)]


def test_a_change_to_a_module_the_header_imports_names_a_new_generated_module(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """numba's cache checks only the generated file's stamp: a change to the prefetch module
    the compiled header imports must give the generated module a new name (compiled afresh),
    and the plain build, which does not import it, keeps its name.
    """
    from sakiyomi.compiled import template

    before = template.generated_name(CONNECT4, SMALL)
    plain_before = source(CONNECT4, SMALL, compiled=False)
    original = template.kernel_file("sakiyomi.compiled.prefetch")
    edited = tmp_path / "prefetch.py"
    edited.write_text(original.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    real = template.kernel_file
    monkeypatch.setattr(template, "kernel_file",
                        lambda name: edited if name == "sakiyomi.compiled.prefetch" else real(name))
    assert template.generated_name(CONNECT4, SMALL) != before
    assert source(CONNECT4, SMALL, compiled=False) == plain_before


def test_a_change_to_a_module_the_kernels_import_indirectly_names_a_new_module(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Othello kernels import the endgame solver, which imports the rules: numba compiles
    the rules into the generated module's cached code, so an edit to them must rename it (and
    the plain build, which imports them afresh each time, keeps its name).
    """
    from sakiyomi.compiled import template

    params = dict(KERNEL_PARAMS)
    before = template.generated_name(OTHELLO, params)
    plain_before = source(OTHELLO, params, compiled=False)
    rules = "sakiyomi.games.othello.rules"
    edited = tmp_path / "rules.py"
    edited.write_text(template.kernel_file(rules).read_text(encoding="utf-8") + "\n# edited\n",
                      encoding="utf-8")
    real = template.kernel_file
    monkeypatch.setattr(template, "kernel_file",
                        lambda name: edited if name == rules else real(name))
    assert template.generated_name(OTHELLO, params) != before
    assert source(OTHELLO, params, compiled=False) == plain_before


def test_kernel_api_placeholders_are_not_kernels() -> None:
    with pytest.raises(NotImplementedError, match="kernel module"):
        kernel_api.k_play((0,), 0)
    with pytest.raises(NotImplementedError, match="kernel module"):
        kernel_api.make_state(0)


def test_template_module_imports_on_its_own() -> None:
    mem, tt = search_template.make_workspace(8)
    assert len(mem) == search_template.MEM_SIZE and len(tt) == 16
    assert mem[search_template.C_MASK] == 7


def test_a_module_without_marker_is_refused_clearly() -> None:
    with pytest.raises(ImportError, match="no line starting '# ---- KERNELS'"):
        section("sakiyomi.score")
    with pytest.raises(ImportError, match="no kernel module"):
        section("sakiyomi.no_such_kernels")


# ---- the template in plain Python against the Python Searcher --------------------------------

SETTINGS = [
    SearchConfig(tt_capacity=1 << 12),
    SearchConfig(tt_capacity=1 << 10, bisection="pons"),
    SearchConfig(tt=False, killers=False, history=False),
    SearchConfig(tt_capacity=1 << 8, pvs=False, hints=False),
]


def plain_engine(game: Game[int], config: SearchConfig) -> CompiledEngine:
    """The compiled engine's adapter over the plain-Python build of the template."""
    module_name, params = game.kernel_spec()  # type: ignore[attr-defined]
    module = build(module_name, params, compiled=False)
    shortcuts = isinstance(game, SearchShortcuts)
    return CompiledEngine(game.copy(), config,
                          workspace=CompiledSearch(module, config, shortcuts=shortcuts))


def same(fast: SearchResult[int], python: SearchResult[int]) -> None:
    assert (fast.value, fast.best_move, fast.pv) == (python.value, python.best_move, python.pv)
    assert fast.stats.nodes == python.stats.nodes
    assert fast.stats.leaves == python.stats.leaves
    assert fast.stats.tt_hits == python.stats.tt_hits
    assert fast.stats.cutoffs == python.stats.cutoffs


@pytest.mark.parametrize("config", SETTINGS, ids=["tt", "pons", "no-tt", "no-pvs"])
@pytest.mark.parametrize("position", ["4x4:1234", "4x4:1234312", "5x4:33441",
                                      "2252576253462244111563365343671351441"])
def test_plain_template_solves_connect4_like_the_searcher(position: str,
                                                          config: SearchConfig) -> None:
    game = load("connect4", position)
    for weak in (False, True):
        python = solve(game.copy(), config, weak=weak)
        engine = plain_engine(game, config)
        same(solve(engine.game, weak=weak, searcher=engine), python)


@pytest.mark.parametrize("config", SETTINGS[:3], ids=["tt", "pons", "no-tt"])
def test_plain_template_deepens_like_the_searcher(config: SearchConfig) -> None:
    """Depth-limited iterations reach the evaluation and the horizon bookkeeping."""
    game = load("connect4", "4453")
    python = run(Searcher(game.copy(), config), Limits(depth=6))
    same(run(plain_engine(game, config), Limits(depth=6)), python)


def test_plain_template_analyzes_like_the_searcher() -> None:
    game = load("connect4", "4x4:1234")
    config = SETTINGS[0]
    python_moves, python_nodes = analyze(game.copy(), None, config)
    engine = plain_engine(game, config)
    moves, nodes = analyze(engine.game, None, config, searcher=engine)
    assert nodes == python_nodes
    assert [(m.move, m.value, m.pv) for m in moves] == \
        [(m.move, m.value, m.pv) for m in python_moves]


random_endgame = random_position  # a position with that many empties from a random game


def test_plain_template_solves_othello_like_the_searcher() -> None:
    rng = random.Random(11)
    config = SearchConfig(killers=False, history=False, tt_capacity=1 << 12,
                          leaf_solver=False, cutoff=False)
    for empties in (5, 7, 8):
        game = random_endgame(rng, empties)
        python = solve(game.copy(), config)
        engine = plain_engine(game, config)
        same(solve(engine.game, searcher=engine), python)


def test_plain_template_with_othello_hooks_matches_numba_and_the_searcher() -> None:
    """The endgame hooks (leaf solver, stability cut-off) on: plain Python and numba run the
    same generated code, and the Searcher runs the same hooks (SubtreeHooks)."""
    rng = random.Random(12)
    config = SearchConfig(killers=False, history=False, tt_capacity=1 << 12)
    for empties in (7, 9):
        game = random_endgame(rng, empties)
        numba = engine_for(game.copy(), config, engine="compiled")
        fast = solve(numba.game, searcher=numba)
        engine = plain_engine(game, config)
        same(solve(engine.game, searcher=engine), fast)
        same(fast, solve(game.copy(), config))


class _Terminal(io.StringIO):
    """A text stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_compiling_notice_says_one_line_on_a_terminal_the_first_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SAKIYOMI_CACHE", str(tmp_path))
    kernels = "sakiyomi.games.connect4.kernels"
    params = {"WIDTH": 5, "HEIGHT": 4}
    first, again, piped = _Terminal(), _Terminal(), io.StringIO()
    with compiling_notice(kernels, params, "the connect4 search", stream=first):
        pass
    with compiling_notice(kernels, params, "the connect4 search", stream=again):
        pass
    with compiling_notice(kernels, {"WIDTH": 6, "HEIGHT": 4}, "the search", stream=piped):
        pass
    assert first.getvalue().count("\n") == 1 and "compiling the connect4 search" in (
        first.getvalue())
    assert again.getvalue() == "" and piped.getvalue() == ""
    with pytest.raises(RuntimeError), compiling_notice(kernels, params, "x", stream=again):
        raise RuntimeError  # a failed build leaves no mark: said again next time
    for _ in range(2):
        with compiling_notice(kernels, params, "x", stream=again):
            pass
    assert again.getvalue().count("\n") == 2
