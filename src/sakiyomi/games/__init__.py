"""Registry of the games the CLI, engines and tests know, by name (imported lazily).

Each game module exposes ``from_position(text: str) -> Game`` parsing the POSITION syntax of
DESIGN.md §8 and raising ``PositionError`` on bad text, and ``LIMITS``, one line stating the
largest input it takes (input beyond it is refused with a message naming the limit).  Adding a
game is one line here.  No position text is longer than ``MAX_POSITION_CHARS``.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from sakiyomi.game import Game, GameError, PositionError

MAX_POSITION_CHARS = 1_000_000


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What the registry knows of a game before importing it."""

    name: str
    module: str
    summary: str
    start: str  # a position text for the initial position
    extra: str | None = None  # the pip extra its external rules library comes from


GAMES: dict[str, GameInfo] = {
    info.name: info
    for info in (
        GameInfo("tree", "sakiyomi.games.tree", "explicit game trees (nested JSON lists)",
                 "[[3,5,1],[7,3,-4],[-3,0,3]]"),
        GameInfo("bones", "sakiyomi.games.nim", "Game of Bones: take 1-3, who cannot take loses",
                 "6"),
        GameInfo("nim", "sakiyomi.games.nim", "Nim, normal play: who takes the last object wins",
                 "3,4,5"),
        GameInfo("tictactoe", "sakiyomi.games.tictactoe", "tic-tac-toe (x moves first)", "start"),
        GameInfo("shogi", "sakiyomi.games.shogi", "shogi (cshogi rules; SFEN/startpos, USI moves)",
                 "startpos", extra="shogi"),
        GameInfo("chess", "sakiyomi.games.chess", "chess (python-chess rules; FEN or startpos)",
                 "startpos", extra="chess"),
        GameInfo("othello", "sakiyomi.games.othello", "Othello/Reversi 8x8 (OBF positions)",
                 "start"),
        GameInfo("connect4", "sakiyomi.games.connect4",
                 "Connect Four 7x6 (Pons's notation; WxH: for other sizes)", "start"),
    )
}


def _module(name: str) -> Any:
    info = GAMES.get(name)
    if info is None:
        raise GameError(f"unknown game {name!r}; known games: {', '.join(sorted(GAMES))}")
    try:
        return importlib.import_module(info.module)
    except ImportError as exc:
        hint = f" (pip install 'sakiyomi[{info.extra}]')" if info.extra else ""
        raise GameError(f"game {name!r} needs a library that is not installed: {exc.name}{hint}") \
            from exc


def load(name: str, position: str) -> Game[Any]:
    """Parse ``position`` for the game called ``name``; GameError names what is wrong."""
    module = _module(name)
    if len(position) > MAX_POSITION_CHARS:
        raise PositionError(f"position too long: at most {MAX_POSITION_CHARS:,} characters, "
                            f"not {len(position):,}")
    game: Game[Any] = module.from_position(name, position)
    return game


def limits(name: str) -> str:
    """The game's stated input limits (its module's ``LIMITS``)."""
    text: str = _module(name).LIMITS
    return text
