"""Shogi over cshogi: the rules from cshogi, the seeds' 駒割 evaluation, sennichite verdicts.

Moves are cshogi's move integers (they carry the captured piece, which the move hints use);
positions are SFEN (or ``startpos``), move texts USI (``7g7f``, ``8h2b+``, ``P*5e``).

Evaluation (centipawn-like units, from the side to move):

* 駒割 — material, the seeds' baseline (seed 003's slides count 歩1 香5 桂6 銀8 金9 角13 飛15,
  93 points a side at the start; here ×100).  Promoted pieces: と/成香/成桂/成銀 count as a gold
  (900), 馬 1600, 龍 1800.  Pieces in hand count at their unpromoted value, so a capture gains
  the captured piece's board value plus its hand value.
* piece-square terms: pawns gain 10 per rank advanced; the king prefers its own two back
  ranks (+30 / +10) and loses 15 per rank further up.
* king safety: +20 for each gold/silver (or promoted minor) next to one's own king, −25 for each
  enemy piece next to it.

Material and piece-square terms are updated incrementally in ``play``/``undo``; king safety is
computed at evaluation (16 squares).

Game end: no legal moves loses (checkmate, also by pawn-drop mate being illegal); a side to move
that may declare an entering-king win (cshogi's 27-point rule) wins; a position seen for the
fourth time ends the game by sennichite (draw, or a loss for the side that gave perpetual check).
Inside a search, ``repetition_value`` already stops at the first repetition (seed 003).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self

from sakiyomi.game import MoveError, Outcome, Player, PositionError
from sakiyomi.games import shogi_facade as cs
from sakiyomi.score import loss_in, win_in

START = cs.STARTING_SFEN
LIMITS = ("a valid SFEN (9x9, piece counts, no nifu or dead pieces, kings: see "
          "shogi_facade.validate_sfen) or startpos, then optionally 'moves' and legal USI moves")
_LETTERS = ("", "P", "L", "N", "S", "B", "R", "G", "K", "+P", "+L", "+N", "+S", "+B", "+R")

# 駒割 (seed 003 ×100), indexed by cshogi piece type 0..14.
VALUE = (0, 100, 500, 600, 800, 1300, 1500, 900, 0, 900, 900, 900, 900, 1600, 1800)
HAND_VALUE = (100, 500, 600, 800, 900, 1300, 1500)  # HAND_ORDER: P L N S G B R
_HAND_TYPE = (cs.PAWN, cs.LANCE, cs.KNIGHT, cs.SILVER, cs.GOLD, cs.BISHOP, cs.ROOK)
_UNPROMOTED = (0, 1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6)
PROMOTION = 1 << 14
_ALWAYS_PROMOTE = frozenset((cs.PAWN, cs.BISHOP, cs.ROOK))  # never better unpromoted
NULL = 0  # cshogi's MOVE_NONE: marks a pass (null move) in the move stack
SUPERIOR_VALUE = 20_000  # a repetition with more pieces in hand: winning but not a mate


def _pst() -> tuple[tuple[int, ...], ...]:
    """Piece-square bonus per piece type and square seen from its owner (rank 0 = far side)."""
    table: list[tuple[int, ...]] = []
    for piece_type in range(15):
        row = []
        for square in range(81):
            rank = square % 9  # 0 = the enemy's back rank, 8 = one's own
            if piece_type == cs.PAWN:
                row.append(10 * max(0, 6 - rank))
            elif piece_type == cs.KING:
                row.append(30 if rank == 8 else 10 if rank == 7 else -15 * (7 - rank))
            else:
                row.append(0)
        table.append(tuple(row))
    return tuple(table)


PST = _pst()
_DEFENDERS = frozenset((cs.SILVER, cs.GOLD, cs.PROM_PAWN, cs.PROM_LANCE, cs.PROM_KNIGHT,
                        cs.PROM_SILVER))
SAFETY_DEFENDER = 20
SAFETY_ATTACKER = 25


def _neighbours() -> tuple[tuple[int, ...], ...]:
    result: list[tuple[int, ...]] = []
    for square in range(82):
        if square == 81:  # cshogi's square of a missing king
            result.append(())
            continue
        file, rank = divmod(square, 9)
        result.append(tuple(
            (file + df) * 9 + rank + dr
            for df in (-1, 0, 1) for dr in (-1, 0, 1)
            if (df or dr) and 0 <= file + df < 9 and 0 <= rank + dr < 9
        ))
    return tuple(result)


NEIGHBOURS = _neighbours()


def move_delta(move: int, color: int) -> int:
    """Change of material + piece-square score for the mover when ``move`` is played."""
    to = move & 0x7F
    source = (move >> 7) & 0x7F
    rel_to = to if color == cs.BLACK else 80 - to
    if source >= 81:  # a drop: the piece goes from the hand to the board
        piece_type = source - 80
        return VALUE[piece_type] - HAND_VALUE[_HAND_INDEX[piece_type]] + PST[piece_type][rel_to]
    piece_type = (move >> 16) & 0xF
    rel_from = source if color == cs.BLACK else 80 - source
    delta = -PST[piece_type][rel_from]
    if move & (1 << 14):
        promoted = piece_type + cs.PROMOTED_OFFSET
        delta += VALUE[promoted] - VALUE[piece_type] + PST[promoted][rel_to]
    else:
        delta += PST[piece_type][rel_to]
    captured = (move >> 20) & 0xF
    if captured:
        rel_cap = 80 - rel_to  # the captured piece's square seen from its owner
        delta += VALUE[captured] + PST[captured][rel_cap] \
            + HAND_VALUE[_HAND_INDEX[_UNPROMOTED[captured]]]
    return delta


_HAND_INDEX = {pt: i for i, pt in enumerate(_HAND_TYPE)}


def static_score(board: cs.CBoard) -> int:
    """Material + piece-square score from black's side, computed from scratch."""
    total = 0
    for square, piece in enumerate(board.pieces):
        if piece:
            piece_type, color = piece & 0xF, piece >> 4
            rel = square if color == cs.BLACK else 80 - square
            value = VALUE[piece_type] + PST[piece_type][rel]
            total += value if color == cs.BLACK else -value
    black_hand, white_hand = board.pieces_in_hand
    for i, value in enumerate(HAND_VALUE):
        total += value * (black_hand[i] - white_hand[i])
    return total


