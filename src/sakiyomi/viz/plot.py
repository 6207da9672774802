"""Nodes against depth on a log scale, one line per algorithm (matplotlib, the ``plot`` extra)."""

from __future__ import annotations

from pathlib import Path

from sakiyomi.game import GameError
from sakiyomi.viz.compare import minimal_leaves


def plot_nodes(series: dict[str, list[tuple[int, int]]], branching: float, path: Path,
               title: str) -> None:
    """Write the plot to ``path`` (.svg, .png or .pdf), with b^d and the minimal tree."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise GameError("--plot needs matplotlib: pip install 'sakiyomi[plot]'") from None
    fig, ax = plt.subplots(figsize=(8, 5.5))
    depths: list[int] = []
    for name, points in series.items():
        xs = [d for d, _ in points]
        ys = [n for _, n in points]
        depths = xs if len(xs) > len(depths) else depths
        style = "--" if name.startswith("alphabeta-minmax") else "-"
        ax.plot(xs, ys, style, marker="o", markersize=3, label=name)
    if depths and branching > 1:
        ax.plot(depths, [branching**d for d in depths], ":", color="black",
                label=f"b^d (b={branching:.2f})")
        ax.plot(depths, [minimal_leaves(branching, d) for d in depths], "-.", color="grey",
                label="minimal αβ tree (leaves)")
    ax.set_yscale("log")
    ax.set_xlabel("depth (plies)")
    ax.set_ylabel("nodes visited (log scale)")
    ax.set_title(f"Nodes vs depth: {title}")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, ncol=2)
    fig.tight_layout()
    try:
        fig.savefig(path)
    except OSError as exc:
        raise GameError(f"cannot write {path}: {exc.strerror}") from None
    finally:
        plt.close(fig)
