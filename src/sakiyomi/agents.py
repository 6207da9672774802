"""Who chooses a move: a human at a prompt, or the computer searching."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from sakiyomi.compiled.template import RootResult
from sakiyomi.fastpath import NODES_PER_SECOND, compiled_search, root_state, solver_config
from sakiyomi.game import Game, GameError
from sakiyomi.score import INF, format_score
from sakiyomi.search.drivers import run
from sakiyomi.search.limits import Limits, StopSignal
from sakiyomi.search.result import SearchResult
from sakiyomi.search.searcher import SearchConfig, Searcher
from sakiyomi.tt import TranspositionTable

M = TypeVar("M", bound=Hashable)


class QuitGame(Exception):
    """The human asked to stop (``quit`` or end of input)."""


class Agent(Protocol[M]):
    """Chooses a move in a position that is not finished; may not change the position."""

    name: str

    def choose(self, game: Game[M]) -> M:
        """The move to play."""
        ...


@dataclass
class HumanAgent(Generic[M]):
    """Asks at a prompt until the text names a legal move; ``quit`` or Ctrl-D ends the game."""

    read: Callable[[str], str]
    write: Callable[[str], None]
    name: str = "human"

    def choose(self, game: Game[M]) -> M:
        """Prompt, refusing malformed or illegal moves with the reason."""
        legal = ", ".join(game.move_to_text(m) for m in game.legal_moves())
        while True:
            try:
                text = self.read(f"your move ({legal}; quit to stop): ").strip()
            except EOFError:
                raise QuitGame from None
            if text.lower() in ("quit", "exit", "q"):
                raise QuitGame
            if not text:
                continue
            try:
                return game.move_from_text(text)
            except GameError as exc:
                self.write(f"refused: {exc}")


class SearchAgent(Generic[M]):
    """The computer: iterative deepening on the production Searcher within depth/time limits."""

    def __init__(
        self, limits: Limits, config: SearchConfig = SearchConfig(),
        report: Callable[[str], None] | None = None, name: str = "cpu",
    ) -> None:
        self.limits = limits
        self.config = config
        self.report = report
        self.name = name
        self.tt: TranspositionTable[Any] = TranspositionTable(config.tt_capacity)
        self.last: SearchResult[M] | None = None

    def choose(self, game: Game[M]) -> M:
        """Search a copy of the position and return the best move found."""
        searcher: Searcher[M] = Searcher(
            game.copy(), self.config, tt=self.tt, stop=StopSignal.from_limits(self.limits)
        )
        result = run(searcher, self.limits)
        self.last = result
        assert result.best_move is not None, "choose() needs a position with legal moves"
        if self.report is not None:
            pv = " ".join(game.move_to_text(m) for m in result.pv)
            self.report(
                f"{self.name} plays {game.move_to_text(result.best_move)}  "
                f"score {format_score(result.value)}  depth {result.depth}  pv {pv}  "
                f"nodes {result.stats.nodes}"
            )
        return result.best_move


class PerfectAgent:
    """The computer for kernel games: plays perfectly (exact analysis of every move) when the
    compiled solver finishes within the move's node budget, else the best move of a
    depth-limited compiled search with what is left.
    """

    def __init__(self, limits: Limits, report: Callable[[str], None] | None = None,
                 name: str = "cpu") -> None:
        self.limits = limits
        self.report = report
        self.name = name
        seconds = limits.time if limits.time is not None else 5.0
        self.budget = limits.nodes or int(seconds * NODES_PER_SECOND)

    def choose(self, game: Game[Any]) -> Any:
        """The move to play (the position is not changed)."""
        config = solver_config(game)
        search = compiled_search(game, config, fresh=False)
        if search is None:
            return self._python(game, config)
        state = root_state(search, game)
        start = search.stats["nodes"]
        # A quarter of the budget for trying to solve every move; the rest (and whatever
        # that try left unused) for the depth-limited search, so a move never costs more.
        search.set_node_limit(start + self.budget // 4)
        values = search.analyze(state)
        if values:
            move, value, pv = values[0]
            self._say(game, move, f"value {value} (solved)", pv, search.stats["nodes"] - start)
            search.set_node_limit(None)
            return move
        best: RootResult | None = None
        for depth in range(1, self.limits.max_depth + 1):
            search.new_search()
            search.set_node_limit(start + self.budget)
            result = search.search(state, depth, -INF, INF)
            if not result.complete:
                break
            best = result
            if not result.extra["hit_horizon"]:
                break
        search.set_node_limit(None)
        if best is None or best.best_move is None:
            return game.legal_moves()[0]
        self._say(game, best.best_move, f"heuristic {best.value}", best.pv,
                  search.stats["nodes"] - start)
        return best.best_move

    def _python(self, game: Game[Any], config: SearchConfig) -> Any:
        return SearchAgent(self.limits, config, self.report, self.name).choose(game)

    def _say(self, game: Game[Any], move: Any, what: str, pv: tuple[Any, ...],
             nodes: int) -> None:
        if self.report is not None:
            line = " ".join(game.move_to_text(m) for m in pv)
            self.report(f"{self.name} plays {game.move_to_text(move)}  {what}  pv {line}  "
                        f"nodes {nodes}")
