"""Fit king-relative piece-square corrections to Stockfish's static evaluation.

The evaluation's tables value a piece by its square alone; Stockfish's evaluation (NNUE)
values it by its square *and* where the kings stand, which is most of what king safety is.
``chess_king_tables`` adds to the tables a correction per (king placement, piece, square),
seen from each king in turn, that costs nothing per node (the corrected tables replace the
plain ones until a king changes placement).  This script makes its weights:

* ``sample``: positions the engine's own search evaluates.  From our recorded games'
  positions (ply >= 8, a seeded quarter of them), a node-limited search of the engine
  (``CHESS_CONFIG``) on a game that keeps every ``--every``-th position it evaluates
  (seeded); deduplicated; one JSON line per position with the game it came from (the group
  by which ``fit`` splits training from measuring).
* ``label``: Stockfish 15.1's static evaluation of each (``eval``, no search), from the side
  to move, appended (an interrupted run goes on).
* ``fit``: the residual of Stockfish's score (over the best single scale of ours) less our
  evaluation, ridge-fitted by conjugate gradients over the sparse king-relative features,
  games numbered 0 mod 5 held out; prints the held-out RMS before and after and writes the
  weights (``--write``) as ``sakiyomi/games/chess_king_weights.py``.

    python bench/chess_king_fit.py sample --out /tmp/pos.jsonl
    python bench/chess_king_fit.py label --positions /tmp/pos.jsonl --out labels.jsonl
    python bench/chess_king_fit.py fit --labels labels.jsonl --ridge 30 --write
"""

from __future__ import annotations

import sys
from pathlib import Path

if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)  # run as a script, bench/chess.py would shadow python-chess
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository: bench.*

import argparse
import json
import os
import random
from collections.abc import Callable, Iterator

import chess
import numpy as np

from bench.chess_eval_fit import RESULTS, StaticStockfish, game_moves
from sakiyomi.games import chess_king_tables as kt
from sakiyomi.games.chess import ChessGame
from sakiyomi.games.chess_endgame import ENDGAME_PHASE
from sakiyomi.games.chess_pst import PHASE_TOTAL
from sakiyomi.protocols.chess_engine import CHESS_CONFIG
from sakiyomi.search.limits import SearchAborted, StopSignal
from sakiyomi.search.searcher import Searcher

MAX_SCORE = 1500
WEIGHTS = Path(__file__).resolve().parent.parent / "src/sakiyomi/games/chess_king_weights.py"


class Recording(ChessGame):
    """A chess game that keeps a seeded sample of the positions it evaluates."""

    def __init__(self, board: chess.Board, every: int, rng: random.Random,
                 sink: list[str]) -> None:
        super().__init__(board)
        self.every, self.rng, self.sink = every, rng, sink

    def evaluate(self) -> int:
        if self.rng.randrange(self.every) == 0:
            self.sink.append(" ".join(self.board.fen().split()[:4]))
        return super().evaluate()


def roots(seed: int, share: int) -> Iterator[tuple[int, chess.Board]]:
    """A seeded 1/``share`` of our recorded games' positions from ply 8, with game numbers."""
    rng = random.Random(seed)
    for number, game in enumerate(game_moves(RESULTS)):
        board = chess.Board()
        for ply, text in enumerate(game.moves, start=1):
            board.push(chess.Move.from_uci(text))
            if ply >= 8 and not board.is_game_over() and rng.randrange(share) == 0:
                yield number, chess.Board(board.fen())


