"""The one time plan (search/limits.py): invariants over any clock, checked with hypothesis.

The expected bounds are the rules stated in ``plan_time``'s docstring, computed here from the
clock alone (never from the function's own output).
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sakiyomi.search.limits import MAX_SECONDS, MIN_THINK, TimePlan, plan_time

seconds = st.one_of(
    st.floats(min_value=0.0, max_value=1e4, allow_nan=False),
    st.sampled_from([0.0, 0.001, 0.05, 0.1, 1.0, 1e9, 1e300, math.inf]),
)
overheads = st.sampled_from([0.0, 0.01, 0.05, 0.3, 1.0])
moves_to_go = st.one_of(st.none(), st.integers(min_value=-5, max_value=100_000))
EPS = 1e-9


def _clock(value: float) -> float:
    return min(max(value, 0.0), MAX_SECONDS)


@settings(max_examples=400, deadline=None)
@given(seconds, seconds, moves_to_go, seconds, overheads)
def test_the_plan_is_never_late_and_soft_before_hard(
    remaining: float, increment: float, togo: int | None, byoyomi: float, overhead: float,
) -> None:
    plan = plan_time(remaining, increment, togo, byoyomi, overhead)
    on_clock = max(0.0, _clock(remaining) + _clock(byoyomi) - overhead)
    assert 0.0 <= plan.soft <= plan.hard <= on_clock + EPS
    assert math.isfinite(plan.hard) and plan.hard <= MAX_SECONDS
    if on_clock >= MIN_THINK:
        assert plan.hard >= MIN_THINK - EPS  # always some time to find a move


@settings(max_examples=300, deadline=None)
@given(seconds, seconds, overheads, st.one_of(st.none(), st.integers(2, 1000)))
def test_without_byoyomi_a_move_takes_at_most_a_third_of_the_main_time(
    remaining: float, increment: float, overhead: float, togo: int | None,
) -> None:
    plan = plan_time(remaining, increment, togo, 0.0, overhead)
    usable = max(0.0, _clock(remaining) - overhead)
    assert plan.hard <= max(usable / 3, min(MIN_THINK, usable)) + EPS


@settings(max_examples=300, deadline=None)
@given(seconds, seconds, seconds, overheads, st.floats(0.0, 100.0), st.sampled_from(
    ["remaining", "increment", "byoyomi"]))
def test_more_time_on_the_clock_never_gives_a_smaller_plan(
    remaining: float, increment: float, byoyomi: float, overhead: float, extra: float,
    part: str,
) -> None:
    base = {"remaining": remaining, "increment": increment, "byoyomi": byoyomi}
    more = dict(base)
    more[part] += extra
    small = plan_time(base["remaining"], base["increment"], None, base["byoyomi"], overhead)
    large = plan_time(more["remaining"], more["increment"], None, more["byoyomi"], overhead)
    assert large.hard >= small.hard - EPS and large.soft >= small.soft - EPS


@pytest.mark.parametrize("byoyomi", [0.5, 1.0, 10.0, 30.0])
@pytest.mark.parametrize("margin", [0.05, 0.3])
def test_byoyomi_is_used_in_full_when_the_main_time_is_gone(byoyomi: float,
                                                             margin: float) -> None:
    plan = plan_time(0.0, 0.0, None, byoyomi, margin)
    assert plan.hard == pytest.approx(byoyomi - margin)
    assert plan.soft == pytest.approx(plan.hard)  # unused byoyomi is lost: keep iterating


@pytest.mark.parametrize(("remaining", "increment"), [(2.0, 0.1), (10.0, 0.5), (60.0, 2.0)])
def test_an_increment_is_spent_almost_fully(remaining: float, increment: float) -> None:
    plan = plan_time(remaining, increment, None, 0.0, 0.05)
    assert plan.soft >= 0.5 * increment  # at least half before the last iteration may start
    assert plan.hard >= 0.9 * increment


def test_a_last_move_before_the_control_may_use_most_of_the_time() -> None:
    plan = plan_time(10.0, 0.0, 1, 0.0, 0.05)
    assert 0.5 * 9.95 <= plan.hard <= 9.95


@pytest.mark.parametrize(("given_seconds", "expected"), [
    (1.5, 1.5), (0.0, 0.0), (-3.0, 0.0), (math.nan, 0.0), (math.inf, MAX_SECONDS),
    (1e300, MAX_SECONDS),
])
def test_fixed_time_is_clamped_and_soft_equals_hard(given_seconds: float,
                                                    expected: float) -> None:
    assert TimePlan.fixed(given_seconds) == TimePlan(expected, expected)
