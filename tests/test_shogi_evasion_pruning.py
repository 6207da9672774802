"""Session 22: the Searcher's cap on check extensions per line (``check_extension_limit``) and
its evasion pruning in quiescence (``qs_evasion_limit``, ``qs_hanging_evasions``), with the
shogi engine's USI options for them.  Mate scores must stay sound: a skipped evasion may never
turn a position that has a saving move into a claimed mate.
"""

from __future__ import annotations

import io
from dataclasses import replace

import chess

from sakiyomi.games.shogi import START, ShogiGame
from sakiyomi.protocols import shogi_engine as se
from sakiyomi.protocols.engine_loop import Output
from sakiyomi.protocols.usi import UsiEngine
from sakiyomi.score import INF, is_loss, win_in
from sakiyomi.search.drivers import run
from sakiyomi.search.limits import Limits
from sakiyomi.search.searcher import SearchConfig, Searcher
from sakiyomi.search.tracing import NullTracer
from tests.chess_support import NoHangingChessGame
from tests.shogi_data import rows

OPENING = ("7g7f", "3c3d", "2g2f", "8c8d", "2f2e", "8d8e", "6i7h", "4a3b", "2e2d", "2c2d",
           "2h2d")
# Our own positions, Black (to move) in check with a gold in hand and a boxed king on 9i.
# A white rook on 9a: the drops on 9b-9g are taken and the king is mated; only G*9h (next to
# the king, so defended) saves.  cshogi lists G*9b first.
ROOK_FILE = "r7k/9/9/9/9/9/9/1P7/KL7 b G 1"
# A white bishop on 5e checks, a white pawn on 8g: every evasion (the silver to 8h, a gold
# dropped on 6f, 7g or 8h) leaves its piece to be won, and none of them loses.
ALL_HANG = "8k/9/9/9/4b4/9/1p7/L8/KS7 b G 1"
# The same with a knight on 8i: it defends 7g, so G*7g does not hang and the others do.
SOME_HANG = "8k/9/9/9/4b4/9/1p7/L8/KN7 b G 1"
MATE3 = rows("mate3_yaneuraou.tsv")[:12]


def engine_config(**changes: object) -> SearchConfig:
    """The shogi engine's settings without this session's evasion pruning and extension cap
    (and without a table: each search starts from nothing), with ``changes``.
    """
    plain = replace(se.search_config(se.Options()), tt=False, check_extension_limit=0,
                    qs_evasion_limit=0, qs_hanging_evasions=False, hanging_evasion_depth=0)
    return replace(plain, **changes)  # type: ignore[arg-type]


def quiescence_value(sfen: str, config: SearchConfig) -> int:
    """The value of a depth-0 search of ``sfen`` (quiescence at the root), full window."""
    return Searcher(ShogiGame(sfen), config).search(0, -INF, INF)


def test_the_new_settings_are_off_by_default() -> None:
    config = SearchConfig()
    assert config.check_extension_limit == 0 and config.qs_evasion_limit == 0
    assert not config.qs_hanging_evasions
    engine = se.search_config(se.Options())
    assert engine.check_extension_limit == se.CHECK_EXTENSION_LIMIT
    assert engine.qs_evasion_limit == se.QS_EVASION_LIMIT
    assert engine.hanging_evasion_depth == se.HANGING_EVASION_DEPTH
    assert engine.qs_hanging_evasions == se.SWITCHES["QsHangingEvasions"]


def test_the_hanging_evasion_settings_change_nothing_without_hanging_moves() -> None:
    # Chess with its HangingMoves capability taken away.
    fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    plain = SearchConfig(check_extension=True)
    switched = replace(plain, qs_hanging_evasions=True, hanging_evasion_depth=3)
    first = run(Searcher(NoHangingChessGame(chess.Board(fen)), plain), Limits(depth=3))
    second = run(Searcher(NoHangingChessGame(chess.Board(fen)), switched), Limits(depth=3))
    assert first.stats == second.stats


def test_no_false_mate_when_the_first_evasions_lose() -> None:
    # Move ordering off: the evasions come in cshogi's order, the losing drops first.
    config = engine_config(ordering=False)
    full = quiescence_value(ROOK_FILE, config)
    assert not is_loss(full)
    for pruned in (replace(config, qs_evasion_limit=1),
                   replace(config, qs_hanging_evasions=True),
                   replace(config, qs_evasion_limit=1, qs_hanging_evasions=True)):
        assert quiescence_value(ROOK_FILE, pruned) == full


