"""The shogi adapter against published perft counts, cshogi itself and the seeds' 駒割."""

from __future__ import annotations

import random

import cshogi
import pytest

from sakiyomi.game import (
    CheckingMoves,
    Checks,
    MoveError,
    MoveHints,
    NoisyMoves,
    NullMove,
    Player,
    PositionError,
    RepetitionRules,
    TacticalMoves,
)
from sakiyomi.games import load
from sakiyomi.games.shogi import EVALUATIONS, SUPERIOR_VALUE, ShogiGame
from sakiyomi.games.shogi_eval import KOMAWARI, board_score
from sakiyomi.games.shogi_facade import rotate_sfen
from sakiyomi.score import loss_in, win_in
from sakiyomi.search.perft import perft
from tests.shogi_data import SLOW, rows

START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
# Leaf counting at the last ply: the cost is the number of positions one ply above the leaves,
# small for every row except hirate d5 (719,731) and matsuri d4 (4,809,015), kept for --slow.
_EXPENSIVE = {("hirate", 5), ("matsuri", 4)}
PERFT_REFERENCE = [
    pytest.param(r["name"], r["sfen"], int(r["depth"]), int(r["nodes"]),
                 marks=SLOW if (r["name"], int(r["depth"])) in _EXPENSIVE else [],
                 id=f"{r['name']}-d{r['depth']}")
    for r in rows("perft_reference.tsv")
]
MIDGAME = rows("midgame_perft.tsv")


@pytest.mark.parametrize(("name", "sfen", "depth", "nodes"), PERFT_REFERENCE)
def test_perft_matches_published_counts(name: str, sfen: str, depth: int, nodes: int) -> None:
    assert perft(load("shogi", sfen), depth) == nodes


@pytest.mark.parametrize("row", MIDGAME, ids=[r["id"] for r in MIDGAME])
def test_perft_midgame_positions(row: dict[str, str]) -> None:
    game = load("shogi", row["sfen"])
    assert game.in_check() == (row["in_check"] == "1")  # type: ignore[attr-defined]
    assert perft(game, 1) == int(row["perft1"])
    assert perft(game, 2) == int(row["perft2"])
    if int(row["perft3"]) <= 200_000:
        assert perft(game, 3) == int(row["perft3"])


def _random_line(game: ShogiGame, plies: int, rng: random.Random) -> int:
    for played in range(plies):
        moves = game.legal_moves()
        if not moves:
            return played
        game.play(rng.choice(list(moves)))
    return plies


def test_play_undo_restores_position_and_copy_is_independent() -> None:
    rng = random.Random(7)
    for row in MIDGAME[:8]:
        game = ShogiGame(row["sfen"])
        key, sfen, moves = game.key(), game.sfen(), list(game.legal_moves())
        clone = game.copy()
        played = _random_line(game, 30, rng)
        assert clone.key() == key and clone.sfen() == sfen
        for _ in range(played):
            game.undo()
        assert game.sfen() == sfen and game.key() == key
        assert list(game.legal_moves()) == moves


def test_transposed_move_orders_give_equal_keys() -> None:
    a = ShogiGame(START, ["7g7f", "3c3d", "2g2f"])
    b = ShogiGame(START, ["2g2f", "3c3d", "7g7f"])
    assert a.key() == b.key()
    assert ShogiGame(START, ["7g7f"]).key() != ShogiGame(START).key()


@pytest.mark.parametrize("evaluation", EVALUATIONS)
def test_incremental_score_equals_recount_and_undo(evaluation: str) -> None:
    rng = random.Random(3)
    for row in MIDGAME:
        game = ShogiGame(row["sfen"], evaluation=evaluation)
        for _ in range(40):
            moves = game.legal_moves()
            if not moves:
                break
            before = game.evaluate()
            move = rng.choice(list(moves))
            game.play(move)
            assert game._score[-1] == board_score(game.tables, game.board)
            game.undo()
            assert game.evaluate() == before
            game.play(move)


def test_checking_moves_equal_the_checks_among_legal_moves() -> None:
    rng = random.Random(11)
    for row in MIDGAME + rows("mate3_yaneuraou.tsv")[:20]:
        game = ShogiGame(row["sfen"])
        for _ in range(12):
            brute = set()
            for move in game.legal_moves():
                game.play(move)
                if game.board.is_check():
                    brute.add(move)
                game.undo()
            assert set(game.checking_moves()) == brute
            if not game.legal_moves():
                break
            game.play(rng.choice(list(game.legal_moves())))


