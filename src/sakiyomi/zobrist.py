"""Zobrist keys for games without a perfect key: XOR of one random 64-bit word per feature."""

from __future__ import annotations

import random


class Zobrist:
    """A table of random 64-bit words for ``(square, piece)`` features plus the side to move.

    Seeded, so keys are reproducible across processes (needed for deterministic node counts).
    Update keys incrementally: ``key ^= z.feature(sq, piece)`` on every change, ``^= z.side``
    on every move.
    """

    def __init__(self, squares: int, pieces: int, seed: int = 0x5A4B1F0) -> None:
        rng = random.Random(seed)
        self._pieces = pieces
        self._table = [rng.getrandbits(64) for _ in range(squares * pieces)]
        self.side = rng.getrandbits(64)

    def feature(self, square: int, piece: int) -> int:
        """The word for ``piece`` on ``square``."""
        return self._table[square * self._pieces + piece]

    def key_of(self, features: list[tuple[int, int]], second_to_move: bool) -> int:
        """Key of a whole position, computed from scratch (for tests and set-up)."""
        key = self.side if second_to_move else 0
        for square, piece in features:
            key ^= self.feature(square, piece)
        return key
