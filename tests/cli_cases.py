"""Random command lines for fuzzing the CLI (issue 11): every verb x every game, with seeded,
mutated and hostile positions, numbers and options; and the judge of what a run may do.

Shared by ``tests/test_fuzz_cli.py`` (hypothesis drives the ``random.Random``) and
``bench/fuzz_cli.py`` (a longer seeded run).  Valid inputs are kept cheap on purpose (depth 1,
perft depth 0-1, solve only where any valid position solves in moments), so that a slow case
is a hang to report, not a big but legal request; invalid inputs are anything at all.

A run may end with status 0 (stderr empty) or 2 (one line ``sakiyomi: error: ...``; in batch
mode one ``sakiyomi: line N: ...`` per bad line), never with a traceback, another status or
after ``CASE_SECONDS``.  Solve results of Bones, Nim, trees and tic-tac-toe are checked against
answers computed here independently (n mod 4, Bouton's nim-sum, a plain recursive minimax,
the textbook αβ on tic-tac-toe).
"""

from __future__ import annotations

import io
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache, reduce
from operator import xor
from typing import Any

from sakiyomi.cli import RECURSION_LIMIT, _batch_position, main
from sakiyomi.game import GameError
from sakiyomi.games import load
from sakiyomi.search.algorithms import NAMES as ALGORITHMS

VERBS = ("search", "solve", "batch", "analyze", "perft", "play", "tree", "compare")
GAMES = ("tree", "bones", "nim", "tictactoe", "connect4", "othello", "chess", "shogi")
# Valid positions of these games may take hours to solve; solve only those NEAR_END.
BIG_GAMES = frozenset({"connect4", "othello", "chess", "shogi"})
NUMERIC_GAMES = frozenset({"tree", "bones", "nim", "connect4"})  # positions written in digits
CASE_SECONDS = 60.0  # a case slower than this is a hang (loaded 2-core machine, cold caches)
MAX_SHOWN = 300  # characters of an argument kept in reports
# main() raises the recursion limit on its first call; raising it here already keeps it from
# changing during a hypothesis example (which hypothesis warns about).
sys.setrecursionlimit(max(sys.getrecursionlimit(), RECURSION_LIMIT))

SEEDS: dict[str, tuple[str, ...]] = {
    "tree": ("[[3,5,1],[7,3,-4],[-3,0,3]]", "max:[[40,55],[60,20]]", "random:2,3,7", "[5]",
             "7", "[[1,[2,-3]],[999487,-999487]]", "[" * 40 + "1,2" + "]" * 40,
             "random:2,²,1", "[1,٣]"),
    "bones": ("6", "8", "0", "255", "257", "999999999999999999", "1000000000000000000", "²",
              "1٣"),
    "nim": ("3,4,5", "1,1,2", "0,0", "31,31", "5000,4000,1000", "10000", "1,1,1,1,1,1,1,1",
            "3,²", "１,2"),
    "tictactoe": ("start", "xx.oo....", "xxxoo....", "xoxoxoox.", "x........"),
    "connect4": ("start", "4453", "6x5:3344", "2252576253462244111563365343671351441",
                 "44455554221", "4444444"),
    "othello": ("start", "-" * 27 + "OX" + "-" * 6 + "XO" + "-" * 27 + " X"),
    "chess": ("startpos", "startpos moves e2e4 e7e5", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
              "8/8/8/8/8/8/8/K1k5 w - - 0 1", "fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"),
    "shogi": ("startpos", "4k4/9/9/9/9/9/9/9/9 b G 1", "startpos moves 7g7f 3c3d",
              "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"),
}
MOVES: dict[str, tuple[str, ...]] = {
    "tree": ("0", "1", "2", "5", "-1", "²"),
    "bones": ("1", "2", "3", "4", "0", "²", "٣"),
    "nim": ("0:1", "1:2", "2:5", "9:9", "0:²", "0:0", "1"),
    "tictactoe": ("5", "1", "9", "0", "10", "x"),
    "connect4": ("4", "1", "7", "8", "0", "４"),
    "othello": ("d3", "c4", "f5", "e6", "pass", "z9", "a1"),
    "chess": ("e2e4", "e7e5", "g1f3", "e2e5", "xx", "e7e8q"),
    "shogi": ("7g7f", "3c3d", "2g2f", "P*5e", "bad", "8h2b+"),
}
WEIRD = ("0123456789²³¹٣１٠ ,;:[]-+.xXoO*/kKpPbBe\t\n\x00é\u2003\udcff\"'{}")
BAD_INTS = ("-1", "²", "1²", "٣", "１", "1.5", "1e3", "", " ", "x", "0x1", "1_0", "+", "-",
            "99999999999999999999", "9" * 5000, "inf", "nan", "1 1", "٠", "\u20031")
