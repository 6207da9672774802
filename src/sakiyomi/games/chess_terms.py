"""Evaluation terms beside the piece-square tables: pawn structure, bishop pair, rook files,
king shelter, mobility.

PeSTO's tables (``chess_pst``) value a pawn by its square alone, so a pawn on the sixth rank
is worth the same whether an enemy pawn can still stop it or not, and two pawns on one file
the same as two on neighbouring files.  The terms here add what depends on the other pawns:

* a **passed pawn** (no enemy pawn ahead of it on its own or a neighbouring file, and no pawn
  of either side ahead on its file) gets a bonus by its rank, larger in the endgame, where it
  decides games;
* an **isolated pawn** (no pawn of its own side on a neighbouring file) and every **doubled
  pawn** beyond the first on a file are penalised;
* the **bishop pair** (two or more bishops) gets a bonus, larger in the endgame;
* ``piece_terms`` (a switch of its own): a **rook on an open file** (no pawns) or a half-open
  one (no pawns of its side), and the **pawn shelter** of a king on its first two ranks (its
  pawns one or two ranks in front of it, on its file and the neighbouring ones; middlegame
  only, where attacks on the king decide);
* ``mobility`` (a switch of its own): for each knight, bishop, rook and queen, the squares it
  attacks that hold no piece of its side and no enemy pawn attacks, counted from a typical
  number for the piece (so a piece of average mobility keeps its table value);
* ``king_attack`` (a switch of its own): while the enemy has a queen, the enemy pieces whose
  attack sets reach the king's zone, weighted by type, their count times their weights plus
  the ring squares they hit, squared (middlegame only); measured at equal time in session 21
  (-6 Elo, 240 games), off.  (It replaced session 20's cruder ``king_danger``: open files and
  enemy pieces near the king from bitboards alone, -29 Elo at equal time.)  The losses to
  Stockfish (session 19) were king attacks our search saw too late (an h-file opened onto the
  king, a queen swinging over), which the tables score as nothing; neither term fixed them.

The weights are ours, round numbers of the usual size, measured in self-play on our own random
openings (``bench/chess_selfplay.py``), not tuned on test suites.

The pawn terms depend on the pawns alone, which change on few moves of a search line (pawn
moves and captures of or by pawns), so they are kept in a table keyed by both sides' pawn
bitboards: nearly every evaluation finds its structure there, at the cost of one dictionary
look-up.  All values are from White's view, as middlegame and endgame parts (the caller
tapers them with the game phase), and colour-symmetric: the mirror position gets the negated
values.
"""

from __future__ import annotations

from collections.abc import Mapping

import chess

# Bonus for a passed pawn by its rank counted from its own side (index 1 = second rank).
PASSED_MG = (0, 0, 5, 10, 15, 25, 35, 0)
PASSED_EG = (0, 10, 15, 25, 40, 60, 80, 0)
ISOLATED_MG, ISOLATED_EG = 8, 12  # penalty per isolated pawn
DOUBLED_MG, DOUBLED_EG = 8, 16  # penalty per pawn beyond the first on a file
BISHOP_PAIR_MG, BISHOP_PAIR_EG = 25, 45
ROOK_OPEN_MG, ROOK_OPEN_EG = 25, 10  # a rook on a file without pawns
ROOK_SEMI_OPEN_MG, ROOK_SEMI_OPEN_EG = 12, 5  # ... without pawns of its own side
SHELTER_MG = 5  # per shelter point (2 a pawn next to the king, 1 a pawn one rank further)
SHELTER_CAP = 6  # points that count at most: three pawns right in front of the king
# Mobility: centipawns per square (middlegame, endgame) and the count that scores 0, by piece
# type (knight, bishop, rook, queen; index = python-chess piece type).
MOBILITY_MG = (0, 0, 4, 5, 2, 1, 0)
MOBILITY_EG = (0, 0, 4, 5, 4, 2, 0)
MOBILITY_BASE = (0, 0, 4, 6, 7, 13, 0)
CACHE_LIMIT = 1 << 16  # pawn structures kept before the table is emptied

