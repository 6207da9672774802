"""A recorded search as a sequence of steps the page can play forward and back.

The picture is laid out exactly like ``sakiyomi tree``'s SVG (``viz.svg.layout``, the same
shapes, colours and labels), but every part carries the step that reveals it: a node and its
edge appear when the search enters it (with its window (α, β)), its value when the search
leaves it, a cut mark and the faded pruned moves when a cut-off happens, the principal
variation at the end.  The page replays the events up to the chosen step, so going back is as
easy as going forward.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from xml.sax.saxutils import escape

from sakiyomi.score import format_score
from sakiyomi.viz.picture import CUT_LABEL, Picture, node_value_text, value_text, window_text
from sakiyomi.viz.svg import CUT_COLOUR, FADED, INK, PV_COLOUR, TOP, TT_COLOUR, R, layout
from sakiyomi.viz.trace import TraceNode


@dataclass
class Steps:
    """The step picture (SVG) and its events, in search order."""

    svg: str
    events: list[dict[str, Any]] = field(default_factory=list)


def _path_label(path: str) -> str:
    return "root" if not path else "root→" + "→".join(path.strip("/").split("/"))


def build_steps(picture: Picture) -> Steps:
    """The events of the pictured search and an SVG whose parts name their node."""
    placed, by_id, width, height = layout(picture)
    ids = {id(p.node): i for i, p in enumerate(placed)}
    paths = {id(p.node): p.path for p in placed}
    events: list[dict[str, Any]] = []

    def walk(node: TraceNode) -> None:
        k = ids[id(node)]
        where = _path_label(paths[id(node)])
        window = f" with window {window_text(node)}" if picture.windows else ""
        events.append({"kind": "enter", "node": k,
                       "text": f"#{node.order} enter {where} (depth {node.depth}){window}"})
        searched = [c for c in node.children if c.searched]
        for child in searched:
            walk(child)
        if node.cut is not None:
            pruned = [ids[id(n)] for c in node.children if c.pruned for n in c.walk()
                      if id(n) in ids]
            moves = ", ".join(c.move_text for c in node.children if c.pruned)
            events.append({"kind": "cut", "node": k, "reveal": pruned,
                           "text": f"{CUT_LABEL.get(node.cut, node.cut)} at {where}: "
                                   f"move(s) {moves} never searched"})
        how = "answered by the transposition table, " if node.tt_hit else ""
        value = node_value_text(node)
        events.append({"kind": "leave", "node": k,
                       "text": f"#{node.order} leave {where}: {how}value {value}"})

    for root in picture.roots:
        walk(root)
    pv_ids = [ids[id(p.node)] for p in placed if picture.on_pv(p.node)]
    pv_text = " ".join(str(m) for m in picture.pv) or "(empty)"
    root_value = picture.roots[-1].value if picture.roots else None
    events.append({"kind": "pv", "nodes": pv_ids,
                   "text": f"done: value {format_score(root_value or 0)}, "
                           f"principal variation {pv_text}"})
    return Steps(_svg(picture, placed, by_id, ids, width, height), events)


def _svg(picture: Picture, placed: list[Any], by_id: dict[int, Any], ids: dict[int, int],
         width: float, height: float) -> str:
    skip = TOP + 10  # the room layout() keeps for a title this picture does not draw
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="steps" width="{width:.0f}" '
           f'height="{height - skip:.0f}" viewBox="0 {skip} {width:.0f} {height - skip:.0f}" '
           'font-family="DejaVu Sans, Arial, sans-serif">']
    for p in placed:  # edges first, under the nodes
        for child in picture.shown_children(p.node):
            c = by_id[id(child)]
            k = ids[id(child)]
            colour = FADED if child.pruned else INK
            dash = ' stroke-dasharray="4 3"' if child.pruned else ""
            out.append(f'<g class="step-edge" data-step-edge="{k}" visibility="hidden">'
                       f'<line x1="{p.x:.1f}" y1="{p.y + R:.1f}" x2="{c.x:.1f}" '
                       f'y2="{c.y - R:.1f}" stroke="{colour}" stroke-width="1.4"{dash}/>'
                       f'<text x="{(p.x + c.x) / 2:.1f}" y="{(p.y + c.y) / 2 + 3:.1f}" '
                       f'font-size="9" fill="#555" text-anchor="middle">'
                       f"{escape(child.move_text)}</text></g>")
            if child.pruned and p.node.cut is not None and \
                    child is next(x for x in p.node.children if x.pruned):
                mx, my = p.x + (c.x - p.x) * 0.35, p.y + R + (c.y - R - p.y - R) * 0.35
                label = CUT_LABEL.get(p.node.cut, p.node.cut)
                out.append(f'<g class="step-cut" data-step-cut="{ids[id(p.node)]}" '
                           f'visibility="hidden"><line x1="{mx - 7:.1f}" y1="{my - 5:.1f}" '
                           f'x2="{mx + 7:.1f}" y2="{my + 5:.1f}" stroke="{CUT_COLOUR}" '
                           f'stroke-width="3"/><text x="{mx + 10:.1f}" y="{my:.1f}" '
                           f'font-size="11" font-weight="bold" fill="{CUT_COLOUR}">'
                           f"{escape(label)}</text></g>")
    for p in placed:
        node, k = p.node, ids[id(p.node)]
        fill = "#ffe2b3" if node.tt_hit else "#f3f3f3" if node.pruned else "#fff"
        stroke = FADED if node.pruned else INK
        dash = ' stroke-dasharray="3 2"' if node.pruned else ""
        shape = (f'<rect class="shape" x="{p.x - R:.1f}" y="{p.y - R:.1f}" width="{2 * R}" '
                 f'height="{2 * R}" rx="3"' if node.max_node else
                 f'<circle class="shape" cx="{p.x:.1f}" cy="{p.y:.1f}" r="{R}"')
        out.append(f'<g class="step-node{" pruned" if node.pruned else ""}" '
                   f'data-step-node="{k}" visibility="hidden">'
                   f'{shape} fill="{fill}" stroke="{stroke}" stroke-width="1.6"{dash}/>')
        if not node.pruned:
            out.append(f'<text x="{p.x - R - 2:.1f}" y="{p.y - R + 2:.1f}" font-size="9" '
                       f'fill="#777" text-anchor="end">{node.order}</text>')
            if picture.windows:
                out.append(f'<text class="window" x="{p.x:.1f}" y="{p.y + R + 11:.1f}" '
                           f'font-size="9" fill="#555" text-anchor="middle">'
                           f"{escape(window_text(node))}</text>")
        if node.tt_hit:
            out.append(f'<text x="{p.x + R + 1:.1f}" y="{p.y + R - 1:.1f}" font-size="9" '
                       f'font-weight="bold" fill="{TT_COLOUR}">TT</text>')
        out.append("</g>")
        text = node_value_text(node) if not node.pruned else value_text(node.value)
        if text:
            out.append(f'<text class="step-value" data-step-value="{k}" x="{p.x:.1f}" '
                       f'y="{p.y + 4:.1f}" font-size="{12 if len(text) <= 4 else 9}" '
                       f'font-weight="bold" text-anchor="middle" fill="{INK}" '
                       f'visibility="hidden">{escape(text)}</text>')
    out.append(f"<style>.step-node.current .shape{{stroke:#ff6f00;stroke-width:4}}"
               f".step-node.pv .shape{{stroke:{PV_COLOUR};stroke-width:3.5}}"
               f".step-edge.pv line{{stroke:{PV_COLOUR};stroke-width:4}}</style>")
    out.append("</svg>")
    return "\n".join(out) + "\n"