def sample(args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    seen: set[str] = set()
    with open(args.out, "w") as out:
        for n, (number, board) in enumerate(roots(args.seed, args.share)):
            if n % args.shards != args.shard:
                continue
            kept: list[str] = []
            game = Recording(board, args.every, rng, kept)
            searcher: Searcher[chess.Move] = Searcher(
                game, CHESS_CONFIG, stop=StopSignal(nodes=args.nodes))
            try:
                for depth in range(1, 64):
                    searcher.search(depth)
            except SearchAborted:
                pass
            for fen in kept:
                if fen not in seen:
                    seen.add(fen)
                    out.write(json.dumps({"fen": fen, "game": number}) + "\n")
    print(json.dumps({"positions": len(seen)}))


def label(args: argparse.Namespace) -> None:
    out = Path(args.out)
    done = set()
    if out.exists():
        done = {json.loads(line)["fen"] for line in out.read_text().splitlines() if line}
    static = StaticStockfish()
    load = round(os.getloadavg()[0], 2)
    try:
        with out.open("a") as sink:
            for line in Path(args.positions).read_text().splitlines():
                record = json.loads(line)
                if record["fen"] in done or chess.Board(record["fen"] + " 0 1").is_check():
                    continue
                record["stockfish"] = static(record["fen"] + " 0 1")
                record["load"] = load
                sink.write(json.dumps(record) + "\n")
    finally:
        static.close()


def quiet(args: argparse.Namespace) -> None:
    """Keep the labelled positions the static evaluation should score alone: outside the
    endgame rules, not in check, and left unchanged by our quiescence search (the tables
    without the corrections).
    """
    ChessGame.KING_TABLES = False
    kept = 0
    with open(args.out, "w") as out:
        for n, line in enumerate(Path(args.labels).read_text().splitlines()):
            if n % args.shards != args.shard:
                continue
            record = json.loads(line)
            game = ChessGame(chess.Board(record["fen"] + " 0 1"))
            if (min(game.table_phase(), PHASE_TOTAL) <= ENDGAME_PHASE or game.in_check()
                    or Searcher(game, CHESS_CONFIG).search(0) != game.evaluate()):
                continue
            kept += 1
            out.write(line + "\n")
    print(json.dumps({"quiet": kept}))


MATERIAL = 2 * kt.COLUMNS  # first of the ten material columns (five piece types x phase)


def rows(labels: list[dict[str, object]]) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                    np.ndarray, np.ndarray, np.ndarray]:
    """Sparse features (row index, column, value), our evaluation, the label and the game of
    every usable position (a score, |score| <= MAX_SCORE).  Columns: 2 x column + 0/1 the
    middlegame/endgame share of each king-relative column, then from ``MATERIAL`` the
    balance of pawns, knights, bishops, rooks and queens (middlegame, endgame share), from
    the side to move.
    """
    row_ix: list[int] = []
    cols: list[int] = []
    vals: list[float] = []
    ours: list[int] = []
    target: list[int] = []
    games: list[int] = []
    for record in labels:
        score = record["stockfish"]
        if not isinstance(score, int) or abs(score) > MAX_SCORE:
            continue
        board = chess.Board(str(record["fen"]) + " 0 1")
        game = ChessGame(board)
        mg_share = min(game.table_phase(), PHASE_TOTAL) / PHASE_TOTAL
        sign = 1 if board.turn else -1
        n = len(target)
        for column, weight in kt.features(board):
            row_ix += [n, n]
            cols += [2 * column, 2 * column + 1]
            vals += [sign * weight * mg_share, sign * weight * (1 - mg_share)]
        white = board.occupied_co[chess.WHITE]
        for index, pieces in enumerate((board.pawns, board.knights, board.bishops,
                                        board.rooks, board.queens)):
            balance = chess.popcount(pieces & white) - chess.popcount(pieces & ~white)
            if balance:
                row_ix += [n, n]
                cols += [MATERIAL + 2 * index, MATERIAL + 2 * index + 1]
                vals += [sign * balance * mg_share, sign * balance * (1 - mg_share)]
        ours.append(game.evaluate())
        target.append(score)
        games.append(int(record["game"]))  # type: ignore[call-overload]
    return (np.array(row_ix), np.array(cols), np.array(vals), np.array(ours, float),
            np.array(target, float), np.array(games))


