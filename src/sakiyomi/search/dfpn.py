"""Mate (tsume) search: df-pn, depth-first proof-number search (Nagai 2002), with mate lines.

An AND/OR tree (seed 001: a node of ours is won if ANY child is, the opponent's if ALL are):
the attacker (OR nodes) may only give check (``CheckingMoves``), the defender (AND nodes) may
answer with every legal move; a defender without a move that is lost (``outcome()``) is mated.
Proof numbers count the leaves still to prove; df-pn explores the most-proving node depth-first
under thresholds, storing (φ, δ) per position in a table.

Both numbers are stored from the side to move's point of view (φ, δ): at OR nodes φ = pn,
δ = dn; at AND nodes φ = dn, δ = pn.  A position repeating one on the current line counts as
not mated (sennichite / perpetual check never helps the attacker).  Because such a verdict
depends on the path, a mate may in rare cases be missed (the graph-history-interaction
problem); a mate that is reported is always a real one.

Lengths: a proven node stores the length of the mate it proved (OR: shortest proven child + 1,
AND: longest child + 1).  ``solve_mate`` finds the *shortest* mate by running df-pn with a ply
limit 1, 3, 5, … (table keys include the plies left, so one table serves every limit), and
proves "no mate" with an unlimited run.
"""

from __future__ import annotations

import random
import time
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from sakiyomi.game import Game, Outcome, Player
from sakiyomi.search.errors import at_root, unwind
from sakiyomi.search.limits import SearchAborted, StopSignal

M = TypeVar("M", bound=Hashable)

INF = 1 << 40
MAX_LINE = 255  # plies; deeper lines count as not mated (bounds the recursion)
_rng = random.Random(20021)  # fixed seed: deterministic keys, deterministic searches
_MIX = tuple(_rng.getrandbits(64) for _ in range(MAX_LINE + 2))


class MateGame(Game[M], Protocol[M]):
    """A game whose attacker's moves in a mate search are its checking moves."""

    def checking_moves(self) -> Sequence[M]:
        """Legal moves giving check."""
        ...


@dataclass(frozen=True, slots=True)
class MateResult(Generic[M]):
    """Answer of a mate search for the side to move (the attacker).

    ``status``: "mate" (``moves`` is a forced mate line, attacker and defender alternating),
    "nomate" (proven: no forced mate by checks), "unknown" (stopped by the time/node budget).
    ``shortest``: the line's length is proven minimal.
    """

    status: str
    moves: tuple[M, ...]
    nodes: int
    seconds: float
    shortest: bool = False

    @property
    def plies(self) -> int:
        """Length of the mate line."""
        return len(self.moves)


