"""Mate detection inside the search (cshogi's 1- and 3-ply mate search behind
``ShogiGame.value_bounds``), cross-checked with the df-pn solver and the sets' answers (taken
from an independent AND/OR search): a check, not tuning.
"""

from __future__ import annotations

from sakiyomi.games.shogi import ShogiGame
from sakiyomi.games.shogi_facade import is_forced_mate_line
from sakiyomi.score import INF, win_in
from sakiyomi.search.dfpn import solve_mate
from sakiyomi.search.limits import StopSignal
from tests.shogi_data import rows

MATE3 = rows("mate3_yaneuraou.tsv")
MATE5 = rows("mate5_yaneuraou.tsv")
CLASSIC = [row for row in rows("tsume_classic.tsv") if row["mate_ply"] in ("1", "3")]


def _mates(game: ShogiGame, move: int, plies: int) -> bool:
    """Brute force: ``move`` checks and mates within ``plies`` (1 or 3) whatever the defence."""
    game.play(move)
    try:
        if not game.in_check():
            return False
        replies = list(game.legal_moves())
        if plies == 1 or not replies:
            return not replies
        for reply in replies:
            game.play(reply)
            try:
                if not any(_mates(game, check, 1) for check in game.checking_moves()):
                    return False
            finally:
                game.undo()
        return True
    finally:
        game.undo()


def _dfpn_length(game: ShogiGame) -> int | None:
    result = solve_mate(game, stop=StopSignal(seconds=30))
    return len(result.moves) if result.status == "mate" else None


def test_short_mates_are_detected_with_their_length() -> None:
    # cshogi's fixed-depth mate search is sound but not complete (its one-ply generator skips
    # some long-range moves, e.g. a bishop's mate from afar): whatever it finds is a shortest
    # mate whose first move is in the set's answers, and it finds most of them.
    found_count = 0
    for row in MATE3 + CLASSIC:
        game = ShogiGame(row["sfen"], mate_plies=3)
        found = game.mate_in(3)
        if found is None:
            continue
        found_count += 1
        length, move = found
        assert length >= int(row["mate_ply"]), row["id"]
        assert _mates(game, move, length), row["id"]
        if length == int(row["mate_ply"]):
            assert game.move_to_text(move) in row["first_moves"].split(","), row["id"]
        if length == 1:
            assert is_forced_mate_line(row["sfen"], [game.move_to_text(move)])
            assert game.value_bounds(4) == (win_in(5), win_in(5))
    assert found_count >= 0.9 * len(MATE3 + CLASSIC)


def test_detection_agrees_with_dfpn_on_the_mate_sets() -> None:
    # Every mate within three plies that df-pn proves is detected, with the same length, and
    # nothing is detected where df-pn's shortest mate is longer (the mate-in-5 set).
    for row in MATE3[:12] + MATE5[:12]:
        game = ShogiGame(row["sfen"], mate_plies=3)
        dfpn = _dfpn_length(ShogiGame(row["sfen"]))
        found = game.mate_in(3)
        assert dfpn is not None
        if dfpn <= 3:
            assert found is not None and found[0] == dfpn
        else:
            assert found is None


def test_no_detection_when_in_check_or_without_a_mate() -> None:
    start = ShogiGame(mate_plies=3)
    assert start.mate_in(3) is None and start.value_bounds(0) == (-INF, INF)
    checked = ShogiGame("4k4/9/9/9/9/9/9/4r4/4K4 b G 1", mate_plies=3)
    assert checked.mate_in(3) is None
    mate_in_one = ShogiGame("4k4/9/4P4/9/9/9/9/9/4K4 b G 1")
    assert mate_in_one.value_bounds(6) == (win_in(7), win_in(7))
    assert ShogiGame("4k4/9/4P4/9/9/9/9/9/4K4 b G 1", mate_plies=0).value_bounds(6) == (-INF, INF)
