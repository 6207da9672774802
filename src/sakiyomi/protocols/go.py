"""One parser for the ``go`` command of UCI and USI, and the protocol's number rule.

Both protocols send ``go`` followed by keyword/value pairs and flags; they differ only in a few
words (USI's ``byoyomi`` and its ``go mate <ms>|infinite`` tsume search, UCI's ``go mate
<moves>`` and ``searchmoves``).  ``parse_go`` turns the words into a typed ``GoParams`` record;
``GoParams.plan`` turns the clock of the side to move into the one ``TimePlan``.

Numbers are ASCII digits with an optional sign and nothing else (``str.isdigit`` and ``int``
also accept ``²`` or Arabic-Indic digits, which no GUI sends).  A value past its field's sane
maximum is clamped there, never rejected and never allowed to grow without bound: a movetime of
10**400 ms becomes about eleven days, so timers, deadlines and node counters in compiled code
cannot overflow.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from sakiyomi.inputs import shown
from sakiyomi.protocols.engine_loop import ProtocolError
from sakiyomi.search.limits import TimePlan, plan_time

Dialect = Literal["uci", "usi"]

MAX_MS = 1_000_000_000  # ~11.6 days: the longest time any go parameter may mean
MAX_NODES = 1 << 48  # far beyond any search, small enough for int64 node counters
MAX_DEPTH = 1_000  # the drivers cap depth at MAX_PLY anyway
MAX_MOVES_TO_GO = 10_000
MAX_MATE = 500  # moves; a longer mate search is an unbounded one in practice
_DIGITS_KEPT = 18  # longer numbers are clamped before int() (which refuses past 4,300 digits)

# keyword -> (low, high) of its integer value
_INTEGERS: dict[str, tuple[int, int]] = {
    "wtime": (0, MAX_MS), "btime": (0, MAX_MS), "winc": (0, MAX_MS), "binc": (0, MAX_MS),
    "byoyomi": (0, MAX_MS), "movetime": (0, MAX_MS),
    "movestogo": (0, MAX_MOVES_TO_GO), "depth": (1, MAX_DEPTH), "nodes": (1, MAX_NODES),
    "mate": (-MAX_MATE, MAX_MATE),
}
_FLAGS = ("infinite", "ponder")


def parse_int(text: str, what: str, low: int, high: int) -> int:
    """``text`` as an integer clamped to ``low..high``; ProtocolError if it is not one.

    Accepted: an optional ``+``/``-`` then ASCII digits only.  ``what`` names the field in the
    message (``go depth: '²' is not a number``).
    """
    body = text[1:] if text[:1] in ("+", "-") else text
    if not body or not body.isascii() or not body.isdigit():
        raise ProtocolError(f"{what}: {shown(text)} is not a number")
    negative = text.startswith("-")
    digits = body.lstrip("0")
    if len(digits) > _DIGITS_KEPT:
        return low if negative else high
    value = -int(body) if negative else int(body)
    return max(low, min(high, value))


@dataclass(frozen=True, slots=True)
class GoParams:
    """The parameters of one ``go`` (times in milliseconds, as sent; None when absent)."""

    wtime: int | None = None
    btime: int | None = None
    winc: int | None = None
    binc: int | None = None
    byoyomi: int | None = None
    movestogo: int | None = None
    movetime: int | None = None
    depth: int | None = None
    nodes: int | None = None
    mate: int | None = None  # UCI: look for a mate in this many moves
    infinite: bool = False
    ponder: bool = False
    mate_search: bool = False  # USI ``go mate``: a tsume search (movetime or infinite)
    searchmoves: tuple[str, ...] = ()

    @property
    def has_clock(self) -> bool:
        """True when the GUI sent a clock (main time, increment or byoyomi)."""
        return any(value is not None for value in
                   (self.wtime, self.btime, self.winc, self.binc, self.byoyomi))

    def plan(self, white: bool, overhead: float, reserve: float = 0.0) -> TimePlan | None:
        """The time plan for the side to move (``white``: UCI White, USI gote), or None when
        the GUI gave no time at all; ``overhead`` seconds are kept for the GUI and the pipes
        on every move, and ``reserve`` seconds of the main time are left untouched (the engine's
        recent lateness; byoyomi and increments are still spent).  ``movetime`` wins over a
        clock.
        """
        if self.movetime is not None:
            return TimePlan.fixed(self.movetime / 1000 - overhead)
        if not self.has_clock:
            return None
        main = max(0.0, ((self.wtime if white else self.btime) or 0) / 1000 - reserve)
        increment = (self.winc if white else self.binc) or 0
        return plan_time(main, increment / 1000, self.movestogo or None,
                         (self.byoyomi or 0) / 1000, overhead)


def parse_go(words: list[str], dialect: Dialect) -> GoParams:
    """The words after ``go`` as a record; ProtocolError names the first bad one."""
    values: dict[str, int] = {}
    flags: set[str] = set()
    searchmoves: list[str] = []
    mate_search = False
    i = 0
    if dialect == "usi" and words[:1] == ["mate"]:  # go mate <ms> | infinite
        mate_search = True
        i = 1
        if len(words) > 1 and words[1] == "infinite":
            flags.add("infinite")
            i = 2
        elif len(words) > 1:
            values["movetime"] = parse_int(words[1], "go mate", 0, MAX_MS)
            i = 2
        else:
            flags.add("infinite")
        if i < len(words):
            raise ProtocolError(f"go mate takes one time or 'infinite', not {shown(words[i])}")
    while i < len(words):
        word = words[i]
        if word in _FLAGS:
            flags.add(word)
            i += 1
        elif word in _INTEGERS and not (word == "mate" and dialect == "usi"):
            if i + 1 >= len(words):
                raise ProtocolError(f"go {word} needs a number")
            low, high = _INTEGERS[word]
            values[word] = parse_int(words[i + 1], f"go {word}", low, high)
            i += 2
        elif word == "searchmoves" and dialect == "uci":
            i += 1
            while i < len(words) and words[i] not in _INTEGERS and words[i] not in _FLAGS:
                searchmoves.append(words[i])
                i += 1
        else:
            raise ProtocolError(f"unknown go parameter {shown(word)}")
    get = values.get
    return GoParams(
        wtime=get("wtime"), btime=get("btime"), winc=get("winc"), binc=get("binc"),
        byoyomi=get("byoyomi"), movestogo=get("movestogo"), movetime=get("movetime"),
        depth=get("depth"), nodes=get("nodes"), mate=get("mate"),
        infinite="infinite" in flags, ponder="ponder" in flags, mate_search=mate_search,
        searchmoves=tuple(searchmoves),
    )
