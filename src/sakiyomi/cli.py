"""The ``sakiyomi`` command line (contract: DESIGN.md §8).

Errors in what the user typed (game, position, move, option) print one line on stderr and exit
with status 2; internal errors exit with 1.
"""

from __future__ import annotations

import argparse
import codecs
import contextlib
import importlib
import io
import json
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NoReturn, cast

from sakiyomi.agents import Agent, HumanAgent, MCTSAgent, SearchAgent
from sakiyomi.engines import (
    ENGINES,
    BlockSolver,
    EngineSession,
    analyze_position,
    block_solver,
    mcts_position,
    perft_position,
    prepare,
    search_position,
    solve_position,
)
from sakiyomi.game import Game, GameError, GameUnits, KernelGame, Player, capable
from sakiyomi.games import GAMES, load, parser
from sakiyomi.inputs import InputError, parse_int, parse_seconds
from sakiyomi.match import play_game
from sakiyomi.score import MAX_PLY, format_score, is_decisive, result_word, sign
from sakiyomi.search import algorithms
from sakiyomi.search.limits import Limits, StopSignal
from sakiyomi.search.mcts import MAX_EXPLORATION, MCTSConfig

# Limits of the numbers the command line takes (each refused beyond, in one line).
MAX_DEPTH = MAX_PLY - 1  # the search horizon (perft's recursion stays within it too)
MAX_NODES = 10**15  # the compiled engine counts nodes in 64 bits: far below 2**63
MAX_SECONDS = 1e6  # about 11.6 days: any real time limit, with room for node budgets
MAX_DRAWN = 10**7  # nodes recorded or drawn by `tree`
MAX_BATCH_NUMBER = 10**6  # the numbers that may follow a batch line's position (a score)
# A single solve tries the Python engine this far before loading the compiled one (same
# answers, same node counts).  Measured (bench/connect4.py --startup, load 17-19): a cached
# compiled start costs ~1.2 CPU-s more than a Python one, and the Python engine solves
# Connect Four at 25-35 k nodes per CPU-second (break-even ~35 k nodes).  On 156 random
# positions of our own (8-32 moves played, seed 12) that cost model gives a mean of 0.69
# CPU-s with 5,000 nodes, 0.71 with 10,000 and 0.78 with 20,000: most positions are either
# tiny or far beyond any budget, and a budget is lost on every large one.
PYTHON_FIRST_NODES = 5_000
MAX_MESSAGE = 500  # characters of an error line
MAX_SEARCHES = 64  # searches the web app may run at once
# Python frames a MAX_PLY-deep search needs (a few per ply), with room for the callers.
RECURSION_LIMIT = 8 * MAX_PLY + 1000
GAME_HELP = "one of: %(choices)s (built in, or from installed packages)"
POSITION_HELP = ("the position in the game's own notation: connect4 column digits ('4453'; "
                 "'start'), othello 64 cells and the side to move (or 'start'), chess a FEN "
                 "or 'start', shogi an SFEN or 'start', tictactoe 9 cells of x, o and "
                 "'.' (or 'start'), nim heap sizes ('3,4,5'), bones a count, tree a nested "
                 "list ('[[3,5],[2,9]]')")


class UsageError(Exception):
    """Bad command-line input: reported in one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    """argparse that reports errors in one line (no usage dump) and exits with 2."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def game_value(game: Game[Any], value: int, solved: bool) -> int:
    """A score in the game's own units (DESIGN.md §8)."""
    if capable(game, GameUnits):  # decided once per class (a Protocol isinstance is slow)
        return cast(GameUnits, game).to_game_units(value)
    if solved and is_decisive(value):
        return sign(value)
    return value


_JSON = json.JSONEncoder(ensure_ascii=False)  # made once: json.dumps(..., ensure_ascii=False)
# builds a new encoder on every call
_flush_each_line = True  # False while a batch reads stdin through ``_input_lines``


def _emit(record: dict[str, Any], as_json: bool, text: str) -> None:
    out = sys.stdout
    out.write(_JSON.encode(record) if as_json else text)
    out.write("\n")
    if _flush_each_line:
        out.flush()


def _input_lines(stream: Any, chunk_size: int = 1 << 16) -> Iterator[str]:
    """The lines of ``stream`` (stdin), one by one, as ``_input_chunks`` reads them."""
    for lines in _input_chunks(stream, chunk_size):
        yield from lines


def _input_chunks(stream: Any, chunk_size: int = 1 << 16) -> Iterator[list[str]]:
    """The lines of ``stream`` (stdin) as they come: a list per read of up to ``chunk_size``
    bytes, with stdout flushed whenever no more input is at hand rather than after every
    line: a batch fed a file or a pipe writes its answers in large blocks, and a program that
    talks to it line by line still gets each answer before it must send the next question.
    Undecodable bytes are replaced, as ``_tolerant_streams`` does.  A stream without a file
    descriptor is read line by line, each answer flushed.
    """
    global _flush_each_line
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        for line in stream:
            yield [line]
        return
    encoding = getattr(stream, "encoding", None) or "utf-8"
    decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
    pending = ""
    _flush_each_line = False
    try:
        while True:
            sys.stdout.flush()  # everything answered so far, before waiting for more input
            chunk = os.read(fd, chunk_size)
            text = pending + decoder.decode(chunk, final=not chunk)
            held = ""
            if "\r" in text:  # universal newlines, as text streams read them
                if chunk and text.endswith("\r"):  # perhaps the first half of "\r\n"
                    text, held = text[:-1], "\r"
                text = text.replace("\r\n", "\n").replace("\r", "\n")
            lines = text.split("\n")
            pending = lines.pop() + held
            if lines:
                yield lines
            if not chunk:
                break
        if pending:
            yield [pending]
    finally:
        _flush_each_line = True
        sys.stdout.flush()


