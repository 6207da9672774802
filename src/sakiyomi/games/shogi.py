"""Shogi over cshogi: the rules from cshogi, two evaluations, mate detection, sennichite verdicts.

Moves are cshogi's move integers (they carry the captured piece, which the move hints use);
positions are SFEN (or ``startpos``), move texts USI (``7g7f``, ``8h2b+``, ``P*5e``).

Evaluation (centipawn-like units, from the side to move): ``shogi_eval`` — the seeds' 駒割
(``evaluation="komawari"``, the baseline) or the full evaluation (default: material, piece
placement, distances to both kings, pieces in hand, king safety, the sliders' mobility;
``"nomobility"`` without the last; ``"kingzone"`` with the enemy's attacks next to each king
besides), both updated incrementally in ``play``/``undo`` (a king move is rescored from
scratch; the king-safety, mobility and king-zone terms are computed at evaluation).

Mate detection inside the search (``SearchShortcuts``): a position whose side to move, not in
check, has a mate in one (cshogi's ``mate_move_in_1ply``) is worth ``win_in(ply + 1)`` without
search; with ``mate_plies=3`` a mate in three found by cshogi's ``mate_move(3)`` where the
defender's king has at most ``MATE3_OPEN`` open squares around it is a lower bound.  The full
evaluation also ranks losing captures behind quiet moves and lets quiescence try quiet
promotions.

Game end: no legal moves loses (checkmate, also by pawn-drop mate being illegal); a side to move
that may declare an entering-king win (cshogi's 27-point rule) wins; a position seen for the
fourth time ends the game by sennichite (draw, or a loss for the side that gave perpetual check).
Inside a search, ``repetition_value`` already stops at the first repetition (seed 003).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Self

# cshogi, the rules' library, is otherwise imported lazily (shogi_facade); importing it here
# reports its absence when the game is loaded, as a missing extra, not at the first board.
import cshogi  # noqa: F401

from sakiyomi.game import MoveError, Outcome, Player, PositionError
from sakiyomi.games import shogi_eval as ev
from sakiyomi.games import shogi_facade as cs
from sakiyomi.games.shogi_attacks import attacked, cheapest_attacker
from sakiyomi.games.shogi_eval import MAX_CHECKS
from sakiyomi.games.shogi_notation import read_move
from sakiyomi.inputs import shown
from sakiyomi.score import INF, loss_in, win_in

START = cs.STARTING_SFEN
LIMITS = ("a valid SFEN (9x9, piece counts, no nifu or dead pieces, kings: see "
          "shogi_facade.validate_sfen) or startpos, then optionally 'moves' and legal USI moves")
_LETTERS = ("", "P", "L", "N", "S", "B", "R", "G", "K", "+P", "+L", "+N", "+S", "+B", "+R")

_ALWAYS_PROMOTE = frozenset((cs.PAWN, cs.BISHOP, cs.ROOK))  # never better unpromoted
PROMOTION = 1 << 14
PROMOTION_HINT = 50  # what a promotion adds to a move's hint (move_hints)
NULL = 0  # cshogi's MOVE_NONE: marks a pass (null move) in the move stack
SUPERIOR_VALUE = 20_000  # a repetition with more pieces in hand: winning but not a mate
EVALUATIONS = tuple(ev.EVALUATIONS)
DEFAULT_EVALUATION = ev.DEFAULT
_QUIET_PROMOTERS = frozenset((cs.PAWN, cs.LANCE, cs.ROOK))  # promoted in quiescence
KING_GAIN = 1 << 20  # noisy_gain of a king's capture under king-relative tables: never pruned
MATE3_OPEN = 3  # mate-in-3 probes only against kings with at most this many open squares
# Evaluations remembered by position key (the full evaluation's board terms cost about a third
# of a node; 28 % of a search's evaluations are of a position evaluated before in it, session
# 24).  Emptied when full: about 100 bytes an entry.
EVAL_CACHE_ENTRIES = 1 << 18
# The compiled evaluation, exchange and rescoring kernels (``shogi_eval_kernel``,
# ``shogi_exchange``, ``shogi_rescore``) are loaded by ``load_kernels`` (the first game, or the
# USI engine's ``isready``), not when this module is imported: compiling them on an empty
# compiler cache takes seconds, and a GUI waits for ``usiok`` but expects ``isready`` to take
# its time.
if TYPE_CHECKING:
    from sakiyomi.games import shogi_eval_kernel as eval_kernel
    from sakiyomi.games import shogi_exchange as exchange
    from sakiyomi.games import shogi_rescore as rescore
_LOADED = False  # load_kernels has run
# ``shogi_exchange``'s answer bits (ATTACKED, HANGS), bound by load_kernels: the pruning tests
# read them at every call, as plain module names.
_ATTACKED = _HANGS = 0


def load_kernels() -> None:
    """Load the compiled kernels the game's evaluation and pruning tests call, once
    (compiling them on an empty compiler cache, or loading them from it).
    """
    global _LOADED, _ATTACKED, _HANGS, eval_kernel, exchange, rescore
    if not _LOADED:
        from sakiyomi.games import shogi_eval_kernel as eval_module
        from sakiyomi.games import shogi_exchange as exchange_module
        from sakiyomi.games import shogi_rescore as rescore_module

        eval_kernel, exchange, rescore = eval_module, exchange_module, rescore_module
        _ATTACKED, _HANGS = exchange_module.ATTACKED, exchange_module.HANGS
        _LOADED = True


def _kept(store: dict[int, int], key: int, value: int) -> int:
    """``value`` stored under ``key`` in one of ``ShogiGame``'s position-keyed stores (the
    evaluations, the scores after king moves), the store emptied first when it holds
    ``EVAL_CACHE_ENTRIES``: the one bound both keep.
    """
    if len(store) >= EVAL_CACHE_ENTRIES:
        store.clear()
    store[key] = value
    return value


class ShogiGame:
    """A shogi position with its history (Game protocol over ``cshogi.Board``)."""

    def __init__(self, sfen: str = START, moves: Sequence[str] = (), *,
                 evaluation: str = ev.DEFAULT, mate_plies: int = 1) -> None:
        try:
            self.board = cs.new_board(sfen)
        except ValueError as exc:
            raise PositionError(f"bad SFEN {shown(sfen)}: {exc}") from None
        if evaluation not in ev.EVALUATIONS:
            raise ValueError(f"evaluation must be one of {', '.join(EVALUATIONS)}")
        if mate_plies not in (0, 1, 3):
            raise ValueError("mate_plies must be 0 (off), 1 or 3")
        self.tables = ev.EVALUATIONS[evaluation]
        self._safety = self.tables.safety
        if not _LOADED:
            load_kernels()
        self._terms = eval_kernel.BoardTerms(self.tables)
        self._exchanges = exchange.Exchanges(self.tables.material)
        self._rescorer = rescore.Rescorer(self.tables)
        self._exchanges_of: list[int] | None = None  # the board list it was loaded from
        self._king_relative = self.tables.king_relative
        self._delta = ev.move_delta if self._king_relative or not self.tables.hand_linear \
            else ev.material_delta
        self.mate_plies = mate_plies
        # Piece values for exchanges: the king's above every other, so that it takes only
        # what nothing defends (hangs_piece).
        self._exchange = tuple(1 << 20 if piece_type == cs.KING else worth
                               for piece_type, worth in enumerate(self.tables.material))
        self._start = sfen
        self._score = [ev.board_score(self.tables, self.board)]
        self._keys = [self.board.zobrist_hash()]
        self._moves: list[int] | None = None
        self._pieces: list[int] | None = None  # the board list, fetched once a position
        self._checking: set[int] | None = None  # the checking moves, generated once a position
        self._evals: dict[int, int] = {}  # evaluations by position key (the full evaluation)
        # Incremental scores after king moves by position key: king-relative tables rescore
        # every cell then (a tenth of the moves played, session 24).
        self._rescored: dict[int, int] = {}
        self._played: list[int] = []
        for text in moves:
            self.play(self.move_from_text(text))

    # ---- Game protocol --------------------------------------------------------------------

    @property
    def to_move(self) -> Player:
        return Player(self.board.turn)

    def legal_moves(self) -> Sequence[int]:
        moves = self._moves
        if moves is None:
            moves = self._moves = list(self.board.legal_moves)
        return moves

    def _has_moves(self) -> bool:
        """Whether the side to move has a legal move: the move list's length when it is
        already made, else cshogi's generator's count without the moves as Python ints
        (a third of making the list: in session 28's searches three in four of the positions
        ``outcome`` asked about never needed their list, quiescence standing pat there).
        """
        moves = self._moves
        return bool(moves) if moves is not None else len(self.board.legal_moves) > 0

    def play(self, move: int) -> None:
        board = self.board
        if (move >> 16) & 0xF == cs.KING and (move >> 7) & 0x7F < 81 and self._king_relative:
            board.push(move)  # every cell moves: rescored, or remembered from before
            key = board.zobrist_hash()
            score = self._rescored.get(key)
            if score is None:
                score = _kept(self._rescored, key,
                              self._rescorer.score(board.pieces, board.pieces_in_hand))
            self._score.append(score)
            self._keys.append(key)
        else:
            delta = self._delta(self.tables, board, move)
            self._score.append(self._score[-1] + (delta if board.turn == cs.BLACK else -delta))
            board.push(move)
            self._keys.append(board.zobrist_hash())
        self._played.append(move)
        self._moves = self._pieces = self._checking = None

    def undo(self) -> None:
        if self._played.pop() == NULL:
            self.board.pop_pass()
        else:
            self.board.pop()
        self._score.pop()
        self._keys.pop()
        self._moves = self._pieces = self._checking = None

    def outcome(self) -> Outcome | None:
        if not self._has_moves():
            reason = "checkmate" if self.board.is_check() else "no legal moves"
            return Outcome(self.to_move.other, reason)
        board = self.board
        if board.is_nyugyoku():
            return Outcome(self.to_move, "entering-king declaration")
        verdict = board.is_draw()
        if verdict in (cs.REPETITION_DRAW, cs.REPETITION_WIN, cs.REPETITION_LOSE) \
                and self._keys.count(self._keys[-1]) >= 4:
            if verdict == cs.REPETITION_DRAW:
                return Outcome(None, "sennichite")
            winner = self.to_move if verdict == cs.REPETITION_WIN else self.to_move.other
            return Outcome(winner, "perpetual check")
        return None

    def evaluate(self) -> int:
        if not self._safety:  # the incremental score is all: nothing to remember
            score = self._score[-1]
            return score if self.board.turn == cs.BLACK else -score
        key = self._keys[-1]
        value = self._evals.get(key)
        if value is None:
            value = _kept(self._evals, key, self._full_evaluation())
        return value

    def _full_evaluation(self) -> int:
        """The full evaluation from the side to move: the incremental score plus the terms
        computed from the board (king danger, mobility, king zone, threats: one kernel call,
        ``shogi_eval_kernel``), the tempo and the mate threat.
        """
        board = self.board
        turn = board.turn
        terms = self._terms
        checks = min(self._checks_count(), MAX_CHECKS) if terms.checks_needed else 0
        score = self._score[-1]
        return (-score if turn else score) \
            + terms.score(self._board_list(), board.pieces_in_hand, turn, checks) \
            + self.tables.tempo - self.mate_threat_penalty(board)

    def mate_threat_penalty(self, board: cs.CBoard) -> int:
        """``Tables.mate_threat`` when the opponent would mate in one if the side to move passed
        (standing pat would ignore it), else 0; nothing is known in check.
        """
        if board.is_check():
            return 0
        board.push_pass()
        threat = board.mate_move_in_1ply() if board.king_square(board.turn ^ 1) < 81 else 0
        board.pop_pass()
        return self.tables.mate_threat if threat else 0

    def key(self) -> int:
        return self.board.zobrist_hash()

    def copy(self) -> Self:
        return self.with_settings(self.tables.name, self.mate_plies)

    def for_mate_search(self) -> Self:
        """A copy for df-pn, which never evaluates: material only (a king move costs nothing
        to score), no mate shortcuts.
        """
        return self.with_settings("komawari", 0)

    def with_settings(self, evaluation: str, mate_plies: int) -> Self:
        """A copy (same start and moves) with another evaluation or mate detection."""
        clone = type(self)(self._start, evaluation=evaluation, mate_plies=mate_plies)
        for move in self._played:
            if move == NULL:
                clone.play_null()
            else:
                clone.play(move)
        return clone

    def move_to_text(self, move: int) -> str:
        return cs.move_to_usi(move)

    def move_name(self, move: int) -> str:
        """Japanese notation (KI2: ``▲７六歩``, ``△同銀``, ``▲５八金右``), as players write moves
        (``MoveNames``).
        """
        return cs.move_to_ki2(move, self.board)

    def move_from_text(self, text: str) -> int:
        """A move in USI (``7g7f``, ``8h2b+``, ``P*5e``), or as players write it in Japanese
        (``７六歩``, ``同銀``, ``5八金右``) or CSA (``+7776FU``) notation (``shogi_notation``).
        """
        legal = list(self.legal_moves())
        for move in legal:
            if cs.move_to_usi(move) == text:
                return move
        if _looks_like_usi(text):
            raise MoveError(f"{text} is not a legal move in this position")
        written = read_move(text, self.board, legal)
        if written is None:
            raise MoveError(f"{text!r} is not a legal move here in USI (7g7f, 8h2b+, P*5e), "
                            "Japanese (７六歩, 同銀, ５八金右) or CSA (+7776FU) notation")
        return written

    # ---- capabilities ---------------------------------------------------------------------

    def repetition_value(self, ply: int) -> int | None:
        """Cshogi's verdict on a position repeating one earlier in the game or on the line."""
        verdict = self.board.is_draw()
        if verdict == cs.NOT_REPETITION:
            return None
        if verdict == cs.REPETITION_DRAW:
            return 0
        if verdict == cs.REPETITION_WIN:
            return win_in(ply)
        if verdict == cs.REPETITION_LOSE:
            return loss_in(ply)
        return SUPERIOR_VALUE if verdict == cs.REPETITION_SUPERIOR else -SUPERIOR_VALUE

    def move_hints(self, moves: Sequence[int]) -> list[int]:
        """Captures by value (most valuable victim, least valuable attacker), promotions next.

        With the full evaluation a capture that gives up more than it takes (a victim worth
        less than its capturer, on a square the opponent attacks) is ranked behind the quiet
        moves instead, and checks get no bonus: most checks in shogi are drops next to the
        king that are simply taken, and ranking them first cost a quarter more nodes to the
        same depth (18 positions of our own games, depth 5: first-move cut-offs 85 % → 94 %).
        """
        capture = self._capture_hint
        # One comprehension, the quiet moves' hint (the promotion bonus) inline: most moves
        # are quiet, and a loop with appends cost twice as much.
        return [capture(move) if move & 0xF00000 else (move >> 14 & 1) * PROMOTION_HINT
                for move in moves]

    def _capture_hint(self, move: int) -> int:
        """``move_hints`` of a capture (``move`` takes a piece)."""
        value = self.tables.material
        captured = (move >> 20) & 0xF
        attacker = value[(move >> 16) & 0xF]
        if self._safety and value[captured] < attacker and self._recapturable(move):
            hint = -1
        else:
            hint = value[captured] // 10 + 200 - attacker // 100
        return hint + PROMOTION_HINT if move & PROMOTION else hint

    def noisy_moves(self) -> list[int]:
        """Moves worth a look in quiescence: a capture of a piece at least as valuable as the
        capturer, or of a piece nobody can recapture (a one-step exchange test); a pawn, bishop
        or rook that may promote on the capture is only tried promoting.  With the full
        evaluation also a pawn, lance or rook promoting without capture where nothing attacks
        it.
        """
        value = self.tables.material
        legal = self.legal_moves()
        captures = [move for move in legal if move & 0xF04000]  # promotions too
        promoting = {move for move in captures if move & PROMOTION and move & 0xF00000}
        result = []
        quiet_promotions = self._safety
        for move in captures:
            if not move & 0xF00000:  # a promotion without capture
                if quiet_promotions and (move >> 16) & 0xF in _QUIET_PROMOTERS \
                        and (move >> 7) & 0x7F < 81 and not self._recapturable(move):
                    result.append(move)
                continue
            attacker = (move >> 16) & 0xF
            if not move & PROMOTION and attacker in _ALWAYS_PROMOTE \
                    and move | PROMOTION in promoting:
                continue
            if value[(move >> 20) & 0xF] >= value[attacker] or not self._recapturable(move):
                result.append(move)
        return result

    def noisy_gain(self, move: int) -> int:
        """What ``move`` adds to the incremental score (material and piece squares: a capture's
        victim leaves the board and joins the hand, a promotion changes the piece), for the
        searcher's delta pruning in quiescence (``SearchConfig.delta_margin``; the margin
        covers the terms ``evaluate`` adds on top: king danger, mobility, mate threats).  A
        king's move with king-relative tables rescores every cell: no estimate, never pruned.
        """
        if (move >> 16) & 0xF == cs.KING and self._king_relative:
            return KING_GAIN
        return self._delta(self.tables, self.board, move)

    def hangs_piece(self) -> bool:
        """Whether the move just played captured nothing and left the moved piece where the
        side to move wins it: attacked there, and undefended or attacked by a cheaper piece
        (pins ignored).  In the games of sessions 11-13, quiet moves and checks that did so
        almost never raised alpha near the horizon (1 in 8,388 such checks at remaining depth
        1): the search skips them there (``SearchConfig.hanging_depth``).
        """
        move = self._played[-1] if self._played else NULL
        if move == NULL or move & 0xF00000:
            return False
        return self._hangs(self._board_list(), move & 0x7F, self.board.turn)

    def move_hangs_piece(self, move: int) -> bool:
        """``hangs_piece`` of ``move`` (legal here) before it is played, on the board list it
        would leave: the search skips a hanging move without playing and taking it back.
        """
        if move & 0xF00000:
            return False
        return bool(self._exchange_bits(move) & _HANGS)

    def may_give_check(self, move: int) -> bool:
        """Whether ``move`` (legal here) gives check, without playing it: exact, so a late or
        futile quiet move that does not check is skipped unplayed (``QuietChecks``).  The
        position's checking moves come from cshogi's generator once (a fraction of a
        microsecond) and each question is a set look-up.
        """
        checking = self._checking
        if checking is None:
            checking = self._checking = set(self.board.check_moves)
        return move in checking

    def _checks_count(self) -> int:
        """How many checking moves the side to move has (the evaluation's threat terms): the
        generator's own count, without the moves as Python ints, unless ``may_give_check``
        already has them (in the searches of session 28 it never had at an evaluation).
        """
        checking = self._checking
        return len(checking) if checking is not None else len(self.board.check_moves)

    def _board_list(self) -> list[int]:
        """The board list of this position from cshogi, fetched once (``play`` and ``undo`` drop
        it): the evaluation and the exchange tests all read it, none writes to it.
        """
        pieces = self._pieces
        if pieces is None:
            pieces = self._pieces = self.board.pieces
        return pieces

    def _hangs(self, pieces: list[int], square: int, taker: int) -> bool:
        """Whether ``taker`` wins the piece on ``square`` of the board list ``pieces``: it
        attacks it with a cheaper piece, or attacks it and nothing defends it.
        """
        value = self._exchange
        cheapest = cheapest_attacker(pieces, square, taker, value)
        if not cheapest:
            return False
        return cheapest < value[pieces[square] & 0xF] or not attacked(pieces, square, taker ^ 1)

    def _recapturable(self, move: int) -> bool:
        """Whether the opponent attacks the square ``move`` goes to, once it is played (read
        off the board list the move would leave, without playing it).
        """
        return bool(self._exchange_bits(move) & _ATTACKED)

    def _exchange_bits(self, move: int) -> int:
        """``shogi_exchange``'s ``ATTACKED | HANGS`` bits of ``move`` (legal here, not a
        pass), its buffer loaded with this position's board list first when it holds
        another's (it keeps the list it was loaded from, so identity tells).
        """
        pieces = self._board_list()
        if self._exchanges_of is not pieces:
            self._exchanges.load(pieces)
            self._exchanges_of = pieces
        return self._exchanges.test(move, self.board.turn)

    # ---- mate detection (SearchShortcuts) ---------------------------------------------------

    def value_bounds(self, ply: int) -> tuple[int, int]:
        """Exact when the side to move mates in one; at least a mate in three when cshogi's
        3-ply search finds one against a king with few open squares (``mate_plies=3``; its
        one-ply generator skips some long-range mates, so in one stays possible); else no
        bounds.
        """
        board = self.board
        if self.mate_plies and not board.is_check() and board.king_square(board.turn ^ 1) < 81:
            if board.mate_move_in_1ply():
                return win_in(ply + 1), win_in(ply + 1)
            if self.mate_plies == 3 and self.king_open(board.turn ^ 1) <= MATE3_OPEN \
                    and board.mate_move(3):  # a one-ply mate it missed is still possible
                return win_in(ply + 3), win_in(ply + 1)
        return -INF, INF

    def mate_in(self, plies: int) -> tuple[int, int] | None:
        """(length, first move) of a mate in one, else in three (``plies`` >= 3) found by
        cshogi's fixed-depth mate search, or None; never when the side to move is in check
        or the enemy has no king.
        """
        board = self.board
        if board.is_check() or board.king_square(board.turn ^ 1) >= 81:
            return None
        move = board.mate_move_in_1ply()
        if move:
            return 1, move
        if plies >= 3:
            move = board.mate_move(3)
            if move:
                return 3, move
        return None

    def search_moves(self) -> Sequence[int]:
        """Every legal move (the shortcut is only the mate detection)."""
        return self.legal_moves()

    def solver_settings(self) -> dict[str, int | bool | str]:
        """Solved with the default settings (not the Connect Four solver's)."""
        return {}

    def king_open(self, color: int) -> int:
        """Squares next to ``color``'s king that are empty or held by the enemy."""
        board = self.board
        piece_at = board.piece
        count = 0
        for square in ev.NEIGHBOURS[board.king_square(color)]:
            piece = piece_at(square)
            if not piece or piece >> 4 != color:
                count += 1
        return count

    def in_check(self) -> bool:
        """The side to move is in check."""
        return self.board.is_check()

    def checking_moves(self) -> list[int]:
        """The legal moves that give check (the attacker's moves in a mate search)."""
        return list(self.board.check_moves)

    def play_null(self) -> None:
        """Pass (null-move pruning); only when not in check.  ``undo`` takes it back too."""
        self.board.push_pass()
        self._score.append(self._score[-1])
        self._keys.append(self.board.zobrist_hash())
        self._played.append(NULL)
        self._moves = self._pieces = self._checking = None

    def undo_null(self) -> None:
        """Take back a pass."""
        self.undo()

    def null_move_ok(self) -> bool:
        """Passing is a sound probe in shogi: with drops, zugzwang hardly ever happens."""
        return True

    def is_tactical(self, move: int) -> bool:
        """Captures and promotions (never reduced or futility-pruned)."""
        return bool(move & 0xF04000)

    # ---- helpers --------------------------------------------------------------------------

    def can_declare(self) -> bool:
        """The side to move may declare an entering-king win (USI ``bestmove win``)."""
        return self.board.is_nyugyoku()

    def sfen(self) -> str:
        """The current position as SFEN."""
        return self.board.sfen()

    def __str__(self) -> str:
        """The board as text in SFEN letters (black in capitals, ``+`` promoted), files 9 to 1
        left to right and ranks a to i top to bottom, the hands, and whose turn it is.
        """
        board = self.board
        pieces = board.pieces
        lines = ["   " + "".join(f"{file:>3}" for file in range(9, 0, -1))]
        for rank in range(9):
            cells = []
            for file in range(8, -1, -1):
                piece = pieces[file * 9 + rank]
                letter = _LETTERS[piece & 0xF] if piece else "."
                cells.append(f"{letter if piece >> 4 == cs.BLACK else letter.lower():>3}")
            lines.append(f"{'abcdefghi'[rank]}  {''.join(cells)}")
        for name, hand in zip(("black", "white"), board.pieces_in_hand, strict=True):
            held = " ".join(f"{kind}{count if count > 1 else ''}"
                            for kind, count in zip(cs.HAND_ORDER, hand, strict=True) if count)
            lines.append(f"{name} in hand: {held or '-'}")
        side = "black (sente)" if board.turn == cs.BLACK else "white (gote)"
        check = ", in check" if board.is_check() else ""
        lines.append(f"{side} to move{check}  (SFEN {board.sfen()})")
        return "\n".join(lines)

    @property
    def history_keys(self) -> list[int]:
        """Keys of every position from the start position up to the current one."""
        return list(self._keys)


