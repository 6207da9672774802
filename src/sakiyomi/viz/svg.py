"""SVG tree pictures written directly (no Graphviz): layout, values, windows, search order,
pruned subtrees faded with the α/β cut marked on the edge where it happened, TT hits,
re-searches, the principal variation and a legend.

Every drawn node is a ``<g class="node ...">`` with ``data-*`` attributes (order, value,
move path) so tests and scripts can read the picture back.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from sakiyomi.viz.picture import (
    CUT_LABEL,
    Picture,
    node_value_text,
    view_note,
    window_text,
)
from sakiyomi.viz.trace import TraceNode

SLOT = 58  # horizontal room per leaf
LEVEL = 92  # vertical distance between plies
R = 16  # node radius / half side
MARGIN = 30
TOP = 88  # room for the title

PV_COLOUR = "#1f5fd1"
CUT_COLOUR = "#c62828"
TT_COLOUR = "#ef8f00"
RESEARCH_COLOUR = "#8e24aa"
INK = "#222"
FADED = "#9e9e9e"


@dataclass(slots=True)
class _Placed:
    node: TraceNode
    x: float
    y: float
    path: str  # move texts from the root, '/'-separated


def layout(picture: Picture) -> tuple[list[_Placed], dict[int, _Placed], float, float]:
    """Leaves (and collapsed nodes) take consecutive slots; a parent sits over its children."""
    placed: list[_Placed] = []
    by_id: dict[int, _Placed] = {}
    slot = 0.0
    deepest = 0

    def place(node: TraceNode, level: int, path: str) -> float:
        nonlocal slot, deepest
        deepest = max(deepest, level)
        children = picture.shown_children(node)
        if children:
            xs = [place(c, level + 1, f"{path}/{c.move_text}") for c in children]
            x = (xs[0] + xs[-1]) / 2
        else:
            x = slot
            slot += 1
        item = _Placed(node, MARGIN + SLOT / 2 + x * SLOT, TOP + R + 30 + level * LEVEL, path)
        placed.append(item)
        by_id[id(node)] = item
        return x

    for i, root in enumerate(picture.roots):
        if i:
            slot += 0.6
        place(root, 0, "")
    width = MARGIN * 2 + max(slot, 1) * SLOT
    height = TOP + R + 30 + deepest * LEVEL + R + 40
    placed.sort(key=lambda p: (p.node.ply, p.x))
    return placed, by_id, width, height


def _boxed(x: float, y: float, text: str, *, size: int = 9, anchor: str = "middle",
           colour: str = "#555", klass: str = "", bold: bool = False,
           extra: str = "") -> str:
    """Text on a white box, so it stays readable over edges (no reliance on paint-order)."""
    width = _text_width(text, size)
    left = x - width / 2 if anchor == "middle" else x - width if anchor == "end" else x
    weight = ' font-weight="bold"' if bold else ""
    cls = f' class="{klass}"' if klass else ""
    return (f'<rect x="{left - 1.5:.1f}" y="{y - size + 0.5:.1f}" width="{width + 3:.1f}" '
            f'height="{size + 2.5:.1f}" fill="#fff" fill-opacity="0.9"/>'
            f'<text{cls}{extra} x="{x:.1f}" y="{y:.1f}" font-size="{size}"{weight} '
            f'text-anchor="{anchor}" fill="{colour}" style="fill:{colour}">{escape(text)}</text>')


def _text_width(text: str, size: int) -> float:
    """A rough width for DejaVu Sans."""
    return sum(0.62 if ord(ch) < 0x2000 else 0.9 for ch in text) * size


def render_svg(picture: Picture) -> str:
    """The whole picture as an SVG document."""
    placed, by_id, width, tree_height = layout(picture)
    legend_top = tree_height + 10
    legend_lines = _legend(picture)
    width = max(width, 760.0)
    height = legend_top + 22 * ((len(legend_lines) + 1) // 2) + 30 + 16 * len(
        _note_lines(picture, width))
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="DejaVu Sans, Arial, sans-serif">',
        "<style>text{fill:#222}.small{font-size:10px}.tiny{font-size:9px}</style>",
        f'<rect width="{width:.0f}" height="{height:.0f}" fill="#fff"/>',
        f'<text x="{MARGIN}" y="26" font-size="16" font-weight="bold">'
        f"{escape(picture.title)}</text>",
        f'<text x="{MARGIN}" y="44" font-size="11">{escape(picture.subtitle)}</text>',
        f'<text x="{MARGIN}" y="60" class="small">{escape(view_note(picture.view))}</text>',
    ]
    for i, caption in enumerate(picture.root_captions):
        if i < len(picture.roots) and id(picture.roots[i]) in by_id:
            p = by_id[id(picture.roots[i])]
            out.append(f'<text x="{p.x:.1f}" y="{p.y - R - 14:.1f}" class="small" '
                       f'text-anchor="middle" font-weight="bold">{escape(caption)}</text>')
    out.append('<g class="edges">')
    for p in placed:
        _edges(picture, p, by_id, out)
    out.append("</g>")
    out.append('<g class="nodes">')
    for p in placed:
        _node(picture, p, out)
    out.append("</g>")
    _draw_legend(legend_lines, legend_top, picture, out, width)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _edges(picture: Picture, parent: _Placed, by_id: dict[int, _Placed], out: list[str]) -> None:
    children = picture.shown_children(parent.node)
    first_pruned = True
    for child in children:
        c = by_id[id(child)]
        pv = picture.on_pv(parent.node) and picture.on_pv(child)
        if child.pruned:
            style = f'stroke="{FADED}" stroke-width="1.2" stroke-dasharray="4 3"'
        elif pv:
            style = f'stroke="{PV_COLOUR}" stroke-width="4"'
        elif child.research:
            style = f'stroke="{RESEARCH_COLOUR}" stroke-width="1.8"'
        else:
            style = f'stroke="{INK}" stroke-width="1.2"'
        x1, y1, x2, y2 = parent.x, parent.y + R, c.x, c.y - R
        klass = "edge pruned" if child.pruned else "edge pv" if pv else "edge"
        out.append(f'<line class="{klass}" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" '
                   f'y2="{y2:.1f}" {style}/>')
        mx, my = x1 + (x2 - x1) * 0.55, y1 + (y2 - y1) * 0.55
        label = child.move_text + (" re" if child.research else "")
        colour = FADED if child.pruned else RESEARCH_COLOUR if child.research else "#555"
        out.append(_boxed(mx, my + 3, label, colour=colour, klass="move"))
        if child.pruned and first_pruned and parent.node.cut is not None:
            first_pruned = False
            _cut_mark(parent.node, x1, y1, x2, y2, out)


def _cut_mark(node: TraceNode, x1: float, y1: float, x2: float, y2: float,
              out: list[str]) -> None:
    """Two short red strokes across the first pruned edge and the cut's name beside them."""
    cx, cy = x1 + (x2 - x1) * 0.3, y1 + (y2 - y1) * 0.3
    dx, dy = x2 - x1, y2 - y1
    length = max((dx * dx + dy * dy) ** 0.5, 1.0)
    nx, ny = -dy / length * 7, dx / length * 7  # normal
    tx, ty = dx / length * 3, dy / length * 3  # along the edge
    for k in (-1, 1):
        out.append(f'<line x1="{cx - nx + k * tx:.1f}" y1="{cy - ny + k * ty:.1f}" '
                   f'x2="{cx + nx + k * tx:.1f}" y2="{cy + ny + k * ty:.1f}" '
                   f'stroke="{CUT_COLOUR}" stroke-width="2"/>')
    label = CUT_LABEL.get(node.cut or "", node.cut or "")
    anchor = "start" if x2 >= x1 else "end"
    shift = 9 if x2 >= x1 else -9
    out.append(_boxed(cx + shift, cy + 2, label, size=11, anchor=anchor, colour=CUT_COLOUR,
                      klass="cut", bold=True, extra=f" data-cut={quoteattr(node.cut or '')}"))