_POPCOUNT = chess.popcount
_FILES = chess.BB_FILES
_BB = chess.BB_SQUARES


def _front_masks() -> tuple[tuple[list[int], list[int]], tuple[list[int], list[int]]]:
    """[colour] (squares ahead on the own file, squares ahead on the two neighbouring files)
    for each square, "ahead" as that colour's pawns move.
    """
    result = []
    for color in (chess.BLACK, chess.WHITE):
        file_ahead = [0] * 64
        sides_ahead = [0] * 64
        for sq in range(64):
            file, rank = chess.square_file(sq), chess.square_rank(sq)
            ranks = range(rank + 1, 8) if color else range(rank - 1, -1, -1)
            for r in ranks:
                file_ahead[sq] |= chess.BB_SQUARES[chess.square(file, r)]
                for f in (file - 1, file + 1):
                    if 0 <= f < 8:
                        sides_ahead[sq] |= chess.BB_SQUARES[chess.square(f, r)]
        result.append((file_ahead, sides_ahead))
    return result[0], result[1]


_FRONT = _front_masks()  # indexed by colour: False (Black) 0, True (White) 1
_NEIGHBOURS = [(_FILES[f - 1] if f > 0 else 0) | (_FILES[f + 1] if f < 7 else 0)
               for f in range(8)]
_cache: dict[int, tuple[int, int]] = {}


def _side_parts(own: int, other: int, color: bool) -> tuple[int, int, int, int]:
    """One side's passed-pawn bonus (middlegame, endgame), its isolated pawns and its pawns
    beyond the first on a file (counts).
    """
    file_ahead, sides_ahead = _FRONT[color]
    all_pawns = own | other
    passed_mg = passed_eg = isolated = doubled = 0
    for sq in chess.scan_forward(own):
        if not (all_pawns & file_ahead[sq] or other & sides_ahead[sq]):
            rank = sq >> 3 if color else 7 - (sq >> 3)
            passed_mg += PASSED_MG[rank]
            passed_eg += PASSED_EG[rank]
        if not own & _NEIGHBOURS[sq & 7]:
            isolated += 1
    for file_bb in _FILES:
        extra = _POPCOUNT(own & file_bb) - 1
        if extra > 0:
            doubled += extra
    return passed_mg, passed_eg, isolated, doubled


def _side(own: int, other: int, color: bool) -> tuple[int, int]:
    """Middlegame and endgame pawn terms of one side (positive = good for that side)."""
    passed_mg, passed_eg, isolated, doubled = _side_parts(own, other, color)
    return (passed_mg - ISOLATED_MG * isolated - DOUBLED_MG * doubled,
            passed_eg - ISOLATED_EG * isolated - DOUBLED_EG * doubled)


def pawn_parts(white_pawns: int, black_pawns: int) -> dict[str, tuple[int, int]]:
    """The pawn terms one by one (passed, isolated, doubled), each (middlegame, endgame)
    from White's view; they add up to ``pawn_terms``.  Uncached: for the evaluation fit
    (``chess_eval_parts``), not the search.
    """
    w = _side_parts(white_pawns, black_pawns, True)
    b = _side_parts(black_pawns, white_pawns, False)
    isolated, doubled = w[2] - b[2], w[3] - b[3]
    return {"passed": (w[0] - b[0], w[1] - b[1]),
            "isolated": (-ISOLATED_MG * isolated, -ISOLATED_EG * isolated),
            "doubled": (-DOUBLED_MG * doubled, -DOUBLED_EG * doubled)}


def pawn_terms(white_pawns: int, black_pawns: int) -> tuple[int, int]:
    """The pawn structure's (middlegame, endgame) value from White's view, cached."""
    key = white_pawns | black_pawns << 64
    terms = _cache.get(key)
    if terms is None:
        w_mg, w_eg = _side(white_pawns, black_pawns, True)
        b_mg, b_eg = _side(black_pawns, white_pawns, False)
        terms = (w_mg - b_mg, w_eg - b_eg)
        if len(_cache) >= CACHE_LIMIT:
            _cache.clear()
        _cache[key] = terms
    return terms


