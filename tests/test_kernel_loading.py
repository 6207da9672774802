"""The compiled kernels of the chess and shogi adapters load when a game first needs them or
at the engine's ``isready``, not when the engine starts: ``uciok`` / ``usiok`` do not wait
for numba (about 5 s for chess, 4 s for shogi on an empty cache; GUIs time the handshake)."""

from __future__ import annotations

import subprocess
import sys
from typing import NamedTuple

import pytest


class Engine(NamedTuple):
    """One engine: its protocol class, handshake, kernel modules, game and its move count."""

    protocol: str  # module:class of the protocol handler
    hello: str  # the handshake command (answered by hello + "ok")
    kernels: tuple[str, ...]
    game: str  # module:class of the game
    start_moves: int  # legal moves of the start position


ENGINES = {
    "chess": Engine("sakiyomi.protocols.uci:UciHandler", "uci",
                    ("sakiyomi.games.chess_movegen_kernel",),
                    "sakiyomi.games.chess:ChessGame", 20),
    "shogi": Engine("sakiyomi.protocols.usi:UsiEngine", "usi",
                    ("sakiyomi.games.shogi_eval_kernel", "sakiyomi.games.shogi_exchange",
                     "sakiyomi.games.shogi_rescore", "sakiyomi.games.shogi_threats"),
                    "sakiyomi.games.shogi:ShogiGame", 30),
}


def _session(engine: Engine) -> str:
    module, name = engine.protocol.split(":")
    return f"""
import io, sys
from sakiyomi.protocols.engine_loop import Output
from {module} import {name}
stream = io.StringIO()
handler = {name}(Output(stream))
handler.handle("{engine.hello}")
print(any(k in sys.modules for k in {engine.kernels!r}), "numba" in sys.modules,
      stream.getvalue().split()[-1])
handler.handle("isready")
print(all(k in sys.modules for k in {engine.kernels!r}), stream.getvalue().split()[-1])
"""


def _game(engine: Engine) -> str:
    module, name = engine.game.split(":")
    return f"""
import sys
from {module} import {name}
print(any(k in sys.modules for k in {engine.kernels!r}), "numba" in sys.modules)
game = {name}()
print(all(k in sys.modules for k in {engine.kernels!r}), len(game.legal_moves()))
"""


def _run(code: str) -> list[str]:
    """The first two lines ``code`` prints in a fresh interpreter (nothing loaded yet)."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, check=True)
    return done.stdout.split("\n")[:2]


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_the_handshake_loads_no_kernel_and_isready_loads_them(name: str) -> None:
    engine = ENGINES[name]
    assert _run(_session(engine)) == [f"False False {engine.hello}ok", "True readyok"]


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_the_first_game_loads_the_kernels(name: str) -> None:
    engine = ENGINES[name]
    assert _run(_game(engine)) == ["False False", f"True {engine.start_moves}"]
