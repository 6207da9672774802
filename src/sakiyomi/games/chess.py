"""Chess over python-chess's ``chess.Board``: push/pop in place, an incremental key and evaluation.

Rules (move generation, check, castling, en passant) are python-chess's; the legality filter
over its pseudo-legal moves is ours (two bit tests for most moves, where python-chess's
per-move test cost as much as generating the move), and so is the stalemate test (a free,
unpinned piece, before any generation).  What the search needs fast, and python-chess does not
keep incrementally, lives here and is updated in ``play``/``undo`` from the move alone:

* a 64-bit Zobrist key (pieces, side, castling rights, and the en-passant file only when a pawn
  could take there), so no per-node hashing of the whole board (bench/chess.py measures it
  against ``hash(board._transposition_key())``);
* the key history of the game and the search line, with the start of the current run of
  reversible moves, so repetitions are found by scanning a few keys instead of python-chess's
  history replays (``is_repetition`` pops and re-pushes the move stack);
* the tapered piece-square evaluation (PeSTO numbers, see ``chess_pst``): middlegame and endgame
  sums and the game phase (the terms of ``chess_terms`` are added to both sums at evaluation
  time: the pawn structure from a cache keyed by the pawns).

The legal move lists (in check too) and the quiescence captures, each with its moves' ordering
hints, are made from the bitboards in one compiled call per list (``chess_movegen_kernel``,
``chess_evasion_kernel``; session 29: the lists, their hints and the captures' exchange
evaluations cost most of the search's time in Python); the Python generators here stay their
definitions and the path without a compiler.

Draw rules on the search path (``RepetitionRules``): a position that already occurred since the
last irreversible move scores a draw, and so does the 50-move rule; ``outcome`` reports what ends
a game without a claim (mate, stalemate, insufficient material, 75 moves, fivefold repetition).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Self

import chess

from sakiyomi.game import MoveError, Outcome, Player, PositionError
from sakiyomi.games.chess_endgame import ENDGAME_PHASE, endgame_value
from sakiyomi.games.chess_king_tables import king_state, pair_corrections
from sakiyomi.games.chess_king_weights import WEIGHTS as KING_WEIGHTS
from sakiyomi.games.chess_pst import (
    EG_TABLES,
    EG_VALUE,
    MG_TABLES,
    MG_VALUE,
    PHASE_TOTAL,
    PHASE_WEIGHT,
)
from sakiyomi.games.chess_see import SEE_VALUE, cheapest, exchange
from sakiyomi.games.chess_terms import (
    king_attack,
    king_danger_peak,
    mobility,
    piece_terms,
    set_weights,
    structure_terms,
)

_BB = chess.BB_SQUARES
_PAWN, _KING, _QUEEN = chess.PAWN, chess.KING, chess.QUEEN
_PAWN_ATTACKS = chess.BB_PAWN_ATTACKS
_LINES = chess.BB_RAYS  # [a][b]: the whole line through a and b, 0 if not on one
_BETWEEN = [[chess.between(a, b) for b in range(64)] for a in range(64)]  # chess.between
_CORNERS = (chess.A1, chess.H1, chess.A8, chess.H8)
# [king]: the squares on some line (rank, file, diagonal) through the square ``king``: a piece
# elsewhere cannot be pinned to a king there.
_ON_LINES = [sum(_BB[sq] for sq in range(64) if _LINES[king][sq]) for king in range(64)]
_KNIGHT_ATTACKS, _KING_ATTACKS = chess.BB_KNIGHT_ATTACKS, chess.BB_KING_ATTACKS
_DIAG_ATTACKS, _DIAG_MASKS = chess.BB_DIAG_ATTACKS, chess.BB_DIAG_MASKS
_RANK_ATTACKS, _RANK_MASKS = chess.BB_RANK_ATTACKS, chess.BB_RANK_MASKS
_FILE_ATTACKS, _FILE_MASKS = chess.BB_FILE_ATTACKS, chess.BB_FILE_MASKS
_BB_PROMOTION_RANKS = chess.BB_RANK_1 | chess.BB_RANK_8
_PROMOTIONS = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)  # python-chess's order
# Every move as one shared object, [from][to], and a pawn's promotions in python-chess's order
# by ``from << 6 | to``: the generators look a move up instead of building it (``Move``'s
# dataclass ``__init__`` cost more than the rest of generating the move).  Moves are values
# (compared by their squares, never changed once made), so sharing one changes nothing.
_MOVES = [[chess.Move(frm, to) for to in range(64)] for frm in range(64)]
_PROMOTING = {frm << 6 | to: tuple(chess.Move(frm, to, piece) for piece in _PROMOTIONS)
              for frm, to in [*((f, t) for f in range(48, 56) for t in range(56, 64)),
                              *((f, t) for f in range(8, 16) for t in range(8))]
              if abs((frm & 7) - (to & 7)) <= 1}
# Every move by its code ``from | to << 6 | promotion << 12`` (``move_id``; the move
# kernels' output), the shared objects above; codes of no move hold the null move.
_BY_CODE = [chess.Move.null()] * (6 << 12)
for _frm in range(64):
    for _to in range(64):
        _BY_CODE[_frm | _to << 6] = _MOVES[_frm][_to]
for _promotions in _PROMOTING.values():
    for _move in _promotions:
        _BY_CODE[_move.from_square | _move.to_square << 6 | (_move.promotion or 0) << 12] = _move
# The move lists come from the compiled kernels (``chess_movegen_kernel``) when they compile;
# the Python generators are their definitions, and the path without a compiler.  The kernels
# are loaded by ``load_kernels`` (the first game, or the UCI engine's ``isready``), not when
# this module is imported: compiling them on an empty compiler cache takes about 5 s, loading
# them from it about 0.8 s (the compiler's import included), and a GUI waits for ``uciok`` but
# expects ``isready`` to take its time.
if TYPE_CHECKING:
    from sakiyomi.games import chess_evasion_kernel as evasion_kernel
    from sakiyomi.games import chess_movegen_kernel as kernel
_LOADED = False  # load_kernels has run
_KERNELS = False  # ... and the kernels compiled
_COUNT_MASK = (1 << 16) - 1  # the kernels' count bits (``chess_movegen_kernel.SPLIT_SHIFT``)
# ``move_hints``' value of an en passant capture: a pawn takes a pawn (100 + 10 x 1 - 1).
_EN_PASSANT_HINT = 100 + 10 * 1 - 1


def load_kernels() -> bool:
    """Load the compiled move-list kernels (compiling them on an empty compiler cache) once;
    whether they are in use (False without the compiler: the Python generators serve).
    """
    global _LOADED, _KERNELS, kernel, evasion_kernel
    if not _LOADED:
        from sakiyomi.games import chess_evasion_kernel as evasions_module
        from sakiyomi.games import chess_movegen_kernel as lists_module

        assert (1 << lists_module.SPLIT_SHIFT) - 1 == _COUNT_MASK
        kernel, evasion_kernel = lists_module, evasions_module
        _KERNELS = lists_module.COMPILED
        _LOADED = True
    return _KERNELS
# A pawn's moves from one square to another by ``from << 6 | to``: its promotions onto the last
# rank, else the one move.
_PAWN_MOVES = [_PROMOTING.get(key, (_MOVES[key >> 6][key & 63],)) for key in range(4096)]
# The python-chess releases (major, minor) whose board internals ``_push`` was tested against.
_PUSH_TESTED = tuple(int(part) for part in chess.__version__.split(".")[:2]) in {
    (1, 10), (1, 11)}
LIMITS = ("standard chess: a FEN python-chess finds valid (one king a side, no pawns on the "
          "back ranks, ...) or startpos, then optionally 'moves' and legal UCI moves")


_Tables = list[list[list[int]]]
_NONE: _Tables = [[[0] * 64 for _ in range(7)] for _ in range(2)]


def _tables(mg_scale: float = 1.0, eg_scale: float = 1.0, more_mg: _Tables = _NONE,
            more_eg: _Tables = _NONE) -> tuple[_Tables, _Tables]:
    """[colour][piece type][square] material + PST values, White's view (Black's negated);
    the piece-square part (not the material) plus ``more_mg`` / ``more_eg`` (White's view:
    the king-relative corrections) times ``mg_scale`` / ``eg_scale``, rounded once.
    """
    mg: _Tables = [[[0] * 64 for _ in range(7)] for _ in range(2)]
    eg: _Tables = [[[0] * 64 for _ in range(7)] for _ in range(2)]
    for piece in range(1, 7):
        for sq in range(64):
            for color, index, sign in ((1, sq ^ 56, 1), (0, sq, -1)):  # tables start at a8
                mg[color][piece][sq] = sign * (MG_VALUE[piece - 1] + round(mg_scale * (
                    MG_TABLES[piece - 1][index] + sign * more_mg[color][piece][sq])))
                eg[color][piece][sq] = sign * (EG_VALUE[piece - 1] + round(eg_scale * (
                    EG_TABLES[piece - 1][index] + sign * more_eg[color][piece][sq])))
    return mg, eg


_MG, _EG = _tables()
_SCALES = (1.0, 1.0)  # the tables' multipliers (``set_eval_weights``)
TEMPO = 0  # centipawns for the side to move (``set_eval_weights``)


def set_eval_weights(multipliers: Mapping[str, float]) -> None:
    """Weight the evaluation's terms by ``multipliers`` (feature names of
    ``chess_eval_parts``: "tables_mg", "mobility_eg", ..., "tempo" in centipawns; a name left
    out keeps its weight as written, an empty mapping restores them all).  Module state: it
    holds for every ChessGame built afterwards (a game keeps the table sums it started with),
    so self-play of two weightings sets them before each search, as it sets the class
    switches.  Material values never change: the fit measures the terms against them.
    """
    global _MG, _EG, TEMPO, _SCALES  # play and evaluate read module constants
    _SCALES = (multipliers.get("tables_mg", 1.0), multipliers.get("tables_eg", 1.0))
    _MG, _EG = _tables(*_SCALES)
    _PAIRS.clear()
    TEMPO = round(multipliers.get("tempo", 0.0))
    set_weights(multipliers)


# Multipliers of the terms fitted to Stockfish's scores of our own positions (session 22,
# bench/chess_eval_fit.py ``candidate``, s22-eval-fit.json; relative to material, whose values
# stay as written; the endgame parts and the terms whose fit was unstable as written).  The
# terms it weights are switched on with it (PIECE_TERMS, MOBILITY, KING_ATTACK).
FITTED_WEIGHTS: dict[str, float] = {
    "doubled_mg": 9.11,
    "bishop_pair_mg": 1.41,
    "rook_files_mg": 4.81,
    "shelter_mg": 2.98,
    "mobility_mg": 4.05,
    "king_attack_mg": 1.28,
    "tempo": 7.4,
    "tables_mg": 0.0,
}
# The same fit for the terms in use alone (``candidate_in_use``): no term switched on, so no
# cost per node.
FITTED_IN_USE_WEIGHTS: dict[str, float] = {"tables_mg": 0.27, "doubled_mg": 11.91}
# The terms in use refitted to Stockfish 15.1's static evaluation of our quiet positions
# (session 23, bench/chess_eval_fit.py ``ridge --hold-endgame``, split by game, with the
# column of who chose the move into each position; s23-summary.md): the middlegame parts
# whose fit kept its sign, at most 3 times as written; endgame parts as written.  Self-play
# at equal time (100 ms, 240 games): +19 (-19 ... +57), below the +20 rule: not in use.
STATIC_FIT_WEIGHTS: dict[str, float] = {
    "tables_mg": 1.12,
    "isolated_mg": 2.75,
    "doubled_mg": 3.0,
    "bishop_pair_mg": 1.91,
    "tempo": 11.0,
}
# The engine's weights (empty: as written, which the tables above and chess_terms' constants
# already are).
EVAL_WEIGHTS: dict[str, float] = {}
if EVAL_WEIGHTS:
    set_eval_weights(EVAL_WEIGHTS)


# The tables with the king-relative corrections (``chess_king_tables``) for each pair of king
# placements met so far: (white's, black's) -> (middlegame, endgame) tables, made on first use
# (about 0.7 ms each; a game meets a handful).
_PAIRS: dict[tuple[int, int], tuple[_Tables, _Tables]] = {}
_KING_MG = [mg for mg, _ in KING_WEIGHTS]
_KING_EG = [eg for _, eg in KING_WEIGHTS]


def _pair(white_state: int, black_state: int) -> tuple[_Tables, _Tables]:
    """The corrected (middlegame, endgame) tables for the kings' placements."""
    found = _PAIRS.get((white_state, black_state))
    if found is None:
        found = _tables(*_SCALES, pair_corrections(white_state, black_state, _KING_MG),
                        pair_corrections(white_state, black_state, _KING_EG))
        _PAIRS[white_state, black_state] = found
    return found