def _node(picture: Picture, p: _Placed, out: list[str]) -> None:
    node = p.node
    pv = picture.on_pv(node)
    collapsed = picture.collapsed(node)
    classes = ["node", "pruned" if node.pruned else "searched"]
    if pv:
        classes.append("pv")
    if node.tt_hit:
        classes.append("tt")
    if node.research:
        classes.append("research")
    if collapsed:
        classes.append("collapsed")
    value = "" if node.value is None else str(node.value)
    attrs = (f'class="{" ".join(classes)}" data-order="{node.order}" data-value="{value}" '
             f'data-path={quoteattr(p.path)} data-ply="{node.ply}"')
    if node.cut is not None:
        attrs += f' data-cut="{node.cut}"'
    if collapsed:
        attrs += f' data-hidden="{node.count() - (0 if node.pruned else 1)}"'
    opacity = ' opacity="0.45"' if node.pruned else ""
    out.append(f"<g {attrs}{opacity}>")
    stroke = PV_COLOUR if pv else FADED if node.pruned else INK
    width = 3 if pv else 1.4
    fill = "#ffe2b3" if node.tt_hit else "#f3f3f3" if node.pruned else "#fff"
    dash = ' stroke-dasharray="3 2"' if node.pruned else ""
    shape_stroke = f'stroke="{stroke}" stroke-width="{width}" fill="{fill}"{dash}'
    if node.max_node:
        out.append(f'<rect x="{p.x - R:.1f}" y="{p.y - R:.1f}" width="{2 * R}" '
                   f'height="{2 * R}" rx="3" {shape_stroke}/>')
    else:
        out.append(f'<circle cx="{p.x:.1f}" cy="{p.y:.1f}" r="{R}" {shape_stroke}/>')
    if node.research:
        out.append(f'<circle cx="{p.x:.1f}" cy="{p.y:.1f}" r="{R + 4}" fill="none" '
                   f'stroke="{RESEARCH_COLOUR}" stroke-width="1.5"/>')
    text = node_value_text(node)
    size = 12 if len(text) <= 4 else 10 if len(text) <= 6 else 8
    out.append(f'<text class="value" x="{p.x:.1f}" y="{p.y + 4:.1f}" font-size="{size}" '
               f'text-anchor="middle" font-weight="bold">{escape(text)}</text>')
    if not node.pruned:
        out.append(f'<text class="order tiny" x="{p.x - R - 2:.1f}" y="{p.y - R + 2:.1f}" '
                   f'text-anchor="end" fill="#777" style="fill:#777">{node.order}</text>')
        if picture.windows:
            out.append(_boxed(p.x, p.y + R + 11, window_text(node), klass="window"))
    if node.tt_hit:
        out.append(f'<text class="tiny" x="{p.x + R + 1:.1f}" y="{p.y + R - 1:.1f}" '
                   f'font-weight="bold" fill="{TT_COLOUR}" style="fill:{TT_COLOUR}">TT</text>')
    if collapsed:
        hidden = node.count() - (0 if node.pruned else 1)
        pruned = node.pruned_count() - (1 if node.pruned else 0)
        label = f"▸ {hidden} more" + (f" (+{pruned} pruned)" if pruned else "")
        if node.pruned:
            label = f"▸ {pruned} pruned"
        y = p.y + R + (22 if picture.windows and not node.pruned else 12)
        out.append(_boxed(p.x, y, label, klass="summary", colour=INK))
    out.append("</g>")