NUMBERS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {  # (valid, invalid) per use
    "depth": (("1",), (*BAD_INTS, "0", "512")),
    "perft": (("0", "1"), (*BAD_INTS, "512")),
    "nodes": (("1", "1000", "1000000000000000"), (*BAD_INTS, "0", "1000000000000001")),
    "time": (("0.05", "1e-3", "1000000", "0.5"),
             ("inf", "-inf", "nan", "1e309", "0", "-1", "1e-400", "1_0", "１", "", "x", "1e6.5",
              "1000001", "9" * 400)),
    "count": (("1", "50", "10000000"), (*BAD_INTS, "0", "10000001")),
}


@dataclass
class Case:
    """One command line: arguments, stdin, and what a correct answer must satisfy."""

    verb: str
    game: str
    argv: list[str]
    stdin: str = ""
    lines: int = 0  # non-empty stdin lines of a batch solve (one result or error each)
    check: Callable[[dict[str, Any]], str | None] | None = None  # a solve record's oracle


@dataclass
class Outcome:
    """What one run did."""

    status: int
    stdout: str
    stderr: str
    seconds: float
    problems: list[str] = field(default_factory=list)


# ---- positions -----------------------------------------------------------------------------


@cache
def _othello_near_end() -> str:
    """A position with few empty squares, reached by seeded random play (solves in moments)."""
    rng = random.Random(11)
    game: Any = load("othello", "start")
    while game.empties() > 9 and game.legal_moves():
        game.play(rng.choice(list(game.legal_moves())))
    return str(game.position_text())


def _mutate(rng: random.Random, text: str) -> str:
    op = rng.randrange(10)
    at = rng.randrange(len(text) + 1)
    ch = rng.choice(WEIRD)
    if op == 0 and text:
        return text[:at] + ch + text[at + 1:]
    if op == 1:
        return text[:at] + ch + text[at:]
    if op == 2:
        return text[:at] + text[at + rng.randrange(1, 4):]
    if op == 3:
        return text[:at]
    if op == 4:
        return text + rng.choice((" ; x", "\n", "\x00", " 0", " garbage", ";", " moves e2e4"))
    if op == 5:
        digits = rng.choice((20, 4301, 5000))
        return text[:at] + "9" * digits + text[at:]
    if op == 6:
        depth = rng.choice((5, 600, 6000))
        return "[" * depth + text + "]" * depth
    if op == 7:
        return text + text
    if op == 8:
        return "".join(rng.choice(WEIRD) for _ in range(rng.randrange(31)))
    return rng.choice((";", "", " ", "-", "start", "startpos", "max:", "random:", "1,", "[]"))


def position(rng: random.Random, game: str) -> str:
    """A seed position, often mutated once or twice (so often invalid)."""
    seeds = SEEDS[game] + ((_othello_near_end(),) if game == "othello" else ())
    text = rng.choice(seeds)
    for _ in range(rng.choice((0, 0, 1, 1, 2))):
        text = _mutate(rng, text)
    return text


def _loads(game: str, text: str) -> Any:
    try:
        return load(game, text)
    except GameError:
        return None


def _near_end(game: str, loaded: Any) -> bool:
    """True when a valid position of a big game solves in moments."""
    if game == "connect4":
        return len(loaded.moves_played) >= 30 and (loaded.width, loaded.height) == (7, 6)
    if game == "othello":
        return int(loaded.empties()) <= 10
    return False


def _solvable(game: str, text: str) -> bool:
    """May ``solve GAME text`` run (invalid text is refused at once; see BIG_GAMES)?"""
    if game not in BIG_GAMES:
        return True
    loaded = _loads(game, text)
    return loaded is None or _near_end(game, loaded)


def number(rng: random.Random, use: str) -> str:
    """A valid (cheap) number for ``use`` more often than not, else a hostile one."""
    valid, invalid = NUMBERS[use]
    return rng.choice(valid) if rng.random() < 0.75 else rng.choice(invalid)


# ---- oracles: answers computed without the code under test ---------------------------------


def _minimax(tree: Any, maximizing: bool) -> int:
    if isinstance(tree, int):
        return tree
    values = [_minimax(child, not maximizing) for child in tree]
    return max(values) if maximizing else min(values)


def _negamax(tree: Any) -> int:
    if isinstance(tree, int):
        return tree
    return max(-_negamax(child) for child in tree)