class DfPn(Generic[M]):
    """One df-pn solver for one game object (mutated with play/undo and restored)."""

    def __init__(self, game: MateGame[M], stop: StopSignal | None = None,
                 check_every: int = 256, max_entries: int = 500_000) -> None:
        self.game = game
        self.stop = stop if stop is not None else StopSignal()
        self.nodes = 0
        self._check_every = check_every
        self.max_entries = max_entries
        self._next_poll = 1  # the first node polls (and sets the next poll)
        self._attacker: Player = game.to_move
        self._tables: dict[bool, dict[int, list[int]]] = {False: {}, True: {}}
        self._path: set[int] = set()

    # ---- public -------------------------------------------------------------------------

    def prove(self, max_ply: int | None) -> bool | None:
        """True: mate within ``max_ply`` plies (None: any length); False: proven not;
        None never.  A stop raises SearchAborted, a failing game method a GameMethodError
        naming it and its line; either way the game is back at the root (``search.errors``).
        """
        self._attacker = self.game.to_move
        table = self._tables[max_ply is not None]
        try:
            while True:
                self._mid(INF - 1, INF - 1, max_ply, True, 0)
                entry = table[self._tkey(self.game.key(), max_ply)]
                if entry[0] == 0:
                    return True
                if entry[1] == 0:
                    return False
        except BaseException as exc:
            self._path.clear()
            raise at_root(exc, self.game)  # noqa: B904 (at_root sets the cause)

    def mate_line(self, max_ply: int | None) -> tuple[M, ...]:
        """The proven mate line after ``prove(max_ply)`` returned True: the attacker takes the
        shortest proven mate, the defender the longest resistance.
        """
        game = self.game
        table = self._tables[max_ply is not None]
        line: list[M] = []
        try:
            self._follow(table, max_ply, line)
        except BaseException as exc:
            err: BaseException = exc
            while line:
                err = unwind(err, line.pop(), game, game.undo)
            raise at_root(err, game)  # noqa: B904 (at_root sets the cause)
        for _ in line:
            game.undo()
        return tuple(line)

    def _follow(self, table: dict[int, list[int]], rem: int | None, line: list[M]) -> None:
        """Play the proven line from the root into ``line`` (the caller takes it back)."""
        game = self.game
        or_node = True
        seen: set[int] = set()
        while len(line) <= MAX_LINE:
            key = game.key()
            if key in seen:
                break
            seen.add(key)
            moves = game.checking_moves() if or_node else game.legal_moves()
            child_rem = rem - 1 if rem is not None else None
            best: M | None = None
            best_len = 0
            for move in moves:
                game.play(move)
                try:
                    child_key = game.key()
                except BaseException as exc:
                    raise unwind(exc, move, game, game.undo)  # noqa: B904 (unwind sets the cause)
                game.undo()
                entry = table.get(self._tkey(child_key, child_rem))
                if entry is None:
                    continue
                proven = entry[1] == 0 if or_node else entry[0] == 0
                if proven and (best is None or (entry[2] < best_len if or_node
                                                else entry[2] > best_len)):
                    best, best_len = move, entry[2]
            if best is None:
                break
            game.play(best)
            line.append(best)
            rem = child_rem
            or_node = not or_node

    # ---- the search ---------------------------------------------------------------------

    @staticmethod
    def _tkey(key: int, rem: int | None) -> int:
        return key if rem is None else key ^ _MIX[rem]

    def _poll(self) -> None:
        self._next_poll = self.stop.next_poll(self.nodes, self._check_every)
        if self.stop.should_stop(self.nodes):
            raise SearchAborted
        for table in self._tables.values():
            if len(table) > self.max_entries:  # bounded memory: keep only solved entries
                for key in [k for k, e in table.items() if e[0] and e[1]]:
                    del table[key]  # in place: frames up the recursion hold this dict
                if len(table) > self.max_entries // 2:
                    table.clear()

    def _mid(self, th_phi: int, th_delta: int, rem: int | None, or_node: bool, ply: int) -> None:
        """Expand the current node until its φ ≥ th_phi or δ ≥ th_delta (or it is solved)."""
        game = self.game
        self.nodes += 1
        if self.nodes >= self._next_poll:
            self._poll()
        key = game.key()
        table = self._tables[rem is not None]
        tkey = self._tkey(key, rem)
        entry = table.get(tkey)
        if entry is not None and (entry[0] >= th_phi or entry[1] >= th_delta):
            return
        # Leaves: OR without checks (or out of plies) is not mated; AND without moves is.
        moves: Sequence[M]
        if or_node:
            if (rem is not None and rem <= 0) or ply >= MAX_LINE:
                table[tkey] = [INF, 0, 0]
                return
            moves = game.checking_moves()
            if not moves:
                table[tkey] = [INF, 0, 0]
                return
        else:
            outcome: Outcome | None = game.outcome()
            if outcome is not None:
                # mated: pn = 0 ⇒ (φ, δ) = (dn, pn) = (∞, 0); any other end: not mated
                table[tkey] = [INF, 0, 0] if outcome.winner == self._attacker else [0, INF, 0]
                return
            if rem is not None and rem <= 0:
                table[tkey] = [0, INF, 0]  # out of plies: the defender escapes (dn = 0)
                return
            moves = game.legal_moves()
        child_rem = rem - 1 if rem is not None else None
        raw: list[int] = []
        keys: list[int] = []
        for move in moves:
            game.play(move)
            try:
                child = game.key()
            except BaseException as exc:
                raise unwind(exc, move, game, game.undo)  # noqa: B904 (unwind sets the cause)
            game.undo()
            raw.append(child)
            keys.append(child if child_rem is None else child ^ _MIX[child_rem])
        path = self._path
        path.add(key)
        # A child repeating a position on the line is not mated (pn = ∞, dn = 0); as (φ, δ):
        # an AND child (this node is OR) has φ = dn = 0, δ = pn = ∞; an OR child has (∞, 0).
        repeat = (0, INF) if or_node else (INF, 0)
        phi = delta = 0
        while True:
            phi, delta = INF, 0
            best = -1
            best_delta = second = INF
            best_phi = 0
            for i, child_key in enumerate(keys):
                if raw[i] in path:
                    c_phi, c_delta = repeat
                else:
                    found = table.get(child_key)
                    c_phi, c_delta = (found[0], found[1]) if found is not None else (1, 1)
                delta += c_phi
                if c_delta < best_delta:
                    second = best_delta
                    best_delta, best_phi, best = c_delta, c_phi, i
                elif c_delta < second:
                    second = c_delta
            phi = best_delta
            if delta > INF:
                delta = INF
            if phi >= th_phi or delta >= th_delta or phi == 0 or delta == 0:
                break
            child_th_phi = th_delta - delta + best_phi
            child_th_delta = min(th_phi, second + 1)
            move = moves[best]
            game.play(move)
            try:
                self._mid(child_th_phi, child_th_delta, child_rem, not or_node, ply + 1)
            except BaseException as exc:
                path.discard(key)
                raise unwind(exc, move, game, game.undo)  # noqa: B904 (unwind sets the cause)
            game.undo()
        path.discard(key)
        length = 0
        if (phi == 0) if or_node else (delta == 0):  # proven mate: record its length
            lengths = [table[k][2] for k in keys if k in table
                       and (table[k][1] == 0 if or_node else table[k][0] == 0)]
            if lengths:
                length = 1 + (min(lengths) if or_node else max(lengths))
        table[tkey] = [phi, delta, length]


