"""Shogi evaluation tables: the seeds' 駒割 and a fuller evaluation, both incremental.

Two evaluations share one shape, so ``ShogiGame`` updates either move by move:

* ``KOMAWARI`` — the seeds' material count (seed 003's slides: 歩1 香5 桂6 銀8 金9 角13 飛15,
  ×100; と/成香/成桂/成銀 as a gold, 馬 1600, 龍 1800; a piece in hand at its unpromoted value),
  nothing else.  The baseline.
* ``FULL`` — material on a finer scale (a pawn 90, gold 540, rook 990, dragon 1395: the
  proportions of YaneuraOu's material values), piece placement (a piece-square table per piece
  type, seen from its owner), each piece's distance to both kings (golds, silvers and promoted
  minors near their own king defend it; every piece near the enemy king attacks it, promoted
  rooks and bishops most), pieces in hand worth more for the first of a kind than for the
  fifth pawn, and at evaluation time a king-safety term (the enemy's pieces in hand weigh on a
  king in proportion to the open squares around it: drops land there) and the sliders'
  mobility (the squares rooks, bishops, dragons and horses reach).  ``NO_MOBILITY``
  (``"nomobility"``) is the same without the mobility term.
* ``FITTED`` — the same shape with every number fitted to a stronger engine's scores of
  positions from our own games (``shogi_fitted``; bench/shogi_eval_fit.py says how), with a
  bonus for the side to move.

A position's score (black's view) is ``Σ_black cell − Σ_white cell + hand terms``, where a
piece's cell depends on its type, its square and its offset from each king (``OFFSET``: the
file and rank steps seen from the owner; ``FULL``'s tables depend only on the king-step
distance, ``FITTED``'s on the offset itself); so a move that is
not a king move changes only the moved and the captured piece's cells, and a king move is
rescored from scratch (``ShogiGame.play``).  Squares are cshogi's ``file * 9 + rank`` (rank 0
is white's back rank); a white piece's square is seen from its owner as ``80 − square``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from sakiyomi.games import shogi_facade as cs
from sakiyomi.games import shogi_fitted as fitted
from sakiyomi.games.shogi_attacks import RAYS, attacked

if TYPE_CHECKING:  # the compiled threat maps load with ShogiGame's kernels, not with this
    from sakiyomi.games.shogi_threats import ThreatMaps

# The threat terms' features (``shogi_threats`` computes them), all from the side to move's
# view: its largest and second-largest loss, the enemy's largest loss, both sides' threatened
# pieces; the squares next to the enemy king it attacks less those next to its own king the
# enemy attacks, the same each weighted by the attacker's drop weight (what can be dropped
# there); the checks it can give (at most ``MAX_CHECKS``) and whether it has one.  Defined
# here, not in the kernel module, so that the evaluations' tables need no compiled code.
FEATURES = ("own largest loss", "own second loss", "enemy's largest loss",
            "own threatened pieces", "enemy's threatened pieces", "zone hits",
            "zone hits by hand", "checks", "any check")
MAX_CHECKS = 8

# Hand kinds in cshogi's pieces_in_hand order (P L N S G B R) and their piece types.
HAND_TYPES = (cs.PAWN, cs.LANCE, cs.KNIGHT, cs.SILVER, cs.GOLD, cs.BISHOP, cs.ROOK)
HAND_INDEX = {piece_type: i for i, piece_type in enumerate(HAND_TYPES)}
UNPROMOTED = (0, 1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6)
_MINORS = (cs.GOLD, cs.PROM_PAWN, cs.PROM_LANCE, cs.PROM_KNIGHT, cs.PROM_SILVER)


NO_KING = 17 * 17  # the offset index of every square when the king is missing


def offset_index(king: int, square: int, white: bool) -> int:
    """Where ``square`` lies from ``king``, seen from the owner (white: the board turned):
    ``(rank step + 8) * 17 + (file step + 8)``; ``NO_KING`` when ``king`` is 81 (none).
    """
    if king >= 81:
        return NO_KING
    files, ranks = square // 9 - king // 9, square % 9 - king % 9
    if white:
        files, ranks = -files, -ranks
    return (ranks + 8) * 17 + files + 8


def offset_steps(index: int) -> tuple[int, int]:
    """The (rank, file) steps an offset index (not ``NO_KING``) stands for."""
    return index // 17 - 8, index % 17 - 8


def offset_chebyshev(index: int) -> int:
    """The king-step distance an offset index stands for (9 for ``NO_KING``)."""
    if index == NO_KING:
        return 9
    ranks, files = offset_steps(index)
    return max(abs(ranks), abs(files))


# ``OFFSET[white][king * 82 + square]``: ``offset_index`` for every king (82: none) and square.
OFFSET = tuple(tuple(offset_index(king, square, white) if square < 81 else NO_KING
                     for king in range(82) for square in range(82))
               for white in (False, True))


@dataclass(frozen=True)
class Tables:
    """One evaluation: per piece type, a cell value by the owner-relative square (``base``),
    by its offset from its own king (``defend``) and from the enemy king (``attack``), both
    indexed by ``offset_index`` (``NO_KING + 1`` entries); the value
    of the first n pieces of a kind in hand (``hand[kind][n]``); the king-safety weight of a
    piece kind in the enemy's hand (``hand_threat``, 0: no king-safety term).
    """

    name: str
    base: tuple[tuple[int, ...], ...]
    defend: tuple[tuple[int, ...], ...]
    attack: tuple[tuple[int, ...], ...]
    hand: tuple[tuple[int, ...], ...]
    hand_threat: tuple[int, ...]
    material: tuple[int, ...]  # board value per type (move ordering, quiescence)
    # Centipawns per square a rook, bishop, dragon or horse can move to (at evaluation time,
    # ``slider_mobility``); 0: no mobility term.
    mobility: int = 0
    # Centipawns per square next to a king that the enemy attacks (``king_zone``, at
    # evaluation time, scaled by the enemy's hand); 0: no king-zone term.
    zone: int = 0
    # The king-danger term (``king_danger``) in percent of its hand-set size.
    safety_percent: int = 100
    # What the side to move loses when the opponent would mate in one if it passed.
    mate_threat: int = 300
    # What having the move is worth to the side to move (with the king-safety terms).
    tempo: int = 0
    # Weights of ``THREAT_TERMS`` in hundredths of a centipawn per unit (at evaluation time,
    # ``shogi_eval_kernel``); empty: no threat terms.
    threats: tuple[int, ...] = ()

    @property
    def king_relative(self) -> bool:
        """Whether cells depend on the kings' squares (a king move then rescores the board)."""
        return any(any(row) for row in self.defend + self.attack) \
            or len(set(self.base[cs.KING])) > 1

    @property
    def hand_linear(self) -> bool:
        """Whether every further piece of a kind in hand adds the same value."""
        return all(len({row[n + 1] - row[n] for n in range(18)}) == 1 for row in self.hand)

    @property
    def safety(self) -> bool:
        """Whether the king-safety term is computed at evaluation."""
        return any(self.hand_threat)

    def cell(self, piece_type: int, square: int, own_king: int, enemy_king: int,
             white: bool) -> int:
        """A piece's contribution for its owner (absolute squares; ``white``: owned by white)."""
        rel = 80 - square if white else square
        offsets = OFFSET[white]
        return (self.base[piece_type][rel]
                + self.defend[piece_type][offsets[own_king * 82 + square]]
                + self.attack[piece_type][offsets[enemy_king * 82 + square]])