class ShogiGame:
    """A shogi position with its history (Game protocol over ``cshogi.Board``)."""

    def __init__(self, sfen: str = START, moves: Sequence[str] = ()) -> None:
        try:
            self.board = cs.new_board(sfen)
        except ValueError as exc:
            raise PositionError(f"bad SFEN {sfen!r}: {exc}") from None
        self._start = sfen
        self._score = [static_score(self.board)]
        self._keys = [self.board.zobrist_hash()]
        self._moves: list[int] | None = None
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

    def play(self, move: int) -> None:
        board = self.board
        delta = move_delta(move, board.turn)
        self._score.append(self._score[-1] + (delta if board.turn == cs.BLACK else -delta))
        board.push(move)
        self._keys.append(board.zobrist_hash())
        self._played.append(move)
        self._moves = None

    def undo(self) -> None:
        if self._played.pop() == NULL:
            self.board.pop_pass()
        else:
            self.board.pop()
        self._score.pop()
        self._keys.pop()
        self._moves = None

    def outcome(self) -> Outcome | None:
        if not self.legal_moves():
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
        board = self.board
        score = self._score[-1] + self._king_safety(cs.BLACK) - self._king_safety(cs.WHITE)
        return score if board.turn == cs.BLACK else -score

    def key(self) -> int:
        return self.board.zobrist_hash()

    def copy(self) -> Self:
        clone = type(self)(self._start)
        for move in self._played:
            if move == NULL:
                clone.play_null()
            else:
                clone.play(move)
        return clone

    def move_to_text(self, move: int) -> str:
        return cs.move_to_usi(move)

    def move_from_text(self, text: str) -> int:
        for move in self.legal_moves():
            if cs.move_to_usi(move) == text:
                return move
        if not _looks_like_usi(text):
            raise MoveError(f"{text!r} is not a USI move (e.g. 7g7f, 8h2b+, P*5e)")
        raise MoveError(f"{text} is not a legal move in this position")

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
        """Captures by value (most valuable victim, least valuable attacker), promotions next."""
        hints = []
        for move in moves:
            captured = (move >> 20) & 0xF
            hint = 0
            if captured:
                hint = VALUE[captured] // 10 + 200 - VALUE[(move >> 16) & 0xF] // 100
            if move & (1 << 14):
                hint += 50
            hints.append(hint)
        return hints

    def noisy_moves(self) -> list[int]:
        """Captures worth a look in quiescence: a capture of a piece at least as valuable as the
        capturer, or of a piece nobody can recapture (a one-step exchange test); a pawn, bishop
        or rook that may promote on the capture is only tried promoting.
        """
        board = self.board
        captures = [move for move in self.legal_moves() if move & 0xF00000]
        promoting = {move for move in captures if move & PROMOTION}
        result = []
        for move in captures:
            attacker = (move >> 16) & 0xF
            if not move & PROMOTION and attacker in _ALWAYS_PROMOTE \
                    and move | PROMOTION in promoting:
                continue
            if VALUE[(move >> 20) & 0xF] >= VALUE[attacker]:
                result.append(move)
                continue
            target = move & 0x7F
            board.push(move)
            defended = any(reply & 0x7F == target for reply in board.legal_moves)
            board.pop()
            if not defended:
                result.append(move)
        return result

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
        self._moves = None

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

    def _king_safety(self, color: int) -> int:
        board = self.board
        square = board.king_square(color)
        score = 0
        for neighbour in NEIGHBOURS[square]:
            piece = board.piece(neighbour)
            if piece:
                if piece >> 4 == color:
                    if piece & 0xF in _DEFENDERS:
                        score += SAFETY_DEFENDER
                else:
                    score -= SAFETY_ATTACKER
        return score


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
