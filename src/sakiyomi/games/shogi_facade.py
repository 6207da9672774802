"""A small typed facade over cshogi (which ships no type information).

Only what the shogi adapter, the USI engine and the tests use is described here.  cshogi aborts
the whole process (an uncaught C++ exception) on some malformed SFEN strings, so
``validate_sfen`` checks the text in Python first and ``new_board`` never hands cshogi
anything unchecked.

cshogi's move integer (from its ``Board.push`` documentation): bits 0-6 the destination square,
bits 7-13 the source square (for a drop: 80 + the dropped piece type), bit 14 promotion,
bits 16-19 the moving piece type, bits 20-23 the captured piece type.  Squares are
``file * 9 + rank`` with file 0 = '1' and rank 0 = 'a'.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, Protocol, cast

from sakiyomi.inputs import parse_int, shown

BLACK = 0  # sente, moves first
WHITE = 1

# Piece types (cshogi / Apery numbering).
PAWN, LANCE, KNIGHT, SILVER, BISHOP, ROOK, GOLD, KING = 1, 2, 3, 4, 5, 6, 7, 8
PROM_PAWN, PROM_LANCE, PROM_KNIGHT, PROM_SILVER, HORSE, DRAGON = 9, 10, 11, 12, 13, 14
PROMOTED_OFFSET = 8

# cshogi's repetition verdicts (Board.is_draw), for the side to move.
NOT_REPETITION, REPETITION_DRAW, REPETITION_WIN, REPETITION_LOSE = 0, 1, 2, 3
REPETITION_SUPERIOR, REPETITION_INFERIOR = 4, 5

STARTING_SFEN = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
MAX_MOVE_NUMBER = 2**31 - 1  # cshogi keeps an SFEN's move number in a C int
HAND_ORDER = "PLNSGBR"  # cshogi's pieces_in_hand order: pawn, lance, knight, silver, gold, B, R


class MoveList(Protocol):
    """cshogi's move lists (``legal_moves``, ``check_moves``): generated in C++ when made,
    iterated once, and sized, so a count needs no Python ints.
    """

    def __iter__(self) -> Iterator[int]:
        """The moves, once."""
        ...

    def __len__(self) -> int:
        """How many moves were generated."""
        ...


class CBoard(Protocol):
    """The part of ``cshogi.Board`` we use."""

    @property
    def turn(self) -> int:
        """BLACK (0) or WHITE (1): the side to move."""
        ...

    @property
    def legal_moves(self) -> MoveList:
        """Legal moves (uchifuzume and nifu excluded, every promotion choice included)."""
        ...

    @property
    def check_moves(self) -> MoveList:
        """The legal moves that give check."""
        ...

    @property
    def pieces_in_hand(self) -> tuple[list[int], list[int]]:
        """Counts per hand piece (HAND_ORDER) for black and white."""
        ...

    @property
    def pieces(self) -> list[int]:
        """The 81 squares: 0 empty, else piece type + 16 * colour."""
        ...

    @property
    def move_number(self) -> int:
        """The SFEN move number."""
        ...

    def push(self, move: int) -> None:
        """Make a move (no legality check)."""
        ...

    def pop(self) -> int:
        """Take back the last move."""
        ...

    def push_pass(self) -> None:
        """A null move (only when not in check)."""
        ...

    def pop_pass(self) -> None:
        """Take back a null move."""
        ...

    def zobrist_hash(self) -> int:
        """64-bit key of board, hands and side to move."""
        ...

    def is_check(self) -> bool:
        """The side to move is in check."""
        ...

    def is_draw(self, ply: int | None = None) -> int:
        """A repetition verdict (REPETITION_*) looking back ``ply`` plies (None: all)."""
        ...

    def is_nyugyoku(self) -> bool:
        """The side to move may declare a win (entering king, 27-point rule)."""
        ...

    def is_ok(self) -> bool:
        """Internal consistency (e.g. the side not to move is not in check)."""
        ...

    def mate_move_in_1ply(self) -> int:
        """A move that mates at once (0: none); the side to move must not be in check."""
        ...

    def mate_move(self, ply: int) -> int:
        """A move that mates within ``ply`` (odd, >= 3) plies (0: none); not in check."""
        ...

    def peek(self) -> int:
        """The last move played (0 when none)."""
        ...

    def king_square(self, color: int) -> int:
        """Square of ``color``'s king."""
        ...

    def piece(self, square: int) -> int:
        """Piece on ``square`` (0 when empty)."""
        ...

    def sfen(self) -> str:
        """The position as SFEN."""
        ...


def new_board(sfen: str) -> CBoard:
    """A cshogi board set to a validated SFEN (raise ValueError naming the problem)."""
    import cshogi

    validate_sfen(sfen)
    board = cast(CBoard, cshogi.Board(sfen))
    if not board.is_ok():
        raise ValueError("the side not to move is in check (or the position is inconsistent)")
    return board


def move_to_usi(move: int) -> str:
    """USI text of a cshogi move."""
    import cshogi

    text: str = cshogi.move_to_usi(move)
    return text


def move_to_kif(move: int, previous: int) -> str:
    """KIF text of a cshogi move (``７六歩(77)``; ``同　銀(31)`` when it lands where
    ``previous`` did, 0: no previous move).
    """
    from cshogi import KIF

    text: str = KIF.move_to_kif(move, previous or None)
    return text


