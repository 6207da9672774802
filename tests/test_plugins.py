"""Games from other installed packages (entry-point group ``sakiyomi.games``).

In-process tests put hand-written distributions (a ``*.dist-info`` folder with
``entry_points.txt``) on ``sys.path``; the end-to-end test installs real packages with pip
(``--target``) and runs the ``sakiyomi`` command on them in a subprocess.
"""

from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from sakiyomi.cli import main
from sakiyomi.game import GameError
from sakiyomi.games import BUILTIN, GAMES, GameInfo, Registry, load

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"

# A complete game in one module: take 1 or 2 stones, who takes the last one wins.
TINY_GAME = '''
"""Take 1 or 2: who takes the last stone wins."""

SUMMARY = "take 1 or 2 stones; who takes the last wins"
START = "7"


class Take:
    ACYCLIC = True

    def __init__(self, stones):
        self.stones, self.moves = stones, []

    @property
    def to_move(self):
        from sakiyomi.game import Player
        return Player(len(self.moves) % 2)

    def legal_moves(self):
        return [t for t in (1, 2) if t <= self.stones]

    def play(self, move):
        self.stones -= move
        self.moves.append(move)

    def undo(self):
        self.stones += self.moves.pop()

    def outcome(self):
        from sakiyomi.game import Outcome
        return Outcome(self.to_move.other, "last stone taken") if self.stones == 0 else None

    def evaluate(self):
        return 0

    def key(self):
        return self.stones * 2 + len(self.moves) % 2

    def copy(self):
        clone = Take(self.stones)
        clone.moves = list(self.moves)
        return clone

    def move_to_text(self, move):
        return str(move)

    def move_from_text(self, text):
        from sakiyomi.game import MoveError
        if text.strip() not in ("1", "2") or int(text) > self.stones:
            raise MoveError(f"take 1 or 2 stones, at most {self.stones}")
        return int(text)


def from_position(name, text):
    if not text.strip().isdigit():
        raise ValueError(f"{text!r} is not a number of stones")
    return Take(int(text))
'''

Install = Callable[..., Path]


@pytest.fixture
def install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Install]:
    """Write a distribution by hand: its modules and its ``sakiyomi.games`` entry points."""
    site = tmp_path / "site"
    site.mkdir()
    monkeypatch.syspath_prepend(str(site))
    written: list[str] = []

    def write(dist: str, points: dict[str, str], modules: dict[str, str]) -> Path:
        info = site / f"{dist}-1.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n")
        lines = "".join(f"{name} = {value}\n" for name, value in points.items())
        (info / "entry_points.txt").write_text(f"[sakiyomi.games]\n{lines}")
        for module, text in modules.items():
            (site / f"{module}.py").write_text(textwrap.dedent(text))
            written.append(module)
        importlib.invalidate_caches()
        GAMES.refresh()
        return site

    yield write
    for module in written:
        sys.modules.pop(module, None)
    GAMES.refresh()  # the next lookup reads the (restored) path again


def test_a_plugin_module_is_a_game_by_name(install: Install) -> None:
    install("takeplug", {"take": "takeplug_game"}, {"takeplug_game": TINY_GAME})
    assert "take" in GAMES and "take" in list(GAMES) and len(GAMES) == len(BUILTIN) + 1
    info = GAMES["take"]
    assert info == GameInfo("take", "takeplug_game", "take 1 or 2 stones; who takes the last wins",
                            "7", origin="takeplug")
    game = load("take", "7")
    assert [game.move_to_text(m) for m in game.legal_moves()] == ["1", "2"]


def test_a_plugin_may_give_a_game_info(install: Install) -> None:
    install("infoplug", {"take2": "infoplug_info:GAME"}, {
        "infoplug_info": """
            from sakiyomi.games import GameInfo
            GAME = GameInfo("any name", "infoplug_rules", "Take, by GameInfo", "5")
        """,
        "infoplug_rules": TINY_GAME,
    })
    info = GAMES["take2"]
    assert (info.name, info.module, info.summary, info.start) == (
        "take2", "infoplug_rules", "Take, by GameInfo", "5")
    assert info.origin == "infoplug" and info.error is None
    assert load("take2", "5").legal_moves() == [1, 2]


