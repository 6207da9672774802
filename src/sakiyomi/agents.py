"""Who chooses a move: a human at a prompt, or the computer searching."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from sakiyomi.engines import EngineSession, mcts_for, solvable
from sakiyomi.game import Game, GameError
from sakiyomi.score import format_score
from sakiyomi.search.drivers import run
from sakiyomi.search.engine import Engine
from sakiyomi.search.limits import Limits, SearchAborted, StopSignal, TimePlan
from sakiyomi.search.mcts import MCTS, MCTSConfig
from sakiyomi.search.result import SearchResult
from sakiyomi.search.searcher import SearchConfig
from sakiyomi.search.solve import move_values

M = TypeVar("M", bound=Hashable)

SOLVE_SHARE = 0.25  # of a move's time and nodes, spent trying to solve every move first
SOLVE_NODES = 2_500_000  # the solving try's budget when a move has only a depth limit


class QuitGame(Exception):
    """The human asked to stop (``quit`` or end of input)."""


class Agent(Protocol[M]):
    """Chooses a move in a position that is not finished; may not change the position."""

    name: str

    def choose(self, game: Game[M]) -> M:
        """The move to play."""
        ...


PROMPT_MOVES = 20  # legal moves spelled out in the prompt; more are counted, not listed


def shown_moves(game: Game[M], limit: int = PROMPT_MOVES) -> str:
    """The legal moves for a prompt: all of them when few, else the first ``limit`` and a
    count (a Nim heap or a Go board has too many to print every turn).
    """
    moves = game.legal_moves()
    texts = [game.move_to_text(m) for m in moves[:limit]]
    if len(moves) > limit:
        texts.append(f"… {len(moves)} moves in all")
    return ", ".join(texts)


@dataclass
class HumanAgent(Generic[M]):
    """Asks at a prompt until the text names a legal move; ``quit`` or Ctrl-D ends the game."""

    read: Callable[[str], str]
    write: Callable[[str], None]
    name: str = "human"

    def choose(self, game: Game[M]) -> M:
        """Prompt, refusing malformed or illegal moves with the reason."""
        legal = shown_moves(game)
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
    """The computer: iterative deepening within depth / node / time limits, on the engine
    ``sakiyomi.engines`` picks (compiled for kernel games), with one table kept from move to
    move.  ``solve_first`` (default: when the game can be solved fast, ``engines.solvable``)
    first spends a quarter of the move's budget trying to solve every move exactly, and plays
    perfectly when that finishes.
    """

    def __init__(
        self, limits: Limits, config: SearchConfig | None = None,
        report: Callable[[str], None] | None = None, name: str = "cpu", *,
        engine: str = "auto", solve_first: bool | None = None,
    ) -> None:
        self.limits = limits
        self.report = report
        self.name = name
        self.solve_first = solve_first
        self.session = EngineSession(config, engine)
        self.last: SearchResult[M] | None = None

    def _engine(self, position: Game[M], nodes: int | None,
                seconds: float | None) -> Engine[M]:
        """An engine over ``position`` whose stop signal allows ``nodes`` more nodes."""
        engine = self.session.engine(position)
        base = engine.stats.nodes
        engine.stop = StopSignal(nodes=base + nodes if nodes is not None else None,
                                 seconds=seconds)
        return engine

    def choose(self, game: Game[M]) -> M:
        """Search a copy of the position and return the best move found."""
        position = game.copy()
        nodes, seconds = self.limits.nodes, self.limits.time
        if self.limits.depth is None and nodes is None and seconds is None:
            seconds = 5.0
        if seconds is not None:  # the one time plan: a fixed time per move
            seconds = TimePlan.fixed(seconds).hard
        solve_first = self.solve_first if self.solve_first is not None else solvable(game)
        if solve_first:
            budget = int(nodes * SOLVE_SHARE) if nodes else None
            if budget is None and seconds is None:
                budget = SOLVE_NODES
            engine = self._engine(position, budget, seconds * SOLVE_SHARE if seconds else None)
            base = engine.stats.nodes
            try:
                values = move_values(engine, None)
            except SearchAborted:
                values = []
            if values:
                best = values[0]
                self._say(game, best.move, f"value {best.value} (solved)", best.pv,
                          engine.stats.nodes - base)
                return best.move
            spent = engine.stats.nodes - base
            nodes = nodes - spent if nodes is not None else None
            seconds = seconds - engine.stop.elapsed() if seconds is not None else None
        engine = self._engine(position, nodes, max(seconds, 0.0) if seconds is not None
                              else None)
        base = engine.stats.nodes
        result = run(engine, self.limits)
        self.last = result
        move = result.best_move
        if move is None:  # not even depth 1 finished and the game has moves: any legal one
            move = game.legal_moves()[0]
        self._say(game, move, f"score {format_score(result.value)}  depth {result.depth}",
                  result.pv, result.stats.nodes - base)
        return move

    def _say(self, game: Game[M], move: M, what: str, pv: tuple[M, ...], nodes: int) -> None:
        if self.report is not None:
            line = " ".join(game.move_to_text(m) for m in pv)
            self.report(f"{self.name} plays {game.move_to_text(move)}  {what}  pv {line}  "
                        f"nodes {nodes}")


class MCTSAgent(Generic[M]):
    """The computer by Monte Carlo tree search (``sakiyomi.search.mcts``; compiled playouts
    for kernel games): each move gets ``iterations`` and the node and time limits of
    ``limits`` (5 s when none is set; a depth means nothing to MCTS), and the tree is kept
    from move to move (the subtree of the new position, ``MCTS.set_game``).
    """

    def __init__(
        self, limits: Limits, config: MCTSConfig | None = None,
        report: Callable[[str], None] | None = None, name: str = "cpu", *,
        iterations: int | None = None, engine: str = "auto",
    ) -> None:
        self.limits = limits
        self.config = config
        self.report = report
        self.name = name
        self.iterations = iterations
        self.engine = engine
        self.search: MCTS[M] | None = None
        self.last: SearchResult[M] | None = None

    def choose(self, game: Game[M]) -> M:
        """Search a copy of the position (reusing the tree) and play the best move."""
        position = game.copy()
        nodes, seconds = self.limits.nodes, self.limits.time
        if self.iterations is None and nodes is None and seconds is None:
            seconds = 5.0
        if self.search is None:
            self.search = mcts_for(position, self.config, engine=self.engine)
        else:
            self.search.set_game(position)
        self.search.stop = StopSignal(nodes=nodes, seconds=seconds)
        result = self.search.search(self.iterations)
        self.last = result
        move = result.best_move if result.best_move is not None else game.legal_moves()[0]
        if self.report is not None:
            proven = result.extra.get("proven")
            what = f"proven {proven}" if proven else f"value {result.value}"
            line = " ".join(game.move_to_text(m) for m in result.pv)
            self.report(f"{self.name} plays {game.move_to_text(move)}  {what}  "
                        f"iterations {result.extra['iterations']} (+{result.extra['reused']} "
                        f"kept)  pv {line}  nodes {result.stats.nodes}")
        return move

