"""The shared probe sequence (sakiyomi.probes) against planted values: every order finds the
value a fake engine hides, each probe stays inside the interval proved so far, and a stop
leaves that interval in the driver."""

from __future__ import annotations

import pytest

from sakiyomi.probes import FULL_DEPTH, l_bisect, l_next_probe, l_solve


class Planted:
    """A fail-soft root 'search' of a root whose value is ``value`` (a guess search at a
    shallower depth answers ``guess``); it records every window and what was proved.
    """

    def __init__(self, value: int, guess: int = 0, budget: int = 1_000) -> None:
        self.value, self.guess, self.budget = value, guess, budget
        self.windows: list[tuple[int, int, int]] = []
        self.intervals: list[tuple[int, int, bool]] = []

    def probe(self, depth: int, alpha: int, beta: int) -> int:
        if len(self.windows) >= self.budget:
            raise RuntimeError("stopped")
        self.windows.append((depth, alpha, beta))
        return self.value if depth == FULL_DEPTH else self.guess

    def proved(self, lo: int, hi: int, up: bool) -> None:
        self.intervals.append((lo, hi, up))


@pytest.mark.parametrize("pons", [False, True])
@pytest.mark.parametrize("guess_depth", [0, 2])
def test_bisection_finds_every_planted_value(pons: bool, guess_depth: int) -> None:
    for value in range(-18, 19):
        for guess in (-18, -3, 0, 5, 18):
            fake = Planted(value, guess)
            lo, hi, stopped = l_bisect(fake, -18, 18, pons, guess_depth)
            assert (lo, hi, stopped) == (value, value, False)
            known_lo, known_hi = -18, 18
            for (_, alpha, beta), (new_lo, new_hi, up) in zip(
                    [w for w in fake.windows if w[0] == FULL_DEPTH], fake.intervals,
                    strict=True):
                assert beta == alpha + 1 and known_lo <= alpha < known_hi  # a useful question
                assert up == (value > alpha)
                known_lo, known_hi = new_lo, new_hi


def test_pons_probe_stays_inside() -> None:
    for lo in range(-25, 25):
        for hi in range(lo + 1, 26):
            assert lo <= l_next_probe(lo, hi) < hi


def test_weak_and_pv_lines() -> None:
    fake = Planted(7)
    assert l_solve(fake, -1, 1, True, False, True, 0) == (1, 1, False)
    assert fake.windows == [(FULL_DEPTH, -1, 1)]
    fake = Planted(-4)
    assert l_solve(fake, -20, 20, False, True, True, 0)[:2] == (-4, -4)
    assert fake.windows[-1] == (FULL_DEPTH, -5, -3)  # the open window of the PV search
    fake = Planted(-4)
    l_solve(fake, -20, 20, False, True, False, 0)
    assert all(beta == alpha + 1 for _, alpha, beta in fake.windows)


def test_a_stop_keeps_what_was_proved() -> None:
    fake = Planted(9, budget=1)
    with pytest.raises(RuntimeError):
        l_bisect(fake, -20, 20, True, 0)
    lo, hi, _ = fake.intervals[-1]
    assert lo <= 9 <= hi and (lo, hi) != (-20, 20)
