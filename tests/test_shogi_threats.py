"""The threat terms (session 27): the compiled attack maps of ``shogi_threats`` against the
Python attack tests of ``shogi_attacks``, hand-made positions with known threats, and the
side-to-move view of ``shogi_eval.threat_features`` under rotation."""

from __future__ import annotations

from sakiyomi.games import shogi_eval as ev
from sakiyomi.games import shogi_facade as cs
from sakiyomi.games.shogi import ShogiGame
from sakiyomi.games.shogi_attacks import attacked, cheapest_attacker
from sakiyomi.games.shogi_threats import KING_VALUE, MAX_CHECKS, TERMS, ThreatMaps
from tests.shogi_data import random_positions
from tests.test_shogi_king_zone import flipped

MATERIAL = ev.FITTED.material
MAPS = ThreatMaps(MATERIAL)


def reference(game: ShogiGame) -> list[int]:
    """``TERMS`` by the Python attack tests, square by square (the definitions, slowly)."""
    board = game.board
    pieces = board.pieces
    takers = tuple(KING_VALUE if kind == cs.KING else worth or 1
                   for kind, worth in enumerate(MATERIAL))
    terms: list[int] = []
    for color in (cs.BLACK, cs.WHITE):
        losses = []
        for square, piece in enumerate(pieces):
            if not piece or piece >> 4 != color or piece & 0xF == cs.KING:
                continue
            worth = MATERIAL[piece & 0xF]
            taker = cheapest_attacker(pieces, square, color ^ 1, takers)
            if not taker:
                continue
            if not attacked(pieces, square, color):
                losses.append(worth)
            elif taker < worth:
                losses.append(worth - taker)
        losses.sort(reverse=True)
        terms += [losses[0] if losses else 0, losses[1] if len(losses) > 1 else 0, len(losses)]
    for color in (cs.BLACK, cs.WHITE):
        king = board.king_square(color)
        terms.append(sum(attacked(pieces, square, color ^ 1) for square in ev.NEIGHBOURS[king])
                     if king < 81 else 0)
    return terms


def terms(sfen: str) -> dict[str, int]:
    board = ShogiGame(sfen).board
    values = MAPS.terms(board.pieces, board.king_square(cs.BLACK), board.king_square(cs.WHITE))
    return dict(zip(TERMS, values, strict=True))


def test_the_kernel_agrees_with_the_python_attack_tests() -> None:
    positions = random_positions(250, seed=27)
    threatened = 0
    for game in positions:
        board = game.board
        got = MAPS.terms(board.pieces, board.king_square(cs.BLACK), board.king_square(cs.WHITE))
        assert got == reference(game), game.sfen()
        threatened += got[2] + got[5]
    assert threatened > 250  # the positions do exercise the threats


def test_known_threats() -> None:
    # Black's rook on 5e is attacked by a white pawn on 5d and defended by the gold on 5f:
    # it loses a rook for a pawn.  The rook attacks the undefended pawn in turn.
    found = terms("4k4/9/9/4p4/4R4/4G4/9/9/4K4 b - 1")
    assert found["black's largest loss"] == MATERIAL[cs.ROOK] - MATERIAL[cs.PAWN]
    assert found["black's threatened pieces"] == 1
    assert found["white's largest loss"] == MATERIAL[cs.PAWN]
    assert found["white's threatened pieces"] == 1
    # Undefended: the whole rook.
    assert terms("4k4/9/9/4p4/4R4/9/9/9/4K4 b - 1")["black's largest loss"] == \
        MATERIAL[cs.ROOK]
    # A silver on 5b next to the white king (5a), attacked by the king alone and defended by
    # the gold on 5c: no threat.  The silver covers 4a and 6a, the gold 4b, 5b and 6b: all
    # five squares next to the king.
    found = terms("4k4/4S4/4G4/9/9/9/9/9/4K4 w - 1")
    assert found["black's threatened pieces"] == 0
    assert found["white king's zone hits"] == 5  # 4a 6a 4b 6b (silver, gold) and 5b itself
    # Two of white's pieces hang: the larger first.
    found = terms("4k4/9/9/9/1b1R3g1/9/9/9/4K4 b - 1")
    assert found["white's threatened pieces"] == 2
    assert found["white's largest loss"] == MATERIAL[cs.BISHOP]
    assert found["white's second loss"] == MATERIAL[cs.GOLD]


def test_features_are_the_side_to_moves_and_survive_rotation() -> None:
    checked = 0
    for game in random_positions(60, seed=28):
        sfen = game.sfen()
        if game.board.is_check():
            continue
        rotated = ShogiGame(flipped(" ".join(sfen.split()[:4])))
        mine = ev.threat_features(MAPS, game.board, game.board.pieces, ev.FULL.hand_threat)
        theirs = ev.threat_features(MAPS, rotated.board, rotated.board.pieces,
                                    ev.FULL.hand_threat)
        assert mine == theirs, sfen
        checks = len(game.checking_moves())
        assert mine[-2:] == [min(checks, MAX_CHECKS), 1 if checks else 0]
        checked += 1
    assert checked > 40


def test_the_compiled_score_is_the_weighted_features() -> None:
    tables = ev.FITTED
    assert tables.threats  # the default evaluation has the terms
    maps = ThreatMaps(tables.material, tables.threats)
    scores = set()
    for game in random_positions(80, seed=29):
        board, pieces = game.board, game.board.pieces
        features = ev.threat_features(maps, board, pieces, tables.hand_threat)
        expected = sum(w * f for w, f in zip(tables.threats, features, strict=True)) // 100
        black_hand, white_hand = board.pieces_in_hand
        score = maps.score(pieces, board.king_square(cs.BLACK), board.king_square(cs.WHITE),
                           board.turn, ev.drop_weight(tables.hand_threat, black_hand),
                           ev.drop_weight(tables.hand_threat, white_hand), features[-2])
        assert score == expected
        scores.add(expected)
    assert len(scores) > 40
