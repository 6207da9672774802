"""The Searcher's selective switches (check extension, null move, LMR and its logarithmic rule,
futility, late-move pruning, reverse futility)."""

from __future__ import annotations

import math
from dataclasses import replace

import chess
import pytest

from sakiyomi.games.chess import ChessGame
from sakiyomi.games.tictactoe import from_position as tictactoe
from sakiyomi.games.tree import TreeGame, random_tree
from sakiyomi.score import WIN, is_win
from sakiyomi.search import textbook
from sakiyomi.search.drivers import run
from sakiyomi.search.limits import Limits
from sakiyomi.search.searcher import SearchConfig, Searcher, _reduction_table
from tests.chess_support import epd_lines, mate_in

SELECTIVE = SearchConfig(check_extension=True, null_move=True, lmr=True, futility=True)
SELECTIVE_WIDE = SearchConfig(check_extension=True, null_move=True, lmr=True, futility=True,
                              lmr_divisor=2.0, late_move_counts=(0, 8, 14, 22),
                              reverse_futility_margins=(0, 90, 180))
ONE_SWITCH = {
    "none": SearchConfig(),
    "check_extension": SearchConfig(check_extension=True),
    "null_move": SearchConfig(null_move=True),
    "lmr": SearchConfig(lmr=True),
    "futility": SearchConfig(futility=True),
    "mate_distance": SearchConfig(mate_distance=True),
    "log_lmr": SearchConfig(lmr=True, lmr_divisor=2.0),
    "late_move_pruning": SearchConfig(late_move_counts=(0, 4, 8, 12)),
    "reverse_futility": SearchConfig(reverse_futility_margins=(0, 90, 180, 270)),
    "counter_moves": SearchConfig(counter_moves=True),
    "history_malus": SearchConfig(history_malus=True),
    "delta_pruning": SearchConfig(delta_margin=200),
    "razoring": SearchConfig(razor_margins=(0, 250, 450)),
    "iir": SearchConfig(iir_depth=2),
    "null_move_adaptive": SearchConfig(null_move=True, null_move_reduction=3,
                                       null_move_depth_divisor=3, null_move_eval_divisor=150),
    "improving": SearchConfig(improving=True, late_move_counts=(0, 4, 8, 12),
                              reverse_futility_margins=(0, 90, 180, 270)),
}


def test_switches_are_off_by_default() -> None:
    config = SearchConfig()
    assert not (config.check_extension or config.null_move or config.lmr or config.futility
                or config.mate_distance or config.late_move_counts or config.lmr_divisor
                or config.reverse_futility_margins or config.counter_moves
                or config.history_malus or config.delta_margin or config.razor_margins
                or config.iir_depth or config.null_move_depth_divisor
                or config.null_move_eval_divisor or config.improving)


def test_switches_do_nothing_for_games_without_the_capabilities() -> None:
    for game, depth in ((tictactoe("tictactoe", "start"), 9), (TreeGame(random_tree(7, 4, 3)), 4)):
        for config in (SELECTIVE, SELECTIVE_WIDE):
            plain = Searcher(game.copy(), SearchConfig())
            selective = Searcher(game.copy(), config)
            assert plain.search(depth) == selective.search(depth)
            assert plain.stats == selective.stats


def test_delta_pruning_does_nothing_for_games_without_noisy_gains() -> None:
    game = TreeGame(random_tree(7, 4, 3))
    plain = Searcher(game.copy(), SearchConfig())
    pruned = Searcher(game.copy(), SearchConfig(delta_margin=1))
    assert plain.search(4) == pruned.search(4)
    assert plain.stats == pruned.stats


def test_delta_pruning_skips_captures_that_cannot_reach_alpha() -> None:
    # Our own position: White is a rook and a knight up; Black's pawn takes on c2 or e2
    # (quiescence at the root, depth 0).  Neither capture can bring Black up to alpha.
    board = chess.Board("4k3/8/8/8/8/3p4/2P1P3/R3K1N1 b - - 0 1")
    plain = Searcher(ChessGame(board.copy()), SearchConfig())
    pruned = Searcher(ChessGame(board.copy()), SearchConfig(delta_margin=100))
    alpha = -200
    assert plain.search(0, alpha, alpha + 1) <= alpha
    assert plain.stats.qnodes >= 2  # both captures searched
    assert pruned.search(0, alpha, alpha + 1) <= alpha
    assert pruned.stats.qnodes == 0  # both skipped
    # A window the captures can reach: nothing is skipped, the value is unchanged.
    low = Searcher(ChessGame(board.copy()), SearchConfig(delta_margin=100))
    full = Searcher(ChessGame(board.copy()), SearchConfig())
    assert low.search(0, -2000, 2000) == full.search(0, -2000, 2000)
    assert low.stats.qnodes == full.stats.qnodes


