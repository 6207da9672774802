"""The king-zone term (session 21): ``shogi_eval.king_zone`` counts the squares next to a king
that the enemy attacks, scaled by the enemy's pieces in hand, and the evaluation that has it
stays colour-symmetric."""

from __future__ import annotations

import json
from pathlib import Path

from sakiyomi.games import shogi_eval as ev
from sakiyomi.games import shogi_facade as cs
from sakiyomi.games.shogi import START, ShogiGame

GAMES = Path(__file__).resolve().parent.parent / "bench" / "results" / "shogi"


def zone(sfen: str, color: int, tables: ev.Tables = ev.KING_ZONE) -> int:
    board = ShogiGame(sfen).board
    return ev.king_zone(tables, board.pieces, board.king_square(color), color,
                        board.pieces_in_hand[color ^ 1])


def flipped(sfen: str) -> str:
    """The same position with the colours swapped (board turned round, hands swapped)."""
    rows, side, hand, number = sfen.split()
    turned = "/".join(row[::-1] for row in rows.split("/")[::-1]).swapcase()
    fixed = []
    for row in turned.split("/"):  # a promotion mark stays in front of its letter
        out, i = "", 0
        while i < len(row):
            if i + 1 < len(row) and row[i + 1] == "+" and row[i].isalpha():
                out += "+" + row[i]
                i += 2
            else:
                out += row[i]
                i += 1
        fixed.append(out)
    return f"{'/'.join(fixed)} {'w' if side == 'b' else 'b'} {hand.swapcase()} {number}"


def test_nothing_presses_on_either_king_at_the_start() -> None:
    assert zone(START, cs.BLACK) == zone(START, cs.WHITE) == 0


def test_a_rook_on_a_file_next_to_the_king_and_the_hand_scales_it() -> None:
    # White's king on 5a, black's rook on 4e: it attacks 4b and 4a, both next to the king.
    assert zone("4k4/9/9/9/5R3/9/9/9/K8 b - 1", cs.WHITE) == 2 * ev.KING_ZONE.zone
    # A gold in black's hand (hand_threat 4): (4 + 4) / 4 times as much.
    assert zone("4k4/9/9/9/5R3/9/9/9/K8 b G 1", cs.WHITE) == 4 * ev.KING_ZONE.zone
    # A white pawn on 4c stops the rook short of the king's squares.
    assert zone("4k4/9/5p3/9/5R3/9/9/9/K8 b G 1", cs.WHITE) == 0
    # Black's own king is not pressed by anything.
    assert zone("4k4/9/9/9/5R3/9/9/9/K8 b G 1", cs.BLACK) == 0


def test_the_term_is_capped() -> None:
    # Two dragons and a horse round white's king on 5d, five kinds in black's hand.
    sfen = "3+R1+R3/9/2+B6/4k4/9/9/9/9/K8 b GSNLP 1"
    assert zone(sfen, cs.WHITE) == ev.ZONE_CAP


def test_the_evaluation_with_it_is_colour_symmetric_on_positions_of_our_games() -> None:
    record = next(json.loads(line) for line in
                  (GAMES / "s20-histprune_mobility_fsf10k_n10000.jsonl").open(encoding="utf-8")
                  if '"match-game"' in line)
    moves = record["moves"].split()
    seen = 0
    for ply in range(10, len(moves), 7):
        sfen = ShogiGame(START, moves[:ply]).sfen()
        game = ShogiGame(sfen, evaluation="kingzone")
        mirror = ShogiGame(flipped(sfen), evaluation="kingzone")
        assert game.evaluate() == mirror.evaluate(), sfen
        seen += 1
    assert seen >= 5


def test_the_full_evaluation_adds_the_term_only_in_the_kingzone_tables() -> None:
    sfen = "4k4/9/9/9/5R3/9/9/9/K8 b G 1"
    base = ShogiGame(sfen, evaluation="full").evaluate()
    with_zone = ShogiGame(sfen, evaluation="kingzone").evaluate()
    assert with_zone - base == 4 * ev.KING_ZONE.zone  # black to move, white's king pressed
