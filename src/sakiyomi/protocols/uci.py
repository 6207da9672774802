"""UCI (Universal Chess Interface) on the shared engine loop: ``sakiyomi uci`` / ``sakiyomi-uci``.

Commands: uci, debug, isready (answered at once, also during a search), setoption (Hash,
MultiPV, Move Overhead, Ponder, Clear Hash), ucinewgame, position startpos|fen … [moves …],
go (wtime btime winc binc movestogo movetime depth nodes mate infinite ponder searchmoves is
accepted and ignored), stop, ponderhit, quit.  Every ``go`` gets exactly one ``bestmove``; in
``infinite`` and ``ponder`` mode it is held back until ``stop`` (or ``ponderhit`` and the end of
the search), as the protocol requires.  Anything the engine cannot accept is answered with an
``info string`` line and the engine keeps running.
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from dataclasses import dataclass, field

import chess

from sakiyomi.game import GameError
from sakiyomi.games.chess import parse_board
from sakiyomi.protocols.chess_engine import plan_time, think, uci_score
from sakiyomi.protocols.engine_loop import Output, ProtocolError, SearchThread, serve
from sakiyomi.score import is_decisive
from sakiyomi.search.limits import Limits, StopSignal
from sakiyomi.search.result import SearchInfo
from sakiyomi.tt import TranspositionTable

NAME = "sakiyomi"
AUTHOR = "sakiyomi developers"
DEFAULT_HASH_MB = 16
MAX_HASH_MB = 1024
MAX_MULTIPV = 64
DEFAULT_OVERHEAD_MS = 50

_GO_INT = ("wtime", "btime", "winc", "binc", "movestogo", "movetime", "depth", "nodes", "mate")


@dataclass
class GoState:
    """One ``go``: whether bestmove must wait for stop/ponderhit, and the clock budget."""

    infinite: bool = False
    pondering: bool = False
    soft: float | None = None
    hard: float | None = None
    released: threading.Event = field(default_factory=threading.Event)


def parse_go(words: list[str]) -> dict[str, int | bool]:
    """The go parameters as a dict; ProtocolError names a malformed one."""
    params: dict[str, int | bool] = {}
    i = 0
    while i < len(words):
        word = words[i]
        if word in ("infinite", "ponder"):
            params[word] = True
            i += 1
        elif word in _GO_INT:
            if i + 1 >= len(words):
                raise ProtocolError(f"go {word} needs a number")
            try:
                params[word] = int(words[i + 1])
            except ValueError:
                raise ProtocolError(f"go {word}: {words[i + 1]!r} is not an integer") from None
            i += 2
        elif word == "searchmoves":
            break  # accepted, not supported: the whole move list is searched
        else:
            raise ProtocolError(f"unknown go parameter {word!r}")
    return params


class UciHandler:
    """Answers UCI commands; the search runs in a SearchThread so the reader stays responsive."""

    def __init__(self, output: Output) -> None:
        self.out = output
        self.board = chess.Board()
        self.hash_mb = DEFAULT_HASH_MB
        self.tt: TranspositionTable[chess.Move] = TranspositionTable.from_megabytes(self.hash_mb)
        self.multipv = 1
        self.overhead = DEFAULT_OVERHEAD_MS / 1000
        self.thread = SearchThread()
        self.go_state = GoState()
        self.debug = False
        self.quitting = False

    # ---- dispatch --------------------------------------------------------------------------

    def handle(self, line: str) -> bool:
        """Act on one command line; False on quit."""
        words = line.split()
        command, args = words[0], words[1:]
        if command == "quit":
            self.quitting = True
            return False
        handler = getattr(self, f"cmd_{command}", None)
        if handler is None:
            raise ProtocolError(f"unknown command {command!r}")
        handler(args)
        return True

    def shutdown(self) -> None:
        """On quit, stop a running search (it still prints its bestmove); at the end of the
        input, let a bounded search finish first (``echo ... go depth 6 | sakiyomi uci``).
        """
        state = self.go_state
        if self.quitting or state.infinite or state.pondering:
            state.released.set()
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
        """Answer at once, also while a search runs (the reader thread is never blocked)."""
        self.out.send("readyok")

    def cmd_ucinewgame(self, args: list[str]) -> None:
        """Forget the transposition table and the position."""
        self._idle()
        self.tt.clear()
        self.board = chess.Board()

    def cmd_setoption(self, args: list[str]) -> None:
        """Hash (MB, the table is rebuilt), Clear Hash, MultiPV, Move Overhead, Ponder."""
        text = " ".join(args)
        if not text.startswith("name "):
            raise ProtocolError(f"setoption needs 'name ...': {text!r}")
        name, _, value = text[5:].partition(" value ")
        name, value = name.strip(), value.strip()
        key = name.lower()
        if key == "hash":
            mb = self._spin(name, value, 1, MAX_HASH_MB)
            self._idle()
            self.hash_mb = mb
            self.tt = TranspositionTable.from_megabytes(mb)
        elif key == "clear hash":
            self._idle()
            self.tt.clear()
        elif key == "multipv":
            self.multipv = self._spin(name, value, 1, MAX_MULTIPV)
        elif key == "move overhead":
            self.overhead = self._spin(name, value, 0, 5000) / 1000
        elif key == "ponder":
            if value.lower() not in ("true", "false"):
                raise ProtocolError(f"option Ponder takes true or false, not {value!r}")
        else:
            raise ProtocolError(f"unknown option {name!r}")

    def cmd_position(self, args: list[str]) -> None:
        """Set the position; an error keeps the old one (or the legal prefix of moves)."""
        if not args or args[0] not in ("startpos", "fen"):
            raise ProtocolError("position needs 'startpos' or 'fen <FEN>'")
        text = " ".join(args)
        try:
            self.board = parse_board(text)
        except GameError as exc:
            # Keep the legal prefix of a move list, so a GUI's later 'go' still makes sense.
            if "moves" in args and not str(exc).startswith(("bad FEN", "impossible")):
                self.board = self._legal_prefix(args)
            raise ProtocolError(str(exc)) from None

    def cmd_go(self, args: list[str]) -> None:
        """Start a search in the background with the given limits and clock."""
        params = parse_go(args)
        self._idle()
        board = self.board.copy()
        white = board.turn == chess.WHITE
        state = GoState(infinite=bool(params.get("infinite")), pondering=bool(params.get("ponder")))
        depth = params.get("depth")
        nodes = params.get("nodes")
        mate = params.get("mate")
        if isinstance(mate, int) and mate > 0 and depth is None:
            depth = 2 * mate - 1
        clock = params.get("wtime" if white else "btime")
        if "movetime" in params:
            seconds = max(0.0, int(params["movetime"]) / 1000 - self.overhead)
            state.soft = state.hard = seconds
        elif isinstance(clock, int):
            inc = int(params.get("winc" if white else "binc", 0)) / 1000
            togo = params.get("movestogo")
            plan = plan_time(clock / 1000, inc, int(togo) if togo else None, self.overhead)
            state.soft, state.hard = plan.soft, plan.hard
        limits = Limits(depth=int(depth) if depth is not None else None,
                        nodes=int(nodes) if nodes is not None else None)
        signal = StopSignal(nodes=limits.nodes,
                            seconds=None if state.pondering or state.infinite else state.hard)
        self.go_state = state
        self.thread.start(lambda sig: self._search(board, limits, sig, state), signal)

    def cmd_stop(self, args: list[str]) -> None:
        """Stop the search; it prints its bestmove."""
        self.go_state.released.set()
        self.thread.stop()

    def cmd_ponderhit(self, args: list[str]) -> None:
        """The opponent played the pondered move: start the clock of this search."""
        state = self.go_state
        if not state.pondering:
            raise ProtocolError("ponderhit without a 'go ponder' search")
        state.pondering = False
        if state.hard is not None:
            # The clock starts now: give the signal a deadline from this moment.
            self.thread.signal.deadline = time.perf_counter() + state.hard
        state.released.set()

    # ---- the search (runs in the SearchThread) --------------------------------------------

    def _search(self, board: chess.Board, limits: Limits, signal: StopSignal,
                state: GoState) -> None:
        best: chess.Move | None = None
        ponder: chess.Move | None = None
        try:
            if board.is_game_over(claim_draw=False) or not any(board.generate_legal_moves()):
                self.out.send("info string the position is already finished")
            elif self.multipv > 1:
                best, ponder = self._multipv(board, limits, signal, state)
            else:
                soft = state.soft if not (state.infinite or state.pondering) else None

                def report(info: SearchInfo[chess.Move]) -> None:
                    self._info(info, 1, info.value, info.pv)

                best, last = think(board, limits, signal, tt=self.tt, soft_time=soft,
                                   on_info=report)
                if last is not None and len(last.pv) > 1:
                    ponder = last.pv[1]
        except Exception as exc:  # a search bug must never leave the GUI without a bestmove
            self.out.send(f"info string search error: {type(exc).__name__}: {exc}")
        finally:
            # infinite / ponder: the bestmove waits for stop (or ponderhit).
            while (state.infinite or state.pondering) and not signal.event.is_set():
                if state.released.wait(0.05) and not state.infinite and not state.pondering:
                    break
            if best is None:
                moves = list(board.generate_legal_moves())
                best = moves[0] if moves else None
            text = best.uci() if best is not None else "0000"
            tail = f" ponder {ponder.uci()}" if ponder is not None and best is not None else ""
            self.out.send(f"bestmove {text}{tail}")

    def _multipv(self, board: chess.Board, limits: Limits, signal: StopSignal,
                 state: GoState) -> tuple[chess.Move | None, chess.Move | None]:
        """MultiPV: every root move is searched one ply shallower per depth and the best
        ``MultiPV`` lines are reported (exact values for each, not just a bound).
        """
        start = time.perf_counter()
        soft = state.soft if not (state.infinite or state.pondering) else None
        moves = list(board.generate_legal_moves())
        best: tuple[chess.Move | None, chess.Move | None] = (moves[0], None)
        for depth in range(1, limits.max_depth + 1):
            lines: list[tuple[int, tuple[chess.Move, ...], int, float, int]] = []
            for move in moves:
                board.push(move)
                child_limits = Limits(depth=max(1, depth - 1))
                try:
                    if board.is_game_over(claim_draw=False):
                        outcome = board.outcome(claim_draw=False)
                        value = 1_000_000 - 1 if outcome and outcome.winner is not None else 0
                        lines.append((value, (move,), 1, 0.0, 0))
                        continue
                    _, info = think(board, child_limits, signal, tt=self.tt)
                finally:
                    board.pop()
                if info is None:
                    return best  # stopped: keep the last complete depth
                value = -info.value
                if is_decisive(value):
                    value += 1 if value < 0 else -1
                lines.append((value, (move, *info.pv), info.stats.nodes, info.seconds,
                              info.stats.seldepth + 1))
            lines.sort(key=lambda line: -line[0])
            nodes = sum(line[2] for line in lines)
            elapsed = time.perf_counter() - start
            for rank, (value, pv, _, _, seldepth) in enumerate(lines[: self.multipv], 1):
                self.out.send(
                    f"info depth {depth} seldepth {seldepth} multipv {rank} "
                    f"score {uci_score(value)} nodes {nodes} "
                    f"nps {int(nodes / elapsed) if elapsed > 0 else 0} "
                    f"hashfull {self.tt.hashfull()} time {int(elapsed * 1000)} "
                    f"pv {' '.join(m.uci() for m in pv)}")
            best = (lines[0][1][0], lines[0][1][1] if len(lines[0][1]) > 1 else None)
            if soft is not None and elapsed >= soft:
                break
            if signal.should_stop(nodes):
                break
        return best

    def _info(self, info: SearchInfo[chess.Move], rank: int, value: int,
              pv: tuple[chess.Move, ...]) -> None:
        ms = int(info.seconds * 1000)
        self.out.send(
            f"info depth {info.depth} seldepth {info.stats.seldepth} multipv {rank} "
            f"score {uci_score(value)} nodes {info.stats.nodes} nps {int(info.nps)} "
            f"hashfull {info.hashfull} time {ms} pv {' '.join(m.uci() for m in pv)}")

    # ---- helpers ---------------------------------------------------------------------------

    def _idle(self) -> None:
        """Stop a running search (it prints its bestmove) before changing engine state."""
        if self.thread.running:
            self.go_state.released.set()
            self.thread.stop()

    @staticmethod
    def _spin(name: str, value: str, low: int, high: int) -> int:
        try:
            number = int(value)
        except ValueError:
            raise ProtocolError(f"option {name} needs an integer, not {value!r}") from None
        if not low <= number <= high:
            raise ProtocolError(f"option {name} must be between {low} and {high}, not {number}")
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
    """Run the UCI loop on stdin/stdout."""
    output = Output(sys.stdout)
    return serve(UciHandler(output), output)


def run(args: argparse.Namespace) -> int:
    """``sakiyomi uci``."""
    return serve_uci()


def main() -> int:
    """Console script ``sakiyomi-uci`` (one executable for GUIs)."""
    return serve_uci()
