"""Score text and ``info`` lines, the same for UCI and USI except where the protocols differ.

UCI counts a mate in *moves* of the side to move (``mate 2``: it mates with its second move,
3 plies); USI counts it in *plies* (``mate 3``).  Both write a lost position as a negative
mate and anything else as centipawns from the side to move.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import replace
from typing import Literal, TypeVar

from sakiyomi.score import WIN, is_loss, is_win, plies_to_end
from sakiyomi.search.engine import Engine
from sakiyomi.search.result import SearchInfo

Dialect = Literal["uci", "usi"]
M = TypeVar("M")
E = TypeVar("E", bound=Hashable)


def uci_score(value: int) -> str:
    """``cp N`` or ``mate N`` (moves, negative when the side to move is mated)."""
    if is_win(value):
        return f"mate {(WIN - value + 1) // 2}"
    if is_loss(value):
        return f"mate -{(WIN + value) // 2}"
    return f"cp {value}"


def usi_score(value: int) -> str:
    """``cp N`` or ``mate N`` (plies, negative when the side to move is mated)."""
    if is_win(value):
        return f"mate {plies_to_end(value)}"
    if is_loss(value):
        return f"mate -{plies_to_end(value)}"
    return f"cp {value}"


def score_text(value: int, dialect: Dialect) -> str:
    """The protocol's score text for ``value`` (from the side to move)."""
    return uci_score(value) if dialect == "uci" else usi_score(value)


def info_line(info: SearchInfo[M], pv: list[str], dialect: Dialect, *,
              value: int | None = None, multipv: int | None = None) -> str:
    """One ``info`` line for a completed iteration; ``pv`` as move texts (last on the line,
    as both protocols require); ``value`` overrides the iteration's value (MultiPV lines).
    """
    ms = int(info.seconds * 1000)
    rank = f" multipv {multipv}" if multipv is not None else ""
    score = score_text(info.value if value is None else value, dialect)
    line = (f"info depth {info.depth} seldepth {info.stats.seldepth}{rank} score {score} "
            f"nodes {info.stats.nodes} nps {int(info.nps)} hashfull {info.hashfull} time {ms}")
    return line + (" pv " + " ".join(pv) if pv else "")


def closing_info(last: SearchInfo[E] | None, engine: Engine[E]) -> SearchInfo[E] | None:
    """The last completed iteration again with the counters of the whole search, when the
    search went on after it (a stopped, unfinished iteration): GUIs read the node count and
    time of a move from the last ``info`` line (``go nodes N`` spends its whole budget).
    None when nothing was searched after ``last`` or no iteration completed.
    """
    if last is None or engine.stats.nodes <= last.stats.nodes:
        return None
    return replace(last, stats=engine.stats.copy(), seconds=engine.stop.elapsed(),
                   hashfull=engine.hashfull())
