"""The chess evaluation taken apart into its terms, for fitting their weights.

``ChessGame.evaluate`` adds middlegame and endgame values of several terms (material, the
piece-square tables, the pawn terms, the bishop pair, and the optional rook files, king
shelter, mobility and king attack) and tapers the two sums by the game phase.  ``features``
returns each term's middlegame and endgame share *after* the taper, from the side to move, so
that a linear fit to some reference score (bench/chess_eval_fit.py: Stockfish's) yields one
multiplier per term and phase; a multiplier of 1 is the weight in use.  The features of the
terms the evaluation uses (``in_use``) add up to ``evaluate()`` before its rounding, outside
the endgame rules (``ENDGAME_PHASE``), which the fit leaves out.
"""

from __future__ import annotations

import chess

from sakiyomi.games.chess import ChessGame
from sakiyomi.games.chess_pst import EG_VALUE, MG_VALUE, PHASE_TOTAL
from sakiyomi.games.chess_terms import (
    king_attack,
    mobility,
    pawn_parts,
    piece_terms,
    rook_files,
    structure_terms,
)

TERMS = ("material", "tables", "passed", "isolated", "doubled", "bishop_pair", "rook_files",
         "shelter", "mobility", "king_attack")
# The feature names, in the order ``features`` returns them: each term's middlegame and
# endgame share, and a constant for the side to move (a tempo bonus the evaluation lacks).
NAMES = (*(f"{term}_{part}" for term in TERMS for part in ("mg", "eg")), "tempo")


def white_parts(game: ChessGame) -> dict[str, tuple[int, int]]:
    """Every term's (middlegame, endgame) value from White's view, untapered."""
    board = game.board
    white = board.occupied_co[chess.WHITE]
    material_mg = material_eg = 0
    for piece_type, pieces in enumerate((board.pawns, board.knights, board.bishops,
                                         board.rooks, board.queens)):
        balance = chess.popcount(pieces & white) - chess.popcount(pieces & ~white)
        material_mg += MG_VALUE[piece_type] * balance
        material_eg += EG_VALUE[piece_type] * balance
    table_mg, table_eg = game.table_values()
    parts = {"material": (material_mg, material_eg),
             "tables": (table_mg - material_mg, table_eg - material_eg)}
    white_pawns, black_pawns = board.pawns & white, board.pawns & ~white
    pawn_values = pawn_parts(white_pawns, black_pawns)
    parts.update(pawn_values)
    structure = structure_terms(board)
    parts["bishop_pair"] = (structure[0] - sum(mg for mg, _ in pawn_values.values()),
                            structure[1] - sum(eg for _, eg in pawn_values.values()))
    rooks = rook_files(board)
    piece_values = piece_terms(board)
    parts["rook_files"] = rooks
    parts["shelter"] = (piece_values[0] - rooks[0], piece_values[1] - rooks[1])
    parts["mobility"] = mobility(board)
    parts["king_attack"] = king_attack(board)
    return parts


def phase(game: ChessGame) -> int:
    """The game phase the evaluation tapers by (0 bare kings and pawns .. PHASE_TOTAL)."""
    return min(game.table_phase(), PHASE_TOTAL)


def features(game: ChessGame) -> list[float]:
    """The terms' tapered shares from the side to move, in the order of ``NAMES``."""
    p = phase(game)
    sign = 1 if game.board.turn else -1
    row: list[float] = []
    for mg, eg in white_parts(game).values():
        row.append(sign * mg * p / PHASE_TOTAL)
        row.append(sign * eg * (PHASE_TOTAL - p) / PHASE_TOTAL)
    row.append(1.0)  # the side to move's tempo
    return row


def in_use(game_type: type[ChessGame] = ChessGame) -> list[float]:
    """The weights (0 or 1, by ``NAMES``) under which the features add up to the evaluation
    of ``game_type``'s switches.
    """
    on = {"material", "tables",
          *(("passed", "isolated", "doubled", "bishop_pair") if game_type.STRUCTURE_TERMS
            else ()),
          *(("rook_files", "shelter") if game_type.PIECE_TERMS else ()),
          *(("mobility",) if game_type.MOBILITY else ()),
          *(("king_attack",) if game_type.KING_ATTACK else ())}
    return [1.0 if name.rsplit("_", 1)[0] in on else 0.0 for name in NAMES]
