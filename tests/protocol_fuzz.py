"""Random and mutated protocol lines for the UCI and USI engines, and the rule for what the
engine must answer; shared by tests/test_engine_fuzz.py (driven by hypothesis) and
bench/fuzz_engines.py (driven by a seeded ``random.Random``, ≥ 10,000 lines per engine).

Lines come in three kinds: *structured* (a real command with words and numbers drawn from the
protocol's vocabulary, including huge, signed, non-ASCII and malformed numbers), *mutated*
(a structured line with bytes flipped, inserted, deleted or cut) and *noise* (random bytes,
invalid UTF-8 included).  ``quit`` is never sent (the session must stay alive), and neither is
anything that would make the engine wait for ever without ``stop`` at the end of a batch.
"""

from __future__ import annotations

import random
import sys
import time
from dataclasses import dataclass, field

from tests.engine_process import STRICT_UTF8, EngineProcess

COMMANDS = {
    "uci": [sys.executable, "-m", "sakiyomi", "uci"],
    "usi": [sys.executable, "-m", "sakiyomi", "usi"],
}
HELLO = {"uci": ("uci", "uciok"), "usi": ("usi", "usiok")}

NUMBERS = ["0", "1", "7", "50", "100", "300", "1000", "-1", "-5000", "+3", "99999999999999999",
           "1" + "0" * 400, "9" * 5000, "²", "١٠٠", "1e5", "0x10", "inf", "nan", "3.5", "-0",
           "", "٣", "１０"]
GO_WORDS = {
    "uci": ["wtime", "btime", "winc", "binc", "movestogo", "movetime", "depth", "nodes", "mate",
            "infinite", "ponder", "searchmoves", "e2e4"],
    "usi": ["btime", "wtime", "byoyomi", "binc", "winc", "movestogo", "movetime", "depth",
            "nodes", "infinite", "ponder", "mate"],
}
OPTIONS = {
    "uci": ["Hash", "Clear Hash", "MultiPV", "Move Overhead", "Ponder", "NoSuch", "hash"],
    "usi": ["USI_Hash", "USI_Ponder", "ByoyomiMargin", "MateProbeNodes", "NullMove", "LMR",
            "Futility", "CheckExtension", "NoSuch"],
}
POSITIONS = {
    "uci": ["startpos", "startpos moves e2e4 e7e5 g1f3", "startpos moves e2e4 e2e4",
            "fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "fen 8/8/8/4k3/8/8/8/Q3K3 w - - 0 1",
            "fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "fen not/a/fen w - - 0 1", "fen", "moves",
            "startpos moves"],
    "usi": ["startpos", "startpos moves 7g7f 3c3d", "startpos moves 7g7f 7g7f",
            "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "sfen 4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1", "sfen P3k4/9/9/9/9/9/9/9/4K4 b - 1",
            "sfen", "startpos moves P*5e"],
}
OTHER = {
    "uci": ["uci", "isready", "ucinewgame", "stop", "ponderhit", "debug on", "register later"],
    "usi": ["usi", "isready", "usinewgame", "stop", "ponderhit", "gameover win", "gameover"],
}


def _number(rng: random.Random) -> str:
    if rng.random() < 0.5:
        return str(rng.choice([rng.randint(-10, 400), rng.randint(0, 10**7), 10**rng.randint(
            0, 40)]))
    return rng.choice(NUMBERS)


def structured(rng: random.Random, engine: str) -> str:
    """One command line built from the protocol's words (often wrong, never ``quit``)."""
    kind = rng.random()
    if kind < 0.4:
        words = ["go"]
        if engine == "usi" and rng.random() < 0.15:
            words += ["mate", rng.choice(["infinite", _number(rng), "soon"])][: rng.randint(1, 2)]
        for _ in range(rng.randint(0, 5)):
            words.append(rng.choice(GO_WORDS[engine]))
            if rng.random() < 0.8:
                words.append(_number(rng))
        if "infinite" not in words and "ponder" not in words and rng.random() < 0.7:
            words += ["movetime", str(rng.randint(0, 60))]  # most searches end by themselves
        return " ".join(words)
    if kind < 0.6:
        name = rng.choice(OPTIONS[engine])
        value = rng.choice([_number(rng), "true", "false", "maybe", ""])
        return f"setoption name {name}" + (f" value {value}" if rng.random() < 0.9 else "")
    if kind < 0.85:
        return "position " + rng.choice(POSITIONS[engine])
    return rng.choice(OTHER[engine])


