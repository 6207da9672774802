"""The web app's pictures in Jupyter: positions, search results, traces and node-count tables
that render themselves inline (``_repr_svg_`` / ``_repr_html_``).

>>> from sakiyomi.web import notebook as nb
>>> nb.board("connect4", "4453")                         # the board, drawn inline
>>> nb.search("tictactoe", "x...o....", depth=9)         # value, PV and the PV on the board
>>> nb.tree("tree", "[[3,5,1],[7,3,-4],[-3,0,3]]", "negamax")   # what the algorithm did
>>> nb.node_table("tree", "max:[[[40,55],[60,20]],[[70,80],[65,50]]]")

Each object keeps what it shows (``.game``, ``.result``, ``.picture``, ``.report``) so a
notebook can go on computing with it.  Nothing here starts a server.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Any

from sakiyomi.game import Game, GameError
from sakiyomi.games import load
from sakiyomi.search.drivers import run
from sakiyomi.search.limits import Limits, StopSignal
from sakiyomi.search.result import SearchResult
from sakiyomi.search.searcher import Searcher
from sakiyomi.viz.commands import trace_picture
from sakiyomi.viz.compare import Report, compare
from sakiyomi.viz.picture import Picture
from sakiyomi.viz.svg import render_svg
from sakiyomi.web.boards import Overlay, render_board
from sakiyomi.web.jobs import score_text, search_config


@dataclass
class BoardView:
    """A position (and optionally a line from it) drawn as the web app draws it."""

    name: str
    game: Game[Any]
    pv: tuple[str, ...] = ()

    def _repr_svg_(self) -> str:
        return render_board(self.name, self.game, Overlay(pv=self.pv))


@dataclass
class ResultView:
    """A search result: its numbers as a small table and the PV on the board."""

    name: str
    game: Game[Any]
    result: SearchResult[Any]

    @property
    def pv(self) -> tuple[str, ...]:
        """The principal variation as move texts."""
        return tuple(self.game.move_to_text(m) for m in self.result.pv)

    def _repr_html_(self) -> str:
        r = self.result
        best = self.game.move_to_text(r.best_move) if r.best_move is not None else "-"
        rows = [("score", score_text(self.name, r.value)), ("best move", best),
                ("principal variation", " ".join(self.pv)), ("depth", str(r.depth)),
                ("nodes", f"{r.stats.nodes:,}"), ("seconds", f"{r.seconds:.3f}")]
        table = "".join(f"<tr><th style='text-align:left'>{escape(k)}</th><td>{escape(v)}</td>"
                        "</tr>" for k, v in rows)
        board = render_board(self.name, self.game, Overlay(pv=self.pv))
        return (f"<div style='display:flex;gap:1em;align-items:flex-start'>{board}"
                f"<table>{table}</table></div>")


@dataclass
class TreeView:
    """The picture of a recorded search (``sakiyomi tree``'s SVG)."""

    picture: Picture

    def _repr_svg_(self) -> str:
        return render_svg(self.picture)


@dataclass
class TableView:
    """``sakiyomi compare``'s node counts as an HTML table."""

    report: Report

    def _repr_html_(self) -> str:
        head = ("algorithm", "value", "best", "nodes", "leaves", "cut-offs", "TT hits")
        base = self.report.rows[0].nodes or 1
        body = "".join(
            f"<tr><td>{escape(r.algorithm)}</td><td>{r.value}</td><td>{r.best_move or '-'}</td>"
            f"<td>{r.nodes:,}</td><td>{r.leaves:,}</td><td>{r.cutoffs}</td><td>{r.tt_hits}</td>"
            f"<td>{r.nodes / base:.1%}</td></tr>" for r in self.report.rows)
        cells = "".join(f"<th>{h}</th>" for h in (*head, "of minimax"))
        return f"<table><tr>{cells}</tr>{body}</table>"


def board(name: str, position: str | None = None, moves: tuple[str, ...] = ()) -> BoardView:
    """The position ``position`` of game ``name`` (its start when None), after ``moves``."""
    from sakiyomi.games import GAMES

    game = load(name, position if position is not None else GAMES[name].start)
    for text in moves:
        game.play(game.move_from_text(text))
    return BoardView(name, game)


def search(name: str, position: str, *, depth: int | None = None,
           seconds: float | None = None) -> ResultView:
    """Iterative deepening (the production Searcher) to ``depth`` or for ``seconds``."""
    game = load(name, position)
    if game.outcome() is not None:
        raise GameError("the position is already finished: there is nothing to search")
    limits = Limits(depth=depth, time=seconds if seconds is not None or depth is not None
                    else 2.0)
    searcher: Searcher[Any] = Searcher(game.copy(), search_config(name),
                                       stop=StopSignal.from_limits(limits))
    return ResultView(name, game, run(searcher, limits))


def tree(name: str, position: str, algorithm: str = "alphabeta",
         depth: int | None = None) -> TreeView:
    """What ``algorithm`` did on a small tree (as ``sakiyomi tree`` draws it)."""
    picture, _ = trace_picture(name, position, algorithm, depth)
    return TreeView(picture)


def node_table(name: str, position: str, depth: int | None = None) -> TableView:
    """Node counts of every algorithm on the position (``sakiyomi compare``)."""
    return TableView(compare(load(name, position), depth))
