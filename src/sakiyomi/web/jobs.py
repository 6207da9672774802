"""Searches for the page, run in worker threads so the event loop never waits on them.

A ``SearchJob`` is one request: think about the position (iterative deepening), choose the
computer's move, or analyze every move.  It gets its node search from
``sakiyomi.engines.engine_for`` (compiled for Connect Four and Othello, the Python ``Searcher``
for the other games) and runs the project's drivers on it
(``search.drivers.iterative_deepening``, ``search.solve.move_values``) under a ``StopSignal``
that the page's stop button, a closed tab or the request's limits fire; both engines stop
within a few thousand nodes.  The worker thread only appends messages to a queue; the server's
event loop drains it and adds a live progress line (nodes, nodes/s, table fill) read from the
running engine's counters several times a second.
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass
from typing import Any, Literal

from sakiyomi.engines import compiled_available, engine_for, solver_config
from sakiyomi.game import Game, GameError, player_text
from sakiyomi.score import WIN_BOUND, format_score, is_decisive, plies_to_end
from sakiyomi.search.drivers import iterative_deepening
from sakiyomi.search.engine import Engine
from sakiyomi.search.limits import Limits, SearchAborted, StopSignal
from sakiyomi.search.result import SearchInfo
from sakiyomi.search.searcher import SearchConfig, Searcher
from sakiyomi.search.solve import move_values
from sakiyomi.web.boards import Overlay, render_board
from sakiyomi.web.settings import WebLimits
from sakiyomi.web.state import Position

Kind = Literal["think", "move", "analyze"]
KINDS: tuple[str, ...] = ("think", "move", "analyze")
TABLE_SLOTS = 1 << 18  # per job: a Python table entry costs ~200 bytes


def search_config(name: str, game: Game[Any] | None = None) -> SearchConfig:
    """The settings each game is searched with: the solver's for games on the compiled engine
    (its table is preallocated and pooled), the UCI/USI engines' selective search for chess and
    shogi, the defaults otherwise; Python tables are kept small enough for a shared server.
    """
    if game is not None and compiled_available(game):
        return solver_config(game)
    if name in ("chess", "shogi"):
        return SearchConfig(tt_capacity=TABLE_SLOTS, check_every=256, check_extension=True,
                            null_move=True, lmr=True, futility=True)
    return SearchConfig(tt_capacity=TABLE_SLOTS, check_every=512)


def score_text(name: str, value: int) -> str:
    """'win in 5' (plies), 'mate in 3' (moves, chess and shogi), or the heuristic value."""
    if name in ("chess", "shogi") and is_decisive(value):
        moves = (plies_to_end(value) + 1) // 2
        return f"mate in {moves}" if value > 0 else f"mated in {moves}"
    if name == "chess" and not is_decisive(value):
        return f"{value / 100:+.2f}"
    return format_score(value)


def short_value(value: int) -> str:
    """A value small enough to print on a square: W5 / L4 / +3 / 0."""
    if value >= WIN_BOUND:
        return f"W{plies_to_end(value)}"
    if value <= -WIN_BOUND:
        return f"L{plies_to_end(value)}"
    return f"{value:+d}" if value else "0"


@dataclass(frozen=True, slots=True)
class JobRequest:
    """What the page asked for: the kind of search and its limits (None: the defaults)."""

    kind: Kind
    depth: int | None = None
    seconds: float | None = None

    def limits(self, web: WebLimits) -> Limits:
        """The request's limits, clipped to the server's."""
        depth = min(self.depth, web.max_depth) if self.depth is not None else web.max_depth
        if self.seconds is not None:
            seconds = min(self.seconds, web.max_seconds)
        elif self.kind == "think" or self.depth is None:
            seconds = web.max_seconds if self.kind == "think" else web.default_seconds
        else:
            seconds = web.max_seconds
        return Limits(depth=depth, nodes=web.max_nodes, time=seconds)


class SearchJob:
    """One search on a copy of the position, run by ``run()`` in a worker thread."""

    def __init__(self, position: Position, request: JobRequest, web: WebLimits) -> None:
        self.position = position
        self.request = request
        self.web = web
        self.limits = request.limits(web)
        self.signal = StopSignal.from_limits(self.limits)
        self.messages: deque[dict[str, Any]] = deque()
        self.depth = 0
        self.finished = threading.Event()
        self.engine_name = "none"
        self._engine: Engine[Any] | None = None

    # ---- control (any thread) -------------------------------------------------------------

    def stop(self) -> None:
        """Ask the search to end as soon as possible."""
        self.signal.stop()

    def progress(self) -> dict[str, Any]:
        """Live counters of the running search (safe to read while it runs)."""
        seconds = self.signal.elapsed()
        engine = self._engine
        nodes = engine.stats.nodes if engine is not None else 0
        return {"type": "progress", "depth": self.depth + 1, "nodes": nodes,
                "nps": round(nodes / seconds) if seconds > 0 else 0,
                "hashfull": engine.hashfull() if engine is not None else 0,
                "seconds": round(seconds, 3), "engine": self.engine_name}

    # ---- the work (worker thread) ---------------------------------------------------------

    def run(self) -> dict[str, Any]:
        """Do the search; the final message ('done' or 'error')."""
        try:
            if self.request.kind == "analyze":
                return self._analyze()
            return self._think()
        except GameError as exc:
            return {"type": "error", "message": str(exc)}
        finally:
            self.finished.set()

    def _think(self) -> dict[str, Any]:
        game = self.position.game
        if game.outcome() is not None:
            raise GameError("the game is over: there is nothing to search")
        searcher = self._engine_for(game)
        last: SearchInfo[Any] | None = None
        for info in iterative_deepening(searcher, self.limits):
            last = info
            self.depth = info.depth
            self.messages.append(self._info(info))
        if last is None:  # stopped before depth 1: any legal move, said so
            first = game.legal_moves()[0]
            return {"type": "done", "kind": self.request.kind,
                    "best": game.move_to_text(first), "complete": False,
                    "stopped": self.signal.event.is_set(), **self.progress_final()}
        best = last.pv[0] if last.pv else searcher.root_best_move
        return {**self._info(last, board=False), **self.progress_final(),
                "type": "done", "kind": self.request.kind,
                "best": game.move_to_text(best) if best is not None else None,
                "complete": True, "stopped": self.signal.event.is_set()}

    def _engine_for(self, game: Game[Any]) -> Engine[Any]:
        """An engine over a copy of the position, kept for the live counters."""
        engine: Engine[Any] = engine_for(game.copy(), search_config(self.position.name, game),
                                         stop=self.signal)
        self._engine = engine
        self.engine_name = "python" if isinstance(engine, Searcher) else "compiled"
        return engine

    def _info(self, info: SearchInfo[Any], board: bool = True) -> dict[str, Any]:
        name, game = self.position.name, self.position.game
        pv, pv_names = _line(game, info.pv)
        message: dict[str, Any] = {
            "type": "info", "depth": info.depth, "value": info.value,
            "score": score_text(name, info.value), "pv": pv, "pv_names": pv_names,
            "nodes": info.stats.nodes,
            "nps": round(info.nps), "hashfull": info.hashfull,
            "seconds": round(info.seconds, 3), "seldepth": info.stats.seldepth,
        }
        if board:
            message["board"] = render_board(name, game.copy(), Overlay(pv=pv, last=self._last()))
        return message

    def _last(self) -> str | None:
        return self.position.moves[-1] if self.position.moves else None

    def progress_final(self) -> dict[str, Any]:
        """The final counters (nodes over the whole job)."""
        final = self.progress()
        return {"total_nodes": final["nodes"], "total_seconds": final["seconds"]}

    def _analyze(self) -> dict[str, Any]:
        """The value of every move, depth 1, 2, … until a limit; each finished pass is sent."""
        name, game = self.position.name, self.position.game
        if game.outcome() is not None:
            raise GameError("the game is over: there are no moves to analyze")
        engine = self._engine_for(game)
        last: dict[str, Any] | None = None
        for depth in range(1, self.limits.max_depth + 1):
            engine.new_search()
            try:
                values = move_values(engine, depth)
            except SearchAborted:
                break
            self.depth = depth
            rows: list[dict[str, Any]] = []
            for mv in values:
                pv, pv_names = _line(game, mv.pv)
                rows.append({"move": game.move_to_text(mv.move),
                             "name": player_text(game, mv.move), "value": mv.value,
                             "score": score_text(name, mv.value),
                             "label": short_value(mv.value), "pv": pv, "pv_names": pv_names})
            exact = all(is_decisive(mv.value) for mv in values) or depth >= _remaining(game)
            last = {"type": "analysis", "depth": depth, "moves": rows, "exact": exact,
                    "board": render_board(name, game.copy(), Overlay(
                        values={r["move"]: r["label"] for r in rows}, last=self._last()))}
            self.messages.append(last)
            if exact or self.signal.should_stop(engine.stats.nodes):
                break
        done: dict[str, Any] = {"type": "done", "kind": "analyze",
                                "stopped": self.signal.event.is_set(), **self.progress_final()}
        if last is not None:
            done.update(depth=last["depth"], moves=last["moves"], exact=last["exact"])
        return done


def warm_up() -> None:
    """Build (or load from numba's cache) the compiled engines once, so that the first search
    a page asks for does not wait for the compiler.
    """
    from sakiyomi.games import GAMES, load

    for name in ("connect4", "othello"):
        game = load(name, GAMES[name].start)
        if compiled_available(game):
            engine_for(game.copy(), search_config(name, game)).search(1)


def _line(game: Game[Any], pv: tuple[Any, ...]) -> tuple[list[str], list[str]]:
    """The PV as far as its moves are legal from ``game`` (a table move may be stale): in the
    game's notation (what the page sends back and draws on the board) and as players write
    each move in its position (``player_text``: chess's SAN, shogi's Japanese).
    """
    position = game.copy()
    texts: list[str] = []
    names: list[str] = []
    for move in pv:
        if move not in position.legal_moves():
            break
        texts.append(position.move_to_text(move))
        names.append(player_text(position, move))
        position.play(move)
    return texts, names


def _remaining(game: Game[Any]) -> int:
    """An upper bound on the plies left when the game says so (explicit trees, tic-tac-toe);
    else a depth no analysis reaches.
    """
    cells = getattr(game, "cells", None)
    if isinstance(cells, list):
        return sum(1 for c in cells if not c)
    played = getattr(game, "moves_played", None)
    if isinstance(played, list):  # Connect Four
        return int(game.width * game.height) - len(played)  # type: ignore[attr-defined]
    subtree = getattr(game, "subtree", None)
    if callable(subtree):  # an explicit tree
        return _height(subtree())
    return 1 << 30


def _height(tree: Any) -> int:
    return 0 if isinstance(tree, int) else 1 + max(_height(child) for child in tree)
