"""The fitted shogi evaluation: king-relative offsets, and the fit's bookkeeping checked end to
end (a planted correction is found; tables written from corrections evaluate as the features
predict).
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import bench.shogi_eval_fit
import numpy as np
import pytest
from bench.shogi_eval_fit import (
    ATTACK_AT,
    CELLS,
    DEFEND_AT,
    EXTRA_AT,
    HAND_AT,
    MATERIAL_AT,
    PARAMETERS,
    WINDOW_CELL,
    design,
    fit,
    fitted_tables,
    load_labels,
    perturbed,
)

from sakiyomi.games import shogi_eval as ev
from sakiyomi.games import shogi_facade as cs
from sakiyomi.games.shogi import ShogiGame
from tests.shogi_data import rows


def _positions(count: int, seed: int) -> list[ShogiGame]:
    """Positions a few random moves away from the test suite's middlegames."""
    rng = random.Random(seed)
    starts = [row["sfen"] for row in rows("midgame_perft.tsv")]
    result: list[ShogiGame] = []
    while len(result) < count:
        game = ShogiGame(rng.choice(starts))
        for _ in range(rng.randrange(2, 30)):
            moves = list(game.legal_moves())
            if not moves:
                break
            game.play(rng.choice(moves))
        if game.legal_moves() and not game.in_check():
            result.append(ShogiGame(game.sfen(), evaluation="full"))
    return result


