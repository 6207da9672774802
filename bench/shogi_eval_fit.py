"""Where the fitted shogi evaluation comes from: a regularised least-squares fit of piece
placement, king-relative placement and hand values to a stronger engine's scores of positions
from our own games.

Three steps (and an optional fourth), each its own subcommand, so that a killed run loses
nothing:

* ``positions`` — replays every game of ``bench/results/shogi/*.jsonl`` (our matches against
  fairy-stockfish, YaneuraOu and ourselves) and keeps the positions from ply 16 on where the
  side to move is not in check and the last move was not a capture, deduplicated by SFEN
  (without the move number) and shuffled.  Writes one SFEN a line.
* ``perturb`` (optional) — one random quiet move off each position of a ``positions`` file
  (the move captures nothing and does not leave its piece to be won, and the opponent is not
  in check): the positions the search evaluates off the games' lines.  Writes the SFEN and,
  after a tab, the position it came from; ``label`` keeps that as ``parent`` and ``fit``
  counts the position to its parent's game.
* ``label`` — asks fairy-stockfish (Debian's package, started as ``bench/shogi.py`` starts
  it: one thread, the shogi variant) for its score of each position at ``--nodes`` nodes,
  after ``usinewgame`` (no table carried between positions); appends ``{"sfen", "score",
  "best", "nodes"}`` lines, skipping SFENs already labelled.
* ``fit`` — the model is ``shogi_eval.Tables`` with king-relative cells (a piece's value by
  its owner-relative square, by its offset from its own king and from the enemy king, within
  ±4 files and ranks, else "far"), cumulative hand values and the evaluation-time terms (king
  danger, slider mobility) as features.  The fit is ridge regression *towards the present
  full evaluation* (``Tables`` converted to offsets): the data moves a weight only as far as
  it has evidence, and a rare piece keeps the hand-set value.  Positions whose best move is a
  capture or whose score is beyond ``--max-score`` are left out (the labels there are
  tactics, not placement).  Half the positions (every other one) fit, the other half measure
  the root mean square error, against the present evaluation at its best scale.  With
  ``--write`` the tables go to ``src/sakiyomi/games/shogi_fitted.py``.

Scale: fairy-stockfish's centipawns are not ours (a pawn ~ 100-130 there, 90 here, and its
king-safety swings are larger).  The targets are divided by the factor that best maps our
present evaluation onto its scores, so the fitted tables keep the scale our search margins
were tuned for.

Run: ``python bench/shogi_eval_fit.py positions > P; python bench/shogi_eval_fit.py label P
--nodes 20000 --out L.jsonl; python bench/shogi_eval_fit.py fit L.jsonl [--write]``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for bench.shogi

import argparse
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, replace

import cshogi
import numpy as np
from cshogi.usi import Engine

from bench.shogi import setup, start_opponent
from sakiyomi.games import shogi_eval as ev
from sakiyomi.games import shogi_facade as cs
from sakiyomi.games.shogi import ShogiGame
from sakiyomi.games.shogi_threats import ThreatMaps

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "bench" / "results" / "shogi"


def game_positions(moves: list[str], first_ply: int) -> Iterator[str]:
    """SFENs (no move number) of the quiet positions of one game from ``first_ply`` on: not
    in check, and the move that led there captured nothing.
    """
    board = cshogi.Board()
    for ply, text in enumerate(moves):
        move = board.move_from_usi(text)
        if not move or not board.is_legal(move):
            return
        captured = board.piece(cshogi.move_to(move)) if not cshogi.move_is_drop(move) else 0
        board.push(move)
        if ply + 1 >= first_ply and not captured \
                and not board.is_check() and not board.is_game_over():
            yield " ".join(board.sfen().split()[:3])


def origins(first_ply: int) -> dict[str, int]:
    """Every recorded game's quiet positions, each with the number of the first game (in
    file order) that reached it.
    """
    seen: dict[str, int] = {}
    number = 0
    for path in sorted(GAMES.glob("*.jsonl")):
        for line in path.read_text().splitlines():
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(record, dict) and isinstance(record.get("moves"), str):
                number += 1
                for sfen in game_positions(record["moves"].split(), first_ply):
                    seen.setdefault(sfen, number)
    return seen


def positions(first_ply: int, seed: int) -> list[str]:
    """The deduplicated quiet positions of every recorded game, shuffled (``seed``) so that
    any prefix of the labels is a sample of all games.
    """
    result = list(origins(first_ply))
    random.Random(seed).shuffle(result)
    return result


def perturbed(sources: list[str], seed: int) -> Iterator[tuple[str, str]]:
    """One position one random move away from each of ``sources`` (SFENs without a move
    number), with its source: the move captures nothing, does not leave the moved piece to
    be won (``ShogiGame.move_hangs_piece``: such a move is answered by a capture, and labels
    with a capture as the best move are not fitted), and leaves the opponent quiet (not in
    check, not mated).  These are the positions the search meets off the game's line, where
    a piece stands where no game put it; drawn uniformly from the qualifying moves.
    """
    chooser = random.Random(seed)
    for source in sources:
        game = ShogiGame(source + " 1")
        board = game.board
        choices = [move for move in game.legal_moves() if not board.piece(move & 0x7F)]
        chooser.shuffle(choices)
        for move in choices:
            if game.move_hangs_piece(move):
                continue
            game.play(move)
            quiet = not board.is_check() and bool(game.legal_moves())
            sfen = " ".join(board.sfen().split()[:3])
            game.undo()
            if quiet:
                yield sfen, source
                break


def fsf_score(engine: Engine, sfen: str, nodes: int,
              mate: int | None = None) -> tuple[int | None, str]:
    """Fairy-stockfish's score of ``sfen`` (without a move number) at ``nodes`` (centipawns,
    the side to move's view; a mate: None, or ``±mate`` when ``mate`` is given) and its best
    move, after ``usinewgame`` (no table carried over).
    """
    lines: list[str] = []
    engine.usinewgame()
    engine.position(sfen=f"sfen {sfen} 1")
    best, _ = engine.go(nodes=nodes, listener=lines.append)
    value: int | None = None
    for line in lines:
        words = line.split()
        if "score" in words and "multipv" in words and words[words.index("multipv") + 1] != "1":
            continue
        if "score" in words:
            kind, number = words[words.index("score") + 1: words.index("score") + 3]
            value = int(number) if kind == "cp" else None if mate is None \
                else -mate if number.startswith("-") else mate
    return value, best


def label(source: Path, out: Path, nodes: int) -> None:
    """Label every SFEN of ``source`` not yet in ``out`` (appending, flushed a line at a time)."""
    done = set()
    if out.exists():
        done = {json.loads(line)["sfen"] for line in out.read_text().splitlines() if line}
    # A line is an SFEN, or an SFEN and the position it came from (``perturb``), tab between.
    rows = (line.split("\t") for line in source.read_text().splitlines() if line)
    todo = [fields for fields in rows if fields[0] not in done]
    engine = start_opponent("fsf", setup(), ["USI_Hash=16"])
    if engine is None:
        raise SystemExit("fairy-stockfish is missing (bench/shogi.py installs Debian's package "
                         "when run as root)")
    with out.open("a") as sink:
        for number, (sfen, *parent) in enumerate(todo):
            value, best = fsf_score(engine, sfen, nodes)
            record = {"sfen": sfen, "score": value, "best": best, "nodes": nodes}
            if parent:
                record["parent"] = parent[0]
            sink.write(json.dumps(record) + "\n")
            sink.flush()
            if number % 500 == 0:
                print(f"{number} of {len(todo)}", file=sys.stderr, flush=True)
    engine.quit()


# Parameter layout of the fit: corrections to the present full evaluation.
TYPES = 14  # cshogi piece types 1..14 (8: the king)
WINDOW = 4  # king-relative offsets fitted one by one within this many files and ranks
CELLS = (2 * WINDOW + 1) ** 2 + 1  # ... and one shared correction for all farther ones
HAND_STEPS = 5  # hand corrections for the 1st .. 4th piece of a kind, one for the 5th on
EXTRAS = ("king danger", "slider mobility", "mate threat", "tempo", *ev.THREAT_TERMS)
BASE_AT = 0
MATERIAL_AT = BASE_AT + TYPES * 81
DEFEND_AT = MATERIAL_AT + TYPES
ATTACK_AT = DEFEND_AT + TYPES * CELLS
HAND_AT = ATTACK_AT + TYPES * CELLS
EXTRA_AT = HAND_AT + 7 * HAND_STEPS
# Coarse corrections shared by many cells, fitted more freely than the cells themselves: by
# the owner-relative rank, by the distance from the edge file, and by the king-step distance
# from the own and from the enemy king (so a cell seen a few times follows its neighbours).
RANK_AT = EXTRA_AT + len(EXTRAS)
EDGE_AT = RANK_AT + TYPES * 9
NEAR_OWN_AT = EDGE_AT + TYPES * 5
NEAR_ENEMY_AT = NEAR_OWN_AT + TYPES * 10
PARAMETERS = NEAR_ENEMY_AT + TYPES * 10


def window_cell(index: int) -> int | None:
    """The fitted cell of a king-relative offset index (None: no king on the board)."""
    if index == ev.NO_KING:
        return None
    ranks, files = ev.offset_steps(index)
    if abs(ranks) <= WINDOW and abs(files) <= WINDOW:
        return (ranks + WINDOW) * (2 * WINDOW + 1) + files + WINDOW
    return CELLS - 1


WINDOW_CELL = [window_cell(index) for index in range(ev.NO_KING + 1)]
THREAT_MAPS = ThreatMaps(ev.FULL.material)  # the threat terms' attack maps (one scratch)


def features(game: ShogiGame) -> tuple[dict[int, float], int]:
    """The position's feature counts (black's view: a white piece counts -1) and the present
    full evaluation of it, from black's side (``game`` must evaluate with ``FULL``).
    """
    if game.tables is not ev.FULL:
        raise ValueError("features are corrections to the full evaluation: "
                         "make the game with evaluation='full'")
    board = game.board
    x: dict[int, float] = {}

    def add(column: int, value: float) -> None:
        x[column] = x.get(column, 0.0) + value

    kings = (board.king_square(cs.BLACK), board.king_square(cs.WHITE))
    for square, piece in enumerate(board.pieces):
        if not piece:
            continue
        piece_type, color = piece & 0xF, piece >> 4
        white = color == cs.WHITE
        sign = -1.0 if white else 1.0
        relative = 80 - square if white else square
        row = piece_type - 1
        add(BASE_AT + row * 81 + relative, sign)
        add(RANK_AT + row * 9 + relative % 9, sign)
        add(EDGE_AT + row * 5 + min(relative // 9, 8 - relative // 9), sign)
        if piece_type == cs.KING:
            continue
        add(MATERIAL_AT + row, sign)
        offsets = ev.OFFSET[white]
        for at, near, king in ((DEFEND_AT, NEAR_OWN_AT, kings[color]),
                               (ATTACK_AT, NEAR_ENEMY_AT, kings[color ^ 1])):
            index = offsets[king * 82 + square]
            cell = WINDOW_CELL[index]
            if cell is not None:
                add(at + row * CELLS + cell, sign)
                add(near + row * 10 + ev.offset_chebyshev(index), sign)
    for color, hand in enumerate(board.pieces_in_hand):
        sign = -1.0 if color else 1.0
        for kind, count in enumerate(hand):
            for step in range(1, count + 1):
                add(HAND_AT + kind * HAND_STEPS + min(step, HAND_STEPS) - 1, sign)
    tables = ev.FULL
    black_hand, white_hand = board.pieces_in_hand
    danger = ev.king_danger(tables, board, cs.WHITE, black_hand) \
        - ev.king_danger(tables, board, cs.BLACK, white_hand)
    to_move = 1.0 if board.turn == cs.BLACK else -1.0
    threat = game.mate_threat_penalty(board)
    threats = ev.threat_features(THREAT_MAPS, board, board.pieces, tables.hand_threat)
    extras = (danger, float(ev.slider_mobility(board.pieces)),
              -to_move * (1.0 if threat else 0.0), to_move,
              *(to_move * value for value in threats))
    for number, value in enumerate(extras):
        if value:
            add(EXTRA_AT + number, value)
    return x, round(to_move * game.evaluate())


def load_labels(paths: list[Path], max_score: int
                ) -> tuple[list[ShogiGame], list[float], list[int], list[bool]]:
    """The labelled positions of ``paths`` (in turn) worth fitting: a centipawn score within
    ``max_score`` whose best move takes nothing (black's view of the score), the game each
    came from, and whether it comes from the last of ``paths`` (``fit``'s fresh positions).
    """
    game_of = origins(16)
    games, targets, groups, last = [], [], [], []
    lines = [(number == len(paths) - 1, line) for number, path in enumerate(paths)
             for line in path.read_text().splitlines()]
    for fresh, line in lines:
        record = json.loads(line)
        if record["score"] is None or abs(record["score"]) > max_score:
            continue
        game = ShogiGame(record["sfen"] + " 1", evaluation="full")
        best = game.move_from_text(record["best"])
        source = (best >> 7) & 0x7F
        if source < 81 and (best >> 20) & 0xF:
            continue
        games.append(game)
        targets.append(record["score"] if game.board.turn == cs.BLACK else -record["score"])
        # A perturbed position belongs to the game of the position it came from, so that
        # the split by game keeps it out of the measurement of its source.
        groups.append(game_of.get(record.get("parent", record["sfen"]), len(games)))
        last.append(fresh)
    return games, targets, groups, last


def in_use_values(games: list[ShogiGame]) -> np.ndarray:
    """The evaluation in use (the engine's default) of each position, black's view."""
    values = []
    for game in games:
        board = game.board
        now = ShogiGame(" ".join(board.sfen().split()[:3]) + " 1")
        values.append(now.evaluate() if board.turn == cs.BLACK else -now.evaluate())
    return np.array(values, dtype=float)


def penalties(strength: float) -> np.ndarray:
    """Ridge weights by parameter group: the tables' cells at ``strength`` (a cell seen n
    times moves n / (n + strength) of the way to its least-squares value), material, hand and
    the evaluation-time terms far more freely.
    """
    weights = np.full(PARAMETERS, strength)
    weights[MATERIAL_AT:DEFEND_AT] = strength / 100
    weights[HAND_AT:EXTRA_AT] = strength / 10
    weights[EXTRA_AT:RANK_AT] = 1e-3
    weights[RANK_AT:] = strength / 10
    return weights


def design(games: list[ShogiGame]) -> tuple[np.ndarray, np.ndarray]:
    """The feature matrix (a row a position) and the present evaluation (black's view)."""
    rows = [features(game) for game in games]
    x = np.zeros((len(rows), PARAMETERS))
    for number, (columns, _) in enumerate(rows):
        for column, value in columns.items():
            x[number, column] = value
    return x, np.array([value for _, value in rows], dtype=float)


def corrections(gram: np.ndarray, right: np.ndarray, strength: float) -> np.ndarray:
    """The ridge solution at ``strength`` from the normal equations ``gram`` (XᵀX) and
    ``right`` (Xᵀ residual), which every strength shares.
    """
    return np.linalg.solve(gram + np.diag(penalties(strength)), right)


@dataclass
class Fit:
    """What ``fit`` found: the scale (fairy-stockfish's cp per ours), the held-out root mean
    square errors (ours; the present evaluation's and per ridge strength) and the same errors
    as expected scores (``win_rms``: the logistic curve at ``win_scale`` of fairy-stockfish's
    cp, the present evaluation's first), the strength that measured best and its corrections
    refitted on every position.
    """

    positions: int
    scale: float
    rms_present: float
    rms: dict[float, float]
    win_rms: list[float]
    strength: float
    delta: np.ndarray
    # On the held-out positions of the last labels file (``fresh``), which the evaluation
    # in use was not fitted to: (positions, its RMS, the best strength's RMS), ours.
    fresh: tuple[int, float, float] | None = None


def expected_score(centipawns: np.ndarray, win_scale: float) -> np.ndarray:
    """The side's expected score at ``centipawns`` (fairy-stockfish's) on the logistic curve
    that reaches 73 % at ``win_scale``.
    """
    return 1 / (1 + np.exp(-centipawns / win_scale))


def fit(games: list[ShogiGame], targets: list[float], strengths: list[float],
        scale: float | None = None, groups: list[int] | None = None,
        win_scale: float = 600, in_use: np.ndarray | None = None,
        fresh: list[bool] | None = None) -> Fit:
    """Fit on the positions of even-numbered ``groups`` (games; default: every other
    position) and measure on the rest, for each ridge strength; then refit the best on all.
    Splitting by game keeps a game's neighbouring positions out of its own measurement.
    ``scale``: the targets' units per ours (None: fitted).  ``win_scale``: for the error
    as expected scores.  Weighting each position by the expected score's slope at its
    label, or a Gauss-Newton fit to expected scores, measured worse as expected scores on the
    44,175 labels of session 23: 0.131 against 0.129.  ``in_use`` (the evaluation in use,
    black's view, ours) and ``fresh`` (positions it was not fitted to): both measured on the
    held-out fresh positions, so that a refit is compared with what it would replace.
    """
    x, prior = design(games)
    y = np.array(targets, dtype=float)
    if scale is None:
        scale = float(prior @ y / (prior @ prior))
    wins = expected_score(y, win_scale)
    y = y / scale
    odd = np.array(groups if groups is not None else range(len(y))) % 2 == 1
    train, test = ~odd, odd
    fitting = x[train]
    gram, right = fitting.T @ fitting, fitting.T @ (y[train] - prior[train])

    def errors(values: np.ndarray) -> tuple[float, float]:
        """Held-out RMS of ``values`` (ours), and as expected scores."""
        cp = float(np.sqrt(np.mean((y[test] - values) ** 2)))
        win = expected_score(values * scale, win_scale) - wins[test]
        return cp, float(np.sqrt(np.mean(win ** 2)))

    present, win_present = errors(prior[test])
    rms, win_rms = {}, [win_present]
    for strength in strengths:
        delta = corrections(gram, right, strength)
        rms[strength], win = errors(prior[test] + x[test] @ delta)
        win_rms.append(win)
    best = min(rms, key=lambda strength: rms[strength])
    compared = None
    if in_use is not None and fresh is not None:
        mask = test & np.array(fresh)
        if mask.any():
            refit = prior[mask] + x[mask] @ corrections(gram, right, best)
            compared = (int(mask.sum()), float(np.sqrt(np.mean((y[mask] - in_use[mask]) ** 2))),
                        float(np.sqrt(np.mean((y[mask] - refit) ** 2))))
    return Fit(len(y), scale, present, rms, win_rms, best,
               corrections(x.T @ x, x.T @ (y - prior), best), compared)


def report(result: Fit) -> None:
    """Print the fit's numbers: errors in fairy-stockfish's centipawns and in ours, and as
    expected scores.
    """
    scale = result.scale
    print(f"positions {result.positions}; scale {scale:.3f} of fairy-stockfish's cp per ours; "
          f"held-out RMS of the present evaluation {result.rms_present * scale:.0f} "
          f"(ours {result.rms_present:.0f}; expected score {result.win_rms[0]:.4f})")
    for (strength, rms), win in zip(result.rms.items(), result.win_rms[1:], strict=True):
        print(f"ridge {strength:>7.0f}: held-out RMS {rms * scale:.0f}  (ours {rms:.0f}; "
              f"expected score {win:.4f})")
    if result.fresh is not None:
        count, in_use, refit = result.fresh
        print(f"on {count} held-out positions of the last labels file: the evaluation in use "
              f"{in_use * scale:.0f}, this fit at ridge {result.strength:.0f} "
              f"{refit * scale:.0f} (fairy-stockfish's cp)")
    delta = result.delta
    print(f"refit on all at ridge {result.strength:.0f}: material corrections",
          [round(v) for v in delta[MATERIAL_AT:DEFEND_AT]],
          "extras", dict(zip(EXTRAS, [round(float(v), 3) for v in delta[EXTRA_AT:RANK_AT]],
                             strict=True)))

FITTED = ROOT / "src" / "sakiyomi" / "games" / "shogi_fitted.py"


def fitted_tables(delta: np.ndarray) -> ev.Tables:
    """The full evaluation's tables with the fitted corrections added, rounded."""
    full = ev.FULL
    base, defend, attack = [tuple(full.base[0])], [tuple(full.defend[0])], [tuple(full.attack[0])]
    for piece_type in range(1, TYPES + 1):
        kind = piece_type - 1
        shift = 0.0 if piece_type == cs.KING else delta[MATERIAL_AT + kind]
        base.append(tuple(round(full.base[piece_type][square] + shift
                                + delta[BASE_AT + kind * 81 + square]
                                + delta[RANK_AT + kind * 9 + square % 9]
                                + delta[EDGE_AT + kind * 5 + min(square // 9, 8 - square // 9)])
                          for square in range(81)))
        for rows, old, at, near in ((defend, full.defend, DEFEND_AT, NEAR_OWN_AT),
                                    (attack, full.attack, ATTACK_AT, NEAR_ENEMY_AT)):
            row = []
            for index in range(ev.NO_KING + 1):
                cell = WINDOW_CELL[index]
                value = old[piece_type][index]
                if cell is not None and piece_type != cs.KING:
                    value += delta[at + kind * CELLS + cell] \
                        + delta[near + kind * 10 + ev.offset_chebyshev(index)]
                row.append(round(value))
            rows.append(tuple(row))
    hand = []
    for kind in range(7):
        total, row = 0.0, [0]
        for count in range(1, 19):
            total += full.hand[kind][count] - full.hand[kind][count - 1] \
                + delta[HAND_AT + kind * HAND_STEPS + min(count, HAND_STEPS) - 1]
            row.append(round(total))
        hand.append(tuple(row))
    return replace(full, name="fitted", base=tuple(base), defend=tuple(defend),
                   attack=tuple(attack), hand=tuple(hand),
                   safety_percent=round(100 * (1 + delta[EXTRA_AT])),
                   mobility=round(full.mobility + delta[EXTRA_AT + 1]),
                   mate_threat=round(full.mate_threat + delta[EXTRA_AT + 2]),
                   tempo=round(delta[EXTRA_AT + 3]),
                   threats=tuple(round(100 * delta[EXTRA_AT + 4 + number])
                                 for number in range(len(ev.THREAT_TERMS))))


def _rows(table: tuple[tuple[int, ...], ...], width: int) -> str:
    """A table as Python source, ``width`` numbers a line in columns (half as many when a
    line would pass the 100 characters the project's lines keep to).
    """
    lines = ["("]
    for row in table:
        lines.append("    (")
        for start in range(0, len(row), width):
            chunk = row[start:start + width]
            text = "       " + "".join(f"{v:>4}," for v in chunk)
            if len(text) > 100:
                half = (len(chunk) + 1) // 2
                text = "       " + "".join(f"{v:>4}," for v in chunk[:half]) + "\n" \
                    + "       " + "".join(f"{v:>4}," for v in chunk[half:])
            lines.append(text)
        lines.append("    ),")
    lines.append(")")
    return "\n".join(lines)


def write_tables(result: Fit, labels: Path) -> None:
    """Write ``shogi_fitted.py``: the fitted tables and where they came from."""
    tables = fitted_tables(result.delta)
    positions, scale, strength = result.positions, result.scale, result.strength
    header = f'''"""The fitted shogi evaluation (numbers only; bench/shogi_eval_fit.py wrote them).

The full evaluation (``shogi_eval.FULL``) corrected by a ridge regression towards it: {positions}
quiet positions of our own recorded games (bench/results/shogi) or one random quiet move off
them (``perturb``), each scored by fairy-stockfish
11.1 (Debian's package) at {json.loads(labels.read_text().splitlines()[0])["nodes"]} nodes,
its centipawns divided by {scale:.3f} (the factor that maps our full evaluation onto them best);
ridge strength {strength:.0f}.  Layout as in ``shogi_eval.Tables``: ``BASE[type][square]`` by
the owner-relative square, ``DEFEND`` / ``ATTACK[type][offset]`` by ``shogi_eval.offset_index``
from the piece's own / the enemy king (17 per line: one rank of offsets), ``HAND[kind][n]``
the value of n pieces of a kind in hand; the king-danger term in percent of the full
evaluation's, the slider mobility weight, the mate-threat penalty, the side to move's bonus and
the weights of ``shogi_eval.THREAT_TERMS`` (hundredths of a centipawn per unit).
"""

from __future__ import annotations
'''
    body = [header]
    for name, table, width in (("BASE", tables.base, 9), ("DEFEND", tables.defend, 17),
                               ("ATTACK", tables.attack, 17), ("HAND", tables.hand, 10)):
        body.append(f"{name}: tuple[tuple[int, ...], ...] = {_rows(table, width)}\n")
    for name, number in (("SAFETY_PERCENT", tables.safety_percent),
                         ("MOBILITY", tables.mobility), ("MATE_THREAT", tables.mate_threat),
                         ("TEMPO", tables.tempo)):
        body.append(f"{name} = {number}\n")
    body.append(f"THREATS: tuple[int, ...] = {tables.threats!r}\n")
    FITTED.write_text("\n".join(body))
    print(f"wrote {FITTED}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    pos = sub.add_parser("positions")
    pos.add_argument("--first-ply", type=int, default=16)
    pos.add_argument("--seed", type=int, default=22)
    pert = sub.add_parser("perturb", help="one random quiet move off each position of a "
                          "positions file; writes SFEN, tab, source SFEN a line")
    pert.add_argument("source", type=Path)
    pert.add_argument("--seed", type=int, default=26)
    lab = sub.add_parser("label")
    lab.add_argument("source", type=Path)
    lab.add_argument("--out", type=Path, required=True)
    lab.add_argument("--nodes", type=int, default=20_000)
    fitting = sub.add_parser("fit")
    fitting.add_argument("labels", type=Path, nargs="+", help="labels files, read in turn")
    fitting.add_argument("--max-score", type=int, default=2500)
    fitting.add_argument("--ridge", type=float, nargs="*", default=[10, 30, 100, 300, 1000])
    fitting.add_argument("--scale", type=float, help="fairy-stockfish's cp per ours "
                         "(default: the least-squares factor from our present evaluation)")
    fitting.add_argument("--win-scale", type=float, default=600,
                         help="fairy-stockfish's cp at which the expected score is 73 %%")
    fitting.add_argument("--write", action="store_true")
    args = parser.parse_args()
    checks: list[tuple[str, float]] = []  # (flag, a number that must be positive)
    if args.command == "label":
        source, checks = args.source, [("--nodes", args.nodes)]
    elif args.command == "perturb":
        source = args.source
    elif args.command == "fit":
        if not args.ridge:
            parser.error("--ridge needs at least one strength")
        source = next((path for path in args.labels if not path.is_file()), args.labels[0])
        checks = [("--max-score", args.max_score), ("--win-scale", args.win_scale),
                  *(("--ridge", r) for r in args.ridge)]
        if args.scale is not None:
            checks.append(("--scale", args.scale))
    if args.command != "positions" and not source.is_file():
        parser.error(f"no such file: {source}")
    for flag, number in checks:
        if not number > 0:
            parser.error(f"{flag} must be positive, not {number}")
    try:
        if args.command == "positions":
            for sfen in positions(args.first_ply, args.seed):
                print(sfen)
        elif args.command == "perturb":
            sources = [line for line in args.source.read_text().splitlines() if line]
            for sfen, parent in perturbed(sources, args.seed):
                print(f"{sfen}\t{parent}")
        elif args.command == "label":
            label(args.source, args.out, args.nodes)
        elif args.command == "fit":
            games, targets, groups, fresh = load_labels(args.labels, args.max_score)
            if len(games) < 2:
                parser.error(f"{' '.join(map(str, args.labels))}: fewer than two usable "
                             "labelled positions")
            result = fit(games, targets, args.ridge, args.scale, groups, args.win_scale,
                         in_use_values(games), fresh)
            report(result)
            if args.write:
                write_tables(result, args.labels[0])
    except (ValueError, KeyError, TypeError) as exc:  # a malformed line of a labels file
        parser.error(f"malformed input: {exc}")


if __name__ == "__main__":
    main()