def _moves_text(game: Game[Any], moves: Sequence[Any]) -> list[str]:
    return [game.move_to_text(m) for m in moves]


def _watch(as_json: bool, game: Game[Any], label: str) -> Any:
    """Live progress on a terminal (off with --json or when stdout is not a TTY)."""
    from sakiyomi.viz.progress import Watch, interactive

    return Watch(interactive(as_json), label, game.move_to_text)


# ---- search ------------------------------------------------------------------------------


def cmd_search(args: argparse.Namespace) -> int:
    """Search one position with the chosen algorithm and print value, move, PV and counts."""
    game = load(args.game, args.position)
    if game.outcome() is not None:
        raise GameError("the position is already finished: there is nothing to search")
    start = time.perf_counter()
    algorithm = algorithms.get(args.algorithm)
    config = _mcts_config(args, algorithm)
    if config is not None:
        if args.depth is not None or args.no_tt:
            raise UsageError(f"{args.algorithm} has no depth and no table: use --iterations, "
                             "--nodes or --time")
        result = _mcts_run(args, game, config, Limits(nodes=args.nodes, time=args.time))
        value, pv, depth, best = result.value, result.pv, result.depth, result.best_move
        nodes, leaves = result.stats.nodes, result.stats.leaves
        stats: dict[str, Any] = _mcts_stats(game, result)
        exact: bool | None = None
        # The value of playouts is a mean, not a depth-limited NegaMax value: say which it is.
        note = (f"proven {stats['proven']}" if stats["proven"] is not None
                else "playouts' mean, not proven")
    elif algorithm.searcher_based:
        limits = Limits(depth=args.depth, nodes=args.nodes,
                        time=args.time if args.time is not None or args.depth or args.nodes
                        else 10.0)
        with _watch(args.json, game, "searching") as watch:
            result = search_position(game, limits, algorithm=args.algorithm,
                                     engine=args.engine, tt=not args.no_tt,
                                     on_info=watch.on_info, observe=watch.follow)
        value, pv, depth = result.value, result.pv, result.depth
        nodes, leaves = result.stats.nodes, result.stats.leaves
        best = result.best_move
        stats = dict(result.stats.as_dict())
        stats["nps"] = round(result.nps)
        # No depth limit was met anywhere: the value is the game's result, proven.
        exact = bool(result.extra.get("exact", False))
        note = None
    else:
        if args.nodes is not None or args.time is not None:
            driven = " or ".join(a.name for a in algorithms.SEARCHER_BASED)
            raise UsageError(f"--nodes/--time need --algorithm {driven}, not {args.algorithm}")
        depth = args.depth if args.depth is not None else MAX_PLY - 1
        tb = algorithm.run(game.copy(), depth)
        value, pv, nodes, leaves = tb.value, tb.pv, tb.nodes, tb.leaves
        best = pv[0] if pv else None
        stats = {"nodes": nodes, "leaves": leaves, "interior": nodes - leaves}
        exact = None
        note = None
    seconds = time.perf_counter() - start
    pv_text = _moves_text(game, pv)
    best_text = game.move_to_text(best) if best is not None else None
    record = {
        "game": args.game, "position": args.position, "algorithm": args.algorithm,
        "value": game_value(game, value, False), "score": format_score(value),
        "best_move": best_text, "pv": pv_text, "nodes": nodes, "leaves": leaves,
        "depth": depth, "seconds": round(seconds, 6), "stats": stats, "exact": exact,
    }
    # A proven value in a game's own units (Connect Four's 18, Othello's discs) or a draw
    # says so: it cannot be told from a heuristic value by its number.
    value_text = format_score(value)
    if exact and not is_decisive(value):
        value_text += f" ({result_word(value)}, proven)"
    elif note is not None and not is_decisive(value):  # "win in 3" says it already
        value_text += f" ({note})"
    counters = "  ".join(f"{k} {v}" for k, v in stats.items())
    _emit(record, args.json,
          f"value {value_text}  best {best_text}  pv {' '.join(pv_text)}\n"
          f"algorithm {args.algorithm}  depth {depth}  time {seconds:.3f}s\n{counters}")
    return 0


# ---- Monte Carlo tree search -----------------------------------------------------------------

MCTS_DEFAULT_ITERATIONS = 10_000  # when no --iterations, --nodes or --time is given,
MCTS_DEFAULT_SECONDS = 10.0  # or this long, whichever ends first
MCTS_OPTIONS = ("iterations", "exploration", "seed", "rollout", "reward")


def _mcts_config(args: argparse.Namespace, algorithm: algorithms.Algorithm
                 ) -> MCTSConfig | None:
    """The MCTS settings of the command line (None for the other algorithms, which must not
    be given MCTS options).
    """
    given = [f"--{name}" for name in MCTS_OPTIONS if getattr(args, name, None) is not None]
    if algorithm.monte_carlo is None:
        if given:
            names = " or ".join(a.name for a in algorithms.MONTE_CARLO)
            raise UsageError(f"{'/'.join(given)} need --algorithm {names}")
        return None
    return MCTSConfig.from_options(args.exploration, args.seed, args.rollout, args.reward)


