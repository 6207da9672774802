"""Othello rules: perft against the published counts, the bitboard kernels against a naive
square-by-square reference, OBF parsing/printing, stability soundness, and bad input.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from sakiyomi.engines import perft_position
from sakiyomi.game import MoveError, Player, PositionError
from sakiyomi.games import load
from sakiyomi.games.othello import PASS, Othello, from_position, parse_board, square_name
from sakiyomi.games.othello import rules as k
from sakiyomi.search.perft import perft

DATA = Path(__file__).parent / "data" / "othello"
# Data README (OEIS A124004, Edax -count games, py_ref_solver): depths 1-9 from the start.
PERFT = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288]
DIRECTIONS = [(df, dr) for df in (-1, 0, 1) for dr in (-1, 0, 1) if (df, dr) != (0, 0)]


def ffo_lines(name: str) -> list[str]:
    return [line for line in (DATA / name).read_text().splitlines()
            if line.strip() and not line.startswith("%")]


def naive_flips(p: int, o: int, sq: int) -> int:
    """Walk the eight directions square by square (the rules as written, no bit tricks)."""
    if (p | o) >> sq & 1:
        return 0
    total = 0
    f0, r0 = sq % 8, sq // 8
    for df, dr in DIRECTIONS:
        run = 0
        f, r = f0 + df, r0 + dr
        while 0 <= f < 8 and 0 <= r < 8 and o >> (8 * r + f) & 1:
            run |= 1 << (8 * r + f)
            f, r = f + df, r + dr
        if run and 0 <= f < 8 and 0 <= r < 8 and p >> (8 * r + f) & 1:
            total |= run
    return total


def naive_moves(p: int, o: int) -> int:
    return sum(1 << sq for sq in range(64) if naive_flips(p, o, sq))


def random_positions(count: int, seed: int) -> list[tuple[int, int]]:
    """(p, o) pairs met along random games, side to move first."""
    rng = random.Random(seed)
    out: list[tuple[int, int]] = []
    while len(out) < count:
        game = Othello()
        while game.legal_moves():
            p, o = (game.black, game.white) if game.to_move is Player.FIRST else \
                (game.white, game.black)
            out.append((p, o))
            game.play(rng.choice(list(game.legal_moves())))
    return out[:count]


def test_compiled_perft_matches_published_counts() -> None:
    for depth, expected in enumerate(PERFT, 1):
        assert k.perft(k.START_BLACK, k.START_WHITE, depth) == expected


def test_game_protocol_perft_matches_published_counts() -> None:
    game = load("othello", "start")
    for depth, expected in enumerate(PERFT[:6], 1):
        assert perft(game, depth) == expected


def test_kernel_perft_matches_published_counts() -> None:
    # `perft othello` counts with the compiled kernels' move generator (sakiyomi.compiled.perft);
    # depth 10 is convention A of the data README (OEIS A124004, Edax -count games).
    game = load("othello", "start")
    for depth, expected in enumerate([*PERFT, 24_571_056], 1):
        assert perft_position(game, depth) == (expected, "compiled")


def test_kernel_perft_equals_the_python_game_perft_on_random_positions() -> None:
    # Two independent move generators (kernel states vs the game's methods), with passes and
    # finished games met on the way from late positions.
    for p, o in random_positions(400, seed=12)[::40] + random_positions(400, seed=13)[50::50]:
        text = "".join("X" if p >> sq & 1 else "O" if o >> sq & 1 else "-" for sq in range(64))
        game = from_position("othello", text + " X")
        for depth in (0, 1, 3):
            assert perft_position(game, depth)[0] == perft(game, depth)


def test_forced_pass_counts_as_a_move() -> None:
    # Black has no move, White has: a pass is the only legal move and consumes a ply.
    game = from_position("othello", "OX" + "-" * 62 + " X")
    assert list(game.legal_moves()) == [PASS]
    assert game.outcome() is None
    game.play(PASS)
    assert game.to_move is Player.SECOND and list(game.legal_moves()) != [PASS]
    assert k.perft(np.uint64(2), np.uint64(1), 1) == 1


def test_kernels_agree_with_naive_rules_on_random_positions() -> None:
    for p, o in random_positions(600, seed=5):
        pu, ou = np.uint64(p), np.uint64(o)
        assert int(k.legal_moves(pu, ou)) == naive_moves(p, o)
        for sq in range(64):
            if not (p | o) >> sq & 1:
                assert int(k.flips(pu, ou, sq)) == naive_flips(p, o, sq)


def test_final_score_gives_empties_to_the_winner() -> None:
    p, o = parse_board("XXXO" + "-" * 60)
    assert k.final_score(np.uint64(p), np.uint64(o)) == 3 - 1 + 60
    assert k.final_score(np.uint64(o), np.uint64(p)) == -(3 - 1 + 60)
    p, o = parse_board("XO" + "-" * 62)
    assert k.final_score(np.uint64(p), np.uint64(o)) == 0


def test_stable_discs_are_never_flipped_in_random_continuations() -> None:
    rng = random.Random(11)
    checked = 0
    for p, o in random_positions(300, seed=7)[::3]:
        for owner in (p, o):
            stable = int(k.stable_discs(np.uint64(owner), np.uint64(p ^ o ^ owner)))
            checked += bin(stable).count("1")
            game = Othello(p, o, Player.FIRST)  # black = side to move
            colour = 0 if owner == p else 1
            while game.legal_moves():
                game.play(rng.choice(list(game.legal_moves())))
                mine = game.black if colour == 0 else game.white
                assert stable & ~mine == 0, "a disc called stable was flipped"
    assert checked > 500


def test_stable_discs_include_filled_corners_and_edges() -> None:
    p, o = parse_board("XXXXXXXX" + "-" * 56)
    assert int(k.stable_discs(np.uint64(p), np.uint64(o))) == 0xFF  # the whole rank 1
    p, o = parse_board("XO" + "-" * 62)
    assert int(k.stable_discs(np.uint64(p), np.uint64(o))) == 1  # a1 only


@pytest.mark.parametrize("name", ["fforum-1-19.obf", "fforum-20-39.obf", "fforum-40-49.obf"])
def test_obf_positions_round_trip_and_list_every_legal_move(name: str) -> None:
    for line in ffo_lines(name):
        game = from_position("othello", line)
        board, side = line.split(";")[0].split()
        assert game.position_text() == f"{board} {side}"
        listed = {entry.split(":")[0].strip().lower() for entry in line.split(";")[1:]
                  if entry.strip()}
        assert {square_name(m) for m in game.legal_moves()} == listed


def test_play_undo_and_keys() -> None:
    game = from_position("othello", "start")
    key = game.key()
    mover, other = game.black, game.white
    for text in ("f5", "d6", "c3", "d3", "c4"):  # the tiger opening, replayed naively alongside
        sq = game.move_from_text(text)
        game.play(sq)
        flipped = naive_flips(mover, other, sq)
        mover, other = other ^ flipped, mover | flipped | 1 << sq
    assert (game.white, game.black) == (mover, other)
    assert game.to_move is Player.SECOND
    for _ in range(5):
        game.undo()
    assert game.key() == key
    assert game.position_text() == from_position("othello", "start").position_text()


@pytest.mark.parametrize("text, words", [
    ("X" * 63 + " X", "64 squares"),
    ("X" * 65 + " X", "64 squares"),
    ("X" * 32 + "?" + "-" * 31 + " X", "square a5 holds '?'"),
    ("-" * 27 + "OX------XO" + "-" * 27 + " B", "side to move 'B'"),
    ("-" * 27 + "OX------XO" + "-" * 27, "side to move"),
    ("-" * 27 + "OX------XO" + "-" * 27 + " X X", "side to move"),
])
def test_bad_positions_name_the_problem(text: str, words: str) -> None:
    with pytest.raises(PositionError, match=words):
        load("othello", text)


@pytest.mark.parametrize("text, words", [
    ("i9", "not a square"),
    ("e44", "not a square"),
    ("d4", "already occupied"),
    ("a1", "flips no disc"),
    ("pass", "only legal when no other move"),
])
def test_bad_moves_name_the_problem(text: str, words: str) -> None:
    with pytest.raises(MoveError, match=words):
        load("othello", "start").move_from_text(text)


def test_move_texts() -> None:
    game = load("othello", "start")
    assert sorted(game.move_to_text(m) for m in game.legal_moves()) == ["c4", "d3", "e6", "f5"]
    assert game.move_from_text(" F5 ") == 37
    finished = from_position("othello", "X" * 64 + " O")
    assert finished.outcome() is not None and finished.outcome().winner is Player.FIRST  # type: ignore[union-attr]
    with pytest.raises(MoveError, match="game is over"):
        finished.move_from_text("a1")
