"""The sliders' mobility term (session 20): ``shogi_eval.slider_mobility`` and its weight in
the full evaluation (``Tables.mobility`` per square; ``nomobility`` is the full evaluation
without it)."""

from __future__ import annotations

import random

from sakiyomi.games import shogi_eval as ev
from sakiyomi.games import shogi_facade as cs
from sakiyomi.games.shogi import START, ShogiGame


def mobility(sfen: str) -> int:
    return ev.slider_mobility(ShogiGame(sfen).board.pieces)


def test_a_lone_rook_sees_its_file_and_rank() -> None:
    assert mobility("8k/9/9/9/4R4/9/9/9/K8 b - 1") == 8 + 8
    assert mobility("8k/9/9/9/9/9/9/9/R7K b - 1") == 8 + 7  # its own king on 1i blocks


def test_own_pieces_block_and_enemy_pieces_count_once() -> None:
    own = mobility("k8/9/9/9/4R4/4P4/9/9/8K b - 1")  # own pawn below: 3 squares lost
    enemy = mobility("k8/9/9/9/4R4/4p4/9/9/8K b - 1")  # enemy pawn below: 1 to take
    assert own == 16 - 4
    assert enemy == 16 - 3


def test_white_counts_against_black_and_the_start_is_even() -> None:
    assert mobility("k8/9/9/9/4b4/9/9/9/8K b - 1") == -(4 + 4 + 4 + 3)  # 1i: black's king
    assert ev.slider_mobility(ShogiGame(START).board.pieces) == 0


def test_the_full_evaluation_adds_its_weight_per_square() -> None:
    line = ["7g7f", "3c3d", "2g2f"]
    without = ShogiGame(START, line, evaluation="nomobility")
    full = ShogiGame(START, line, evaluation="full")
    squares = ev.slider_mobility(full.board.pieces)
    assert squares != 0
    # White to move: the evaluation is white's view, black's mobility counts against it.
    assert full.evaluate() - without.evaluate() == -ev.FULL.mobility * squares
    assert ev.FULL.mobility == ev.MOBILITY_WEIGHT > 0
    assert ev.NO_MOBILITY.mobility == 0 and ev.KOMAWARI.mobility == 0


def _reference_mobility(pieces: list[int]) -> int:
    """The count square by square, each ray walked by file and rank steps."""
    sliders = {cs.ROOK: ORTHOGONAL, cs.DRAGON: ORTHOGONAL, cs.BISHOP: DIAGONAL,
               cs.HORSE: DIAGONAL}
    total = 0
    for square, piece in enumerate(pieces):
        if not piece or piece & 0xF not in sliders:
            continue
        color = piece >> 4
        count = 0
        for df, dr in sliders[piece & 0xF]:
            file, rank = divmod(square, 9)
            file, rank = file + df, rank + dr
            while 0 <= file < 9 and 0 <= rank < 9:
                other = pieces[file * 9 + rank]
                if other:
                    count += other >> 4 != color
                    break
                count += 1
                file, rank = file + df, rank + dr
        total += -count if color else count
    return total


ORTHOGONAL = ((0, 1), (0, -1), (1, 0), (-1, 0))
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def test_the_count_matches_a_square_by_square_walk_on_random_games() -> None:
    # Seeded random games (captures and drops, so promoted sliders and two of a kind on one
    # side come up): the term equals a walk over every square.
    rng = random.Random(20)
    seen: set[int] = set()
    for _ in range(6):
        game = ShogiGame(START)
        for _ in range(150):
            moves = game.legal_moves()
            if not moves:
                break
            game.play(rng.choice(moves))
            pieces = game.board.pieces
            assert ev.slider_mobility(pieces) == _reference_mobility(pieces)
            seen.update(piece for piece in pieces if piece & 0xF in (cs.HORSE, cs.DRAGON))
    assert seen  # promoted sliders were on the board
