"""Hex on small boards for sakiyomi: a game written as kernels outside the sakiyomi package.

``kernels`` holds the rules as kernels (plain Python, and the source that sakiyomi's
compiled template specialises with numba); ``game`` is the Python game class over the same
kernels.  Installed (``pip install examples/hex``), the package registers the game ``hex``
through the entry-point group ``sakiyomi.games`` (see pyproject.toml), so that ``sakiyomi
solve hex b2`` and the other commands know it by name.
"""

from __future__ import annotations

from sakiyomi.games import GameInfo

GAME = GameInfo("hex", "sakiyomi_hex.game",
                "Hex NxN, 2-7 (X joins top-bottom, O left-right; moves a1..; NxN: prefix)",
                "start")
