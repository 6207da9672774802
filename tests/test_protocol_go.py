"""The one ``go`` parser (protocols/go.py) for UCI and USI, and the protocol number rule."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sakiyomi.protocols.engine_loop import ProtocolError
from sakiyomi.protocols.go import (
    MAX_DEPTH,
    MAX_MS,
    MAX_NODES,
    Dialect,
    GoParams,
    parse_go,
    parse_int,
)
from sakiyomi.search.limits import TimePlan, plan_time


def test_uci_clock_and_flags() -> None:
    words = ["wtime", "1000", "btime", "2000", "winc", "5", "binc", "6", "movestogo", "7"]
    assert parse_go(words, "uci") == GoParams(wtime=1000, btime=2000, winc=5, binc=6,
                                              movestogo=7)
    assert parse_go(["infinite"], "uci") == GoParams(infinite=True)
    assert parse_go(["ponder", "movetime", "50"], "uci") == GoParams(ponder=True, movetime=50)
    assert parse_go(["mate", "3"], "uci") == GoParams(mate=3)
    assert parse_go(["searchmoves", "e2e4", "d2d4", "depth", "3"], "uci") == GoParams(
        depth=3, searchmoves=("e2e4", "d2d4"))


def test_usi_byoyomi_and_mate_search() -> None:
    words = ["btime", "0", "wtime", "0", "byoyomi", "1000"]
    assert parse_go(words, "usi") == GoParams(btime=0, wtime=0, byoyomi=1000)
    assert parse_go(["mate", "500"], "usi") == GoParams(mate_search=True, movetime=500)
    assert parse_go(["mate", "infinite"], "usi") == GoParams(mate_search=True, infinite=True)
    assert parse_go(["mate"], "usi") == GoParams(mate_search=True, infinite=True)
    with pytest.raises(ProtocolError):
        parse_go(["mate", "500", "depth", "3"], "usi")
    with pytest.raises(ProtocolError):
        parse_go(["depth", "3", "mate", "1"], "usi")  # USI's mate is a command, not a limit


@pytest.mark.parametrize(("words", "message"), [
    (["depth", "²"], "go depth: '²' is not a number"),
    (["wtime", "١٠٠"], "go wtime: '١٠٠' is not a number"),  # Arabic-Indic digits
    (["nodes", "1e6"], "go nodes: '1e6' is not a number"),
    (["movetime", "-"], "go movetime: '-' is not a number"),
    (["depth"], "go depth needs a number"),
    (["sideways"], "unknown go parameter 'sideways'"),
])
def test_bad_numbers_and_words_are_named(words: list[str], message: str) -> None:
    dialects: tuple[Dialect, ...] = ("uci", "usi")
    for dialect in dialects:
        with pytest.raises(ProtocolError) as caught:
            parse_go(words, dialect)
        assert str(caught.value) == message


def test_absurd_sizes_are_clamped_not_overflowing() -> None:
    huge = "1" + "0" * 400  # int() of it works, but past 4,300 digits int() itself refuses
    giant = "9" * 10_000
    go = parse_go(["movetime", "99999999999999999", "wtime", huge, "btime", giant,
                   "nodes", giant, "depth", huge, "winc", "-5"], "uci")
    assert go.movetime == go.wtime == go.btime == MAX_MS
    assert go.nodes == MAX_NODES and go.depth == MAX_DEPTH and go.winc == 0
    plan = go.plan(white=True, overhead=0.05)
    assert plan is not None and plan.hard <= MAX_MS / 1000


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=30), st.integers(-10**6, 10**6), st.integers(0, 10**6))
def test_parse_int_accepts_exactly_signed_ascii_digits(text: str, low: int, span: int) -> None:
    high = low + span
    body = text[1:] if text[:1] in "+-" else text
    valid = body != "" and all(c in "0123456789" for c in body)
    if not valid:
        with pytest.raises(ProtocolError):
            parse_int(text, "x", low, high)
        return
    value = parse_int(text, "x", low, high)
    assert value == max(low, min(high, int(text)))


def test_plan_uses_the_side_to_move_and_movetime_wins() -> None:
    go = GoParams(wtime=60_000, btime=1_000, winc=500, binc=0, movestogo=20)
    assert go.plan(white=True, overhead=0.05) == plan_time(60.0, 0.5, 20, 0.0, 0.05)
    assert go.plan(white=False, overhead=0.05) == plan_time(1.0, 0.0, 20, 0.0, 0.05)
    assert GoParams(wtime=1000, movetime=300).plan(True, 0.05) == TimePlan.fixed(0.25)
    assert GoParams(byoyomi=1000).plan(False, 0.3) == plan_time(0.0, 0.0, None, 1.0, 0.3)
    assert GoParams(depth=5).plan(True, 0.05) is None  # no time given: no time limit


def test_a_reserve_comes_off_the_main_time_only() -> None:
    go = GoParams(wtime=1_000, btime=1_000, winc=100, binc=100)
    assert go.plan(True, 0.05, reserve=0.3) == plan_time(0.7, 0.1, None, 0.0, 0.05)
    assert go.plan(True, 0.05, reserve=0.3).hard < go.plan(True, 0.05).hard  # type: ignore[union-attr]
    assert go.plan(True, 0.05, reserve=5.0) == plan_time(0.0, 0.1, None, 0.0, 0.05)
    byoyomi = GoParams(btime=0, byoyomi=1000)  # byoyomi and movetime are spent as before
    assert byoyomi.plan(False, 0.05, reserve=0.3) == byoyomi.plan(False, 0.05)
    assert GoParams(movetime=300).plan(True, 0.05, reserve=0.3) == TimePlan.fixed(0.25)
