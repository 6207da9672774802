"""UCI (Universal Chess Interface) on the shared engine loop: ``sakiyomi uci`` / ``sakiyomi-uci``.

Commands: uci, debug, isready (answered at once, also during a search), setoption (Hash,
MultiPV, Move Overhead, Ponder, Clear Hash), ucinewgame, position startpos|fen … [moves …],
go (wtime btime winc binc movestogo movetime depth nodes mate infinite ponder; searchmoves is
accepted and ignored), stop, ponderhit, quit.  Every ``go`` gets exactly one ``bestmove``
(``engine_loop.Reply``), also a ``go`` with bad parameters (an ``info string`` says what was
wrong and a short search answers); in ``infinite`` and ``ponder`` mode it is held back until
``stop`` (or ``ponderhit`` and the end of the search), as the protocol requires.  Anything else
the engine cannot accept is answered with an ``info string`` line and the engine keeps running.
The chess side (settings, MultiPV, table size) is ``chess_engine.py``.
"""

from __future__ import annotations

import argparse
import time

import chess

from sakiyomi.game import GameError
from sakiyomi.games.chess import load_kernels, parse_board
from sakiyomi.inputs import shown
from sakiyomi.protocols.chess_engine import (
    PvLine,
    first_choice,
    table_for,
    think,
    think_multipv,
)
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
from sakiyomi.protocols.report import info_line
from sakiyomi.search.limits import Limits, TimePlan
from sakiyomi.search.result import SearchInfo, SearchStats
from sakiyomi.tt import TranspositionTable

NAME = "sakiyomi"
AUTHOR = "sakiyomi developers"
DEFAULT_HASH_MB = 16
MAX_HASH_MB = 1024
MAX_MULTIPV = 64
# Kept back from every movetime and clock for the GUI and the pipes.  bench/engine_time.py, 300
# moves at movetime 200 ms and 300 on a 2 s + 0.1 s clock with two busy loops beside (load
# 6-10, 23 Nov 2026): 50 ms used a median 0.66-0.69 of the movetime, 35 ms 0.74, 25 ms 0.80
# (but 9 moves past the movetime, one by 64 ms); no time losses on the clock at any of them.
# Session 19 (bench/chess_time_use.py, 150 answers each at movetime 200 through python-chess,
# load 1.3-2.6, the way bench/chess.py plays its matches): 35 ms spent a median 0.80 of the
# movetime (the rest was kept back), 20 ms 0.88 (max 0.975), 10 ms 0.92 (max 0.993), none
# late.  In a 40-game match against Stockfish at 20 ms and load 2.1-3.7 (other sessions'
# tests beside it), 8 of 1,793 timed answers came late: in three games by 1-5 ms (the
# latest answer of the game), in two games 2 and 3 answers, the latest 113 and 385 ms late
# (stalls no overhead would have met).  25 ms covers the small ones: a movetime of 200 is
# aimed at 170 ms at most (the ``Punctuality`` lead, 5 ms while answers are on time, grows
# with the lateness the engine itself sees).
DEFAULT_OVERHEAD_MS = 25
SHORT_SEARCH = TimePlan.fixed(0.1)  # the answer to a go whose parameters make no sense


