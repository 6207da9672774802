"""Registry of the games the CLI, engines, web app and tests know, by name (imported lazily).

Built-in games are listed below; other installed packages add games through the entry-point
group ``sakiyomi.games`` (docs/kernels.md, "Publishing a game").  The entry point's name is the
game's name and its value is either

* a module (``hex = "sakiyomi_hex"``) defining ``from_position(name, text) -> Game`` and,
  optionally, ``SUMMARY`` (default: the first line of its docstring), ``START`` (a position
  text for the initial position, default ``"start"``) and ``EXTRA``; or
* a ``GameInfo`` object (``hex = "sakiyomi_hex:GAME"``) naming the module to import later.

Every game module's ``from_position`` parses the POSITION syntax of DESIGN.md §8 and raises
``PositionError`` on bad text; it also states ``LIMITS``, one line naming the largest input it
takes (input beyond it is refused with a message naming the limit; optional for plugins).
Adding a built-in game is one line here.  No position text is longer than
``MAX_POSITION_CHARS``.

``GAMES`` is a read-only mapping, name -> ``GameInfo``.  It stays lazy: asking for a built-in
name never looks at other packages; the installed plugins are looked up once, the first time a
name is not built in or the whole list is wanted, and a plugin's code is imported only when its
entry is read.  A built-in name cannot be taken over by a plugin (the built-in game stays, and
that plugin entry is ignored).  A plugin that cannot be loaded (it does not import, or does not
offer ``from_position``) does not break the other games or the listing: its entry carries the
reason in ``error``, and ``load`` turns that into one clear ``GameError``.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any

from sakiyomi.game import Game, GameError, PositionError

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

MAX_POSITION_CHARS = 1_000_000
PLUGIN_GROUP = "sakiyomi.games"


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What the registry knows of a game before importing it."""

    name: str
    module: str  # the module defining from_position(name, text)
    summary: str
    start: str  # a position text for the initial position
    extra: str | None = None  # the pip extra its external rules library comes from
    origin: str | None = None  # the distribution of a plugin game (None: built in)
    error: str | None = None  # why a plugin game cannot be used (None: it can)


