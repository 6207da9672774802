"""The production Searcher and its drivers: agreement, limits, repetition, TT, MTD(f)."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import given
from hypothesis import strategies as st

from sakiyomi.game import MoveError, Outcome, Player
from sakiyomi.games.tictactoe import TicTacToe, from_position
from sakiyomi.games.tree import TreeGame, random_tree
from sakiyomi.score import WIN, format_score, from_tt, is_win, loss_in, to_tt, win_in
from sakiyomi.search import textbook
from sakiyomi.search.drivers import iterative_deepening, mtdf, run
from sakiyomi.search.limits import Limits, StopSignal
from sakiyomi.search.searcher import SearchConfig, Searcher
from sakiyomi.search.solve import exact_value, solve
from sakiyomi.tt import Bound, TranspositionTable

CONFIGS = [
    SearchConfig(),
    SearchConfig(tt=False),
    SearchConfig(pvs=False),
    SearchConfig(ordering=False),
    SearchConfig(killers=False, history=False),
    SearchConfig(presort_depth=2),
]


def test_every_config_agrees_with_alphabeta_at_every_depth_of_tictactoe() -> None:
    for position in ("start", "x...o....", "xo..x...o"):
        game = from_position("tictactoe", position)
        for depth in (1, 2, 3, 4, 9):
            expected = textbook.alphabeta(game, depth=depth).value
            for config in CONFIGS:
                assert Searcher(game.copy(), config).search(depth) == expected, (position, depth)


@given(st.integers(0, 10**6), st.integers(2, 4), st.integers(1, 6))
def test_mtdf_and_iterative_deepening_agree_with_negamax(seed: int, b: int, d: int) -> None:
    tree = random_tree(b, d, seed, ragged=True)
    expected = textbook.negamax(TreeGame(tree)).value
    assert mtdf(Searcher(TreeGame(tree)), 64) == expected
    result = run(Searcher(TreeGame(tree)), Limits(), aspiration_delta=3)
    assert result.value == expected
    assert exact_value(Searcher(TreeGame(tree))) == expected


def test_iterative_deepening_stops_when_the_tree_is_exhausted() -> None:
    infos = list(iterative_deepening(Searcher(TicTacToe()), Limits()))
    assert infos[-1].depth == 9
    assert infos[-1].value == 0
    assert [i.depth for i in infos] == list(range(1, 10))


def test_node_limit_stops_the_search_and_restores_the_game() -> None:
    game = TicTacToe()
    signal = StopSignal(nodes=500)
    searcher = Searcher(game, SearchConfig(check_every=64), stop=signal)
    result = run(searcher, Limits(nodes=500))
    assert searcher.stats.nodes < 500 + 64
    assert game.key() == TicTacToe().key()
    assert result.best_move is not None


def test_external_stop_returns_immediately() -> None:
    signal = StopSignal()
    signal.stop()
    searcher = Searcher(TicTacToe(), stop=signal)
    result = run(searcher, Limits())
    assert not result.complete
    assert result.best_move in TicTacToe().legal_moves()


def test_tt_table_reduces_nodes_on_tictactoe() -> None:
    with_tt = Searcher(TicTacToe())
    with_tt.search(9)
    without = Searcher(TicTacToe(), SearchConfig(tt=False))
    without.search(9)
    assert with_tt.search(9) == without.search(9) == 0
    assert with_tt.stats.nodes < without.stats.nodes
    assert with_tt.stats.tt_hits > 0


def test_stats_are_consistent() -> None:
    s = Searcher(TicTacToe())
    s.search(9)
    st_ = s.stats
    assert 0 < st_.leaves < st_.nodes
    assert st_.first_move_cutoffs <= st_.cutoffs
    assert 0.0 <= st_.first_move_cutoff_rate <= 1.0
    assert st_.interior == st_.nodes - st_.leaves


def test_quicker_win_is_preferred() -> None:
    game = from_position("tictactoe", "xx.oo....")  # x wins at once with 3
    result = solve(game)
    assert result.value == win_in(1)
    assert game.move_to_text(result.pv[0]) == "3"


class Cycle:
    """A tiny cyclic game: a counter mod 4 that either player may step +1 or +2; reaching
    exactly 4 total steps from 0... never ends except by repetition (tests repetition draws)."""

    def __init__(self) -> None:
        self.pos = 0
        self.player = Player.FIRST
        self.history: list[int] = []

    @property
    def to_move(self) -> Player:
        return self.player

    def legal_moves(self) -> Sequence[int]:
        return [1, 2]

    def play(self, move: int) -> None:
        self.history.append(move)
        self.pos = (self.pos + move) % 3
        self.player = self.player.other

    def undo(self) -> None:
        self.pos = (self.pos - self.history.pop()) % 3
        self.player = self.player.other

    def outcome(self) -> Outcome | None:
        return None

    def evaluate(self) -> int:
        return 7 if self.pos == 2 else -7

    def key(self) -> int:
        return self.pos * 2 + int(self.player)

    def copy(self) -> Cycle:
        c = Cycle()
        c.pos, c.player, c.history = self.pos, self.player, list(self.history)
        return c

    def move_to_text(self, move: int) -> str:
        return str(move)

    def move_from_text(self, text: str) -> int:
        if text not in ("1", "2"):
            raise MoveError(text)
        return int(text)


def test_repetition_on_the_path_is_a_draw() -> None:
    # With 6 distinct (pos, player) states, any line of 7+ plies repeats: deep searches end
    # in repetition draws, so the value is bounded by the evaluation and must be finite.
    searcher = Searcher(Cycle(), SearchConfig(tt=False))
    value = searcher.search(12)
    assert -7 <= value <= 7
    assert searcher.stats.leaves > 0
    without = Searcher(Cycle(), SearchConfig(tt=False, repetition=False))
    without.search(8)
    assert without.stats.nodes > searcher.stats.nodes or searcher.search(8) != without.search(8)


def test_score_encoding_round_trips_through_the_tt() -> None:
    for ply in (0, 3, 10):
        for value in (win_in(7), loss_in(9), 0, 123):
            assert from_tt(to_tt(value, ply), ply) == value
    assert is_win(win_in(5)) and not is_win(500)
    assert format_score(win_in(5)) == "win in 5"
    assert WIN > 10**5


def test_tt_replacement_policy() -> None:
    tt: TranspositionTable[int] = TranspositionTable(4)
    tt.store(1, 5, 10, Bound.EXACT, 1)
    tt.store(5, 3, 20, Bound.LOWER, 2)  # same slot, shallower, same generation: kept out
    entry = tt.probe(1)
    assert entry is not None and entry.value == 10 and tt.probe(5) is None
    tt.store(5, 6, 20, Bound.LOWER, 2)  # deeper: replaces
    assert tt.probe(1) is None and tt.probe(5) is not None
    tt.new_search()
    tt.store(9, 1, 30, Bound.UPPER, None)  # older generation entries are replaced
    assert tt.probe(9) is not None
    tt.store(9, 2, 31, Bound.EXACT, None)  # same key keeps its move if the new one has none
    assert tt.capacity == 4 and 0 < tt.hashfull() <= 1000


class _Watcher(StopSignal):
    """A stop signal that records, at every poll, the count it is given and the count the
    searcher publishes in ``stats`` (what a live display reads from another thread)."""

    def __init__(self) -> None:
        super().__init__()
        self.searcher: Searcher[int] | None = None
        self.seen: list[tuple[int, int]] = []

    def should_stop(self, nodes: int) -> bool:
        assert self.searcher is not None
        self.seen.append((nodes, self.searcher.stats.nodes))
        return super().should_stop(nodes)


def test_counters_are_published_at_every_poll_and_at_the_end() -> None:
    watcher = _Watcher()
    searcher = Searcher(TicTacToe(), SearchConfig(check_every=16), stop=watcher)
    watcher.searcher = searcher
    searcher.search(5)
    first = searcher.stats.nodes
    searcher.search(5)  # counts go on across searches
    assert len(watcher.seen) >= first // 16 > 1
    assert all(counted == published for counted, published in watcher.seen)
    assert searcher.stats.nodes > first and searcher.stats.leaves > 0


class _CountingTracer:
    """Enabled, so the Searcher orders every node's moves before trying any (no deferred TT
    move); it counts the nodes entered."""

    enabled = True

    def __init__(self) -> None:
        self.entered = 0

    def enter(self, ply: int, move: object, depth: int, alpha: int, beta: int) -> None:
        self.entered += 1

    def leave(self, ply: int, value: int, bound: Bound) -> None:
        pass

    def cutoff(self, ply: int, kind: str, pruned: Sequence[object]) -> None:
        pass

    def tt_hit(self, ply: int, value: int, bound: Bound) -> None:
        pass

    def research(self, ply: int, move: object) -> None:
        pass


def test_trying_the_tt_move_before_ordering_the_rest_changes_no_node() -> None:
    from sakiyomi.games.connect4 import from_position as connect4

    for history in (False, True):  # deferred only without history; both must agree
        config = SearchConfig(history=history)
        plain = Searcher(connect4("connect4", "4453"), config)
        tracer = _CountingTracer()
        traced = Searcher(connect4("connect4", "4453"), config, tracer=tracer)
        for depth in range(1, 8):
            assert plain.search(depth) == traced.search(depth)
            assert plain.pv == traced.pv
        assert plain.stats.as_dict() == traced.stats.as_dict()
        assert tracer.entered == traced.stats.nodes
