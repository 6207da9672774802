"""Boards as SVG, drawn here for every game the package ships (no artwork is copied: chess
pieces are Unicode glyphs, shogi pieces kanji on a pentagon we draw).

Every square or target a player can click carries ``data-cell="MOVE"`` (games where one click
names the move: tic-tac-toe, Connect Four, Othello, Nim, Bones, trees) or ``data-sq="SQ"``
(chess and shogi, where a move is two clicks, origin then target, and the move text is the two
square names joined, as UCI and USI spell them).  Legal targets have the class ``legal``, so
the page and the tests read the board without parsing pictures.  An ``Overlay`` adds the
principal variation (numbered marks, arrows) and "analyze every move" values.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from xml.sax.saxutils import escape

from sakiyomi.game import Game, GameError, Player

FONT = "DejaVu Sans, Arial, sans-serif"
PV_COLOURS = ("#1f5fd1", "#c62828")  # the first player's and the second player's moves
GAME_COLOURS = {"connect4": ("#e53935", "#f9a825"), "othello": ("#111111", "#9e9e9e"),
                "chess": ("#9e9e9e", "#111111"), "shogi": ("#1f5fd1", "#c62828")}
LEGAL = "#2e7d32"
LAST = "#ffd54f"


@dataclass(frozen=True)
class Overlay:
    """What is drawn over the position: a PV (move texts), values per move text, last move."""

    pv: Sequence[str] = ()
    values: Mapping[str, str] = field(default_factory=dict)
    last: str | None = None


Anchor = tuple[float, float] | tuple[float, float, float, float]


@dataclass
class _Board:
    """One picture being drawn: its size, the body, and where a move text points on it."""

    width: float
    height: float
    body: list[str] = field(default_factory=list)

    def svg(self, name: str) -> str:
        return (f'<svg xmlns="http://www.w3.org/2000/svg" class="board board-{name}" '
                f'width="{self.width:.0f}" height="{self.height:.0f}" '
                f'viewBox="0 0 {self.width:.0f} {self.height:.0f}" font-family="{FONT}">'
                + "".join(self.body) + "</svg>")


def _text(x: float, y: float, text: str, size: float, colour: str = "#222",
          extra: str = "") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:.1f}" text-anchor="middle" '
            f'dominant-baseline="central" fill="{colour}"{extra}>{escape(text)}</text>')


def _pv_mark(x: float, y: float, number: int, colour: str, r: float = 11) -> str:
    return (f'<g class="pv-mark" pointer-events="none"><circle cx="{x:.1f}" cy="{y:.1f}" '
            f'r="{r:.1f}" fill="{colour}" fill-opacity="0.85"/>'
            + _text(x, y, str(number), r * 1.1, "#fff") + "</g>")


def _pv_arrow(x1: float, y1: float, x2: float, y2: float, number: int, side: int,
              colour: str) -> str:
    marker = f"arrow{side}"
    return (f'<g class="pv-mark" pointer-events="none" opacity="0.8">'
            f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{colour}" '
            f'stroke-width="5" marker-end="url(#{marker})"/>'
            f'<circle cx="{x1:.1f}" cy="{y1:.1f}" r="9" fill="{colour}"/>'
            + _text(x1, y1, str(number), 11, "#fff") + "</g>")


def _markers(colours: tuple[str, str]) -> str:
    return "<defs>" + "".join(
        f'<marker id="arrow{i}" viewBox="0 0 10 10" refX="6" refY="5" markerWidth="4" '
        f'markerHeight="4" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="{c}"/></marker>'
        for i, c in enumerate(colours)) + "</defs>"


def _value_label(x: float, y: float, text: str, size: float = 13) -> str:
    return ('<g class="value-label" pointer-events="none">'
            + _text(x, y, text, size, "#6a1b9a", ' font-weight="bold"') + "</g>")


def _overlay_pv(game: Game[Any], pv: Sequence[str],
                anchor: Callable[[Game[Any], str], Anchor | None],
                colours: tuple[str, str] = PV_COLOURS) -> list[str]:
    """Replay the PV on a copy and mark where each move lands (stops at a stale move), in
    the colour of the player who makes it.
    """
    out: list[str] = []
    position = game.copy()
    for number, text in enumerate(pv, 1):
        try:
            move = position.move_from_text(text)
        except GameError:
            break
        at = anchor(position, text)
        side = int(position.to_move)
        if at is not None:
            if len(at) == 4:
                out.append(_pv_arrow(*at, number, side, colours[side]))
            else:
                out.append(_pv_mark(at[0], at[1], number, colours[side]))
        position.play(move)
    return out


# ---- tic-tac-toe -------------------------------------------------------------------------

def _tictactoe(game: Any, legal: set[str], overlay: Overlay) -> _Board:
    cell, pad = 100, 10
    board = _Board(3 * cell + 2 * pad, 3 * cell + 2 * pad)
    cells = game.cells
    for i in range(9):
        x, y = pad + (i % 3) * cell, pad + (i // 3) * cell
        text = str(i + 1)
        classes = "cell legal" if text in legal else "cell"
        fill = LAST if overlay.last == text else "#fafafa"
        board.body.append(f'<g class="{classes}" data-cell="{text}"><rect x="{x}" y="{y}" '
                          f'width="{cell}" height="{cell}" fill="{fill}" stroke="#444" '
                          'stroke-width="2"/>')
        cx, cy = x + cell / 2, y + cell / 2
        if cells[i] == 1:
            board.body.append(
                f'<path d="M{cx - 28},{cy - 28} L{cx + 28},{cy + 28} M{cx + 28},{cy - 28} '
                f'L{cx - 28},{cy + 28}" stroke="#1f5fd1" stroke-width="9" '
                'stroke-linecap="round"/>')
        elif cells[i] == 2:
            board.body.append(f'<circle cx="{cx}" cy="{cy}" r="30" fill="none" '
                              'stroke="#c62828" stroke-width="9"/>')
        elif text in legal:
            board.body.append(_text(cx, cy, text, 16, "#bbb"))
        if text in overlay.values:
            board.body.append(_value_label(cx, y + 16, overlay.values[text]))
        board.body.append("</g>")

    def anchor(position: Game[Any], text: str) -> Anchor:
        i = int(text) - 1
        return pad + (i % 3) * cell + cell / 2, pad + (i // 3) * cell + cell / 2

    board.body.extend(_overlay_pv(game, overlay.pv, anchor))
    return board


# ---- Connect Four ------------------------------------------------------------------------

def _heights(width: int, moves: Sequence[int]) -> tuple[list[int], dict[tuple[int, int], int]]:
    heights = [0] * width
    owner: dict[tuple[int, int], int] = {}
    for ply, col in enumerate(moves):
        owner[(col, heights[col])] = ply % 2
        heights[col] += 1
    return heights, owner


def _connect4(game: Any, legal: set[str], overlay: Overlay) -> _Board:
    w, h, cell, top = game.width, game.height, 60, 34
    board = _Board(w * cell + 20, top + h * cell + 30)
    heights, owner = _heights(w, game.moves_played)
    last_col = game.moves_played[-1] if game.moves_played else None
    board.body.append(f'<rect x="10" y="{top}" width="{w * cell}" height="{h * cell}" '
                      'rx="8" fill="#1e4fa3"/>')
    for col in range(w):
        text = str(col + 1)
        x = 10 + col * cell
        classes = "cell column legal" if text in legal else "cell column"
        board.body.append(f'<g class="{classes}" data-cell="{text}"><rect x="{x}" y="0" '
                          f'width="{cell}" height="{top + h * cell + 30}" fill="#fff" '
                          'fill-opacity="0"/>')
        for row in range(h):
            cx, cy = x + cell / 2, top + (h - 1 - row) * cell + cell / 2
            who = owner.get((col, row))
            fill = "#fff" if who is None else ("#e53935", "#fdd835")[who]
            ring = (' stroke="#000" stroke-width="3"' if col == last_col and
                    row == heights[col] - 1 else "")
            board.body.append(f'<circle cx="{cx}" cy="{cy}" r="{cell * 0.4}" '
                              f'fill="{fill}"{ring}/>')
        board.body.append(_text(x + cell / 2, top + h * cell + 15, text, 13, "#555"))
        if text in overlay.values:
            board.body.append(_value_label(x + cell / 2, top / 2, overlay.values[text], 15))
        board.body.append("</g>")

    def anchor(position: Any, text: str) -> Anchor:
        col = int(text) - 1
        row = _heights(w, position.moves_played)[0][col]
        return 10 + col * cell + cell / 2, top + (h - 1 - row) * cell + cell / 2

    board.body.extend(_overlay_pv(game, overlay.pv, anchor, GAME_COLOURS["connect4"]))
    return board


# ---- Othello -----------------------------------------------------------------------------

def _othello(game: Any, legal: set[str], overlay: Overlay) -> _Board:
    cell, pad = 50, 24
    board = _Board(8 * cell + 2 * pad, 8 * cell + 2 * pad)
    text_board = game.board_text()
    board.body.append(f'<rect x="{pad}" y="{pad}" width="{8 * cell}" height="{8 * cell}" '
                      'fill="#2e7d4f"/>')
    for i in range(8):
        board.body.append(_text(pad + i * cell + cell / 2, pad / 2, "abcdefgh"[i], 12, "#555"))
        board.body.append(_text(pad / 2, pad + i * cell + cell / 2, str(i + 1), 12, "#555"))
    for sq in range(64):
        name = f"{'abcdefgh'[sq % 8]}{sq // 8 + 1}"
        x, y = pad + (sq % 8) * cell, pad + (sq // 8) * cell
        cx, cy = x + cell / 2, y + cell / 2
        classes = "cell legal" if name in legal else "cell"
        fill = LAST if overlay.last == name else "#2e7d4f"
        board.body.append(f'<g class="{classes}" data-cell="{name}"><rect x="{x}" y="{y}" '
                          f'width="{cell}" height="{cell}" fill="{fill}" stroke="#1b4d30"/>')
        disc = text_board[sq]
        if disc in "XO":
            colour = "#111" if disc == "X" else "#f5f5f5"
            board.body.append(f'<circle cx="{cx}" cy="{cy}" r="{cell * 0.4}" fill="{colour}" '
                              'stroke="#000" stroke-width="1"/>')
        elif name in legal and name not in overlay.values:
            board.body.append(f'<circle cx="{cx}" cy="{cy}" r="5" fill="#000" '
                              'fill-opacity="0.35"/>')
        if name in overlay.values:
            board.body.append(_value_label(cx, cy, overlay.values[name], 14))
        board.body.append("</g>")

    def anchor(position: Game[Any], text: str) -> Anchor | None:
        if text == "pass":
            return None
        sq = "abcdefgh".index(text[0]) + 8 * (int(text[1:]) - 1)
        return pad + (sq % 8) * cell + cell / 2, pad + (sq // 8) * cell + cell / 2

    board.body.extend(_overlay_pv(game, overlay.pv, anchor, GAME_COLOURS["othello"]))
    return board


# ---- Nim and Bones -----------------------------------------------------------------------

def _heaps(game: Any, legal: set[str], overlay: Overlay, bones: bool) -> _Board:
    heaps: list[int] = game.heaps
    stick, row = 22, 54
    widest = max(max(heaps, default=0), 1)
    board = _Board(max(90 + widest * stick + 20, 320), 20 + len(heaps) * row)
    for h, size in enumerate(heaps):
        y = 14 + h * row
        label = "bones" if bones else f"heap {h}"
        board.body.append(f'<text x="8" y="{y + 24}" font-size="13" fill="#555">'
                          f"{escape(label)} ({size})</text>")
        for j in range(size):
            take = size - j  # clicking stick j takes it and every stick to its right
            text = str(take) if bones else f"{h}:{take}"
            classes = "cell stick legal" if text in legal else "cell stick"
            x = 90 + j * stick
            board.body.append(
                f'<g class="{classes}" data-cell="{text}"><rect x="{x}" y="{y}" '
                f'width="{stick}" height="{row - 12}" fill="#fff" fill-opacity="0"/>'
                f'<rect x="{x + 6}" y="{y + 4}" width="{stick - 12}" height="{row - 20}" rx="4" '
                'fill="#8d6e63"/></g>')
    return board


# ---- explicit trees ----------------------------------------------------------------------

def _tree(game: Any, legal: set[str], overlay: Overlay) -> _Board:
    moves = list(game.legal_moves())
    slot = 70
    board = _Board(max(len(moves) * slot + 40, 260), 170)
    root_x = board.width / 2
    square = game.to_move is Player.FIRST
    shape = (f'<rect x="{root_x - 18}" y="12" width="36" height="36" rx="4" fill="#fff" '
             'stroke="#222" stroke-width="2"/>' if square else
             f'<circle cx="{root_x}" cy="30" r="18" fill="#fff" stroke="#222" '
             'stroke-width="2"/>')
    board.body.append(shape)
    board.body.append(_text(root_x, 30, "?" if moves else "", 14))
    for i in moves:
        text = str(i)
        x = 20 + slot / 2 + i * slot + (board.width - 40 - len(moves) * slot) / 2
        game.play(i)
        leaf = game.outcome() is not None
        shown = str(game.terminal_value(0)) if leaf else f"{len(game.legal_moves())} ▾"
        game.undo()
        board.body.append(f'<line x1="{root_x}" y1="48" x2="{x}" y2="100" stroke="#555"/>')
        classes = "cell child legal" if text in legal else "cell child"
        board.body.append(f'<g class="{classes}" data-cell="{text}">'
                          f'<rect x="{x - 26}" y="100" width="52" height="40" rx="6" '
                          'fill="#f3f6ff" stroke="#1f5fd1" stroke-width="1.5"/>'
                          + _text(x, 113, f"move {text}", 10, "#555")
                          + _text(x, 129, shown, 13))
        if text in overlay.values:
            board.body.append(_value_label(x, 154, overlay.values[text]))
        board.body.append("</g>")
    return board


# ---- chess -------------------------------------------------------------------------------

CHESS_GLYPHS = {"k": "♚", "q": "♛", "r": "♜", "b": "♝", "n": "♞", "p": "♟"}


def _chess(game: Any, legal: set[str], overlay: Overlay) -> _Board:
    cell, pad = 56, 22
    board = _Board(8 * cell + 2 * pad, 8 * cell + 2 * pad)
    rows = game.board.board_fen().split("/")
    pieces: dict[str, str] = {}
    for r, row in enumerate(rows):  # rank 8 first
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                pieces[f"{'abcdefgh'[f]}{8 - r}"] = ch
                f += 1
    origins = {m[:2] for m in legal}
    last = overlay.last or ""
    for r in range(8):
        for f in range(8):
            name = f"{'abcdefgh'[f]}{8 - r}"
            x, y = pad + f * cell, pad + r * cell
            light = (r + f) % 2 == 0
            fill = LAST if name in (last[:2], last[2:4]) else "#f0d9b5" if light else "#b58863"
            classes = "sq legal" if name in origins else "sq"
            board.body.append(f'<g class="{classes}" data-sq="{name}"><rect x="{x}" y="{y}" '
                              f'width="{cell}" height="{cell}" fill="{fill}"/>')
            piece = pieces.get(name)
            if piece is not None:
                white = piece.isupper()
                board.body.append(_text(
                    x + cell / 2, y + cell / 2 + 2, CHESS_GLYPHS[piece.lower()], cell * 0.8,
                    "#fff" if white else "#111",
                    ' stroke="#111" stroke-width="1.2"' if white else ""))
            board.body.append("</g>")
    for i in range(8):
        board.body.append(_text(pad + i * cell + cell / 2, 8 * cell + pad + 11,
                                "abcdefgh"[i], 11, "#555"))
        board.body.append(_text(pad / 2, pad + i * cell + cell / 2, str(8 - i), 11, "#555"))

    def centre(name: str) -> tuple[float, float]:
        return (pad + "abcdefgh".index(name[0]) * cell + cell / 2,
                pad + (8 - int(name[1])) * cell + cell / 2)

    def anchor(position: Game[Any], text: str) -> Anchor:
        return (*centre(text[:2]), *centre(text[2:4]))

    board.body.insert(0, _markers(GAME_COLOURS["chess"]))
    board.body.extend(_overlay_pv(game, overlay.pv, anchor, GAME_COLOURS["chess"]))
    return board


# ---- shogi -------------------------------------------------------------------------------

SHOGI_KANJI = {"P": "歩", "L": "香", "N": "桂", "S": "銀", "G": "金", "B": "角", "R": "飛",
               "K": "玉", "+P": "と", "+L": "杏", "+N": "圭", "+S": "全", "+B": "馬",
               "+R": "龍"}
HAND_ORDER = "RBGSNLP"


def parse_sfen(sfen: str) -> tuple[dict[str, str], dict[str, int], dict[str, int], str]:
    """Pieces by square ("7g" -> "P", "+p", ...), Black's and White's hands, side to move."""
    parts = sfen.split()
    pieces: dict[str, str] = {}
    for r, row in enumerate(parts[0].split("/")):
        f, promote = 0, ""
        for ch in row:
            if ch == "+":
                promote = "+"
            elif ch.isdigit():
                f += int(ch)
            else:
                pieces[f"{9 - f}{'abcdefghi'[r]}"] = promote + ch
                f += 1
                promote = ""
    black: dict[str, int] = {}
    white: dict[str, int] = {}
    count = ""
    for ch in parts[2] if len(parts) > 2 and parts[2] != "-" else "":
        if ch.isdigit():
            count += ch
            continue
        hand = black if ch.isupper() else white
        hand[ch.upper()] = hand.get(ch.upper(), 0) + (int(count) if count else 1)
        count = ""
    return pieces, black, white, parts[1] if len(parts) > 1 else "b"


def _koma(x: float, y: float, size: float, kanji: str, gote: bool, promoted: bool) -> str:
    """A shogi piece: a pentagon pointing at the opponent, with its kanji."""
    w, h = size * 0.78, size * 0.88
    points = [(x, y - h / 2), (x + w * 0.38, y - h * 0.32), (x + w / 2, y + h / 2),
              (x - w / 2, y + h / 2), (x - w * 0.38, y - h * 0.32)]
    path = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
    turn = f' transform="rotate(180 {x:.1f} {y:.1f})"' if gote else ""
    colour = "#c62828" if promoted else "#222"
    return (f"<g{turn}><polygon points=\"{path}\" fill=\"#f7e1a8\" stroke=\"#7a5c1e\" "
            f'stroke-width="1"/>'
            + _text(x, y + h * 0.06, kanji, size * 0.5, colour,
                    ' font-family="IPAGothic, Noto Sans CJK JP, sans-serif"')
            + "</g>")


def _shogi(game: Any, legal: set[str], overlay: Overlay) -> _Board:
    cell, pad, hand_w = 48, 22, 70
    board = _Board(9 * cell + 2 * pad + 2 * hand_w, 9 * cell + 2 * pad)
    pieces, black, white, side = parse_sfen(game.sfen())
    left = pad + hand_w
    origins = {m[:2] for m in legal}
    last = overlay.last or ""
    for r in range(9):
        for f in range(9):
            name = f"{9 - f}{'abcdefghi'[r]}"
            x, y = left + f * cell, pad + r * cell
            fill = LAST if name in (last[:2], last[2:4]) else "#e9c77b"
            classes = "sq legal" if name in origins else "sq"
            board.body.append(f'<g class="{classes}" data-sq="{name}"><rect x="{x}" y="{y}" '
                              f'width="{cell}" height="{cell}" fill="{fill}" stroke="#5d4420"/>')
            piece = pieces.get(name)
            if piece is not None:
                kind = piece.upper()
                board.body.append(_koma(x + cell / 2, y + cell / 2, cell, SHOGI_KANJI[kind],
                                        piece[-1].islower(), kind.startswith("+")))
            board.body.append("</g>")
    for i in range(9):
        board.body.append(_text(left + i * cell + cell / 2, pad / 2, str(9 - i), 11, "#555"))
        board.body.append(_text(left + 9 * cell + 8, pad + i * cell + cell / 2,
                                "一二三四五六七八九"[i], 11, "#555"))
    for hand, hx, owner in ((white, pad + hand_w / 2 - 10, "w"),
                           (black, left + 9 * cell + hand_w / 2 + 12, "b")):
        label = "☗ sente" if owner == "b" else "☖ gote"
        y0 = pad + 8 * cell + 20 if owner == "b" else pad + 10
        step = -cell if owner == "b" else cell
        board.body.append(_text(hx, y0 - 12 if owner == "w" else y0 + 18, label, 11, "#555"))
        for i, kind in enumerate(k for k in HAND_ORDER if hand.get(k)):
            hy = y0 + i * step + (cell / 2 if owner == "w" else -cell / 2 + 10)
            sq = f"{kind}*"
            active = owner == side
            classes = "sq hand legal" if active and sq in origins else "sq hand"
            attr = f' data-sq="{sq}"' if active else ""
            board.body.append(f'<g class="{classes}"{attr}><rect x="{hx - cell / 2}" '
                              f'y="{hy - cell / 2}" width="{cell}" height="{cell}" '
                              'fill="#fff" fill-opacity="0"/>'
                              + _koma(hx, hy, cell * 0.9, SHOGI_KANJI[kind], owner == "w", False))
            if hand[kind] > 1:
                board.body.append(_text(hx + cell * 0.45, hy + cell * 0.3, str(hand[kind]), 12))
            board.body.append("</g>")

    def centre(name: str) -> tuple[float, float]:
        return (left + (9 - int(name[0])) * cell + cell / 2,
                pad + "abcdefghi".index(name[1]) * cell + cell / 2)

    def anchor(position: Game[Any], text: str) -> Anchor:
        if text[1] == "*":
            return centre(text[2:4])
        return (*centre(text[:2]), *centre(text[2:4]))

    board.body.insert(0, _markers(GAME_COLOURS["shogi"]))
    board.body.extend(_overlay_pv(game, overlay.pv, anchor, GAME_COLOURS["shogi"]))
    return board


# ---- dispatch ----------------------------------------------------------------------------

SELECT_KIND = {"chess": "fromto", "shogi": "fromto"}  # every other game: one click


def render_board(name: str, game: Game[Any], overlay: Overlay | None = None) -> str:
    """The position of game ``name`` as an SVG document (with the overlay, if any)."""
    overlay = overlay if overlay is not None else Overlay()
    legal = {game.move_to_text(m) for m in game.legal_moves()}
    drawers: dict[str, Callable[[Any, set[str], Overlay], _Board]] = {
        "tictactoe": _tictactoe, "connect4": _connect4, "othello": _othello,
        "chess": _chess, "shogi": _shogi, "tree": _tree,
        "nim": lambda g, le, o: _heaps(g, le, o, bones=False),
        "bones": lambda g, le, o: _heaps(g, le, o, bones=True),
    }
    return drawers[name](game, legal, overlay).svg(name)


def board_html(svg: str, caption: str = "") -> str:
    """The board with a caption, for notebooks."""
    return f"<figure>{svg}<figcaption>{escape(caption)}</figcaption></figure>" if caption \
        else svg


