"""USI (Universal Shogi Interface) on the shared engine loop: Japanese GUIs and tools
(ShogiGUI, 将棋所, ShogiHome, cshogi.usi.Engine) start it as ``sakiyomi-usi`` or ``sakiyomi usi``.

Commands: usi, isready, setoption, usinewgame, position startpos|sfen … [moves …],
go [btime wtime byoyomi binc winc movestogo | movetime | infinite | ponder | nodes | depth],
go mate <ms>|infinite, stop, ponderhit, gameover, quit.  Bad lines get one ``info string``
line and the engine keeps running; every ``go`` gets exactly one ``bestmove`` (``go mate``
exactly one ``checkmate``), also when its parameters are bad (reported, then a short search).

Time: the one time plan (``search.limits.plan_time``) with the option ``ByoyomiMargin`` as the
overhead; the engine loop's watchdog answers at the hard limit if the search thread is late.
The shogi side (search set-up, mate probe, ``go mate``, table size) is ``shogi_engine.py``.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from sakiyomi import __version__
from sakiyomi.game import GameError
from sakiyomi.games.shogi import (
    DEFAULT_EVALUATION,
    EVALUATIONS,
    ShogiGame,
    load_kernels,
    parse_position,
)
from sakiyomi.inputs import shown
from sakiyomi.protocols.engine_loop import (
    GoSession,
    Output,
    ProtocolError,
    Reply,
    SearchThread,
    serve,
    stdout_text,
)
from sakiyomi.protocols.go import GoParams, parse_go, parse_int
from sakiyomi.protocols.shogi_engine import (
    SWITCHES,
    Options,
    first_answer,
    mate_search,
    table_for,
    think,
)
from sakiyomi.search.limits import TimePlan
from sakiyomi.tt import TranspositionTable

ENGINE_NAME = f"sakiyomi {__version__}"
AUTHOR = "sakiyomi developers"
MAX_HASH_MB = 4096
SHORT_SEARCH = TimePlan.fixed(0.1)  # the answer to a go whose parameters make no sense
# The spin options: name -> (the ``Options`` field it sets, min, max); the default shown to
# the GUI is the field's default, so each setting is written once.
_SPINS = {"USI_Hash": ("hash_mb", 1, MAX_HASH_MB),
          "ByoyomiMargin": ("byoyomi_margin_ms", 0, 10_000),
          "MateProbeNodes": ("mate_probe_nodes", 0, 10_000_000),
          "CheckExtensionLimit": ("check_extension_limit", 0, 64),
          "QsEvasionLimit": ("qs_evasion_limit", 0, 64),
          "HangingEvasionDepth": ("hanging_evasion_depth", 0, 64),
          "DeltaMargin": ("delta_margin", 0, 100_000),
          "IIRDepth": ("iir_depth", 0, 64),
          "NullMoveReduction": ("null_move_reduction", 1, 16),
          "NullMoveDepthDivisor": ("null_move_depth_divisor", 0, 64),
          "NullMoveEvalDivisor": ("null_move_eval_divisor", 0, 100_000)}
# The spin options that set the search (not the table, the clock or the probe).
SEARCH_SPINS = {name: spec for name, spec in _SPINS.items()
                if name not in ("USI_Hash", "ByoyomiMargin", "MateProbeNodes")}


def _spin_line(name: str) -> str:
    """The ``option`` line of spin option ``name``."""
    field_name, low, high = _SPINS[name]
    default = getattr(Options(), field_name)
    return f"option name {name} type spin default {default} min {low} max {high}"


_OPTION_LINES = (
    _spin_line("USI_Hash"),
    "option name USI_Ponder type check default false",
    *(_spin_line(name) for name in _SPINS if name != "USI_Hash"),
    *(f"option name {name} type check default {str(on).lower()}" for name, on in SWITCHES.items()),
    f"option name Evaluation type combo default {DEFAULT_EVALUATION} "
    + " ".join(f"var {name}" for name in EVALUATIONS),
    "option name MatePlies type combo default 1 var 0 var 1 var 3",
)


class UsiEngine:
    """The USI command handler (see the module docstring)."""

    def __init__(self, output: Output) -> None:
        self.out = output
        self.options = Options()
        # The start position until ``position`` sets one: made at the first ``go`` (or
        # ``isready``), since a game loads the compiled kernels and ``usiok`` must not wait.
        self.game: ShogiGame | None = None
        self._start_pending = True
        self.thread = SearchThread()
        self.tt: TranspositionTable[int] = table_for(self.options.hash_mb)
        self._received: float | None = None  # when the line being handled arrived

    # ---- the Handler protocol -----------------------------------------------------------

    def handle(self, line: str, received: float | None = None) -> bool:
        """Act on one command line (arrived at ``received``, for the clock); False on quit."""
        self._received = received
        command, *words = line.split()  # any whitespace separates words, as in UCI
        rest = " ".join(words)
        actions: dict[str, Callable[[str], None]] = {
            "usi": self._usi, "isready": self._isready,
            "setoption": self._setoption, "usinewgame": self._usinewgame,
            "position": self._position, "go": self._go, "stop": self._stop,
            "ponderhit": self._ponderhit, "gameover": self._gameover,
        }
        if command == "quit":
            return False
        action = actions.get(command)
        if action is None:
            raise ProtocolError(f"unknown command {shown(command)}")
        action(rest)
        return True

    def shutdown(self) -> None:
        """Stop any search before the process ends (it still answers)."""
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
        if name == "USI_Ponder" or name in SWITCHES:
            if value not in ("true", "false"):
                raise ProtocolError(f"{name} takes true or false, not {shown(value)}")
            if name == "USI_Ponder":
                self.options.ponder = value == "true"
            else:
                self.options.switches[name] = value == "true"
        elif name in _SPINS:
            field_name, low, high = _SPINS[name]
            number = parse_int(value, f"option {name}", low - 1, high + 1)
            if not low <= number <= high:
                raise ProtocolError(f"{name} takes an integer in {low}..{high}, "
                                    f"not {shown(value)}")
            if name == "USI_Hash":
                self.thread.halt()
                self.tt = table_for(number)
            setattr(self.options, field_name, number)
        elif name in ("Evaluation", "MatePlies"):
            self._set_game_option(name, value)
        else:
            self.out.send(f"info string ignoring unknown option {shown(name)}")

    def _set_game_option(self, name: str, value: str) -> None:
        """``Evaluation`` and ``MatePlies`` belong to the game: the position is set again."""
        if name == "Evaluation":
            if value not in EVALUATIONS:
                raise ProtocolError(f"Evaluation takes {' or '.join(EVALUATIONS)}, "
                                    f"not {shown(value)}")
            self.options.evaluation = value
        else:
            if value not in ("0", "1", "3"):
                raise ProtocolError(f"MatePlies takes 0, 1 or 3, not {shown(value)}")
            self.options.mate_plies = int(value)
        if self.game is not None:
            self.thread.halt()
            self.game = self.game.with_settings(self.options.evaluation,
                                                self.options.mate_plies)

    def _isready(self, _: str) -> None:
        """``readyok``, after emptying a table cleared by ``usinewgame`` (GUIs wait for it);
        the first ``isready`` loads the compiled kernels (``shogi.load_kernels``: seconds on an
        empty compiler cache) and the start position, so that no search clock pays for them.
        """
        load_kernels()
        self._current()
        self.tt.settle()
        self.out.send("readyok")

    def _usinewgame(self, _: str) -> None:
        self.thread.halt()
        self.tt.clear(now=False)  # emptied by the next search or isready (tt.clear)

    def _current(self) -> ShogiGame | None:
        """The position to search: the start position (with the options' settings) until
        ``position`` has been sent, made on first use.
        """
        if self._start_pending:
            self._start_pending = False
            self.game = ShogiGame(evaluation=self.options.evaluation,
                                  mate_plies=self.options.mate_plies)
        return self.game

    def _position(self, rest: str) -> None:
        self._start_pending = False
        self.game = None
        try:
            sfen, moves = parse_position(rest)
            game = ShogiGame(sfen, evaluation=self.options.evaluation,
                             mate_plies=self.options.mate_plies)
            for ply, text in enumerate(moves, 1):
                try:
                    game.play(game.move_from_text(text))
                except GameError as exc:
                    raise ProtocolError(f"position: move {ply} ({shown(text)}): {exc}; "
                                        "no position is set") from None
        except GameError as exc:
            raise ProtocolError(f"position: {str(exc)[:200]}; no position is set") from None
        self.game = game

    def _go(self, rest: str) -> None:
        """Start a search (or ``go mate``); exactly one answer follows, whatever ``rest``."""
        words = rest.split()
        mate = words[:1] == ["mate"]
        plan: TimePlan | None = None
        try:
            go = parse_go(words, "usi")
        except ProtocolError as exc:
            self.out.send(f"info string error: {exc}; searching briefly")
            go, plan = GoParams(mate_search=mate), SHORT_SEARCH
        margin = self.options.byoyomi_margin_ms / 1000
        current = self._current()
        game = current.copy() if current is not None else None
        if game is None:
            self.thread.halt()
            self.out.send("info string error: no valid position; send 'position' first")
            self.out.send("checkmate nomate" if go.mate_search else "bestmove resign")
            return
        if go.mate_search:
            if plan is None and go.movetime is not None:
                plan = TimePlan.fixed(go.movetime / 1000 - margin / 2)
            reply = Reply(self.out, "timeout", word="checkmate")
            session = GoSession(reply, plan, punctuality=self.thread.punctuality,
                                received=self._received)
            self.thread.start(session, lambda s: mate_search(game, s))
            return
        if plan is None and not go.infinite:
            plan = go.plan(game.board.turn != 0, margin,  # cshogi: 0 is black (sente)
                           reserve=self.thread.reserve())
        reply = Reply(self.out, first_answer(game), held=go.infinite or go.ponder)
        session = GoSession(reply, plan, nodes=go.nodes, clock_running=not go.ponder,
                            punctuality=self.thread.punctuality, received=self._received)
        depth = go.depth
        self.thread.start(session, lambda s: think(game, s, self.options, self.tt, depth))

    def _stop(self, _: str) -> None:
        self.thread.stop()

    def _ponderhit(self, _: str) -> None:
        session = self.thread.session
        if session is None or not session.pondering or session.reply.given:
            raise ProtocolError("ponderhit without a 'go ponder' search")
        session.ponderhit(self._received)

    def _gameover(self, _: str) -> None:
        self.thread.stop()


def main() -> int:
    """Console script ``sakiyomi-usi``: speak USI on stdin/stdout until quit."""
    output = Output(stdout_text())
    return serve(UsiEngine(output), output)


def run(args: argparse.Namespace) -> int:
    """``sakiyomi usi``."""
    return main()
