"""The compiled shogi kernels load when a game first needs them or at the USI engine's
``isready``, not when the engine starts: ``usiok`` does not wait for numba (about 4 s on an
empty cache)."""

from __future__ import annotations

import subprocess
import sys

KERNELS = ("sakiyomi.games.shogi_eval_kernel", "sakiyomi.games.shogi_exchange",
           "sakiyomi.games.shogi_rescore", "sakiyomi.games.shogi_threats")

SESSION = f"""
import io, sys
from sakiyomi.protocols.engine_loop import Output
from sakiyomi.protocols.usi import UsiEngine
stream = io.StringIO()
engine = UsiEngine(Output(stream))
engine.handle("usi")
loaded = any(name in sys.modules for name in {KERNELS!r})
print(loaded, "numba" in sys.modules, stream.getvalue().split()[-1])
engine.handle("isready")
print(all(name in sys.modules for name in {KERNELS!r}), stream.getvalue().split()[-1])
"""

GAME = f"""
import sys
from sakiyomi.games.shogi import ShogiGame
print(any(name in sys.modules for name in {KERNELS!r}), "numba" in sys.modules)
game = ShogiGame()
print(all(name in sys.modules for name in {KERNELS!r}), len(game.legal_moves()))
"""


def _run(code: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, check=True)
    return done.stdout.split("\n")[:2]


def test_usi_answers_usiok_before_loading_the_kernels_and_loads_them_at_isready() -> None:
    assert _run(SESSION) == ["False False usiok", "True readyok"]


def test_the_first_game_loads_the_kernels() -> None:
    assert _run(GAME) == ["False False", "True 30"]
