"""Match statistics for every bench that plays games: the Elo of a score, its 95 % interval,
the likelihood of superiority, game pairs, and a sequential probability ratio test (SPRT).

Why one module: the benches each had their own Elo function and interval (Wilson's in two,
a normal approximation in another), so the same record could be reported two ways.  Here is
the one way, and, run as a command, a summary of any number of match records (shards of one
match, or runs with other seeds, pooled; a pair is two games of one file):

    python -m bench.match_stats bench/results/shogi/X.jsonl [Y.jsonl ...] [--sprt 0 40]

Definitions (the logistic model throughout: a score share s is worth
``-400·log10(1/s - 1)`` Elo):

* **Interval**: Wilson's score interval of the mean score (draws half a point), turned into
  Elo; it stays finite on the other side at 0 % and 100 %.
* **LOS** (likelihood of superiority): ``Φ((W - L) / √(W + L))``, the chance that the
  candidate is the stronger, draws carrying no information.
* **Pairs**: our matches play each opening with both colours (games 2k and 2k+1).  The mean
  of a pair's two scores (0, ¼, ½, ¾ or 1: the "pentanomial" count) varies less than single
  games when the opening decides much of the result, so an interval or a test on pairs needs
  fewer games for the same confidence.
* **SPRT**: H0 "the candidate is ``elo0`` stronger" against H1 "``elo1`` stronger", tested as
  games arrive; the log-likelihood ratio in the normal approximation (generalised SPRT) over
  the pairs' means, ``n·(s1 - s0)·(2·m - s0 - s1) / (2·v)`` with ``m``, ``v`` the mean and
  variance of the ``n`` samples and ``s0``, ``s1`` the scores of ``elo0``, ``elo1``.  The
  test stops at ``ln(β/(1-α))`` (H0 accepted) or ``ln((1-β)/α)`` (H1 accepted): with
  ``α = β = 0.05`` a change worth ``elo0`` is kept 5 % of the time, one worth ``elo1``
  dropped 5 % of the time, and a clear result stops early.  (Wald's test, as fishtest uses it
  for Stockfish's patches; the formulas are written here from that definition.)
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

Z95 = 1.959963984540054  # the normal quantile of 97.5 %
MIN_PAIRS = 8  # the SPRT decides nothing on fewer pairs: their variance means little yet
VARIANCE_FLOOR = 1e-4  # all pairs alike: the variance is not 0 but unknown and small
FILE_STRIDE = 1 << 32  # game numbers of the n-th record file start at n times this
RESULT_SCORE = {"W": 1.0, "D": 0.5, "L": 0.0}  # a game's result letter, as a score
CHESS_RESULT_SCORE = {"win": 1.0, "draw": 0.5, "loss": 0.0}  # bench/chess.py's words


def elo(score: float) -> float | None:
    """Elo difference for a score share (logistic model); None at 0 or 1 (unbounded)."""
    if not 0 < score < 1:
        return None
    return -400 * math.log10(1 / score - 1)


def expected_score(difference: float) -> float:
    """The score share of a side ``difference`` Elo stronger (the inverse of ``elo``)."""
    return 1 / (1 + 10 ** (-difference / 400))


def elo_interval(wins: int, draws: int, losses: int
                 ) -> tuple[float, float | None, float | None]:
    """(score, Elo at the low end, Elo at the high end) of the 95 % Wilson score interval of
    the mean score (draws as half points).  An end at 0 % or 100 % is unbounded: None.
    """
    n = wins + draws + losses
    if n == 0:
        raise ValueError("no games")
    score = (wins + 0.5 * draws) / n
    z = Z95
    centre = (score + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    low, high = centre - half, centre + half
    # At 0 % or 100 % one end is exactly 0 or 1; rounding must not make it a finite Elo.
    low = 0.0 if low < 1e-12 else low
    high = 1.0 if high > 1 - 1e-12 else high
    return score, elo(low), elo(high)


def los(wins: int, losses: int) -> float:
    """Likelihood of superiority: Φ((W - L)/√(W + L)); 0.5 without decisive games."""
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1 + math.erf((wins - losses) / math.sqrt(2 * (wins + losses))))


def pairs(scores: Mapping[int, float]) -> list[float]:
    """The mean score of each complete opening pair (games 2k and 2k+1, by game number)."""
    return [(scores[k] + scores[k + 1]) / 2 for k in sorted(scores)
            if k % 2 == 0 and k + 1 in scores]


def pentanomial(scores: Mapping[int, float]) -> list[int]:
    """How many complete pairs scored 0, ½, 1, 1½ and 2 points (the candidate's)."""
    counts = [0] * 5
    for mean in pairs(scores):
        counts[round(mean * 4)] += 1
    return counts


def mean_variance(samples: Sequence[float]) -> tuple[float, float]:
    """Mean and (population) variance of ``samples``."""
    n = len(samples)
    mean = sum(samples) / n
    return mean, sum((x - mean) ** 2 for x in samples) / n


@dataclass(frozen=True, slots=True)
class Sprt:
    """Wald's test of H0 (``elo0``) against H1 (``elo1``) with error rates ``alpha``
    (accepting H1 when H0 holds) and ``beta`` (accepting H0 when H1 holds).
    """

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not self.elo1 > self.elo0:
            raise ValueError(f"SPRT needs elo1 > elo0, got {self.elo0} and {self.elo1}")
        if not (0 < self.alpha < 0.5 and 0 < self.beta < 0.5):
            raise ValueError("SPRT error rates must lie in (0, 0.5)")

    @property
    def bounds(self) -> tuple[float, float]:
        """(lower, upper) bounds of the log-likelihood ratio."""
        return (math.log(self.beta / (1 - self.alpha)),
                math.log((1 - self.beta) / self.alpha))

    def llr(self, samples: Sequence[float]) -> float:
        """The log-likelihood ratio of H1 over H0 for ``samples`` (pair means or game
        scores, each in [0, 1]); 0 without samples.
        """
        if not samples:
            return 0.0
        s0, s1 = expected_score(self.elo0), expected_score(self.elo1)
        mean, variance = mean_variance(samples)
        variance = max(variance, VARIANCE_FLOOR)
        return len(samples) * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)

    def decision(self, samples: Sequence[float]) -> str | None:
        """"H1" or "H0" once the ratio leaves its bounds (after ``MIN_PAIRS`` samples), else
        None (play on).
        """
        if len(samples) < MIN_PAIRS:
            return None
        value = self.llr(samples)
        lower, upper = self.bounds
        return "H1" if value >= upper else "H0" if value <= lower else None