def test_an_evasion_is_searched_even_when_every_one_hangs() -> None:
    config = engine_config()
    game = ShogiGame(ALL_HANG)
    for move in game.legal_moves():
        game.play(move)
        assert game.hangs_piece()
        game.undo()
    full = quiescence_value(ALL_HANG, config)
    pruned = quiescence_value(ALL_HANG, replace(config, qs_hanging_evasions=True))
    assert not is_loss(full) and not is_loss(pruned)


def test_main_search_hanging_evasions_keep_the_saving_move() -> None:
    # In ALL_HANG cshogi lists the evasions that are mated first and the saving G*8h last; all
    # of them hang.  A node below the root (ply 1) searched with a null window is a non-PV
    # node in check at depth 1, where hanging_evasion_depth applies.
    config = engine_config(ordering=False)
    for setting in (config, replace(config, hanging_evasion_depth=3)):
        searcher = Searcher(ShogiGame(ALL_HANG), setting)
        assert not is_loss(searcher.search(1, -700, -699, 1))


def test_main_search_hanging_evasions_save_nodes() -> None:
    config = engine_config()
    plain = run(Searcher(ShogiGame(START, OPENING), config), Limits(depth=5))
    pruned = run(Searcher(ShogiGame(START, OPENING), replace(config, hanging_evasion_depth=3)),
                 Limits(depth=5))
    assert pruned.stats.nodes < plain.stats.nodes


def test_evasion_pruning_skips_quiescence_moves() -> None:
    config = engine_config()
    searches = [Searcher(ShogiGame(SOME_HANG), c) for c in
                (config, replace(config, qs_hanging_evasions=True),
                 replace(config, qs_evasion_limit=1))]
    for searcher in searches:
        searcher.search(0, -INF, INF)
    full, hanging, limited = (s.stats.qnodes for s in searches)
    assert hanging < full and limited < full


def test_mates_in_three_are_still_found_with_every_new_setting() -> None:
    config = engine_config()
    pruned = replace(config, check_extension_limit=1, qs_evasion_limit=1,
                     qs_hanging_evasions=True)
    found = 0
    for row in MATE3:
        plain_value = Searcher(ShogiGame(row["sfen"], mate_plies=0), config).search(3)
        pruned_value = Searcher(ShogiGame(row["sfen"], mate_plies=0), pruned).search(3)
        if plain_value == win_in(3):
            found += 1
            assert pruned_value == win_in(3), row["id"]
    assert found >= len(MATE3) // 2


class Reach(NullTracer):
    """Records the largest ply + remaining depth of any node search: the root depth plus the
    check extensions on the line to it (reductions only lower it).
    """

    enabled = True

    def __init__(self) -> None:
        self.reach = 0

    def enter(self, ply: int, move: object | None, depth: int, alpha: int, beta: int) -> None:
        """Note the node's reach."""
        self.reach = max(self.reach, ply + depth)


def test_the_cap_bounds_the_extensions_on_every_line() -> None:
    root_depth = 4
    reaches = {}
    for limit in (0, 1, 2):
        tracer = Reach()
        # The hand-set evaluation: on this opening its search extends some line three times.
        game = ShogiGame(START, OPENING, evaluation="full")
        searcher = Searcher(game, engine_config(check_extension_limit=limit),
                            tracer=tracer)
        searcher.search(root_depth)
        reaches[limit] = tracer.reach
    assert reaches[1] <= root_depth + 1 and reaches[2] <= root_depth + 2
    assert reaches[0] > root_depth + 2  # uncapped, some line was extended three times or more


def test_usi_options_reach_the_searcher() -> None:
    stream = io.StringIO()
    engine = UsiEngine(Output(stream))
    engine.handle("usi")
    lines = stream.getvalue().splitlines()
    assert any(line.startswith("option name QsEvasionLimit type spin") for line in lines)
    assert any(line.startswith("option name CheckExtensionLimit type spin") for line in lines)
    engine.handle("setoption name QsEvasionLimit value 2")
    engine.handle("setoption name CheckExtensionLimit value 1")
    engine.handle("setoption name QsHangingEvasions value true")
    config = se.search_config(engine.options)
    assert config.qs_evasion_limit == 2 and config.check_extension_limit == 1
    assert config.qs_hanging_evasions
