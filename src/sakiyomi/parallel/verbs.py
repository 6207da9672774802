"""The CLI's ``book`` verb, declared without loading the parallel solver: building the
argument parser happens on every command, so the store, the solver and SQLite are imported
only when ``book`` runs (``commands.run_book``).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable
from typing import Any

from sakiyomi.games import GAMES


def register(sub: Any, engines: Iterable[str], positive: Callable[[str], int]) -> None:
    """Add the ``book`` verb to the CLI's subparsers."""
    p = sub.add_parser("book", help="build or probe a book of solved positions (SQLite)")
    p.add_argument("action", choices=("build", "probe"),
                   help="build: solve every position to --depth plies below the root and keep "
                   "them; probe: look one position up")
    # The registry itself as choices (a built-in name is checked without reading plugins).
    p.add_argument("game", choices=GAMES, metavar="GAME", help="the game (as for solve)")
    p.add_argument("book", help="the book file (a store, as --checkpoint)")
    p.add_argument("--position", help="the root (build) or the position (probe)")
    p.add_argument("--depth", type=positive, help="plies below the root to solve")
    p.add_argument("--workers", type=positive, help="build with N worker processes")
    p.add_argument("--ray", metavar="ADDRESS", help="build on a Ray cluster ('auto' or host:port)")
    p.add_argument("--engine", choices=tuple(engines), default="auto",
                   help="compiled (numba) for kernel games, or the Python Searcher")
    p.set_defaults(run=_run_book)


def _run_book(args: argparse.Namespace) -> int:
    from sakiyomi.parallel.commands import run_book

    return run_book(args)