def move_to_ki2(move: int, board: CBoard) -> str:
    """KI2 text of a cshogi move on ``board`` (before it is played), with the side's mark and
    the words that tell two pieces apart: ``▲５八金右``, ``△２二同銀``, ``▲７三歩不成``.
    """
    from cshogi import KIF

    text: str = KIF.move_to_bod(move, board)
    return text


def move_to_csa(move: int) -> str:
    """CSA text of a cshogi move, without the side's sign (``7776FU``)."""
    import cshogi

    text: str = cshogi.move_to_csa(move)
    return text


def rotate_sfen(sfen: str) -> str:
    """The same position seen from the other side (board turned, colours swapped)."""
    import cshogi

    text: str = cshogi.rotate_sfen(sfen)
    return text


# ---- SFEN validation ------------------------------------------------------------------------

_PIECE = re.compile(r"\+?[plnsgbrkPLNSGBRK]|[1-9]")
_HAND = re.compile(r"([0-9]*)([plnsgbrPLNSGBR])")
_MAX = {"p": 18, "l": 4, "n": 4, "s": 4, "g": 4, "b": 2, "r": 2, "k": 2}
_PROMOTABLE = set("plnsbr")


def validate_sfen(sfen: str) -> None:
    """Raise ValueError unless ``sfen`` is a well-formed, possible shogi position.

    Checks the syntax, piece counts, at most one king per side, no pawn/lance/knight where it
    could never move again and no two unpromoted pawns of one side on a file (nifu).  The side
    not to move must have a king; the side to move may lack one only as the attacker of a mate
    problem (tsume shogi: the defender's king is on the board).
    """
    fields = sfen.split()
    if len(fields) not in (3, 4):
        raise ValueError(f"SFEN needs 3 or 4 fields (board side hand [move]), got {len(fields)}")
    board, side, hand = fields[:3]
    if side not in ("b", "w"):
        raise ValueError(f"side to move must be 'b' or 'w', not {shown(side)}")
    if len(fields) == 4:
        parse_int(fields[3], "move number", low=1, high=MAX_MOVE_NUMBER, error=ValueError)
    ranks = board.split("/")
    if len(ranks) != 9:
        raise ValueError(f"the board needs 9 ranks separated by '/', got {len(ranks)}")
    counts: dict[str, int] = {}
    kings = {"K": 0, "k": 0}
    pawn_files: set[tuple[str, int]] = set()
    for r, rank in enumerate(ranks):
        tokens = _PIECE.findall(rank)
        if "".join(tokens) != rank:
            raise ValueError(f"rank {r + 1} ({shown(rank)}) has characters that are not pieces")
        file = 0
        for token in tokens:
            if token.isdigit():
                file += int(token)
                continue
            letter = token[-1]
            if token.startswith("+") and letter.lower() not in _PROMOTABLE:
                raise ValueError(f"{token!r} cannot be promoted")
            _check_placement(token, r, file, pawn_files)
            if letter in kings:
                kings[letter] += 1
            counts[letter.lower()] = counts.get(letter.lower(), 0) + 1
            file += 1
        if file != 9:
            raise ValueError(f"rank {r + 1} ({shown(rank)}) covers {file} squares instead of 9")
    if kings["K"] > 1 or kings["k"] > 1:
        raise ValueError("a side has more than one king")
    if kings["K"] + kings["k"] == 0:
        raise ValueError("there is no king on the board")
    waiting = "k" if side == "b" else "K"  # the king of the side not to move
    if not kings[waiting]:
        colour = "white" if side == "b" else "black"
        raise ValueError(f"{colour} has no king but is not to move (only the attacker of a "
                         "mate problem, the side to move, may lack one)")
    if hand != "-":
        items = _HAND.findall(hand)
        if "".join(n + p for n, p in items) != hand:
            raise ValueError(f"pieces in hand {shown(hand)} are malformed")
        for number, letter in items:
            count = 1 if not number else parse_int(number, "hand count", low=1, high=18,
                                                   error=ValueError)
            counts[letter.lower()] = counts.get(letter.lower(), 0) + count
    for letter, count in counts.items():
        if count > _MAX[letter]:
            raise ValueError(f"too many pieces of type {letter!r}: {count} > {_MAX[letter]}")


def _check_placement(token: str, rank: int, file: int, pawn_files: set[tuple[str, int]]) -> None:
    """Dead pieces (could never move again) and nifu; ``rank`` 0 is rank 'a' (white's side)."""
    if token.startswith("+"):
        return
    forward = rank if token.isupper() else 8 - rank  # squares left in front of the piece
    letter = token.lower()
    if (letter in "pl" and forward == 0) or (letter == "n" and forward < 2):
        raise ValueError(f"{token!r} on rank {chr(ord('a') + rank)} could never move again")
    if letter == "p":
        owner = "b" if token.isupper() else "w"
        if (owner, file) in pawn_files:
            raise ValueError("two unpromoted pawns of one side on a file (nifu)")
        pawn_files.add((owner, file))


def is_forced_mate_line(sfen: str, line: list[str]) -> bool:
    """True when ``line`` (USI moves) replayed by cshogi's rules is a tsume answer: every
    attacker move is legal and gives check, and the defender ends mated (checks mate answers
    independently of our own search).
    """
    import cshogi

    board: Any = cshogi.Board(sfen)
    for ply, text in enumerate(line):
        move = board.move_from_usi(text)
        if move == 0 or not board.is_legal(move):
            return False
        board.push(move)
        if ply % 2 == 0 and not board.is_check():
            return False
    return bool(board.is_check()) and not list(board.legal_moves)