@pytest.mark.parametrize("evaluation", EVALUATIONS)
def test_evaluation_is_symmetric_under_rotation(evaluation: str) -> None:
    # The board turned round with the colours swapped: the same position for the other side,
    # so the side to move scores it the same (the score from black's side is negated).
    rng = random.Random(5)
    for row in MIDGAME:
        game = ShogiGame(row["sfen"], evaluation=evaluation)
        for _ in range(4):
            _random_line(game, 6, rng)
            if game.outcome() is not None:
                break
            rotated = ShogiGame(rotate_sfen(game.sfen()), evaluation=evaluation)
            assert rotated.to_move != game.to_move
            assert rotated.evaluate() == game.evaluate()
            assert rotated._score[-1] == -game._score[-1]


def test_full_evaluation_prefers_castles_and_attacks() -> None:
    # Independent expectations, not values: a gold next to its king is worth more than the same
    # gold far away; a king on its back rank more than one in mid-board; with a rook in the
    # enemy's hand an open king is worse than a covered one.  (The hand-set evaluation's
    # design; the fitted one learnt its numbers from games and is checked in
    # test_shogi_eval_fit.py.)
    def full(sfen: str) -> ShogiGame:
        return ShogiGame(sfen, evaluation="full")

    near = full("4k4/9/9/9/9/9/9/4G4/4K4 b - 1").evaluate()
    far = full("4k4/9/9/9/G8/9/9/9/4K4 b - 1").evaluate()
    assert near > far
    home = full("4k4/9/9/9/9/9/9/9/4K4 b - 1").evaluate()
    exposed = full("4k4/9/9/9/4K4/9/9/9/9 b - 1").evaluate()
    assert home > exposed
    covered = full("4k4/9/9/9/9/9/3GSG3/3G1S3/4K4 w r 1").evaluate()
    bare = full("4k4/9/9/9/9/3GSG3/9/3G1S3/4K4 w r 1").evaluate()
    assert covered < bare  # white (to move) likes black's open king


def test_koma_wari_follows_seed_003() -> None:
    # Seed 003 (slides): 歩1 香5 桂6 銀8 金9 角13 飛15, 93 points a side at the start.
    value = KOMAWARI.material
    per_side = 9 * value[1] + 2 * value[2] + 2 * value[3] + 2 * value[4] + 2 * value[7] \
        + value[5] + value[6]
    assert per_side == 9300
    assert board_score(KOMAWARI, ShogiGame().board) == 0
    # A capture: black wins a silver (800 on the board, 800 in hand) and its pawn promotes
    # (a tokin counts as a gold, 900): 800 + 800 + 900 - 100.
    game = ShogiGame("4k4/9/4s4/4P4/9/9/9/9/4K4 b - 1", evaluation="komawari")
    before = game._score[-1]
    game.play(game.move_from_text("5d5c+"))
    assert game._score[-1] - before == 2400
    assert ShogiGame("4k4/9/9/9/9/9/9/9/4K4 b R 1", evaluation="komawari").evaluate() == 1500
    assert ShogiGame("4k4/9/9/9/9/9/9/9/4K4 b R 1").evaluate() > \
        ShogiGame("4k4/9/9/9/9/9/9/9/4K4 b B 1").evaluate()


def test_sennichite_and_perpetual_check_verdicts() -> None:
    game = ShogiGame(START)
    for cycle in range(3):
        for text in ("2h3h", "8b7b", "3h2h", "7b8b"):
            game.play(game.move_from_text(text))
        assert game.repetition_value(4) == 0  # a repetition on the path: draw
        outcome = game.outcome()
        assert (outcome is None) == (cycle < 2)  # fourth occurrence ends the game
    assert outcome is not None and outcome.winner is None and outcome.reason == "sennichite"

    # Black checks with the rook forever; white's king shuffles between 1a and 2a.
    game = ShogiGame("8k/9/9/9/9/9/9/9/K6R1 b - 1")
    line = ("2i1i", "1a2a", "1i2i", "2a1a") * 3
    for i, text in enumerate(line, 1):
        game.play(game.move_from_text(text))
        if i == 4:
            assert game.repetition_value(4) == loss_in(4)  # black (to move) gave the checks
        if i == 5:
            assert game.repetition_value(5) == win_in(5)  # white (to move) was checked
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == Player.SECOND
    assert outcome.reason == "perpetual check"


def test_superior_repetition_is_good_for_the_side_with_more_in_hand() -> None:
    # The board returns to the start, but black has won a pawn on the way (白 re-dropped it).
    game = ShogiGame("7k1/9/9/9/4p4/9/9/4R4/K8 b p 1")
    assert game.repetition_value(1) is None
    line = ("5h5e", "2a1a", "5e5h", "P*5e", "9i9h", "1a1b", "9h9i", "1b2a")
    for text in line:
        game.play(game.move_from_text(text))
    assert game.board.sfen().split()[0] == "7k1/9/9/9/4p4/9/9/4R4/K8"
    assert game.repetition_value(8) == SUPERIOR_VALUE  # black, to move, has an extra pawn