def expected_solve(game: str, text: str) -> int | None:
    """The exact value of a solvable small-game position from the side to move (sign only for
    Bones, Nim and tic-tac-toe), or None when there is no independent answer here.
    """
    body = text.strip()
    if game == "bones":
        return -1 if int(body) % 4 == 0 else 1
    if game == "nim":
        return 1 if reduce(xor, (int(h) for h in body.split(",")), 0) else -1
    if game == "tree" and not body.startswith("random:"):
        try:  # strict JSON; the game's own parser is more lenient (e.g. 06 reads as 6)
            tree = json.loads(body[4:] if body.startswith("max:") else body)
        except ValueError:
            return None
        return _minimax(tree, True) if body.startswith("max:") else _negamax(tree)
    if game == "tictactoe":
        from sakiyomi.search import textbook

        value = textbook.alphabeta(load(game, text)).value
        return (value > 0) - (value < 0)
    return None


def _solve_check(game: str, weak: bool) -> Callable[[dict[str, Any]], str | None]:
    def check(record: dict[str, Any]) -> str | None:
        text = str(record["position"])
        if game in NUMERIC_GAMES and any(ch.isdigit() and not ch.isascii() for ch in text):
            return f"accepted a position with a non-ASCII digit: {text[:40]!r}"
        expected = expected_solve(game, text)
        if expected is None:
            return None
        if weak:
            expected = (expected > 0) - (expected < 0)
        word = ("loss", "draw", "win")[(expected > 0) - (expected < 0) + 1]
        if record["value"] != expected or record["result"] != word:
            return f"wrong answer: {record['value']} {record['result']}, expected {expected}"
        return None

    return check


# ---- command lines -------------------------------------------------------------------------


def make_case(rng: random.Random, verb: str, game: str) -> Case:
    """A random command line for ``verb`` on ``game``."""
    pos = position(rng, game)
    json_flag = ["--json"] if rng.random() < 0.5 else []
    if verb == "search":
        argv = ["search", game, pos, "--depth", number(rng, "depth")]
        if rng.random() < 0.5:
            argv += ["--algorithm", rng.choice(ALGORITHMS)]
        if rng.random() < 0.3:
            argv += ["--nodes", number(rng, "nodes")]
        if rng.random() < 0.3:
            argv += ["--time", number(rng, "time")]
        if rng.random() < 0.2:
            argv.append("--no-tt")
        return Case(verb, game, argv + json_flag)
    if verb == "solve":
        if not _solvable(game, pos):
            # keep the case, make the position invalid (in front: after an OBF ';' a NUL
            # would be part of the comment, and the start position would be solved)
            pos = "\x00" + pos
        weak = rng.random() < 0.3
        argv = ["solve", game, pos, "--json", *(["--weak"] if weak else [])]
        if rng.random() < 0.3:
            argv += ["--engine", rng.choice(("auto", "compiled", "python"))]
        return Case(verb, game, argv, check=_solve_check(game, weak))
    if verb == "batch":
        text = "\n".join(position(rng, game) for _ in range(rng.randrange(1, 5)))
        # The lines the CLI reads (a position may hold line breaks of its own), and what each
        # solves: its batch position (e.g. 'start' of 'start ; x').
        lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        lines = [line if not line.strip()
                 or _solvable(game, _batch_position(game, line.strip())) else ";"
                 for line in lines]
        stdin = "\n".join(lines) + rng.choice(("\n", "", "\n\n"))
        # What the CLI reads: lines of text, stripped, the empty ones skipped.
        count = sum(1 for line in io.StringIO(stdin) if line.strip())
        argv = ["solve", game, "-", "--json"]
        return Case(verb, game, argv, stdin=stdin, lines=count,
                    check=_solve_check(game, False))
    if verb == "analyze":
        argv = ["analyze", game, pos]
        if rng.random() < 0.8 or not _solvable(game, pos):
            argv += ["--depth", number(rng, "depth")]
        else:
            argv.append("--exact")
        return Case(verb, game, argv + json_flag)
    if verb == "perft":
        return Case(verb, game, ["perft", game, pos, number(rng, "perft"), *json_flag])
    if verb == "play":
        first, second = rng.choice((("human", "human"), ("human", "cpu"), ("cpu", "human")))
        argv = ["play", game, "--first", first, "--second", second,
                "--depth", number(rng, "depth"), "--time", number(rng, "time")]
        if argv[-1] in ("1000000", "0.5"):  # a computer move may take the whole time
            argv[-1] = "0.05"
        if rng.random() < 0.6:
            argv += ["--position", pos]
        replies = [rng.choice(MOVES[game]) for _ in range(rng.randrange(6))]
        replies = [_mutate(rng, r) if rng.random() < 0.2 else r for r in replies]
        stdin = "\n".join(replies) + ("\nquit\n" if rng.random() < 0.5 else "\n")
        return Case(verb, game, argv, stdin=stdin)
    if verb == "tree":
        argv = ["tree", game, pos, "--depth", number(rng, "depth"),
                "--format", rng.choice(("svg", "dot", "text"))]
        if rng.random() < 0.5:
            argv += ["--algorithm", rng.choice(ALGORITHMS)]
        for option in ("--max-nodes", "--max-drawn", "--pruned-budget"):
            if rng.random() < 0.3:
                argv += [option, number(rng, "count")]
        return Case(verb, game, argv)
    if verb == "compare":
        return Case(verb, game, ["compare", game, pos, "--depth", number(rng, "depth"),
                                 *json_flag])
    raise ValueError(f"unknown verb {verb!r}")


