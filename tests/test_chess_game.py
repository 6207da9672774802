"""The chess adapter: perft against published counts, keys, evaluation, draws, bad input."""

from __future__ import annotations

import os
import random

import chess
import pytest

from sakiyomi.game import (
    Checks,
    HangingBeforePlay,
    HangingMoves,
    MoveError,
    MoveHints,
    MoveIds,
    NoisyGains,
    NoisyMoves,
    NullMove,
    Player,
    PositionError,
    QuietChecks,
    RepetitionRules,
    TacticalMoves,
)
from sakiyomi.games import load
from sakiyomi.games.chess import (
    _MOVES,
    _PROMOTING,
    ChessGame,
    _loses_material,
    _pawn_capturers,
    _piece_on,
    _pinned,
    from_position,
)
from sakiyomi.games.chess_see import SEE_VALUE, exchange, see
from sakiyomi.search.perft import perft
from tests.chess_support import epd_lines

PERFT_LIMIT = 100_000  # leaf counts above this are left to bench/ (CI speed)


SLOW_PERFT_LIMIT = 5_000_000  # up to here only with SAKIYOMI_SLOW=1 (minutes)
SLOW = [pytest.mark.slow,
        pytest.mark.skipif(not os.environ.get("SAKIYOMI_SLOW"), reason="set SAKIYOMI_SLOW=1")]


def _perft_cases() -> list[object]:
    cases: list[object] = []
    for line in epd_lines("perft_cpw.epd"):
        fen, *fields = (part.strip() for part in line.split(";"))
        for field in fields:
            depth, count = field[1:].split()
            if int(count) <= PERFT_LIMIT:
                cases.append((fen, int(depth), int(count)))
            elif int(count) <= SLOW_PERFT_LIMIT:
                cases.append(pytest.param(fen, int(depth), int(count), marks=SLOW))
    return cases


@pytest.mark.parametrize(("fen", "depth", "count"), _perft_cases())
def test_perft_matches_published_counts(fen: str, depth: int, count: int) -> None:
    game = from_position("chess", fen)
    key = game.key()
    assert perft(game, depth) == count
    assert game.key() == key and game.board.fen() == chess.Board(fen).fen()


def _random_games(n: int, seed: int, plies: int = 160) -> list[ChessGame]:
    rng = random.Random(seed)
    games = []
    for _ in range(n):
        game = ChessGame()
        for _ in range(plies):
            moves = game.legal_moves()
            if not moves or game.outcome() is not None:
                break
            game.play(rng.choice(list(moves)))
        games.append(game)
    return games


def test_capabilities_are_declared() -> None:
    game = ChessGame()
    for capability in (Checks, HangingBeforePlay, HangingMoves, MoveHints, MoveIds, NoisyGains,
                       NoisyMoves, NullMove, QuietChecks, RepetitionRules, TacticalMoves):
        assert isinstance(game, capability)
    assert game.to_move == Player.FIRST


def test_incremental_key_classes_equal_python_chess_transposition_keys() -> None:
    ours: dict[object, int] = {}
    theirs: dict[int, object] = {}
    for game in _random_games(12, seed=1):
        replay = ChessGame()
        for move in game.board.move_stack:
            replay.play(move)
            tkey = replay.board._transposition_key()
            assert ours.setdefault(tkey, replay.key()) == replay.key()
            assert theirs.setdefault(replay.key(), tkey) == tkey
            # the key computed from scratch (a FEN) equals the incremental one
            assert ChessGame(chess.Board(replay.board.fen())).key() == replay.key()


def test_play_undo_restores_key_eval_and_board() -> None:
    for game in _random_games(6, seed=2):
        states = []
        replay = ChessGame()
        for move in game.board.move_stack:
            states.append((replay.key(), replay.evaluate(), replay.board.fen()))
            replay.play(move)
        for move in reversed(game.board.move_stack):
            replay.undo()
            key, value, fen = states.pop()
            assert (replay.key(), replay.evaluate(), replay.board.fen()) == (key, value, fen), move


def test_incremental_eval_equals_scratch_and_is_colour_symmetric() -> None:
    for game in _random_games(8, seed=3):
        if game.outcome() is not None:
            game.undo()
        fresh = ChessGame(chess.Board(game.board.fen()))
        assert fresh.evaluate() == game.evaluate()
        mirrored = ChessGame(game.board.mirror())
        assert mirrored.evaluate() == game.evaluate()