def _mcts_run(args: argparse.Namespace, game: Game[Any], config: MCTSConfig,
              limits: Limits) -> Any:
    iterations = args.iterations
    if iterations is None and limits.nodes is None and limits.time is None:
        iterations = MCTS_DEFAULT_ITERATIONS
        limits = Limits(time=MCTS_DEFAULT_SECONDS)
    try:
        with _watch(args.json, game, "playing out") as watch:
            return mcts_position(game, limits, iterations=iterations, config=config,
                                 engine=args.engine, algorithm=args.algorithm,
                                 on_info=watch.on_info, observe=watch.follow)
    except ValueError as exc:  # e.g. --rollout game for a game without a rollout policy
        raise UsageError(str(exc)) from None


def _mcts_stats(game: Game[Any], result: Any) -> dict[str, Any]:
    extra = result.extra
    visits = {game.move_to_text(m): n for m, n in extra["visits"].items()}
    return {"nodes": result.stats.nodes, "leaves": result.stats.leaves,
            "iterations": extra["iterations"], "seldepth": result.stats.seldepth,
            "nps": round(result.nps), "proven": extra["proven"], "mean": extra["mean"],
            "engine": extra.get("engine"), "visits": visits}


def _mcts_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--iterations", type=_iterations,
                   help=f"MCTS: playouts (default {MCTS_DEFAULT_ITERATIONS:,} or "
                   f"{MCTS_DEFAULT_SECONDS:g} s without --nodes/--time)")
    p.add_argument("--exploration", type=_exploration, help="MCTS: UCB1 constant c "
                   "(default √2)")
    p.add_argument("--seed", type=_seed, help="MCTS: random seed (default 0)")
    p.add_argument("--rollout", choices=("random", "game"),
                   help="MCTS: random playouts, or the game's playout policy")
    p.add_argument("--reward", choices=("auto", "result", "score"),
                   help="MCTS: +1/0/-1 per playout (result), the game's final score (score); "
                   "auto: score for games that have one")


# ---- solve -------------------------------------------------------------------------------


def _solve_one(name: str, position: str, weak: bool, as_json: bool, batch: bool = False,
               engine: str = "auto", limits: Limits | None = None,
               game: Game[Any] | None = None, session: EngineSession | None = None,
               stop: StopSignal | None = None) -> None:
    """Solve and print one position (``game``: already parsed from ``position``; ``session``:
    a batch's engine, emptied for each line; ``stop``: a batch's signal when no line has
    limits, instead of one per line).
    """
    game = game if game is not None else load(name, position)
    if game.outcome() is not None:
        raise GameError(f"position {position!r} is already finished: there is nothing to solve")
    start = time.perf_counter()
    if batch:  # no live progress: one engine for every line
        result = solve_position(game, weak=weak, engine=engine, limits=limits,
                                session=session, stop=stop)
    else:
        with _watch(as_json, game, f"solving {position}") as watch:
            result = solve_position(game, weak=weak, engine=engine, observe=watch.follow,
                                    limits=limits, python_first=PYTHON_FIRST_NODES)
    seconds = min(result.seconds, time.perf_counter() - start)  # the solve itself
    value = result.value if weak else game_value(game, result.value, True)
    pv_text = _moves_text(game, result.pv)
    best = game.move_to_text(result.best_move) if result.best_move is not None else None
    stats = result.stats
    record: dict[str, Any] = {
        "game": name, "position": position, "algorithm": "weak" if weak else "exact",
        "value": value, "result": result_word(result.value),
        "best_move": best, "pv": pv_text,
        "nodes": stats.nodes, "leaves": stats.leaves, "depth": len(pv_text),
        "seconds": round(seconds, 6), "microseconds": int(seconds * 1e6),
    }
    if not result.complete:  # stopped by --time/--nodes: what was proved so far
        lower, upper = (int(str(result.extra[k])) for k in ("lower", "upper"))
        if not weak:
            lower, upper = game_value(game, lower, True), game_value(game, upper, True)
        record.update(value=None, result="unknown", lower=lower, upper=upper)
        _emit(record, as_json,
              "" if as_json else f"{position} unknown: between {lower} and {upper} (stopped)"
              f"{f' best so far {best}' if best else ''} nodes {stats.nodes} "
              f"us {int(seconds * 1e6)}")
        return
    _emit(record, as_json,
          "" if as_json else f"{position} {value} {record['result']} best {best} "
          f"pv {' '.join(pv_text)} nodes {stats.nodes} us {int(seconds * 1e6)}")


def _batch_position(name: str, text: str) -> str:
    """The POSITION of a batch line: the text before any ';' when the game reads it whole (an
    OBF line 'BOARD X; A2:+38'), else its first word when only numbers follow it (Pons's
    'MOVES SCORE' lines).  Anything else is returned whole, so that the game refuses it and
    the line is reported: never a guess (an empty head is not the empty board).
    """
    return _batch_line(parser(name), text)[0]


def _batch_line(parse: Callable[[str], Game[Any]], text: str) -> tuple[str, Game[Any] | None]:
    """``_batch_position`` and the game it was read as (``parse``: ``games.parser``), when
    reading it whole succeeded (so that a batch parses each line once).
    """
    head = (text.split(";", 1)[0] if ";" in text else text).strip()
    if not head:
        return text, None
    try:
        game = parse(head)
    except GameError:
        words = head.split()
        if len(words) >= 2 and all(_is_integer(word) for word in words[1:]):
            return words[0], None
        return head, None
    return head, game