def test_the_cli_solves_a_plugin_game(install: Install,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    install("takeplug", {"take": "takeplug_game"}, {"takeplug_game": TINY_GAME})
    for stones, word in ((7, "win"), (9, "loss")):  # losses: multiples of 3
        assert main(["solve", "take", str(stones), "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["result"] == word
    assert main(["solve", "take", "many"]) == 2
    assert capsys.readouterr().err == "sakiyomi: error: take position 'many': " \
        "'many' is not a number of stones\n"


@pytest.mark.parametrize(("module", "words"), [
    ("raise RuntimeError('the rules are missing')", "RuntimeError: the rules are missing"),
    ("import no_such_module_anywhere", "No module named 'no_such_module_anywhere'"),
    ("RULES = 1", "has no from_position"),
    ("raise ValueError('two\\nlines')", "ValueError: two lines"),
])
def test_a_broken_plugin_gives_one_clear_error(install: Install, module: str, words: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    install("badplug", {"bad": "badplug_game", "take": "badplug_take"},
            {"badplug_game": module, "badplug_take": TINY_GAME})
    assert "bad" in GAMES and words in GAMES["bad"].summary  # listed, with the reason
    with pytest.raises(GameError, match="game 'bad' from badplug"):
        load("bad", "start")
    assert main(["solve", "bad", "start"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err and "entry point 'badplug_game'" in err
    assert main(["solve", "take", "4"]) == 0  # the same package's other game still works
    assert main(["solve", "nim", "1,2"]) == 0  # and every built-in one
    assert [info.name for info in GAMES.values()] == sorted([*BUILTIN, "bad", "take"])


def test_an_entry_point_that_is_no_game(install: Install) -> None:
    install("oddplug", {"odd": "oddplug_mod:VALUE"}, {"oddplug_mod": "VALUE = 42\n"})
    with pytest.raises(GameError, match="oddplug_mod:VALUE is a int, neither a module nor"):
        load("odd", "start")


def test_built_in_names_cannot_be_taken_over(install: Install) -> None:
    install("shadowplug", {"nim": "shadowplug_game"}, {"shadowplug_game": TINY_GAME})
    assert GAMES["nim"] is BUILTIN["nim"] and len(GAMES) == len(BUILTIN)
    assert load("nim", "1,2").legal_moves()


def test_a_name_registered_twice_is_an_error(install: Install) -> None:
    install("oneplug", {"take": "oneplug_game"}, {"oneplug_game": TINY_GAME})
    install("twoplug", {"take": "twoplug_game"}, {"twoplug_game": TINY_GAME})
    with pytest.raises(GameError, match=r"more than one installed package \(oneplug, twoplug\)"):
        load("take", "3")


def test_built_in_games_never_read_the_installed_packages() -> None:
    registry = Registry(BUILTIN)
    assert "connect4" in registry and registry["nim"] is BUILTIN["nim"]
    assert registry._points is None  # entry points are read only when a name is not built in
    assert "no such game" not in registry and registry._points is not None
    with pytest.raises(KeyError):
        registry["no such game"]


def test_unknown_game_names_the_known_ones(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "hexx", "start"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("sakiyomi: error: argument GAME: invalid choice: 'hexx' (choose from")
    assert "'connect4'" in err and err.count("\n") == 1


# ---- end to end: real packages installed with pip, the command in a subprocess -------------


def test_installed_plugin_packages_work_from_the_command_line(tmp_path: Path) -> None:
    tiny = tmp_path / "tiny"
    (tiny / "tiny_take").mkdir(parents=True)
    (tiny / "tiny_take" / "__init__.py").write_text(TINY_GAME)
    (tiny / "pyproject.toml").write_text(textwrap.dedent("""
        [build-system]
        requires = ["setuptools>=61"]
        build-backend = "setuptools.build_meta"

        [project]
        name = "tiny-take"
        version = "1.0"

        [project.entry-points."sakiyomi.games"]
        take = "tiny_take"
    """))
    hex_copy = tmp_path / "hex"  # pip builds in the source folder: keep examples/ clean
    shutil.copytree(ROOT / "examples" / "hex", hex_copy)
    target = tmp_path / "target"
    pip = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
         "--no-build-isolation", "--target", str(target), str(tiny), str(hex_copy)],
        capture_output=True, text=True, timeout=600)
    assert pip.returncode == 0, pip.stderr
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(target), str(SRC)])}

    def sakiyomi(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "sakiyomi", *args], env=env,
                              capture_output=True, text=True, timeout=600, cwd=tmp_path)

    out = sakiyomi("solve", "take", "10", "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["result"] == "win"  # 10 is not a multiple of 3
    # Hex: kernels from the installed package, on the compiled engine.
    out = sakiyomi("solve", "hex", "b2 c2 b3", "--json", "--engine", "compiled")
    assert out.returncode == 0, out.stderr
    record = json.loads(out.stdout)
    assert record["result"] == "loss"
    assert len(record["pv"]) == 4  # O to move loses in 4 plies (the oracle in test_example_hex)
    out = sakiyomi("play", "hex", "--first", "cpu", "--second", "cpu", "--depth", "3",
                   "--position", "b2 c2")  # 4×4 again: the same compiled build
    assert out.returncode == 0 and "X" in out.stdout, out.stderr
    out = sakiyomi("solve", "--help")
    assert out.returncode == 0 and "hex" in out.stdout and "take" in out.stdout
    out = sakiyomi("solve", "hex", "z9")
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "z9" in out.stderr
