"""Failures of a game's own methods during a search, and the one unwinding rule.

The rule: a node that plays a move catches whatever comes up from below that move, takes the
move back and raises again, so after any exception the caller's game is back at the root
position.  (Python 3.11 ``try`` blocks cost nothing while nothing is raised, so the normal
path pays nothing.)  On the way up the moves are collected: an exception raised inside a game
method becomes a ``GameMethodError`` that names the method and the line of moves from the root
to the node where it failed, chained to the original.  Stop requests (``SearchAborted``),
``KeyboardInterrupt`` and exceptions of other parties (a tracer's, say) pass through unchanged,
after the game has been restored all the same.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from types import FrameType
from typing import Any

from sakiyomi.search.limits import SearchAborted

# Modules of the search itself: an exception raised in one of them (a TypeError on a value a
# game method returned, say) is reported as a game failure at that node.
_SEARCH_MODULES = ("sakiyomi.search.", "sakiyomi.ordering", "sakiyomi.repetition", "sakiyomi.tt")


class _NullMove:
    """Marks a null move (a pass the search made up) in a reported line."""

    def __repr__(self) -> str:
        return "(null move)"


NULL_MOVE: Any = _NullMove()
_NOTHING: Any = object()


class GameMethodError(RuntimeError):
    """A game method raised, or answered something the search cannot use.

    ``method`` names it (None when the failure showed up in the search's own code, e.g. a
    ``None`` where moves were expected), ``line`` holds the moves from the search's root to the
    node where it failed, ``playing`` the move being played when ``play`` failed.  The original
    exception is the ``__cause__``.  ``restored`` is False when taking moves back failed too.
    """

    def __init__(self, method: str | None, problem: str, *, playing: object = _NOTHING) -> None:
        super().__init__(problem)
        self.method = method
        self.problem = problem
        self.line: list[object] = []
        self.playing = playing
        self.restored = True
        self._texts: tuple[list[str], str | None] | None = None

    def describe(self, game: object) -> None:
        """Spell the moves in the game's own notation (done once, back at the root)."""
        def text(move: object) -> str:
            if move is NULL_MOVE:
                return repr(move)
            try:
                return str(game.move_to_text(move))  # type: ignore[attr-defined]
            except Exception:
                return repr(move)

        playing = text(self.playing) if self.playing is not _NOTHING else None
        self._texts = [text(m) for m in self.line], playing

    def __str__(self) -> str:
        texts, playing = self._texts or ([repr(m) for m in self.line], (
            repr(self.playing) if self.playing is not _NOTHING else None))
        who = f"game method {self.method}()" if self.method else "the search"
        doing = f" playing {playing}" if playing is not None else ""
        where = f"after the line {' '.join(texts)}" if texts else "at the root"
        message = f"{who} failed{doing} {where}: {self.problem}"
        if self.method is None:
            message += (" (a game method answered something unusable?  "
                        "SearchConfig(validate=True) checks every answer)")
        if not self.restored:
            message += "; the game is not at the root (a move could not be taken back)"
        return message


def _module(frame: FrameType) -> str:
    name = frame.f_globals.get("__name__", "")
    return name if isinstance(name, str) else ""


def as_game_error(exc: BaseException, game: object) -> BaseException:
    """``exc`` as a GameMethodError when it came from ``game``'s methods (or showed up in the
    search's own code), else ``exc`` itself.
    """
    if isinstance(exc, GameMethodError) or not isinstance(exc, Exception) \
            or isinstance(exc, SearchAborted):
        return exc
    inner = getattr(game, "wrapped", game)  # a CheckedGame's game
    frames = [frame for frame, _ in traceback.walk_tb(exc.__traceback__)]
    method: str | None = None
    playing: object = _NOTHING
    for i, frame in enumerate(frames):
        owner = frame.f_locals.get("self")
        if owner is game or owner is inner:
            method = frame.f_code.co_name
            if method == "play" and i > 0:
                playing = frames[i - 1].f_locals.get("move", _NOTHING)
            break
    else:
        if not frames or not _module(frames[-1]).startswith(_SEARCH_MODULES):
            return exc  # somebody else's exception (a tracer's, say): not the game's fault
    err = GameMethodError(method, f"{type(exc).__name__}: {exc}", playing=playing)
    err.restored = method != "undo"  # a failed undo leaves a position nobody knows
    err.__cause__ = exc
    err.__suppress_context__ = True
    return err


def unwind(exc: BaseException, move: object, game: object, undo: Callable[[], None]
           ) -> BaseException:
    """Take ``move`` back (with ``undo``) after ``exc`` came up from below it, and return the
    exception to raise one ply up, with ``move`` added to the front of its line.
    """
    err = as_game_error(exc, game)
    try:
        undo()
    except Exception as undo_exc:
        if not isinstance(err, GameMethodError):
            failed = GameMethodError(undo.__name__, f"{type(undo_exc).__name__}: {undo_exc}")
            failed.__cause__ = undo_exc
            err = failed
        err.restored = False
    if isinstance(err, GameMethodError):
        err.line.insert(0, move)
    return err


def at_root(exc: BaseException, game: object) -> BaseException:
    """The exception a search raises to its caller, its moves spelled out."""
    err = as_game_error(exc, game)
    if isinstance(err, GameMethodError):
        err.describe(game)
    return err
