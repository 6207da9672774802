"""Explicit game trees (the seeds' worked examples) and seeded random trees for tests.

POSITION is a nested JSON list of integers (or ``random:B,D,SEED``, a seeded uniform random
tree with leaves in -99..99, the same as ``random_tree(B, D, SEED)``).  By default a leaf is
scored for the side to move at that leaf (NegaMax convention, seed 000); with the prefix
``max:`` leaves are scored for the first player (MinMax convention, seeds 002-004).
Moves are child indices (0-based).
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Self, TypeAlias

from sakiyomi.game import MoveError, Outcome, Player, PositionError

Tree: TypeAlias = int | list["Tree"]


class TreeGame:
    """A position in an explicit tree: the node reached from the root by a list of moves."""

    ACYCLIC = True

    def __init__(self, tree: Tree, first_player_leaves: bool = False) -> None:
        self.first_player_leaves = first_player_leaves
        self._children: list[tuple[int, ...]] = []
        self._values: list[int | None] = []
        self._depth: list[int] = []
        self._flatten(tree, 0)
        self._path: list[int] = [0]

    def _flatten(self, node: Tree, depth: int) -> int:
        index = len(self._children)
        self._children.append(())
        self._depth.append(depth)
        if isinstance(node, bool) or not isinstance(node, (int, list)):
            raise PositionError(f"tree nodes must be integers or lists, not {node!r}")
        if isinstance(node, int):
            self._values.append(node)
            return index
        if not node:
            raise PositionError("an empty list is not a tree node (a leaf must be an integer)")
        self._values.append(None)
        self._children[index] = tuple(self._flatten(child, depth + 1) for child in node)
        return index

    @property
    def node(self) -> int:
        """Index of the current node (preorder, root = 0)."""
        return self._path[-1]

    @property
    def to_move(self) -> Player:
        return Player.FIRST if self._depth[self._path[-1]] % 2 == 0 else Player.SECOND

    def legal_moves(self) -> Sequence[int]:
        return range(len(self._children[self._path[-1]]))

    def play(self, move: int) -> None:
        self._path.append(self._children[self._path[-1]][move])

    def undo(self) -> None:
        self._path.pop()

    def outcome(self) -> Outcome | None:
        value = self._values[self._path[-1]]
        if value is None:
            return None
        own = self.terminal_value(0)
        winner = None if own == 0 else self.to_move if own > 0 else self.to_move.other
        return Outcome(winner, "leaf", abs(own))

    def terminal_value(self, ply: int) -> int:
        """The leaf's value for the side to move (converted from the MinMax convention)."""
        value = self._values[self._path[-1]]
        assert value is not None
        if self.first_player_leaves and self.to_move is Player.SECOND:
            return -value
        return value

    def evaluate(self) -> int:
        """Inner nodes have no static value in an explicit tree: 0."""
        return 0

    def key(self) -> int:
        return self._path[-1]

    def copy(self) -> Self:
        clone = object.__new__(type(self))
        clone.__dict__.update(self.__dict__)
        clone._path = list(self._path)
        return clone

    def move_to_text(self, move: int) -> str:
        return str(move)

    def move_from_text(self, text: str) -> int:
        count = len(self._children[self._path[-1]])
        if not text.strip().isdigit():
            raise MoveError(f"move {text!r} is not a child index (0-{count - 1})")
        move = int(text)
        if move >= count:
            raise MoveError(f"move {move} is out of range: this node has {count} children")
        return move

    def __str__(self) -> str:
        path = "→".join(str(self._children[a].index(b))
                        for a, b in zip(self._path, self._path[1:], strict=False)) or "root"
        return f"node {path}: {json.dumps(self.subtree())} ({self.to_move.name.lower()} to move)"

    def subtree(self) -> Tree:
        """The current node as a nested list (for printing and sorting)."""
        def build(index: int) -> Tree:
            value = self._values[index]
            if value is not None:
                return value
            return [build(child) for child in self._children[index]]
        return build(self._path[-1])


def parse_tree(text: str) -> tuple[Tree, bool]:
    """Parse POSITION text: optional ``max:`` prefix, then a nested JSON list."""
    body = text.strip()
    first_player = body.startswith("max:")
    if first_player:
        body = body[4:]
    try:
        tree: Tree = json.loads(body)
    except json.JSONDecodeError as exc:
        raise PositionError(f"tree is not valid JSON: {exc.msg} at character {exc.pos}") from exc
    return tree, first_player


def from_position(name: str, text: str) -> TreeGame:
    """Registry entry point; ``random:B,D,SEED`` is a seeded uniform random tree."""
    if text.strip().startswith("random:"):
        parts = text.strip()[7:].split(",")
        if len(parts) != 3 or not all(p.strip().isdigit() for p in parts):
            raise PositionError(f"random tree must be 'random:B,D,SEED' (integers), not {text!r}")
        branching, depth, seed = (int(p) for p in parts)
        if not 1 <= branching <= 32 or not 0 <= depth <= 12 or branching**depth > 10**6:
            raise PositionError("random tree too large: need B ≤ 32, D ≤ 12, B^D ≤ 1,000,000")
        return TreeGame(random_tree(branching, depth, seed))
    tree, first_player = parse_tree(text)
    return TreeGame(tree, first_player)


def random_tree(
    branching: int, depth: int, seed: int, *, ragged: bool = False, low: int = -99,
    high: int = 99,
) -> Tree:
    """A seeded random tree; uniform (every inner node has ``branching`` children) or ragged
    (1..branching children, and some early leaves).
    """
    rng = random.Random(seed)

    def build(level: int) -> Tree:
        if level == depth or (ragged and level > 0 and rng.random() < 0.15):
            return rng.randint(low, high)
        width = rng.randint(1, branching) if ragged else branching
        return [build(level + 1) for _ in range(width)]

    return build(0)


def negamax_value(tree: Tree) -> int:
    """Value for the side to move of a NegaMax-convention tree (direct recursion)."""
    if isinstance(tree, int):
        return tree
    return max(-negamax_value(child) for child in tree)


def sort_best_first(tree: Tree) -> Tree:
    """The same NegaMax-convention tree with every node's children best-first, so that αβ
    visits exactly the minimal tree (seed 002's perfectly ordered tree).
    """
    if isinstance(tree, int):
        return tree
    children = [sort_best_first(child) for child in tree]
    return sorted(children, key=negamax_value)  # lowest child value = best for the parent


def to_first_player_convention(tree: Tree, depth: int = 0) -> Tree:
    """Convert a NegaMax-convention tree to the MinMax (``max:``) convention."""
    if isinstance(tree, int):
        return tree if depth % 2 == 0 else -tree
    return [to_first_player_convention(child, depth + 1) for child in tree]