def fit(args: argparse.Namespace) -> None:
    """Ridge fits of the corrections (one per ``--ridge``); ``--write`` the best held out.

    With ``--material`` the material balance is fitted too, without a penalty, and not
    written: the corrections then carry placement only (their mean over the squares would
    otherwise stand in for the difference between Stockfish's piece values and ours).  With
    ``--middlegame`` only the middlegame shares are fitted (the endgame's are 0).
    """
    ChessGame.KING_TABLES = False  # the residual is over the evaluation without them
    labels = [json.loads(line) for path in args.labels
              for line in Path(path).read_text().splitlines() if line]
    r, c, v, ours, target, games = rows(labels)
    keep = np.ones(len(c), bool)
    if not args.material:
        keep &= c < MATERIAL
    if args.middlegame:
        keep &= (c >= MATERIAL) | (c % 2 == 0)
    r, c, v = r[keep], c[keep], v[keep]
    n, width = len(target), MATERIAL + 10
    held = games % 5 == 0
    scale = float(ours[~held] @ target[~held] / (ours[~held] @ ours[~held]))
    residual = target / scale - ours  # in our centipawns
    train_rows = ~held[r]
    tr, tc, tv = r[train_rows], c[train_rows], v[train_rows]
    penalised = (np.arange(width) < MATERIAL).astype(float)
    # Columns no training row uses stay 0: a tiny penalty keeps the system definite.
    penalised[MATERIAL:] = 1e-6

    def matvec(w: np.ndarray, rr: np.ndarray, cc: np.ndarray, vv: np.ndarray) -> np.ndarray:
        return np.bincount(rr, weights=vv * w[cc], minlength=n)

    def rmatvec(x: np.ndarray, rr: np.ndarray, cc: np.ndarray, vv: np.ndarray) -> np.ndarray:
        return np.bincount(cc, weights=vv * x[rr], minlength=width)

    mask = (~held).astype(float)
    b = rmatvec(residual * mask, tr, tc, tv)
    shipped = c < MATERIAL
    best: tuple[float, np.ndarray, dict[str, object]] | None = None
    for strength in args.ridge:
        ridge = strength * (~held).sum() / 1000.0 * penalised  # per thousand training rows

        def normal(x: np.ndarray, ridge: np.ndarray = ridge) -> np.ndarray:
            out: np.ndarray = rmatvec(matvec(x, tr, tc, tv) * mask, tr, tc, tv) + ridge * x
            return out

        w = solve(normal, b, args.iterations)
        report: dict[str, object] = {
            "positions": n, "held_out": int(held.sum()), "scale": round(scale, 4),
            "ridge": strength, "material": args.material, "middlegame": args.middlegame,
            "load": round(os.getloadavg()[0], 2)}
        if args.material:
            report["material_fit"] = [round(float(x), 1) for x in w[MATERIAL:]]
        for name, pred in (
                ("ours", ours), ("ours_scaled", ours * scale),
                ("fitted_scaled", (ours + matvec(w, r, c, v)) * scale),
                ("shipped_scaled", (ours + matvec(w, r[shipped], c[shipped],
                                                  v[shipped])) * scale)):
            for part, sel in (("train", ~held), ("held", held)):
                report[f"rms_{name}_{part}"] = round(float(np.sqrt(np.mean(
                    (pred[sel] - target[sel]) ** 2))), 1)
        print(json.dumps(report), flush=True)
        held_rms = float(report["rms_shipped_scaled_held"])  # type: ignore[arg-type]
        if best is None or held_rms < best[0]:
            best = (held_rms, w, report)
    if args.write and best is not None:
        weights = np.rint(best[1][:MATERIAL]).astype(int).reshape(kt.COLUMNS, 2)
        write_weights(weights, best[2])


def solve(normal: Callable[[np.ndarray], np.ndarray], b: np.ndarray, iterations: int
          ) -> np.ndarray:
    """Conjugate gradients for ``normal(w) = b`` (symmetric positive definite)."""
    w = np.zeros_like(b)
    res = b.copy()
    p = res.copy()
    rs = res @ res
    for _ in range(iterations):
        ap = normal(p)
        alpha = rs / (p @ ap)
        w += alpha * p
        res -= alpha * ap
        rs_new = res @ res
        if rs_new < 1e-12 * (b @ b):
            break
        p = res + (rs_new / rs) * p
        rs = rs_new
    return w


def write_weights(weights: np.ndarray, report: dict[str, object]) -> None:
    """``chess_king_weights.py``: the correction per column (middlegame, endgame)."""
    lines = [
        '"""Generated by bench/chess_king_fit.py fit --write: king-relative corrections to the',
        "chess tables (centipawns, (middlegame, endgame) per column of chess_king_tables).",
        "",
        "Fit:",
        *(f"    {key}: {value}" for key, value in report.items()),
        '"""',
        "",
        "# fmt: off",
        "WEIGHTS: tuple[tuple[int, int], ...] = (",
    ]
    for start in range(0, len(weights), 6):
        chunk = ", ".join(f"({mg}, {eg})" for mg, eg in weights[start:start + 6])
        lines.append(f"    {chunk},")
    lines += [")", "# fmt: on", ""]
    WEIGHTS.write_text("\n".join(lines))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("sample")
    s.add_argument("--out", required=True)
    s.add_argument("--seed", type=int, default=29)
    s.add_argument("--share", type=int, default=4)
    s.add_argument("--nodes", type=int, default=800)
    s.add_argument("--every", type=int, default=8)
    s.add_argument("--shard", type=int, default=0)
    s.add_argument("--shards", type=int, default=1)
    s.set_defaults(run=sample)
    q = sub.add_parser("quiet")
    q.add_argument("--labels", required=True)
    q.add_argument("--out", required=True)
    q.add_argument("--shard", type=int, default=0)
    q.add_argument("--shards", type=int, default=1)
    q.set_defaults(run=quiet)
    lab = sub.add_parser("label")
    lab.add_argument("--positions", required=True)
    lab.add_argument("--out", required=True)
    lab.set_defaults(run=label)
    f = sub.add_parser("fit")
    f.add_argument("--labels", nargs="+", required=True)
    f.add_argument("--ridge", type=float, nargs="+", default=[3.0, 10.0, 30.0, 100.0, 300.0])
    f.add_argument("--iterations", type=int, default=300)
    f.add_argument("--material", action="store_true")
    f.add_argument("--middlegame", action="store_true")
    f.add_argument("--write", action="store_true")
    f.set_defaults(run=fit)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
