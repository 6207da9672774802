"""The tree picture as Graphviz DOT text (for people who have Graphviz; we never run it)."""

from __future__ import annotations

import json

from sakiyomi.viz.picture import CUT_LABEL, Picture, node_value_text, window_text
from sakiyomi.viz.trace import TraceNode


def render_dot(picture: Picture) -> str:
    """``digraph`` with the same marks as the SVG: PV bold blue, pruned dashed grey."""
    ids: dict[int, str] = {}
    lines = ["digraph search {", f"  label={_q(picture.title)}; labelloc=t;",
             '  node [fontname="DejaVu Sans", fontsize=10];', "  edge [fontsize=9];"]
    for node in picture.drawn():
        name = f"n{len(ids)}"
        ids[id(node)] = name
        label = _label(picture, node)
        attrs = [f"label={_q(label)}", f"shape={'box' if node.max_node else 'ellipse'}"]
        if node.pruned:
            attrs += ["style=dashed", "color=grey60", "fontcolor=grey50"]
        elif node.tt_hit:
            attrs += ["style=filled", 'fillcolor="#ffe2b3"']
        if picture.on_pv(node):
            attrs += ["penwidth=3", 'color="#1f5fd1"']
        if node.research:
            attrs += ["peripheries=2", 'color="#8e24aa"']
        lines.append(f"  {name} [{', '.join(attrs)}];")
    for node in picture.drawn():
        first_pruned = True
        for child in picture.shown_children(node):
            attrs = [f"label={_q(child.move_text + (' re' if child.research else ''))}"]
            if child.pruned:
                attrs += ["style=dashed", "color=grey60"]
                if first_pruned and node.cut is not None:
                    first_pruned = False
                    cut = CUT_LABEL.get(node.cut, node.cut)
                    attrs = [f"label={_q(child.move_text + '  ' + cut)}",
                             "style=dashed", 'color="#c62828"', 'fontcolor="#c62828"']
            elif picture.on_pv(node) and picture.on_pv(child):
                attrs += ["penwidth=3", 'color="#1f5fd1"']
            lines.append(f"  {ids[id(node)]} -> {ids[id(child)]} [{', '.join(attrs)}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _label(picture: Picture, node: TraceNode) -> str:
    parts = [node_value_text(node) or " "]
    if not node.pruned:
        parts.insert(0, f"#{node.order}")
        if picture.windows:
            parts.append(window_text(node))
    if node.tt_hit:
        parts.append("TT")
    if picture.collapsed(node):
        parts.append(f"▸ {node.count() - (0 if node.pruned else 1)} more")
    return "\n".join(parts)


def _q(text: str) -> str:
    """A DOT string literal (UTF-8 kept, quotes and newlines escaped)."""
    return json.dumps(text, ensure_ascii=False)
