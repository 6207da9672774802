"""The compiled chess move lists load when a game first needs them or at the UCI engine's
``isready``, not when the engine starts: ``uciok`` does not wait for numba (about 5 s on an
empty cache)."""

from __future__ import annotations

import subprocess
import sys

KERNEL = "sakiyomi.games.chess_movegen_kernel"

SESSION = f"""
import io, sys
from sakiyomi.protocols.engine_loop import Output
from sakiyomi.protocols.uci import UciHandler
stream = io.StringIO()
handler = UciHandler(Output(stream))
handler.handle("uci")
print("{KERNEL}" in sys.modules, "numba" in sys.modules, stream.getvalue().split()[-1])
handler.handle("isready")
print("{KERNEL}" in sys.modules, stream.getvalue().split()[-1])
"""

GAME = f"""
import sys
from sakiyomi.games.chess import ChessGame
print("{KERNEL}" in sys.modules)
game = ChessGame()
print("{KERNEL}" in sys.modules, len(game.legal_moves()))
"""


def _run(code: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, check=True)
    return done.stdout.split("\n")[:2]


def test_uci_answers_uciok_before_loading_the_kernels_and_loads_them_at_isready() -> None:
    assert _run(SESSION) == ["False False uciok", "True readyok"]


def test_the_first_game_loads_the_kernels() -> None:
    assert _run(GAME) == ["False", "True 20"]