BUILTIN: dict[str, GameInfo] = {
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


def _distribution(point: EntryPoint) -> str:
    dist = getattr(point, "dist", None)
    name = getattr(dist, "name", None) if dist is not None else None
    return str(name) if name else "an installed package"


def _first_line(module: ModuleType) -> str:
    doc = (module.__doc__ or "").strip()
    return doc.splitlines()[0] if doc else f"game from {module.__name__}"


def plugin_info(name: str, point: EntryPoint) -> GameInfo:
    """The ``GameInfo`` of one entry point of the ``sakiyomi.games`` group (imports its code);
    never raises: what goes wrong is kept in ``error``.
    """
    origin = _distribution(point)
    try:
        target = point.load()
    except Exception as exc:  # a plugin's import may fail in any way: report, never crash
        message = " ".join(str(exc).split())  # one line, whatever the exception says
        return _broken(name, point, origin, f"{type(exc).__name__}: {message}")
    if isinstance(target, GameInfo):
        return GameInfo(name, target.module, target.summary, target.start, target.extra,
                        origin)
    if isinstance(target, ModuleType):
        if not callable(getattr(target, "from_position", None)):
            return _broken(name, point, origin, f"module {target.__name__} has no "
                           "from_position(name, text)")
        return GameInfo(name, target.__name__,
                        str(getattr(target, "SUMMARY", None) or _first_line(target)),
                        str(getattr(target, "START", "start")),
                        getattr(target, "EXTRA", None), origin)
    return _broken(name, point, origin, f"{point.value} is a {type(target).__name__}, "
                   "neither a module nor a GameInfo")


def _broken(name: str, point: EntryPoint, origin: str, why: str) -> GameInfo:
    return GameInfo(name, point.value, f"(cannot be loaded: {why})", "start", origin=origin,
                    error=f"game {name!r} from {origin} (entry point {point.value!r}) cannot "
                          f"be loaded: {why}")


class Registry(Mapping[str, GameInfo]):
    """Built-in games plus the ``sakiyomi.games`` entry points of installed packages, merged
    lazily (see the module docstring).
    """

    def __init__(self, builtin: Mapping[str, GameInfo], group: str = PLUGIN_GROUP) -> None:
        self._builtin = dict(builtin)
        self._group = group
        self._lock = threading.Lock()
        self._points: dict[str, list[EntryPoint]] | None = None
        self._loaded: dict[str, GameInfo] = {}

    def _plugins(self) -> dict[str, list[EntryPoint]]:
        """The entry points of the group by name, read once (installed packages' metadata)."""
        with self._lock:
            if self._points is None:
                from importlib.metadata import entry_points  # it reads every installed package

                points: dict[str, list[EntryPoint]] = {}
                try:
                    found = list(entry_points(group=self._group))
                except Exception:  # unreadable metadata of some package: no plugins then
                    found = []
                for point in found:
                    if point.name not in self._builtin:
                        points.setdefault(point.name, []).append(point)
                self._points = points
            return self._points

    def refresh(self) -> None:
        """Forget what was found, so that packages installed since are seen (tests, notebooks)."""
        with self._lock:
            self._points = None
            self._loaded.clear()

    def __getitem__(self, name: str) -> GameInfo:
        info = self._builtin.get(name)
        if info is not None:
            return info
        points = self._plugins().get(name)
        if points is None:
            raise KeyError(name)
        with self._lock:
            info = self._loaded.get(name)
        if info is None:
            if len({p.value for p in points}) > 1:
                origins = ", ".join(sorted({_distribution(p) for p in points}))
                info = GameInfo(name, points[0].value, "(registered twice)", "start",
                                error=f"game {name!r} is registered by more than one "
                                      f"installed package ({origins}): uninstall one")
            else:
                info = plugin_info(name, points[0])
            with self._lock:
                info = self._loaded.setdefault(name, info)
        return info

    def __contains__(self, name: object) -> bool:
        if name in self._builtin:
            return True
        return isinstance(name, str) and name in self._plugins()

    def __iter__(self) -> Iterator[str]:
        return iter(sorted([*self._builtin, *self._plugins()]))

    def __len__(self) -> int:
        return len(self._builtin) + len(self._plugins())

    def __repr__(self) -> str:
        return f"Registry({sorted(self)!r})"


GAMES = Registry(BUILTIN)


def _module(name: str) -> Any:
    """The module of the game called ``name`` (with ``from_position``), or a GameError."""
    info = GAMES.get(name)
    if info is None:
        raise GameError(f"unknown game {name!r}; known games: {', '.join(sorted(GAMES))}")
    if info.error is not None:
        raise GameError(info.error)
    try:
        module = importlib.import_module(info.module)
    except ImportError as exc:
        raise GameError(f"game {name!r} needs a library that is not installed: {exc.name}"
                        f"{_install_hint(info)}") from exc
    if not callable(getattr(module, "from_position", None)):
        raise GameError(f"game {name!r}: module {info.module} has no from_position(name, text)")
    return module


def _install_hint(info: GameInfo) -> str:
    if not info.extra:
        return ""
    if info.origin is None:
        return f" (pip install 'sakiyomi[{info.extra}]')"
    return f" (pip install '{info.extra}')"


def load(name: str, position: str) -> Game[Any]:
    """Parse ``position`` for the game called ``name``; GameError names what is wrong."""
    return parser(name)(position)


def parser(name: str) -> Callable[[str], Game[Any]]:
    """``load`` for one game, its module found once (a batch reads every line through it)."""
    module = _module(name)
    from_position = module.from_position
    plugin = GAMES[name].origin is not None

    def parse(position: str) -> Game[Any]:
        if len(position) > MAX_POSITION_CHARS:
            raise PositionError(f"position too long: at most {MAX_POSITION_CHARS:,} "
                                f"characters, not {len(position):,}")
        if not plugin:
            game: Game[Any] = from_position(name, position)
            return game
        try:  # a plugin may report bad text with a plain ValueError: still one clear message
            game = from_position(name, position)
        except GameError:
            raise
        except ValueError as exc:
            raise GameError(f"{name} position {position!r}: {exc}") from exc
        return game

    return parse


def limits(name: str) -> str:
    """The game's stated input limits (its module's ``LIMITS``; a plugin may state none)."""
    text = getattr(_module(name), "LIMITS", None)
    return str(text) if text is not None else "no limits stated by the game's package"
