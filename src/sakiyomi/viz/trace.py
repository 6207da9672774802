"""Recording what a search did, node by node, so renderers can draw it.

The protocol itself (``Tracer``, ``NULL_TRACER``) lives in ``sakiyomi.search.tracing`` because
the searchers (a lower layer) call it; it is re-exported here.  ``TreeRecorder`` is a tracer
that keeps the searched tree: windows, values, bounds, cut-offs (with the pruned moves),
transposition-table answers and PVS re-searches, in search order.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from sakiyomi.game import Game, Player
from sakiyomi.search.leaf import terminal_scorer
from sakiyomi.search.tracing import NULL_TRACER, NullTracer, Tracer
from sakiyomi.tt import Bound

__all__ = [
    "NULL_TRACER",
    "NullTracer",
    "TraceCapError",
    "TraceNode",
    "Tracer",
    "TreeRecorder",
    "View",
]

View = Literal["minmax", "negamax"]
"""How values and windows are reported: for the root's side to move (MinMax form) or for the
side to move at each node (NegaMax form)."""

DEFAULT_CAP = 20_000
DEFAULT_PRUNED_BUDGET = 2_000


class TraceCapError(Exception):
    """The search visited more nodes than the recorder may keep."""


@dataclass(slots=True, eq=False)
class TraceNode:
    """One visit of a position (``order`` ≥ 1), or a pruned position never searched (0)."""

    order: int
    move: object | None
    move_text: str
    ply: int
    depth: int
    alpha: int
    beta: int
    max_node: bool  # the root's side to move is to move here (a MAX node in MinMax terms)
    value: int | None = None
    bound: Bound | None = None
    children: list[TraceNode] = field(default_factory=list)
    cut: str | None = None  # 'alpha' or 'beta': the children after the searched ones were pruned
    tt_hit: bool = False
    research: bool = False  # this visit is the re-search of a null-window probe that failed high
    pruned: bool = False

    @property
    def searched(self) -> bool:
        """True if the search visited this position."""
        return not self.pruned

    def walk(self) -> Iterator[TraceNode]:
        """The node and all below it, preorder."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))

    def count(self) -> int:
        """Searched nodes in this subtree (the node accounting of DESIGN.md §4)."""
        return sum(1 for n in self.walk() if not n.pruned)

    def pruned_count(self) -> int:
        """Pruned positions drawn in this subtree."""
        return sum(1 for n in self.walk() if n.pruned)


