"""Explicit game trees (the seeds' worked examples) and seeded random trees for tests.

POSITION is a nested JSON list of integers (or ``random:B,D,SEED``, a seeded uniform random
tree with leaves in -99..99, the same as ``random_tree(B, D, SEED)``).  By default a leaf is
scored for the side to move at that leaf (NegaMax convention, seed 000); with the prefix
``max:`` leaves are scored for the first player (MinMax convention, seeds 002-004).
Moves are child indices (0-based).

Limits: leaves lie strictly inside the score scale's heuristic range (``|leaf| <
WIN_BOUND``, 999,488: larger values would read as "win in n plies"); at most ``MAX_DEPTH``
levels below the root (the search horizon) and ``MAX_NODES`` nodes.  The text is parsed
without recursion, so any nesting gets a clear refusal, never a RecursionError.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Sequence
from typing import Self, TypeAlias

from sakiyomi.game import MoveError, Outcome, Player, PositionError
from sakiyomi.inputs import parse_int, shown
from sakiyomi.score import MAX_PLY, WIN_BOUND

Tree: TypeAlias = int | list["Tree"]

LEAF_LIMIT = WIN_BOUND - 1  # |leaf| at most this: the heuristic range of sakiyomi.score
MAX_DEPTH = MAX_PLY - 1  # levels below the root: deeper leaves lie beyond the search horizon
MAX_NODES = 1_000_000
MAX_SEED = 2**64 - 1
LIMITS = (f"leaves within ±{LEAF_LIMIT:,}; at most {MAX_DEPTH} levels and {MAX_NODES:,} nodes; "
          "random:B,D,SEED with B ≤ 32, D ≤ 12, B^D ≤ 1,000,000")
SHOWN_TREE = 200  # characters of a node's subtree shown by str()
_TOKEN = re.compile(r"\s*(?:(\[)|(\])|(,)|([+-]?[0-9]+)|(\S))", re.ASCII)


class TreeGame:
    """A position in an explicit tree: the node reached from the root by a list of moves."""

    ACYCLIC = True

    def __init__(self, tree: Tree, first_player_leaves: bool = False) -> None:
        self.first_player_leaves = first_player_leaves
        self._children: list[tuple[int, ...]] = []
        self._values: list[int | None] = []
        self._depth: list[int] = []
        self._flatten(tree)
        self._path: list[int] = [0]

    def _flatten(self, root: Tree) -> None:
        """Number the nodes in preorder (root = 0) without recursion, checking the limits."""
        children: list[list[int]] = []
        stack: list[tuple[Tree, int, int]] = [(root, 0, -1)]
        while stack:
            node, depth, parent = stack.pop()
            index = len(self._values)
            if index >= MAX_NODES:
                raise PositionError(f"tree too large: at most {MAX_NODES:,} nodes")
            if depth > MAX_DEPTH:
                raise PositionError(f"tree too deep: at most {MAX_DEPTH} levels below the root")
            if isinstance(node, bool) or not isinstance(node, (int, list)):
                raise PositionError(
                    f"tree nodes must be integers or lists, not {shown(repr(node))}")
            if parent >= 0:
                children[parent].append(index)
            children.append([])
            self._depth.append(depth)
            if isinstance(node, int):
                if not -LEAF_LIMIT <= node <= LEAF_LIMIT:
                    raise PositionError(
                        f"tree leaf {node} is outside the score range: at most ±{LEAF_LIMIT:,} "
                        "(larger values mean a win or loss in n plies)")
                self._values.append(node)
                continue
            if not node:
                raise PositionError("an empty list is not a tree node (a leaf must be an integer)")
            self._values.append(None)
            stack.extend((child, depth + 1, index) for child in reversed(node))
        self._children = [tuple(c) for c in children]

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
        try:
            move = parse_int(text, "move", high=MAX_NODES)
        except ValueError:
            raise MoveError(f"move {shown(text)} is not a child index (0-{count - 1})") from None
        if move >= count:
            raise MoveError(f"move {move} is out of range: this node has {count} children")
        return move

    def __str__(self) -> str:
        path = "→".join(str(self._children[a].index(b))
                        for a, b in zip(self._path, self._path[1:], strict=False)) or "root"
        subtree = json.dumps(self.subtree(), separators=(",", ":"))
        if len(subtree) > SHOWN_TREE:
            subtree = f"{subtree[:SHOWN_TREE]}… ({len(subtree):,} characters)"
        return f"node {path}: {subtree} ({self.to_move.name.lower()} to move)"

    def subtree(self) -> Tree:
        """The current node as a nested list (for printing and sorting); depth-first without
        recursion, like the parser.
        """
        root = self._path[-1]
        built: dict[int, Tree] = {}
        stack = [(root, False)]
        while stack:
            index, expanded = stack.pop()
            value = self._values[index]
            if value is not None:
                built[index] = value
            elif expanded:
                built[index] = [built.pop(child) for child in self._children[index]]
            else:
                stack.append((index, True))
                stack.extend((child, False) for child in self._children[index])
        return built[root]


def parse_nested(text: str) -> Tree:
    """A nested list of integers in JSON syntax, read with an explicit stack (no recursion,
    so any nesting is refused clearly by ``TreeGame``'s limits, not by a RecursionError).
    """
    stack: list[list[Tree]] = []
    result: Tree | None = None
    expect_value = True  # a value may come next (else ',' or ']')
    position = 0
    end = len(text.rstrip())
    while position < end:
        match = _TOKEN.match(text, position)
        assert match is not None  # \S matches any character the other groups do not
        opening, closing, comma, number, other = match.groups()
        where = f"at character {match.start(match.lastindex or 0)}"
        position = match.end()
        if result is not None:
            raise PositionError(f"tree: unexpected text after the tree {where}")
        if opening and expect_value:
            if len(stack) > MAX_DEPTH:
                raise PositionError(f"tree too deep: at most {MAX_DEPTH} levels below the root")
            stack.append([])
        elif number and expect_value:
            leaf = parse_int(number, "tree leaf", low=-LEAF_LIMIT, high=LEAF_LIMIT,
                             error=PositionError)
            if stack:
                stack[-1].append(leaf)
                expect_value = False
            else:
                result = leaf
        elif closing and stack and (not expect_value or not stack[-1]):
            done = stack.pop()
            if stack:
                stack[-1].append(done)
            else:
                result = done
            expect_value = False
        elif comma and stack and not expect_value:
            expect_value = True
        else:
            token = opening or closing or comma or number or other
            raise PositionError(f"tree: unexpected {shown(token)} {where} (a tree is a nested "
                                "list of integers, e.g. [[3,5],[2,9]])")
    if result is None:
        raise PositionError("tree: the text ends before the tree does" if stack
                            else "tree: empty position (expected a nested list of integers)")
    return result


def parse_tree(text: str) -> tuple[Tree, bool]:
    """Parse POSITION text: optional ``max:`` prefix, then a nested list of integers."""
    body = text.strip()
    first_player = body.startswith("max:")
    if first_player:
        body = body[4:]
    return parse_nested(body), first_player


def from_position(name: str, text: str) -> TreeGame:
    """Registry entry point; ``random:B,D,SEED`` is a seeded uniform random tree."""
    if text.strip().startswith("random:"):
        parts = text.strip()[7:].split(",")
        if len(parts) != 3:
            raise PositionError(
                f"random tree must be 'random:B,D,SEED' (integers), not {shown(text)}")
        branching = parse_int(parts[0], "random tree branching B", low=1, high=32,
                              error=PositionError)
        depth = parse_int(parts[1], "random tree depth D", high=12, error=PositionError)
        seed = parse_int(parts[2], "random tree SEED", high=MAX_SEED, error=PositionError)
        if branching**depth > 10**6:
            raise PositionError("random tree too large: need B^D ≤ 1,000,000")
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
