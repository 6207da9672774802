"""The compiled exchange tests (session 28): ``shogi_exchange.Exchanges`` against the Python
attack tests of ``shogi_attacks`` on the board each move leaves (played on cshogi's board),
for every legal move of random positions: drops, promotions and captures included."""

from __future__ import annotations

from sakiyomi.games import shogi_eval as ev
from sakiyomi.games.shogi import ShogiGame
from sakiyomi.games.shogi_attacks import attacked, cheapest_attacker
from sakiyomi.games.shogi_exchange import ATTACKED, HANGS, Exchanges
from sakiyomi.games.shogi_threats import KING_VALUE
from tests.shogi_data import random_positions

MATERIAL = ev.FITTED.material
VALUES = tuple(KING_VALUE if worth == 0 else worth for worth in MATERIAL)


def expected(pieces: list[int], square: int, taker: int) -> int:
    """The bits by the Python tests: ``taker`` attacks ``square`` of the board list
    ``pieces``, and wins the piece there (a cheaper attacker, or no defender).
    """
    cheapest = cheapest_attacker(pieces, square, taker, VALUES)
    if not cheapest:
        return 0
    if cheapest < VALUES[pieces[square] & 0xF] or not attacked(pieces, square, taker ^ 1):
        return ATTACKED | HANGS
    return ATTACKED


def test_the_kernel_is_the_python_exchange_test() -> None:
    exchanges = Exchanges(MATERIAL)
    seen = {0: 0, ATTACKED: 0, ATTACKED | HANGS: 0}
    for game in random_positions(60, seed=284):
        board = game.board
        exchanges.load(board.pieces)
        turn = board.turn
        for move in list(board.legal_moves):
            board.push(move)
            after = board.pieces
            board.pop()
            bits = exchanges.test(move, turn)
            assert bits == expected(after, move & 0x7F, turn ^ 1), (game.sfen(), move)
            seen[bits] += 1
    assert min(seen.values()) > 100  # every answer comes up


def test_a_promotion_and_a_drop() -> None:
    # Black's pawn on 5d takes 5c promoting: a tokin (worth a gold) that white's gold on 5b
    # takes, defended by nothing; a rook dropped on 1e is attacked by nothing.
    game = ShogiGame("4k4/4g4/4p4/4P4/9/9/9/9/4K4 b R 1")
    exchanges = Exchanges(MATERIAL)
    exchanges.load(game.board.pieces)
    take = game.move_from_text("5d5c+")
    assert exchanges.test(take, 0) == ATTACKED | HANGS
    drop = game.move_from_text("R*1e")
    assert exchanges.test(drop, 0) == 0
