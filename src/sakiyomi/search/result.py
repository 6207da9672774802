"""Records the searchers return: statistics, per-iteration info and the final result."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, TypeVar

M = TypeVar("M")


@dataclass(slots=True)
class SearchStats:
    """Counters kept by every search (DESIGN.md §4 node accounting)."""

    nodes: int = 0
    leaves: int = 0
    tt_probes: int = 0
    tt_hits: int = 0
    tt_cutoffs: int = 0
    cutoffs: int = 0
    first_move_cutoffs: int = 0
    researches: int = 0
    qnodes: int = 0
    seldepth: int = 0

    @property
    def interior(self) -> int:
        """Nodes that were expanded."""
        return self.nodes - self.leaves

    @property
    def first_move_cutoff_rate(self) -> float:
        """Share of cut-offs produced by the first move searched (ordering quality)."""
        return self.first_move_cutoffs / self.cutoffs if self.cutoffs else 0.0

    def copy(self) -> SearchStats:
        """A snapshot."""
        return SearchStats(
            self.nodes, self.leaves, self.tt_probes, self.tt_hits, self.tt_cutoffs,
            self.cutoffs, self.first_move_cutoffs, self.researches, self.qnodes, self.seldepth,
        )

    def as_dict(self) -> dict[str, float]:
        """Plain numbers for JSON output."""
        return {
            "nodes": self.nodes, "leaves": self.leaves, "interior": self.interior,
            "tt_probes": self.tt_probes, "tt_hits": self.tt_hits, "tt_cutoffs": self.tt_cutoffs,
            "cutoffs": self.cutoffs,
            "first_move_cutoff_rate": round(self.first_move_cutoff_rate, 4),
            "researches": self.researches, "qnodes": self.qnodes, "seldepth": self.seldepth,
        }


@dataclass(frozen=True, slots=True)
class SearchInfo(Generic[M]):
    """What a driver yields after each completed iteration (or bound change)."""

    depth: int
    value: int
    pv: tuple[M, ...]
    stats: SearchStats
    seconds: float
    hashfull: int = 0

    @property
    def nps(self) -> float:
        """Nodes per second so far."""
        return self.stats.nodes / self.seconds if self.seconds > 0 else 0.0


@dataclass(frozen=True, slots=True)
class SearchResult(Generic[M]):
    """The answer of a search or solve: value from the side to move, best move, PV, counters."""

    value: int
    best_move: M | None
    pv: tuple[M, ...]
    depth: int
    stats: SearchStats
    seconds: float
    complete: bool = True
    extra: dict[str, object] = field(default_factory=dict)

    @property
    def nps(self) -> float:
        """Nodes per second."""
        return self.stats.nodes / self.seconds if self.seconds > 0 else 0.0
