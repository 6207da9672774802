"""Shogi moves in the notations players write (``games.shogi_notation``): Japanese (KIF, KI2)
and CSA besides USI, each read back to the one legal move it writes, ambiguity refused.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sakiyomi.game import MoveError
from sakiyomi.games import load
from sakiyomi.games.shogi import ShogiGame
from sakiyomi.games.shogi_notation import normalised


def game(position: str = "startpos") -> ShogiGame:
    loaded = load("shogi", position)
    assert isinstance(loaded, ShogiGame)
    return loaded


def usi(g: ShogiGame, text: str) -> str:
    return g.move_to_text(g.move_from_text(text))


@pytest.mark.parametrize("text", ["7g7f", "７六歩", "76歩", "▲7六歩", "☗７六歩", "7六歩(77)",
                                  "+7776FU", "7776FU", " ７ 六 歩 "])
def test_the_first_move_in_every_notation(text: str) -> None:
    assert usi(game(), text) == "7g7f"


def test_two_pieces_that_reach_one_square_need_the_word_that_tells_them_apart() -> None:
    g = game()
    with pytest.raises(MoveError, match="fits 2 moves here: write ▲５八金右 or ▲５八金左"):
        g.move_from_text("58金")
    assert usi(g, "５八金右") == "4i5h" and usi(g, "58金左") == "6i5h"
    assert usi(g, "78金") == "6i7h"  # only one gold reaches 7八


def test_same_square_recapture_promotion_and_white_in_csa() -> None:
    g = game("startpos moves 7g7f 3c3d 8h2b+")
    for text in ("同銀", "同　銀", "△２二同銀", "22銀", "-3122GI", "2二銀(31)"):
        assert usi(g, text) == "3a2b", text
    assert usi(game("startpos moves 7g7f 3c3d"), "22角成") == "8h2b+"
    assert usi(game("startpos moves 7g7f 3c3d"), "２二角不成") == "8h2b"


def test_a_pawn_that_may_promote() -> None:
    g = game("4k4/9/9/2P6/9/9/9/9/4K4 b - 1")
    assert usi(g, "73歩成") == "7d7c+"
    assert usi(g, "73歩不成") == "7d7c" and usi(g, "７三歩") == "7d7c"  # KIF: 不成 unwritten
    with pytest.raises(MoveError):
        g.move_from_text("73と")  # a pawn is と only once it has promoted


def test_drops_with_and_without_打() -> None:
    g = game("startpos moves 7g7f 3c3d 8h2b+ 3a2b")  # black holds a bishop
    assert usi(g, "４五角打") == "B*4e" and usi(g, "45角") == "B*4e"


def test_spellings_of_the_same_piece() -> None:
    assert normalised("５五竜") == normalised("55龍") == "55龍"
    assert normalised("５八王") == "58玉" and normalised("１一杏") == "11成香"
    assert usi(game(), "５八王") == usi(game(), "58玉") == "5i5h"


@pytest.mark.parametrize("text", ["55歩", "同歩", "xx", "", "５八", "7g7e"])
def test_what_writes_no_legal_move_is_refused_in_one_line(text: str) -> None:
    with pytest.raises(MoveError) as caught:
        game().move_from_text(text)
    assert "\n" not in str(caught.value)


def test_moves_are_named_as_players_write_them_and_read_back() -> None:
    from sakiyomi.match import shown_move

    g = game("startpos moves 7g7f 3c3d 8h2b+")
    recapture = g.move_from_text("3a2b")
    assert g.move_name(recapture) == "△２二同銀"
    assert shown_move(g, recapture) == "3a2b (△２二同銀)"
    # every legal move's name reads back to that move (the names tell the moves apart)
    for position in ("startpos", "startpos moves 7g7f 3c3d 8h2b+ 3a2b",
                     "4k4/9/9/2P6/9/9/9/9/4K4 b G 1"):
        g = game(position)
        for move in g.legal_moves():
            assert g.move_from_text(g.move_name(move)) == move


@given(st.text(alphabet=st.sampled_from(list("0123456789０１２３４５６７８９一二三四五六七八九"
                                             "歩香桂銀金角飛玉王と成不打同右左上引寄直竜龍馬"
                                             "▲△+-( )FUKIGHXabcdefghi*PLNSGBR")), max_size=12))
@settings(max_examples=300, deadline=None)
def test_any_text_is_a_legal_move_or_one_clear_refusal(text: str) -> None:
    g = game("startpos moves 7g7f 3c3d 8h2b+")
    try:
        move = g.move_from_text(text)
    except MoveError as exc:
        assert "\n" not in str(exc)
        return
    assert move in list(g.legal_moves())