class UciHandler:
    """Answers UCI commands; the search runs in a SearchThread so the reader stays responsive."""

    def __init__(self, output: Output) -> None:
        self.out = output
        self.board: chess.Board | None = chess.Board()
        self.hash_mb = DEFAULT_HASH_MB
        self.tt: TranspositionTable[chess.Move] = table_for(self.hash_mb)
        self.multipv = 1
        self.overhead = DEFAULT_OVERHEAD_MS / 1000
        self.thread = SearchThread()
        self.debug = False
        self.quitting = False
        self._bounded = True  # the last go ends by itself (a limit, a clock or a depth)
        self._received: float | None = None  # when the line being handled arrived

    # ---- dispatch --------------------------------------------------------------------------

    def handle(self, line: str, received: float | None = None) -> bool:
        """Act on one command line (arrived at ``received``, for the clock); False on quit."""
        self._received = received
        words = line.split()
        command, args = words[0], words[1:]
        if command == "quit":
            self.quitting = True
            return False
        handler = getattr(self, f"cmd_{command}", None) if command.isidentifier() else None
        if handler is None:
            raise ProtocolError(f"unknown command {shown(command)}")
        handler(args)
        return True

    def shutdown(self) -> None:
        """On quit, stop a running search (it still answers); at the end of the input, let a
        bounded search finish first (``echo ... go depth 6 | sakiyomi uci``).
        """
        session = self.thread.session
        if self.quitting or not self._bounded or (session is not None and session.pondering):
            self.thread.stop()
        else:
            self.thread.wait()

    # ---- commands --------------------------------------------------------------------------

    def cmd_uci(self, args: list[str]) -> None:
        """Identify the engine and list its options."""
        self.out.send(f"id name {NAME}")
        self.out.send(f"id author {AUTHOR}")
        self.out.send(f"option name Hash type spin default {DEFAULT_HASH_MB} min 1 "
                      f"max {MAX_HASH_MB}")
        self.out.send("option name Clear Hash type button")
        self.out.send(f"option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}")
        self.out.send(f"option name Move Overhead type spin default {DEFAULT_OVERHEAD_MS} "
                      "min 0 max 5000")
        self.out.send("option name Ponder type check default false")
        self.out.send("uciok")

    def cmd_debug(self, args: list[str]) -> None:
        """Accept 'debug on|off' (no extra output is produced either way)."""
        self.debug = args[:1] == ["on"]

    def cmd_isready(self, args: list[str]) -> None:
        """Answer at once, also while a search runs (the reader thread is never blocked);
        a table cleared by ``ucinewgame`` is emptied first, and the first ``isready`` loads
        the compiled move lists (``chess.load_kernels``: about 5 s on an empty numba cache),
        so that no search clock pays for them (GUIs wait for ``readyok``).
        """
        load_kernels()
        self.tt.settle()
        self.out.send("readyok")

    def cmd_ucinewgame(self, args: list[str]) -> None:
        """Forget the transposition table and the position."""
        self.thread.halt()
        self.tt.clear(now=False)  # emptied by the next search or isready (tt.clear)
        self.board = chess.Board()

    def cmd_setoption(self, args: list[str]) -> None:
        """Hash (MB, the table is rebuilt), Clear Hash, MultiPV, Move Overhead, Ponder."""
        text = " ".join(args)
        if not text.startswith("name "):
            raise ProtocolError(f"setoption needs 'name ...': {shown(text)}")
        name, _, value = text[5:].partition(" value ")
        name, value = name.strip(), value.strip()
        key = name.lower()
        if key == "hash":
            mb = self._spin(name, value, 1, MAX_HASH_MB)
            self.thread.halt()
            self.hash_mb = mb
            self.tt = table_for(mb)
        elif key == "clear hash":
            self.thread.halt()
            self.tt.clear()
        elif key == "multipv":
            self.multipv = self._spin(name, value, 1, MAX_MULTIPV)
        elif key == "move overhead":
            self.overhead = self._spin(name, value, 0, 5000) / 1000
        elif key == "ponder":
            if value.lower() not in ("true", "false"):
                raise ProtocolError(f"option Ponder takes true or false, not {shown(value)}")
        else:
            raise ProtocolError(f"unknown option {shown(name)}")

    def cmd_position(self, args: list[str]) -> None:
        """Set the position; an error keeps the old one (or the legal prefix of moves)."""
        if not args or args[0] not in ("startpos", "fen"):
            raise ProtocolError("position needs 'startpos' or 'fen <FEN>'")
        text = " ".join(args)
        try:
            self.board = parse_board(text)
        except (GameError, ValueError) as exc:
            # A bad move list keeps its legal prefix, so a GUI's later 'go' still makes sense;
            # after a bad FEN there is no position: 'go' answers 'bestmove 0000'.
            message = str(exc)
            if "moves" in args and not message.startswith(("bad FEN", "impossible")):
                self.board = self._legal_prefix(args)
            else:
                self.board = None
            raise ProtocolError(message[:200]) from None

    def cmd_go(self, args: list[str]) -> None:
        """Start a search in the background; exactly one bestmove follows, whatever the
        arguments (bad ones are reported and answered by a short search).
        """
        plan: TimePlan | None
        try:
            go = parse_go(args, "uci")
        except ProtocolError as exc:
            self.out.send(f"info string error: {exc}; searching briefly")
            go, plan = GoParams(), SHORT_SEARCH
        else:
            plan = None
        board = self.board.copy() if self.board is not None else None
        if board is None:
            self.thread.halt()
            self.out.send("info string error: no valid position (the last FEN was rejected)")
            self.out.send("bestmove 0000")
            return
        depth = go.depth
        if go.mate is not None and go.mate <= 0:
            self.out.send(f"info string go mate {go.mate}: a mate takes at least one move; "
                          "searching briefly")
            if not go.has_clock and go.movetime is None:
                plan = SHORT_SEARCH
        elif go.mate is not None:
            depth = min(depth or 2 * go.mate - 1, 2 * go.mate - 1)
        if plan is None and not go.infinite:
            plan = go.plan(board.turn == chess.WHITE, self.overhead,
                           reserve=self.thread.reserve())
        limits = Limits(depth=depth, nodes=go.nodes)
        self._bounded = plan is not None or depth is not None or go.nodes is not None
        moves = list(board.generate_legal_moves())
        reply = Reply(self.out, moves[0].uci() if moves else "0000",
                      held=go.infinite or go.ponder)
        session = GoSession(reply, plan, nodes=go.nodes, clock_running=not go.ponder,
                            punctuality=self.thread.punctuality, received=self._received)
        self.thread.start(session, lambda s: self._search(board, limits, s))

    def cmd_stop(self, args: list[str]) -> None:
        """Stop the search; its bestmove is sent at once."""
        self.thread.stop()

    def cmd_ponderhit(self, args: list[str]) -> None:
        """The opponent played the pondered move: start the clock of this search."""
        session = self.thread.session
        if session is None or not session.pondering or session.reply.given:
            raise ProtocolError("ponderhit without a 'go ponder' search")
        session.ponderhit(self._received)

    # ---- the search (runs in the SearchThread) --------------------------------------------

    def _search(self, board: chess.Board, limits: Limits, session: GoSession) -> None:
        reply = session.reply
        if board.is_game_over(claim_draw=False) or not any(board.generate_legal_moves()):
            reply.info("info string the position is already finished")
            return
        if self.multipv > 1:
            self._search_multipv(board, limits, session)
            return

        def report(info: SearchInfo[chess.Move]) -> None:
            reply.info(info_line(info, [m.uci() for m in info.pv], "uci", multipv=1))
            if info.pv:
                reply.update(info.pv[0].uci(), info.pv[1].uci() if len(info.pv) > 1 else None)
                session.observe(info.pv[0].uci(), info.value)

        # Sent if even depth 1 is not done in time (a loaded machine): not the generator's
        # first move.  Computed here, on the session's clock (about a millisecond of CPU).
        first = first_choice(board, self.tt)
        if first is not None:
            reply.update(first.uci())

        best, _ = think(board, limits, session.signal, tt=self.tt,
                        past_soft=session.past_soft, on_info=report)
        if best is not None and best.uci() != reply.best:
            reply.update(best.uci())

    def _search_multipv(self, board: chess.Board, limits: Limits, session: GoSession) -> None:
        reply = session.reply
        start = time.perf_counter()

        def report(depth: int, lines: list[PvLine], stats: SearchStats) -> None:
            elapsed = time.perf_counter() - start
            for rank, line in enumerate(lines, 1):
                info = SearchInfo(depth, line.value, line.pv, stats, elapsed, self.tt.hashfull())
                reply.info(info_line(info, [m.uci() for m in line.pv], "uci", multipv=rank))
            top = lines[0].pv
            reply.update(top[0].uci(), top[1].uci() if len(top) > 1 else None)

        think_multipv(board, limits, session.signal, count=self.multipv, tt=self.tt,
                      past_soft=session.past_soft, on_depth=report)

    # ---- helpers ---------------------------------------------------------------------------

    @staticmethod
    def _spin(name: str, value: str, low: int, high: int) -> int:
        number = parse_int(value, f"option {name}", low - 1, high + 1)
        if not low <= number <= high:
            raise ProtocolError(f"option {name} must be between {low} and {high}, "
                                f"not {shown(value)}")
        return number

    @staticmethod
    def _legal_prefix(args: list[str]) -> chess.Board:
        cut = args.index("moves")
        board = parse_board(" ".join(args[:cut]))
        for text in args[cut + 1:]:
            try:
                move = chess.Move.from_uci(text)
            except ValueError:
                break
            if not board.is_legal(move):
                break
            board.push(move)
        return board


def serve_uci() -> int:
    """Run the UCI loop on stdin/stdout (any input bytes; see engine_loop)."""
    output = Output(stdout_text())
    return serve(UciHandler(output), output)


def run(args: argparse.Namespace) -> int:
    """``sakiyomi uci``."""
    return serve_uci()


def main() -> int:
    """Console script ``sakiyomi-uci`` (one executable for GUIs)."""
    return serve_uci()
