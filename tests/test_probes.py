"""The shared probe sequence (sakiyomi.probes) against planted values: every order finds the
value a fake engine hides, each probe stays inside the interval proved so far, and a stop
leaves that interval in the driver."""

from __future__ import annotations

import pytest

from sakiyomi.probes import FULL_DEPTH, l_bisect, l_next_probe, l_solve, l_walk


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

    def moves(self, ply: int, value: int) -> tuple[int, bool]:  # no moves: the walk ends
        return 0, False

    def finish(self, n: int) -> None:
        self.walked = n


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
    assert l_solve(fake, -20, 20, False, True, True, 0) == (-4, -4, False)
    assert all(beta == alpha + 1 for _, alpha, beta in fake.windows)
    assert fake.walked == 0  # the walk ran (and found no moves)
    fake = Planted(-4)
    l_solve(fake, -20, 20, False, True, False, 0)
    assert all(beta == alpha + 1 for _, alpha, beta in fake.windows)
    assert not hasattr(fake, "walked")  # no walk without the PV


Tree = int | list["Tree"]  # a position: its value from the side to move, or its children


def negamax(tree: Tree) -> int:
    return tree if isinstance(tree, int) else max(-negamax(child) for child in tree)


class Walked:
    """The walk's hooks over a planted tree: ``try_move`` answers fail-soft like a search
    would (the child's true value, or only a bound on the side the window leaves), records
    every window, and can be told to stop after ``budget`` searches.
    """

    def __init__(self, tree: Tree, proved_move: int = -1, table: int = -1,
                 budget: int = 1_000, table_proves: bool = False) -> None:
        self.path = [tree]
        self.table_proves = table_proves
        self.proven: list[int] = []  # the plies whose first move needed no search
        self.proved_move, self.table, self.budget = proved_move, table, budget
        self.order: list[list[int]] = []
        self.windows: list[tuple[int, int, int]] = []
        self.line: list[int] = []
        self.finished = -1

    def moves(self, ply: int, value: int) -> tuple[int, bool]:
        node = self.path[-1]
        del self.order[ply:]
        order = list(range(len(node))) if isinstance(node, list) else []
        proven = ply == 0 and self.proved_move >= 0
        first = self.proved_move if proven else self.table
        if first in order:
            order.remove(first)
            order.insert(0, first)
        self.order.append(order)
        if not proven and first in order and self.table_proves:  # a solved lower bound
            assert isinstance(node, list)
            child = node[first]
            proven = -negamax(child) >= value
        if proven and first in order:
            self.proven.append(ply)
        return len(order), proven and first in order

    def try_move(self, ply: int, i: int, alpha: int, beta: int) -> int:
        if len(self.windows) >= self.budget:
            raise RuntimeError("stopped")
        self.windows.append((ply + 1, alpha, beta))
        node = self.path[-1]
        assert isinstance(node, list)
        value = negamax(node[self.order[ply][i]])
        return min(value, beta) if value >= beta else max(value, alpha)  # fail-soft bounds

    def advance(self, ply: int, i: int) -> Walked:
        node = self.path[-1]
        assert isinstance(node, list)
        move = self.order[ply][i]
        self.line.append(move)
        self.path.append(node[move])
        return self

    def finish(self, n: int) -> None:
        self.finished = n


TREE: Tree = [[[3, -2], [5, 1]], [[-1, 4], [2, 0]], [[-6], [0, 7, -3]]]


@pytest.mark.parametrize("proves", [False, True])
@pytest.mark.parametrize("proved_move", [-1, 2])
@pytest.mark.parametrize("table", [-1, 0, 1, 2])
def test_the_walk_follows_the_value_with_null_windows(proved_move: int, table: int,
                                                      proves: bool) -> None:
    value = negamax(TREE)
    walk = Walked(TREE, proved_move, table, table_proves=proves)
    assert l_walk(walk, value) is False
    assert walk.finished == len(walk.line) == 3 and all(b == a + 1 for _, a, b in walk.windows)
    target, node = value, TREE
    for move in walk.line:  # every move of the line keeps the value
        assert isinstance(node, list)
        node = node[move]
        assert negamax(node) == -target
        target = -target
    assert node == target  # a leaf, whose value is the root's, from its side
    if proved_move >= 0:  # the bisection's move is played without a test
        assert walk.line[0] == proved_move and all(ply > 1 for ply, _, _ in walk.windows)
    assert (1 in walk.proven) == (proves and table == 1)  # TREE[2][1]: proved by the table
    for ply in walk.proven:  # a proved move is played without a search
        assert walk.line[ply] == walk.order[ply][0]
        assert all(child_ply != ply + 1 for child_ply, _, _ in walk.windows)


def test_a_stop_in_the_walk_keeps_its_line_so_far() -> None:
    walk = Walked(TREE, budget=2)
    with pytest.raises(RuntimeError):
        l_walk(walk, negamax(TREE))
    assert walk.finished == -1 and len(walk.windows) == 2


def test_a_stop_keeps_what_was_proved() -> None:
    fake = Planted(9, budget=1)
    with pytest.raises(RuntimeError):
        l_bisect(fake, -20, 20, True, 0)
    lo, hi, _ = fake.intervals[-1]
    assert lo <= 9 <= hi and (lo, hi) != (-20, 20)