class TreeRecorder:
    """A tracer that keeps the tree each root search visits (one root per ``search`` call).

    ``game`` (the very object the search mutates) lets the recorder name moves and, at a
    cut-off, walk the pruned moves' subtrees (play/undo, restored) so they can be drawn faded;
    the skipped moves are always kept, positions below them at most ``pruned_budget``.  More
    than ``cap`` visited nodes raise ``TraceCapError`` (which stops the search): such trees
    are too large to draw anyway.
    """

    enabled = True

    def __init__(
        self, game: Game[Any] | None = None, *, view: View = "negamax", cap: int = DEFAULT_CAP,
        pruned_budget: int = DEFAULT_PRUNED_BUDGET,
    ) -> None:
        self.game = game
        self.view: View = view
        self.cap = cap
        self.pruned_budget = pruned_budget
        self.roots: list[TraceNode] = []
        self.nodes = 0
        self.pruned = 0
        self.pruned_dropped = 0  # pruned positions not drawn because the budget ran out
        self._pruned_below = 0  # positions below skipped moves (what the budget limits)
        self._stack: list[TraceNode] = []
        self._pending_research = False
        self._root_player: Player | None = game.to_move if game is not None else None
        self._scorer = terminal_scorer(game) if game is not None else None

    # ---- the tracer protocol ------------------------------------------------------------

    def enter(self, ply: int, move: object | None, depth: int, alpha: int, beta: int) -> None:
        """Open a node below the current one (a new root when ``ply`` is 0)."""
        self.nodes += 1
        if self.nodes > self.cap:
            raise TraceCapError(
                f"the search visited more than {self.cap} nodes: too many to record; "
                "lower the depth or raise the node cap"
            )
        if ply == 0:
            self._stack.clear()
        text = "null" if move is None and ply > 0 else self._text(move)  # null-move probe
        node = TraceNode(self.nodes, move, text, ply, depth, alpha, beta,
                         self._is_max(ply), research=self._pending_research)
        self._pending_research = False
        if self._stack:
            self._stack[-1].children.append(node)
        else:
            self.roots.append(node)
        self._stack.append(node)

    def leave(self, ply: int, value: int, bound: Bound) -> None:
        """Close the current node with its value."""
        node = self._stack.pop()
        node.value = value
        node.bound = bound

    def cutoff(self, ply: int, kind: str, pruned: Sequence[object]) -> None:
        """Mark the cut and attach the skipped moves (and their subtrees) as pruned nodes."""
        node = self._stack[-1]
        node.cut = kind
        remaining = node.depth - 1
        for move in pruned:
            node.children.append(self._pruned(move, ply + 1, remaining))

    def tt_hit(self, ply: int, value: int, bound: Bound) -> None:
        """The current node was answered by the transposition table."""
        self._stack[-1].tt_hit = True

    def research(self, ply: int, move: object) -> None:
        """The next node entered is a re-search."""
        self._pending_research = True

    # ---- helpers ------------------------------------------------------------------------

    @property
    def last_root(self) -> TraceNode:
        """The tree of the last root search."""
        if not self.roots:
            raise ValueError("nothing was recorded")
        return self.roots[-1]

    def final_roots(self) -> list[TraceNode]:
        """The root searches at the deepest depth of the last iteration (one for a plain
        search; several for MTD(f) passes or aspiration re-searches).
        """
        last = self.last_root.depth
        group: list[TraceNode] = []
        for root in reversed(self.roots):
            if root.depth != last:
                break
            group.append(root)
        return group[::-1]

    def _is_max(self, ply: int) -> bool:
        """True if the root's side is to move at the game's current position."""
        if self.game is None:
            return ply % 2 == 0
        return self.game.to_move == self._root_player

    def _text(self, move: object | None) -> str:
        if move is None:
            return ""
        if self.game is not None:
            return self.game.move_to_text(move)
        return str(move)

    def _pruned(self, move: object, ply: int, depth: int) -> TraceNode:
        """A never-searched position and, while the budget lasts, its own subtree."""
        self.pruned += 1
        game = self.game
        if game is None:
            return TraceNode(0, move, self._text(move), ply, depth, 0, 0, ply % 2 == 0,
                             pruned=True)
        game.play(move)
        node = TraceNode(0, move, self._text(move), ply, depth, 0, 0, self._is_max(ply),
                         pruned=True)
        try:
            self._expand_pruned(game, node, ply, depth)
        finally:
            game.undo()
        return node

    def _expand_pruned(self, game: Game[Any], node: TraceNode, ply: int, depth: int) -> None:
        outcome = game.outcome()
        if outcome is not None and self._scorer is not None:
            value = self._scorer(outcome, ply)
            if self.view == "minmax" and game.to_move != self._root_player:
                value = -value
            node.value = value
            return
        if depth <= 0:
            return
        moves = game.legal_moves()
        if self._pruned_below + len(moves) > self.pruned_budget:
            self.pruned_dropped += len(moves)
            return
        self._pruned_below += len(moves)
        for move in moves:
            self.pruned += 1
            text = self._text(move)
            game.play(move)
            child = TraceNode(0, move, text, ply + 1, depth - 1, 0, 0, self._is_max(ply + 1),
                              pruned=True)
            node.children.append(child)
            try:
                self._expand_pruned(game, child, ply + 1, depth - 1)
            finally:
                game.undo()


def pv_nodes(root: TraceNode, pv: Sequence[Hashable]) -> list[TraceNode]:
    """The searched nodes along ``pv`` from ``root`` (the last visit of each move, so a
    re-search wins over its null-window probe).
    """
    path = [root]
    node = root
    for move in pv:
        matches = [c for c in node.children if c.searched and c.move == move]
        if not matches:
            break
        node = matches[-1]
        path.append(node)
    return path