def _legend(picture: Picture) -> list[tuple[str, str]]:
    items = [
        ("max", "root's side to move (MAX)"),
        ("min", "opponent to move (MIN)"),
        ("order", "small grey number: search order"),
        ("pv", "principal variation"),
        ("pruned", "pruned: never searched"),
        ("cut", "α-cut / β-cut: where the search stopped"),
        ("tt", "answered by the transposition table"),
        ("research", "re-search after a null-window probe"),
    ]
    if picture.windows:
        items.append(("window", "(α,β): window on entry; ≥v / ≤v: bound"))
    items.append(("collapsed", "▸ n more: collapsed subtree"))
    return items


def _note_lines(picture: Picture, width: float) -> list[str]:
    """The notes wrapped to the picture's width."""
    chars = max(40, int((width - 2 * MARGIN) / 5.8))
    return [line for note in picture.notes for line in textwrap.wrap(note, chars)]


def _draw_legend(items: list[tuple[str, str]], top: float, picture: Picture,
                 out: list[str], width: float) -> None:
    out.append('<g class="legend">')
    out.append(f'<text x="{MARGIN}" y="{top + 4:.1f}" font-size="12" font-weight="bold">'
               "Legend</text>")
    col_width = 360
    for i, (kind, text) in enumerate(items):
        x = MARGIN + (i % 2) * col_width
        y = top + 22 + (i // 2) * 22
        sx = x + 10
        if kind == "max":
            out.append(f'<rect x="{sx - 8}" y="{y - 8:.1f}" width="16" height="16" rx="2" '
                       f'fill="#fff" stroke="{INK}"/>')
        elif kind == "min":
            out.append(f'<circle cx="{sx}" cy="{y:.1f}" r="8" fill="#fff" stroke="{INK}"/>')
        elif kind == "order":
            out.append(f'<text x="{sx}" y="{y + 4:.1f}" class="tiny" text-anchor="middle" '
                       'fill="#777" style="fill:#777">7</text>')
        elif kind == "pv":
            out.append(f'<line x1="{sx - 10}" y1="{y:.1f}" x2="{sx + 10}" y2="{y:.1f}" '
                       f'stroke="{PV_COLOUR}" stroke-width="4"/>')
        elif kind == "pruned":
            out.append(f'<line x1="{sx - 10}" y1="{y:.1f}" x2="{sx + 10}" y2="{y:.1f}" '
                       f'stroke="{FADED}" stroke-dasharray="4 3" stroke-width="1.4"/>')
        elif kind == "cut":
            out.append(f'<line x1="{sx - 3}" y1="{y - 7:.1f}" x2="{sx - 3}" y2="{y + 7:.1f}" '
                       f'stroke="{CUT_COLOUR}" stroke-width="2"/>'
                       f'<line x1="{sx + 3}" y1="{y - 7:.1f}" x2="{sx + 3}" y2="{y + 7:.1f}" '
                       f'stroke="{CUT_COLOUR}" stroke-width="2"/>')
        elif kind == "tt":
            out.append(f'<circle cx="{sx}" cy="{y:.1f}" r="8" fill="#ffe2b3" stroke="{INK}"/>')
        elif kind == "research":
            out.append(f'<circle cx="{sx}" cy="{y:.1f}" r="9" fill="none" '
                       f'stroke="{RESEARCH_COLOUR}" stroke-width="1.5"/>')
        elif kind == "window":
            out.append(f'<text x="{sx}" y="{y + 3:.1f}" class="tiny" text-anchor="middle">'
                       "(α,β)</text>")
        else:
            out.append(f'<text x="{sx}" y="{y + 3:.1f}" class="tiny" text-anchor="middle">'
                       "▸</text>")
        out.append(f'<text x="{x + 28}" y="{y + 4:.1f}" class="small">{escape(text)}</text>')
    y = top + 22 + ((len(items) + 1) // 2) * 22
    for line in _note_lines(picture, width):
        out.append(f'<text x="{MARGIN}" y="{y:.1f}" class="small">{escape(line)}</text>')
        y += 16
    out.append("</g>")
