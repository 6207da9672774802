"""Splitting: the top of the game tree, expanded until there is enough work for the workers.

The root is expanded level by level.  Positions reached twice (transpositions, by key) or as
each other's mirror image (games declaring ``MirrorSymmetry``) become one node.  Each new node
gets a cheap shallow search (``order_depth`` plies, open window) on the coordinator's own
engine: its value orders the parent's moves (best first, so the jobs of the likely best moves
run first), and when that search met no horizon it *is* the exact value and the node needs no
job at all.  Finished positions are scored at once, and a store (checkpoint or book) supplies
what earlier runs proved.  Expansion stops when the undecided frontier holds ``target``
nodes, or at ``max_depth``.  Games whose positions can repeat are not split (their value
depends on the path): the root is the only node.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from sakiyomi.engines import engine_for
from sakiyomi.game import (
    Game,
    MirrorSymmetry,
    PositionText,
    ScoreBounds,
    SearchShortcuts,
    capable,
    is_acyclic,
)
from sakiyomi.parallel.combine import Edge, Node, order, refresh
from sakiyomi.parallel.store import Store
from sakiyomi.score import WIN
from sakiyomi.search.engine import Engine
from sakiyomi.search.leaf import terminal_scorer
from sakiyomi.search.solve import FULL_DEPTH


@dataclass(frozen=True, slots=True)
class SplitPlan:
    """How far to split: stop at ``target`` undecided frontier nodes or ``max_depth`` plies;
    ``order_depth`` plies of shallow search per node (0: none, keep the game's move order).
    """

    target: int = 32
    max_depth: int = 24
    order_depth: int = 4


def score_range(game: Game[Any]) -> tuple[int, int]:
    """The widest exact values of ``game``'s positions (its ScoreBounds, else ±WIN)."""
    if capable(game, ScoreBounds):
        return cast(ScoreBounds, game).score_bounds()
    return -WIN, WIN


def position_label(game: Game[Any], root: str, path: Sequence[str]) -> str:
    """A POSITION text for the store: the game's own when it can write one, else the root's
    text and the moves from it.
    """
    if capable(game, PositionText):
        return cast(PositionText, game).position_text()
    return root if not path else f"{root} moves {' '.join(path)}"


def _mirror_image(game: Game[Any]) -> Game[Any]:
    """The mirror image of a ``MirrorSymmetry`` game's position (a new game object)."""
    return cast(Game[Any], cast(MirrorSymmetry[Any], game).mirrored())


class SplitTree:
    """The expanded top of the tree over one root position (see the module doc)."""

    def __init__(self, game_name: str, root_text: str, root: Game[Any], store: Store,
                 plan: SplitPlan = SplitPlan(), engine: str = "auto") -> None:
        self.game_name = game_name
        self.root_text = root_text
        self.store = store
        self.plan = plan
        self.nodes: dict[int, Node] = {}
        self._game = root.copy()
        self._mirror = capable(root, MirrorSymmetry)
        self._shortcuts = capable(root, SearchShortcuts)
        self._score = terminal_scorer(self._game)
        self._engine_kind = engine
        self._engine: Engine[Any] | None = (
            engine_for(self._game, engine=engine) if plan.order_depth > 0 else None)
        self.root = self._node(())
        self.depth = 0
        self._acyclic = is_acyclic(root)
        if self._acyclic:
            self._expand()
        refresh(self.root)

    # ---- nodes ----------------------------------------------------------------------------

    def _keys(self) -> tuple[int, int, bool]:
        """(merge key, store key, flipped) of the current position."""
        key = self._game.key()
        if not self._mirror:
            return key, key, False
        twin = _mirror_image(self._game).key()
        return (twin, key, True) if twin < key else (key, key, False)

    def _node(self, path: tuple[str, ...]) -> Node:
        """A new node for the current position (reached by ``path``), with what is known."""
        game = self._game
        merge_key, key, _ = self._keys()
        lo, hi = score_range(game)
        node = Node(merge_key, key, path, position_label(game, self.root_text, path), lo, hi)
        self.nodes[merge_key] = node
        outcome = game.outcome()
        if outcome is not None:
            value = self._score(outcome, 0)
            node.learn(value, value, None)
            return node
        if self._shortcuts:
            blo, bhi = cast(SearchShortcuts[Any], game).value_bounds(0)
            node.learn(blo, bhi, None)
        self._recall(node)
        if self._engine is not None and node.own_lo < node.own_hi:
            engine = self._engine
            guess = engine.search(self.plan.order_depth)
            node.guess = guess
            if not engine.hit_horizon:  # the whole subtree was seen: exact
                move = engine.root_best_move
                node.learn(guess, guess, game.move_to_text(move) if move is not None else None)
        elif node.own_lo == node.own_hi:
            node.guess = node.own_lo
        return node

    def _recall(self, node: Node) -> None:
        """Tighten the node with the store's bounds of the position or of its mirror image."""
        found = self.store.get(node.store_key)
        if found is not None:
            node.learn(found.lower, found.upper, found.best)
            return
        if self._mirror:
            twin = _mirror_image(self._game)
            found = self.store.get(twin.key())
            if found is not None:
                best = found.best
                if best is not None:  # the twin's move, reflected into this position
                    best = self._game.move_to_text(
                        cast(MirrorSymmetry[Any], self._game).mirror_move(
                            twin.move_from_text(best)))
                node.learn(found.lower, found.upper, best)

    def _moves(self) -> Sequence[Any]:
        if self._shortcuts:  # a subset that always holds a best move (Pons's tricks)
            return list(cast(SearchShortcuts[Any], self._game).search_moves())
        return list(self._game.legal_moves())

    # ---- expansion ------------------------------------------------------------------------

    def _open(self, node: Node) -> bool:
        return node.own_lo < node.own_hi

    def _expand(self) -> None:
        level = [self.root] if self._open(self.root) else []
        while level and self.depth < self.plan.max_depth:
            if sum(1 for n in level if self._open(n)) >= self.plan.target:
                break
            following: list[Node] = []
            for node in level:
                if not self._open(node):
                    continue
                following.extend(self._children(node))
            self.depth += 1
            level = following

    def _children(self, node: Node) -> list[Node]:
        """Expand ``node``: its children as edges (best first); returns the new nodes."""
        game = self._game
        for text in node.path:
            game.play(game.move_from_text(text))
        new: list[Node] = []
        edges: list[Edge] = []
        try:
            for move in self._moves():
                text = game.move_to_text(move)
                game.play(move)
                try:
                    merge_key, key, flipped = self._keys()
                    child = self.nodes.get(merge_key)
                    if child is None:
                        child = self._node((*node.path, text))
                        new.append(child)
                        flipped = False
                    else:
                        flipped = key != child.store_key
                    edges.append(Edge(text, child, flipped))
                finally:
                    game.undo()
        finally:
            for _ in node.path:
                game.undo()
        node.children = order(edges)
        return new

    def root_move(self, alpha: int, beta: int) -> str | None:
        """A root move of a value inside (alpha, beta), by one search here: for a root decided
        without children (the game's own bounds, e.g. a win next move), where the tree names
        no move.
        """
        engine = self._engine
        if engine is None:
            engine = self._engine = engine_for(self._game, engine=self._engine_kind)
        engine.search(FULL_DEPTH, alpha, beta)
        move = engine.root_best_move
        return self._game.move_to_text(move) if move is not None else None

    def expand(self, node: Node) -> bool:
        """Split a frontier node further (its job proved too big to run alone); True when it
        gained children.  Only for games whose positions cannot repeat.
        """
        if node.children or not self._open(node) or not self._acyclic:
            return False
        self._children(node)
        return bool(node.children)

    # ---- reporting ------------------------------------------------------------------------

    def frontier(self) -> list[Node]:
        """Every node without children."""
        return [n for n in self.nodes.values() if not n.children]
