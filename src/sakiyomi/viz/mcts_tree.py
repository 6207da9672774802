"""Pictures of a Monte Carlo search tree: visit counts and mean values, wider edges for more
visits, the most-visited line highlighted, proven positions marked (``sakiyomi tree ...
--algorithm mcts``).

The αβ pictures (``picture.py``) show one node search in order, with windows and cuts; an MCTS
tree has neither, but every position carries statistics, so this module draws those instead.
Large trees are cut to the ``max_drawn`` most visited positions (a node's remaining children
are summarised as "+k more").
"""

from __future__ import annotations

import heapq
import json
import math
from dataclasses import dataclass, field
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from sakiyomi.engines import mcts_for
from sakiyomi.game import Game, GameError
from sakiyomi.score import format_score
from sakiyomi.search.limits import StopSignal
from sakiyomi.search.mcts import MCTS, MCTSConfig, Node

DEFAULT_ITERATIONS = 200
MAX_SECONDS = 20.0
DEFAULT_MAX_DRAWN = 60
SLOT = 64
LEVEL = 96
R = 17
MARGIN = 30
TOP = 92
PV_COLOUR = "#1f5fd1"
WIN_COLOUR = "#2e7d32"
LOSS_COLOUR = "#c62828"
INK = "#222"


@dataclass(slots=True)
class Drawn:
    """One drawn position: its node, move text, side, children drawn and hidden."""

    node: Node[Any]
    text: str
    max_node: bool
    children: list[Drawn] = field(default_factory=list)
    hidden: int = 0  # children not drawn
    hidden_visits: int = 0
    pv: bool = False
    x: float = 0.0
    y: float = 0.0


@dataclass(slots=True)
class MCTSPicture:
    """The tree to draw with its title lines."""

    root: Drawn
    title: str
    subtitle: str
    root_visits: int
    notes: list[str]

    def walk(self) -> list[Drawn]:
        """Every drawn position, preorder."""
        out, stack = [], [self.root]
        while stack:
            item = stack.pop()
            out.append(item)
            stack.extend(reversed(item.children))
        return out


def run_mcts(game: Game[Any], iterations: int, config: MCTSConfig,
             engine: str = "auto") -> MCTS[Any]:
    """An MCTS of ``iterations`` (or ``MAX_SECONDS``: long games play out slowly) over a
    copy of ``game`` (the tree is what gets drawn).
    """
    search = mcts_for(game.copy(), config, engine=engine, stop=StopSignal(seconds=MAX_SECONDS))
    search.search(iterations)
    return search


def mcts_picture(game: Game[Any], search: MCTS[Any], label: str,
                 max_drawn: int = DEFAULT_MAX_DRAWN) -> MCTSPicture:
    """Choose the drawn positions (most visited first, the PV always) and lay them out."""
    if game.outcome() is not None:
        raise GameError("the position is already finished: there is no tree to draw")
    pv_nodes = {id(search.root)}
    node: Node[Any] | None = search.root
    while node is not None:
        node = search.best_child(node)
        if node is not None and node.visits:
            pv_nodes.add(id(node))
    root = Drawn(search.root, "", True, pv=True)
    position = game.copy()
    drawn = 1
    heap: list[tuple[int, int, int, Drawn, Node[Any], list[Any]]] = []
    serial = 0

    def offer(parent: Drawn, line: list[Any]) -> None:
        nonlocal serial
        for child in parent.node.children:
            priority = -(1 << 60) if id(child) in pv_nodes else -child.visits
            heapq.heappush(heap, (priority, serial, len(line), parent, child, line))
            serial += 1

    offer(root, [])
    while heap and drawn < max_drawn:
        _, _, _, parent, child, line = heapq.heappop(heap)
        for move in line:
            position.play(move)
        text = position.move_to_text(child.move)
        max_node = len(line) % 2 == 1  # the root's side is to move after an even line
        for _ in line:
            position.undo()
        item = Drawn(child, text, max_node, pv=id(child) in pv_nodes)
        parent.children.append(item)
        drawn += 1
        offer(item, [*line, child.move])
    _order_and_hide(root)
    total = search.root.visits
    proven = search.root.proven if search.config.solver else None
    value = format_score(search.value())
    title = (f"mcts · {search.iterations} iterations · value {value}"
             + (f" (proven {('loss', 'draw', 'win')[(proven > 0) - (proven < 0) + 1]})"
                if proven is not None else "")
             + f" · {search.root.size()} positions in the tree, {drawn} drawn")
    notes = ["n: visits; q: mean reward for the player who made the move (+1 win, 0 draw, "
             "-1 loss with result rewards; game units with score rewards); edge width grows "
             "with the visits.",
             "UCT steps to the child with the largest q + c·sqrt(ln N / n): well-paying moves "
             "are revisited, rarely tried ones get a bonus."]
    if any(d.hidden for d in _walk(root)):
        notes.append("+k under a position: k more children, not drawn (fewer visits than "
                     "the drawn positions).")
    return MCTSPicture(root, title, label, total, notes)


