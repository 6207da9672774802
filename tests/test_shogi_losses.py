"""bench/shogi_losses.py's bookkeeping, with a scripted stand-in for fairy-stockfish: the
move it picks is the one after which the score fell most, seen from our side, whichever
colour we had; mates count as ±30,000; lost positions are left out.
"""

from __future__ import annotations

from collections.abc import Callable

import cshogi
from bench.shogi_losses import MATE, worst_move

MOVES = "7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d 2h2d"


class ScriptedEngine:
    """Answers ``go`` with a score chosen by the position (its SFEN without a move number)."""

    def __init__(self, score_of: Callable[[str], str]) -> None:
        self.score_of = score_of
        self.sfen = ""

    def usinewgame(self) -> None:
        pass

    def position(self, sfen: str) -> None:
        self.sfen = sfen.removeprefix("sfen ").rsplit(" ", 1)[0]

    def go(self, nodes: int, listener: Callable[[str], None]) -> tuple[str, None]:
        listener(f"info depth 5 score {self.score_of(self.sfen)} nodes {nodes} pv 1g1f")
        return "1g1f", None


def sfens_after() -> list[str]:
    """The SFEN (without a move number) after each ply of ``MOVES``."""
    board = cshogi.Board()
    out = []
    for text in MOVES.split():
        board.push_usi(text)
        out.append(" ".join(board.sfen().split()[:3]))
    return out


def test_the_largest_drop_from_our_side_is_found_for_either_colour() -> None:
    after = sfens_after()
    # Scores for the side to move.  Black's moves are plies 0, 2, ...: after black's ply 6
    # (6i7h) white to move is +500 (black -500); before it black stood at +100.  Every
    # other position scores 0.
    scores = {after[5]: "cp 100", after[6]: "cp 500"}
    engine = ScriptedEngine(lambda sfen: scores.get(sfen, "cp 0"))
    record = {"game": 3, "sakiyomi": "black", "moves": MOVES}
    worst = worst_move(engine, record, 1000, 1500)
    assert worst is not None
    assert (worst["ply"], worst["move"], worst["before"], worst["after"]) == (6, "6i7h", 100, -500)
    assert worst["drop"] == 600
    # The same game seen as white's: white's moves are odd plies; after white's ply 7 (4a3b)
    # black to move is +400 (white -400).
    scores = {after[7]: "cp 400"}
    record = {"game": 4, "sakiyomi": "white", "moves": MOVES}
    worst = worst_move(engine, record, 1000, 1500)
    assert worst is not None and (worst["ply"], worst["after"]) == (7, -400)


def test_mates_count_and_lost_positions_are_left_out() -> None:
    after = sfens_after()
    # After black's ply 8 white mates: a drop to -MATE.  After ply 4, black was already lost
    # (-2,000 before it): that position is left out even though its drop is larger.
    scores = {after[3]: "cp -2000", after[4]: "cp 99999", after[8]: "mate 3"}
    engine = ScriptedEngine(lambda sfen: scores.get(sfen, "cp 0"))
    record = {"game": 5, "sakiyomi": "black", "moves": MOVES}
    worst = worst_move(engine, record, 1000, 1500)
    assert worst is not None
    assert (worst["ply"], worst["after"]) == (8, -MATE)
