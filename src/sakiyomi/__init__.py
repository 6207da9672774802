"""sakiyomi (先読み, "reading ahead"): game-tree search for two-player zero-sum games."""

__version__ = "0.1.0"
