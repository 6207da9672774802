"""USI (Universal Shogi Interface) engine on the shared engine loop: Japanese GUIs and tools
(ShogiGUI, 将棋所, ShogiHome, cshogi.usi.Engine) start it as ``sakiyomi-usi`` or ``sakiyomi usi``.

Commands: usi, isready, setoption, usinewgame, position startpos|sfen … [moves …],
go [btime wtime byoyomi binc winc | infinite | ponder | nodes | depth | movetime],
go mate <ms>|infinite, stop, ponderhit, gameover, quit.  Bad lines get one ``info string``
line and the engine keeps running.

Search: the shared ``Searcher`` (PVS, TT, ordering, quiescence on captures, sennichite
verdicts, and its selective-search switches: check extension, null move, LMR, futility) under
iterative deepening, after a short df-pn mate probe.  Time: a share of the main time plus the
byoyomi minus a safety margin (option ``ByoyomiMargin``) is the hard limit; no new iteration
starts after half of it; and a watchdog timer sends ``bestmove`` itself at the hard limit if
the search thread has not (``Answer``), so a move is never lost on time.
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from sakiyomi import __version__
from sakiyomi.game import GameError
from sakiyomi.games.shogi import ShogiGame, parse_position
from sakiyomi.protocols.engine_loop import Output, ProtocolError, SearchThread, serve
from sakiyomi.score import is_loss, is_win, plies_to_end
from sakiyomi.search.dfpn import MateResult, solve_mate
from sakiyomi.search.drivers import iterative_deepening
from sakiyomi.search.limits import Limits, StopSignal, time_for_move
from sakiyomi.search.result import SearchInfo
from sakiyomi.search.searcher import SearchConfig, Searcher
from sakiyomi.tt import TranspositionTable

ENGINE_NAME = f"sakiyomi {__version__}"
AUTHOR = "sakiyomi developers"
# On by default.  bench/shogi.py vs fairy-stockfish at 1000 nodes, byoyomi 1 s (2026-11-22):
# on 7-0-5 in 12 games, off 2-0-2 in 4 — samples too small to tell them apart.
SWITCHES = {"CheckExtension": True, "NullMove": True, "LMR": True, "Futility": True}


@dataclass(slots=True)
class Options:
    """Engine options (``setoption name … value …``)."""

    hash_mb: int = 64
    ponder: bool = False
    byoyomi_margin_ms: int = 300
    mate_probe_nodes: int = 3000
    # The shared Searcher's selective-search switches (game capabilities Checks, NullMove,
    # TacticalMoves), named as USI check options.
    switches: dict[str, bool] = field(default_factory=lambda: dict(SWITCHES))


@dataclass(slots=True)
class Clock:
    """What ``go`` said about time, and the budget derived from it (seconds)."""

    hard: float | None = None  # stop searching at this many seconds after ``go``
    soft: float | None = None  # start no new iteration after this many seconds


_OPTION_LINES = (
    "option name USI_Hash type spin default 64 min 1 max 4096",
    "option name USI_Ponder type check default false",
    "option name ByoyomiMargin type spin default 300 min 0 max 10000",
    "option name MateProbeNodes type spin default 3000 min 0 max 10000000",
    *(f"option name {name} type check default {str(on).lower()}" for name, on in SWITCHES.items()),
)


def budget(go: dict[str, int], black: bool, margin_ms: int) -> Clock:
    """Hard and soft limits from ``go`` parameters, never past the clock minus the margin."""
    if "movetime" in go:
        hard = max(0.01, (go["movetime"] - margin_ms) / 1000)
        return Clock(hard, hard)
    main = go.get("btime" if black else "wtime", 0) / 1000
    inc = go.get("binc" if black else "winc", 0) / 1000
    byoyomi = go.get("byoyomi", 0) / 1000
    margin = margin_ms / 1000
    if not any(k in go for k in ("btime", "wtime", "byoyomi", "binc", "winc")):
        return Clock()
    share = time_for_move(main, inc, overhead=margin)
    hard = share + max(0.0, byoyomi - margin)
    if byoyomi <= 0 and inc <= 0:
        hard = min(hard, max(0.0, main - margin) * 0.5)
    hard = max(hard, 0.02)
    return Clock(hard, hard * 0.5)


WATCHDOG_GRACE = 0.05  # seconds after the hard limit before the watchdog answers itself


class Answer:
    """The ``bestmove`` of one ``go``, sent exactly once: by the search thread when it ends, or
    by a watchdog timer at the hard limit with the best move known so far — so a search thread
    slowed down by a loaded machine cannot make the engine lose on time.
    """

    def __init__(self, output: Output, best: str) -> None:
        self.best = best
        self._out = output
        self._lock = threading.Lock()
        self._given = False
        self._timer: threading.Timer | None = None

    def arm(self, seconds: float) -> None:
        """Answer by itself after ``seconds`` unless the search answered first."""
        if self._timer is not None:
            self._timer.cancel()
        self._timer = threading.Timer(max(0.0, seconds), self.give)
        self._timer.daemon = True
        self._timer.start()

    def give(self) -> None:
        """Send ``bestmove`` (only the first call does)."""
        with self._lock:
            if self._given:
                return
            self._given = True
            if self._timer is not None:
                self._timer.cancel()
            self._out.send(f"bestmove {self.best}")

    def info(self, line: str) -> None:
        """Send an info line unless the answer has already gone."""
        with self._lock:
            if not self._given:
                self._out.send(line)


class UsiEngine:
    """The USI command handler (see the module docstring)."""

    def __init__(self, output: Output) -> None:
        self.out = output
        self.options = Options()
        self.game: ShogiGame | None = ShogiGame()
        self.thread = SearchThread()
        self.tt: TranspositionTable[int] = TranspositionTable.from_megabytes(self.options.hash_mb)
        self._wake = threading.Event()
        self._ponder_clock: Clock | None = None
        self._clock = Clock()
        self._go_time = time.perf_counter()
        self._answer = Answer(output, "resign")

    # ---- the Handler protocol -----------------------------------------------------------

    def handle(self, line: str) -> bool:
        """Act on one command line; False on quit."""
        command, _, rest = line.partition(" ")
        rest = rest.strip()
        actions: dict[str, Callable[[str], None]] = {
            "usi": self._usi, "isready": lambda _: self.out.send("readyok"),
            "setoption": self._setoption, "usinewgame": self._usinewgame,
            "position": self._position, "go": self._go, "stop": self._stop,
            "ponderhit": self._ponderhit, "gameover": self._gameover,
        }
        if command == "quit":
            return False
        action = actions.get(command)
        if action is None:
            raise ProtocolError(f"unknown command {command!r}")
        action(rest)
        return True

    def shutdown(self) -> None:
        """Stop any search before the process ends."""
        self._wake.set()
        self.thread.stop()

    # ---- commands -----------------------------------------------------------------------

    def _usi(self, _: str) -> None:
        self.out.send(f"id name {ENGINE_NAME}")
        self.out.send(f"id author {AUTHOR}")
        for text in _OPTION_LINES:
            self.out.send(text)
        self.out.send("usiok")

    def _setoption(self, rest: str) -> None:
        words = rest.split()
        if len(words) < 2 or words[0] != "name":
            raise ProtocolError("setoption needs 'name <id> [value <x>]'")
        if "value" in words:
            index = words.index("value")
            name, value = " ".join(words[1:index]), " ".join(words[index + 1:])
        else:
            name, value = " ".join(words[1:]), ""
        spins = {"USI_Hash": (1, 4096), "ByoyomiMargin": (0, 10_000),
                 "MateProbeNodes": (0, 10_000_000)}
        if name == "USI_Ponder" or name in SWITCHES:
            if value not in ("true", "false"):
                raise ProtocolError(f"{name} takes true or false, not {value!r}")
            if name == "USI_Ponder":
                self.options.ponder = value == "true"
            else:
                self.options.switches[name] = value == "true"
        elif name in spins:
            low, high = spins[name]
            if not value.lstrip("-").isdigit() or not low <= int(value) <= high:
                raise ProtocolError(f"{name} takes an integer in {low}..{high}, not {value!r}")
            if name == "USI_Hash":
                self.options.hash_mb = int(value)
                self.thread.stop()
                self.tt = TranspositionTable.from_megabytes(int(value))
            elif name == "ByoyomiMargin":
                self.options.byoyomi_margin_ms = int(value)
            else:
                self.options.mate_probe_nodes = int(value)
        else:
            self.out.send(f"info string ignoring unknown option {name!r}")

    def _usinewgame(self, _: str) -> None:
        self.thread.stop()
        self.tt.clear()

    def _position(self, rest: str) -> None:
        self.thread.stop()
        self.game = None
        try:
            sfen, moves = parse_position(rest)
            game = ShogiGame(sfen)
            for ply, text in enumerate(moves, 1):
                try:
                    game.play(game.move_from_text(text))
                except GameError as exc:
                    raise ProtocolError(f"position: move {ply} ({text}): {exc}; "
                                        "no position is set") from None
        except GameError as exc:
            raise ProtocolError(f"position: {exc}; no position is set") from None
        self.game = game

    def _go(self, rest: str) -> None:
        self.thread.stop()
        self._go_time = time.perf_counter()
        words = rest.split()
        if words[:1] == ["mate"]:
            self._go_mate(words[1:])
            return
        params: dict[str, int] = {}
        flags = set()
        i = 0
        while i < len(words):
            word = words[i]
            if word in ("infinite", "ponder"):
                flags.add(word)
                i += 1
            elif word in ("btime", "wtime", "byoyomi", "binc", "winc", "nodes", "depth",
                          "movetime", "movestogo"):
                if i + 1 >= len(words) or not words[i + 1].lstrip("-").isdigit():
                    raise ProtocolError(f"go: {word} needs an integer")
                params[word] = max(0, int(words[i + 1]))
                i += 2
            else:
                raise ProtocolError(f"go: unknown parameter {word!r}")
        game = self.game
        if game is None:
            self.out.send("info string no valid position; send 'position' first")
            self.out.send("bestmove resign")
            return
        clock = budget(params, game.board.turn == 0, self.options.byoyomi_margin_ms)
        waiting = bool(flags)  # infinite/ponder: bestmove only after stop (or ponderhit)
        self._wake = threading.Event()
        if "ponder" in flags:
            self._ponder_clock, self._clock = clock, Clock()
        else:
            self._ponder_clock, self._clock = None, Clock() if "infinite" in flags else clock
        signal = StopSignal(nodes=params.get("nodes"), seconds=self._clock.hard)
        depth = params.get("depth")
        position = game.copy()
        moves = position.legal_moves()
        answer = self._answer = Answer(self.out,
                                       position.move_to_text(moves[0]) if moves else "resign")
        if self._clock.hard is not None:
            answer.arm(self._clock.hard + WATCHDOG_GRACE)
        self.thread.start(lambda s: self._think(position, s, depth, waiting, answer), signal)

    def _go_mate(self, words: list[str]) -> None:
        seconds: float | None = None
        if words and words[0] != "infinite":
            if not words[0].isdigit():
                raise ProtocolError(f"go mate takes milliseconds or 'infinite', not {words[0]!r}")
            seconds = max(0.01, int(words[0]) / 1000 - self.options.byoyomi_margin_ms / 2000)
        game = self.game
        if game is None:
            self.out.send("info string no valid position; send 'position' first")
            self.out.send("checkmate nomate")
            return
        position = game.copy()
        self.thread.start(lambda s: self._mate(position, s), StopSignal(seconds=seconds))

    def _stop(self, _: str) -> None:
        self._wake.set()
        self.thread.stop()

    def _ponderhit(self, _: str) -> None:
        clock = self._ponder_clock
        self._ponder_clock = None
        if clock is None:
            self._wake.set()
            return
        now = time.perf_counter() - self._go_time
        self._clock = Clock(None if clock.hard is None else now + clock.hard,
                            None if clock.soft is None else now + clock.soft)
        if self._clock.hard is not None and clock.hard is not None:
            signal = self.thread.signal
            signal.deadline = signal.start + self._clock.hard
            self._answer.arm(clock.hard + WATCHDOG_GRACE)
        self._wake.set()

    def _gameover(self, _: str) -> None:
        self._wake.set()
        self.thread.stop()

    # ---- the search thread --------------------------------------------------------------

    def _think(self, game: ShogiGame, signal: StopSignal, depth: int | None,
               waiting: bool, answer: Answer) -> None:
        try:
            answer.best = self._best_move(game, signal, depth, answer)
        except Exception as exc:  # a GUI waits for bestmove whatever happens
            answer.info(f"info string internal error in search: {type(exc).__name__}: {exc}")
        if waiting:
            while not self._wake.is_set() and not signal.event.is_set():
                self._wake.wait(0.01)
        answer.give()

    def _best_move(self, game: ShogiGame, signal: StopSignal, depth: int | None,
                   answer: Answer) -> str:
        moves = game.legal_moves()
        if not moves:
            return "resign"
        if game.can_declare():
            return "win"
        probe = self._mate_probe(game, signal, answer)
        if probe is not None:
            return probe
        switch = self.options.switches
        config = SearchConfig(check_every=128, check_extension=switch["CheckExtension"],
                              null_move=switch["NullMove"], lmr=switch["LMR"],
                              futility=switch["Futility"])
        searcher: Searcher[int] = Searcher(game, config, tt=self.tt, stop=signal)
        for info in iterative_deepening(searcher, Limits(depth=depth), aspiration_delta=60):
            answer.info(self._info_line(game, info))
            if info.pv:
                answer.best = game.move_to_text(info.pv[0])
            soft = self._clock.soft
            if soft is not None and signal.elapsed() >= soft:
                break
        return answer.best

    def _mate_probe(self, game: ShogiGame, signal: StopSignal, answer: Answer) -> str | None:
        """A short df-pn run: a mate found is played at once (the search would find it later)."""
        budget_nodes = self.options.mate_probe_nodes
        if budget_nodes <= 0:
            return None
        hard = self._clock.hard
        probe = StopSignal(nodes=budget_nodes, seconds=None if hard is None else hard * 0.2)
        probe.event = signal.event
        result = solve_mate(game, stop=probe, short_first=5, shortest=False)
        if result.status != "mate":
            return None
        answer.info(self._mate_info_line(game, result))
        return game.move_to_text(result.moves[0])

    @staticmethod
    def _info_line(game: ShogiGame, info: SearchInfo[int]) -> str:
        value = info.value
        if is_win(value):
            score = f"mate {plies_to_end(value)}"
        elif is_loss(value):
            score = f"mate -{plies_to_end(value)}"
        else:
            score = f"cp {value}"
        ms = int(info.seconds * 1000)
        pv = " ".join(game.move_to_text(m) for m in info.pv)
        return (
            f"info depth {info.depth} seldepth {info.stats.seldepth} time {ms} "
            f"nodes {info.stats.nodes} nps {int(info.nps)} hashfull {info.hashfull} "
            f"score {score}" + (f" pv {pv}" if pv else "")
        )

    @staticmethod
    def _mate_info_line(game: ShogiGame, result: MateResult[int]) -> str:
        pv = " ".join(game.move_to_text(m) for m in result.moves)
        ms = int(result.seconds * 1000)
        nps = int(result.nodes / result.seconds) if result.seconds > 0 else 0
        return (f"info depth {result.plies} time {ms} nodes {result.nodes} nps {nps} "
                f"score mate {result.plies} pv {pv}")

    def _mate(self, game: ShogiGame, signal: StopSignal) -> None:
        result = solve_mate(game, stop=signal)
        if result.status == "mate":
            self.out.send(self._mate_info_line(game, result))
            self.out.send("checkmate " + " ".join(game.move_to_text(m) for m in result.moves))
        elif result.status == "nomate":
            self.out.send("checkmate nomate")
        else:
            self.out.send("checkmate timeout")


def main() -> int:
    """Console script ``sakiyomi-usi``: speak USI on stdin/stdout until quit."""
    output = Output(sys.stdout)
    return serve(UsiEngine(output), output)


def run(args: argparse.Namespace) -> int:
    """``sakiyomi usi``."""
    return main()