def _walk(root: Drawn) -> list[Drawn]:
    out, stack = [], [root]
    while stack:
        item = stack.pop()
        out.append(item)
        stack.extend(item.children)
    return out


def _order_and_hide(item: Drawn) -> None:
    """Children most visited first; count the ones not drawn."""
    item.children.sort(key=lambda d: -d.node.visits)
    shown = {id(d.node) for d in item.children}
    hidden = [c for c in item.node.children if id(c) not in shown]
    item.hidden = len(hidden)
    item.hidden_visits = sum(c.visits for c in hidden)
    for child in item.children:
        _order_and_hide(child)


def _label(item: Drawn) -> str:
    node = item.node
    return f"n={node.visits}" if item.text == "" else f"n={node.visits} q={node.mean:+.2f}"


def _proof(item: Drawn) -> str:
    """'W', 'L' or 'D' for a proven position (for the player who moved into it)."""
    proven = item.node.proven
    if proven is None:
        return ""
    mover = -proven  # the value for the player who made the move
    return "W" if mover > 0 else "L" if mover < 0 else "D"


def render_mcts_text(picture: MCTSPicture) -> str:
    """An indented tree: move, visits, mean, proof; ``*`` on the most-visited line."""
    lines = [picture.title, picture.subtitle, f"root: n={picture.root_visits}"]

    def children(item: Drawn, prefix: str) -> None:
        rows = list(item.children)
        for i, child in enumerate(rows):
            last = i == len(rows) - 1 and not item.hidden
            proof = _proof(child)
            lines.append(f"{prefix}{'└─ ' if last else '├─ '}{child.text}: {_label(child)}"
                         f"{' ' + proof if proof else ''}{' *' if child.pv else ''}")
            children(child, prefix + ("   " if last else "│  "))
        if item.hidden:
            lines.append(f"{prefix}└─ +{item.hidden} more (n={item.hidden_visits})")

    children(picture.root, "")
    lines.extend(picture.notes)
    lines.append("legend: n visits, q mean for the mover, * most-visited line, "
                 "W/L/D proven win/loss/draw for the mover")
    return "\n".join(lines) + "\n"


def _width(visits: int, total: int) -> float:
    return 1.0 + 11.0 * math.sqrt(visits / total) if total else 1.0


def _layout(picture: MCTSPicture) -> tuple[float, float]:
    slot = 0.0
    deepest = 0

    def place(item: Drawn, level: int) -> float:
        nonlocal slot, deepest
        deepest = max(deepest, level)
        if item.children:
            xs = [place(c, level + 1) for c in item.children]
            if item.hidden:
                slot += 0.7
            x = (xs[0] + xs[-1]) / 2
        else:
            x = slot
            slot += 1
        item.x = MARGIN + SLOT / 2 + x * SLOT
        item.y = TOP + R + 20 + level * LEVEL
        return x

    place(picture.root, 0)
    return MARGIN * 2 + max(slot, 1) * SLOT, TOP + R + 20 + deepest * LEVEL + R + 40


