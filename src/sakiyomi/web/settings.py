"""The server's per-request limits: what one page may ask of this machine.

A search never runs longer, deeper or wider than these, however the request is written; the
number of searches running at once is bounded too, so that a busy page cannot starve the
others.  The defaults suit a laptop shared by a class.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class WebLimits:
    """Bounds applied to every request (``sakiyomi serve`` flags override some)."""

    max_seconds: float = 60.0  # one search or analysis
    default_seconds: float = 3.0  # when the page names neither depth nor time
    max_depth: int = 64
    max_nodes: int = 200_000_000
    max_concurrent: int = 2  # searches running at once (the rest are refused, not queued)
    max_text: int = 4_000  # characters of a position
    max_moves: int = 1_000  # moves replayed from the start position
    trace_nodes: int = 4_000  # nodes a teaching trace may record
    step_nodes: int = 600  # nodes (searched + pruned) the step-through picture may draw
    compare_nodes: int = 40_000  # full-tree size up to which the node-count table runs
    info_interval: float = 0.2  # seconds between live progress messages