def _is_integer(word: str) -> bool:
    try:
        parse_int(word, "score", low=-MAX_BATCH_NUMBER, high=MAX_BATCH_NUMBER)
    except InputError:
        return False
    return True


def cmd_solve(args: argparse.Namespace) -> int:
    """Solve one position, or one per stdin line with POSITION '-' (bad lines are reported)."""
    if args.workers is not None or args.ray is not None or args.checkpoint is not None:
        from sakiyomi.parallel.commands import solve_guarded

        return solve_guarded(args, game_value, _batch_position)
    if args.position != "-":
        _solve_one(args.game, args.position, args.weak, args.json, engine=args.engine,
                   limits=Limits(nodes=args.nodes, time=args.time))
        return 0
    from sakiyomi.viz.progress import batch, interactive

    status = 0
    bar = interactive(args.json) and not sys.stdin.isatty()
    session = EngineSession(engine=args.engine)
    limits = Limits(nodes=args.nodes, time=args.time)
    unlimited = StopSignal() if limits == Limits() else None  # never fires: one for all
    parse = parser(args.game)

    def one(number: int, text: str) -> int:
        """Solve and print line ``number`` on its own; 2 if it was refused (reported)."""
        try:
            position, game = _batch_line(parse, text)
            _solve_one(args.game, position, args.weak, args.json, batch=True,
                       engine=args.engine, limits=limits, game=game, session=session,
                       stop=unlimited)
        except GameError as exc:
            sys.stdout.flush()  # the answers before it come first
            print(f"sakiyomi: line {number}: {exc}", file=sys.stderr, flush=True)
            return 2
        return 0

    block = None
    if unlimited is not None and not bar:
        with contextlib.suppress(GameError):  # a game with no empty position: line by line
            block = block_solver(load(args.game, ""), args.weak, args.engine)
    if block is not None:  # many lines per compiled call; the rest one by one
        return _solve_blocks(args.game, args.weak, args.json, block, one)
    for number, line in enumerate(batch(_input_lines(sys.stdin), bar), 1):
        text = line.strip()
        if text:
            status = max(status, one(number, text))
    return status


def _solve_blocks(name: str, weak: bool, as_json: bool, block: BlockSolver,
                  one: Callable[[int, str], int]) -> int:
    """A batch read in chunks, each solved in one call of ``block`` (``engines.block_solver``)
    and printed line by line exactly as ``_solve_one`` prints it (its timing aside: each
    line's own, measured inside the call); a line the kernels do not vouch for (anything but
    column digits and trailing numbers, a finished game) goes to ``one``, the per-line path,
    in its place, so its answer or its error message is today's.
    """
    import numpy as np

    status = 0
    number = 0
    proto = load(name, "")
    out = sys.stdout
    # What every record shares, and each move's name and JSON, made once: the block solves a
    # line in microseconds, so printing it must not cost many more (the records are those
    # ``_JSON.encode`` makes of ``_solve_one``'s dict; the tests compare them).
    head = _JSON.encode({"game": name})[:-1] + ", "
    tail = _JSON.encode({"algorithm": "weak" if weak else "exact"})[1:-1] + ", "
    values: dict[int, int] = {}
    words = tuple(result_word(v) for v in (-1, 0, 1))
    names: dict[int | None, str] = {None: "None"}
    jsons: dict[int | None, str] = {None: "null"}

    def named(move: int | None) -> str:
        text = names.get(move)
        if text is None:
            text = names[move] = proto.move_to_text(move)
        return text

    def quoted(move: int | None) -> str:
        text = jsons.get(move)
        if text is None:
            text = jsons[move] = _JSON.encode(named(move))
        return text

    for lines in _input_chunks(sys.stdin):
        todo: list[tuple[int, str]] = []
        for line in lines:
            number += 1
            text = line.strip()
            if text:
                todo.append((number, text))
        if not todo:
            continue
        # (a lone surrogate, from bytes that were not UTF-8, becomes "?": not a column
        # digit, so the line goes to ``one``, which names it)
        pieces = [text.encode("utf-8", "replace") for _, text in todo]
        ends = np.cumsum([len(p) + 1 for p in pieces], dtype=np.int64) - 1
        starts = ends - np.array([len(p) for p in pieces], dtype=np.int64)
        rows, pvs = block(b"\n".join(pieces), starts, ends)
        width = max(1, int(rows[:, 5].max()))  # the longest PV: the rest of each row unused
        done: list[str] = []  # this chunk's answers, written at once (or before a refusal)
        for (line_number, text), row, pv_row in zip(todo, rows.tolist(),
                                                    pvs[:, :width].tolist(), strict=True):
            code, raw, nodes, leaves, best_move, length, nanos = row
            if code != 0:
                out.write("".join(done))
                done.clear()
                status = max(status, one(line_number, text))
                continue
            pv = pv_row[:length]
            if weak:  # search.solve's choice of best move and PV, as the per-line path
                best = best_move if best_move >= 0 else None
                pv = pv if pv else ([best] if best is not None else [])
                value = raw
            else:
                best = pv[0] if pv else (best_move if best_move >= 0 else None)
                value = values.get(raw)
                if value is None:
                    value = values[raw] = game_value(proto, raw, True)
            micros = nanos // 1000
            position = text.partition(" ")[0]  # column digits: k_parse vouched for them
            word = words[(raw > 0) - (raw < 0) + 1]
            if as_json:
                done.append(f'{head}"position": "{position}", {tail}"value": {value}, '
                            f'"result": "{word}", "best_move": {quoted(best)}, '
                            f'"pv": [{", ".join([quoted(m) for m in pv])}], '
                            f'"nodes": {nodes}, "leaves": {leaves}, "depth": {len(pv)}, '
                            f'"seconds": {micros / 1e6!r}, "microseconds": {micros}}}\n')
            else:
                done.append(f"{position} {value} {word} best {named(best)} pv "
                            f"{' '.join([named(m) for m in pv])} nodes {nodes} "
                            f"us {micros}\n")
        out.write("".join(done))
    return status