def _hand_cumulative(first: tuple[int, ...], later: tuple[int, ...],
                     steps: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Value of n pieces in hand per kind: ``first`` for the first, then ``later`` for each
    of the next ``steps`` ones, the rest at 80 % of ``later``.
    """
    result = []
    for kind in range(7):
        total, row = 0, [0]
        for n in range(1, 19):
            if n == 1:
                total += first[kind]
            elif n <= 1 + steps[kind]:
                total += later[kind]
            else:
                total += later[kind] * 4 // 5
            row.append(total)
        result.append(tuple(row))
    return tuple(result)


def _komawari() -> Tables:
    value = (0, 100, 500, 600, 800, 1300, 1500, 900, 0, 900, 900, 900, 900, 1600, 1800)
    hand_value = (100, 500, 600, 800, 900, 1300, 1500)
    zeros = (0,) * (NO_KING + 1)
    return Tables(
        name="komawari",
        base=tuple(tuple(value[t] for _ in range(81)) for t in range(15)),
        defend=tuple(zeros for _ in range(15)),
        attack=tuple(zeros for _ in range(15)),
        hand=tuple(tuple(hand_value[k] * n for n in range(19)) for k in range(7)),
        hand_threat=(0,) * 7,
        material=value,
    )


# The sliders' mobility in the full evaluation: centipawns per square a rook, bishop, dragon
# or horse reaches (``slider_mobility``).  Session 20 (bench/results/shogi/summary.md): with
# it, at 10,000 nodes a move against fairy-stockfish at 2,000, 35-0-13 where the evaluation
# without it scored 27-0-21 (both with history pruning).
MOBILITY_WEIGHT = 6
# Board values of the full evaluation (YaneuraOu's material proportions).
FULL_VALUE = (0, 90, 315, 405, 495, 855, 990, 540, 0, 540, 540, 540, 540, 945, 1395)


def _by_offset(rows: Sequence[tuple[int, ...]]) -> tuple[tuple[int, ...], ...]:
    """Tables by king-step distance (10 entries, 9: no king) spread over the offsets."""
    return tuple(tuple(row[offset_chebyshev(index)] for index in range(NO_KING + 1))
                 for row in rows)


def _full() -> Tables:
    value = FULL_VALUE
    base: list[tuple[int, ...]] = []
    for piece_type in range(15):
        row = []
        for square in range(81):
            file, rank = divmod(square, 9)  # rank 0: the enemy's back rank, 8: one's own
            edge = min(file, 8 - file)  # 0 on the edge files
            bonus = 0
            if piece_type == cs.PAWN:
                bonus = (0, 0, 0, 25, 15, 8, 0, 0, 0)[rank]
            elif piece_type == cs.KING:
                bonus = (30 if rank == 8 else 15 if rank == 7 else -40 * (7 - rank)) \
                    + 6 * (4 - edge)  # away from the centre files: a castle
            elif piece_type in (cs.SILVER, cs.GOLD):
                bonus = -15 if edge == 0 else 0
            elif piece_type == cs.KNIGHT:
                bonus = -20 if rank <= 1 else 0  # stuck near the far edge
            elif piece_type in (cs.HORSE, cs.DRAGON) and rank >= 6:
                bonus = 10  # a promoted major back home defends
            row.append(value[piece_type] + bonus)
        base.append(tuple(row))
    defend = [(0,) * 10 for _ in range(15)]
    attack = [(0,) * 10 for _ in range(15)]
    for piece_type in _MINORS:
        defend[piece_type] = (0, 45, 25, 8, 0, 0, 0, 0, 0, 0)
        attack[piece_type] = (0, 55, 35, 12, 0, 0, 0, 0, 0, 0)
    defend[cs.SILVER] = (0, 35, 20, 5, 0, 0, 0, 0, 0, 0)
    attack[cs.SILVER] = (0, 50, 30, 10, 0, 0, 0, 0, 0, 0)
    defend[cs.PAWN] = (0, 10, 8, 0, 0, 0, 0, 0, 0, 0)
    attack[cs.PAWN] = (0, 15, 10, 0, 0, 0, 0, 0, 0, 0)
    attack[cs.KNIGHT] = (0, 10, 25, 10, 0, 0, 0, 0, 0, 0)
    attack[cs.LANCE] = (0, 10, 10, 5, 0, 0, 0, 0, 0, 0)
    defend[cs.HORSE] = (0, 40, 30, 15, 0, 0, 0, 0, 0, 0)
    attack[cs.HORSE] = (0, 60, 45, 25, 10, 0, 0, 0, 0, 0)
    attack[cs.DRAGON] = (0, 80, 60, 40, 20, 5, 0, 0, 0, 0)
    attack[cs.BISHOP] = (0, 15, 15, 10, 0, 0, 0, 0, 0, 0)
    attack[cs.ROOK] = (0, 25, 20, 10, 0, 0, 0, 0, 0, 0)
    hand = _hand_cumulative(first=(110, 350, 440, 560, 620, 950, 1100),
                            later=(95, 330, 420, 530, 580, 880, 1000),
                            steps=(3, 3, 3, 3, 3, 1, 1))
    return Tables(name="full", base=tuple(base), defend=_by_offset(defend),
                  attack=_by_offset(attack),
                  hand=hand, hand_threat=(1, 2, 2, 3, 4, 4, 6), material=value,
                  mobility=MOBILITY_WEIGHT)


KOMAWARI = _komawari()
FULL = _full()
# The full evaluation as it was before the mobility term (session 19), for comparisons.
NO_MOBILITY = replace(FULL, name="nomobility", mobility=0)
# The full evaluation with the king-zone term (session 21, not the default: at 10,000 nodes a
# move against fairy-stockfish at 2,000 it scored 31-0-17 where ``full`` scored 35-0-13, and
# it costs about 15 µs an evaluation; bench/results/shogi/summary.md).  Its weight, 50 a
# square, is 0.4 of what a least-squares fit to fairy-stockfish's scores of 400 positions of
# our games suggested.
KING_ZONE = replace(FULL, name="kingzone", zone=50)
# The full evaluation's shape with every number fitted to a stronger engine's scores of
# positions from our own games (session 22; ``shogi_fitted``, bench/shogi_eval_fit.py): the
# default (``DEFAULT``).
FITTED = replace(FULL, name="fitted", base=fitted.BASE, defend=fitted.DEFEND,
                 attack=fitted.ATTACK, hand=fitted.HAND, mobility=fitted.MOBILITY,
                 safety_percent=fitted.SAFETY_PERCENT, mate_threat=fitted.MATE_THREAT,
                 tempo=fitted.TEMPO, threats=fitted.THREATS)
EVALUATIONS = {"full": FULL, "komawari": KOMAWARI, "nomobility": NO_MOBILITY,
               "kingzone": KING_ZONE, "fitted": FITTED}
# The evaluation a game and the engine use unless told otherwise (session 22: at 10,000 nodes
# a move against fairy-stockfish at 2,000, ``fitted`` won 70 of 96 games where ``full`` won
# 64; bench/results/shogi/summary.md).
DEFAULT = "fitted"

SAFETY_SCALE = 5  # centipawns per (hand threat × open square around the king)
SAFETY_CAP = 600


def _neighbours() -> tuple[tuple[int, ...], ...]:
    """The up to 8 squares next to each square (square 81, a missing king: none)."""
    result: list[tuple[int, ...]] = []
    for square in range(81):
        file, rank = divmod(square, 9)
        result.append(tuple(
            (file + df) * 9 + rank + dr
            for df in (-1, 0, 1) for dr in (-1, 0, 1)
            if (df or dr) and 0 <= file + df < 9 and 0 <= rank + dr < 9
        ))
    result.append(())
    return tuple(result)


NEIGHBOURS = _neighbours()


def board_score(tables: Tables, board: cs.CBoard) -> int:
    """The incremental part (cells and hands) from black's side, computed from scratch:
    ``Σ_black Tables.cell − Σ_white Tables.cell`` plus the hands, ``cell`` written out (as in
    ``move_delta``).  ``ShogiGame`` rescores after king moves with the compiled same
    (``shogi_rescore``), which the tests compare with this.
    """
    black_king, white_king = board.king_square(cs.BLACK), board.king_square(cs.WHITE)
    base, defend, attack = tables.base, tables.defend, tables.attack
    black_offsets, white_offsets = OFFSET
    black_at, white_at = black_king * 82, white_king * 82
    total = 0
    for square, piece in enumerate(board.pieces):
        if piece:
            piece_type = piece & 0xF
            if piece >> 4 == cs.BLACK:
                total += (base[piece_type][square]
                          + defend[piece_type][black_offsets[black_at + square]]
                          + attack[piece_type][black_offsets[white_at + square]])
            else:
                total -= (base[piece_type][80 - square]
                          + defend[piece_type][white_offsets[white_at + square]]
                          + attack[piece_type][white_offsets[black_at + square]])
    black_hand, white_hand = board.pieces_in_hand
    hand = tables.hand
    for kind in range(7):
        total += hand[kind][black_hand[kind]] - hand[kind][white_hand[kind]]
    return total


def move_delta(tables: Tables, board: cs.CBoard, move: int) -> int:
    """Change of the incremental score for the side to move when it plays ``move`` (not a
    king move: those change every cell and are rescored).  ``Tables.cell`` written out: this
    runs at every node.
    """
    color = board.turn
    white = color == cs.WHITE
    own = board.king_square(color) * 82
    enemy = board.king_square(color ^ 1) * 82
    base, defend, attack = tables.base, tables.defend, tables.attack
    offsets = OFFSET[white]
    to = move & 0x7F
    rel_to = 80 - to if white else to
    source = (move >> 7) & 0x7F
    if source >= 81:  # a drop: the piece goes from the hand to the board
        piece_type = source - 80
        kind = HAND_INDEX[piece_type]
        count = board.pieces_in_hand[color][kind]
        row = tables.hand[kind]
        return (base[piece_type][rel_to] + defend[piece_type][offsets[own + to]]
                + attack[piece_type][offsets[enemy + to]] - row[count] + row[count - 1])
    piece_type = (move >> 16) & 0xF
    delta = -(base[piece_type][80 - source if white else source]
              + defend[piece_type][offsets[own + source]]
              + attack[piece_type][offsets[enemy + source]])
    if move & (1 << 14):
        piece_type += cs.PROMOTED_OFFSET
    delta += (base[piece_type][rel_to] + defend[piece_type][offsets[own + to]]
              + attack[piece_type][offsets[enemy + to]])
    captured = (move >> 20) & 0xF
    if captured:  # the enemy's piece, seen from the enemy: its kings swap roles
        theirs = OFFSET[not white]
        delta += (base[captured][80 - rel_to] + defend[captured][theirs[enemy + to]]
                  + attack[captured][theirs[own + to]])
        kind = HAND_INDEX[UNPROMOTED[captured]]
        count = board.pieces_in_hand[color][kind]
        row = tables.hand[kind]
        delta += row[count + 1] - row[count]
    return delta


def material_delta(tables: Tables, board: cs.CBoard, move: int) -> int:
    """``move_delta`` for tables whose cells ignore the kings and whose hand values grow by a
    constant per piece (the seeds' 駒割): no king squares, no hand counts to read.
    """
    white = board.turn == cs.WHITE
    to = move & 0x7F
    rel_to = 80 - to if white else to
    source = (move >> 7) & 0x7F
    base = tables.base
    if source >= 81:
        piece_type = source - 80
        return base[piece_type][rel_to] - tables.hand[HAND_INDEX[piece_type]][1]
    piece_type = (move >> 16) & 0xF
    delta = -base[piece_type][80 - source if white else source]
    if move & (1 << 14):
        piece_type += cs.PROMOTED_OFFSET
    delta += base[piece_type][rel_to]
    captured = (move >> 20) & 0xF
    if captured:
        delta += base[captured][80 - rel_to] + tables.hand[HAND_INDEX[UNPROMOTED[captured]]][1]
    return delta


def king_danger(tables: Tables, board: cs.CBoard, color: int,
                enemy_hand: list[int] | None = None) -> int:
    """How much the enemy's pieces in hand threaten ``color``'s king: their drop weights (a
    kind counts twice from its second piece on) times the squares next to the king that are
    empty or enemy-held, capped.  ``enemy_hand``: the enemy's hand counts, when known.
    """
    if enemy_hand is None:
        enemy_hand = board.pieces_in_hand[color ^ 1]
    weight = 0
    for threat, count in zip(tables.hand_threat, enemy_hand, strict=False):
        if count:
            weight += threat + threat if count > 1 else threat
    if not weight:
        return 0
    open_squares = 0
    piece_at = board.piece
    for square in NEIGHBOURS[board.king_square(color)]:
        piece = piece_at(square)
        if not piece or piece >> 4 != color:
            open_squares += 1
    return min(weight * open_squares * SAFETY_SCALE, SAFETY_CAP) * tables.safety_percent // 100


def _rays_of(slider: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Per square, the squares along each ray outwards that a ``slider`` (a rook or a bishop)
    moves along: ``shogi_attacks.RAYS``, the tables its attack test reads.
    """
    return tuple(tuple(squares for squares, mask in rays if mask & (1 << slider))
                 for rays in RAYS[cs.BLACK])


_ORTHOGONAL_RAYS = _rays_of(cs.ROOK)
_DIAGONAL_RAYS = _rays_of(cs.BISHOP)
# The slider rays by piece type (a dragon's and a horse's extra steps are not counted).
SLIDER_RAYS = {cs.BISHOP: _DIAGONAL_RAYS, cs.HORSE: _DIAGONAL_RAYS,
               cs.ROOK: _ORTHOGONAL_RAYS, cs.DRAGON: _ORTHOGONAL_RAYS}


# Each slider's code on the board list (type | colour << 4), with its rays and colour.
_SLIDER_CODES = tuple((piece_type | color << 4, SLIDER_RAYS[piece_type], color)
                      for color in (cs.BLACK, cs.WHITE)
                      for piece_type in (cs.BISHOP, cs.HORSE, cs.ROOK, cs.DRAGON))


def slider_mobility(pieces: list[int]) -> int:
    """Black's less white's count of the squares their rooks, bishops, dragons and horses
    reach along their rays (empty, or an enemy piece to take) on the board list ``pieces``.

    The sliders (at most four a kind) are found by ``bytes.find`` on the list as bytes (every
    code is below 32), not by a walk of its 81 squares: 3.1 µs a position where the walk
    took 4.8 (200 positions of our games, session 24).
    """
    total = 0
    find = bytes(pieces).find
    for code, rays, color in _SLIDER_CODES:
        square = find(code)
        while square >= 0:
            count = 0
            for ray in rays[square]:
                for target in ray:
                    other = pieces[target]
                    if other:
                        if other >> 4 != color:
                            count += 1
                        break
                    count += 1
            total += -count if color else count
            square = find(code, square + 1)
    return total


ZONE_CAP = 1200


def king_zone(tables: Tables, pieces: list[int], king: int, color: int,
              enemy_hand: list[int]) -> int:
    """How much the enemy's pieces on the board press on ``color``'s king (square ``king``;
    81: none): ``tables.zone`` for each square next to it that the enemy attacks, scaled up by
    the enemy's pieces in hand (``(4 + Σ hand_threat of the kinds held) / 4``: what can be
    dropped there), capped.  The king-danger term (``king_danger``) counts only open squares
    and the hand; this one sees the board's attackers, which the placement tables know only
    by their distance to the king.
    """
    enemy = color ^ 1
    hit = 0
    for square in NEIGHBOURS[king]:
        if attacked(pieces, square, enemy):
            hit += 1
    if not hit:
        return 0
    weight = 4 + drop_weight(tables.hand_threat, enemy_hand)
    return min(hit * tables.zone * weight // 4, ZONE_CAP)


def drop_weight(hand_threat: tuple[int, ...], hand: list[int]) -> int:
    """The sum of ``hand_threat`` over the kinds present in ``hand`` (what can be dropped next
    to a king, whatever the count): the king-zone and the threat terms' hand weight.
    """
    weight = 0
    for threat, count in zip(hand_threat, hand, strict=False):
        if count:
            weight += threat
    return weight


# The evaluation-time terms of ``threat_features`` (session 27), all from the side to move's
# view: ``FEATURES``.
THREAT_TERMS = FEATURES


def threat_features(maps: ThreatMaps, board: cs.CBoard, pieces: list[int],
                    hand_threat: tuple[int, ...]) -> list[int]:
    """``THREAT_TERMS`` of the position (``pieces``: its board list), the side to move's view:
    the kernel's inputs besides the board list are the kings' squares, the side to move, each
    side's ``drop_weight`` and the side to move's checking moves (at most ``MAX_CHECKS``).
    The evaluation computes the same in one call with its other terms
    (``shogi_eval_kernel``); this is the definition the fit and the tests use.
    """
    checks = 0
    for _ in board.check_moves:
        checks += 1
        if checks == MAX_CHECKS:
            break
    black_hand, white_hand = board.pieces_in_hand
    return maps.features(pieces, board.king_square(cs.BLACK), board.king_square(cs.WHITE),
                         board.turn, drop_weight(hand_threat, black_hand),
                         drop_weight(hand_threat, white_hand), checks)
