"""A buggy or hostile game: after any exception the caller's game is back at the root, and the
error names the game method and the line of moves that raised (search.errors); answers the
search cannot use are found by the validating mode (search.validate).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, Self, cast

import pytest

from sakiyomi.game import Outcome, Player
from sakiyomi.games.tictactoe import TicTacToe
from sakiyomi.search import textbook
from sakiyomi.search.algorithms import NAMES, get
from sakiyomi.search.dfpn import solve_mate
from sakiyomi.search.drivers import run
from sakiyomi.search.errors import GameMethodError
from sakiyomi.search.limits import Limits, SearchAborted, StopSignal
from sakiyomi.search.searcher import SearchConfig, Searcher
from sakiyomi.search.solve import analyze, move_values, solve
from sakiyomi.search.validate import CheckedGame
from sakiyomi.viz.trace import TraceCapError, TreeRecorder


class Boom(Exception):
    """The game's own bug."""


RAISE: Any = object()


class Faulty:
    """Tic-tac-toe that fails in ``method`` at the position after ``line`` (cells 1-9), or at
    the first position ``line`` plies deep when it is a number (``fired_at`` tells which).

    ``play`` fails playing the last move of ``line``; every other method fails when called in
    the position reached by ``line``.  ``answer`` replaces the method's result instead of
    raising (a wrong answer rather than an exception); ``once`` makes the fault happen once.
    """

    ACYCLIC = True

    def __init__(self, method: str, line: Sequence[int] | int, *, answer: object = RAISE,
                 error: BaseException | None = None, once: bool = False) -> None:
        self.game = TicTacToe()
        self.method = method
        self.line = line if isinstance(line, int) else [m - 1 for m in line]
        self.answer = answer
        self.error = error if error is not None else Boom("bug in the game")
        self.once = once
        self.fired = 0
        self.fired_at: list[int] = []
        self.history: list[int] = []

    def _fault(self, method: str, playing: int | None = None) -> bool:
        if method != self.method or (self.once and self.fired):
            return False
        here = [*self.history, playing] if playing is not None else self.history
        if here != self.line and len(here) != self.line:
            return False
        self.fired += 1
        self.fired_at = list(here)
        if self.answer is RAISE:
            raise self.error
        return True

    @property
    def to_move(self) -> Player:
        return self.game.to_move

    def legal_moves(self) -> Sequence[int]:
        if self._fault("legal_moves"):
            return self.answer  # type: ignore[return-value]
        return self.game.legal_moves()

    def play(self, move: int) -> None:
        self._fault("play", move)
        self.game.play(move)
        self.history.append(move)

    def undo(self) -> None:
        self._fault("undo")
        self.game.undo()
        self.history.pop()

    def outcome(self) -> Outcome | None:
        if self._fault("outcome"):
            return self.answer  # type: ignore[return-value]
        return self.game.outcome()

    def evaluate(self) -> int:
        if self._fault("evaluate"):
            return self.answer  # type: ignore[return-value]
        return self.game.evaluate()

    def key(self) -> int:
        if self._fault("key"):
            return self.answer  # type: ignore[return-value]
        return self.game.key()

    def copy(self) -> Self:
        line = self.line if isinstance(self.line, int) else [m + 1 for m in self.line]
        clone = type(self)(self.method, line, answer=self.answer, error=self.error,
                           once=self.once)
        for move in self.history:
            clone.play(move)
        return clone

    def move_to_text(self, move: int) -> str:
        return self.game.move_to_text(move)

    def move_from_text(self, text: str) -> int:
        return self.game.move_from_text(text)


LINE = [1, 5, 9]  # x corner, o centre, x opposite corner: every runner below reaches it


def _searcher(game: Any, depth: int) -> None:
    Searcher(game, SearchConfig()).search(depth)


def _searcher_no_tt(game: Any, depth: int) -> None:
    Searcher(game, SearchConfig(tt=False, ordering=False)).search(depth)


def _driver(game: Any, depth: int) -> None:
    run(Searcher(game, SearchConfig()), Limits(depth=depth))


def _solve(game: Any, depth: int) -> None:
    solve(game, searcher=Searcher(game, SearchConfig()))


def _move_values(game: Any, depth: int) -> None:
    move_values(Searcher(game, SearchConfig()), depth)


def _registry(name: str) -> Callable[[Any, int], object]:
    return lambda game, depth: get(name).run(game, depth)


RUNNERS: dict[str, Callable[[Any, int], object]] = {
    "Searcher.search": _searcher,
    "Searcher.search no tt/ordering": _searcher_no_tt,
    "drivers.run": _driver,
    "solve": _solve,
    "move_values": _move_values,
    **{f"registry {name}": _registry(name) for name in NAMES},
}