# ---- analyze -----------------------------------------------------------------------------


def cmd_analyze(args: argparse.Namespace) -> int:
    """The value of every legal move, best first."""
    game = load(args.game, args.position)
    if game.outcome() is not None:
        raise GameError("the position is already finished: there are no moves to analyze")
    start = time.perf_counter()
    config = _mcts_config(args, algorithms.get(args.algorithm))
    if config is not None:
        return _analyze_mcts(args, game, config, start)
    depth = None if args.exact or args.depth is None else args.depth
    with _watch(args.json, game, "analyzing") as watch:
        values, nodes = analyze_position(game, depth, engine=args.engine, observe=watch.follow)
    seconds = time.perf_counter() - start
    solved = depth is None
    moves = [
        {"move": game.move_to_text(mv.move), "value": game_value(game, mv.value, solved),
         "score": format_score(mv.value), "pv": _moves_text(game, mv.pv)}
        for mv in values
    ]
    record = {"game": args.game, "position": args.position, "moves": moves,
              "value": moves[0]["value"], "best_move": moves[0]["move"],
              "pv": moves[0]["pv"], "nodes": nodes, "depth": depth if depth else "exact",
              "seconds": round(seconds, 6)}
    # The score as search prints it ('win in 3', not the table's 999997); an exact value in
    # the game's own units says what it is ('18 win', '0 draw').
    lines = [f"{m['move']:>6}  {_analyzed_value(mv.value, solved):>11}  "
             f"{' '.join(_moves_text(game, mv.pv))}" for m, mv in zip(moves, values, strict=True)]
    _emit(record, args.json, "\n".join(lines) + f"\nnodes {nodes}  time {seconds:.3f}s")
    return 0


def _analyzed_value(value: int, solved: bool) -> str:
    """One move's value on analyze's text line: the score, with its result when exact."""
    text = format_score(value)
    return f"{text} {result_word(value)}" if solved and not is_decisive(value) else text


def _analyze_mcts(args: argparse.Namespace, game: Game[Any], config: MCTSConfig,
                  start: float) -> int:
    """Every root move with its visits, mean and value after the playouts (best first)."""
    if args.depth is not None or args.exact:
        raise UsageError(f"{args.algorithm} has no depth and no exact mode: use --iterations")
    result = _mcts_run(args, game, config, Limits())
    seconds = time.perf_counter() - start
    moves = [{"move": game.move_to_text(m["move"]), "value": game_value(game, m["value"], False),
              "score": format_score(m["value"]), "visits": m["visits"], "mean": m["mean"],
              "proven": m["proven"], "pv": _moves_text(game, m["pv"])}
             for m in result.extra["moves"]]
    record = {"game": args.game, "position": args.position, "algorithm": args.algorithm,
              "moves": moves, "value": moves[0]["value"], "best_move": moves[0]["move"],
              "pv": moves[0]["pv"], "nodes": result.stats.nodes,
              "iterations": result.extra["iterations"], "depth": "playouts",
              "seconds": round(seconds, 6)}
    lines = [f"{m['move']:>6}  {m['score']:>11}  visits {m['visits']:>7}  "
             f"{m['proven'] or '':>4}  {' '.join(m['pv'])}" for m in moves]
    _emit(record, args.json, "\n".join(lines) + f"\niterations {record['iterations']}  "
          f"nodes {result.stats.nodes}  time {seconds:.3f}s")
    return 0


# ---- perft -------------------------------------------------------------------------------


def cmd_perft(args: argparse.Namespace) -> int:
    """Count the leaves of the legal-move tree DEPTH plies deep."""
    game = load(args.game, args.position)
    if args.depth < 0:
        raise UsageError("DEPTH must be 0 or more")
    start = time.perf_counter()
    count, engine = perft_position(game, args.depth, engine=args.engine)
    seconds = time.perf_counter() - start
    record = {"game": args.game, "position": args.position, "depth": args.depth,
              "nodes": count, "engine": engine, "seconds": round(seconds, 6)}
    _emit(record, args.json, str(count))
    return 0


# ---- compile -----------------------------------------------------------------------------


def cmd_compile(args: argparse.Namespace) -> int:
    """Build the compiled searches now (``engines.prepare``), so that no later command pays
    for numba's first compilation: after an install, in an image build, before a timed run.
    Without GAME: every game with kernels (Connect Four, Othello, installed plugins').
    """
    names = args.games
    unknown = [name for name in names if name not in GAMES]
    if unknown:
        raise UsageError(f"unknown game {unknown[0]!r}; choose from {', '.join(GAMES)}")
    if not names:
        names = []
        for name in GAMES:
            with contextlib.suppress(GameError):  # a broken plugin: its own commands say why
                if capable(load(name, GAMES[name].start), KernelGame):
                    names.append(name)
    for name in names:
        try:
            done = prepare(load(name, GAMES[name].start), ahead=not args.no_ahead)
        except GameError as exc:
            raise GameError(f"{name}: {exc}") from exc
        steps = [{"step": what, "cpu_seconds": round(cpu, 3)} for what, cpu in done]
        text = "; ".join(f"{what} {cpu:.1f} CPU-s" for what, cpu in done)
        _emit({"game": name, "built": steps}, args.json, f"{name}: {text}")
    return 0


