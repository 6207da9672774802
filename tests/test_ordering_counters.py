"""MoveOrderer's counter-move heuristic and history malus (SearchConfig switches, off by
default), checked against orders worked out by hand from the bonuses' ranking."""

from __future__ import annotations

from sakiyomi.ordering import HISTORY_LIMIT, MoveOrderer


def test_counter_move_comes_after_killers_and_before_history() -> None:
    orderer: MoveOrderer[str] = MoveOrderer(counters=True)
    orderer.record_cutoff("h", ply=5, depth=6)  # history credit only (another ply's killer)
    orderer.record_cutoff("k", ply=1, depth=1)  # killer at ply 1
    orderer.record_cutoff("c", ply=3, depth=1, previous="p")  # the reply to "p"
    moves = ["a", "c", "h", "k", "t"]
    assert orderer.order(moves, "t", 1, "p") == ["t", "k", "c", "h", "a"]
    # Another previous move: no counter bonus, "c" keeps only its small history credit.
    assert orderer.order(moves, None, 1, "q") == ["k", "h", "c", "a", "t"]


def test_counters_are_ignored_when_switched_off() -> None:
    orderer: MoveOrderer[str] = MoveOrderer(history=False, killers=False)
    orderer.record_cutoff("c", ply=3, depth=4, previous="p")
    assert orderer.counters == {}
    assert orderer.order(["a", "b", "c"], None, 0, "p") == ["a", "b", "c"]


def test_malus_sinks_the_moves_tried_before_a_cutoff() -> None:
    orderer: MoveOrderer[str] = MoveOrderer(malus=True)
    orderer.record_cutoff("c", ply=0, depth=3, tried=["a", "b"])
    assert orderer.history["c"] == 9 and orderer.history["a"] == orderer.history["b"] == -9
    orderer.killers.clear()
    assert orderer.order(["a", "b", "x", "c"], None, 0) == ["c", "x", "a", "b"]


def test_malus_history_saturates_inside_its_limit() -> None:
    orderer: MoveOrderer[str] = MoveOrderer(malus=True)
    for _ in range(2000):
        orderer.record_cutoff("c", ply=0, depth=40, tried=["a"])
    assert 0 < orderer.history["c"] <= HISTORY_LIMIT
    assert -HISTORY_LIMIT <= orderer.history["a"] < 0


def test_credit_is_read_by_the_move_ids_history_is_kept_by() -> None:
    """History pruning reads a move's credit through ``credit``: by its id when the game has
    ids (chess's MoveIds), as ``record_cutoff`` stores it, not by the move object."""
    ids = (lambda move: len(move), lambda moves: [len(m) for m in moves])
    orderer: MoveOrderer[str] = MoveOrderer(ids=ids)
    orderer.record_cutoff("abc", ply=0, depth=3)
    assert orderer.history == {3: 9}  # kept by id
    assert orderer.credit("abc") == orderer.credit("xyz") == 9 and orderer.credit("ab") == 0
    plain: MoveOrderer[str] = MoveOrderer()
    plain.record_cutoff("abc", ply=0, depth=2)
    assert plain.credit("abc") == 4 and plain.credit("xyz") == 0