def test_offsets_are_seen_from_the_owner() -> None:
    king = 4 * 9 + 6  # 5g
    centre = 8 * 17 + 8
    assert ev.offset_index(king, king, False) == centre
    # One rank towards the enemy: rank - 1 for black, rank + 1 for white.
    assert ev.offset_index(king, king - 1, False) == centre - 17
    assert ev.offset_index(king, king + 1, True) == centre - 17
    assert ev.offset_index(81, 40, False) == ev.NO_KING
    for square in range(81):
        index = ev.offset_index(king, square, True)
        assert ev.offset_chebyshev(index) == max(abs(square // 9 - 4), abs(square % 9 - 6))
        assert ev.OFFSET[True][king * 82 + square] == index


def test_full_tables_by_offset_keep_their_distance_values() -> None:
    gold = ev.FULL.defend[cs.GOLD]
    assert [gold[ev.offset_index(40, 40 + step, False)] for step in (1, 2, 3, 4)] \
        == [45, 25, 8, 0]
    assert gold[ev.NO_KING] == 0


def planted(games: list[ShogiGame], tempo: int, silver: int) -> list[float]:
    """Black's-view targets: the full evaluation plus a planted side-to-move bonus and a
    planted value of each silver on the board."""
    targets: list[float] = []
    for game in games:
        board = game.board
        to_move = 1 if board.turn == cs.BLACK else -1
        silvers = sum((1 if piece >> 4 == cs.BLACK else -1)
                      for piece in board.pieces if piece and piece & 0xF == cs.SILVER)
        targets.append(to_move * game.evaluate() + tempo * to_move + silver * silvers)
    return targets


def test_fit_finds_a_planted_tempo_and_silver_value() -> None:
    games = _positions(240, seed=1)
    targets = planted(games, 70, 40)
    result = fit(games, targets, [1.0], scale=1.0)
    assert result.rms_present > 40
    assert result.rms[1.0] < result.rms_present / 5
    assert result.win_rms[1] < result.win_rms[0] / 3  # as expected scores too
    assert result.delta[EXTRA_AT + 3] == pytest.approx(70, abs=5)  # the tempo
    silver = result.delta[MATERIAL_AT + cs.SILVER - 1] \
        + np.mean(result.delta[(cs.SILVER - 1) * 81:cs.SILVER * 81])
    assert silver == pytest.approx(40, abs=15)


def test_written_tables_evaluate_as_the_features_predict(monkeypatch: pytest.MonkeyPatch) -> None:
    # Integer corrections everywhere, so that only the king-danger percentage rounds: the
    # tables built from them must score every position as present evaluation + features x
    # corrections.  A wrong perspective (a white piece's offset, a hand count) breaks this.
    rng = np.random.default_rng(7)
    delta = rng.integers(-30, 31, PARAMETERS).astype(float)
    delta[EXTRA_AT:EXTRA_AT + 4] = (0.25, 3.0, 40.0, 25.0)
    monkeypatch.setitem(ev.EVALUATIONS, "trial", replace(fitted_tables(delta), name="trial"))
    games = _positions(60, seed=2)
    x, prior = design(games)
    predicted = prior + x @ delta
    for game, value in zip(games, predicted, strict=True):
        scored = ShogiGame(game.sfen(), evaluation="trial")
        to_move = 1 if scored.board.turn == cs.BLACK else -1
        assert to_move * scored.evaluate() == pytest.approx(value, abs=2)
    assert abs(x[:, DEFEND_AT:ATTACK_AT]).sum() > 0 and abs(x[:, ATTACK_AT:HAND_AT]).sum() > 0
    assert WINDOW_CELL[8 * 17 + 8] == (CELLS - 1) // 2  # the own square: the window centre


def test_fit_compares_itself_with_the_evaluation_in_use_on_fresh_positions() -> None:
    # The evaluation "in use" here is the full one, blind to a planted silver value; the
    # fit must beat it on the held-out fresh positions, and count only those.
    games = _positions(240, seed=3)
    targets = planted(games, 0, 60)
    _, prior = design(games)
    fresh = [number % 3 == 0 for number in range(len(games))]
    result = fit(games, targets, [1.0], scale=1.0, in_use=prior, fresh=fresh)
    assert result.fresh is not None
    count, in_use, refit = result.fresh
    assert count == sum(1 for n in range(len(games)) if n % 3 == 0 and n % 2 == 1)
    assert in_use > 20 and refit < in_use / 3
    assert fit(games, targets, [1.0], scale=1.0).fresh is None


def test_perturbed_positions_are_one_quiet_non_hanging_move_away() -> None:
    sources = [" ".join(game.sfen().split()[:3]) for game in _positions(12, 5)]
    pairs = list(perturbed(sources, seed=3))
    assert [parent for _, parent in pairs] == sources[:len(pairs)]
    assert len(pairs) >= 10
    for sfen, parent in pairs:
        game = ShogiGame(parent + " 1")
        made = [move for move in game.legal_moves()
                if _after(game, move) == sfen]
        assert len(made) == 1, (parent, sfen)
        move = made[0]
        assert not game.board.piece(move & 0x7F), "a capture"
        assert not game.move_hangs_piece(move)
        game.play(move)
        assert not game.in_check() and game.legal_moves()
    assert list(perturbed(sources, seed=3)) == pairs
    assert list(perturbed(sources, seed=4)) != pairs


def _after(game: ShogiGame, move: int) -> str:
    """The SFEN (no move number) after ``move``, the game left as it was."""
    game.play(move)
    sfen = " ".join(game.board.sfen().split()[:3])
    game.undo()
    return sfen


def test_a_perturbed_label_counts_to_its_parents_game(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    games = [" ".join(game.sfen().split()[:3]) for game in _positions(3, 8)]
    child, parent = next(perturbed(games, seed=1))
    monkeypatch.setattr(bench.shogi_eval_fit, "origins", lambda first_ply: {parent: 7})
    position = ShogiGame(child + " 1")
    quiet = next(move for move in position.legal_moves()
                 if not position.board.piece(move & 0x7F))
    record = {"sfen": child, "score": 10, "best": position.move_to_text(quiet), "nodes": 1}
    labels = tmp_path / "labels.jsonl"
    labels.write_text(json.dumps({**record, "parent": parent}) + "\n" + json.dumps(record)
                      + "\n")
    _, targets, groups, _ = load_labels([labels], 2500)
    assert len(targets) == 2
    # With its parent: the parent's game; without: a group of its own (its number).
    assert groups == [7, 2]