def solve_mate(
    game: MateGame[M], *, stop: StopSignal | None = None, max_ply: int | None = None,
    short_first: int = 7, shortest: bool = True,
) -> MateResult[M]:
    """Look for a forced mate by the side to move (checks only), leaving ``game`` unchanged.

    First ply-limited df-pn for 1, 3, …, ``short_first`` plies (the first success is the
    shortest mate); then, unless ``max_ply`` is smaller, an unlimited run that proves a mate or
    that none exists; a longer mate found there is shortened by further limited runs when
    ``shortest`` is set.  A stop returns the best line known ("unknown" if none).
    """
    started = time.perf_counter()
    solver = DfPn(game, stop)

    def result(status: str, moves: tuple[M, ...], exact: bool) -> MateResult[M]:
        return MateResult(status, moves, solver.nodes, time.perf_counter() - started, exact)

    limit = max_ply if max_ply is not None else MAX_LINE
    best: tuple[M, ...] = ()
    try:
        for plies in range(1, min(short_first, limit) + 1, 2):
            if solver.prove(plies):
                return result("mate", solver.mate_line(plies), True)
        if limit <= short_first:
            return result("nomate", (), False)
        if not solver.prove(None):
            return result("nomate", (), False)
        best = solver.mate_line(None)
        if len(best) > limit:
            # a mate exists but longer than asked for: look for one within the limit
            for plies in range(short_first + 2, limit + 1, 2):
                if solver.prove(plies):
                    return result("mate", solver.mate_line(plies), True)
            return result("nomate", (), False)
        if not shortest:
            return result("mate", best, False)
        for plies in range(short_first + 2, len(best) - 1, 2):
            if solver.prove(plies):
                return result("mate", solver.mate_line(plies), True)
        return result("mate", best, True)
    except SearchAborted:
        return result("mate" if best else "unknown", best, False)