# ---- play --------------------------------------------------------------------------------


def cmd_play(args: argparse.Namespace) -> int:
    """Play a game; each side is a human at the prompt or the computer."""
    position = args.position if args.position is not None else GAMES[args.game].start \
        if args.game in GAMES else ""
    game = load(args.game, position)
    limits = Limits(depth=args.depth, nodes=args.nodes,
                    time=args.time if args.time is not None
                    else (None if args.depth is not None or args.nodes is not None else 5.0))

    def write(text: str) -> None:
        print(text, flush=True)

    config = _mcts_config(args, algorithms.get(args.algorithm))
    if config is not None:
        if args.depth is not None:
            raise UsageError(f"{args.algorithm} has no depth: use --iterations, --nodes or "
                             "--time")
        limits = Limits(nodes=args.nodes, time=args.time if args.time is not None else
                        None if args.nodes is not None or args.iterations else 5.0)

    def agent(kind: str) -> Agent[Any]:
        if kind == "human":
            return HumanAgent(input, write)
        searcher: Agent[Any]
        if config is not None:
            searcher = MCTSAgent(limits, config, report=write, iterations=args.iterations,
                                 engine=args.engine)
        else:
            searcher = SearchAgent(limits, report=write, engine=args.engine)
        if book is not None:
            from sakiyomi.parallel.book import BookAgent

            return BookAgent(book, searcher, write)
        return searcher

    book = None
    if args.book is not None:
        from sakiyomi.parallel.commands import open_book

        book = open_book(args.book, args.game, game, position)
    agents = {Player.FIRST: agent(args.first), Player.SECOND: agent(args.second)}
    play_game(game, agents, write)
    return 0


# ---- parser ------------------------------------------------------------------------------


def _count(what: str, low: int, high: int) -> Callable[[str], int]:
    """An argparse type: an integer in ``low..high`` (``sakiyomi.inputs.parse_int``)."""

    def parse(text: str) -> int:
        try:
            return parse_int(text, what, low=low, high=high)
        except InputError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return parse


def _seconds(text: str) -> float:
    """An argparse type: a finite number of seconds in (0, ``MAX_SECONDS``]."""
    try:
        return parse_seconds(text, "time", high=MAX_SECONDS)
    except InputError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


_depth = _count("depth", 1, MAX_DEPTH)
_perft_depth = _count("depth", 0, MAX_DEPTH)
_nodes = _count("nodes", 1, MAX_NODES)
_drawn_nodes = _count("node count", 1, MAX_DRAWN)
_pruned_budget = _count("node count", 0, MAX_DRAWN)
_port = _count("port", 0, 65_535)
_searches = _count("searches", 1, MAX_SEARCHES)
_workers = _count("workers", 1, 1024)
_iterations = _count("iterations", 1, MAX_NODES)
_seed = _count("seed", 0, (1 << 63) - 1)
_split_depth = _count("split depth", 1, MAX_DEPTH)