def render_mcts_svg(picture: MCTSPicture) -> str:
    """The tree as SVG; every node is a ``<g class="node">`` with ``data-visits``,
    ``data-mean`` and ``data-path`` so that tests and scripts can read it back.
    """
    width, height = _layout(picture)
    width = max(width, 760.0)
    notes_top = height
    height += 18 * (len(picture.notes) + 1) + 10
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
           f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="DejaVu Sans, Arial, sans-serif">',
           f'<rect width="{width:.0f}" height="{height:.0f}" fill="#fff"/>',
           f'<text x="{MARGIN}" y="26" font-size="16" font-weight="bold">'
           f"{escape(picture.title)}</text>",
           f'<text x="{MARGIN}" y="44" font-size="11">{escape(picture.subtitle)}</text>',
           f'<text x="{MARGIN}" y="60" font-size="10">squares: the root\'s side to move; '
           "circles: the opponent; blue: the most-visited line</text>",
           '<g class="edges">']
    total = picture.root_visits
    items = picture.walk()
    for item in items:
        for child in item.children:
            colour = PV_COLOUR if child.pv else "#555"
            w = _width(child.node.visits, total)
            out.append(f'<line class="edge{" pv" if child.pv else ""}" x1="{item.x:.1f}" '
                       f'y1="{item.y + R:.1f}" x2="{child.x:.1f}" y2="{child.y - R:.1f}" '
                       f'stroke="{colour}" stroke-width="{w:.1f}" stroke-opacity="0.75" '
                       f'data-visits="{child.node.visits}"/>')
            mx, my = item.x + (child.x - item.x) * 0.5, item.y + R + (child.y - item.y) * 0.5
            out.append(f'<text x="{mx + 4:.1f}" y="{my:.1f}" font-size="10" fill="#333">'
                       f"{escape(child.text)}</text>")
        if item.hidden:
            out.append(f'<text class="hidden" x="{item.x:.1f}" y="{item.y + R + 11:.1f}" '
                       f'font-size="9" text-anchor="middle" fill="#777" '
                       f'data-visits="{item.hidden_visits}">+{item.hidden}</text>')
    out.append("</g>")
    out.append('<g class="nodes">')
    path_of = _paths(picture.root)
    for item in items:
        node = item.node
        proof = _proof(item)
        stroke = PV_COLOUR if item.pv else INK
        if proof == "W":
            fill = "#e3f4e4"
        elif proof == "L":
            fill = "#fbe3e3"
        else:
            fill = "#f3f3f3" if proof == "D" else "#fff"
        attrs = (f'class="node{" pv" if item.pv else ""}" data-visits="{node.visits}" '
                 f'data-mean="{node.mean:.4f}" data-path={quoteattr(path_of[id(item)])} '
                 f'data-proven="{proof}"')
        out.append(f"<g {attrs}>")
        shape = (f'stroke="{stroke}" stroke-width="{2.5 if item.pv else 1.3}" fill="{fill}"')
        if item.max_node:
            out.append(f'<rect x="{item.x - R:.1f}" y="{item.y - R:.1f}" width="{2 * R}" '
                       f'height="{2 * R}" rx="3" {shape}/>')
        else:
            out.append(f'<circle cx="{item.x:.1f}" cy="{item.y:.1f}" r="{R}" {shape}/>')
        out.append(f'<text x="{item.x:.1f}" y="{item.y - 1:.1f}" font-size="10" '
                   f'text-anchor="middle" font-weight="bold">{node.visits}</text>')
        if item.text:
            out.append(f'<text x="{item.x:.1f}" y="{item.y + 10:.1f}" font-size="8" '
                       f'text-anchor="middle">{node.mean:+.2f}</text>')
        if proof:
            colour = WIN_COLOUR if proof == "W" else LOSS_COLOUR if proof == "L" else "#555"
            out.append(f'<text x="{item.x + R + 2:.1f}" y="{item.y - R + 6:.1f}" '
                       f'font-size="10" font-weight="bold" fill="{colour}">{proof}</text>')
        out.append("</g>")
    out.append("</g>")
    y = notes_top
    out.append(f'<text x="{MARGIN}" y="{y:.1f}" font-size="10">in a position: visits n '
               "(bold) and mean q for the player who moved there; W/L/D: proven</text>")
    for note in picture.notes:
        y += 18
        out.append(f'<text x="{MARGIN}" y="{y:.1f}" font-size="10">{escape(note)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _paths(root: Drawn) -> dict[int, str]:
    paths: dict[int, str] = {}
    stack = [(root, "")]
    while stack:
        item, path = stack.pop()
        paths[id(item)] = path
        stack.extend((c, f"{path}/{c.text}") for c in item.children)
    return paths


def render_mcts_dot(picture: MCTSPicture) -> str:
    """DOT text with the same marks: pen width from visits, the PV in blue."""
    ids: dict[int, str] = {}
    lines = ["digraph mcts {", f"  label={json.dumps(picture.title, ensure_ascii=False)}; "
             "labelloc=t;", '  node [fontname="DejaVu Sans", fontsize=10];']
    total = picture.root_visits
    for item in picture.walk():
        name = f"n{len(ids)}"
        ids[id(item)] = name
        label = _label(item) + (f" {_proof(item)}" if _proof(item) else "")
        attrs = [f"label={json.dumps(label, ensure_ascii=False)}",
                 f"shape={'box' if item.max_node else 'ellipse'}"]
        if item.pv:
            attrs.append('color="#1f5fd1"')
        lines.append(f"  {name} [{', '.join(attrs)}];")
    for item in picture.walk():
        for child in item.children:
            attrs = [f"label={json.dumps(child.text, ensure_ascii=False)}",
                     f"penwidth={_width(child.node.visits, total):.1f}"]
            if child.pv:
                attrs.append('color="#1f5fd1"')
            lines.append(f"  {ids[id(item)]} -> {ids[id(child)]} [{', '.join(attrs)}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def render_mcts(picture: MCTSPicture, fmt: str) -> str:
    """The picture in "svg", "dot" or "text"."""
    if fmt == "svg":
        return render_mcts_svg(picture)
    if fmt == "dot":
        return render_mcts_dot(picture)
    return render_mcts_text(picture)
