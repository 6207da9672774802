"""Nodes against depth on a log scale, one line per algorithm (matplotlib, the ``plot`` extra)."""

from __future__ import annotations

from pathlib import Path

from sakiyomi.game import GameError
from sakiyomi.viz.compare import minimal_leaves


def plot_nodes(series: dict[str, list[tuple[int, int]]], branching: list[tuple[int, float]],
               path: Path, title: str) -> None:
    """Write the plot to ``path`` (.svg, .png or .pdf), with b^d and the minimal tree for the
    branching factor seen at each depth.  Algorithms with identical counts share one line.
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        matplotlib.rcParams["svg.hashsalt"] = "sakiyomi"  # same file for the same data
        import matplotlib.pyplot as plt
    except ImportError:
        raise GameError("--plot needs matplotlib: pip install 'sakiyomi[plot]'") from None
    fig, ax = plt.subplots(figsize=(8, 6.5))
    merged: dict[tuple[tuple[int, int], ...], list[str]] = {}
    for name, points in series.items():
        merged.setdefault(tuple(points), []).append(name)
    for line, names in merged.items():
        xs = [d for d, _ in line]
        ys = [n for _, n in line]
        ax.plot(xs, ys, "-", marker="o", markersize=3, label=" = ".join(names))
    usable = [(d, b) for d, b in branching if b > 1 and d > 0]
    if usable:
        ax.plot([d for d, _ in usable], [b**d for d, b in usable], ":", color="black",
                label="b^d leaves (full tree)")
        ax.plot([d for d, _ in usable], [minimal_leaves(b, d) for d, b in usable], "-.",
                color="grey", label="b^⌈d/2⌉+b^⌊d/2⌋−1 leaves (minimal αβ tree)")
    ax.set_yscale("log")
    ax.set_xlabel("depth (plies)")
    ax.set_ylabel("nodes visited (log scale)")
    ax.set_title(f"Nodes vs depth: {title}")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, ncol=2, loc="upper center", bbox_to_anchor=(0.5, -0.12))
    fig.tight_layout()
    try:
        meta = {"Date": None} if path.suffix.lower() in (".svg", ".pdf") else {}
        fig.savefig(path, metadata=meta)
    except OSError as exc:
        raise GameError(f"cannot write {path}: {exc.strerror}") from None
    finally:
        plt.close(fig)