def _asks(runner: str, method: str) -> bool:
    """Does ``runner`` call ``method`` at all?  Solving reads to the end of the game (and
    and-or to a win): no evaluate(); the textbook functions have no table: no key(), nor
    does the Searcher without a table in a game that cannot repeat (Faulty is ACYCLIC);
    MCTS asks neither.
    """
    if method == "key" and runner == "Searcher.search no tt/ordering":
        return False
    if method == "evaluate" and runner in ("solve", "registry and-or"):
        return False
    if runner.startswith("registry") and get(runner[9:]).monte_carlo is not None:
        return method not in ("evaluate", "key")  # playouts to the end, no table
    return not (method == "key" and runner.startswith("registry")
                and not get(runner[9:]).searcher_based)


@pytest.mark.parametrize(("runner", "method"), [
    (runner, method) for runner in RUNNERS
    for method in ("legal_moves", "evaluate", "outcome", "key", "play") if _asks(runner, method)])
def test_a_raising_method_leaves_the_game_at_the_root_and_is_named(runner: str,
                                                                    method: str) -> None:
    # evaluate() is asked at the depth limit: fail at the first leaf 3 plies deep
    game = Faulty(method, 3 if method == "evaluate" else LINE)
    root_key = game.key()
    with pytest.raises(GameMethodError) as info:
        RUNNERS[runner](game, 3 if method == "evaluate" else 9)
    err = info.value
    assert game.history == [] and game.key() == root_key, "the game must be back at the root"
    assert err.method == method
    assert isinstance(err.__cause__, Boom)
    if method == "evaluate":
        assert err.line == game.fired_at and len(err.line) == 3
        texts = " ".join(str(cast(int, m) + 1) for m in err.line)
        assert f"game method evaluate() failed after the line {texts}: Boom" in str(err)
    elif method == "play":
        assert err.line == [0, 4] and err.playing == 8
        assert "game method play() failed playing 9 after the line 1 5: Boom" in str(err)
    else:
        assert err.line == [0, 4, 8]
        assert f"game method {method}() failed after the line 1 5 9: Boom" in str(err)
    assert err.restored


@pytest.mark.parametrize("algorithm", ["minimax", "negamax", "alphabeta", "negascout"])
def test_textbook_functions_restore_and_name_the_line(algorithm: str) -> None:
    game = Faulty("evaluate", LINE)
    with pytest.raises(GameMethodError, match=r"evaluate\(\) failed after the line 1 5 9"):
        getattr(textbook, algorithm.replace("-", "_"))(game, 3)
    assert game.history == []


def test_a_failure_at_the_root_has_an_empty_line() -> None:
    game = Faulty("legal_moves", [])
    with pytest.raises(GameMethodError, match=r"legal_moves\(\) failed at the root: Boom"):
        textbook.alphabeta(game)
    with pytest.raises(GameMethodError, match=r"legal_moves\(\) failed at the root: Boom"):
        run(Searcher(game, SearchConfig()), Limits(depth=3))
    assert game.history == []


def test_a_failing_undo_says_the_game_may_not_be_restored() -> None:
    game = Faulty("undo", LINE, once=True)
    with pytest.raises(GameMethodError) as info:
        Searcher(game, SearchConfig()).search(9)
    assert info.value.method == "undo"
    assert not info.value.restored
    assert str(info.value).endswith("the game is not at the root (a move could not be taken "
                                    "back)")


def test_analyze_leaves_the_callers_game_alone() -> None:
    game = Faulty("evaluate", LINE)
    with pytest.raises(GameMethodError):
        analyze(game, depth=3)
    assert game.history == []


def test_a_stop_and_an_interrupt_pass_through_unchanged_after_restoring() -> None:
    game = Faulty("evaluate", LINE, error=KeyboardInterrupt())
    with pytest.raises(KeyboardInterrupt):
        Searcher(game, SearchConfig()).search(3)
    assert game.history == []
    plain = Faulty("none", [])
    searcher = Searcher(plain, SearchConfig(check_every=1), stop=StopSignal(nodes=50))
    with pytest.raises(SearchAborted):
        searcher.search(9)
    assert plain.history == []


def test_a_tracers_exception_is_not_blamed_on_the_game() -> None:
    game = Faulty("none", [])
    with pytest.raises(TraceCapError):
        get("alphabeta").run(game, None, TreeRecorder(game, cap=20))
    assert game.history == []


# ---- answers the search cannot use: found by the validating mode ---------------------------


def _generator() -> Iterator[int]:
    yield from range(9)