def _shelters() -> tuple[list[int], list[int]]:
    """[colour][king square]: the squares one and two ranks in front of the king, on its file
    and the neighbouring ones (its pawn shelter), as two masks packed as ``near | far << 64``.
    """
    result = []
    for color in (chess.BLACK, chess.WHITE):
        masks = [0] * 64
        for sq in range(64):
            file, rank = chess.square_file(sq), chess.square_rank(sq)
            step = 1 if color else -1
            for ahead, shift in ((1, 0), (2, 64)):
                r = rank + step * ahead
                if not 0 <= r < 8:
                    continue
                for f in (file - 1, file, file + 1):
                    if 0 <= f < 8:
                        masks[sq] |= chess.BB_SQUARES[chess.square(f, r)] << shift
        result.append(masks)
    return result[0], result[1]


_SHELTER = _shelters()
_BACK_RANKS = (chess.BB_RANK_8 | chess.BB_RANK_7, chess.BB_RANK_1 | chess.BB_RANK_2)
_LOW64 = (1 << 64) - 1


def _piece_side(pawns: int, rooks: int, kings: int, own: int, color: bool) -> tuple[int, int]:
    """Rook files and king shelter of one side (positive = good for that side); bit tricks
    instead of python-chess's square iterators, since this runs at every evaluation.
    """
    own_pawns = pawns & own
    mg = eg = 0
    rooks &= own
    while rooks:
        low = rooks & -rooks
        rooks ^= low
        file_bb = _FILES[(low.bit_length() - 1) & 7]
        if not pawns & file_bb:
            mg += ROOK_OPEN_MG
            eg += ROOK_OPEN_EG
        elif not own_pawns & file_bb:
            mg += ROOK_SEMI_OPEN_MG
            eg += ROOK_SEMI_OPEN_EG
    king = kings & own
    if king & _BACK_RANKS[color]:
        shelter = _SHELTER[color][king.bit_length() - 1]
        points = 2 * _POPCOUNT(own_pawns & shelter & _LOW64) + _POPCOUNT(own_pawns & shelter >> 64)
        mg += SHELTER_MG * (points if points < SHELTER_CAP else SHELTER_CAP)
    return mg, eg


def piece_terms(board: chess.Board) -> tuple[int, int]:
    """Rooks on open and half-open files, the pawn shelter in front of a king on its first
    two ranks: (middlegame, endgame) from White's view.
    """
    pawns, rooks, kings = board.pawns, board.rooks, board.kings
    w_mg, w_eg = _piece_side(pawns, rooks, kings, board.occupied_co[chess.WHITE], True)
    b_mg, b_eg = _piece_side(pawns, rooks, kings, board.occupied_co[chess.BLACK], False)
    return w_mg - b_mg, w_eg - b_eg


def rook_files(board: chess.Board) -> tuple[int, int]:
    """The rook-file part of ``piece_terms`` alone (the king shelter left out): for the
    evaluation fit (``chess_eval_parts``).
    """
    pawns, rooks = board.pawns, board.rooks
    w_mg, w_eg = _piece_side(pawns, rooks, 0, board.occupied_co[chess.WHITE], True)
    b_mg, b_eg = _piece_side(pawns, rooks, 0, board.occupied_co[chess.BLACK], False)
    return w_mg - b_mg, w_eg - b_eg


def structure_terms(board: chess.Board) -> tuple[int, int]:
    """Pawn structure and bishop pair, (middlegame, endgame) from White's view."""
    white = board.occupied_co[chess.WHITE]
    pawns = board.pawns
    mg, eg = pawn_terms(pawns & white, pawns & ~white)
    bishops = board.bishops
    wb = bishops & white
    bb = bishops & ~white
    if wb & (wb - 1):
        mg += BISHOP_PAIR_MG
        eg += BISHOP_PAIR_EG
    if bb & (bb - 1):
        mg -= BISHOP_PAIR_MG
        eg -= BISHOP_PAIR_EG
    return mg, eg


