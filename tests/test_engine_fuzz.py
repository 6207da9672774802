"""Fuzzing both engines through real subprocesses under a strict UTF-8 locale (hypothesis,
bounded to a few seconds each): random, mutated and noisy protocol lines never kill the
engine, never print a traceback, and every ``go`` gets exactly one answer.

The lines come from tests/protocol_fuzz.py, driven by hypothesis's random source; one engine
process serves all examples of a test (a fresh process per example would spend the budget on
start-up), so a state an earlier example left behind is part of what later ones exercise.
bench/fuzz_engines.py runs the same generator for ≥ 10,000 lines per engine.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.protocol_fuzz import Session, random_line

FUZZ = settings(max_examples=60, deadline=None, derandomize=False,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module", params=["uci", "usi"])
def session(request: pytest.FixtureRequest) -> Iterator[Session]:
    live = Session(request.param)
    yield live
    assert live.close() == 0


@FUZZ
@given(rng=st.randoms(use_true_random=False), count=st.integers(1, 12),
       pause=st.sampled_from([0.0, 0.0, 0.08]))
def test_random_lines_never_kill_the_engine_and_every_go_is_answered_once(
    session: Session, rng: random.Random, count: int, pause: float,
) -> None:
    lines = [random_line(rng, session.engine) for _ in range(count)]
    assert session.feed(lines, pause) == [], lines


@FUZZ
@given(data=st.lists(st.binary(max_size=80), min_size=1, max_size=6))
def test_arbitrary_bytes_never_kill_the_engine(session: Session, data: list[bytes]) -> None:
    lines = [chunk.replace(b"\n", b" ") for chunk in data]
    assert session.feed(lines) == [], lines


@FUZZ
@given(words=st.lists(st.sampled_from(
    ["wtime", "btime", "winc", "binc", "byoyomi", "movestogo", "movetime", "depth", "nodes",
     "mate", "infinite", "ponder", "searchmoves"]) | st.integers(-10**30, 10**30).map(str)
    | st.sampled_from(["1" + "0" * 400, "²", "", "1e3"]), max_size=8))
def test_go_with_any_parameters_is_answered_exactly_once(session: Session,
                                                         words: list[str]) -> None:
    lines = [b"position startpos", ("go " + " ".join(words)).encode()]
    assert session.feed(lines) == [], lines
