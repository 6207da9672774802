"""``ShogiGame.move_hints`` (session 28 wrote it as one comprehension): each move's hint as
its docstring defines it — a capture by victim and attacker, a losing capture onto a
recapturable square -1, a promotion +50 — on random positions, for the full evaluation and
for the material one (which never tests recaptures)."""

from __future__ import annotations

import pytest

from sakiyomi.games.shogi import ShogiGame
from sakiyomi.games.shogi_attacks import attacked
from tests.shogi_data import random_positions


def expected(game: ShogiGame, move: int) -> int:
    value = game.tables.material
    hint = 0
    captured = (move >> 20) & 0xF
    if captured:
        attacker = value[(move >> 16) & 0xF]
        game.play(move)
        recapturable = attacked(game.board.pieces, move & 0x7F, game.board.turn)
        game.undo()
        if game.tables.safety and value[captured] < attacker and recapturable:
            hint = -1
        else:
            hint = value[captured] // 10 + 200 - attacker // 100
    return hint + 50 if move & (1 << 14) else hint


@pytest.mark.parametrize("evaluation", ["fitted", "komawari"])
def test_hints_follow_the_definition(evaluation: str) -> None:
    seen = set()
    for position in random_positions(40, seed=283):
        game = position.with_settings(evaluation, 1)
        moves = list(game.legal_moves())
        hints = game.move_hints(moves)
        assert hints == [expected(game, move) for move in moves], game.sfen()
        seen.update(hints)
    assert -1 in seen or evaluation == "komawari"
    assert 50 in seen and len(seen) > 10
