"""A short node-limited game against Fairy-Stockfish (Debian ``fairy-stockfish``, USI): every
answer of our engine is a legal move (or a correct resign / declaration).  Slow: it starts two
engine processes and plays up to 60 plies; bench/shogi.py plays the real matches.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from tests.shogi_data import SLOW

cshogi = pytest.importorskip("cshogi")
usi = pytest.importorskip("cshogi.usi")

SCRIPT = Path(sys.executable).parent / "sakiyomi-usi"
OURS = str(SCRIPT) if SCRIPT.exists() else shutil.which("sakiyomi-usi") or str(SCRIPT)
FSF = shutil.which("fairy-stockfish") or shutil.which("/usr/games/fairy-stockfish")


@pytest.mark.parametrize("ours_black", [True, False])
@pytest.mark.skipif(FSF is None, reason="fairy-stockfish is not installed (apt)")
@pytest.mark.parametrize("_", [pytest.param(None, marks=SLOW)])
def test_node_limited_game_against_fairy_stockfish(ours_black: bool, _: None) -> None:
    ours, theirs = usi.Engine(OURS), usi.Engine(FSF)
    try:
        theirs.setoption("USI_Variant", "shogi")
        for engine in (ours, theirs):
            engine.isready()
            engine.usinewgame()
        board = cshogi.Board()
        moves: list[str] = []
        while len(moves) < 60 and not board.is_game_over():
            our_turn = (board.turn == cshogi.BLACK) == ours_black
            engine = ours if our_turn else theirs
            engine.position(moves)
            best, _ponder = engine.go(nodes=400 if our_turn else 200)
            if best in ("resign", "win"):
                if our_turn:  # we resign only when mated, declare only when entitled
                    assert board.is_game_over() if best == "resign" else board.is_nyugyoku()
                break
            move = board.move_from_usi(best)
            assert move and board.is_legal(move), (best, board.sfen())
            board.push(move)
            moves.append(best)
        assert moves
    finally:
        ours.quit()
        theirs.quit()