def mutated(rng: random.Random, line: bytes) -> bytes:
    """``line`` with a few random byte edits (flip, insert, delete, cut, invalid UTF-8)."""
    data = bytearray(line)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(5)
        at = rng.randint(0, len(data))
        if op == 0 and data:
            data[min(at, len(data) - 1)] ^= 1 << rng.randrange(8)
        elif op == 1:
            data[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 4)))
        elif op == 2:
            del data[at:at + rng.randint(1, 3)]
        elif op == 3:
            data = data[:at]
        else:
            data[at:at] = rng.choice([b"\xff", b"\xc3\x28", b"\xed\xa0\x80", b"\x00", b"\t",
                                      b"\r", "²".encode()])
    return bytes(data)


def noise(rng: random.Random) -> bytes:
    """Random bytes (no line end)."""
    return bytes(rng.randrange(256) for _ in range(rng.randint(0, 60))).replace(b"\n", b" ")


def random_line(rng: random.Random, engine: str) -> bytes:
    """One line of any kind, without its line end."""
    kind = rng.random()
    if kind < 0.6:
        line = structured(rng, engine).encode()
    elif kind < 0.9:
        line = mutated(rng, structured(rng, engine).encode())
    else:
        line = noise(rng)
    return line.replace(b"\n", b" ")


def words_of(line: bytes) -> list[str]:
    """The words the engine sees in ``line`` (decoded with replacement, split on whitespace)."""
    return line.decode("utf-8", "replace").split()


def expected_answers(lines: list[bytes], engine: str) -> tuple[int, int]:
    """(bestmove, checkmate) answers the lines must produce: one per ``go`` line."""
    bestmoves = checkmates = 0
    for line in lines:
        words = words_of(line)
        if words[:1] == ["go"]:
            if engine == "usi" and words[1:2] == ["mate"]:
                checkmates += 1
            else:
                bestmoves += 1
    return bestmoves, checkmates


def safe(line: bytes) -> bool:
    """False for lines that would end the session (``quit``)."""
    return words_of(line)[:1] != ["quit"]


@dataclass
class Session:
    """A live engine under strict UTF-8, fed batches of lines; counts what went wrong."""

    engine: str
    process: EngineProcess = field(init=False)
    lines_sent: int = 0
    gos: int = 0
    answers: int = 0
    problems: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.process = EngineProcess(COMMANDS[self.engine], env=STRICT_UTF8)
        hello, ok = HELLO[self.engine]
        self.process.send(hello)
        self.process.until(ok, timeout=60)

    def feed(self, lines: list[bytes], pause: float = 0.0, timeout: float = 60.0) -> list[str]:
        """Send ``lines``, wait ``pause`` seconds (searches run, time out, answer by
        themselves), then send ``stop`` and ``isready``; the problems found (empty: fine):
        the engine died, wrote a traceback, or answered a go not exactly once.
        """
        lines = [line for line in lines if safe(line)]
        readies = sum(words_of(line)[:1] == ["isready"] for line in lines) + 1
        try:
            self.process.send_bytes(b"".join(line + b"\n" for line in lines))
            time.sleep(pause)
            self.process.send_bytes(b"stop\nisready\n")
        except OSError:  # the engine has died: its pipe is closed
            self.problems.append("died")
            return ["died"]
        self.lines_sent += len(lines)
        seen: list[str] = []
        deadline = time.monotonic() + timeout
        while readies and time.monotonic() < deadline and self.process.alive:
            line = self.process.wait_for("", 0.2)  # short waits: a death is seen at once
            if line is None:
                continue
            seen.append(line)
            readies -= line == "readyok"
        bestmoves, checkmates = expected_answers(lines, self.engine)
        got_best = sum(x.startswith("bestmove ") for x in seen)
        got_mate = sum(x.startswith("checkmate ") for x in seen)
        self.gos += bestmoves + checkmates
        self.answers += got_best + got_mate
        problems = []
        if not self.process.alive:
            problems.append(f"died (exit {self.process.proc.returncode})")
        elif readies:
            problems.append("no readyok within the timeout")
        if any("Traceback" in x for x in self.process.errors):
            problems.append("traceback: " + "".join(self.process.errors)[-800:])
        if (got_best, got_mate) != (bestmoves, checkmates):
            problems.append(f"answers {got_best} bestmove / {got_mate} checkmate for "
                            f"{bestmoves} / {checkmates} go lines")
        self.problems += problems
        return problems

    def close(self) -> int:
        """Quit the engine; its exit status."""
        return self.process.close()
