"""A game as the page holds it: the game's name, its start position and the moves played.

The server keeps no games: every request brings this triple, and ``replay`` rebuilds the
position through the command line's own parsers (``sakiyomi.games.load`` and each game's
``move_from_text``), so a bad position or move gets the same one-line reason as on the command
line.  ``describe`` turns a position into what the page draws: the board, the legal moves, the
move list, the export text in the game's notation, and how the game ended.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sakiyomi.game import Game, GameError, MoveError, Outcome, Player, player_text
from sakiyomi.games import GAMES, load
from sakiyomi.web.boards import SELECT_KIND, Overlay, render_board
from sakiyomi.web.settings import WebLimits

PLAYER_NAMES: dict[str, tuple[str, str]] = {
    "tictactoe": ("x", "o"), "connect4": ("red", "yellow"), "othello": ("black", "white"),
    "chess": ("white", "black"), "shogi": ("sente ☗", "gote ☖"),
    "tree": ("first (□ max)", "second (○ min)"), "nim": ("first", "second"),
    "bones": ("first", "second"),
}
NOTATION: dict[str, str] = {
    "tree": "nested JSON list (max: prefix = leaves for the first player)",
    "bones": "number of bones", "nim": "heap sizes, e.g. 3,4,5",
    "tictactoe": "9 cells x o . row-major", "connect4": "Pons's move string (columns 1-7)",
    "othello": "OBF: 64 squares a1..h8 (X O -), space, side X/O", "chess": "FEN",
    "shogi": "SFEN",
}


class RequestError(ValueError):
    """A request the page should never send (wrong types, too long): reported, never a 500."""


@dataclass
class Position:
    """A replayed game: name, start text, moves (in the game's notation, whatever notation
    the request used), the position after them, and the moves as players write them
    (``MoveNames``: chess's SAN, shogi's Japanese; else the same texts).
    """

    name: str
    start: str
    moves: list[str]
    game: Game[Any]
    names: list[str]


def _field(body: Mapping[str, Any], key: str, kind: type, default: Any = None) -> Any:
    value = body.get(key, default)
    if value is None and default is None:
        return None
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise RequestError(f"{key!r} must be a {kind.__name__}")
    return value


def replay(body: Mapping[str, Any], limits: WebLimits) -> Position:
    """The position a request names (``game``, ``start``, ``moves``); GameError or
    RequestError name what is wrong.
    """
    name = _field(body, "game", str, "")
    if name not in GAMES:
        raise GameError(f"unknown game {name!r}; known games: {', '.join(sorted(GAMES))}")
    start = _field(body, "start", str, GAMES[name].start).strip() or GAMES[name].start
    moves = _field(body, "moves", list, [])
    if len(start) > limits.max_text:
        raise RequestError(f"the position is longer than {limits.max_text} characters")
    if len(moves) > limits.max_moves:
        raise RequestError(f"more than {limits.max_moves} moves")
    if not all(isinstance(m, str) and len(m) <= 16 for m in moves):
        raise RequestError("moves must be short strings")
    game = load(name, start)
    texts: list[str] = []
    names: list[str] = []
    for number, text in enumerate(moves, 1):
        if game.outcome() is not None:
            raise MoveError(f"move {number} ({text}): the game is already over")
        try:
            move = game.move_from_text(text)
        except GameError as exc:
            raise MoveError(f"move {number} ({text}): {exc}") from None
        texts.append(game.move_to_text(move))
        names.append(player_text(game, move))
        game.play(move)
    return Position(name, start, texts, game, names)


def export_text(name: str, game: Game[Any]) -> str:
    """The current position in the game's own notation (what the CLI reads back)."""
    if name in ("tictactoe", "connect4", "othello"):
        return str(game.position_text())  # type: ignore[attr-defined]
    if name == "chess":
        return str(game.board.fen())  # type: ignore[attr-defined]
    if name == "shogi":
        return str(game.sfen())  # type: ignore[attr-defined]
    if name == "nim":
        return ",".join(str(h) for h in game.heaps)  # type: ignore[attr-defined]
    if name == "bones":
        return str(game.heaps[0])  # type: ignore[attr-defined]
    # a tree: the current subtree, leaves for the side to move there (NegaMax convention)
    subtree = game.subtree()  # type: ignore[attr-defined]
    if game.first_player_leaves and game.to_move is Player.SECOND:  # type: ignore[attr-defined]
        subtree = _negate(subtree)
    return json.dumps(subtree, separators=(",", ":"))


def _negate(tree: Any) -> Any:
    return -tree if isinstance(tree, int) else [_negate(child) for child in tree]


def outcome_text(name: str, outcome: Outcome) -> str:
    """'x wins (three in a row)', 'draw (board full)'."""
    if outcome.winner is None:
        return f"draw ({outcome.reason})"
    margin = f", by {outcome.margin}" if name == "othello" and outcome.margin else ""
    return f"{PLAYER_NAMES[name][int(outcome.winner)]} wins ({outcome.reason}{margin})"


def describe(position: Position, overlay: Overlay | None = None) -> dict[str, Any]:
    """What the page shows for a position."""
    game, name = position.game, position.name
    outcome = game.outcome()
    legal = [game.move_to_text(m) for m in game.legal_moves()] if outcome is None else []
    last = position.moves[-1] if position.moves else None
    overlay = overlay if overlay is not None else Overlay(last=last)
    return {
        "game": name, "start": position.start, "moves": position.moves,
        "names": position.names,
        "legal": legal, "to_move": int(game.to_move),
        "to_move_name": PLAYER_NAMES[name][int(game.to_move)],
        "players": list(PLAYER_NAMES[name]),
        "outcome": outcome_text(name, outcome) if outcome is not None else None,
        "position": export_text(name, game), "notation": NOTATION[name],
        "select": SELECT_KIND.get(name, "cell"),
        "board": render_board(name, game, overlay),
    }


def games_list() -> list[dict[str, Any]]:
    """The games the page offers, with start positions and notations."""
    return [{"name": info.name, "summary": info.summary, "start": info.start,
             "notation": NOTATION[info.name], "players": list(PLAYER_NAMES[info.name])}
            for info in GAMES.values()]


def moves_of(body: Mapping[str, Any], key: str) -> Sequence[str]:
    """A list of move texts from a request field (empty when absent)."""
    value = body.get(key) or []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RequestError(f"{key!r} must be a list of move texts")
    return value
