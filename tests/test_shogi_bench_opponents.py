"""bench/shogi.py plays the opponents it is asked for: fairy-stockfish at 1,000 and 10,000 nodes
by default, YaneuraOu alone when only YaneuraOu is named (session 24: a YaneuraOu run also
played 48 unasked games against fairy-stockfish first), both when both are named."""

from __future__ import annotations

import argparse
import sys

import bench.shogi as bench_shogi
import pytest


def started(monkeypatch: pytest.MonkeyPatch, *argv: str
            ) -> list[tuple[argparse.Namespace, str, dict[str, int]]]:
    """The matches ``main`` starts for ``argv`` (its settings, the opponent and its limit),
    none of them played."""
    seen: list[tuple[argparse.Namespace, str, dict[str, int]]] = []

    def record(args: argparse.Namespace, kind: str, limit: dict[str, int]) -> None:
        seen.append((args, kind, limit))

    monkeypatch.setattr(bench_shogi, "bench_match", record)
    monkeypatch.setattr(sys, "argv", ["shogi.py", "--skip-mates", "--skip-speed", *argv])
    bench_shogi.main()
    return seen


def matches(monkeypatch: pytest.MonkeyPatch, *argv: str) -> list[tuple[str, dict[str, int]]]:
    """The matches ``main`` starts for ``argv`` (opponent and limit), none of them played."""
    return [(kind, limit) for _, kind, limit in started(monkeypatch, *argv)]


def test_fairy_stockfish_at_both_budgets_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    assert matches(monkeypatch) == [("fsf", {"nodes": 1000}), ("fsf", {"nodes": 10_000})]


def test_yaneuraou_alone_when_only_it_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    assert matches(monkeypatch, "--yaneuraou", "/opt/yaneuraou") == [
        ("yaneuraou", {"byoyomi": 1000})]
    assert matches(monkeypatch, "--yaneuraou", "/opt/yaneuraou", "--yaneuraou-nodes", "500") \
        == [("yaneuraou", {"nodes": 500})]


def test_both_when_both_are_named(monkeypatch: pytest.MonkeyPatch) -> None:
    assert matches(monkeypatch, "--fsf-nodes", "2000", "--yaneuraou", "/opt/yaneuraou") == [
        ("fsf", {"nodes": 2000}), ("yaneuraou", {"byoyomi": 1000})]


def our_limit(monkeypatch: pytest.MonkeyPatch, *argv: str) -> tuple[int | None, int]:
    """Our side's node budget and byoyomi in the one match ``main`` starts for ``argv``."""
    (args, _, _), = started(monkeypatch, *argv)
    return args.our_nodes, args.byoyomi


def test_a_self_match_at_n_nodes_gives_both_sides_n_nodes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Session 26: ours silently played the default byoyomi against the other side's nodes.
    assert our_limit(monkeypatch, "--self-nodes", "10000") == (10_000, 1000)
    assert our_limit(monkeypatch, "--self-nodes", "10000", "--our-nodes", "2000") == (2000, 1000)
    assert our_limit(monkeypatch, "--self-nodes", "10000", "--byoyomi", "500") == (None, 500)


def test_a_self_match_at_a_byoyomi_gives_both_sides_that_byoyomi(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert our_limit(monkeypatch, "--self-byoyomi", "500") == (None, 500)
    assert our_limit(monkeypatch, "--self-byoyomi", "500", "--byoyomi", "700") == (None, 700)
    assert our_limit(monkeypatch, "--self-byoyomi", "500", "--our-nodes", "3000") == (3000, 1000)