def test_outcome_agrees_with_python_chess_on_random_games() -> None:
    for game in _random_games(25, seed=4, plies=400):
        replay = ChessGame()
        for move in game.board.move_stack:
            replay.play(move)
            expected = replay.board.outcome(claim_draw=False)
            got = replay.outcome()
            assert (got is None) == (expected is None), replay.board.fen()
            if got is not None and expected is not None:
                winner = None if expected.winner is None else (
                    Player.FIRST if expected.winner else Player.SECOND)
                assert got.winner == winner


@pytest.mark.parametrize(("fen", "winner", "reason"), [
    ("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", Player.SECOND, "checkmate"),
    ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", None, "stalemate"),
    ("8/8/4k3/8/8/2B1K3/8/8 w - - 0 1", None, "insufficient material"),
])
def test_finished_positions(fen: str, winner: Player | None, reason: str) -> None:
    outcome = from_position("chess", fen).outcome()
    assert outcome is not None and outcome.winner == winner and outcome.reason == reason


def test_repetition_and_fifty_moves_agree_with_python_chess() -> None:
    rng = random.Random(5)
    for _ in range(20):
        game = ChessGame()
        for _ in range(120):
            moves = [m for m in game.legal_moves() if not game.is_tactical(m)] or \
                list(game.legal_moves())
            if not moves or game.outcome() is not None:
                break
            # mostly knight and king shuffles, so that positions repeat
            shuffles = [m for m in moves
                        if game.board.piece_type_at(m.from_square) in (chess.KNIGHT, chess.KING)]
            game.play(rng.choice(shuffles or moves))
            expected = game.board.is_repetition(2) or game.board.halfmove_clock >= 100
            assert (game.repetition_value(1) == 0) == expected, game.board.fen()


def test_knight_shuffle_is_a_repetition() -> None:
    game = from_position("chess", "startpos moves g1f3 g8f6 f3g1 f6g8")
    assert game.repetition_value(4) == 0
    assert game.outcome() is None


def test_noisy_moves_are_legal_tactical_moves() -> None:
    for line in epd_lines("wac_001-200.epd")[:40]:
        board, _ = chess.Board.from_epd(line)
        game = ChessGame(board)
        legal = set(game.legal_moves())
        for move in game.noisy_moves():
            assert move in legal and game.is_tactical(move)
        hints = game.move_hints(list(legal))
        assert len(hints) == len(legal)


def test_noisy_gain_is_the_victim_and_the_promotion() -> None:
    # Our own position: d5xe6 en passant, Qxa8 (a rook), b7xc8=Q (a rook and a promotion).
    game = ChessGame(chess.Board("r1r1k3/1P6/8/3Pp3/8/8/8/Q3K3 w - e6 0 1"))
    gain = {move.uci(): game.noisy_gain(move) for move in game.noisy_moves()}
    pawn, rook = max(82, 94), max(477, 512)  # the larger of the PeSTO mg/eg values
    queen_for_pawn = max(1025, 936) - min(82, 94)
    assert gain["d5e6"] == pawn
    assert gain["a1a8"] == rook
    assert gain["b7c8q"] == rook + queen_for_pawn
    assert gain["b7b8q"] == queen_for_pawn


# Stalemates where a piece off the king's lines has no move, or only a pinned piece could move.
STALEMATES = [
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    "k7/P7/K7/8/8/8/8/8 b - - 0 1",
    "5bnr/4p1pq/4Qpkr/7p/7P/4P3/PPPP1PP1/RNB1KBNR b KQ - 2 10",
    "k7/8/1QK5/8/8/8/8/8 b - - 0 1",
    "k7/n1K5/8/8/8/8/8/R7 b - - 0 1",  # the knight is pinned
    "7k/8/8/4p3/4P3/1q6/p7/K7 w - - 0 1",  # the pawn is blocked
    "b1k5/8/8/8/8/8/4n1P1/5n1K w - - 0 1",  # the pawn could push but is pinned
]


