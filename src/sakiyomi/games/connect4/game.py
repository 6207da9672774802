"""Connect Four on bitboards, for the Python engine; the rules are the shared kernels.

Every rule (moves, wins, keys, hints, Pons's shortcuts) is a kernel of
``sakiyomi.games.connect4.kernels`` (bitboard layout drawn there); this class keeps the state and
the history for play/undo and converts at the edges.  The compiled solver runs the same
kernels under numba (``sakiyomi.compiled.template``).  The methods the Python search calls at
every node (play, key, legal_moves, value_bounds, search_moves, evaluate, move_hints) do the
kernels' few bit operations on Python ints themselves around the two costly kernels they call
(``k_aligned``, ``k_winning_cells``), and keep each state's threats and hints in bounded memos
(issue 12: the kernels' calls, tuples and repeated threat scans were most of a node's cost);
tests check their answers against the kernels on random games.

POSITION (DESIGN.md §8): Pons's notation, the columns played, ``1`` = leftmost; ``start`` or
the empty string is the empty board.  A prefix ``WxH:`` picks another board size (any with
``W * (H + 1) <= 64``), e.g. ``6x5:3344``.  Values are Pons's scores (``GameUnits``): a win with
one's k-th stone scores ``W*H/2 + 1 - k`` (22 - k on 7×6), a loss the opposite, a draw 0.
"""

from __future__ import annotations

import functools
import re
import types
from collections.abc import Callable, Sequence
from itertools import pairwise
from random import Random
from typing import Any, Self

from sakiyomi.game import MoveError, Outcome, Player, PositionError
from sakiyomi.games.connect4 import kernels as default_kernels
from sakiyomi.inputs import parse_int, shown

KERNEL_MODULE = "sakiyomi.games.connect4.kernels"
_KEY_MIX = int(default_kernels.KEY_MIX)
_WORD = (1 << 64) - 1
_BOARD_FULL = Outcome(None, "board full")
_MEMO_LIMIT = 1 << 14  # entries a game's memos keep (a few MB)
# What a state's per-node answers are made of (``Connect4._new_facts``): the mover's winning
# cells, the opponent's (both empty cells only), ``value_bounds``, and the cells whose columns
# ``search_moves`` plays.
_Facts = tuple[int, int, tuple[int, int], int]
_SIZE = re.compile(r"^\s*([0-9]+)\s*[xX]\s*([0-9]+)\s*:(.*)$", re.S)
MAX_SIDE = 64
LIMITS = "boards with width x (height + 1) <= 64 (7x6 by default); at most one move per cell"


def kernels_for(width: int, height: int) -> types.ModuleType:
    """The plain-Python kernels for a board size (the module itself for 7×6)."""
    if (width, height) == (default_kernels.WIDTH, default_kernels.HEIGHT):
        return default_kernels
    from sakiyomi.compiled.template import build

    return build(KERNEL_MODULE, {"WIDTH": width, "HEIGHT": height}, compiled=False)


def _ints(pair: tuple[Any, Any]) -> tuple[int, int]:
    """A kernel's pair of numbers as Python ints."""
    return int(pair[0]), int(pair[1])


# What ``_board_facts`` gives a ``Connect4``, in the order of its attributes there.
_BoardFacts = tuple[int, int, Any, Callable[[int], bool], Callable[[int, int], int],
                    Callable[[int, int], int],
                    tuple[tuple[tuple[int, int], ...], ...], int, int, int,
                    tuple[tuple[int, int], ...], tuple[tuple[int, int], ...], int,
                    tuple[int, ...], list[Outcome]]