_PHASE = (0, *PHASE_WEIGHT)  # indexed by python-chess piece type (1..6)
_rng = random.Random(0x5A81_0001)  # fixed seed: keys are the same in every process
_Z: list[list[list[int]]] = [[[_rng.getrandbits(64) for _ in range(64)] for _ in range(7)]
                             for _ in range(2)]
_Z_SIDE = _rng.getrandbits(64)
_Z_CASTLE = {sq: _rng.getrandbits(64) for sq in _CORNERS}
_Z_EP = [_rng.getrandbits(64) for _ in range(8)]

# Ordering values (MVV-LVA): victim value first, attacker as the tie-break.
_ORDER_VALUE = (0, 1, 3, 3, 5, 9, 20)
# What capturing a piece can add to the evaluation (``noisy_gain``): the larger of its
# middlegame and endgame values; a queen promotion adds a queen for a pawn.
_GAIN = (0, *(max(mg, eg) for mg, eg in zip(MG_VALUE, EG_VALUE, strict=True)))
_PROMOTION_GAIN = _GAIN[_QUEEN] - min(MG_VALUE[0], EG_VALUE[0])


def _slider_attacks(square: int, occupied: int) -> tuple[int, int]:
    """The squares a bishop and a rook on ``square`` see with ``occupied`` as the occupancy
    (python-chess's attack tables; for a position the board is not in yet).
    """
    return (chess.BB_DIAG_ATTACKS[square][chess.BB_DIAG_MASKS[square] & occupied],
            chess.BB_RANK_ATTACKS[square][chess.BB_RANK_MASKS[square] & occupied]
            | chess.BB_FILE_ATTACKS[square][chess.BB_FILE_MASKS[square] & occupied])


def _sliding(frm: int, source: int, diagonal: int, straight: int, occupied: int) -> int:
    """The squares a bishop, rook or queen on ``frm`` (``source``: its bitboard) attacks under
    ``occupied``, told apart by the bitboards ``diagonal`` (bishops, queens) and ``straight``
    (rooks, queens): ``attacks_mask`` for a slider, without its piece-type tests.
    """
    targets = 0
    if source & diagonal:
        targets = _DIAG_ATTACKS[frm][_DIAG_MASKS[frm] & occupied]
    if source & straight:
        targets |= (_RANK_ATTACKS[frm][_RANK_MASKS[frm] & occupied]
                    | _FILE_ATTACKS[frm][_FILE_MASKS[frm] & occupied])
    return targets


def _pawn_capturers(turn: chess.Color, pawns: int, theirs: int) -> int:
    """The pawns of ``pawns`` (the side ``turn``'s) that attack a piece of ``theirs``: the
    victims shifted back by a pawn's capture steps, off the edge files they would wrap from.
    """
    if turn:
        return (theirs >> 7 & ~chess.BB_FILE_A | theirs >> 9 & ~chess.BB_FILE_H) & pawns
    return (theirs << 9 & ~chess.BB_FILE_A | theirs << 7 & ~chess.BB_FILE_H) & pawns


def _piece_on(b: chess.Board, target: int) -> int:
    """The type of the piece on the square ``target`` (a bitboard of one of the board's
    pieces): ``b.piece_type_at(square)`` from the bitboards, without the square number.
    """
    if target & b.pawns:
        return _PAWN
    if target & b.knights:
        return chess.KNIGHT
    if target & b.bishops:
        return chess.BISHOP
    if target & b.rooks:
        return chess.ROOK
    return _QUEEN if target & b.queens else _KING


def _loses_material(b: chess.Board, frm: int, to: int, victim: int, attacker: int) -> bool:
    """Whether the capture from ``frm`` to ``to`` (``victim`` and ``attacker``: the piece
    types there) loses material: only a dearer piece by ``_ORDER_VALUE`` can, on a square the
    other side attacks (with the capturer still on ``frm``), and then at once when an enemy
    pawn defends the square (any such capture gives more than a pawn over the victim: N or B
    for a pawn 220, R for a minor 170, so the exchange, whose first recapture is the pawn's,
    is negative); otherwise by the static exchange evaluation (``chess_see.exchange``).  One
    rule for quiescence, ordering and ``is_tactical``.
    """
    if _ORDER_VALUE[attacker] <= _ORDER_VALUE[victim]:
        return False
    turn = b.turn
    them = not turn
    if _PAWN_ATTACKS[turn][to] & b.pawns & b.occupied_co[them]:
        return True
    return (bool(b.attackers_mask(them, to))
            and exchange(b, to, SEE_VALUE[victim], SEE_VALUE[attacker], them,
                         b.occupied ^ _BB[frm]) < 0)


# The least a quiet move must give away to count as hanging its piece (``hangs_piece``), in
# ``SEE_VALUE`` units: a pawn, so that trading a bishop for a knight (10) or the exchange for
# a bishop and a pawn (70) does not count.
HANG_MARGIN = 100
_BACK_RANKS = chess.BB_RANK_1 | chess.BB_RANK_8


