"""The chess engine: its answer before any iteration completes (``first_choice``), partial
iterations, quiet moves skipped without playing them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import chess
import pytest

from sakiyomi.game import HangingBeforePlay, MoveIds, QuietChecks, capable
from sakiyomi.games.chess import ChessGame
from sakiyomi.protocols.chess_engine import CHESS_CONFIG, first_choice, table_for, think
from sakiyomi.search.limits import Limits, SearchAborted, StopSignal
from sakiyomi.search.searcher import SearchConfig, Searcher
from tests.chess_support import mate_in


def _board(moves: str) -> chess.Board:
    board = chess.Board()
    for move in moves.split():
        board.push_uci(move)
    return board


def test_first_choice_takes_a_mate_in_one_and_leaves_losing_captures() -> None:
    mate = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4")
    assert first_choice(mate) == chess.Move.from_uci("f3f7")
    italian = _board("e2e4 e7e5 g1f3 b8c6 f1c4 f8c5")
    # python-chess generates Bxf7+ first; it loses the bishop for a pawn.
    assert next(iter(italian.legal_moves)) == chess.Move.from_uci("c4f7")
    choice = first_choice(italian)
    assert choice is not None and choice != chess.Move.from_uci("c4f7")
    assert choice in italian.legal_moves


def test_first_choice_prefers_the_table_move_and_handles_finished_positions() -> None:
    board = _board("d2d4 d7d5")
    tt = table_for(1)
    best, _ = think(board, Limits(depth=3), StopSignal(), tt=tt)
    assert first_choice(board, tt) == best
    assert first_choice(chess.Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")) is None  # stalemate


def _mates_in_two_with(board: chess.Board, move: chess.Move) -> bool:
    """``move`` mates at once or forces mate next move (brute force, independent of us)."""
    board.push(move)
    try:
        if board.is_checkmate():
            return True
        return not board.is_game_over() and all(
            _reply_mated(board, reply) for reply in list(board.legal_moves))
    finally:
        board.pop()


def _reply_mated(board: chess.Board, reply: chess.Move) -> bool:
    board.push(reply)
    try:
        return mate_in(board, 1)
    finally:
        board.pop()


def test_a_stopped_iteration_plays_a_root_move_that_raised_alpha_in_it() -> None:
    # Black mates in two (a7a2).  An unlimited search finds it at some depth D; at budgets
    # where depth D - 1 is complete and depth D is stopped part-way, partial=False keeps the
    # earlier move, and partial=True plays another move only when depth D has proven it
    # better: the mate.
    board = chess.Board("4k2r/rb6/2p1P3/8/6n1/8/N2PPPP1/3K1B1q b k - 2 27")
    assert mate_in(board, 2) and not mate_in(board, 1)
    done: list[tuple[chess.Move, int]] = []  # (best move, nodes) at each completed depth
    think(board.copy(), Limits(depth=8), StopSignal(), tt=table_for(1),
          on_info=lambda info: done.append((info.pv[0], info.stats.nodes)))
    found = next(d for d, (move, _) in enumerate(done) if _mates_in_two_with(board, move))
    assert found > 0, "the mate is seen only after a first iteration without it"
    low, high = done[found - 1][1], done[found][1]
    changed = 0
    # Budgets spread over the iteration, and densely over its last part: where the mate is
    # proven depends on the move order (with the pawn-structure terms it is the last 80 of
    # 7,300 nodes), and only budgets between that and the iteration's end can show it.
    budgets = sorted({*range(low + 1, high, max(1, (high - low) // 60)),
                      *range(max(low + 1, high - 200), high, 5)})
    for nodes in budgets:
        kept, info = think(board.copy(), Limits(nodes=nodes), StopSignal(nodes=nodes),
                           tt=table_for(1), partial=False)
        assert info is not None and kept == info.pv[0]
        assert info.depth == found  # depths count from 1
        move, info = think(board.copy(), Limits(nodes=nodes), StopSignal(nodes=nodes),
                           tt=table_for(1))
        assert info is not None and move is not None
        if move != info.pv[0]:
            changed += 1
            assert _mates_in_two_with(board, move), (nodes, move)
    assert changed > 0  # some budget stops depth D after the mate was found, before its end


class _PlaysEveryMove(ChessGame):
    """ChessGame without ``QuietChecks``: every skipped quiet move is played first."""

    may_give_check = None  # type: ignore[assignment]


def test_quiet_moves_skipped_unplayed_leave_the_tree_unchanged() -> None:
    # Our own middlegame: the same depth-6 tree (nodes, value, line) with fewer plays.
    fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 9"
    results = []
    for game_class in (ChessGame, _PlaysEveryMove):
        game = game_class(chess.Board(fen))
        assert capable(game, QuietChecks) == (game_class is ChessGame)
        plays = 0
        play = game.play

        def counted(move: chess.Move, play: Callable[[chess.Move], None] = play) -> None:
            nonlocal plays
            plays += 1
            play(move)

        game.play = counted  # type: ignore[method-assign]
        searcher: Searcher[chess.Move] = Searcher(game, CHESS_CONFIG)
        value = searcher.search(6)
        results.append((value, searcher.pv, searcher.stats.nodes, plays))
    (value, pv, nodes, plays), (value2, pv2, nodes2, plays2) = results
    assert (value, pv, nodes) == (value2, pv2, nodes2)
    assert plays < plays2 * 0.8


class _PlaysHangingMoves(ChessGame):
    """ChessGame without ``HangingBeforePlay``: a hanging move is played, found hanging
    (``hangs_piece``) and taken back.
    """

    move_hangs_piece = None  # type: ignore[assignment]


def _counted_search(game: ChessGame, config: SearchConfig, depth: int
                    ) -> tuple[int, tuple[chess.Move, ...], int, int]:
    """(value, line, nodes, moves played) of a search of ``game`` to ``depth``."""
    plays = 0
    play = game.play

    def counted(move: chess.Move) -> None:
        nonlocal plays
        plays += 1
        play(move)

    game.play = counted  # type: ignore[method-assign]
    searcher: Searcher[chess.Move] = Searcher(game, config)
    value = searcher.search(depth)
    return value, tuple(searcher.pv), searcher.stats.nodes, plays


def test_hanging_moves_skipped_unplayed_leave_the_tree_unchanged() -> None:
    # Hanging-move pruning (hanging_depth 3): the same tree whether hanging moves are tested
    # before play or played and taken back, with fewer plays; and another tree than without
    # the pruning (it does prune in chess; here the tree is larger, 14,203 nodes to 12,016:
    # which way it goes depends on the position).
    fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 9"
    config = replace(CHESS_CONFIG, hanging_depth=3)
    assert capable(ChessGame(), HangingBeforePlay)
    assert not capable(_PlaysHangingMoves(), HangingBeforePlay)
    value, pv, nodes, plays = _counted_search(ChessGame(chess.Board(fen)), config, 6)
    value2, pv2, nodes2, plays2 = _counted_search(_PlaysHangingMoves(chess.Board(fen)),
                                                  config, 6)
    assert (value, pv, nodes) == (value2, pv2, nodes2)
    assert plays < plays2
    unpruned = _counted_search(ChessGame(chess.Board(fen)), CHESS_CONFIG, 6)
    assert nodes != unpruned[2]


class _OrdersByMoveObjects(ChessGame):
    """ChessGame without ``MoveIds``: the orderer keys its history by the move objects."""

    move_id = None  # type: ignore[assignment]


def test_move_ids_leave_the_order_and_the_tree_unchanged() -> None:
    fen = "r2q1rk1/1b2bppp/p1n1pn2/1p6/3P4/P1NBPN2/1P3PPP/R1BQ1RK1 w - - 0 12"
    results = []
    for game_class in (ChessGame, _OrdersByMoveObjects):
        game = game_class(chess.Board(fen))
        assert capable(game, MoveIds) == (game_class is ChessGame)
        searcher: Searcher[chess.Move] = Searcher(game, CHESS_CONFIG)
        value = searcher.search(6)
        results.append((value, searcher.pv, searcher.stats))
    assert results[0] == results[1]


def test_a_stopped_first_iteration_gives_way_to_the_static_look() -> None:
    # Budgets that stop depth 1 part-way: its best move so far is just the first root move
    # it searched (every value beats -INF), so the answer is first_choice's, not that move.
    board = chess.Board()
    looked = first_choice(board)
    firsts = set()
    for nodes in (2, 3, 5, 8):
        move, info = think(board.copy(), Limits(nodes=nodes), StopSignal(nodes=nodes))
        assert info is None  # no iteration finished within the budget
        assert move == looked
        searcher: Searcher[chess.Move] = Searcher(ChessGame(board.copy()), CHESS_CONFIG,
                                                  stop=StopSignal(nodes=nodes))
        with pytest.raises(SearchAborted):
            searcher.search(1)
        firsts.add(searcher.root_best_move)
    assert firsts - {looked}, "some stopped iteration had a different move in hand"
