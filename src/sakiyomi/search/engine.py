"""The engine interface: what every driver needs from a node search (DESIGN.md §1.1, §4).

Two engines implement it and visit the same nodes for the same settings: the Python
``Searcher`` (``sakiyomi.search.searcher``) for every game, and the compiled template for games
whose rules are numba kernels (``sakiyomi.engines.CompiledEngine``).  Drivers — iterative
deepening, aspiration windows, MTD(f), exact / win-draw-loss solving, analyze, MultiPV — are
written once against this Protocol (``search/drivers.py``, ``search/solve.py``), and callers
obtain an engine from ``sakiyomi.engines.engine_for``.

Root contract of ``search(depth, alpha, beta)`` with true value ``t`` of the depth-limited
tree (fail-soft): ``v <= alpha`` ⇒ ``t <= v``; ``v >= beta`` ⇒ ``t >= v``; otherwise ``v == t``.
It searches the engine's ``game`` at its current position (drivers may ``play``/``undo`` moves
on it between calls, e.g. analyze) and leaves that position as it found it.  When ``stop``
fires (time, nodes or an external ``stop()``), it raises ``SearchAborted`` within a few
thousand nodes and the game is back at the root.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Protocol, TypeVar

from sakiyomi.game import Game
from sakiyomi.score import INF
from sakiyomi.search.limits import StopSignal
from sakiyomi.search.result import SearchStats

M = TypeVar("M", bound=Hashable)


class SettingsLike(Protocol):
    """The settings drivers read from an engine (a ``SearchConfig``)."""

    @property
    def bisection(self) -> str:
        """Probe order of exact solving: 'zero' or 'pons'."""
        ...

    @property
    def guess_depth(self) -> int:
        """Exact solving's first-guess search depth (0: none; ``SearchConfig.guess_depth``)."""
        ...


class Engine(Protocol[M]):
    """A stoppable, observable node search over one game position (see the module doc)."""

    game: Game[M]
    stop: StopSignal

    @property
    def config(self) -> SettingsLike:
        """The settings the engine runs with."""
        ...

    @property
    def stats(self) -> SearchStats:
        """Counters since the engine was made (nodes, leaves, TT probes, …); a live snapshot."""
        ...

    @property
    def pv(self) -> tuple[M, ...]:
        """Principal variation of the last completed root search."""
        ...

    @property
    def root_best_move(self) -> M | None:
        """The best root move of the last root search (also of one that failed low/high)."""
        ...

    @property
    def hit_horizon(self) -> bool:
        """True when the last search met its depth limit somewhere (False: the value is exact)."""
        ...

    def search(self, depth: int, alpha: int = -INF, beta: int = INF, ply: int = 0) -> int:
        """Fail-soft search of the root to ``depth`` plies inside (alpha, beta); ``ply`` > 0:
        of the game's position as a node that many plies below the root (values in the root's
        frame; the root's PV and best move untouched).
        """
        ...

    def new_search(self) -> None:
        """Start a new generation in the table: older entries become preferred victims."""
        ...

    def hashfull(self) -> int:
        """Table fill in permille (0 without a table)."""
        ...
