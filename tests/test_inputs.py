"""The one number parser (sakiyomi.inputs): ASCII digits only, stated ranges, one-line errors."""

from __future__ import annotations

import math
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sakiyomi.game import PositionError
from sakiyomi.inputs import InputError, parse_int, parse_seconds, shown

ASCII_INTEGER = re.compile(r"\s*[+-]?[0-9]+\s*", re.ASCII)


@pytest.mark.parametrize("text", ["²", "٣", "１", "1²", "", " ", "1_000", "0x10", "1.0", "1e3",
                                  "--1", "+-1", "one", "1 2", "\u2003", "\u20031", "1\u00a0"])
def test_non_ascii_or_malformed_integers_are_refused(text: str) -> None:
    with pytest.raises(InputError, match="is not a whole number"):
        parse_int(text, "count", high=10)


def test_range_is_checked_before_conversion() -> None:
    # 5,000 digits: int() itself would refuse them (Python's 4,300-digit limit).
    with pytest.raises(InputError, match="count too large: at most 10"):
        parse_int("9" * 5000, "count", high=10)
    with pytest.raises(InputError, match="too small: at least -5"):
        parse_int("-" + "9" * 5000, "count", low=-5, high=10)
    assert parse_int("0" * 5000 + "7", "count", high=10) == 7  # leading zeros are harmless
    with pytest.raises(InputError, match="too small: at least 1"):
        parse_int("0", "depth", low=1, high=10)
    with pytest.raises(InputError, match="too small: at least 0"):
        parse_int("-1", "depth", high=10)
    assert parse_int(" +10 ", "count", high=10) == 10
    assert parse_int("-3", "count", low=-3, high=10) == -3


def test_the_error_class_is_the_callers() -> None:
    with pytest.raises(PositionError):
        parse_int("x", "heap", high=3, error=PositionError)


@pytest.mark.parametrize("text", ["inf", "-inf", "nan", "Infinity", "1_0", "", "0x1", "１",
                                  "1e", "e5", ".", "1.2.3", "--1", "1" * 65])
def test_seconds_refuse_what_float_would_take(text: str) -> None:
    with pytest.raises(InputError, match="is not a number of seconds"):
        parse_seconds(text, high=100)


def test_seconds_range() -> None:
    assert parse_seconds("0.5", high=100) == 0.5
    assert parse_seconds("1e2", high=100) == 100.0
    assert parse_seconds(".25", high=100) == 0.25
    for text in ("1e309", "1e3", "100.01"):
        with pytest.raises(InputError, match="too large: at most 100 seconds"):
            parse_seconds(text, high=100)
    for text in ("0", "0.0", "1e-400", "-1"):
        with pytest.raises(InputError):
            parse_seconds(text, high=100)


def test_shown_cuts_and_escapes() -> None:
    assert shown("a\nb") == "'a\\nb'"
    long = shown("x" * 10_000)
    assert len(long) < 80 and "10,000 characters" in long


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60), st.integers(-10**6, 10**6), st.integers(0, 10**30))
def test_parse_int_agrees_with_int_on_ascii_and_refuses_the_rest(text: str, low: int,
                                                                 span: int) -> None:
    high = low + span
    try:
        value = parse_int(text, "n", low=low, high=high)
    except InputError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 200
        if ASCII_INTEGER.fullmatch(text) and text.isascii():
            assert not low <= int(text) <= high
        return
    assert ASCII_INTEGER.fullmatch(text) and text.isascii()
    assert value == int(text) and low <= value <= high


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=30),
                 st.floats(allow_nan=True, allow_infinity=True).map(repr),
                 st.integers(-10**400, 10**400).map(str)))
def test_parse_seconds_gives_a_finite_positive_number_or_one_clear_error(text: str) -> None:
    try:
        value = parse_seconds(text, high=1e6)
    except InputError as exc:
        assert "\n" not in str(exc)
        return
    assert math.isfinite(value) and 0 < value <= 1e6 and text.isascii()