def _pinned(king: int, occupied: int, diagonal: int, straight: int, theirs: int) -> int:
    """The pieces of ``theirs`` pinned to ``king`` by the sliders ``diagonal`` (bishops,
    queens) and ``straight`` (rooks, queens) under the occupancy ``occupied``: the one piece
    between a slider on the king's line and the king.  With the other side's sliders and the
    king's own pieces, python-chess's ``_slider_blockers`` (the move generators' pin test).
    """
    snipers = (_DIAG_ATTACKS[king][0] & diagonal
               | (_RANK_ATTACKS[king][0] | _FILE_ATTACKS[king][0]) & straight)
    lines = _BETWEEN[king]
    pinned = 0
    while snipers:
        sniper = snipers.bit_length() - 1
        snipers ^= _BB[sniper]
        between = lines[sniper] & occupied
        if between and not between & (between - 1) and between & theirs:
            pinned |= between
    return pinned


def _hangs(b: chess.Board, us: chess.Color, frm: int, to: int, piece: int, occupied: int,
           diagonal: int, straight: int) -> bool:
    """Whether the opponent of ``us``, who moved ``piece`` from ``frm`` to ``to`` (a quiet
    move), wins at least ``HANG_MARGIN`` by taking it there.  The position after the move is
    given by ``occupied`` and our sliders ``diagonal`` (bishops, queens) and ``straight``
    (rooks, queens); ``b``'s piece bitboards may be those before or after the move: the
    opponent's pieces are the same, and ours count only within ``occupied`` and off ``to``
    (a piece never attacks its own square), so the moved piece is nowhere else.

    The first capture must be legal: after a discovered check only the king's (the others
    leave the check), none by a piece pinned to its king off the line through ``to``.  Then the
    piece hangs if the cheapest taker is worth at least ``HANG_MARGIN`` less than it, or if
    the static exchange started by some taker (``chess_see.exchange``: undefended, or lost
    however both sides go on; x-rays behind the taker count) wins ``HANG_MARGIN``.  Pins in
    the later recaptures and en passant are ignored (a pawn open to en passant alone counts
    as not hanging).
    """
    them = not us
    theirs = b.occupied_co[them]
    takers = b.attackers_mask(them, to, occupied) & occupied
    if not takers:
        return False
    king = b.king(them)
    assert king is not None, "standard chess has a king a side"
    if _LINES[king][frm] and (diagonal | straight) & ~_BB[to]:
        seen_diagonal, seen_straight = _slider_attacks(king, occupied)
        if (seen_diagonal & diagonal | seen_straight & straight) & ~_BB[to]:
            takers &= _BB[king]  # a discovered check: only the king may take, answering it
    pinned = _pinned(king, occupied, diagonal, straight, theirs) & takers
    for square in chess.scan_reversed(pinned):
        if not _LINES[king][square] & _BB[to]:
            takers &= ~_BB[square]
    if not takers:
        return False
    value = SEE_VALUE[piece]
    if value - SEE_VALUE[cheapest(b, takers)] >= HANG_MARGIN:
        return True  # whatever recaptures, the taker gains at least the difference
    for square in chess.scan_reversed(takers):
        taker = b.piece_type_at(square)
        assert taker is not None
        standing = chess.QUEEN if taker == _PAWN and _BB[to] & _BACK_RANKS else taker
        if exchange(b, to, value, SEE_VALUE[standing], us, occupied & ~_BB[square]
                    ) >= HANG_MARGIN:
            return True
    return False


def _toggle(b: chess.Board, piece: int, mask: int) -> None:
    """Flip the squares ``mask`` in ``b``'s bitboard of the piece type ``piece``."""
    if piece == _PAWN:
        b.pawns ^= mask
    elif piece == chess.KNIGHT:
        b.knights ^= mask
    elif piece == chess.BISHOP:
        b.bishops ^= mask
    elif piece == chess.ROOK:
        b.rooks ^= mask
    elif piece == _QUEEN:
        b.queens ^= mask
    else:
        b.kings ^= mask