def _sampled_boards(count: int, seed: int) -> list[chess.Board]:
    """Positions along random games (pins, checks, en passant and promotions all occur)."""
    rng = random.Random(seed)
    boards: list[chess.Board] = []
    while len(boards) < count:
        board = chess.Board()
        for _ in range(rng.randint(1, 160)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
            boards.append(board.copy())
    return boards[:count]


def test_legal_moves_and_tests_equal_python_chess_move_for_move() -> None:
    # The adapter filters python-chess's pseudo-legal moves itself: same moves, same order.
    cases = [chess.Board(line.split(";")[0]) for line in epd_lines("perft_cpw.epd")]
    losing_seen = 0
    for board in cases + _sampled_boards(1500, seed=21):
        game = ChessGame(board)
        assert game.legal_moves() == list(board.generate_legal_moves()), board.fen()
        moves = game.legal_moves()
        for move, hint in zip(moves, game.move_hints(moves), strict=True):
            # a capture that loses material by exchange evaluation is quiet for the search,
            # ranked below the quiet moves (hint < 0) by the same test
            losing = board.is_capture(move) and hint < 0
            assert game.is_tactical(move) == (move.promotion is not None
                                              or (board.is_capture(move) and not losing)), \
                board.fen()
            if losing:
                assert see(board, move) < 0
                losing_seen += 1
            ChessGame.LOSING_CAPTURES_QUIET = False
            try:
                assert game.is_tactical(move) == (move.promotion is not None
                                                  or board.is_capture(move)), board.fen()
            finally:
                ChessGame.LOSING_CAPTURES_QUIET = True
        expected_outcome = board.outcome(claim_draw=False)
        got = ChessGame(board).outcome()  # a fresh game: no move list generated yet
        assert (got is None) == (expected_outcome is None), board.fen()
    assert losing_seen > 0


_VALUE = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9,
          chess.KING: 0}


def test_threat_moves_count_as_tactical_only_with_the_switch() -> None:
    # THREATS_TACTICAL: a quiet move is tactical when, played, the moved piece attacks an
    # enemy piece worth more (python-chess's attack set after the push; kings not counted).
    threats = quiet = 0
    for board in _sampled_boards(600, seed=30):
        game = ChessGame(board)
        for move in game.legal_moves():
            if board.is_capture(move) or move.promotion is not None:
                continue
            mover = board.piece_type_at(move.from_square)
            assert mover is not None
            board.push(move)
            hit = any(_VALUE[p.piece_type] > _VALUE[mover] and p.piece_type != chess.KING
                      for sq in board.attacks(move.to_square)
                      if (p := board.piece_at(sq)) is not None and p.color == board.turn)
            board.pop()
            if mover == chess.KING:
                hit = False
            quiet += 1
            threats += hit
            assert not game.is_tactical(move), board.fen()
            ChessGame.THREATS_TACTICAL = True
            try:
                assert game.is_tactical(move) == hit, (board.fen(), move)
            finally:
                ChessGame.THREATS_TACTICAL = False
    assert 0 < threats < quiet


# Our own positions with checks that only a look past the moved piece finds: discovered by a
# knight, by a pawn push, by an en passant capture (two pawns leave the rank), by a king step;
# a promotion that checks, a bishop checking through the square it left.
CHECK_CASES = [
    ("4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1", {"e4c3", "e4c5", "e4d2", "e4d6", "e4f2", "e4f6",
                                          "e4g3", "e4g5"}),
    ("8/8/8/2k5/8/4P3/5B2/K7 w - - 0 1", {"e3e4"}),
    ("8/8/8/K2pP2k/8/8/8/8 w - d6 0 1", set()),
    ("8/8/8/KR1pP2k/8/8/8/8 w - d6 0 1", {"e5d6"}),
    ("8/k7/8/8/3K4/8/8/6Q1 w - - 0 1", {"d4c3", "d4c4", "d4d3", "d4d5", "d4e4", "d4e5"}),
    ("2k5/P7/8/8/8/8/8/K7 w - - 0 1", {"a7a8q", "a7a8r"}),
]


@pytest.mark.parametrize(("fen", "checking"), CHECK_CASES)
def test_may_give_check_finds_direct_and_discovered_checks(fen: str, checking: set[str]
                                                          ) -> None:
    board = chess.Board(fen)
    game = ChessGame(board)
    for move in game.legal_moves():
        if board.gives_check(move):
            assert game.may_give_check(move), (fen, move)
    found = {m.uci() for m in game.legal_moves() if game.may_give_check(m)}
    assert checking <= found, fen
    assert found == {m.uci() for m in game.legal_moves() if board.gives_check(m)}


def test_may_give_check_never_misses_a_check_and_errs_only_on_castling() -> None:
    # QuietChecks: a False answer lets the search skip the move unplayed.
    for board in _sampled_boards(1500, seed=23):
        game = ChessGame(board)
        for move in game.legal_moves():
            ours, truth = game.may_give_check(move), board.gives_check(move)
            assert ours or not truth, (board.fen(), move)
            if ours and not truth:
                assert board.is_castling(move), (board.fen(), move)