_KNIGHT_ATTACKS = chess.BB_KNIGHT_ATTACKS
_DIAG_MASKS, _DIAG_ATTACKS = chess.BB_DIAG_MASKS, chess.BB_DIAG_ATTACKS
_RANK_MASKS, _RANK_ATTACKS = chess.BB_RANK_MASKS, chess.BB_RANK_ATTACKS
_FILE_MASKS, _FILE_ATTACKS = chess.BB_FILE_MASKS, chess.BB_FILE_ATTACKS
_NOT_A, _NOT_H = ~chess.BB_FILE_A & chess.BB_ALL, ~chess.BB_FILE_H & chess.BB_ALL
_KNIGHT, _BISHOP, _ROOK, _QUEEN = chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN


def _mobility_side(board: chess.Board, own: int, enemy_pawn_attacks: int) -> tuple[int, int]:
    """Mobility of one side's knights, bishops, rooks and queens (positive = good for it)."""
    occupied = board.occupied
    free = ~(own | enemy_pawn_attacks) & chess.BB_ALL
    mg = eg = 0
    for piece_type, pieces in ((_KNIGHT, board.knights), (_BISHOP, board.bishops),
                               (_ROOK, board.rooks), (_QUEEN, board.queens)):
        pieces &= own
        if not pieces:
            continue
        per_mg, per_eg, base = (MOBILITY_MG[piece_type], MOBILITY_EG[piece_type],
                                MOBILITY_BASE[piece_type])
        while pieces:
            low = pieces & -pieces
            pieces ^= low
            sq = low.bit_length() - 1
            if piece_type == _KNIGHT:
                attacks = _KNIGHT_ATTACKS[sq]
            else:
                attacks = 0
                if piece_type != _ROOK:
                    attacks = _DIAG_ATTACKS[sq][_DIAG_MASKS[sq] & occupied]
                if piece_type != _BISHOP:
                    attacks |= (_RANK_ATTACKS[sq][_RANK_MASKS[sq] & occupied]
                                | _FILE_ATTACKS[sq][_FILE_MASKS[sq] & occupied])
            count = _POPCOUNT(attacks & free) - base
            mg += per_mg * count
            eg += per_eg * count
    return mg, eg


def mobility(board: chess.Board) -> tuple[int, int]:
    """Mobility of both sides, (middlegame, endgame) from White's view."""
    pawns = board.pawns
    white, black = board.occupied_co[chess.WHITE], board.occupied_co[chess.BLACK]
    wp, bp = pawns & white, pawns & black
    white_pawn_attacks = ((wp & _NOT_A) << 7 | (wp & _NOT_H) << 9) & chess.BB_ALL
    black_pawn_attacks = (bp & _NOT_A) >> 9 | (bp & _NOT_H) >> 7
    w_mg, w_eg = _mobility_side(board, white, black_pawn_attacks)
    b_mg, b_eg = _mobility_side(board, black, white_pawn_attacks)
    return w_mg - b_mg, w_eg - b_eg


# King attack (middlegame), charged only while the attacker has a queen.  The king's zone is
# its square, the squares around it and the three squares two ranks in front of it (towards
# the enemy).  Each enemy knight, bishop, rook and queen whose attack set reaches the zone is
# an attacker, weighted by its type; each square of the king's ring (the squares next to it)
# it attacks is a hit.  danger = attackers x (sum of their weights) + RING_HIT x hits, and
# the king's side loses danger^2 / KING_ATTACK_DIVISOR centipawns above KING_ATTACK_MIN,
# capped at KING_ATTACK_CAP: one attacker is nothing, a third and a fourth weigh far more than
# the first two (the usual shape of this term; the weights are round numbers of ours).
KING_ATTACK_WEIGHT = (0, 0, 80, 55, 45, 10, 0)  # by python-chess piece type
KING_RING_HIT = 70
KING_ATTACK_MIN = 100  # danger below this costs nothing
KING_ATTACK_DIVISOR = 4096
KING_ATTACK_CAP = 600  # centipawns at most