WRONG_ANSWERS = [
    ("evaluate", 10**12, r"evaluate\(\) failed after the line \d \d \d: returned 1000000000000, "
                         r"outside the heuristic range"),
    ("evaluate", float("nan"), r"evaluate\(\) failed .*: returned float nan; expected an int"),
    ("legal_moves", None, r"legal_moves\(\) failed .*: returned NoneType None; expected a seq"),
    ("legal_moves", _generator(), r"legal_moves\(\) failed .*: returned generator"),
    ("legal_moves", [[1], [2]], r"legal_moves\(\) failed .*unhashable move"),
    ("key", [1, 2], r"key\(\) failed .*: returned list \[1, 2\]; expected an int"),
    ("outcome", "draw", r"outcome\(\) failed .*: returned str 'draw'; expected None or an Outcome"),
]


@pytest.mark.parametrize(("method", "answer", "message"), WRONG_ANSWERS)
def test_validating_mode_names_a_wrong_answer(method: str, answer: object, message: str) -> None:
    depth = 3 if method == "evaluate" else 4  # fail at the first node 3 plies deep
    game = Faulty(method, 3, answer=answer)
    with pytest.raises(GameMethodError, match=message) as info:
        Searcher(game, SearchConfig(validate=True)).search(depth)
    assert game.history == []
    assert info.value.line == game.fired_at
    if method == "key":
        return  # the textbook functions never ask for keys
    game = Faulty(method, 3, answer=answer)
    checked = CheckedGame(game)
    with pytest.raises(GameMethodError, match=message):
        textbook.alphabeta(checked, depth)
    assert game.history == []


def test_without_validation_a_wrong_answer_still_restores_and_gives_the_line() -> None:
    game = Faulty("legal_moves", LINE, answer=None)
    with pytest.raises(GameMethodError, match=r"the search failed after the line 1 5 9: "
                                              r"TypeError.*validate=True"):
        Searcher(game, SearchConfig()).search(4)
    assert game.history == []


def test_validating_mode_finds_an_undo_that_does_not_restore() -> None:
    class Sloppy(Faulty):
        def undo(self) -> None:  # forgets to take the move off the board after 1 5
            if self.history == [0, 4]:
                self.history.pop()
                return
            super().undo()

    game = Sloppy("none", [])
    with pytest.raises(GameMethodError, match=r"undo\(\) failed .*did not restore"):
        Searcher(game, SearchConfig(validate=True)).search(3)


def test_validation_changes_no_result() -> None:
    plain = run(Searcher(TicTacToe(), SearchConfig()), Limits(depth=9))
    checked = run(Searcher(TicTacToe(), SearchConfig(validate=True)), Limits(depth=9))
    assert (plain.value, plain.pv, plain.stats.nodes) == (checked.value, checked.pv,
                                                          checked.stats.nodes)


def test_perft_restores_and_names_the_line() -> None:
    from sakiyomi.search.perft import divide, perft

    for count in (perft, divide):
        game = Faulty("legal_moves", LINE)
        with pytest.raises(GameMethodError, match=r"legal_moves\(\) failed after the line 1 5 9"):
            count(game, 5)
        assert game.history == []
    assert perft(Faulty("none", []), 4) == 3024  # 9 * 8 * 7 * 6: nobody wins in 4 plies


class FaultyMate(Faulty):
    """``Faulty`` as a mate game for df-pn: every move counts as a check."""

    def checking_moves(self) -> Sequence[int]:
        return self.legal_moves()


@pytest.mark.parametrize("method", ["key", "legal_moves", "play", "outcome"])
def test_dfpn_restores_the_game_and_names_the_line(method: str) -> None:
    game = FaultyMate(method, 3)  # the first position 3 plies deep that df-pn reaches
    with pytest.raises(GameMethodError) as info:
        solve_mate(game)
    assert game.history == [], "the game must be back at the root"
    err = info.value
    assert err.method == method and isinstance(err.__cause__, Boom)
    fired = game.fired_at[:-1] if method == "play" else game.fired_at
    assert err.line == fired and len(game.fired_at) == 3


def test_a_checked_game_offers_what_its_game_offers() -> None:
    """``capable`` decides once per class, except for a proxy (``CheckedGame`` forwards what
    it does not define): the same proxy class wraps games with and without move hints, and
    each wrapper answers for its own game, whichever is asked first."""
    from sakiyomi.game import MoveHints, SearchShortcuts, capable
    from sakiyomi.games.connect4 import Connect4
    from sakiyomi.games.tree import TreeGame, random_tree

    plain = CheckedGame(TreeGame(random_tree(2, 2, seed=1)))
    hinted = CheckedGame(Connect4())
    assert not capable(plain, SearchShortcuts) and capable(hinted, SearchShortcuts)
    assert capable(hinted, MoveHints) and not capable(plain, MoveHints)
    assert not capable(plain, SearchShortcuts) and capable(hinted, SearchShortcuts)