# (position, move, whether it hangs the moved piece): each with White to move; the test plays
# it and its colour mirror.
HANGING_CASES = [
    # Defended, attacked by a cheaper piece (a pawn): hangs.
    ("4k3/8/3p4/8/3P4/5N2/8/4K3 w - - 0 1", "f3e5", True),
    # Defended by a pawn, attacked only by a rook: does not; undefended: does.
    ("4r1k1/8/8/8/3P4/5N2/8/6K1 w - - 0 1", "f3e5", False),
    ("4r1k1/8/8/8/8/5N2/8/6K1 w - - 0 1", "f3e5", True),
    ("4k3/8/8/2b5/8/8/5PN1/4K3 w - - 0 1", "g2e3", False),
    ("4k3/8/8/2b5/8/8/6N1/4K3 w - - 0 1", "g2e3", True),
    # A bishop defended and attacked by a knight: a trade (10), not a hanging piece.
    ("4k3/8/8/2n5/8/3B1P2/8/4K3 w - - 0 1", "d3e4", False),
    ("4k3/8/8/2n5/8/3B4/8/4K3 w - - 0 1", "d3e4", True),
    # A capture never hangs, even one that loses the knight; nor does a promotion.
    ("6k1/8/3p4/4p3/8/5N2/8/6K1 w - - 0 1", "f3e5", False),
    ("6k1/8/3p4/8/8/5N2/8/6K1 w - - 0 1", "f3e5", True),
    ("r5k1/1P6/8/8/8/8/8/6K1 w - - 0 1", "b7b8q", False),
    ("r5k1/1P6/8/8/8/8/8/6K1 w - - 0 1", "b7b8n", False),
    # The only taker is a pawn pinned to its king: off the pin line it cannot take, along it
    # it can.
    ("4k3/3p4/8/1B6/3N4/8/8/4K3 w - - 0 1", "d4e6", False),
    ("4k3/3p4/8/8/3N4/8/8/4K3 w - - 0 1", "d4e6", True),
    ("4k3/3p4/8/1B6/3N4/8/8/4K3 w - - 0 1", "d4c6", True),
    # A discovered check: the rook may not take (the check comes first), the king may.
    ("5k2/8/5B2/8/8/8/7r/K4R2 w - - 0 1", "f6h4", False),
    ("5k2/8/5B2/8/8/8/7r/K7 w - - 0 1", "f6h4", True),
    ("5k2/8/5B2/8/8/8/8/K4R2 w - - 0 1", "f6g7", True),
    # Defended by an x-ray behind the taker (Bf1 through Be2): BxN, BxB loses 10.
    ("4k3/8/8/8/8/8/3Nb3/4KB2 w - - 0 1", "d2c4", False),
    ("4k3/8/8/8/8/8/3Nb3/4K3 w - - 0 1", "d2c4", True),
    # Open to en passant only: not counted (the documented limit); to a bishop: hangs.
    ("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1", "e2e4", False),
    ("4k3/8/8/8/2bp4/8/4P3/4K3 w - - 0 1", "e2e3", True),
]


def _mirrored(move: chess.Move) -> chess.Move:
    return chess.Move(chess.square_mirror(move.from_square), chess.square_mirror(move.to_square),
                      move.promotion)


@pytest.mark.parametrize(("fen", "uci", "hangs"), HANGING_CASES)
def test_hanging_moves_by_hand(fen: str, uci: str, hangs: bool) -> None:
    board = chess.Board(fen)
    for position, move in ((board, chess.Move.from_uci(uci)),
                           (board.mirror(), _mirrored(chess.Move.from_uci(uci)))):
        assert move in position.legal_moves
        game = ChessGame(position)
        assert game.move_hangs_piece(move) == hangs, (position.fen(), move)
        game.play(move)
        assert game.hangs_piece() == hangs, (position.fen(), move)


def test_hanging_before_play_equals_play_ask_undo_and_a_taker_exists() -> None:
    # HangingBeforePlay must answer as play + hangs_piece + undo for every legal move; a
    # hanging move leaves the opponent a legal capture of the moved piece; captures,
    # promotions and king moves never hang.
    hanging = 0
    for board in _sampled_boards(600, seed=25):
        game = ChessGame(board)
        for move in list(game.legal_moves()):
            before = game.move_hangs_piece(move)
            never = (board.is_capture(move) or move.promotion is not None
                     or board.piece_type_at(move.from_square) == chess.KING)
            game.play(move)
            assert game.hangs_piece() == before, (board.fen(), move)
            if before:
                hanging += 1
                assert not never, (board.fen(), move)
                assert any(reply.to_square == move.to_square
                           for reply in game.board.legal_moves), (board.fen(), move)
            game.undo()
    assert hanging > 100  # the sample has hanging moves to check


