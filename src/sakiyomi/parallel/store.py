"""The solved-position store: one SQLite file (WAL) of bounds on positions' exact values.

It is three things at once.  A *checkpoint*: the parallel solver writes every finished job here
the moment it ends (one transaction per job), so a solve killed with ``kill -9`` resumes from the
same file without re-running any finished job.  A *solved-position database*: each position row
holds the tightest bounds proved so far (``lower <= value <= upper``; equal when solved) and a
move that reaches ``lower``.  An *opening book*: ``sakiyomi book build`` fills it and ``play``
reads it.

A file belongs to one game (recorded in ``meta``); positions are keyed by the game's position
key (``Game.key``), and values are internal scores from the side to move at that position
(``sakiyomi.score``).  Games whose keys only mean something within one root (explicit trees)
record that root as the file's ``scope``.

Opening is careful never to damage a file that is not ours: an existing file is first read
without write access and checked (a SQLite database with our ``meta`` for the same game);
only then is it opened for writing.
"""

from __future__ import annotations

import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from sakiyomi.game import GameError

FORMAT = "sakiyomi-store"
VERSION = "1"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS positions (
    key TEXT PRIMARY KEY,
    position TEXT NOT NULL,
    lower INTEGER NOT NULL,
    upper INTEGER NOT NULL,
    best TEXT,
    nodes INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS jobs (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL,
    position TEXT NOT NULL,
    kind TEXT NOT NULL,
    alpha INTEGER NOT NULL,
    beta INTEGER NOT NULL,
    value INTEGER NOT NULL,
    best TEXT,
    nodes INTEGER NOT NULL,
    seconds REAL NOT NULL,
    worker TEXT NOT NULL,
    finished REAL NOT NULL
);
"""


class StoreError(GameError):
    """A store file that cannot be used: not a database, another game's, unreadable."""


@dataclass(frozen=True, slots=True)
class Bounds:
    """What is proved about one position: ``lower <= value <= upper``, and a move reaching
    ``lower`` (text; None when unknown or the position is finished).
    """

    lower: int
    upper: int
    best: str | None = None
    nodes: int = 0

    @property
    def exact(self) -> bool:
        """True when the value is known."""
        return self.lower == self.upper


@dataclass(frozen=True, slots=True)
class JobRecord:
    """One finished job as logged: position, window (alpha, beta), fail-soft value, best move
    (text), nodes searched and CPU seconds.  An exact solve logs the whole score range.
    """

    key: int
    position: str
    kind: str
    alpha: int
    beta: int
    value: int
    best: str | None
    nodes: int
    seconds: float
    worker: str = ""


def _check_existing(path: Path, game: str, scope: str) -> None:
    """Read ``path`` without write access and raise StoreError unless it is our store for
    ``game`` (and ``scope``).  A missing or empty file is fine (a new store).
    """
    if not path.exists() or path.stat().st_size == 0:
        return
    if not path.is_file():
        raise StoreError(f"{path}: not a regular file")
    try:
        con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise StoreError(f"{path}: cannot open: {exc}") from None
    try:
        rows = dict(con.execute("SELECT name, value FROM meta").fetchall())
    except sqlite3.Error as exc:
        detail = "not a sakiyomi store" if "no such table" in str(exc) else str(exc)
        raise StoreError(f"{path}: not a usable checkpoint/book ({detail})") from None
    finally:
        con.close()
    if rows.get("format") != FORMAT:
        raise StoreError(f"{path}: not a sakiyomi store")
    if rows.get("version") != VERSION:
        raise StoreError(f"{path}: store version {rows.get('version')}, expected {VERSION}")
    if rows.get("game") != game:
        raise StoreError(f"{path}: a store of game {rows.get('game')!r}, not {game!r}")
    if rows.get("scope", "") != scope:
        raise StoreError(f"{path}: a store of another {game} root ({rows.get('scope')!r})")


class Store:
    """A store file opened for one game (see the module doc); a context manager.

    ``Store(None, game)`` keeps everything in memory (a solve without ``--checkpoint``).
    Only the process that opened it writes (the parallel solver's coordinator).
    """

    def __init__(self, path: str | os.PathLike[str] | None, game: str, scope: str = "") -> None:
        self.game = game
        self.path = Path(path) if path is not None else None
        if self.path is not None:
            _check_existing(self.path, game, scope)
            if self.path.parent and not self.path.parent.exists():
                raise StoreError(f"{self.path}: directory {self.path.parent} does not exist")
        try:
            self._con = sqlite3.connect(str(self.path) if self.path else ":memory:",
                                        isolation_level=None, check_same_thread=False)
            if self.path is not None:
                self._con.execute("PRAGMA journal_mode=WAL")
                self._con.execute("PRAGMA synchronous=NORMAL")  # durable across a process kill
            self._con.executescript(_SCHEMA)
            with self._transaction():
                for name, value in (("format", FORMAT), ("version", VERSION), ("game", game),
                                    ("scope", scope)):
                    self._con.execute("INSERT OR IGNORE INTO meta VALUES (?, ?)", (name, value))
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot write the store: {exc}") from None

    # ---- context manager ------------------------------------------------------------------

    def __enter__(self) -> Store:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        """Close the file (everything was committed already)."""
        self._con.close()

    def _transaction(self) -> _Tx:
        """BEGIN now; used as ``with``: COMMIT at the end (ROLLBACK on an exception)."""
        self._con.execute("BEGIN IMMEDIATE")
        return _Tx(self._con)

    # ---- positions ------------------------------------------------------------------------

    def get(self, key: int) -> Bounds | None:
        """The bounds stored for the position with this key, if any."""
        row = self._con.execute("SELECT lower, upper, best, nodes FROM positions WHERE key = ?",
                                (str(key),)).fetchone()
        return Bounds(*row) if row is not None else None

    def all_positions(self) -> dict[int, Bounds]:
        """Every stored position (key -> bounds)."""
        rows = self._con.execute("SELECT key, lower, upper, best, nodes FROM positions")
        return {int(k): Bounds(lo, hi, best, nodes) for k, lo, hi, best, nodes in rows}

    def merge(self, key: int, position: str, bounds: Bounds) -> Bounds:
        """Tighten the stored bounds of a position with ``bounds`` and commit; returns what is
        now stored.  The best move goes with the lower bound it proves.
        """
        with self._transaction():
            merged = self._merge(key, position, bounds)
        return merged

    def _merge(self, key: int, position: str, bounds: Bounds) -> Bounds:
        old = self.get(key)
        if old is not None:
            lower, best = ((bounds.lower, bounds.best) if bounds.lower > old.lower
                           or (old.best is None and bounds.lower == old.lower)
                           else (old.lower, old.best))
            bounds = Bounds(lower, min(old.upper, bounds.upper), best,
                            old.nodes + bounds.nodes)
        self._con.execute(
            "INSERT OR REPLACE INTO positions VALUES (?, ?, ?, ?, ?, ?)",
            (str(key), position, bounds.lower, bounds.upper, bounds.best, bounds.nodes))
        return bounds

    def record(self, job: JobRecord, bounds: Bounds) -> Bounds:
        """Log a finished job and merge what it proved, in one transaction (a checkpoint)."""
        with self._transaction():
            self._con.execute(
                "INSERT INTO jobs (key, position, kind, alpha, beta, value, best, nodes, seconds,"
                " worker, finished) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (str(job.key), job.position, job.kind, job.alpha, job.beta, job.value, job.best,
                 job.nodes, job.seconds, job.worker, time.time()))
            merged = self._merge(job.key, job.position, bounds)
        return merged

    # ---- job log --------------------------------------------------------------------------

    def jobs(self) -> list[JobRecord]:
        """Every finished job, in the order they finished."""
        rows = self._con.execute(
            "SELECT key, position, kind, alpha, beta, value, best, nodes, seconds, worker "
            "FROM jobs ORDER BY id")
        return [JobRecord(int(k), *rest) for k, *rest in rows]

    def job_count(self) -> int:
        """How many jobs finished (in this file, over every run)."""
        count: int = self._con.execute("SELECT COUNT(*) FROM jobs").fetchone()[0]
        return count


class _Tx:
    """COMMIT on a clean exit, ROLLBACK on an exception (the BEGIN was issued already)."""

    def __init__(self, con: sqlite3.Connection) -> None:
        self.con = con

    def __enter__(self) -> sqlite3.Connection:
        return self.con

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.con.execute("ROLLBACK" if kind is not None else "COMMIT")