def _king_zones() -> tuple[list[int], list[int]]:
    """[colour][king square]: the king's zone (its square, its ring, and the three squares
    two ranks in front of it as that colour's pawns move).
    """
    result = []
    for color in (chess.BLACK, chess.WHITE):
        zones = [0] * 64
        for sq in range(64):
            zone = chess.BB_KING_ATTACKS[sq] | _BB[sq]
            file, rank = chess.square_file(sq), chess.square_rank(sq)
            ahead = rank + (2 if color else -2)
            if 0 <= ahead < 8:
                for f in (file - 1, file, file + 1):
                    if 0 <= f < 8:
                        zone |= _BB[chess.square(f, ahead)]
            zones[sq] = zone
        result.append(zones)
    return result[0], result[1]


_KING_ZONE = _king_zones()
_KING_RING = chess.BB_KING_ATTACKS


def _reaches() -> tuple[tuple[list[int], list[int], list[int]], ...]:
    """[colour][kind][king square], kind 0 knight, 1 diagonal, 2 rank and file: the squares
    from which such a piece could attack the king's zone on an empty board.  A piece outside
    them cannot attack it whatever the occupancy, so only the pieces inside are looked at.
    """
    result = []
    for zones in _KING_ZONE:
        knight, diagonal, straight = [0] * 64, [0] * 64, [0] * 64
        for king in range(64):
            for sq in chess.scan_forward(zones[king]):
                knight[king] |= _KNIGHT_ATTACKS[sq]  # knight attacks are symmetric
                diagonal[king] |= _DIAG_ATTACKS[sq][0]
                straight[king] |= _RANK_ATTACKS[sq][0] | _FILE_ATTACKS[sq][0]
        result.append((knight, diagonal, straight))
    return result[0], result[1]


_REACH = _reaches()


def _attack_danger(board: chess.Board, own: int, enemy: int, color: bool) -> int:
    """The enemy's attack on the king of ``own`` (colour ``color``), as the danger count
    described above (0 without an enemy queen).
    """
    queens = board.queens
    if not queens & enemy:
        return 0
    king = (board.kings & own).bit_length() - 1
    zone = _KING_ZONE[color][king]
    ring = _KING_RING[king]
    knight_reach, diagonal_reach, straight_reach = _REACH[color]
    occupied = board.occupied
    attackers = weight = hits = 0
    pieces = board.knights & enemy & knight_reach[king]
    while pieces:  # every knight here attacks the zone
        low = pieces & -pieces
        pieces ^= low
        attackers += 1
        weight += KING_ATTACK_WEIGHT[_KNIGHT]
        hits += _POPCOUNT(_KNIGHT_ATTACKS[low.bit_length() - 1] & ring)
    bishops, rooks = board.bishops, board.rooks
    diagonal = (bishops | queens) & enemy & diagonal_reach[king]
    straight = (rooks | queens) & enemy & straight_reach[king]
    pieces = diagonal | straight
    while pieces:
        low = pieces & -pieces
        pieces ^= low
        sq = low.bit_length() - 1
        attacks = 0
        if low & diagonal:
            attacks = _DIAG_ATTACKS[sq][_DIAG_MASKS[sq] & occupied] & zone
        if low & straight:
            attacks |= (_RANK_ATTACKS[sq][_RANK_MASKS[sq] & occupied]
                        | _FILE_ATTACKS[sq][_FILE_MASKS[sq] & occupied]) & zone
        if attacks:
            attackers += 1
            weight += KING_ATTACK_WEIGHT[
                _QUEEN if low & queens else _ROOK if low & rooks else _BISHOP]
            hits += _POPCOUNT(attacks & ring)
    return attackers * weight + KING_RING_HIT * hits


def _attack_cost(danger: int) -> int:
    """Centipawns a king loses to an attack of ``danger`` (quadratic, floored and capped)."""
    if danger < KING_ATTACK_MIN:
        return 0
    cost = danger * danger // KING_ATTACK_DIVISOR
    return cost if cost < KING_ATTACK_CAP else KING_ATTACK_CAP


