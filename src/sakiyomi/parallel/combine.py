"""Combining results: negamax of bounds over the split tree, and which jobs still matter.

Every node of the split tree carries bounds ``lo <= value <= hi`` (internal scores from its side
to move, win distances counted from that node).  A parent's value is the maximum over its
children of ``F(x) = -from_tt(x, 1)`` (negation, one ply further from the end), a
non-increasing function, so the children's bounds give the parent's:
``lo = max F(hi_child)``, ``hi = max F(lo_child)``, intersected with what is known of the
parent itself (a store, a shallow search, its own job).

The root is solved by null-window questions "is the value > alpha?", as the serial solver
bisects (``search.solve.bisect``).  A question at a node becomes the question
``child_alpha(alpha)`` at each child: the node's value exceeds alpha exactly when some child's
does *not* exceed it.  ``wanted`` walks the tree and lists the frontier questions still
undecided on a path of undecided nodes — the jobs that can still change the root's answer —
in the order of the tree (best moves first).  Running jobs not in that list are cancelled.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from sakiyomi.score import from_tt


def parent_view(child_value: int) -> int:
    """F: a child's value (from its side to move) as its parent's value through that move."""
    return -from_tt(child_value, 1)


def child_alpha(alpha: int) -> int:
    """The child question equivalent to the parent's "value > alpha": the parent exceeds
    alpha iff some child's value is not above ``child_alpha(alpha)``.
    """
    # F(x) > alpha  <=>  from_tt(x, 1) < -alpha  <=>  x < m, the least x with from_tt(x, 1)
    # >= -alpha; from_tt moves a value by at most one, so m is one of u-1, u, u+1.
    u = -alpha
    m = next(x for x in (u - 1, u, u + 1) if from_tt(x, 1) >= u)
    return m - 1


@dataclass(eq=False, slots=True)
class Node:
    """A position of the split tree (transpositions and mirror images merged into one node).

    ``path`` leads from the root to the position searched for this node (its representative);
    ``own_lo``/``own_hi``/``best`` are what is known of the position itself; ``lo``/``hi`` also
    use the children (``refresh``).  ``children`` is empty for frontier nodes.
    """

    key: int
    store_key: int
    path: tuple[str, ...]
    text: str
    own_lo: int
    own_hi: int
    best: str | None = None
    guess: int = 0
    children: list[Edge] = field(default_factory=list)
    lo: int = 0
    hi: int = 0

    def learn(self, lo: int, hi: int, best: str | None) -> None:
        """Tighten the node's own bounds (the best move goes with a raised lower bound)."""
        if lo > self.own_lo or (lo == self.own_lo and self.best is None):
            self.own_lo, self.best = lo, best if best is not None else self.best
        self.own_hi = min(self.own_hi, hi)


@dataclass(frozen=True, slots=True)
class Edge:
    """A move from a parent (text) to a child node; ``flipped``: the child's representative is
    the mirror image of the position the move reaches.
    """

    move: str
    node: Node
    flipped: bool = False


def refresh(root: Node) -> None:
    """Recompute ``lo``/``hi`` of every node below ``root`` from the own bounds (negamax)."""
    done: set[int] = set()

    def visit(node: Node) -> None:
        if id(node) in done:
            return
        done.add(id(node))
        lo, hi = node.own_lo, node.own_hi
        if node.children:
            for edge in node.children:
                visit(edge.node)
            lo = max(lo, max(parent_view(e.node.hi) for e in node.children))
            hi = min(hi, max(parent_view(e.node.lo) for e in node.children))
        node.lo, node.hi = lo, max(lo, hi)

    visit(root)


def wanted(root: Node, alpha: int) -> list[tuple[Node, int]]:
    """The frontier questions (node, alpha) that can still decide "root value > alpha", best
    first (see the module doc).  Empty when the root's answer is known.
    """
    out: list[tuple[Node, int]] = []
    seen: set[tuple[int, int]] = set()

    def visit(node: Node, a: int) -> None:
        if node.lo > a or node.hi <= a or (id(node), a) in seen:
            return
        seen.add((id(node), a))
        if not node.children:
            out.append((node, a))
            return
        below = child_alpha(a)
        for edge in node.children:
            visit(edge.node, below)

    visit(root, alpha)
    return out


def best_edge(node: Node, value: int) -> Edge | None:
    """The first child proved to reach ``value`` (its upper bound, seen from the node, is at
    least ``value``), or None.
    """
    return next((e for e in node.children if parent_view(e.node.hi) >= value), None)


def principal_line(root: Node, value: int, limit: int = 64) -> list[str]:
    """The best move of ``root`` and as many replies as the tree proves (stopping at a
    mirrored child, whose moves are in the reflected orientation, or at a frontier node
    without a known best move).
    """
    line: list[str] = []
    node = root
    while len(line) < limit:
        edge = best_edge(node, value) if node.children else None
        if edge is None:
            if node.best is not None and (not line or node.lo == value):
                line.append(node.best)
            return line
        line.append(edge.move)
        if edge.flipped or edge.node.lo != edge.node.hi:
            return line
        node, value = edge.node, edge.node.lo
    return line


def order(children: Sequence[Edge]) -> list[Edge]:
    """Children best first for the parent (by the shallow search's guess), stable."""
    return sorted(children, key=lambda e: -parent_view(e.node.guess))