# ---- running and judging -------------------------------------------------------------------


def run_in_process(case: Case) -> Outcome:
    """Run ``main(argv)`` with captured streams."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = io.StringIO(case.stdin), out, err
    start = time.perf_counter()
    try:
        status = main(case.argv)
    except SystemExit as exc:  # main never exits by itself; keep the judge's view simple
        status = exc.code if isinstance(exc.code, int) else 1
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
    return Outcome(status, out.getvalue(), err.getvalue(), time.perf_counter() - start)


class CaseTimeout(BaseException):
    """Raised in the main thread by the watchdog (a BaseException: main() must not catch it)."""


def _alarm(signum: int, frame: object) -> None:
    raise CaseTimeout


def run_watched(case: Case, timeout: float = CASE_SECONDS) -> Outcome | None:
    """``run_in_process`` under a SIGALRM watchdog: None when the case was still running after
    ``timeout`` seconds (a hang inside compiled code is seen when it returns to Python).
    """
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        return run_in_process(case)
    except CaseTimeout:
        return None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def run_subprocess(case: Case, timeout: float = CASE_SECONDS) -> Outcome | None:
    """The case as its own process (argv through the OS as bytes, stdin as bytes, the real
    streams), or None when it was still running after ``timeout`` seconds.
    """
    argv = [arg.replace("\x00", "\\0") for arg in case.argv]  # argv cannot carry NUL
    command = [sys.executable, "-c", "import sys; from sakiyomi.cli import main; "
               "sys.exit(main())", *argv]
    start = time.perf_counter()
    try:
        done = subprocess.run(command, input=case.stdin.encode("utf-8", "surrogateescape"),
                              capture_output=True, timeout=timeout, check=False,
                              env={**os.environ, "PYTHONIOENCODING": ""})
    except subprocess.TimeoutExpired:
        return None
    return Outcome(done.returncode, done.stdout.decode("utf-8", "replace"),
                   done.stderr.decode("utf-8", "replace"), time.perf_counter() - start)


def judge(case: Case, outcome: Outcome) -> list[str]:
    """Everything the run did that it must not do (empty: a good run)."""
    problems = []
    err_lines = outcome.stderr.splitlines()
    if "Traceback" in outcome.stderr:
        problems.append("traceback")
    if outcome.status not in (0, 2):
        problems.append(f"exit status {outcome.status}")
    if outcome.seconds > CASE_SECONDS:
        problems.append(f"slow: {outcome.seconds:.1f}s")
    if case.verb == "batch":  # one result or one error line per non-empty line
        records = outcome.stdout.splitlines()
        batch_errors = [line for line in err_lines if line.startswith("sakiyomi: line ")]
        if len(records) + len(err_lines) != case.lines or len(batch_errors) != len(err_lines):
            problems.append(f"batch: {case.lines} lines gave {len(records)} results and "
                            f"{len(err_lines)} stderr lines")
        if (outcome.status == 2) != bool(err_lines):
            problems.append("batch: exit status and error lines disagree")
    else:
        if outcome.status == 2 and (len(err_lines) != 1
                                    or not err_lines[0].startswith("sakiyomi: error: ")):
            problems.append(f"{len(err_lines)} stderr lines on exit 2")
        if outcome.status == 0 and outcome.stderr:
            problems.append("stderr output on success")
        records = outcome.stdout.splitlines() if case.verb == "solve" and outcome.status == 0 \
            else []
    if case.check is not None:
        for line in records:
            verdict = case.check(json.loads(line))
            if verdict:
                problems.append(verdict)
    return problems


def shown_argv(case: Case) -> list[str]:
    """The arguments cut for a report."""
    return [a if len(a) <= MAX_SHOWN else a[:MAX_SHOWN] + f"…({len(a)})" for a in case.argv]