def test_nothing_hangs_after_a_pass_or_at_the_start() -> None:
    game = ChessGame()
    assert not game.hangs_piece()
    game.play(chess.Move.from_uci("e2e4"))
    game.play_null()
    assert not game.hangs_piece()


def test_move_ids_are_equal_exactly_for_equal_moves() -> None:
    seen: dict[int, chess.Move] = {}
    cases = [chess.Board(line.split(";")[0]) for line in epd_lines("perft_cpw.epd")]
    for board in cases + _sampled_boards(300, seed=24):
        game = ChessGame(board)
        moves = list(game.legal_moves())
        ids = game.move_ids(moves)
        assert ids == [game.move_id(m) for m in moves]
        assert len(set(ids)) == len(moves), board.fen()
        for move, move_id in zip(moves, ids, strict=True):
            assert seen.setdefault(move_id, move) == move
    assert any(m.promotion for m in seen.values())  # promotions were among them


@pytest.mark.parametrize("fen", STALEMATES)
def test_stalemates_are_found_without_a_move_list(fen: str) -> None:
    assert chess.Board(fen).is_stalemate()
    outcome = ChessGame(chess.Board(fen)).outcome()
    assert outcome is not None and outcome.reason == "stalemate"


def test_quiescence_hints_kept_with_the_moves_equal_fresh_ones() -> None:
    for board in _sampled_boards(600, seed=22):
        game = ChessGame(board)
        noisy = game.noisy_moves()
        assert list(game.move_hints(noisy)) == list(game.move_hints(list(noisy))), board.fen()
        game.play(game.legal_moves()[0])
        game.undo()  # the position changed and came back: the kept hints are gone
        assert game.move_hints(noisy) == game.move_hints(list(noisy))


def test_noisy_moves_equal_python_chess_captures_filtered_move_for_move() -> None:
    # noisy_moves generates its captures itself out of check: the same moves in the same order
    # as python-chess's legal captures (no under-promotions, none that loses material by the
    # hints' test), then the queen promotions by a push; its kept hints are move_hints'.
    cases = [chess.Board(line.split(";")[0]) for line in epd_lines("perft_cpw.epd")]
    seen = {"check": 0, "pin": 0, "en passant": 0, "promotion": 0, "losing": 0}
    for board in cases + _sampled_boards(1500, seed=27):
        game = ChessGame(board)
        captures = [m for m in board.generate_legal_captures()
                    if m.promotion in (None, chess.QUEEN)]
        kept = [m for m, hint in zip(captures, game.move_hints(captures), strict=True)
                if hint >= 0]
        pushes = [m for m in board.generate_legal_moves(board.pawns, ~board.occupied)
                  if m.promotion == chess.QUEEN]
        noisy = game.noisy_moves()
        assert list(noisy) == kept + pushes, board.fen()
        assert list(game.move_hints(noisy)) == list(game.move_hints(list(noisy))), board.fen()
        pinned = [m for m in board.generate_pseudo_legal_captures()
                  if not board.is_legal(m) and m.from_square != board.king(board.turn)]
        seen["check"] += board.is_check()
        seen["pin"] += bool(pinned) and not board.is_check()
        seen["en passant"] += any(board.is_en_passant(m) for m in kept)
        seen["promotion"] += any(m.promotion for m in kept)
        seen["losing"] += len(kept) < len(captures)
    assert all(seen.values()), seen  # every case the generator handles occurred


def test_in_check_equals_python_chess_is_check() -> None:
    # in_check reads the attack tables itself: python-chess's answer on every position
    checks = 0
    for board in _sampled_boards(3000, seed=28):
        assert ChessGame(board).in_check() == board.is_check(), board.fen()
        checks += board.is_check()
    assert checks > 50


def _board_state(board: chess.Board) -> tuple[object, ...]:
    """Every field python-chess's push and pop change (the move stack by value)."""
    return (board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings,
            tuple(board.occupied_co), board.occupied, board.promoted, board.castling_rights,
            board.ep_square, board.halfmove_clock, board.fullmove_number, board.turn,
            [m.uci() for m in board.move_stack], len(board._stack))


