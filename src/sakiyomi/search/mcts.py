"""Monte Carlo tree search (UCT): the other family, kept apart from the αβ code.

Where αβ reads every move to a depth and trusts ``evaluate``, MCTS grows a tree one position
per *iteration* and judges positions by finishing the game at random from them (playouts):

1. **select** — from the root, step to the child with the largest UCB1 score
   ``q + c · scale · sqrt(ln N / n)`` (``q`` the child's mean reward for the player who moves
   into it, ``n`` its visits, ``N`` the parent's, ``c`` the exploration constant, ``scale``
   the reward range) until a position has a move not yet in the tree;
2. **expand** — add that move's position (a random one of the untried moves);
3. **play out** — finish the game from it with random moves (or the game's own
   ``RolloutPolicy``), and score the end: +1 / 0 / -1 by default (``reward="result"``), or
   the game's terminal score (``reward="score"``: tree leaves, disc differences);
4. **back up** — add the reward to every position on the path, negated at each ply.

Kocsis & Szepesvári (2006) showed that the choice converges to the minimax move as the
iterations grow.  With ``solver=True`` (MCTS-Solver, Winands, Björnsson & Saito 2008) finished
positions are *proven*, and proofs travel up: a position is won as soon as one move wins.
Draws and scores are proved as in score-bounded MCTS (Cazenave & Saffidine 2010): every node
keeps a lower and an upper bound on its exact value, from its children's bounds, and it is
proven when they meet; selection skips children that cannot beat what their parent already
secures, so proofs finish instead of revisiting known moves.  The search ends when the root
is proven, and never plays a move proven worse than another.

The search itself only walks a tree: moving through positions is a ``Walker``'s job.
``GameWalker`` plays and undoes moves on any ``Game`` (and restores it, naming the game
method, when one raises: ``search.errors``); kernel games get a compiled walker from
``sakiyomi.engines.mcts_for`` whose playouts run in numba.  Limits: an iteration count, and
the ``StopSignal``'s node budget, deadline and ``stop()`` (checked between iterations).
Everything random comes from ``MCTSConfig.seed``: a fixed seed and an iteration or node limit
give the same tree, move and counts every time.  The tree is kept between searches
(``set_game`` finds the new position among the old root's children and grandchildren).

Node accounting (DESIGN.md §4, adapted): **nodes** counts every position an iteration stands
on (the root, each step down the tree, the new position and each playout position),
**leaves** the positions scored (one per iteration: a playout's end or a finished position).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Generic, Literal, Protocol, TypeVar, cast

from sakiyomi.game import Game, RolloutPolicy, TerminalScoring, capable
from sakiyomi.score import INF, MAX_PLY, from_tt, is_decisive, is_win, sign
from sakiyomi.search.errors import at_root, unwind
from sakiyomi.search.leaf import terminal_scorer
from sakiyomi.search.limits import StopSignal
from sakiyomi.search.result import SearchInfo, SearchResult, SearchStats

M = TypeVar("M", bound=Hashable)

Reward = Literal["auto", "result", "score"]
Rollout = Literal["random", "game"]
DEFAULT_EXPLORATION = math.sqrt(2)  # UCB1's constant for rewards in [0, 1] scaled to [-1, 1]
MAX_EXPLORATION = 1000.0  # beyond it UCB1 is a uniform spread anyway (and c² stays finite)
INFO_EVERY = 0.5  # seconds between progress reports (SearchInfo)


@dataclass(frozen=True, slots=True)
class MCTSConfig:
    """The settings of one Monte Carlo tree search.

    ``exploration``: UCB1's constant c (0: pure exploitation).  ``rollout``: "random" moves,
    or "game" (the game's ``RolloutPolicy``; a kernel game's ``k_search_moves`` on the compiled
    path).  ``solver``: prove finished positions and propagate proofs (MCTS-Solver).
    ``reward``: "result" scores a playout +1 / 0 / -1 by who won; "score" by the game's own
    terminal value (tree leaves, disc differences, Pons's scores), so that means estimate the
    value αβ computes; "auto": "score" for games declaring ``TerminalScoring``, else "result".
    ``seed``: every random choice.  ``reuse``: keep the subtree of the new position between
    searches.
    """

    exploration: float = DEFAULT_EXPLORATION
    rollout: Rollout = "random"
    solver: bool = True
    reward: Reward = "auto"
    seed: int = 0
    reuse: bool = True

    @classmethod
    def from_options(cls, exploration: float | None = None, seed: int | None = None,
                     rollout: str | None = None, reward: str | None = None) -> MCTSConfig:
        """The defaults, with the options that were given (command lines)."""
        settings: dict[str, Any] = {}
        if exploration is not None:
            settings["exploration"] = exploration
        if seed is not None:
            settings["seed"] = seed
        if rollout is not None:
            settings["rollout"] = rollout
        if reward is not None:
            settings["reward"] = reward
        return cls(**settings)

    def __post_init__(self) -> None:
        if not 0 <= self.exploration <= MAX_EXPLORATION:
            raise ValueError(f"exploration must be a number from 0 to {MAX_EXPLORATION:g}, "
                             f"not {self.exploration}")
        if self.rollout not in ("random", "game"):
            raise ValueError(f"rollout must be 'random' or 'game', not {self.rollout!r}")
        if self.reward not in ("auto", "result", "score"):
            raise ValueError(f"reward must be 'auto', 'result' or 'score', not {self.reward!r}")


class Node(Generic[M]):
    """One position of the tree.  ``total`` sums the rewards of the player who moved into it
    (the parent's side to move), so a parent picks the child with the best mean.  ``lo`` and
    ``hi`` bound the exact value for the side to move here (the solver's; win/loss distances
    counted from this node, as in a transposition table); ``proven`` is that value once they
    meet, else None.  ``cache`` belongs to the walker.
    """

    __slots__ = ("cache", "children", "hi", "lo", "move", "parent", "proven", "terminal",
                 "total", "untried", "visits")

    def __init__(self, move: M | None, parent: Node[M] | None) -> None:
        self.move = move
        self.parent = parent
        self.children: list[Node[M]] = []
        self.untried: list[M] | None = None  # listed when first expanded
        self.visits = 0
        self.total = 0.0
        self.lo = -INF
        self.hi = INF
        self.proven: int | None = None
        self.terminal: int | None = None  # the score of a finished position
        self.cache: Any = None

    @property
    def mean(self) -> float:
        """Mean reward for the player who moved into this position (0 before any visit)."""
        return self.total / self.visits if self.visits else 0.0

    def size(self) -> int:
        """Positions in this subtree."""
        count, stack = 0, [self]
        while stack:
            node = stack.pop()
            count += 1
            stack.extend(node.children)
        return count


class Walker(Protocol[M]):
    """How the search moves through positions: down the tree, back to the root, and out to
    the end of the game.  Scores are the game's terminal scores (``search.leaf``) for the
    side to move, with win/loss distances counted from the position scored.
    """

    def descend(self, node: Node[M]) -> None:
        """Play ``node.move`` from the current position (``node.cache`` is the walker's)."""
        ...

    def to_root(self) -> None:
        """Take back every move played since the root."""
        ...

    def status(self) -> int | None:
        """The score of the current position if the game is over, else None."""
        ...

    def moves(self) -> list[M]:
        """The legal moves of the current (unfinished) position."""
        ...

    def playout(self) -> tuple[int, int]:
        """(score for the side to move now, plies played): finish the game from the current
        position and come back to it.
        """
        ...

    def fail(self, exc: BaseException) -> BaseException:
        """``exc`` raised during an iteration: restore the root, return what to raise."""
        ...


class GameWalker(Generic[M]):
    """A walker over any ``Game``: ``play``/``undo`` in place, playouts by uniform random
    moves (``random.Random``) or the game's ``RolloutPolicy``.
    """

    def __init__(self, game: Game[M], rollout: Rollout, rng: random.Random) -> None:
        if rollout == "game" and not capable(game, RolloutPolicy):
            raise ValueError("rollout='game' needs a game with a rollout_move method "
                             "(RolloutPolicy); this game has none: use rollout='random'")
        self.game = game
        self._rng = rng
        self._scorer = terminal_scorer(cast(Game[object], game))
        self._policy = cast(RolloutPolicy[M], game).rollout_move if rollout == "game" else None
        self._line: list[M] = []

    def descend(self, node: Node[M]) -> None:
        """Play the node's move."""
        move = cast(M, node.move)
        self.game.play(move)
        self._line.append(move)

    def to_root(self) -> None:
        """Undo the line."""
        game, line = self.game, self._line
        while line:
            game.undo()
            line.pop()

    def status(self) -> int | None:
        """The terminal score, or None."""
        outcome = self.game.outcome()
        return None if outcome is None else self._scorer(outcome, 0)

    def moves(self) -> list[M]:
        """The legal moves."""
        return list(self.game.legal_moves())

    def playout(self) -> tuple[int, int]:
        """Random moves to the end, scored, then taken back."""
        game, line, rng, policy = self.game, self._line, self._rng, self._policy
        plies = 0
        while (outcome := game.outcome()) is None:
            if plies >= MAX_PLY:  # a game with cycles may never end at random: a draw
                self._undo(plies)
                return 0, plies
            if policy is not None:
                move = policy(rng)
            else:
                moves = game.legal_moves()
                move = moves[int(rng.random() * len(moves))]
            game.play(move)
            line.append(move)
            plies += 1
        score = self._scorer(outcome, plies)
        self._undo(plies)
        return (score if plies % 2 == 0 else -score), plies

    def _undo(self, plies: int) -> None:
        game, line = self.game, self._line
        for _ in range(plies):
            game.undo()
            line.pop()

    def fail(self, exc: BaseException) -> BaseException:
        """Unwind the line move by move (``search.errors``), naming it in the error."""
        err = exc
        game, line = self.game, self._line
        while line:
            err = unwind(err, line.pop(), game, game.undo)
        return at_root(err, game)


WalkerFactory = Callable[[Game[Any], "MCTSConfig", random.Random], Walker[Any]]


def game_walker(game: Game[Any], config: MCTSConfig, rng: random.Random) -> Walker[Any]:
    """The Python walker (every game)."""
    return GameWalker(game, config.rollout, rng)


class MCTS(Generic[M]):
    """UCT with optional MCTS-Solver over ``game`` (searched in place, restored after every
    search).  ``stop`` ends searches (node budget, deadline, ``stop()`` from any thread);
    ``walker`` makes the position walker (default: ``GameWalker``).  ``stats`` are live
    counters over this object's life; results count their own search.
    """

    def __init__(self, game: Game[M], config: MCTSConfig | None = None, *,
                 stop: StopSignal | None = None, walker: WalkerFactory | None = None) -> None:
        self.config = config if config is not None else MCTSConfig()
        self.stop = stop if stop is not None else StopSignal()
        self.stats = SearchStats()
        self.iterations = 0
        self._rng = random.Random(self.config.seed)
        self._make_walker = walker if walker is not None else game_walker
        self._scale = 1.0  # the largest absolute reward seen (exploration scale)
        self._result_mode = True
        self.root: Node[M] = Node(None, None)
        self._root_copy: Game[M] | None = None
        self.reused = 0  # visits of the subtree kept by the last set_game
        self.game = game
        self.walker: Walker[M] = self._make_walker(game, self.config, self._rng)
        self._set_mode(game)

    def _set_mode(self, game: Game[M]) -> None:
        reward = self.config.reward
        if reward == "auto":
            reward = "score" if capable(game, TerminalScoring) else "result"
        self._result_mode = reward == "result"

    # ---- position and tree reuse ------------------------------------------------------------

    def set_game(self, game: Game[M]) -> int:
        """Search ``game`` from now on; keep the subtree of its position when it is a child or
        grandchild of the old root (``config.reuse``).  Returns the visits kept.
        """
        node = self._find(game) if self.config.reuse else None
        self.root = node if node is not None else Node(None, None)
        self.root.parent = None
        self.root.move = None
        self.reused = self.root.visits
        self.game = game
        self.walker = self._make_walker(game, self.config, self._rng)
        self._set_mode(game)
        self._root_copy = None
        return self.reused

    def _find(self, game: Game[M]) -> Node[M] | None:
        old = self._root_copy
        if old is None or not self.root.children:
            return None
        key, side = game.key(), game.to_move
        for child in self.root.children:
            old.play(cast(M, child.move))
            try:
                if old.key() == key and old.to_move == side:
                    return child
                for grandchild in child.children:
                    old.play(cast(M, grandchild.move))
                    try:
                        if old.key() == key and old.to_move == side:
                            return grandchild
                    finally:
                        old.undo()
            finally:
                old.undo()
        return None

    # ---- the search -------------------------------------------------------------------------

    def search(self, iterations: int | None = None,
               on_info: Callable[[SearchInfo[M]], object] | None = None) -> SearchResult[M]:
        """Iterate until ``iterations`` are done, the stop signal fires (its node budget counts
        this search's nodes) or the root is proven (solver); return the best move by visits
        (see ``best_child``), the PV by most visits, the value estimate and the visit counts.
        """
        if self.game.outcome() is not None:
            raise ValueError("the position is already finished: there is nothing to search")
        start = time.perf_counter()
        if self.config.reuse:
            self._root_copy = self.game.copy()
        before = self.stats.copy()
        done = 0
        stop, stats = self.stop, self.stats
        next_info = start + INFO_EVERY
        stopped = False
        while iterations is None or done < iterations:
            if self.config.solver and self.root.proven is not None:
                break
            if stop.should_stop(stats.nodes - before.nodes):
                stopped = True
                break
            self._iterate()
            done += 1
            if on_info is not None and (done & 63) == 0 and time.perf_counter() >= next_info:
                next_info = time.perf_counter() + INFO_EVERY
                on_info(self.info(time.perf_counter() - start, before))
        self.iterations += done
        seconds = time.perf_counter() - start
        result = self._result(seconds, before, done, complete=not stopped or self._proven())
        if on_info is not None:
            on_info(self.info(seconds, before))
        return result

    def _proven(self) -> bool:
        return self.config.solver and self.root.proven is not None

    def _iterate(self) -> None:
        """One selection, expansion, playout and back-up."""
        walker, stats, solver = self.walker, self.stats, self.config.solver
        node = self.root
        depth = 0
        newly_proven: Node[M] | None = None
        try:
            while True:
                if node.terminal is not None:
                    score = node.terminal
                    break
                if solver and node.proven is not None:
                    score = node.proven
                    break
                if depth >= MAX_PLY:  # a cycle followed this deep: scored as a draw
                    score = 0
                    break
                untried = node.untried
                if untried is None:
                    untried = node.untried = walker.moves()
                if untried:
                    i = self._rng.randrange(len(untried))
                    untried[i], untried[-1] = untried[-1], untried[i]
                    child = Node(untried.pop(), node)
                    node.children.append(child)
                    walker.descend(child)
                    depth += 1
                    node = child
                    finished = walker.status()
                    if finished is not None:
                        node.terminal = finished
                        score = finished
                        if solver:
                            node.lo = node.hi = node.proven = self._exact(finished)
                            newly_proven = node
                    else:
                        score, plies = walker.playout()
                        stats.nodes += plies
                    break
                node = self._select(node)
                walker.descend(node)
                depth += 1
            walker.to_root()
        except BaseException as exc:
            raise walker.fail(exc)  # noqa: B904 (the walker sets the cause)
        stats.nodes += depth + 1
        stats.leaves += 1
        if depth > stats.seldepth:
            stats.seldepth = depth
        reward = self._reward(score)
        # Back up: ``reward`` is for the side to move at ``node``; each node keeps the reward
        # of the player who moved into it.
        up: Node[M] | None = node
        while up is not None:
            up.visits += 1
            up.total -= reward
            reward = -reward
            up = up.parent
        if newly_proven is not None:
            self._settle(newly_proven.parent)

    def _reward(self, score: int) -> float:
        if self._result_mode:
            return float(sign(score))
        value = float(score)
        if abs(value) > self._scale:
            self._scale = abs(value)
        return value

    def _select(self, node: Node[M]) -> Node[M]:
        """The child with the largest UCB1 score.  With the solver, children that cannot do
        better for the side to move than what it already secures (``node.lo``) are skipped:
        proven ones (nothing is left to learn about them) and dominated ones; such a node
        always has another child, or it would be proven.
        """
        c = self.config.exploration * self._scale
        k = c * c * math.log(node.visits) if node.visits > 1 else 0.0  # c·sqrt(ln N / n)
        sqrt = math.sqrt
        best = node.children[0]
        best_score = -math.inf
        if not self.config.solver:
            for child in node.children:
                n = child.visits
                score = child.total / n + sqrt(k / n)
                if score > best_score:
                    best_score = score
                    best = child
            return best
        secured = node.lo
        bounded = secured > -INF
        for child in node.children:
            if child.proven is not None or (bounded and child.lo > -INF
                                            and _up(child.lo) <= secured):
                continue
            n = child.visits
            score = child.total / n + sqrt(k / n)
            if score > best_score:
                best_score = score
                best = child
        return best

    def _exact(self, score: int) -> int:
        """A finished position's value as the solver proves it: the score itself, or with
        ``reward="result"`` its sign (decisive scores keep their distance).
        """
        if self._result_mode and not is_decisive(score):
            return sign(score)
        return score

    def _unbeatable(self, value: int) -> bool:
        """A secured value nothing can improve on (a win, in result mode any win)."""
        return value > 0 if self._result_mode else is_win(value)

    def _settle(self, node: Node[M] | None) -> None:
        """Carry new bounds up from a proven child: ``lo`` is the best child's lower bound
        (seen from here), ``hi`` the best upper bound once every move is in the tree; a node
        is proven when they meet, or when it secures a win.
        """
        while node is not None and node.proven is None:
            lo, hi = -INF, -INF
            for child in node.children:
                lo = max(lo, _up(child.hi))
                hi = max(hi, _up(child.lo))
            if node.untried is None or node.untried:
                hi = INF
            if self._unbeatable(lo):
                hi = lo
            if lo == node.lo and hi == node.hi:
                return
            node.lo, node.hi = lo, hi
            if lo >= hi:
                node.proven = lo
            node = node.parent

    # ---- answers ------------------------------------------------------------------------------

    def best_child(self, node: Node[M]) -> Node[M] | None:
        """The move to play from ``node``: when ``node`` is proven, a child that achieves its
        value; else a proven child that secures ``node.lo`` when no unproven child's mean
        promises more (the "secure child"); else the most visited child not proven worse
        than another (ties: the better mean); None for a node without children.
        """
        return max(node.children, key=self._rank(node), default=None)

    def ranked(self, node: Node[M]) -> list[Node[M]]:
        """The children of ``node``, best first (``best_child``'s order)."""
        return sorted(node.children, key=self._rank(node), reverse=True)

    def _rank(self, node: Node[M]
              ) -> Callable[[Node[M]], tuple[bool, bool, bool, int, float]]:
        solver = self.config.solver
        target, secured = node.proven, node.lo
        promised = max((c.mean for c in node.children if c.proven is None and c.visits),
                       default=-math.inf)
        secure = solver and secured > -INF and self._estimate(secured) >= promised

        def key(child: Node[M]) -> tuple[bool, bool, bool, int, float]:
            if not solver:
                return False, True, False, child.visits, child.mean
            proven = None if child.proven is None else _up(child.proven)
            achieves = target is not None and proven == target
            dominated = _up(child.lo) < secured
            return achieves, not dominated, secure and proven == secured, child.visits, \
                child.mean

        return key

    def _estimate(self, value: int) -> float:
        """A proven value in reward units (to compare with means)."""
        return float(sign(value)) if self._result_mode else float(value)

    def move_record(self, child: Node[M], line: bool = True) -> dict[str, object]:
        """What the search knows about one root move: visits, mean, its value for the root's
        side to move (as ``value``: proven, else the mean ×100 or in game units), proof, PV.
        """
        proven = _up(child.proven) if self.config.solver and child.proven is not None \
            else None
        if proven is not None:
            value = proven if not self._result_mode or is_decisive(proven) \
                else 100 * sign(proven)
        else:
            value = round(100 * child.mean) if self._result_mode else round(child.mean)
        return {"move": child.move, "visits": child.visits, "mean": round(child.mean, 4),
                "value": value,
                "proven": None if proven is None else ("loss", "draw", "win")[sign(proven) + 1],
                "pv": (child.move, *self.principal_variation(child)) if line else ()}

    def principal_variation(self, start: Node[M] | None = None) -> tuple[M, ...]:
        """Best children from ``start`` (default: the root) down."""
        line: list[M] = []
        node: Node[M] | None = start if start is not None else self.root
        while node is not None:
            node = self.best_child(node)
            if node is None or node.visits == 0:
                break
            line.append(cast(M, node.move))
        return tuple(line)

    def value(self) -> int:
        """The root's value for its side to move: the proven value (result mode: a decisive
        score as is, else ±100 / 0), otherwise the best move's mean — ×100 with
        ``reward="result"`` (the expected result in percent), in game units with "score".
        """
        proven = self.root.proven if self.config.solver else None
        if proven is not None:
            return proven if not self._result_mode or is_decisive(proven) \
                else 100 * sign(proven)
        best = self.best_child(self.root)
        return int(str(self.move_record(best, False)["value"])) if best is not None else 0

    def info(self, seconds: float, before: SearchStats | None = None) -> SearchInfo[M]:
        """Progress so far (the PV's length stands for the depth)."""
        pv = self.principal_variation()
        return SearchInfo(len(pv), self.value(), pv, self._since(before), seconds)

    def _since(self, before: SearchStats | None) -> SearchStats:
        now = self.stats.copy()
        if before is not None:
            now.nodes -= before.nodes
            now.leaves -= before.leaves
        return now

    def _result(self, seconds: float, before: SearchStats, done: int,
                complete: bool) -> SearchResult[M]:
        root = self.root
        best = self.best_child(root)
        pv = self.principal_variation()
        proven = root.proven if self.config.solver else None
        extra: dict[str, object] = {
            "algorithm": "mcts",
            "iterations": done,
            "visits": {c.move: c.visits for c in root.children},
            "means": {c.move: round(c.mean, 4) for c in root.children},
            "mean": round(best.mean, 4) if best is not None else 0.0,
            "root_visits": root.visits,
            "reused": self.reused,
            "tree_nodes": root.size(),
            "proven": None if proven is None else ("loss", "draw", "win")[sign(proven) + 1],
        }
        if proven is not None:
            extra["proven_score"] = proven
        extra["moves"] = [self.move_record(c) for c in self.ranked(root)]
        return SearchResult(self.value(), best.move if best is not None else None, pv,
                            len(pv), self._since(before), seconds, complete, extra)


def _up(value: int) -> int:
    """A child's value (or bound) seen from its parent: negated, one ply farther."""
    if value >= INF:
        return -INF
    if value <= -INF:
        return INF
    return from_tt(-value, 1)


def visit_counts(result: SearchResult[M]) -> dict[M, int]:
    """The root moves' visit counts of an MCTS result."""
    return cast(dict[M, int], result.extra.get("visits", {}))
