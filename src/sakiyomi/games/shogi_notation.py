"""Shogi moves as players write them: Japanese notation (KIF and KI2: ``７六歩``, ``▲2二角成``,
``同銀``, ``5八金右``, ``4五角打``, ``7六歩(77)``) and CSA (``+7776FU``), besides USI.

A text is read by writing every legal move in those notations (cshogi's own writers, so the
words that tell two pieces apart, 右 左 上 引 寄 直 打, are the usual ones) and comparing after
one normalisation: no spaces or side marks (▲△☗☖, CSA's + and -), digits as ASCII
(full-width and kanji numerals alike), and one spelling per piece (竜 = 龍, 王 = 玉, 全 = 成銀,
圭 = 成桂, 杏 = 成香).  A text that fits several moves is refused with the ways to tell them apart.
"""

from __future__ import annotations

from sakiyomi.game import MoveError
from sakiyomi.games import shogi_facade as cs

_DIGITS = str.maketrans("０１２３４５６７８９一二三四五六七八九", "0123456789123456789")
_SPELLINGS = (("竜", "龍"), ("王", "玉"), ("全", "成銀"), ("圭", "成桂"), ("杏", "成香"))
_MARKS = "▲△☗☖+-　 \t"


def normalised(text: str) -> str:
    """``text`` in the one form the comparison uses (see the module doc)."""
    t = text.translate(_DIGITS)
    for mark in _MARKS:
        t = t.replace(mark, "")
    for other, usual in _SPELLINGS:
        t = t.replace(other, usual)
    return t


def _written(move: int, board: cs.CBoard, previous: int) -> set[str]:
    """The normalised ways of writing ``move`` on ``board`` (before it is played)."""
    kif = normalised(cs.move_to_kif(move, previous))  # e.g. 73歩成(74), 同銀(31), 45角打
    ki2 = normalised(cs.move_to_ki2(move, board))  # e.g. 58金右, 22同銀, 73歩不成
    forms = {kif, ki2, normalised(cs.move_to_csa(move))}
    bare = kif.split("(")[0]
    forms.add(bare)  # 73歩成 / 同銀 / 45角打
    if bare.endswith("打"):
        forms.add(bare[:-1])  # a drop needs 打 only when a piece could also move there
    if ki2[2:3] == "同":  # 22同銀 (KIF 同銀(31)): also 同銀, 22銀 and 22銀(31)
        forms.add(ki2[2:])
        forms.add(ki2[:2] + ki2[3:])
        forms.add(ki2[:2] + kif[1:])
    return forms


def read_move(text: str, board: cs.CBoard, legal: list[int]) -> int | None:
    """The move of ``legal`` that ``text`` writes in Japanese or CSA notation; None when it
    writes none of them; ``MoveError`` when it fits several.
    """
    wanted = normalised(text)
    if not wanted:
        return None
    previous = board.peek()
    fits = [move for move in legal if wanted in _written(move, board, previous)]
    if len(fits) > 1:
        ways = " or ".join(cs.move_to_ki2(move, board) for move in fits)
        raise MoveError(f"{text!r} fits {len(fits)} moves here: write {ways}")
    return fits[0] if fits else None
