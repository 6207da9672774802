"""Fuzzing the command line (issue 11): every verb x every game, in-process, bounded in time.

Each example is one random command line from ``tests/cli_cases.py`` (seeded, mutated and
hostile positions, numbers and options); the run must end with status 0 or 2, no traceback,
one stderr line on exit 2 (one per bad line in batch mode), a correct answer where one is
known independently, and within ``CASE_SECONDS``.  ``bench/fuzz_cli.py`` runs the same
generator for longer.
"""

from __future__ import annotations

import importlib.util
import random

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from tests.cli_cases import (
    GAMES,
    VERBS,
    judge,
    make_case,
    run_subprocess,
    run_watched,
    shown_argv,
)

EXAMPLES = 6  # per verb and game: 8 x 8 x 6 = 384 command lines per run of the suite
LIBRARIES = {"chess": "chess", "shogi": "cshogi"}
# No shrinking: a random.Random shrinks poorly, and a hang would be re-run while shrinking.
PHASES = (Phase.explicit, Phase.generate)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("verb", VERBS)
@settings(max_examples=EXAMPLES, deadline=None, database=None, phases=PHASES,
          suppress_health_check=[HealthCheck.too_slow])
@given(rng=st.randoms(use_true_random=False))
def test_cli_survives_any_input(verb: str, game: str, rng: random.Random) -> None:
    library = LIBRARIES.get(game)
    if library and importlib.util.find_spec(library) is None:
        pytest.skip(f"{library} is not installed")
    case = make_case(rng, verb, game)
    outcome = run_watched(case)
    assert outcome is not None, ("hang", shown_argv(case), case.stdin[:300])
    problems = judge(case, outcome)
    assert not problems, (problems, shown_argv(case), case.stdin[:300], outcome.status,
                          outcome.stderr[-2000:])


@settings(max_examples=4, deadline=None, database=None, phases=PHASES,
          suppress_health_check=[HealthCheck.too_slow])
@given(rng=st.randoms(use_true_random=False), verb=st.sampled_from(VERBS),
       game=st.sampled_from([g for g in GAMES if g not in LIBRARIES]))
def test_cli_survives_any_input_as_a_process(rng: random.Random, verb: str, game: str) -> None:
    """A few cases as real processes: argv and stdin as bytes, real streams, a real timeout."""
    case = make_case(rng, verb, game)
    outcome = run_subprocess(case)
    assert outcome is not None, ("hang", shown_argv(case))
    problems = judge(case, outcome)
    assert not problems, (problems, shown_argv(case), outcome.status, outcome.stderr[-2000:])