@functools.cache
def _board_facts(width: int, height: int) -> _BoardFacts:
    """The per-size attributes of a ``Connect4`` (shared by every game of that size): its
    kernels, what the per-node methods use bound once (no module look-ups: the kernels they
    call, ``k_aligned``, ``k_winning_cells`` and ``k_parry``, ``k_window``'s answers by stones
    played, and the board's constants as Python ints for the methods that do the kernels'
    few bit operations themselves: play, key, moves, bounds), and the outcome of a four made
    with the n-th stone, by n (Pons's score as the margin).
    """
    if width < 4 and height < 4:
        raise PositionError(f"a {width}x{height} board has no room for four in a row")
    if width < 1 or height < 1 or width * (height + 1) > 64:
        raise PositionError(
            f"a {width}x{height} board does not fit in 64 bits (width x (height+1) <= 64)")
    k: Any = kernels_for(width, height)
    cells = width * height
    return (
        width, height, k, k.k_aligned, k.k_winning_cells, k.k_parry,
        # k_window's answers by stones played: a win at once, every move losing, open.
        tuple(tuple(_ints(k.k_window(wins, parries, n))
                    for wins, parries in ((True, 1), (False, 0), (False, 1)))
              for n in range(cells + 1)),
        cells, int(k.BOTTOM), int(k.BOARD),
        tuple((int(k.COLUMN[c]), c) for c in k.ORDER),  # _columns
        tuple((int(k.TOP_CELL[c]), c) for c in k.ORDER),  # _tops
        sum(int(cell) for cell in k.TOP_CELL),  # _top_row
        tuple(int(cell) for cell in k.BOTTOM_CELL),  # _bottom_cells
        [Outcome(Player((n + 1) % 2), "four in a row", (cells + 2 - n) // 2)  # _endings
         for n in range(cells + 1)],
    )


class Connect4:
    """A Connect Four position with its history; moves are 0-based column numbers."""

    ACYCLIC = True
    # Set per size by ``_board_facts`` (one shared tuple of values, copied into each game).
    width: int
    height: int
    k: Any
    _k_aligned: Callable[[int], bool]
    _k_winning_cells: Callable[[int, int], int]
    _k_parry: Callable[[int, int], int]
    _windows: tuple[tuple[tuple[int, int], ...], ...]
    _cells: int
    _bottom: int
    _board: int
    _columns: tuple[tuple[int, int], ...]
    _tops: tuple[tuple[int, int], ...]
    _top_row: int
    _bottom_cells: tuple[int, ...]
    _endings: list[Outcome]

    def __init__(self, width: int = 7, height: int = 6) -> None:
        # The board's kernels and constants are made once per size (``_board_facts``), shared:
        # a batch makes a game per line, and building them each time was most of its cost.
        # Assigned one by one, not by ``__dict__.update``: an instance whose ``__dict__`` has
        # been asked for reads its attributes more slowly (CPython 3.11): play, outcome and
        # undo, which run at every node, took 13 % longer (275 against 238 ns), and making
        # the game took 0.77 against 0.30 us.
        (self.width, self.height, self.k, self._k_aligned, self._k_winning_cells,
         self._k_parry, self._windows, self._cells, self._bottom, self._board, self._columns,
         self._tops, self._top_row, self._bottom_cells, self._endings) = _board_facts(width,
                                                                                     height)
        self._state: tuple[int, int, int] = (0, 0, 0)
        self._past: list[tuple[int, int, int]] = []
        # The last state outcome() found finished, and its value for the side to move.
        self._finished: tuple[tuple[int, int, int] | None, int] = (None, 0)
        # The last state outcome() found unfinished: legal_moves need not test it again.
        self._open: tuple[int, int, int] | None = None
        # legal_moves by the top cells of the full columns (the list depends on nothing else).
        self._legal: dict[int, tuple[int, ...]] = {}
        # Memos of pure functions, bounded: of a state (``_facts``), of a
        # side's stones (their winning cells, whether they hold four), of a set of cells (the
        # columns holding them, centre first).
        self._facts: dict[tuple[int, int, int], _Facts] = {}
        self._winning: dict[int, int] = {}
        self._fours: dict[int, bool] = {}
        self._moves: dict[int, tuple[int, ...]] = {}

    # ---- Game protocol -----------------------------------------------------------------

    @property
    def to_move(self) -> Player:
        return Player(self._state[2] % 2)

    def legal_moves(self) -> Sequence[int]:
        """``k_legal_moves``: the columns not full, centre first; none once the game is over.

        The search asks outcome() first: a state it has just found unfinished is not tested
        again (``_open``).  The answer depends only on which columns are full, so it is made
        once per set of full columns (a tuple, shared: callers only read it).
        """
        state = self._state
        cur, mask, n = state
        if state is not self._open and (n >= self._cells or self._k_aligned(cur ^ mask)):
            return ()
        full = mask & self._top_row
        moves = self._legal.get(full)
        if moves is None:
            moves = self._legal[full] = tuple(col for top, col in self._tops if not mask & top)
        return moves

    def play(self, move: int) -> None:
        """``k_play``: the stone lands on the column's lowest empty cell (``mask`` plus the
        column's bottom cell carries up to it, Pons's trick); the other side is to move.
        """
        state = self._state
        self._past.append(state)  # (the interpreter's fast path for list.append)
        cur, mask, n = state
        self._state = (cur ^ mask, mask | (mask + self._bottom_cells[move]), n + 1)

    def undo(self) -> None:
        self._state = self._past.pop()

    def outcome(self) -> Outcome | None:
        """``k_outcome``: four in a row for the side that just moved, or a full board.  The
        outcomes are made once per board (``_endings``), and a finished state is remembered
        with its value for ``terminal_value``, which the search asks next.  Whether a side's
        stones hold four is kept by stones (``_fours``): a search meets the same stones under
        many orders of the other side's moves (at depth 7, 3,000 sets in 120,000 nodes).
        """
        state = self._state
        cur, mask, n = state
        stones = cur ^ mask
        fours = self._fours
        four = fours.get(stones)
        if four is None:
            four = fours[stones] = self._k_aligned(stones)
            if len(fours) >= _MEMO_LIMIT:
                fours.clear()
        if not four and n < self._cells:
            self._open = state
            return None
        ending = self._endings[n] if four else _BOARD_FULL
        self._finished = state, -ending.margin
        return ending

    def evaluate(self) -> int:
        """``k_evaluate``: own minus opposing winning cells (``_facts``, popcounts by
        ``int.bit_count``).
        """
        state = self._state
        facts = self._facts.get(state)
        if facts is None:
            facts = self._new_facts(state)
        return facts[0].bit_count() - facts[1].bit_count()

    def key(self) -> int:
        """``k_key``: the perfect key ``cur + mask + bottom``, mixed (an odd factor mod 2**64,
        then the high half xored down) so that its low bits, the table slot, depend on every
        cell.
        """
        cur, mask, _ = self._state
        m = ((cur + mask + self._bottom) * _KEY_MIX) & _WORD
        return m ^ (m >> 32)

    def copy(self) -> Self:
        clone = type(self)(self.width, self.height)
        clone._state = self._state
        clone._past.extend(self._past)
        return clone

    @property
    def moves_played(self) -> list[int]:
        """The columns played so far, read off the stored states (each move adds one bit to
        the mask, in its column), so that play/undo keep one list, not two.
        """
        masks = [state[1] for state in self._past] + [self._state[1]]
        h1 = self.height + 1
        return [(int(b ^ a).bit_length() - 1) // h1 for a, b in pairwise(masks)]

    def move_to_text(self, move: int) -> str:
        return str(move + 1)

    def move_from_text(self, text: str) -> int:
        t = text.strip()
        try:
            column = parse_int(t, "column", high=MAX_SIDE)
        except ValueError:
            raise MoveError(f"move {shown(text)} is not a column number 1-{self.width}") from None
        return self._check(column - 1, t)

    # ---- capabilities: scores in Pons's units, shortcuts, hints, kernels ----------------

    def terminal_value(self, ply: int) -> int:
        """Pons's score of a finished position for the side to move (ply-independent)."""
        state, value = self._finished
        if state is not self._state:  # not the state outcome() has just found finished
            value = self.k.k_outcome(self._state, ply)[1]
        return value

    def solve_table_bits(self) -> int:
        """``k_table_bits`` (``SolveTable``): the empty cells plus a margin."""
        return int(self.k.k_table_bits(self._state))

    def score_bounds(self) -> tuple[int, int]:
        lo, hi = self.k.k_score_bounds(self._state)
        return int(lo), int(hi)

    def to_game_units(self, score: int) -> int:
        return score

    def value_bounds(self, ply: int) -> tuple[int, int]:
        """``k_bounds`` (Pons's: a win at once, every move losing, two cells or fewer left),
        from the state's ``_facts``.
        """
        state = self._state
        facts = self._facts.get(state)
        if facts is None:
            facts = self._new_facts(state)
        return facts[2]

    def search_moves(self) -> Sequence[int]:
        """``k_search_moves`` (winning moves, else those that do not lose at once, else all),
        centre first: the columns of the state's cells to play (``_facts``), a tuple made
        once per set of cells (shared: callers only read it).
        """
        state = self._state
        facts = self._facts.get(state)
        if facts is None:
            facts = self._new_facts(state)
        cells = facts[3]
        moves = self._moves.get(cells)
        if moves is None:
            moves = tuple([col for column, col in self._columns if cells & column])
            if len(self._moves) >= _MEMO_LIMIT:
                self._moves.clear()
            self._moves[cells] = moves
        return moves

    def move_hints(self, moves: Sequence[int]) -> Sequence[int]:
        """``k_hint`` of each move: the mover's winning cells once the stone is in (the cell
        itself counts if it was one already: a cell's own stone never completes a line
        through it), from ``_winning``.  Not kept per state: a depth-7 search orders a node
        once in about ten times again.
        """
        cur, mask, _ = self._state
        free = ~mask
        bottom = self._bottom_cells
        winning = self._winning
        hints = []
        for move in moves:
            stones = cur | ((mask + bottom[move]) & free)
            cells = winning.get(stones)
            if cells is None:
                cells = self._winning_cells(stones)
            hints.append((cells & free).bit_count())
        return hints

    def _winning_cells(self, stones: int) -> int:
        """``k_winning_cells(stones, 0)``: the cells of the board that would complete four for
        ``stones``, taken or not (a state's are those not in its mask), kept in ``_winning``.

        Within a search the same stones come back far more often than the same state: a
        side's stones are met again under every order of the other side's moves, in the
        children's hints and in the states searched (three lookups in four, Connect Four at
        depth 7), and a lookup costs a tenth of the kernel.
        """
        cells = self._k_winning_cells(stones, 0)
        if len(self._winning) >= _MEMO_LIMIT:
            self._winning.clear()
        self._winning[stones] = cells
        return cells

    def _new_facts(self, state: tuple[int, int, int]) -> _Facts:
        """The ``_Facts`` of ``state``, made and kept (the parries by ``k_parry``,
        ``k_window``'s answers read from a table made of them by ``_board_facts``).

        The Python Searcher asks value_bounds, search_moves and evaluate of a node in turn,
        and iterative deepening visits most nodes again at each depth: each state's answers
        are made once, from each side's winning cells (``_winning``), and kept in a bounded
        memo (cleared when it holds ``_MEMO_LIMIT`` states).
        """
        cur, mask, n = state
        winning = self._winning
        own = winning.get(cur)
        if own is None:
            own = self._winning_cells(cur)
        theirs = winning.get(cur ^ mask)
        if theirs is None:
            theirs = self._winning_cells(cur ^ mask)
        free = ~mask
        own &= free
        theirs &= free
        possible = (mask + self._bottom) & self._board
        wins = own & possible
        if wins:
            facts = (own, theirs, self._windows[n][0], wins)
        else:
            parries = self._k_parry(possible, theirs)
            if parries:
                facts = (own, theirs, self._windows[n][2], parries)
            else:
                facts = (own, theirs, self._windows[n][1], possible)
        if len(self._facts) >= _MEMO_LIMIT:
            self._facts.clear()
        self._facts[state] = facts
        return facts

    def rollout_move(self, rng: Random) -> int:
        """Playout policy (``RolloutPolicy``): a random one of ``search_moves`` (a win at once
        if there is one, else a move that does not lose at once), like the compiled playouts
        with ``rollout="game"``.
        """
        moves = self.search_moves()
        return int(moves[int(rng.random() * len(moves))])

    def kernel_spec(self) -> tuple[str, dict[str, int]]:
        return KERNEL_MODULE, {"WIDTH": self.width, "HEIGHT": self.height}

    def kernel_state(self) -> tuple[int, ...]:
        return self._state

    def mirrored(self) -> Self:
        """The position with every column reflected (MirrorSymmetry): same value."""
        clone = type(self)(self.width, self.height)
        for move in self.moves_played:
            clone.play(self.width - 1 - move)
        return clone

    def mirror_move(self, move: int) -> int:
        return self.width - 1 - move

    # ---- text --------------------------------------------------------------------------

    def _check(self, col: int, text: str, number: int | None = None) -> int:
        """The column if it can be played, else a MoveError naming the move."""
        where = f"move {number} ({text!r})" if number is not None else f"move {text!r}"
        if not 0 <= col < self.width:
            raise MoveError(f"{where} is beyond the board: columns are 1-{self.width}")
        finished, value = self.k.k_outcome(self._state, 0)
        if finished:
            why = "four in a row" if value else "the board is full"
            raise MoveError(f"{where} comes after the game is over ({why})")
        if self._state[1] & self.k.TOP_CELL[col]:
            raise MoveError(f"{where} plays column {col + 1}, which is full")
        return col

    def position_text(self) -> str:
        """The POSITION string (moves played, 1-based columns)."""
        prefix = "" if (self.width, self.height) == (7, 6) else f"{self.width}x{self.height}:"
        return prefix + "".join(str(m + 1) for m in self.moves_played)

    def __str__(self) -> str:
        cur, mask, n = self._state
        mine = "x" if n % 2 == 0 else "o"
        theirs = "o" if mine == "x" else "x"
        rows = []
        for row in range(self.height - 1, -1, -1):
            cells = []
            for col in range(self.width):
                bit = 1 << (col * (self.height + 1) + row)
                cells.append("." if not mask & bit else mine if cur & bit else theirs)
            rows.append(" ".join(cells))
        rows.append(" ".join(str(c + 1) for c in range(self.width)))
        return "\n".join(rows)


def from_position(name: str, text: str) -> Connect4:
    """Parse Pons's move string (optionally ``WxH:`` first); errors name the offending move.

    A batch of positions is parsed line by line, so the usual case is one pass over the digits
    with plain integer arithmetic (``_replay``); only a string it cannot vouch for goes move by
    move through the checked path, which then names the first bad move.
    """
    width, height, moves = 7, 6, text
    sized = _SIZE.match(text) if ":" in text else None
    if sized:
        width = parse_int(sized.group(1), "board width", high=MAX_SIDE, error=PositionError)
        height = parse_int(sized.group(2), "board height", high=MAX_SIDE, error=PositionError)
        moves = sized.group(3)
    moves = moves.strip()
    if moves.lower() == "start":
        moves = ""
    game = Connect4(width, height)
    if _replay(game, moves):
        return game
    for number, ch in enumerate(moves, 1):
        if not ("0" <= ch <= "9"):
            raise PositionError(
                f"connect4 position {shown(text)}: move {number} ({ch!r}) is not a column digit")
        try:
            col = game._check(int(ch) - 1, ch, number)
        except MoveError as exc:
            raise PositionError(f"connect4 position {shown(text)}: {exc}") from None
        game.play(col)
    return game


def _replay(game: Connect4, moves: str) -> bool:
    """Play ``moves`` on the empty ``game`` in one pass and return True, if every move is legal:
    a column digit, a column not full, and no move after a four in a row (board full cannot
    come first: a full board has no column left).  Four in a row is checked once, at the end:
    stones stay, so a four made before the last move is still there, either the other side's
    or the last mover's without the last stone.  A full column is seen at the end too: its
    next stone sets the column's sentinel bit, which stays set.  False leaves ``game``
    untouched.  A batch parses every line here: a dict look-up and three integer operations
    per move, half the cost of checking each move as it is played.
    """
    bottom, sentinels = _cells(game.width, game.height)
    cur = mask = 0
    past: list[tuple[int, int, int]] = []
    append = past.append
    try:
        for n, ch in enumerate(moves):
            append((cur, mask, n))
            cur ^= mask
            mask |= mask + bottom[ch]  # the column's lowest empty cell (Pons's addition)
    except KeyError:  # not a column digit
        return False
    if mask & sentinels:  # a column played beyond its top
        return False
    n = len(moves)
    last = mask ^ past[-1][1] if n else 0  # the cell the last stone landed on
    mover = cur ^ mask  # the last mover's stones (``cur`` is the side to move's)
    k = game.k
    if k.k_aligned(cur) or (n and k.k_aligned(mover ^ last)):
        return False
    game._state = (cur, mask, n)
    game._past = past  # moves_played is read off these states
    return True


_CELLS: dict[tuple[int, int], tuple[dict[str, int], int]] = {}


def _cells(width: int, height: int) -> tuple[dict[str, int], int]:
    """(column digit -> the column's bottom cell, the sentinel row) for a board size; columns
    beyond 9 have no digit (such boards are read move by move, which names the move).
    """
    cells = _CELLS.get((width, height))
    if cells is None:
        h1 = height + 1
        bottom = {str(c + 1): 1 << (c * h1) for c in range(min(width, 9))}
        sentinels = sum(1 << (c * h1 + height) for c in range(width))
        cells = _CELLS[(width, height)] = (bottom, sentinels)
    return cells