def test_play_leaves_the_board_python_chess_push_leaves() -> None:
    # play updates the board itself: after every legal move the state push gives, and after
    # undo the state before.  Castling, en passant, promotions (captures too), promoted pieces
    # moving and taken, and a first move from a FEN whose castling rights need cleaning.
    cases = [chess.Board(line.split(";")[0]) for line in epd_lines("perft_cpw.epd")]
    cases.append(chess.Board("r3k2r/8/8/8/8/8/8/R3K3 w KQkq - 0 1"))  # no rook on h1
    seen = {"castling": 0, "en passant": 0, "promotion": 0, "promoted piece": 0}
    for board in cases + _sampled_boards(800, seed=29):
        game = ChessGame(board)
        before = _board_state(game.board)
        for move in list(game.legal_moves()):
            expected = board.copy()
            expected.push(move)
            game.play(move)
            assert _board_state(game.board) == _board_state(expected), (board.fen(), move)
            game.undo()
            assert _board_state(game.board) == before, (board.fen(), move)
            seen["castling"] += board.is_castling(move)
            seen["en passant"] += board.is_en_passant(move)
            seen["promotion"] += move.promotion is not None
            seen["promoted piece"] += bool(board.promoted & chess.BB_SQUARES[move.from_square])
    assert all(seen.values()), seen


def test_pawn_capturers_are_the_pawns_that_attack_a_piece() -> None:
    for board in _sampled_boards(1000, seed=30):
        for turn in chess.COLORS:
            pawns = board.pawns & board.occupied_co[turn]
            theirs = board.occupied_co[not turn]
            expected = sum(chess.BB_SQUARES[sq] for sq in chess.scan_forward(pawns)
                           if chess.BB_PAWN_ATTACKS[turn][sq] & theirs)
            assert _pawn_capturers(turn, pawns, theirs) == expected, board.fen()


def test_shared_moves_are_the_moves_they_stand_for() -> None:
    # the generators hand out shared Move objects: each equals the move built fresh, and
    # every pawn promotion of python-chess's generation has its four there, queen first
    assert all(_MOVES[frm][to] == chess.Move(frm, to) for frm in range(64) for to in range(64))
    promotions = 0
    for board in _sampled_boards(1000, seed=31):
        for move in board.generate_pseudo_legal_moves():
            if move.promotion is not None:
                frm, to = move.from_square, move.to_square
                assert _PROMOTING[frm << 6 | to] == tuple(
                    chess.Move(frm, to, piece) for piece in (5, 4, 3, 2))
                promotions += 1
    assert promotions > 0


def test_piece_on_and_losing_captures_equal_python_chess_and_see() -> None:
    # _piece_on reads the type from the bitboards; _loses_material is see's verdict behind
    # the cheap tests (a dearer piece takes on a defended square)
    order = (0, 1, 3, 3, 5, 9, 20)
    losing = 0
    for board in _sampled_boards(800, seed=32):
        for square, piece in board.piece_map().items():
            assert _piece_on(board, chess.BB_SQUARES[square]) == piece.piece_type
        for move in board.generate_legal_captures():
            if board.is_en_passant(move):
                continue
            frm, to = move.from_square, move.to_square
            victim, attacker = board.piece_type_at(to), board.piece_type_at(frm)
            assert victim is not None and attacker is not None
            expected = (order[attacker] > order[victim]
                        and board.is_attacked_by(not board.turn, to) and see(board, move) < 0)
            assert _loses_material(board, frm, to, victim, attacker) == expected, board.fen()
            losing += expected
    assert losing > 0


def test_null_move_round_trip() -> None:
    fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    game = from_position("chess", fen)
    key, fen = game.key(), game.board.fen()
    assert game.null_move_ok()
    game.play_null()
    assert game.to_move == Player.SECOND and game.key() != key
    game.undo_null()
    assert (game.key(), game.board.fen()) == (key, fen)
    assert not from_position("chess", "8/4k3/4p3/8/8/4P3/4K3/8 w - - 0 1").null_move_ok()


def test_position_syntax_and_registry() -> None:
    game = load("chess", "startpos moves e2e4 e7e5")
    assert isinstance(game, ChessGame)
    assert game.board.fen().startswith("rnbqkbnr/pppp1ppp/8/4p3/4P3")
    assert game.move_to_text(game.move_from_text("g1f3")) == "g1f3"
    # 'start', as every other game writes the initial position, is chess's too
    started = load("chess", "start moves e2e4 e7e5")
    assert isinstance(started, ChessGame) and started.board == game.board
    fen = "8/8/8/8/8/8/8/K6k w - - 0 1"
    other = load("chess", fen)
    assert isinstance(other, ChessGame) and other.board.fen() == fen