def _looks_like_usi(text: str) -> bool:
    if len(text) == 4 and text[1] == "*":
        return text[0] in "PLNSGBR" and text[2] in "123456789" and text[3] in "abcdefghi"
    if len(text) in (4, 5):
        squares_ok = all(text[i] in "123456789" and text[i + 1] in "abcdefghi" for i in (0, 2))
        return squares_ok and (len(text) == 4 or text[4] == "+")
    return False


def parse_position(text: str) -> tuple[str, list[str]]:
    """Split ``startpos | sfen <sfen>`` with optional ``moves ...`` into SFEN and move texts.

    A bare SFEN (without the ``sfen`` keyword) is accepted too, as on the command line.
    """
    words = text.split()
    if not words:
        raise PositionError("empty position")
    moves: list[str] = []
    if "moves" in words:
        index = words.index("moves")
        words, moves = words[:index], words[index + 1:]
    if words == ["startpos"] or words == ["start"]:
        return START, moves
    if words and words[0] == "sfen":
        words = words[1:]
    if not words:
        raise PositionError("'sfen' needs a position")
    return " ".join(words), moves


def from_position(name: str, text: str) -> ShogiGame:
    """Parse POSITION: ``startpos``, an SFEN, optionally followed by ``moves <usi>...``."""
    sfen, moves = parse_position(text)
    return ShogiGame(sfen, moves)
