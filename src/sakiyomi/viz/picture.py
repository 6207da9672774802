"""What a tree picture shows, independent of the output format: which recorded nodes are drawn
(large trees are summarised by collapsing subtrees), their labels, and the principal variation.
"""

from __future__ import annotations

import heapq
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

from sakiyomi.score import INF, WIN_BOUND, plies_to_end
from sakiyomi.tt import Bound
from sakiyomi.viz.trace import TraceNode, View, pv_nodes

DEFAULT_MAX_DRAWN = 300

CUT_LABEL = {"alpha": "α-cut", "beta": "β-cut"}


@dataclass
class Picture:
    """A recorded search ready to draw: roots (several for MTD(f) passes), the PV, options."""

    roots: list[TraceNode]
    view: View
    title: str
    subtitle: str = ""
    windows: bool = True  # show (α, β) windows (the αβ family)
    notes: list[str] = field(default_factory=list)
    pv: Sequence[Hashable] = ()
    max_drawn: int = DEFAULT_MAX_DRAWN
    root_captions: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._pv_ids: set[int] = set()
        if self.roots:
            # The PV belongs to the last root search (the one that produced the answer).
            self._pv_ids = {id(n) for n in pv_nodes(self.roots[-1], self.pv)}
        self._expanded = _choose_expanded(self.roots, self._pv_ids, self.max_drawn)

    def on_pv(self, node: TraceNode) -> bool:
        """True if the node is on the highlighted principal variation."""
        return id(node) in self._pv_ids

    def shown_children(self, node: TraceNode) -> list[TraceNode]:
        """Children drawn below ``node`` (none if the node is collapsed or a leaf)."""
        return node.children if id(node) in self._expanded else []

    def collapsed(self, node: TraceNode) -> bool:
        """True if the node hides a subtree (drawn as a summary with counts)."""
        return bool(node.children) and id(node) not in self._expanded

    def drawn(self) -> list[TraceNode]:
        """Every drawn node, preorder over the roots."""
        out: list[TraceNode] = []
        stack = list(reversed(self.roots))
        while stack:
            node = stack.pop()
            out.append(node)
            stack.extend(reversed(self.shown_children(node)))
        return out

    @property
    def searched(self) -> int:
        """Nodes visited in the pictured root searches."""
        return sum(r.count() for r in self.roots)

    @property
    def summarised(self) -> bool:
        """True if any subtree was collapsed."""
        return any(self.collapsed(n) for n in self.drawn())


def _choose_expanded(roots: list[TraceNode], pv_ids: set[int], budget: int) -> set[int]:
    """Expand nodes breadth-first (PV first) while all of a node's children still fit."""
    expanded: set[int] = set()
    drawn = len(roots)
    queue: list[tuple[int, int, int, TraceNode]] = []
    serial = 0
    for root in roots:
        heapq.heappush(queue, (0, root.ply, serial, root))
        serial += 1
    while queue:
        _, _, _, node = heapq.heappop(queue)
        if not node.children:
            continue
        if drawn + len(node.children) > budget and id(node) not in pv_ids:
            continue
        if drawn + len(node.children) > budget * 2:
            continue  # even the PV stops somewhere
        expanded.add(id(node))
        drawn += len(node.children)
        for child in node.children:
            heapq.heappush(queue, (0 if id(child) in pv_ids else 1, child.ply, serial, child))
            serial += 1
    return expanded


def value_text(value: int | None, bound: Bound | None = None) -> str:
    """A short value: '≥5' / '≤-3' for bounds, '∞', 'W5' / 'L4' for wins and losses in n."""
    if value is None:
        return ""
    if value >= INF:
        body = "+∞"
    elif value <= -INF:
        body = "-∞"
    elif value >= WIN_BOUND:
        body = f"W{plies_to_end(value)}"
    elif value <= -WIN_BOUND:
        body = f"L{plies_to_end(value)}"
    else:
        body = str(value)
    if bound == Bound.LOWER:
        return "≥" + body
    if bound == Bound.UPPER:
        return "≤" + body
    return body


def node_value_text(node: TraceNode) -> str:
    """The value as drawn: a leaf's own (fail-soft) value is exact, so it gets no bound mark
    unless it was clamped to the window (fail-hard) or came from the table.
    """
    bound = node.bound
    leaf = node.searched and not node.children and not node.tt_hit
    if leaf and node.value is not None and node.value not in (node.alpha, node.beta):
        bound = Bound.EXACT
    return value_text(node.value, bound)


def window_text(node: TraceNode) -> str:
    """The node's (α, β) window, compact."""
    return f"({value_text(node.alpha)},{value_text(node.beta)})"


def node_note(node: TraceNode, picture: Picture) -> str:
    """Short flags for a node: TT hit, re-search, cut."""
    flags = []
    if node.tt_hit:
        flags.append("TT")
    if node.research:
        flags.append("re-search")
    if node.cut is not None:
        flags.append(CUT_LABEL.get(node.cut, node.cut))
    return " ".join(flags)


def view_note(view: View) -> str:
    """How to read the values."""
    if view == "minmax":
        return "values for the root's side to move (MinMax: squares maximise, circles minimise)"
    return "values for the side to move at each node (NegaMax: parent = max of −child)"