def _exploration(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 <= value <= MAX_EXPLORATION:
        raise argparse.ArgumentTypeError(f"{text!r} must be a number from 0 to "
                                         f"{MAX_EXPLORATION:g}")
    return value


def _move_choosers() -> tuple[str, ...]:
    """The algorithms that analyze and play offer: the production αβ and the Monte Carlo
    family (the textbook functions neither play nor keep a table).
    """
    return (algorithms.DEFAULT, *(a.name for a in algorithms.MONTE_CARLO))


# The extra that installs each optional library (pyproject.toml), for the message above.
_EXTRAS = {"chess": "chess", "cshogi": "shogi", "matplotlib": "plot", "ray": "distributed",
           "starlette": "web", "uvicorn": "web"}


def lazy(target: str) -> Callable[[argparse.Namespace], int]:
    """A subcommand runner ``"module:function"`` imported only when that command runs, so that
    optional extras (chess, shogi, plotting) are not needed by the other commands.
    """

    def run_target(args: argparse.Namespace) -> int:
        module_name, _, function_name = target.partition(":")
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:
            extra = _EXTRAS.get(exc.name or "")
            hint = f" (pip install 'sakiyomi[{extra}]')" if extra else ""
            raise GameError(f"this command needs a library that is not installed: "
                            f"{exc.name}{hint}") from exc
        status: int = getattr(module, function_name)(args)
        return status

    return run_target


Register = Callable[["argparse._SubParsersAction[_Parser]"], None]


def build_parser(extra: Sequence[Register] = ()) -> _Parser:
    """The argument parser with every subcommand."""
    parser = _Parser(prog="sakiyomi", description="game-tree search (先読み)")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    # The registry itself (not a list of it) as choices: checking a name stays lazy (plugin
    # games are looked up only for a name that is not built in, or for help and errors).
    games = GAMES

    p = sub.add_parser("search", help="search a position with one algorithm")
    p.add_argument("game", choices=games, metavar="GAME", help=GAME_HELP)
    p.add_argument("position", help=POSITION_HELP)
    p.add_argument("--algorithm", choices=algorithms.NAMES, default=algorithms.DEFAULT,
                   help=f"the search (default {algorithms.DEFAULT}: iterative deepening with "
                   "every enhancement)")
    p.add_argument("--depth", type=_depth, help="plies to search (iterative deepening: the "
                   "last completed depth is the answer)")
    p.add_argument("--nodes", type=_nodes, help="stop after N nodes")
    p.add_argument("--time", type=_seconds, help="stop after S seconds (default 10 when no "
                   "depth or nodes are given)")
    p.add_argument("--no-tt", action="store_true", help="search without a transposition table")
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.add_argument("--engine", choices=ENGINES, default="auto",
                   help="compiled (numba) for kernel games, or the Python Searcher")
    _mcts_options(p)
    p.set_defaults(run=cmd_search)

    p = sub.add_parser("solve", help="perfect (or --weak win/draw/loss) reading; '-' reads stdin")
    p.add_argument("game", choices=games, metavar="GAME", help=GAME_HELP)
    p.add_argument("position", help=POSITION_HELP + "; '-': one position per line of stdin")
    p.add_argument("--weak", action="store_true",
                   help="win, draw or loss only, not the exact score (faster)")
    p.add_argument("--nodes", type=_nodes, help="stop after N nodes (per position)")
    p.add_argument("--time", type=_seconds, help="stop after S seconds (per position)")
    p.add_argument("--json", action="store_true", help="one JSON object per position")
    p.add_argument("--engine", choices=ENGINES, default="auto",
                   help="compiled (numba) for kernel games, or the Python Searcher")
    p.add_argument("--workers", type=_workers, help="solve with N worker processes")
    p.add_argument("--ray", metavar="ADDRESS", help="solve on a Ray cluster ('auto' or host:port)")
    p.add_argument("--checkpoint", metavar="FILE", help="SQLite store: resume, and keep results")
    p.add_argument("--split-depth", type=_split_depth, help="deepest split ply (parallel)")
    p.set_defaults(run=cmd_solve)

    p = sub.add_parser("analyze", help="the value of every legal move")
    p.add_argument("game", choices=games, metavar="GAME", help=GAME_HELP)
    p.add_argument("position", help=POSITION_HELP)
    group = p.add_mutually_exclusive_group()
    group.add_argument("--depth", type=_depth, help="plies to search below each move")
    group.add_argument("--exact", action="store_true",
                       help="solve every move to the end of the game")
    p.add_argument("--algorithm", choices=_move_choosers(), default=algorithms.DEFAULT,
                   help="pvs: αβ values of every move; mcts: visits and means")
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.add_argument("--engine", choices=ENGINES, default="auto",
                   help="compiled (numba) for kernel games, or the Python Searcher")
    _mcts_options(p)
    p.set_defaults(run=cmd_analyze)

    p = sub.add_parser("perft", help="count move sequences (move-generator check)")
    p.add_argument("game", choices=games, metavar="GAME", help=GAME_HELP)
    p.add_argument("position", help=POSITION_HELP)
    p.add_argument("depth", type=_perft_depth, help="plies to count (0 counts the position)")
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.add_argument("--engine", choices=ENGINES, default="auto",
                   help="compiled kernels' move generator for kernel games, or the Python game")
    p.set_defaults(run=cmd_perft)

    p = sub.add_parser("compile", help="build the compiled searches now, not in a later "
                                       "command (first use after an install)")
    p.add_argument("games", nargs="*", metavar="GAME",
                   help="games with kernels (default: all of them)")
    p.add_argument("--no-ahead", action="store_true",
                   help="numba's cache only, not the search built ahead of time")
    p.add_argument("--json", action="store_true", help="one JSON object per game")
    p.set_defaults(run=cmd_compile)

    p = sub.add_parser("play", help="play a game: human or computer on either side")
    p.add_argument("game", choices=games, metavar="GAME", help=GAME_HELP)
    p.add_argument("--first", choices=("human", "cpu"), default="human",
                   help="who moves first (default human)")
    p.add_argument("--second", choices=("human", "cpu"), default="cpu",
                   help="who moves second (default cpu)")
    p.add_argument("--depth", type=_depth, help="the computer searches this many plies")
    p.add_argument("--nodes", type=_nodes, help="the computer's nodes per move")
    p.add_argument("--time", type=_seconds, help="the computer's seconds per move (default 5 "
                   "when no depth or nodes are given)")
    p.add_argument("--position", help="start from this position (the game's notation, as "
                   "for search)")
    p.add_argument("--algorithm", choices=_move_choosers(), default=algorithms.DEFAULT,
                   help="the computer's search: pvs (αβ) or mcts")
    p.add_argument("--engine", choices=ENGINES, default="auto",
                   help="compiled (numba) for kernel games, or the Python Searcher")
    p.add_argument("--book", metavar="FILE", help="play solved positions' moves from a book")
    _mcts_options(p)
    p.set_defaults(run=cmd_play)

    p = sub.add_parser("tree", help="draw the tree an algorithm searched (svg, dot, text)")
    p.add_argument("game", choices=games, metavar="GAME", help=GAME_HELP)
    p.add_argument("position", help=POSITION_HELP)
    p.add_argument("--algorithm", choices=algorithms.NAMES, default="alphabeta",
                   help="the search to draw (default alphabeta)")
    p.add_argument("--depth", type=_depth, help="plies to search")
    p.add_argument("--format", choices=("svg", "dot", "text"),
                   help="picture format (default: from --output's suffix, else text)")
    p.add_argument("-o", "--output", help="write the picture to this file")
    p.add_argument("--max-nodes", type=_drawn_nodes, default=20_000,
                   help="refuse to record more nodes than this")
    p.add_argument("--max-drawn", type=_drawn_nodes,
                   help="collapse subtrees beyond this many drawn nodes (default 300; mcts: "
                   "the 60 most visited positions)")
    p.add_argument("--pruned-budget", type=_pruned_budget, default=2_000,
                   help="positions below pruned moves to draw (0: the pruned moves only)")
    p.add_argument("--engine", choices=ENGINES, default="auto",
                   help="mcts: where the playouts run (compiled for kernel games)")
    _mcts_options(p)
    p.set_defaults(run=lazy("sakiyomi.viz.commands:cmd_tree"))

    p = sub.add_parser("compare", help="node counts of every algorithm, side by side")
    p.add_argument("game", choices=games, metavar="GAME", help=GAME_HELP)
    p.add_argument("position", help=POSITION_HELP)
    p.add_argument("--depth", type=_depth, help="plies to search")
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.add_argument("--plot", help="also plot nodes vs depth to FILE.svg or FILE.png")
    p.set_defaults(run=lazy("sakiyomi.viz.commands:cmd_compare"))

    p = sub.add_parser("bench", help="fixed positions to a fixed depth: nodes, time and the "
                       "node signature")
    p.add_argument("--depth", type=_depth, default=4,
                   help="plies (plus each position's own extra; default 4, CI uses 2)")
    p.add_argument("--engine", choices=ENGINES, default="auto",
                   help="compiled (numba) for kernel games, or the Python Searcher (the "
                   "signature is the same)")
    p.add_argument("--json", action="store_true", help="one JSON object per position, then "
                   "the total")
    p.set_defaults(run=lazy("sakiyomi.benchmark:cmd_bench"))

    # Further commands (each added by its feature; runners imported lazily):
    # p = sub.add_parser("uci", help="..."); p.set_defaults(run=lazy("sakiyomi.protocols.uci:run"))
    p = sub.add_parser("uci", help="chess engine speaking UCI on stdin/stdout")
    p.set_defaults(run=lazy("sakiyomi.protocols.uci:run"))

    p = sub.add_parser("usi", help="USI shogi engine on stdin/stdout (also: sakiyomi-usi)")
    p.set_defaults(run=lazy("sakiyomi.protocols.usi:run"))

    p = sub.add_parser("serve", help="the web app: play every game and watch the search")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default: this computer only)")
    p.add_argument("--port", type=_port, default=8000, help="port to listen on (default 8000)")
    p.add_argument("--open", action="store_true", help="open the page in a browser")
    p.add_argument("--max-seconds", type=_seconds, default=60.0,
                   help="longest search one request may run")
    p.add_argument("--max-searches", type=_searches, default=2,
                   help="searches that may run at once")
    p.set_defaults(run=lazy("sakiyomi.web.server:run"))

    from sakiyomi.parallel.verbs import register as register_book

    register_book(sub, ENGINES, _depth)
    for register in extra:
        register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns the exit status.

    The one unwinding rule of the command line: bad input (``UsageError``, ``GameError``,
    ``InputError``) is one line on stderr and status 2; anything else is an internal error,
    one line and status 1 (the traceback only with ``SAKIYOMI_DEBUG=1``).  Messages are made
    one line whatever they quote.  Undecodable input bytes are replaced (the position that
    holds them is then refused), and output that cannot be encoded is escaped.
    """
    _tolerant_streams()
    sys.setrecursionlimit(max(sys.getrecursionlimit(), RECURSION_LIMIT))
    try:
        args = build_parser().parse_args(argv)
        status: int = args.run(args)
        return status
    except (UsageError, GameError, InputError) as exc:
        _error(f"error: {exc}")
        return 2
    except KeyboardInterrupt:
        _error("interrupted")
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:
        if os.environ.get("SAKIYOMI_DEBUG"):
            raise
        _error(f"internal error: {type(exc).__name__}: {exc} (please report it; "
               "SAKIYOMI_DEBUG=1 shows the traceback)")
        return 1


def _error(message: str) -> None:
    """One line on stderr, however many lines or characters the message quotes."""
    line = " ".join(message.splitlines())
    if len(line) > MAX_MESSAGE:
        line = line[:MAX_MESSAGE] + "…"
    print(f"sakiyomi: {line}", file=sys.stderr, flush=True)


def _tolerant_streams() -> None:
    """Replace undecodable input bytes and escape unencodable output characters."""
    for stream, errors in ((sys.stdin, "replace"), (sys.stdout, "backslashreplace"),
                           (sys.stderr, "backslashreplace")):
        if isinstance(stream, io.TextIOWrapper):
            with contextlib.suppress(ValueError, io.UnsupportedOperation):
                stream.reconfigure(errors=errors)


def usi_main() -> int:
    """Console script ``sakiyomi-usi``: ``sakiyomi usi``, with its handling of a missing
    extra (one line and status 2, not a traceback before the engine starts).
    """
    return main(["usi"])


def uci_main() -> int:
    """Console script ``sakiyomi-uci``: ``sakiyomi uci`` (see ``usi_main``)."""
    return main(["uci"])