def _push(b: chess.Board, move: chess.Move, piece: int, victim: int | None, extra: int
          ) -> None:
    """``b.push(move)`` for a legal move of standard chess on a plain ``chess.Board``, with
    what ``ChessGame.play`` already found: the moving ``piece``, the ``victim`` on the target
    square (None: none), ``extra`` the square of a pawn taken en passant or of the rook that
    castles (-1: neither).  The same state as python-chess's push (its board snapshot on
    ``_stack`` for ``pop``, the move on ``move_stack``, bitboards, promoted pieces, castling
    rights, en-passant square, clocks, turn; tests/test_chess_game.py compares every field
    after every legal move of many positions), without its generic steps: Chess960 move
    conversions, drops, null moves and the piece look-ups the caller has done.  A king is
    never captured in a legal move, so python-chess's rule for that case is left out.
    """
    state = chess._BoardState(b)
    if not b._stack:  # python-chess cleans the rights at a game's first push only
        b.castling_rights = b.clean_castling_rights()
    b.move_stack.append(move)
    b._stack.append(state)
    turn = b.turn
    frm, to = move.from_square, move.to_square
    source, target = _BB[frm], _BB[to]
    both = source | target
    b.ep_square = None
    if piece == _PAWN or victim is not None:
        b.halfmove_clock = 0
    else:
        b.halfmove_clock += 1
    if not turn:
        b.fullmove_number += 1
    rights = b.castling_rights & ~both
    if piece == _KING:
        rights &= ~(chess.BB_RANK_1 if turn else chess.BB_RANK_8)
    b.castling_rights = rights
    occupied_co = b.occupied_co
    promoted = b.promoted
    if piece == _KING and extra >= 0:  # castling: king and rook move
        rook = _BB[extra] | _BB[(frm + to) // 2]
        b.kings ^= both
        b.rooks ^= rook
        occupied_co[turn] ^= both | rook
        b.occupied ^= both | rook
        b.promoted = promoted & ~(source | _BB[extra])
        b.turn = not turn
        return
    if victim is not None:
        _toggle(b, victim, target)
        occupied_co[not turn] ^= target
        b.occupied ^= source
    elif extra >= 0:  # en passant
        taken = _BB[extra]
        b.pawns ^= taken
        occupied_co[not turn] ^= taken
        b.occupied ^= both | taken
        promoted &= ~taken
    else:
        b.occupied ^= both
        if piece == _PAWN and (frm ^ to) == 16:
            b.ep_square = (frm + to) // 2
    promotion = move.promotion
    if promotion:
        b.pawns ^= source
        _toggle(b, promotion, target)
    else:
        _toggle(b, piece, both)
    occupied_co[turn] ^= both
    b.promoted = ((promoted & ~both) | target if promotion or promoted & source
                  else promoted & ~both)
    b.turn = not turn


def _code(move: chess.Move) -> int:
    """``ChessGame.move_id`` as a function: a subclass may take the method away (tests)."""
    return move.from_square | move.to_square << 6 | (move.promotion or 0) << 12


def _en_passant(b: chess.Board) -> list[chess.Move]:
    """The legal en passant captures of ``b`` (not in check), python-chess's generator and
    its safety test with our pins, as ``ChessGame._generate_python`` finds them.
    """
    turn = b.turn
    ours = b.occupied_co[turn]
    theirs = b.occupied_co[not turn]
    king = (b.kings & ours).bit_length() - 1
    blockers = _pinned(king, b.occupied, (b.bishops | b.queens) & theirs,
                       (b.rooks | b.queens) & theirs, ours)
    return [_MOVES[move.from_square][move.to_square] for move in b.generate_pseudo_legal_ep()
            if b._is_safe(king, blockers, move)]


def _en_passant_evasions(b: chess.Board) -> list[chess.Move]:
    """The legal en passant captures of ``b`` in single check, in ``ChessGame._evasions``'
    order: those that block or take the checker, then the capture of a checking pawn that
    just moved.
    """
    turn = b.turn
    ours = b.occupied_co[turn]
    theirs = b.occupied_co[not turn]
    king = (b.kings & ours).bit_length() - 1
    checkers = b.attackers_mask(not turn, king)
    checker = checkers.bit_length() - 1
    target = _BETWEEN[king][checker] | checkers
    blockers = _pinned(king, b.occupied, (b.bishops | b.queens) & theirs,
                       (b.rooks | b.queens) & theirs, ours)
    moves = [move for move in b.generate_pseudo_legal_ep(~b.kings, target)
             if b._is_safe(king, blockers, move)]
    ep = b.ep_square
    assert ep is not None
    if not _BB[ep] & target and ep + (-8 if turn else 8) == checker:
        moves += [move for move in b.generate_pseudo_legal_ep()
                  if b._is_safe(king, blockers, move)]
    return moves


def _castle_key(rights: int) -> int:
    key = 0
    for sq in _CORNERS:
        if rights & _BB[sq]:
            key ^= _Z_CASTLE[sq]
    return key


class ChessGame:
    """A chess position and its history over ``chess.Board`` (standard chess)."""

    ACYCLIC = False
    # Captures that lose material by exchange evaluation count as quiet for the search's
    # reductions and pruning (``is_tactical``).  A class setting, so that
    # bench/chess_selfplay.py can play the engine with and without it in one process.
    LOSING_CAPTURES_QUIET = True
    # The evaluation adds pawn structure (passed, isolated, doubled pawns) and the bishop
    # pair to the tables (``chess_terms``; +41 Elo in self-play, session 18).  A class
    # setting for the same reason.
    STRUCTURE_TERMS = True
    # ... and rooks on open files and the kings' pawn shelter (``chess_terms.piece_terms``),
    # and the pieces' mobility (``chess_terms.mobility``): both off, they lost in self-play at
    # equal time (session 18: -22 and -32 Elo, 240 games each; docs/chess.md).
    PIECE_TERMS = False
    MOBILITY = False
    # King attack (``chess_terms.king_attack``: the enemy pieces whose attacks reach the king's
    # zone, weighted and squared, while the enemy has a queen); session 21.
    KING_ATTACK = False
    # The king-relative corrections of the tables (``chess_king_tables``, fitted to
    # Stockfish's static evaluation; session 29).  A class setting, read when a game is made.
    # Off: both fits lost in self-play at 1000 nodes (9-14-40 and 43-15-73, both stopped;
    # bench/results/chess/s29-rules.md).
    KING_TABLES = False
    # Quiet moves that attack a more valuable enemy piece from their new square (a pawn
    # attacking a piece, a knight or bishop a rook or queen, a rook a queen: ``_threatens``)
    # count as tactical (``is_tactical``): never reduced or pruned as late or futile.  The
    # losses of sessions 27-28 were mostly refutations the search reduced a ply or two below
    # the root (bench/results/chess/s29-rules.md); such refutations are threats.  Session 30.
    THREATS_TACTICAL = False
    # The danger count from which ``king_in_danger`` answers True (session 22).
    KING_DANGER_GUARD = 300  # about one quiet position of ours in six (s22-summary.md)

    def __init__(self, board: chess.Board | None = None) -> None:
        """Start from ``board`` (its move stack is replayed once to know the key history)."""
        start = board.root() if board is not None else chess.Board()
        self.board = start
        self._kings = self.KING_TABLES
        self._tables = self._tables_here()  # (middlegame, endgame) tables in use
        self._kb, self._mg, self._eg, self._phase = self._from_scratch()
        self._keys = [self._full_key()]
        self._resets = [0]
        self._saved: list[tuple[int, int, int, int, tuple[_Tables, _Tables]]] = []
        self._moves: list[chess.Move] | None = None
        self._check: bool | None = None
        self._noisy_hints: tuple[list[chess.Move], list[int]] | None = None
        # The legal move list the kernel made here, with its hints and move ids.
        self._listed: tuple[list[chess.Move], list[int], list[int]] | None = None
        # The kernels' output and scratch arrays (reused call after call).
        self._out: Any = None
        self._gains: Any = None
        if not _LOADED:
            load_kernels()
        if _KERNELS:
            self._out, self._gains = kernel.buffers()
        # ``play`` updates the board itself (``_push``) only on python-chess's own Board in
        # standard chess: a subclass may hook the push, Chess960 encodes castling otherwise.
        # ``_push`` writes python-chess's private board state (``_BoardState``, ``_stack``):
        # only on the releases its test compares field by field, else python-chess's push.
        self._plain = (type(start) is chess.Board and not start.chess960
                       and _PUSH_TESTED)
        if board is not None:
            for move in board.move_stack:
                self.play(move)

    def _tables_here(self) -> tuple[_Tables, _Tables]:
        """The (middlegame, endgame) tables for the kings' placements: the plain ones without
        ``KING_TABLES`` (or without both kings).
        """
        b = self.board
        white, black = b.king(chess.WHITE), b.king(chess.BLACK)
        if not self._kings or white is None or black is None:
            return _MG, _EG
        return _pair(king_state(white, chess.WHITE), king_state(black, chess.BLACK))

    def _table_sums(self) -> tuple[int, int]:
        """The middlegame and endgame table sums of the whole board (after a king's change of
        placement), read from the bitboards: about 5 µs, a third of ``_from_scratch``.
        """
        b = self.board
        mg = eg = 0
        for c in (0, 1):
            own = b.occupied_co[c]
            rows_mg, rows_eg = self._tables[0][c], self._tables[1][c]
            for piece, pieces in enumerate((b.pawns, b.knights, b.bishops, b.rooks, b.queens,
                                            b.kings), start=1):
                bits = pieces & own
                row_mg, row_eg = rows_mg[piece], rows_eg[piece]
                while bits:
                    low = bits & -bits
                    sq = low.bit_length() - 1
                    mg += row_mg[sq]
                    eg += row_eg[sq]
                    bits ^= low
        return mg, eg

    def _from_scratch(self) -> tuple[int, int, int, int]:
        """Key (without en passant), mg, eg and phase computed from the whole board."""
        b = self.board
        kb = mg = eg = phase = 0
        tmg, teg = self._tables
        for sq, piece in b.piece_map().items():
            c = int(piece.color)
            kb ^= _Z[c][piece.piece_type][sq]
            mg += tmg[c][piece.piece_type][sq]
            eg += teg[c][piece.piece_type][sq]
            phase += _PHASE[piece.piece_type]
        if b.turn == chess.BLACK:
            kb ^= _Z_SIDE
        kb ^= _castle_key(b.castling_rights)
        return kb, mg, eg, phase

    def _full_key(self) -> int:
        b = self.board
        ep = b.ep_square
        if ep is not None and b.pawns & b.occupied_co[b.turn] & _PAWN_ATTACKS[not b.turn][ep]:
            return self._kb ^ _Z_EP[ep & 7]
        return self._kb

    # ---- Game protocol -------------------------------------------------------------------

    @property
    def to_move(self) -> Player:
        return Player.FIRST if self.board.turn == chess.WHITE else Player.SECOND

    def legal_moves(self) -> Sequence[chess.Move]:
        moves = self._moves
        if moves is None:
            moves = self._moves = self._generate()
        return moves

    def _generate(self) -> list[chess.Move]:
        """The legal moves in python-chess's order: ``_generate_python``'s list, made out of
        check by the kernel (``chess_movegen_kernel.generate``) with the moves' hints and ids,
        kept for ``move_hints`` and ``move_ids`` of this list (``_listed``).  Castling and en
        passant stay python-chess's, put where its order has them.
        """
        if not _KERNELS:
            return self._generate_python()
        if self.in_check():
            return self._evasions_made()
        b = self.board
        turn = b.turn
        occupied_co = b.occupied_co
        out = self._out
        packed = kernel.generate(b.pawns, b.knights, b.bishops, b.rooks, b.queens, b.kings,
                                 occupied_co[True], occupied_co[False], turn, out,
                                 self._gains)
        moves, hints, codes = self._read(packed & _COUNT_MASK)
        if b.castling_rights & (chess.BB_RANK_1 if turn else chess.BB_RANK_8):
            castles = list(b.generate_castling_moves())  # its path is tested there
            if castles:
                split = packed >> kernel.SPLIT_SHIFT
                moves[split:split] = castles
                hints[split:split] = [0] * len(castles)
                codes[split:split] = [_code(move) for move in castles]
        if b.ep_square:
            for move in _en_passant(b):
                moves.append(move)
                hints.append(_EN_PASSANT_HINT)
                codes.append(_code(move))
        self._listed = (moves, hints, codes)
        return moves

    def _read(self, n: int) -> tuple[list[chess.Move], list[int], list[int]]:
        """The first ``n`` moves a kernel wrote to ``_out``: the moves, their hints, their
        codes (``move_id``).
        """
        out = self._out
        codes: list[int] = out[:n].tolist()
        by_code = _BY_CODE
        return ([by_code[code] for code in codes],
                out[kernel.HINTS_AT:kernel.HINTS_AT + n].tolist(), codes)

    def _evasions_made(self) -> list[chess.Move]:
        """``_evasions``' list made by the kernel (``chess_evasion_kernel``) with the moves'
        hints and ids (``_listed``); en passant stays python-chess's, at the end.
        """
        b = self.board
        occupied_co = b.occupied_co
        out = self._out
        packed = evasion_kernel.evasions(b.pawns, b.knights, b.bishops, b.rooks, b.queens,
                                         b.kings, occupied_co[True], occupied_co[False],
                                         b.turn, out, self._gains)
        moves, hints, codes = self._read(packed & _COUNT_MASK)
        if b.ep_square is not None and not packed & evasion_kernel.DOUBLE_CHECK:
            for move in _en_passant_evasions(b):
                moves.append(move)
                hints.append(_EN_PASSANT_HINT)
                codes.append(_code(move))
        self._listed = (moves, hints, codes)
        return moves

    def _generate_python(self) -> list[chess.Move]:
        """The legal moves in python-chess's order (its ``generate_legal_moves``).  In check,
        ``_evasions``; otherwise generated here in the order of its
        ``generate_pseudo_legal_moves`` (pieces by from-square then to-square, both
        descending; castling; pawn captures, single and double pushes; en passant) with the
        legality test on the way: a king step must land on an unattacked square, a piece that
        may be pinned keeps to its line through the king, en passant is tested by
        python-chess.  One pass with table look-ups, where python-chess's generator calls
        ``attacks_mask`` for every piece and yields every move to a second loop that tests it.
        """
        b = self.board
        if self.in_check():
            return self._evasions()
        turn = b.turn
        them = not turn
        ours = b.occupied_co[turn]
        occupied = b.occupied
        free = ~ours
        pawns, knights = b.pawns, b.knights
        diagonal, straight = b.bishops | b.queens, b.rooks | b.queens
        king = (b.kings & ours).bit_length() - 1
        lines = _LINES[king]
        theirs = b.occupied_co[them]
        # the pieces that may be pinned to our king
        blockers = _pinned(king, occupied, diagonal & theirs, straight & theirs, ours)
        moves: list[chess.Move] = []
        append = moves.append
        # Bits are scanned highest first by hand (python-chess's ``scan_reversed`` order)
        # in the loops that run at every node: a generator costs more than the few bits.
        pieces = ours & ~pawns
        while pieces:
            frm = pieces.bit_length() - 1
            source = _BB[frm]
            pieces ^= source
            if source & knights:
                targets = _KNIGHT_ATTACKS[frm] & free
            elif frm == king:
                targets = _KING_ATTACKS[frm] & free
                while targets:
                    to = targets.bit_length() - 1
                    targets ^= _BB[to]
                    if not b.attackers_mask(them, to):  # is_attacked_by, without its call
                        append(_MOVES[frm][to])
                continue
            else:
                targets = _sliding(frm, source, diagonal, straight, occupied) & free
            if blockers & source:
                targets &= lines[frm]  # pinned, or may be: along its line through the king
            row = _MOVES[frm]
            while targets:
                to = targets.bit_length() - 1
                targets ^= _BB[to]
                append(row[to])
        if b.castling_rights & (chess.BB_RANK_1 if turn else chess.BB_RANK_8):
            moves.extend(b.generate_castling_moves())  # its path is tested there
        ours_pawns = pawns & ours
        if not ours_pawns:
            return moves
        attacks = _PAWN_ATTACKS[turn]
        empty = ~occupied
        capturers = _pawn_capturers(turn, ours_pawns, theirs)
        if turn:
            single = ours_pawns << 8 & empty
            double = single << 8 & empty & (chess.BB_RANK_3 | chess.BB_RANK_4)
            step = -8
        else:
            single = ours_pawns >> 8 & empty
            double = single >> 8 & empty & (chess.BB_RANK_6 | chess.BB_RANK_5)
            step = 8
        while capturers:
            frm = capturers.bit_length() - 1
            capturers ^= _BB[frm]
            targets = attacks[frm] & theirs
            if blockers & _BB[frm]:
                targets &= lines[frm]
            while targets:
                to = targets.bit_length() - 1
                targets ^= _BB[to]
                moves.extend(_PAWN_MOVES[frm << 6 | to])
        while single:
            to = single.bit_length() - 1
            single ^= _BB[to]
            frm = to + step
            if blockers & _BB[frm] and not lines[frm] & _BB[to]:
                continue
            moves.extend(_PAWN_MOVES[frm << 6 | to])
        while double:
            to = double.bit_length() - 1
            double ^= _BB[to]
            frm = to + 2 * step
            if not blockers & _BB[frm] or lines[frm] & _BB[to]:
                append(_MOVES[frm][to])
        if b.ep_square:
            for move in b.generate_pseudo_legal_ep():
                if b._is_safe(king, blockers, move):
                    append(move)
        return moves

    def _evasions(self) -> list[chess.Move]:
        """The legal moves in check, in python-chess's order (its ``generate_legal_moves``
        over ``_generate_evasions``): the king's steps off the checking sliders' lines to
        squares no enemy piece attacks, then against a single checker the other pieces'
        captures of it and blocks (python-chess's pseudo-legal generator aimed at those
        squares; a piece that may be pinned keeps to its line through the king, en passant
        is tested by python-chess), then en passant of a checking pawn that just moved.
        The legality test here, where python-chess's asks every move whether it castles
        and whether it takes en passant.
        """
        b = self.board
        turn = b.turn
        them = not turn
        ours = b.occupied_co[turn]
        king = (b.kings & ours).bit_length() - 1
        checkers = b.attackers_mask(them, king)
        sliders = checkers & (b.bishops | b.rooks | b.queens)
        off = ~ours
        while sliders:  # the squares behind the king on a checking slider's line
            sq = sliders.bit_length() - 1
            sliders ^= _BB[sq]
            off &= ~_LINES[king][sq] | _BB[sq]
        moves: list[chess.Move] = []
        targets = _KING_ATTACKS[king] & off
        row = _MOVES[king]
        while targets:
            to = targets.bit_length() - 1
            targets ^= _BB[to]
            if not b.attackers_mask(them, to):
                moves.append(row[to])
        if checkers & (checkers - 1):
            return moves  # double check: only the king moves
        checker = checkers.bit_length() - 1
        target = _BETWEEN[king][checker] | checkers
        theirs = b.occupied_co[them]
        blockers = _pinned(king, b.occupied, (b.bishops | b.queens) & theirs,
                           (b.rooks | b.queens) & theirs, ours)
        ep = b.ep_square
        for move in b.generate_pseudo_legal_moves(~b.kings, target):
            frm = move.from_square
            if move.to_square == ep and b.pawns & _BB[frm]:
                if b._is_safe(king, blockers, move):  # en passant
                    moves.append(move)
            elif not blockers & _BB[frm] or _LINES[frm][move.to_square] & _BB[king]:
                moves.append(move)
        if ep is not None and not _BB[ep] & target and ep + (-8 if turn else 8) == checker:
            for move in b.generate_pseudo_legal_ep():
                if b._is_safe(king, blockers, move):
                    moves.append(move)
        return moves

    def _has_move(self) -> bool:
        """Whether the side to move, not in check, has a legal move.  A piece off every line
        through its king cannot be pinned, so the usual cases are decided without generating
        moves: such a pawn with an empty square ahead (one bitboard test for all of them),
        such a knight, bishop, rook or queen that can go somewhere, a king step to an
        unattacked square; otherwise python-chess's generator is asked for one.  Only the
        answer matters, so the cheapest test goes first.
        """
        b = self.board
        turn = b.turn
        us = b.occupied_co[turn]
        king = (b.kings & us).bit_length() - 1
        unpinnable = us & ~_ON_LINES[king]
        occupied = b.occupied
        pushers = b.pawns & unpinnable
        if (pushers << 8 if turn else pushers >> 8) & ~occupied & chess.BB_ALL:
            return True
        free = ~us & chess.BB_ALL
        knights = b.knights
        diagonal, straight = b.bishops | b.queens, b.rooks | b.queens
        pieces = unpinnable & ~(b.pawns | b.kings)
        while pieces:  # highest first, as ``_generate`` scans
            sq = pieces.bit_length() - 1
            source = _BB[sq]
            pieces ^= source
            if (_KNIGHT_ATTACKS[sq] if source & knights else _sliding(
                    sq, source, diagonal, straight, occupied)) & free:
                return True
        # Not in check, so no slider looks through the king: a step to a square no enemy
        # piece attacks is legal.
        them = not turn
        for to in chess.scan_reversed(chess.BB_KING_ATTACKS[king] & free):
            if not b.is_attacked_by(them, to):
                return True
        return next(iter(b.generate_legal_moves()), None) is not None

    def play(self, move: chess.Move) -> None:
        """Play ``move`` (legal here): the key, the table sums and the board, whose update is
        python-chess's ``push`` done here (``_push``) on a plain board of standard chess.
        """
        b = self.board
        frm, to, promotion = move.from_square, move.to_square, move.promotion
        c = int(b.turn)
        piece = b.piece_type_at(frm)
        assert piece is not None, "play() needs a legal move"
        tables = self._tables
        tmg, teg = tables
        self._saved.append((self._kb, self._mg, self._eg, self._phase, tables))
        mgt, egt, zt = tmg[c], teg[c], _Z[c]
        kb = self._kb ^ zt[piece][frm] ^ _Z_SIDE
        mg = self._mg - mgt[piece][frm]
        eg = self._eg - egt[piece][frm]
        phase = self._phase
        placed = piece
        if promotion:
            placed = promotion
            phase += _PHASE[promotion]
        kb ^= zt[placed][to]
        mg += mgt[placed][to]
        eg += egt[placed][to]
        o = 1 - c
        irreversible = piece == _PAWN
        victim = None
        extra = -1  # en passant: the captured pawn's square; castling: the rook's from-square
        if b.occupied_co[o] & _BB[to]:
            victim = b.piece_type_at(to)
            assert victim is not None
            kb ^= _Z[o][victim][to]
            mg -= tmg[o][victim][to]
            eg -= teg[o][victim][to]
            phase -= _PHASE[victim]
            irreversible = True
        elif piece == _PAWN and to == b.ep_square and (frm ^ to) & 7:
            extra = cap = to - 8 if c else to + 8
            kb ^= _Z[o][_PAWN][cap]
            mg -= tmg[o][_PAWN][cap]
            eg -= teg[o][_PAWN][cap]
        elif piece == _KING and abs(to - frm) == 2:
            rook_from, rook_to = (frm + 3, frm + 1) if to > frm else (frm - 4, frm - 1)
            extra = rook_from
            kb ^= zt[chess.ROOK][rook_from] ^ zt[chess.ROOK][rook_to]
            mg += mgt[chess.ROOK][rook_to] - mgt[chess.ROOK][rook_from]
            eg += egt[chess.ROOK][rook_to] - egt[chess.ROOK][rook_from]
        rights = b.castling_rights
        if self._plain:
            _push(b, move, piece, victim, extra)
        else:
            b.push(move)
        if b.castling_rights != rights:
            kb ^= _castle_key(rights) ^ _castle_key(b.castling_rights)
            irreversible = True
        self._kb, self._mg, self._eg, self._phase = kb, mg, eg, phase
        if piece == _KING and self._kings and (
                king_state(frm, c) != king_state(to, c)):  # a new placement: new tables
            self._tables = self._tables_here()
            self._mg, self._eg = self._table_sums()
        self._moves = None
        self._check = None
        self._noisy_hints = None
        self._listed = None
        n = len(self._keys)
        self._keys.append(self._full_key())
        self._resets.append(n if irreversible else self._resets[n - 1])

    def undo(self) -> None:
        b = self.board
        if self._plain:
            b.move_stack.pop()  # python-chess's pop, without the call
            b._stack.pop().restore(b)
        else:
            b.pop()
        self._kb, self._mg, self._eg, self._phase, self._tables = self._saved.pop()
        self._keys.pop()
        self._resets.pop()
        self._moves = None
        self._check = None
        self._noisy_hints = None
        self._listed = None

    def outcome(self) -> Outcome | None:
        b = self.board
        if not (b.pawns | b.rooks | b.queens) and b.is_insufficient_material():
            return Outcome(None, "insufficient material")
        if self.in_check():
            if not self.legal_moves():
                return Outcome(Player.SECOND if b.turn else Player.FIRST, "checkmate")
        elif self._moves is not None:
            if not self._moves:
                return Outcome(None, "stalemate")
        elif not self._has_move():
            self._moves = []
            return Outcome(None, "stalemate")
        if b.halfmove_clock >= 150:
            return Outcome(None, "75-move rule")
        n = len(self._keys) - 1
        if n - self._resets[n] >= 16 and self._repetitions() >= 5:
            return Outcome(None, "fivefold repetition")
        return None

    def evaluate(self) -> int:
        """Tapered PeSTO piece-square value (centipawns) for the side to move, with the pawn
        structure and bishop pair terms of ``chess_terms`` (``STRUCTURE_TERMS``), rook files
        and king shelter (``PIECE_TERMS``), mobility (``MOBILITY``), king attack
        (``KING_ATTACK``); with little
        material left, corrected by the endgame rules of ``chess_endgame`` (mop-up towards the
        mate in won pawnless endings, drawish material scaled down).
        """
        phase = self._phase if self._phase < PHASE_TOTAL else PHASE_TOTAL
        mg, eg = self._mg, self._eg
        if self.STRUCTURE_TERMS:
            more_mg, more_eg = structure_terms(self.board)
            mg += more_mg
            eg += more_eg
        if self.PIECE_TERMS:
            more_mg, more_eg = piece_terms(self.board)
            mg += more_mg
            eg += more_eg
        if self.MOBILITY:
            more_mg, more_eg = mobility(self.board)
            mg += more_mg
            eg += more_eg
        if self.KING_ATTACK:
            mg += king_attack(self.board)[0]  # its endgame part is always 0
        score = mg * phase + eg * (PHASE_TOTAL - phase)
        # Divide after the sign flip, so that colour-mirrored positions score exactly alike.
        value = (score if self.board.turn else -score) // PHASE_TOTAL + TEMPO
        if phase <= ENDGAME_PHASE:
            return endgame_value(self.board, value)
        return value

    def table_values(self) -> tuple[int, int]:
        """Material plus piece-square values (middlegame, endgame), White's view, untapered:
        the incrementally kept sums ``evaluate`` starts from (for ``chess_eval_parts``).
        """
        return self._mg, self._eg

    def table_phase(self) -> int:
        """The game phase by the pieces on the board (N/B 1, R 2, Q 4), not capped."""
        return self._phase

    def key(self) -> int:
        return self._keys[-1]

    def copy(self) -> Self:
        return type(self)(self.board.copy())

    def move_to_text(self, move: chess.Move) -> str:
        return move.uci()

    def move_name(self, move: chess.Move) -> str:
        """SAN (``Nf3``, ``exd5``, ``O-O``, ``Qh7#``), as players write moves (``MoveNames``)."""
        return self.board.san(move)

    def move_from_text(self, text: str) -> chess.Move:
        """A move in UCI (``e2e4``, ``e7e8q``) or, as a player writes it, in SAN (``e4``,
        ``Nf3``, ``O-O``, ``exd5``); UCI is tried first (the protocols speak it).
        """
        t = text.strip()
        try:
            move = chess.Move.from_uci(t)
        except ValueError:
            move = None
        if move is None:
            try:
                move = self.board.parse_san(t)
            except chess.IllegalMoveError:
                raise MoveError(f"illegal move {text!r} in {self.board.fen()}") from None
            except ValueError:
                raise MoveError(f"malformed move {text!r} (expected UCI like e2e4 or e7e8q, "
                                "or SAN like Nf3)") from None
        if not move or not self.board.is_legal(move):  # (a null move is falsy)
            raise MoveError(f"illegal move {text!r} in {self.board.fen()}")
        return move

    # ---- capabilities --------------------------------------------------------------------

    def in_check(self) -> bool:
        """Side to move in check (cached per position): python-chess's ``is_check`` from the
        attack tables in one expression, without its three calls (king, checkers, attackers);
        kings never touch, so only knights, pawns and sliders are asked.
        """
        check = self._check
        if check is None:
            b = self.board
            turn = b.turn
            them = b.occupied_co[not turn]
            king = (b.kings & b.occupied_co[turn]).bit_length() - 1
            occupied = b.occupied
            check = self._check = bool((
                _KNIGHT_ATTACKS[king] & b.knights | _PAWN_ATTACKS[turn][king] & b.pawns
                | _DIAG_ATTACKS[king][_DIAG_MASKS[king] & occupied] & (b.bishops | b.queens)
                | (_RANK_ATTACKS[king][_RANK_MASKS[king] & occupied]
                   | _FILE_ATTACKS[king][_FILE_MASKS[king] & occupied]) & (b.rooks | b.queens)
            ) & them)
        return check

    def noisy_moves(self) -> Sequence[chess.Move]:
        """Captures that do not lose material (static exchange evaluation, ``chess_see``) and
        queen promotions.  Their ``move_hints`` are worked out on the way and kept until the
        position changes, so ordering them costs no second exchange evaluation.
        """
        b = self.board
        if self.in_check():
            moves, hints = self._evasion_captures()
        else:
            moves, hints = self._captures()
        rank = chess.BB_RANK_7 if b.turn else chess.BB_RANK_2
        pushers = b.pawns & b.occupied_co[b.turn] & rank
        if pushers:
            for move in b.generate_legal_moves(pushers, ~b.occupied):
                if move.promotion == _QUEEN:
                    moves.append(move)
                    hints.append(190)
        self._noisy_hints = (moves, hints)
        return moves

    def _evasion_captures(self) -> tuple[list[chess.Move], list[int]]:
        """``noisy_moves``' captures and their hints in check: python-chess's legal captures
        (rare enough that its own legality test is cheap), those that lose material left out.
        """
        b = self.board
        occ_them = b.occupied_co[not b.turn]
        moves: list[chess.Move] = []
        hints: list[int] = []
        for move in b.generate_legal_captures():
            promotion = move.promotion
            if promotion is not None and promotion != _QUEEN:
                continue
            to = move.to_square
            if not occ_them & _BB[to]:  # en passant
                moves.append(move)
                hints.append(_EN_PASSANT_HINT)
                continue
            frm = move.from_square
            victim = b.piece_type_at(to) or _PAWN
            attacker = b.piece_type_at(frm) or _PAWN
            if _loses_material(b, frm, to, victim, attacker):
                continue  # e.g. QxP on a defended square: loses material, skip in quiescence
            moves.append(move)
            hints.append(100 + 10 * _ORDER_VALUE[victim] - _ORDER_VALUE[attacker]
                         + (90 if promotion else 0))
        return moves, hints

    def _captures(self) -> tuple[list[chess.Move], list[int]]:
        """``noisy_moves``' captures and their hints out of check: ``_captures_python``'s,
        made by the kernel (``chess_movegen_kernel.captures``) but for en passant.
        """
        if not _KERNELS:
            return self._captures_python()
        b = self.board
        occupied_co = b.occupied_co
        out = self._out
        n = kernel.captures(b.pawns, b.knights, b.bishops, b.rooks, b.queens, b.kings,
                            occupied_co[True], occupied_co[False], b.turn, out, self._gains)
        moves, hints, _ = self._read(n)
        ep = b.ep_square
        if ep and not _BB[ep] & b.occupied:
            for move in _en_passant(b):
                moves.append(move)
                hints.append(_EN_PASSANT_HINT)
        return moves, hints

    def _captures_python(self) -> tuple[list[chess.Move], list[int]]:
        """``noisy_moves``' captures and their hints out of check, generated here in
        python-chess's order (``generate_pseudo_legal_captures``: pieces by from-square then
        to-square, both descending, then pawns, then en passant) with the legality test of
        ``_legal`` and the hints of ``_evasion_captures`` done on the way: one pass with table
        look-ups, where python-chess's generator calls ``attacks_mask`` for every piece and
        yields every move, and then each capture was asked its pieces again.  Under-promotions
        are not generated (quiescence skips them); a pawn never loses material by capturing,
        so only the pieces' captures may need an exchange evaluation.
        """
        b = self.board
        turn = b.turn
        ours = b.occupied_co[turn]
        theirs = b.occupied_co[not turn]
        occupied = b.occupied
        pawns, knights, bishops, rooks, queens = b.pawns, b.knights, b.bishops, b.rooks, b.queens
        king = (b.kings & ours).bit_length() - 1
        king_bb = _BB[king]
        diagonal, straight = bishops | queens, rooks | queens
        blockers = -1  # pieces that may be pinned to our king, found at the first capture
        moves: list[chess.Move] = []
        hints: list[int] = []
        pieces = ours & ~pawns  # scanned highest first by hand, as in ``_generate``
        while pieces:
            frm = pieces.bit_length() - 1
            source = _BB[frm]
            pieces ^= source
            if source & knights:
                targets = _KNIGHT_ATTACKS[frm] & theirs
                attacker = chess.KNIGHT
            elif source & king_bb:
                targets = _KING_ATTACKS[frm] & theirs
                attacker = _KING
            else:
                targets = _sliding(frm, source, diagonal, straight, occupied) & theirs
                attacker = (_QUEEN if source & queens else chess.ROOK if source & rooks
                            else chess.BISHOP)
            if not targets:
                continue
            value = _ORDER_VALUE[attacker]
            while targets:
                to = targets.bit_length() - 1
                target = _BB[to]
                targets ^= target
                if frm == king:
                    if b.is_attacked_by(not turn, to):
                        continue
                else:
                    if blockers < 0:
                        blockers = _pinned(king, occupied, diagonal & theirs, straight & theirs,
                                          ours)
                    if blockers & source and not _LINES[frm][to] & king_bb:
                        continue
                victim = _piece_on(b, target)
                if _loses_material(b, frm, to, victim, attacker):
                    continue
                moves.append(_MOVES[frm][to])
                hints.append(100 + 10 * _ORDER_VALUE[victim] - value)
        promoting = _BB_PROMOTION_RANKS
        attacks = _PAWN_ATTACKS[turn]
        pieces = _pawn_capturers(turn, pawns & ours, theirs)
        while pieces:
            frm = pieces.bit_length() - 1
            source = _BB[frm]
            pieces ^= source
            targets = attacks[frm] & theirs
            if blockers < 0:
                blockers = _pinned(king, occupied, diagonal & theirs, straight & theirs,
                                  ours)
            while targets:
                to = targets.bit_length() - 1
                target = _BB[to]
                targets ^= target
                if blockers & source and not _LINES[frm][to] & king_bb:
                    continue
                if target & promoting:
                    moves.append(_PROMOTING[frm << 6 | to][0])  # the queen's
                    hints.append(189 + 10 * _ORDER_VALUE[_piece_on(b, target)])
                else:
                    moves.append(_MOVES[frm][to])
                    hints.append(99 + 10 * _ORDER_VALUE[_piece_on(b, target)])
        ep = b.ep_square
        if ep and not _BB[ep] & occupied:
            capturers = (pawns & ours & _PAWN_ATTACKS[not turn][ep]
                         & chess.BB_RANKS[4 if turn else 3])
            for frm in chess.scan_reversed(capturers):
                if blockers < 0:
                    blockers = _pinned(king, occupied, diagonal & theirs, straight & theirs,
                                      ours)
                move = _MOVES[frm][ep]
                if b._is_safe(king, blockers, move):
                    moves.append(move)
                    hints.append(_EN_PASSANT_HINT)
        return moves, hints

    def move_id(self, move: chess.Move) -> int:
        """From-square, to-square and promotion piece as one int (``MoveIds``): python-chess's
        moves hash in Python code, these ints in C.
        """
        return move.from_square | move.to_square << 6 | (move.promotion or 0) << 12

    def move_ids(self, moves: Sequence[chess.Move]) -> list[int]:
        """``move_id`` of each of ``moves``, in one comprehension (kept with the list when the
        kernel made it: its codes are these ids).
        """
        listed = self._listed
        if listed is not None and listed[0] is moves:
            return listed[2]
        return [m.from_square | m.to_square << 6 | (m.promotion or 0) << 12 for m in moves]

    def may_give_check(self, move: chess.Move) -> bool:
        """Whether ``move`` (legal here) gives check, worked out without playing it
        (``QuietChecks``): the moved (or promoted) piece attacks the enemy king from its
        new square, or one of our sliders sees the king through the squares the move
        empties (its from-square, an en passant victim's square).  Castling answers True
        (it may check with the rook; it is never one of the quiet moves skipped often).
        """
        b = self.board
        us = b.turn
        king = (b.kings & b.occupied_co[not us]).bit_length() - 1  # b.king, without the call
        frm, to = move.from_square, move.to_square
        piece = move.promotion or b.piece_type_at(frm)
        king_bb = _BB[king]
        if piece == _KING:
            if abs(to - frm) == 2:
                return True
            direct = 0
        elif piece == _PAWN:
            direct = _PAWN_ATTACKS[us][to] & king_bb
        elif piece == chess.KNIGHT:
            direct = chess.BB_KNIGHT_ATTACKS[to] & king_bb
        else:
            direct = _LINES[to][king]  # nonzero when on a common line
        occupied = (b.occupied & ~_BB[frm]) | _BB[to]
        lines = _LINES[king]
        opened = lines[frm]  # whether the move empties a square on a line through the king
        if piece == _PAWN and to == b.ep_square and (frm ^ to) & 7:
            captured = to - 8 if us else to + 8
            occupied &= ~_BB[captured]
            opened = opened or lines[captured]
        if direct and piece not in (_PAWN, chess.KNIGHT):
            diagonal, straight = _slider_attacks(to, occupied)
            seen = (diagonal if piece == chess.BISHOP else straight if piece == chess.ROOK
                    else diagonal | straight)
            direct = seen & king_bb
        if direct:
            return True
        if not opened:
            return False  # nothing left a line through the king: no discovered check
        ours = b.occupied_co[us] & ~_BB[frm]
        diagonal, straight = _slider_attacks(king, occupied)  # what sees the king
        return bool(diagonal & (b.bishops | b.queens) & ours
                    or straight & (b.rooks | b.queens) & ours)

    def hangs_piece(self) -> bool:
        """Whether the move just played (``HangingMoves``) was quiet and left the moved piece
        where the side to move now wins at least a pawn by taking it (``_hangs``: attacked by
        a legal taker and undefended, or by a taker a pawn cheaper, or lost by exchange
        evaluation).  A capture (en passant too), a promotion, a king move (castling too)
        and a pass never hang: the searcher skips hanging moves near the horizon
        (``SearchConfig.hanging_depth``), and those are the moves that change material or
        cannot be taken.
        """
        b = self.board
        if not b.move_stack:
            return False
        move = b.move_stack[-1]
        if not move or move.promotion is not None:
            return False  # a pass (null move) or a promotion
        frm, to = move.from_square, move.to_square
        piece = b.piece_type_at(to)
        if piece == _PAWN:
            if (frm ^ to) & 7:
                return False  # a pawn capture, en passant too
        elif piece == _KING or b.halfmove_clock == 0:
            return False  # a king move, or a piece's capture (it zeroed the clock)
        assert piece is not None
        us = not b.turn
        ours = b.occupied_co[us]
        return _hangs(b, us, frm, to, piece, b.occupied, (b.bishops | b.queens) & ours,
                      (b.rooks | b.queens) & ours)

    def move_hangs_piece(self, move: chess.Move) -> bool:
        """``hangs_piece`` as it would answer right after ``move`` (legal here), without
        playing it (``HangingBeforePlay``): the position after the move is the occupancy with
        the piece lifted to its target and our sliders moved with it.
        """
        if move.promotion is not None:
            return False
        b = self.board
        us = b.turn
        frm, to = move.from_square, move.to_square
        target = _BB[to]
        if b.occupied_co[not us] & target:
            return False  # a capture
        piece = b.piece_type_at(frm)
        if piece == _KING or (piece == _PAWN and (frm ^ to) & 7):
            return False  # a king move, or en passant
        assert piece is not None
        source = _BB[frm]
        ours = b.occupied_co[us] & ~source
        diagonal = (b.bishops | b.queens) & ours
        straight = (b.rooks | b.queens) & ours
        if piece == chess.BISHOP or piece == _QUEEN:
            diagonal |= target
        if piece == chess.ROOK or piece == _QUEEN:
            straight |= target
        return _hangs(b, us, frm, to, piece, (b.occupied & ~source) | target, diagonal,
                      straight)

    def noisy_gain(self, move: chess.Move) -> int:
        """The most ``move`` (a capture or promotion) can add to the evaluation: the captured
        piece's value (a pawn for en passant) and a queen promotion's gain (``_GAIN``), for
        the searcher's delta pruning in quiescence.
        """
        b = self.board
        victim = b.piece_type_at(move.to_square)
        gain = _GAIN[victim] if victim is not None else (
            _GAIN[_PAWN] if move.to_square == b.ep_square else 0)
        return gain + _PROMOTION_GAIN if move.promotion is not None else gain

    def move_hints(self, moves: Sequence[chess.Move]) -> Sequence[int]:
        """MVV-LVA for captures, queen promotions high; captures that lose material by static
        exchange evaluation rank below quiet moves.
        """
        noisy = self._noisy_hints
        if noisy is not None and noisy[0] is moves:
            return noisy[1]
        listed = self._listed
        if listed is not None and listed[0] is moves:
            return listed[1]
        b = self.board
        them = not b.turn
        occ_them = b.occupied_co[them]
        ep = b.ep_square
        hints: list[int] = []
        for move in moves:
            to = move.to_square
            if occ_them & _BB[to]:
                frm = move.from_square
                victim = b.piece_type_at(to) or 0
                attacker = b.piece_type_at(frm) or 0
                if _loses_material(b, frm, to, victim, attacker):
                    hint = -1
                else:
                    hint = 100 + 10 * _ORDER_VALUE[victim] - _ORDER_VALUE[attacker]
                if move.promotion == _QUEEN:
                    hint += 90
            elif move.promotion is not None:
                hint = 190 if move.promotion == _QUEEN else -2
            elif to == ep and b.pawns & _BB[move.from_square]:
                hint = _EN_PASSANT_HINT
            else:
                hint = 0
            hints.append(hint)
        return hints

    def repetition_value(self, ply: int) -> int | None:
        """0 (draw) if this position occurred since the last irreversible move, or 50 moves
        passed without a capture or pawn move; None otherwise.
        """
        keys = self._keys
        n = len(keys) - 1
        k = keys[n]
        stop = self._resets[n]
        i = n - 4
        while i >= stop:
            if keys[i] == k:
                return 0
            i -= 2
        if self.board.halfmove_clock >= 100:
            return 0
        return None

    def _repetitions(self) -> int:
        keys = self._keys
        n = len(keys) - 1
        return sum(1 for i in range(n, self._resets[n] - 1, -2) if keys[i] == keys[n])

    def is_tactical(self, move: chess.Move) -> bool:
        """Captures (en passant too) and promotions; with ``LOSING_CAPTURES_QUIET``, not a
        capture that loses material by static exchange evaluation (the test ``move_hints``
        ranks such captures below the quiet moves by): the search then reduces and prunes it
        like a quiet move instead of searching it at full depth at every node.
        """
        if move.promotion is not None:
            return True
        b = self.board
        to = move.to_square
        if b.occupied_co[not b.turn] & _BB[to]:
            if not self.LOSING_CAPTURES_QUIET:
                return True
            frm = move.from_square
            return not _loses_material(b, frm, to, b.piece_type_at(to) or 0,
                                       b.piece_type_at(frm) or 0)
        if to == b.ep_square and b.pawns & _BB[move.from_square]:
            return True
        return self.THREATS_TACTICAL and self._threatens(move)

    def _threatens(self, move: chess.Move) -> bool:
        """Whether the quiet ``move`` (legal here, no capture, no promotion) leaves the moved
        piece attacking an enemy piece worth more: a pawn a knight, bishop, rook or queen; a
        knight or bishop a rook or queen; a rook a queen (kings and queens threaten nothing
        here; a check is the search's own case).  Worked out before the move is played.
        """
        b = self.board
        frm, to = move.from_square, move.to_square
        source = _BB[frm]
        them = b.occupied_co[not b.turn]
        if b.pawns & source:
            return bool(_PAWN_ATTACKS[b.turn][to] & them & ~(b.pawns | b.kings))
        if b.knights & source:
            return bool(_KNIGHT_ATTACKS[to] & them & (b.rooks | b.queens))
        if b.bishops & source:
            targets = b.rooks | b.queens
        elif b.rooks & source:
            targets = b.queens
        else:
            return False
        # A bishop's or rook's attacks from ``to`` (``source`` tells which) with ``frm`` empty.
        return bool(_sliding(to, source, b.bishops, b.rooks, b.occupied & ~source)
                    & them & targets)

    def play_null(self) -> None:
        """Pass (python-chess's null move); starts a new reversible run for repetitions."""
        b = self.board
        self._saved.append((self._kb, self._mg, self._eg, self._phase, self._tables))
        b.push(chess.Move.null())
        self._kb ^= _Z_SIDE
        self._moves = None
        self._noisy_hints = None
        self._listed = None
        self._check = False  # the side that passed was not in check, so neither is this one
        n = len(self._keys)
        self._keys.append(self._kb)
        self._resets.append(n)

    def undo_null(self) -> None:
        self.undo()

    def null_move_ok(self) -> bool:
        """Passing is a sound probe only with a piece besides king and pawns (zugzwang)."""
        b = self.board
        return bool(b.occupied_co[b.turn] & ~(b.pawns | b.kings))

    def king_in_danger(self) -> bool:
        """Whether either king's attack danger (``chess_terms.king_danger_peak``) reaches
        ``KING_DANGER_GUARD``: the searcher then neither passes nor prunes late quiet moves
        here (``SearchConfig.guard_king_danger``), since the quiet moves of an attack or its
        defence are the ones those prune.
        """
        return king_danger_peak(self.board) >= self.KING_DANGER_GUARD

    def __str__(self) -> str:
        return diagram(self.board)


def diagram(board: chess.Board) -> str:
    """The board as text: rank 8 at the top, White's pieces in capitals, then whose turn."""
    files = "  a b c d e f g h"
    lines = [files]
    for rank in range(7, -1, -1):
        cells = []
        for file in range(8):
            piece = board.piece_at(chess.square(file, rank))
            cells.append(piece.symbol() if piece is not None else ".")
        lines.append(f"{rank + 1} {' '.join(cells)} {rank + 1}")
    lines.append(files)
    side = "white" if board.turn == chess.WHITE else "black"
    check = ", in check" if board.is_check() else ""
    lines.append(f"{side} to move{check}  (FEN {board.fen()})")
    return "\n".join(lines)


def parse_board(text: str) -> chess.Board:
    """``startpos`` (or ``start``, as the other games write it) or a FEN, optionally followed
    by ``moves`` and UCI moves.
    """
    words = text.split()
    if not words:
        raise PositionError("empty chess position (expected a FEN or 'start')")
    if "moves" in words:
        cut = words.index("moves")
        head, moves = words[:cut], words[cut + 1:]
    else:
        head, moves = words, []
    if head == ["startpos"] or head == ["start"]:
        board = chess.Board()
    else:
        if head and head[0] == "fen":
            head = head[1:]
        fen = " ".join(head)
        try:
            board = chess.Board(fen)
        except ValueError as exc:
            raise PositionError(f"bad FEN {fen!r}: {exc}") from None
        status = board.status()
        if status != chess.STATUS_VALID:
            problems = [flag.name.lower() for flag in chess.Status
                        if flag and flag in status and flag.name]
            raise PositionError(f"impossible position {fen!r}: {', '.join(problems)}")
    for text_move in moves:
        try:
            move = chess.Move.from_uci(text_move)
        except ValueError:
            raise MoveError(f"malformed move {text_move!r} in the move list") from None
        if not board.is_legal(move):
            raise MoveError(f"illegal move {text_move!r} in {board.fen()}")
        board.push(move)
    return board


def from_position(name: str, text: str) -> ChessGame:
    """The registry's factory: POSITION is a FEN or ``startpos`` (DESIGN.md §8)."""
    return ChessGame(parse_board(text))
