"""Where the Othello evaluation weights come from: a least-squares fit to exact endgame values.

Positions at 12-16 empties are reached by self-play that picks a random move half of the time
and otherwise the move with the best one-ply evaluation; each is solved exactly by the compiled
solver, and the seven features of ``sakiyomi.games.othello.evaluation`` are fitted to the exact
final disc difference (no intercept: the features are antisymmetric).  Prints the fitted
weights (hundredths of a disc) next to the ones in use, and the mean absolute error of both.
Usage: python bench/othello_eval_fit.py [--positions N] [--seed S]
"""

from __future__ import annotations

import argparse
import json
import random

import numpy as np

from sakiyomi.compiled.template import CompiledSearch, build
from sakiyomi.engines import CompiledEngine
from sakiyomi.games.othello import KERNEL_MODULE, KERNEL_PARAMS, Othello
from sakiyomi.games.othello.evaluation import N_FEATURES, WEIGHTS, evaluate_with, features
from sakiyomi.search.searcher import SearchConfig
from sakiyomi.search.solve import solve

NAMES = ("mobility", "potential mobility", "corners", "X-squares", "stability", "parity",
         "discs")


def sample(rng: random.Random, empties: int) -> Othello | None:
    """A position with ``empties`` empties from half-random, half-greedy self-play."""
    game = Othello()
    while game.empties() > empties:
        moves = list(game.legal_moves())
        if not moves:
            return None
        if rng.random() < 0.5:
            move = rng.choice(moves)
        else:
            scores = []
            for m in moves:
                game.play(m)
                scores.append(-game.evaluate())
                game.undo()
            move = moves[int(np.argmax(scores))]
        game.play(move)
    return game if game.legal_moves() else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    module = build(KERNEL_MODULE, dict(KERNEL_PARAMS))
    config = SearchConfig(killers=False, history=False, tt_capacity=1 << 20)
    search = CompiledSearch(module, config, shortcuts=False)
    rows: list[np.ndarray] = []
    targets: list[int] = []
    states: list[tuple[np.uint64, np.uint64]] = []
    while len(rows) < args.positions:
        game = sample(rng, rng.randint(12, 16))
        if game is None:
            continue
        p, o = (np.uint64(w) for w in game.kernel_state())
        f = np.zeros(N_FEATURES, dtype=np.int64)
        features(p, o, f)
        rows.append(f.astype(float))
        engine = CompiledEngine(game.copy(), config, workspace=search)  # a reset table
        targets.append(solve(engine.game, searcher=engine).value)
        states.append((p, o))
    x, y = np.array(rows), np.array(targets, dtype=float)
    fitted, *_ = np.linalg.lstsq(x, y, rcond=None)
    fitted_int = np.round(fitted * 100).astype(np.int64)
    current = np.array([evaluate_with(p, o, WEIGHTS) for p, o in states], dtype=float)
    refit = np.array([evaluate_with(p, o, fitted_int) for p, o in states], dtype=float)
    print(json.dumps({
        "positions": len(rows), "seed": args.seed,
        "fitted": dict(zip(NAMES, fitted_int.tolist(), strict=True)),
        "in_use": dict(zip(NAMES, WEIGHTS.tolist(), strict=True)),
        "mae_in_use": round(float(np.mean(np.abs(current - y))), 2),
        "mae_fitted": round(float(np.mean(np.abs(refit - y))), 2),
        "mae_zero": round(float(np.mean(np.abs(y))), 2)}))


if __name__ == "__main__":
    main()