def test_logarithmic_reductions_keep_a_ply_and_grow_with_depth_and_move_number() -> None:
    table = _reduction_table(2.0)
    for depth in range(2, 64):
        row = table[depth]
        assert all(1 <= r <= max(1, depth - 2) for r in row)  # the child searches >= 1 ply
        assert list(row) == sorted(row)
        # ln(d)·ln(i)/2 + 0.5, rounded down, where the depth cap does not bind
        for index in (3, 10, 40):
            formula = int(math.log(depth) * math.log(index) / 2.0 + 0.5)
            assert row[index] == max(1, min(formula, depth - 2))
    assert table[10][40] > table[10][4] and table[20][20] > table[4][20]


def test_the_reduction_table_is_built_once_per_divisor() -> None:
    # every search call asks for it: the same object comes back, a new divisor gets its own
    assert _reduction_table(2.25) is _reduction_table(2.25)
    assert _reduction_table(2.5) is not _reduction_table(2.25)
    assert _reduction_table(2.5) != _reduction_table(2.25)


@pytest.mark.parametrize("fen", [
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
])
def test_plain_chess_search_equals_textbook_alphabeta(fen: str) -> None:
    game = ChessGame(chess.Board(fen))
    expected = textbook.alphabeta(game.copy(), depth=2).value
    searcher = Searcher(game, SearchConfig(quiescence=False))
    assert searcher.search(2) == expected


def _mate_positions() -> list[tuple[str, int]]:
    wac = {line.split('id "')[1].split('"')[0]: line for line in epd_lines("wac_001-200.epd")}
    return [(wac["WAC.004"], 2), (wac["WAC.012"], 2), ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 1)]


@pytest.mark.parametrize("switch", list(ONE_SWITCH))
@pytest.mark.parametrize(("epd", "moves"), _mate_positions())
def test_each_switch_keeps_forced_mates(switch: str, epd: str, moves: int) -> None:
    board = chess.Board.from_epd(epd)[0] if ";" in epd else chess.Board(epd)
    assert mate_in(board.copy(), moves) and not (moves > 1 and mate_in(board.copy(), moves - 1))
    config = ONE_SWITCH[switch]
    result = run(Searcher(ChessGame(board), config), Limits(depth=2 * moves + 1))
    assert is_win(result.value) and WIN - result.value == 2 * moves - 1
    probe = board.copy()
    for move in result.pv:
        probe.push(move)
    assert probe.is_checkmate()


def test_selective_search_needs_fewer_nodes_to_the_same_depth() -> None:
    line = epd_lines("wac_001-200.epd")[1]
    board = chess.Board.from_epd(line)[0]
    plain = run(Searcher(ChessGame(board), SearchConfig()), Limits(depth=4))
    selective = run(Searcher(ChessGame(board), SELECTIVE), Limits(depth=4))
    assert selective.stats.nodes < plain.stats.nodes


def test_late_move_pruning_and_log_reductions_need_fewer_nodes_still() -> None:
    line = epd_lines("wac_001-200.epd")[1]
    board = chess.Board.from_epd(line)[0]
    selective = run(Searcher(ChessGame(board), SELECTIVE), Limits(depth=4))
    wide = run(Searcher(ChessGame(board), SELECTIVE_WIDE), Limits(depth=4))
    assert wide.stats.nodes < selective.stats.nodes


def test_reverse_futility_needs_fewer_nodes_and_keeps_the_best_move_when_a_piece_hangs() -> None:
    # Our own position: Black's queen on d5 is attacked by the c4 pawn; White wins it.
    board = chess.Board("rnb1kbnr/ppp2ppp/8/3qp3/2P5/8/PP1PPPPP/RNBQKBNR w KQkq - 0 4")
    plain = run(Searcher(ChessGame(board.copy()), SELECTIVE), Limits(depth=4))
    config = SearchConfig(check_extension=True, null_move=True, lmr=True, futility=True,
                          reverse_futility_margins=(0, 90, 180, 270))
    pruned = run(Searcher(ChessGame(board.copy()), config), Limits(depth=4))
    assert pruned.stats.nodes < plain.stats.nodes
    assert plain.best_move == pruned.best_move == chess.Move.from_uci("c4d5")


def test_razoring_needs_fewer_nodes_and_keeps_the_best_move_when_a_piece_hangs() -> None:
    # The same position: lines that leave White far behind (the queen not taken) end in
    # quiescence at shallow depth instead of a search of every quiet move.
    board = chess.Board("rnb1kbnr/ppp2ppp/8/3qp3/2P5/8/PP1PPPPP/RNBQKBNR w KQkq - 0 4")
    plain = run(Searcher(ChessGame(board.copy()), SELECTIVE), Limits(depth=5))
    razored = run(Searcher(ChessGame(board.copy()), replace(
        SELECTIVE, razor_margins=(0, 250, 450))), Limits(depth=5))
    assert razored.stats.nodes < plain.stats.nodes
    assert plain.best_move == razored.best_move == chess.Move.from_uci("c4d5")