def king_attack(board: chess.Board) -> tuple[int, int]:
    """Attacks on both kings, (middlegame, endgame) from White's view; the endgame part is 0
    (with the queens gone or little material left a king is safe enough to come out).
    """
    white, black = board.occupied_co[chess.WHITE], board.occupied_co[chess.BLACK]
    return (_attack_cost(_attack_danger(board, black, white, chess.BLACK))
            - _attack_cost(_attack_danger(board, white, black, chess.WHITE)), 0)


# The constants ``set_weights`` scales: name -> (its value as written, by python-chess piece
# type or rank where it is a tuple; the multiplier, a feature name of ``chess_eval_parts``,
# that scales it).
_SCALED: dict[str, tuple[int | tuple[int, ...], str]] = {
    "PASSED_MG": (PASSED_MG, "passed_mg"), "PASSED_EG": (PASSED_EG, "passed_eg"),
    "ISOLATED_MG": (ISOLATED_MG, "isolated_mg"), "ISOLATED_EG": (ISOLATED_EG, "isolated_eg"),
    "DOUBLED_MG": (DOUBLED_MG, "doubled_mg"), "DOUBLED_EG": (DOUBLED_EG, "doubled_eg"),
    "BISHOP_PAIR_MG": (BISHOP_PAIR_MG, "bishop_pair_mg"),
    "BISHOP_PAIR_EG": (BISHOP_PAIR_EG, "bishop_pair_eg"),
    "ROOK_OPEN_MG": (ROOK_OPEN_MG, "rook_files_mg"),
    "ROOK_OPEN_EG": (ROOK_OPEN_EG, "rook_files_eg"),
    "ROOK_SEMI_OPEN_MG": (ROOK_SEMI_OPEN_MG, "rook_files_mg"),
    "ROOK_SEMI_OPEN_EG": (ROOK_SEMI_OPEN_EG, "rook_files_eg"),
    "SHELTER_MG": (SHELTER_MG, "shelter_mg"),
    "MOBILITY_MG": (MOBILITY_MG, "mobility_mg"), "MOBILITY_EG": (MOBILITY_EG, "mobility_eg"),
    "KING_ATTACK_CAP": (KING_ATTACK_CAP, "king_attack_mg")}
_caches: dict[tuple[tuple[str, float], ...], dict[int, tuple[int, int]]] = {(): _cache}


def set_weights(multipliers: Mapping[str, float]) -> None:
    """Scale the terms' constants by ``multipliers`` (feature names of ``chess_eval_parts``:
    "passed_mg", "mobility_eg", ...; a name left out keeps its constant as written), rounded
    to whole centipawns.  The king attack's cost, danger^2 / divisor capped, is scaled through
    its divisor and cap.  Module state, like the class switches of ``ChessGame``: the
    evaluation of every game changes.  Each set of weights keeps its own pawn table, so that
    switching back and forth (self-play of two weightings) does not empty it.
    """
    global _cache, KING_ATTACK_DIVISOR  # the evaluation reads them
    values = globals()
    for name, (base, multiplier) in _SCALED.items():
        factor = multipliers.get(multiplier, 1.0)
        values[name] = (tuple(round(v * factor) for v in base) if isinstance(base, tuple)
                        else round(base * factor))
    factor = multipliers.get("king_attack_mg", 1.0)
    KING_ATTACK_DIVISOR = round(_BASE_DIVISOR / factor) if factor > 0 else 1 << 60
    key = tuple(sorted((k, v) for k, v in multipliers.items() if v != 1.0))
    _cache = _caches.setdefault(key, {})


_BASE_DIVISOR = KING_ATTACK_DIVISOR


def king_danger_peak(board: chess.Board) -> int:
    """The larger of the two kings' attack dangers (the count of ``king_attack``, before it
    is squared): how sharp the position is around either king, for the search's pruning
    guard (``ChessGame.king_in_danger``).
    """
    white, black = board.occupied_co[chess.WHITE], board.occupied_co[chess.BLACK]
    return max(_attack_danger(board, white, black, chess.WHITE),
               _attack_danger(board, black, white, chess.BLACK))