def summary(scores: Mapping[int, float], sprt: Sprt | None = None) -> dict[str, object]:
    """W/D/L, score, Elo with its 95 % interval, LOS, the pair counts and, with ``sprt``,
    its ratio, bounds and decision, for the candidate's ``scores`` by game number.
    """
    values = list(scores.values())
    wins, draws = values.count(1.0), values.count(0.5)
    losses = len(values) - wins - draws
    share, low, high = elo_interval(wins, draws, losses)
    point = elo(share)
    result: dict[str, object] = {
        "games": len(values), "W": wins, "D": draws, "L": losses, "score": round(share, 3),
        "elo": None if point is None else round(point),
        "elo_95": [None if low is None else round(low), None if high is None else round(high)],
        "los": round(los(wins, losses), 3), "pairs": pentanomial(scores)}
    if sprt is not None:
        samples = pairs(scores)
        result["sprt"] = {"elo0": sprt.elo0, "elo1": sprt.elo1, "alpha": sprt.alpha,
                          "beta": sprt.beta, "llr": round(sprt.llr(samples), 3),
                          "bounds": [round(b, 3) for b in sprt.bounds],
                          "decision": sprt.decision(samples)}
    return result


def records_scores(lines: Iterable[str]) -> dict[int, float]:
    """The candidate's score by game number from match records: ``bench/shogi.py``'s
    ``match-game`` lines (``game`` from 1, ``result`` W/D/L: game 1 is number 0),
    ``bench/chess.py``'s ``match`` lines (``game`` from 1, ``result`` win/draw/loss) and
    ``bench/chess_selfplay.py``'s lines (``game`` from 0, ``score``).
    """
    scores: dict[int, float] = {}
    for line in lines:
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        if not isinstance(record, dict):
            continue
        if record.get("bench") == "match-game":
            scores[int(record["game"]) - 1] = RESULT_SCORE[record["result"]]
        elif record.get("bench") == "match" and record.get("result") in CHESS_RESULT_SCORE:
            scores[int(record["game"]) - 1] = CHESS_RESULT_SCORE[record["result"]]
        elif record.get("bench") == "chess_selfplay" and "score" in record:
            scores[int(record["game"])] = float(record["score"])
    return scores


def main(argv: Sequence[str] | None = None) -> int:
    """Summarise match records (several files: one match's shards, pooled by game number)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("records", type=Path, nargs="+")
    parser.add_argument("--sprt", type=float, nargs=2, metavar=("ELO0", "ELO1"))
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    args = parser.parse_args(argv)
    scores: dict[int, float] = {}
    for index, path in enumerate(args.records):
        try:
            found = records_scores(path.read_text(encoding="utf-8").splitlines())
        except OSError as exc:
            print(f"match_stats: cannot read {path}: {exc.strerror}", file=sys.stderr)
            return 2
        # Each file's games apart (runs of other seeds reuse the numbers); a pair is two
        # games of one file.
        scores.update({FILE_STRIDE * index + number: value for number, value in found.items()})
    if not scores:
        print("match_stats: no games in the records", file=sys.stderr)
        return 2
    try:
        sprt = Sprt(args.sprt[0], args.sprt[1], args.alpha, args.beta) if args.sprt else None
    except ValueError as exc:
        print(f"match_stats: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(summary(scores, sprt)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
