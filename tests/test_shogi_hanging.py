"""Hanging-move pruning (session 19): the exchange test ``ShogiGame.hangs_piece`` and its
attack helper, the Searcher's ``hanging_depth`` and ``extend_hanging_checks`` switches, and the
shogi engine's USI switches for them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import chess

from sakiyomi.game import HangingBeforePlay, HangingMoves, QuietChecks, capable
from sakiyomi.games import shogi_eval as ev
from sakiyomi.games.shogi import START, ShogiGame
from sakiyomi.games.shogi_attacks import cheapest_attacker
from sakiyomi.protocols import shogi_engine as se
from sakiyomi.search.drivers import run
from sakiyomi.search.limits import Limits
from sakiyomi.search.searcher import SearchConfig, Searcher
from tests.chess_support import NoHangingChessGame
from tests.shogi_data import random_positions

# Our own positions.  White's king on 5a, Black's on 5i; Black holds a silver and a gold.
PAWN_GUARD = "4k4/9/5p3/5P3/9/9/9/9/4K4 b SG 1"  # white pawn 4c, black pawn 4d
GOLD_GUARD = "4k4/9/5g3/9/5P3/9/9/9/4K4 b SG 1"  # white gold 4c, black pawn 4e
SILVER_NEAR = "4k4/9/3S5/9/9/9/9/9/4K4 b SG 1"  # black silver 6c defends 5b
OPENING = ("7g7f", "3c3d", "2g2f", "8c8d", "2f2e", "8d8e", "6i7h", "4a3b", "2e2d", "2c2d",
           "2h2d")
HANGING_ROOK = "4k4/ppp3ppp/9/9/4r4/9/PP4PPP/9/B4K3 b - 1"


def after(sfen: str, move: str) -> ShogiGame:
    game = ShogiGame(sfen)
    game.play(game.move_from_text(move))
    return game


def test_cheapest_attacker_names_the_cheapest_of_several_or_none() -> None:
    game = ShogiGame("4k4/9/4gp3/9/9/9/9/9/4K4 b - 1")  # white gold 5c and pawn 4c
    pieces = game.board.pieces
    square = 3 * 9 + 3  # 4d (cshogi's (file - 1) * 9 + rank): the pawn and the gold attack it
    value = ev.FULL_VALUE
    assert cheapest_attacker(pieces, square, 1, value) == value[1]  # the pawn
    assert cheapest_attacker(pieces, 4 * 9 + 3, 1, value) == value[7]  # 5d: the gold only
    assert cheapest_attacker(pieces, 3 * 9 + 6, 1, value) == 0  # 4g: nobody
    assert cheapest_attacker(pieces, square, 0, value) == 0  # no black piece attacks 4d


def test_a_piece_a_cheaper_one_attacks_hangs_even_when_defended() -> None:
    assert after(PAWN_GUARD, "4d4c+").hangs_piece() is False  # a capture: never
    game = ShogiGame("4k4/5p3/9/5P3/9/9/9/9/4K4 b SG 1")  # white pawn 4b, black pawn 4d
    game.play(game.move_from_text("S*4c"))  # takes nothing; the pawn on 4b attacks it
    assert game.hangs_piece()


def test_a_defended_piece_attacked_by_a_dearer_one_does_not_hang() -> None:
    assert after(GOLD_GUARD, "S*4d").hangs_piece() is False
    undefended = GOLD_GUARD.replace("5P3", "9")
    assert after(undefended, "S*4d").hangs_piece()


def test_the_king_takes_only_what_nothing_defends() -> None:
    assert after(SILVER_NEAR, "G*5b").hangs_piece() is False  # the silver defends 5b
    assert after(SILVER_NEAR, "G*4b").hangs_piece()  # next to the king, undefended


def test_no_move_or_a_quiet_safe_move_hangs_nothing() -> None:
    game = ShogiGame(START)
    assert game.hangs_piece() is False
    game.play(game.move_from_text("7g7f"))
    assert game.hangs_piece() is False
    game.play_null()
    assert game.hangs_piece() is False


def test_the_switches_are_off_by_default_and_do_nothing_without_the_capability() -> None:
    config = SearchConfig()
    assert config.hanging_depth == 0 and config.extend_hanging_checks
    fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    switched = replace(config, check_extension=True, hanging_depth=3,
                       extend_hanging_checks=False)
    extended = replace(config, check_extension=True)
    assert not capable(NoHangingChessGame(), HangingMoves)
    plain = run(Searcher(NoHangingChessGame(chess.Board(fen)), extended), Limits(depth=3))
    other = run(Searcher(NoHangingChessGame(chess.Board(fen)), switched), Limits(depth=3))
    assert plain.stats == other.stats


def test_hanging_pruning_saves_nodes_and_keeps_the_capture() -> None:
    pruned = se.search_config(se.Options())
    assert pruned.hanging_depth == se.HANGING_DEPTH
    config = replace(pruned, hanging_depth=0)
    plain_run = run(Searcher(ShogiGame(START, OPENING), config), Limits(depth=5))
    pruned_run = run(Searcher(ShogiGame(START, OPENING), pruned), Limits(depth=5))
    assert pruned_run.stats.nodes < plain_run.stats.nodes
    taken = ShogiGame(HANGING_ROOK).move_from_text("9i5e")
    assert run(Searcher(ShogiGame(HANGING_ROOK), pruned), Limits(depth=4)).best_move == taken


def test_hanging_checks_are_not_extended_when_switched_off() -> None:
    # No hanging-move test anywhere: neither pruning out of check nor among evasions.
    config = replace(se.search_config(se.Options()), hanging_depth=0, hanging_evasion_depth=0)
    calls = []

    class Counting(ShogiGame):
        def hangs_piece(self) -> bool:
            hung = super().hangs_piece()
            calls.append(hung)
            return hung

    run(Searcher(Counting(START, OPENING), config), Limits(depth=4))
    assert not calls  # no pruning, checks extended: never asked
    stopped = replace(config, extend_hanging_checks=False)
    extended = run(Searcher(ShogiGame(START, OPENING), config), Limits(depth=4))
    shorter = run(Searcher(Counting(START, OPENING), stopped), Limits(depth=4))
    assert any(calls) and shorter.stats.nodes != extended.stats.nodes


def test_usi_switches_map_to_the_searcher_settings() -> None:
    options = se.Options()
    config = se.search_config(options)
    assert config.hanging_depth == se.HANGING_DEPTH and config.extend_hanging_checks
    options.switches.update(HangingPruning=False, HangingCheckExtension=False)
    config = se.search_config(options)
    assert config.hanging_depth == 0 and not config.extend_hanging_checks


def test_the_tests_before_play_answer_as_playing_the_move_would() -> None:
    # Every legal move of 60 positions (drops, promotions, checks), and a mate problem whose
    # attacker has no king: may_give_check against the board in check after the move,
    # move_hangs_piece against hangs_piece after it.
    problem = ShogiGame("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1")
    games = [*random_positions(60, seed=23), problem]
    checks = hangs = 0
    for game in games:
        for move in list(game.legal_moves()):
            expected = game.may_give_check(move), game.move_hangs_piece(move)
            game.play(move)
            found = game.in_check(), game.hangs_piece()
            game.undo()
            assert expected == found, (game.sfen(), game.move_to_text(move))
            checks += found[0]
            hangs += found[1]
    assert checks > 50 and hangs > 300  # the positions hold both kinds


class _PlaysEveryMove(ShogiGame):
    """ShogiGame without the tests before play: every skipped move is played first."""

    may_give_check = None  # type: ignore[assignment]
    move_hangs_piece = None  # type: ignore[assignment]


def test_moves_skipped_unplayed_leave_the_tree_unchanged() -> None:
    # The engine's settings: the same tree (value, line, nodes) with far fewer plays.
    sfen = ShogiGame(START, OPENING).sfen()
    results = []
    for game_class in (ShogiGame, _PlaysEveryMove):
        game = game_class(sfen)
        assert capable(game, QuietChecks) == capable(game, HangingBeforePlay) == (
            game_class is ShogiGame)
        plays = 0
        play = game.play

        def counted(move: int, play: Callable[[int], None] = play) -> None:
            nonlocal plays
            plays += 1
            play(move)

        game.play = counted  # type: ignore[method-assign]
        searcher: Searcher[int] = Searcher(game, se.search_config(se.Options()))
        value = searcher.search(5)
        results.append((value, searcher.pv, searcher.stats.nodes, plays))
    (value, pv, nodes, plays), (value2, pv2, nodes2, plays2) = results
    assert (value, pv, nodes) == (value2, pv2, nodes2)
    assert plays < plays2 * 0.6