def test_entering_king_declaration_is_a_win_for_the_side_to_move() -> None:
    game = ShogiGame("KRRBBGG2/GGSS5/9/9/9/9/9/9/4k4 b 2S 1")
    assert game.can_declare()
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == Player.FIRST
    assert not ShogiGame("KRRBBGG2/GGSS5/9/9/9/9/9/9/4k4 b S 1").can_declare()


def test_checkmate_and_pawn_drop_mate() -> None:
    mated = ShogiGame("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1")
    outcome = mated.outcome()
    assert outcome is not None and outcome.winner == Player.FIRST
    assert outcome.reason == "checkmate"
    # Uchifuzume: dropping the pawn on 1b would mate, so it is not a legal move.
    game = ShogiGame("8k/9/7G1/9/9/9/9/9/K8 b P 1")
    cshogi_board = cshogi.Board("8k/9/7G1/9/9/9/9/9/K8 b P 1")
    texts = {game.move_to_text(m) for m in game.legal_moves()}
    assert texts == {cshogi.move_to_usi(m) for m in cshogi_board.legal_moves}


def test_capabilities_are_declared() -> None:
    game = ShogiGame()
    for capability in (MoveHints, NoisyMoves, RepetitionRules, CheckingMoves, Checks, NullMove,
                       TacticalMoves):
        assert isinstance(game, capability)
    game = ShogiGame("4k4/9/4s4/4P4/9/9/9/9/4K4 b - 1")
    noisy = [game.move_to_text(m) for m in game.noisy_moves()]
    assert noisy == ["5d5c+"]  # a pawn capturing into the camp is only tried promoting
    hints = dict(zip(game.legal_moves(), game.move_hints(game.legal_moves()), strict=True))
    assert hints[game.move_from_text("5d5c+")] > hints[game.move_from_text("5i4h")]
    key = game.key()
    sides = [game.to_move]
    game.play_null()
    sides.append(game.to_move)
    assert game.key() != key and game.copy().key() == game.key()
    game.undo()  # undo() takes back a null move too (an aborted search unwinds with it)
    sides.append(game.to_move)
    assert sides == [Player.FIRST, Player.SECOND, Player.FIRST] and game.key() == key
    assert game.is_tactical(game.move_from_text("5d5c"))
    assert not game.is_tactical(game.move_from_text("5i4h"))


def test_quiescence_skips_losing_captures_of_defended_pieces() -> None:
    defended = ShogiGame("4k4/9/9/4g4/4p4/9/9/4R4/4K4 b - 1")  # the gold retakes on 5e
    loose = ShogiGame("4k4/9/9/9/4p4/9/9/4R4/4K4 b - 1")
    assert [defended.move_to_text(m) for m in defended.noisy_moves()] == []
    assert [loose.move_to_text(m) for m in loose.noisy_moves()] == ["5h5e"]
    even = ShogiGame("4k4/9/9/4g4/4r4/9/9/4R4/4K4 b - 1")  # rook for rook: always tried
    assert [even.move_to_text(m) for m in even.noisy_moves()] == ["5h5e"]


BAD_SFENS = [
    "garbage",
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1 b - 1",  # 8 ranks
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1",
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN b - 1",  # 8 files
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 19P 1",
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b P 1",  # 19 pawns
    "P3k4/9/9/9/9/9/9/9/4K4 b - 1",  # pawn that can never move
    "4k4/9/9/4P4/9/4P4/9/9/4K4 b - 1",  # nifu
    "4k4/4R4/9/9/9/9/9/9/4K4 b - 1",  # the side not to move is in check
    "4k4/9/9/9/9/9/9/9/4K4 b - x",
    "4k4/9/9/9/9/9/9/9/4+K4 b - 1",
    "9/9/9/9/9/9/9/9/9 b - 1",
]


@pytest.mark.parametrize("sfen", BAD_SFENS)
def test_bad_sfen_is_a_position_error(sfen: str) -> None:
    with pytest.raises(PositionError):
        load("shogi", sfen)


@pytest.mark.parametrize("text", ["zzzz", "7g7f+", "7g7e", "P*5e", "1a1a", "", "7g7f7"])
def test_bad_move_is_a_move_error(text: str) -> None:
    with pytest.raises(MoveError):
        ShogiGame().move_from_text(text)


def test_position_text_with_moves() -> None:
    game = load("shogi", "startpos moves 7g7f 3c3d")
    assert game.to_move == Player.FIRST
    assert load("shogi", f"sfen {START} moves 7g7f").key() == \
        load("shogi", "startpos moves 7g7f").key()
    with pytest.raises(MoveError):
        load("shogi", "startpos moves 7g7f 7g7f")