# Our own position (above): Black's queen on d5 hangs to the c4 pawn.
QUEEN_HANGS = "rnb1kbnr/ppp2ppp/8/3qp3/2P5/8/PP1PPPPP/RNBQKBNR w KQkq - 0 4"


def test_internal_iterative_reduction_needs_fewer_nodes_and_keeps_the_best_move() -> None:
    # One search straight to depth 5 (no iterative deepening): the table is empty, so every
    # node at depth >= 3 below the root is searched a ply shallower.
    plain = Searcher(ChessGame(chess.Board(QUEEN_HANGS)), SELECTIVE)
    reduced = Searcher(ChessGame(chess.Board(QUEEN_HANGS)), replace(SELECTIVE, iir_depth=3))
    plain.search(5)
    reduced.search(5)
    assert reduced.stats.nodes < plain.stats.nodes
    assert plain.pv[0] == reduced.pv[0] == chess.Move.from_uci("c4d5")


def test_internal_iterative_reduction_needs_the_table() -> None:
    # Without a table there is never a table move: the switch must not reduce every node.
    board = chess.Board(QUEEN_HANGS)
    plain = Searcher(ChessGame(board.copy()), replace(SELECTIVE, tt=False))
    switched = Searcher(ChessGame(board.copy()), replace(SELECTIVE, tt=False, iir_depth=2))
    assert plain.search(4) == switched.search(4)
    assert plain.stats == switched.stats


def test_growing_null_move_reductions_need_fewer_nodes_and_keep_the_best_move() -> None:
    fixed = run(Searcher(ChessGame(chess.Board(QUEEN_HANGS)), SELECTIVE), Limits(depth=6))
    growing = run(Searcher(ChessGame(chess.Board(QUEEN_HANGS)), replace(
        SELECTIVE, null_move_depth_divisor=2, null_move_eval_divisor=100)), Limits(depth=6))
    assert growing.stats.nodes < fixed.stats.nodes
    assert fixed.best_move == growing.best_move == chess.Move.from_uci("c4d5")


def test_improving_changes_late_move_pruning_and_keeps_the_best_move() -> None:
    base = replace(SELECTIVE_WIDE, late_move_counts=(0, 8, 14, 22),
                   reverse_futility_margins=(0, 90, 180, 270))
    plain = run(Searcher(ChessGame(chess.Board(QUEEN_HANGS)), base), Limits(depth=5))
    trend = run(Searcher(ChessGame(chess.Board(QUEEN_HANGS)), replace(base, improving=True)),
                Limits(depth=5))
    assert trend.stats.nodes < plain.stats.nodes
    assert plain.best_move == trend.best_move == chess.Move.from_uci("c4d5")
    # Without late-move pruning or reverse futility the trend has nothing to change.
    bare = replace(SELECTIVE, late_move_counts=(), reverse_futility_margins=())
    without = run(Searcher(ChessGame(chess.Board(QUEEN_HANGS)), bare), Limits(depth=4))
    with_trend = run(Searcher(ChessGame(chess.Board(QUEEN_HANGS)), replace(
        bare, improving=True)), Limits(depth=4))
    assert without.stats == with_trend.stats


class _ReductionTracer:
    """Counts null-window children searched more than a ply shallower than their parent, by
    whether the parent is a PV node (open window)."""

    enabled = True

    def __init__(self) -> None:
        self.stack: list[tuple[int, int, int]] = []
        self.reduced = {True: 0, False: 0}

    def enter(self, ply: int, move: object | None, depth: int, alpha: int, beta: int) -> None:
        del self.stack[ply:]
        if ply > 0 and beta - alpha == 1:
            parent_depth, parent_alpha, parent_beta = self.stack[ply - 1]
            if depth < parent_depth - 1:
                self.reduced[parent_beta - parent_alpha > 1] += 1
        self.stack.append((depth, alpha, beta))

    def leave(self, ply: int, value: int, bound: object) -> None:
        pass

    def cutoff(self, ply: int, kind: str, pruned: object) -> None:
        pass

    def tt_hit(self, ply: int, value: int, bound: object) -> None:
        pass

    def research(self, ply: int, move: object) -> None:
        pass


def test_pv_nodes_reduce_less_with_lmr_pv_less() -> None:
    fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8"
    config = replace(SELECTIVE, null_move=False, lmr_divisor=2.0)
    counts = {}
    for less in (0, 1, 63):
        tracer = _ReductionTracer()
        searcher = Searcher(ChessGame(chess.Board(fen)), replace(config, lmr_pv_less=less),
                            tracer=tracer)
        run(searcher, Limits(depth=6))
        counts[less] = (tracer.reduced[True], tracer.reduced[False], searcher.stats.nodes)
    assert counts[0][0] > 0 and counts[63][1] > 0
    assert counts[63][0] == 0  # PV nodes never reduce; the others still do
    assert counts[1][2] != counts[0][2]
