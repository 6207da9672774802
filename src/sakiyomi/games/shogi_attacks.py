"""Is a square attacked?  A table-driven test over cshogi's board list, for quiescence.

cshogi does not expose its attack bitboards to Python; generating the opponent's legal moves
to see whether one lands on a square costs ~20 µs plus a Python loop over ~100 moves.  This
test looks only at the squares an attacker could stand on: the step pieces' sources next to
the square and the first piece along each of the 8 rays, a few µs.  It ignores pins (a pinned
defender still counts), which is what an exchange estimate wants anyway.

Squares are cshogi's ``file * 9 + rank`` (rank 0 is white's back rank, black moves towards
rank 0); a board cell holds ``piece type + 16 * colour``.
"""

from __future__ import annotations

from sakiyomi.games import shogi_facade as cs

_GOLDLIKE = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1))
DIAGONAL = ((-1, -1), (1, -1), (-1, 1), (1, 1))
ORTHOGONAL = ((0, -1), (-1, 0), (1, 0), (0, 1))  # the first: black's forward step
# Step moves of black's pieces as (file, rank) offsets; white's are the same turned around
# (also ``shogi_threats``' tables).
STEPS: dict[int, tuple[tuple[int, int], ...]] = {
    cs.PAWN: ((0, -1),),
    cs.KNIGHT: ((-1, -2), (1, -2)),
    cs.SILVER: ((-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)),
    cs.GOLD: _GOLDLIKE, cs.PROM_PAWN: _GOLDLIKE, cs.PROM_LANCE: _GOLDLIKE,
    cs.PROM_KNIGHT: _GOLDLIKE, cs.PROM_SILVER: _GOLDLIKE,
    cs.KING: DIAGONAL + ORTHOGONAL,
    cs.HORSE: ORTHOGONAL,
    cs.DRAGON: DIAGONAL,
}
_ORTHOGONAL_SLIDERS = (1 << cs.ROOK) | (1 << cs.DRAGON)
_DIAGONAL_SLIDERS = (1 << cs.BISHOP) | (1 << cs.HORSE)

Steps = tuple[tuple[int, int], ...]  # (source square, mask of piece types)
Rays = tuple[tuple[tuple[int, ...], int], ...]  # (squares outwards, mask of slider types)


def _on_board(file: int, rank: int) -> bool:
    return 0 <= file < 9 and 0 <= rank < 9


def _tables() -> tuple[tuple[tuple[Steps, ...], ...], tuple[tuple[Rays, ...], ...]]:
    steps: list[tuple[Steps, ...]] = []
    rays: list[tuple[Rays, ...]] = []
    for color in (cs.BLACK, cs.WHITE):
        sign = 1 if color == cs.BLACK else -1
        color_steps: list[Steps] = []
        color_rays: list[Rays] = []
        for target in range(81):
            file, rank = divmod(target, 9)
            masks: dict[int, int] = {}
            for piece_type, offsets in STEPS.items():
                for df, dr in offsets:  # the attacker stands at target - offset
                    f, r = file - sign * df, rank - sign * dr
                    if _on_board(f, r):
                        masks[f * 9 + r] = masks.get(f * 9 + r, 0) | (1 << piece_type)
            color_steps.append(tuple(sorted(masks.items())))
            target_rays = []
            for df, dr in DIAGONAL + ORTHOGONAL:
                mask = _DIAGONAL_SLIDERS if df and dr else _ORTHOGONAL_SLIDERS
                if df == 0 and dr == sign:  # an attacker behind: a lance moving forward
                    mask |= 1 << cs.LANCE
                squares = []
                f, r = file + df, rank + dr
                while _on_board(f, r):
                    squares.append(f * 9 + r)
                    f, r = f + df, r + dr
                if squares:
                    target_rays.append((tuple(squares), mask))
            color_rays.append(tuple(target_rays))
        steps.append(tuple(color_steps))
        rays.append(tuple(color_rays))
    return tuple(steps), tuple(rays)


STEP_SOURCES, RAYS = _tables()


def attacked(pieces: list[int], target: int, color: int) -> bool:
    """Whether a piece of ``color`` attacks ``target`` on the board list ``pieces``."""
    for square, mask in STEP_SOURCES[color][target]:
        piece = pieces[square]
        if piece and piece >> 4 == color and mask >> (piece & 0xF) & 1:
            return True
    for squares, mask in RAYS[color][target]:
        for square in squares:
            piece = pieces[square]
            if piece:
                if piece >> 4 == color and mask >> (piece & 0xF) & 1:
                    return True
                break
    return False


def cheapest_attacker(pieces: list[int], target: int, color: int, value: tuple[int, ...]) -> int:
    """The smallest ``value[piece type]`` among ``color``'s pieces attacking ``target`` on the
    board list ``pieces``, 0 when none does (``value`` must rate every piece type above 0;
    pins ignored, as in ``attacked``).  For the exchange test of ``ShogiGame.hangs_piece``.
    """
    best = 0
    for square, mask in STEP_SOURCES[color][target]:
        piece = pieces[square]
        if piece and piece >> 4 == color and mask >> (piece & 0xF) & 1:
            worth = value[piece & 0xF]
            if not best or worth < best:
                best = worth
    for squares, mask in RAYS[color][target]:
        for square in squares:
            piece = pieces[square]
            if piece:
                if piece >> 4 == color and mask >> (piece & 0xF) & 1:
                    worth = value[piece & 0xF]
                    if not best or worth < best:
                        best = worth
                break
    return best