@pytest.mark.parametrize("text", [
    "", "garbage", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
    "8/8/8/8/8/8/8/8 w - - 0 1", "startpos moves e2e5", "startpos moves zz",
])
def test_bad_positions_raise_one_clear_error(text: str) -> None:
    with pytest.raises((PositionError, MoveError)):
        from_position("chess", text)


@pytest.mark.parametrize("text", ["e2e5", "e9e4", "", "Nf6", "e7e8q", "nf3", "--", "0000",
                                  "O-O", "e4!"])
def test_bad_moves_raise_move_error(text: str) -> None:
    with pytest.raises(MoveError):
        ChessGame().move_from_text(text)


def test_moves_may_be_written_in_san_as_players_write_them() -> None:
    game = load("chess", "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    assert isinstance(game, ChessGame)
    for san, uci in (("Bb5", "f1b5"), ("Nxe5", "f3e5"), ("d4", "d2d4"), ("Nc3", "b1c3"),
                     ("Ke2", "e1e2"), ("Ng1", "f3g1")):
        assert game.move_to_text(game.move_from_text(san)) == uci
    castle = load("chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert isinstance(castle, ChessGame)
    assert castle.move_to_text(castle.move_from_text("O-O-O")) == "e1c1"
    assert castle.move_to_text(castle.move_from_text("0-0")) == "e1g1"
    with pytest.raises(MoveError, match="illegal move 'Bc5'"):
        game.move_from_text("Bc5")  # a black bishop's move, white to move


def test_moves_are_named_in_san_beside_uci_where_people_read_them() -> None:
    from sakiyomi.match import shown_move

    game = load("chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert isinstance(game, ChessGame)
    castle = game.move_from_text("e1g1")
    assert game.move_name(castle) == "O-O" and shown_move(game, castle) == "e1g1 (O-O)"
    for move in game.legal_moves():  # every name reads back to its move
        assert game.move_from_text(game.move_name(move)) == move
    assert shown_move(load("connect4", "44"), 3) == "4"  # a game without names: its notation


def _sparse_boards(count: int, seed: int) -> list[chess.Board]:
    """Valid positions of two kings and up to five random pieces, White to move, not in check:
    many of them stalemates or with only pinned or blocked pieces."""
    rng = random.Random(seed)
    boards: list[chess.Board] = []
    while len(boards) < count:
        board = chess.Board(None)
        squares = rng.sample(range(64), 7)
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        for square in squares[2:2 + rng.randint(0, 5)]:
            board.set_piece_at(square, chess.Piece(rng.randint(1, 5), rng.random() < 0.4))
        if board.is_valid() and not board.is_check():
            boards.append(board)
    return boards


def test_has_move_equals_python_chess_any_legal_move() -> None:
    # _has_move decides most positions from bitboards (unpinnable pawn pushes, pieces off the
    # king's lines): python-chess's answer on sampled and sparse positions, stalemates among them
    stalemates = 0
    boards = _sampled_boards(1500, seed=33) + _sparse_boards(3000, seed=34)
    for board in boards + [chess.Board(fen) for fen in STALEMATES]:
        if board.is_check():
            continue
        expected = any(True for _ in board.legal_moves)
        assert ChessGame(board)._has_move() == expected, board.fen()
        stalemates += not expected
    assert stalemates > 10


def _reference_exchange(board: chess.Board, to: int, victim: int, capturer: int,
                        side: chess.Color, occupied: int) -> int:
    """The exchange value as ``exchange`` defines it, over python-chess's ``attackers_mask``
    and ``piece_type_at``: each side takes with its least valuable attacker (the lowest
    square among equals) on the emptied board; the speculative gains stop once neither side
    would go on (which keeps the sign of the textbook value, not always its size), then are
    folded back."""
    gains = [victim]
    on_square = capturer
    while True:
        attackers = board.attackers_mask(side, to, occupied) & occupied
        if not attackers:
            break
        square = min(chess.scan_forward(attackers),
                     key=lambda sq: (SEE_VALUE[board.piece_type_at(sq) or 0], sq))
        gains.append(on_square - gains[-1])
        if max(-gains[-2], gains[-1]) < 0:
            break
        on_square = SEE_VALUE[board.piece_type_at(square) or 0]
        occupied &= ~chess.BB_SQUARES[square]
        side = not side
    value = gains[-1]
    for gain in reversed(gains[:-1]):
        value = min(gain, -value)
    return value


def _textbook_exchange(board: chess.Board, to: int, victim: int, capturer: int,
                       side: chess.Color, occupied: int) -> int:
    """The textbook recursion: the capture gains ``victim`` less what ``side`` then gains by
    recapturing with its least valuable attacker, if that gains anything."""
    attackers = board.attackers_mask(side, to, occupied) & occupied
    if not attackers:
        return victim
    square = min(chess.scan_forward(attackers),
                 key=lambda sq: (SEE_VALUE[board.piece_type_at(sq) or 0], sq))
    taker = SEE_VALUE[board.piece_type_at(square) or 0]
    reply = _textbook_exchange(board, to, capturer, taker, not side,
                               occupied & ~chess.BB_SQUARES[square])
    return victim - max(0, reply)


def test_exchange_equals_the_reference_and_the_textbook_sign() -> None:
    # exchange reads the attack tables itself: the reference's value on every capture of
    # sampled positions, and with a further piece lifted off the board (x-rays); its sign
    # (all that a losing capture's test asks) is the textbook recursion's
    rng = random.Random(35)
    values: set[int] = set()
    for board in _sampled_boards(1000, seed=35):
        for move in board.generate_pseudo_legal_captures():
            if board.is_en_passant(move):
                continue
            frm, to = move.from_square, move.to_square
            victim = SEE_VALUE[board.piece_type_at(to) or 0]
            capturer = SEE_VALUE[board.piece_type_at(frm) or 0]
            occupied = board.occupied & ~chess.BB_SQUARES[frm]
            lifted = occupied & ~chess.BB_SQUARES[rng.choice(
                [sq for sq in chess.scan_forward(occupied) if sq != to])]
            for occ in (occupied, lifted):
                value = exchange(board, to, victim, capturer, not board.turn, occ)
                args = (board, to, victim, capturer, not board.turn, occ)
                assert value == _reference_exchange(*args), (board.fen(), move)
                textbook = _textbook_exchange(*args)
                assert (value < 0) == (textbook < 0), (board.fen(), move)
                values.add(value)
    assert len(values) > 20  # wins, losses and even trades of many kinds occurred


def test_pinned_pieces_equal_python_chess_slider_blockers() -> None:
    # the generators' pin test is _pinned with the enemy's sliders and our pieces: python-chess's
    # _slider_blockers (which they called before) for both kings of sampled positions
    pins = 0
    for board in _sampled_boards(2000, seed=36):
        for color in chess.COLORS:
            king = board.king(color)
            assert king is not None
            theirs, ours = board.occupied_co[not color], board.occupied_co[color]
            got = _pinned(king, board.occupied, (board.bishops | board.queens) & theirs,
                          (board.rooks | board.queens) & theirs, ours)
            board.turn = color
            assert got == board._slider_blockers(king), board.fen()
            pins += bool(got)
    assert pins > 100


def test_evasions_equal_python_chess_move_for_move() -> None:
    # in check the adapter filters python-chess's evasions itself: same moves, same order, on
    # positions in check along random games that favour checks (double checks, pinned
    # defenders and en-passant answers among them)
    rng = random.Random(37)
    seen = {"double": 0, "pinned": 0, "en passant": 0}
    boards: list[chess.Board] = []
    while len(boards) < 1500:
        board = chess.Board()
        for _ in range(rng.randint(1, 200)):
            moves = list(board.legal_moves)
            if not moves:
                break
            checks = [m for m in moves if board.gives_check(m)]
            board.push(rng.choice(checks if checks and rng.random() < 0.5 else moves))
            if board.is_check():
                boards.append(board.copy())
    # a checking pawn that just moved two squares: taken en passant, or not by a pinned pawn
    boards += [chess.Board("7k/8/8/3pP3/4K3/8/8/8 w - d6 0 2"),
               chess.Board("4r2k/8/8/3pP3/4K3/8/8/8 w - d6 0 2")]
    for board in boards:
        expected = list(board.generate_legal_moves())
        assert ChessGame(board).legal_moves() == expected, board.fen()
        king = board.king(board.turn)
        assert king is not None
        seen["double"] += len(board.checkers()) > 1
        seen["pinned"] += bool(board._slider_blockers(king))
        seen["en passant"] += any(board.is_en_passant(m) for m in expected)
    assert all(seen.values()), seen
