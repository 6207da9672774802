"""The evaluation taken apart (``chess_eval_parts``): its terms add up to ``evaluate()``,
and they are colour-symmetric."""

from __future__ import annotations

from collections.abc import Iterator

import chess
import pytest

from sakiyomi.games import chess_terms
from sakiyomi.games.chess import (
    EVAL_WEIGHTS,
    FITTED_WEIGHTS,
    STATIC_FIT_WEIGHTS,
    ChessGame,
    set_eval_weights,
)
from sakiyomi.games.chess_eval_parts import NAMES, features, in_use, white_parts
from sakiyomi.games.chess_pst import PHASE_TOTAL
from sakiyomi.games.chess_terms import pawn_parts, pawn_terms, piece_terms, rook_files
from tests.chess_support import middlegames


class AllTermsGame(ChessGame):
    """Every optional term of the evaluation switched on."""

    PIECE_TERMS = True
    MOBILITY = True
    KING_ATTACK = True


@pytest.mark.parametrize("game_type", [ChessGame, AllTermsGame])
def test_the_terms_in_use_add_up_to_the_evaluation(game_type: type[ChessGame]) -> None:
    weights = in_use(game_type)
    for board in middlegames(150, seed=7):
        game = game_type(board)
        total = sum(f * w for f, w in zip(features(game), weights, strict=True))
        # evaluate() divides the phase-weighted sum by PHASE_TOTAL, rounding down.
        assert round(total * PHASE_TOTAL) // PHASE_TOTAL == game.evaluate(), board.fen()


def test_terms_switched_off_are_left_out() -> None:
    weights = dict(zip(NAMES, in_use(ChessGame), strict=True))
    assert weights["material_mg"] == weights["passed_eg"] == 1.0
    assert weights["mobility_mg"] == weights["king_attack_mg"] == weights["tempo"] == 0.0
    assert dict(zip(NAMES, in_use(AllTermsGame), strict=True))["shelter_mg"] == 1.0


def test_a_mirrored_position_has_the_negated_features() -> None:
    for board in middlegames(100, seed=11):
        mirrored = board.mirror()
        plain, flipped = features(ChessGame(board)), features(ChessGame(mirrored))
        # Both from the side to move: the mirror swaps colours and the side to move, so the
        # side to move's view is the same.
        assert flipped == pytest.approx(plain), board.fen()
        white, mirrored_white = white_parts(ChessGame(board)), white_parts(ChessGame(mirrored))
        for name, (mg, eg) in white.items():
            assert mirrored_white[name] == (-mg, -eg), (name, board.fen())


def test_the_pawn_parts_and_rook_files_add_up_to_their_terms() -> None:
    for board in middlegames(100, seed=13):
        white, black = board.pawns & board.occupied_co[chess.WHITE], board.pawns & \
            board.occupied_co[chess.BLACK]
        parts = pawn_parts(white, black).values()
        assert (sum(p[0] for p in parts), sum(p[1] for p in parts)) == pawn_terms(white, black)
        shelter = white_parts(ChessGame(board))["shelter"]
        rooks = rook_files(board)
        assert (rooks[0] + shelter[0], rooks[1] + shelter[1]) == piece_terms(board)
        assert shelter[1] == 0  # the shelter is a middlegame term


def test_a_rook_on_an_open_file_is_a_rook_file_term_not_a_shelter_one() -> None:
    # Our own position: White's rook on the open d-file, kings without pawns in front.
    board = chess.Board("4k3/pp6/8/8/8/8/PP6/3RK3 w - - 0 1")
    parts = white_parts(ChessGame(board))
    assert parts["rook_files"][0] > 0
    assert parts["shelter"] == (0, 0)


@pytest.fixture
def restore_weights() -> Iterator[None]:
    """Put the engine's own weights back after a test that changes them."""
    yield
    set_eval_weights(EVAL_WEIGHTS)


def _weights_of(multipliers: dict[str, float], game_type: type[ChessGame]) -> list[float]:
    """``multipliers`` as weights of the features of ``game_type``'s terms (a term left out:
    1, a term switched off: 0; tempo: 0 unless given).
    """
    return [multipliers.get(name, 0.0) if name == "tempo" else use * multipliers.get(
        name, 1.0) for name, use in zip(NAMES, in_use(game_type), strict=True)]


@pytest.mark.parametrize(("multipliers", "game_type"), [(FITTED_WEIGHTS, AllTermsGame),
                                                        (STATIC_FIT_WEIGHTS, ChessGame)])
@pytest.mark.usefixtures("restore_weights")
def test_fitted_weights_evaluate_as_the_weighted_features(
        multipliers: dict[str, float], game_type: type[ChessGame]) -> None:
    # Every constant is rounded to whole centipawns after scaling, so the evaluation is the
    # weighted sum of the features up to that rounding (a few centipawns).
    weights = _weights_of(multipliers, game_type)
    for board in middlegames(100, seed=17):
        set_eval_weights({})
        row = features(game_type(board))
        set_eval_weights(multipliers)
        value = game_type(board).evaluate()
        assert abs(value - sum(f * w for f, w in zip(row, weights, strict=True))) <= 6
        assert game_type(board.mirror()).evaluate() == value, board.fen()


@pytest.mark.usefixtures("restore_weights")
def test_empty_weights_restore_the_evaluation_as_written() -> None:
    boards = middlegames(50, seed=19)
    set_eval_weights({})
    before = [AllTermsGame(board).evaluate() for board in boards]
    set_eval_weights({"mobility_mg": 3.0, "tables_eg": 0.5, "tempo": 9.0})
    changed = [AllTermsGame(board).evaluate() for board in boards]
    set_eval_weights({})
    assert [AllTermsGame(board).evaluate() for board in boards] == before
    assert changed != before


@pytest.mark.usefixtures("restore_weights")
def test_each_weighting_keeps_its_own_pawn_table() -> None:
    # Our own position: White's c-pawns doubled, nothing else changes with the weights.
    board = chess.Board("4k3/pp3ppp/8/8/8/2P5/P1P2PPP/4K3 w - - 0 1")
    white, black = board.pawns & board.occupied_co[chess.WHITE], board.pawns & \
        board.occupied_co[chess.BLACK]
    set_eval_weights({})
    plain = pawn_terms(white, black)
    set_eval_weights({"doubled_mg": 3.0})
    tripled = pawn_terms(white, black)  # a stale table entry would return ``plain``
    assert tripled[0] - plain[0] == -2 * chess_terms.DOUBLED_MG // 3
    assert tripled[1] == plain[1]
    set_eval_weights({})
    assert pawn_terms(white, black) == plain
