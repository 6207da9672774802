"""The tree picture as terminal text: one line per node, in search order, with box lines."""

from __future__ import annotations

from sakiyomi.viz.picture import (
    CUT_LABEL,
    Picture,
    node_value_text,
    view_note,
    window_text,
)
from sakiyomi.viz.trace import TraceNode


def render_text(picture: Picture) -> str:
    """Indented tree; ``#n`` is the search order, ``*`` marks the principal variation."""
    lines = [picture.title, picture.subtitle, view_note(picture.view)]
    for i, root in enumerate(picture.roots):
        if i < len(picture.root_captions):
            lines.append(picture.root_captions[i])
        lines.append(_label(picture, root))
        _children(picture, root, "", lines)
    lines.extend(picture.notes)
    lines.append("legend: #n search order, * principal variation, (α,β) window, ≥/≤ bound, "
                 "TT table answer, re re-search, ✂ α/β-cut, ~ pruned (never searched)")
    return "\n".join(lines) + "\n"


def _children(picture: Picture, node: TraceNode, prefix: str, lines: list[str]) -> None:
    children = picture.shown_children(node)
    first_pruned = True
    for i, child in enumerate(children):
        last = i == len(children) - 1
        branch = "└─ " if last else "├─ "
        if child.pruned and first_pruned and node.cut is not None:
            first_pruned = False
            pruned = sum(1 for c in children if c.pruned)
            lines.append(f"{prefix}│ ✂ {CUT_LABEL.get(node.cut, node.cut)}: "
                         f"{pruned} move(s) pruned")
        lines.append(f"{prefix}{branch}{child.move_text}: {_label(picture, child)}")
        _children(picture, child, prefix + ("   " if last else "│  "), lines)


def _label(picture: Picture, node: TraceNode) -> str:
    parts: list[str] = []
    if node.pruned:
        parts.append("~")
    else:
        parts.append(f"#{node.order}")
    value = node_value_text(node)
    if value:
        parts.append(value)
    if picture.windows and not node.pruned:
        parts.append(window_text(node))
    if node.tt_hit:
        parts.append("TT")
    if node.research:
        parts.append("re")
    if picture.on_pv(node):
        parts.append("*")
    if picture.collapsed(node):
        hidden = node.count() - (0 if node.pruned else 1)
        parts.append(f"[▸ {hidden} more]" if not node.pruned else "[▸ pruned subtree]")
    return " ".join(parts)
