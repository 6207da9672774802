"""The web app's HTTP and WebSocket API, in process (Starlette's TestClient)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from sakiyomi.games import GAMES, load
from sakiyomi.web.server import create_app
from sakiyomi.web.settings import WebLimits

SEED002 = "max:[[[40,55],[60,20]],[[70,80],[65,50]]]"
BAD_POSITIONS = {
    "tree": "[[1,2],", "bones": "-3", "nim": "3,x", "tictactoe": "xxxxxxxxx",
    "connect4": "1111111", "othello": "Z" * 64 + " X", "chess": "not a fen",
    "shogi": "sfen nonsense b - 1",
}


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(WebLimits(max_seconds=20.0))) as test_client:
        yield test_client


def post(client: TestClient, path: str, body: Any) -> tuple[int, dict[str, Any]]:
    response = client.post(path, json=body)
    data: dict[str, Any] = response.json()
    return response.status_code, data


def state(client: TestClient, game: str, moves: list[str], start: str | None = None,
          ) -> dict[str, Any]:
    status, data = post(client, "/api/state", {
        "game": game, "start": start if start is not None else GAMES[game].start,
        "moves": moves})
    assert status == 200, data
    return data


# ---- HTTP ---------------------------------------------------------------------------------


def test_the_page_and_its_files_are_served(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and 'id="board"' in page.text
    for name in ("app.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200
    assert client.get("/static/../server.py").status_code == 404
    games = client.get("/api/games").json()
    assert {g["name"] for g in games["games"]} == set(GAMES)
    assert len(games["examples"]) == 3


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_starts_plays_and_exports(client: TestClient, game: str) -> None:
    data = state(client, game, [])
    assert data["outcome"] is None and data["legal"]
    board = data["board"]
    assert board.startswith("<svg")
    for move in data["legal"]:  # every legal move can be clicked on the board
        if data["select"] == "cell" and move != "pass":
            assert f'data-cell="{move}"' in board
        elif data["select"] == "fromto":
            assert f'data-sq="{move[:2]}"' in board and f'data-sq="{move[2:4]}"' in board
    move = data["legal"][-1]
    after = state(client, game, [move])
    assert after["moves"] == [move]
    # the exported position is read back by the command line's parser as the same position
    reference = load(game, GAMES[game].start)
    reference.play(reference.move_from_text(move))
    exported = load(game, after["position"])
    if game in ("tictactoe", "connect4", "othello", "chess", "shogi"):
        assert exported.key() == reference.key()
    assert sorted(exported.move_to_text(m) for m in exported.legal_moves()) == \
        sorted(reference.move_to_text(m) for m in reference.legal_moves())


def test_illegal_moves_are_refused_with_the_reason(client: TestClient) -> None:
    status, data = post(client, "/api/state", {"game": "tictactoe", "moves": ["5", "5"]})
    assert status == 400 and "move 2 (5)" in data["error"] and "taken" in data["error"]
    status, data = post(client, "/api/state", {"game": "connect4", "start": "444444",
                                               "moves": ["4"]})
    assert status == 400 and "full" in data["error"]
    status, data = post(client, "/api/state", {"game": "chess", "moves": ["e2e5"]})
    assert status == 400 and "illegal" in data["error"]
    status, data = post(client, "/api/state", {"game": "tictactoe", "moves": ["1", "4", "2",
                                                                             "5", "3", "6"]})
    assert status == 400 and "over" in data["error"]


@pytest.mark.parametrize("game", sorted(BAD_POSITIONS))
def test_bad_positions_get_a_message_not_a_server_error(client: TestClient, game: str) -> None:
    status, data = post(client, "/api/state", {"game": game, "start": BAD_POSITIONS[game]})
    assert status == 400 and data["error"]


@pytest.mark.parametrize("body", [
    {"game": "nope"}, {"game": "tictactoe", "moves": "12"}, {"game": "tictactoe", "moves": [1]},
    {"game": "tictactoe", "start": "x" * 10_000}, [1, 2], {"game": 3},
])
def test_malformed_requests_are_refused(client: TestClient, body: Any) -> None:
    status, data = post(client, "/api/state", body)
    assert status == 400 and data["error"]
    response = client.post("/api/state", content=b"{not json")
    assert response.status_code == 400 and "JSON" in response.json()["error"]


def test_the_end_of_a_game_is_announced_with_the_reason(client: TestClient) -> None:
    data = state(client, "tictactoe", ["1", "4", "2", "5", "3"])
    assert data["outcome"] == "x wins (three in a row)" and data["legal"] == []
    data = state(client, "connect4", list("1212121"))
    assert data["outcome"] is not None and data["outcome"].startswith("red wins")
    data = state(client, "chess", ["f2f3", "e7e5", "g2g4", "d8h4"])
    assert data["outcome"] == "black wins (checkmate)"
    data = state(client, "bones", ["3", "3"])
    # 6 bones, 3 and 3: the first player cannot take and loses
    assert data["outcome"] is not None and data["outcome"].startswith("second wins")


def test_a_tree_position_exports_for_the_side_to_move(client: TestClient) -> None:
    # After move 1 in seed 002's tree the opponent (MIN) moves: the export is the subtree
    # with leaves negated for the new side to move, read back as the same values.
    data = state(client, "tree", ["1"], start=SEED002)
    assert data["position"] == "[[-70,-80],[-65,-50]]"


# ---- the teaching view -------------------------------------------------------------------


def _full_tree(depth: int, branching: int = 2) -> int:
    return sum(branching ** d for d in range(depth + 1))


def test_trace_of_seed_002_steps_to_its_single_cut(client: TestClient) -> None:
    status, data = post(client, "/api/trace", {"game": "tree", "position": SEED002,
                                               "algorithm": "alphabeta-minmax"})
    assert status == 200, data
    events = data["events"]
    enters = [e for e in events if e["kind"] == "enter"]
    cuts = [e for e in events if e["kind"] == "cut"]
    # the book: αβ on figure 1 skips only K (one leaf of the full 15-node tree)
    assert len(enters) == _full_tree(3) - 1 == data["nodes"]
    assert len(cuts) == 1 and len(cuts[0]["reveal"]) == 1
    assert events[-1]["kind"] == "pv" and data["pv"] == ["1", "1", "0"]  # A→C→G→N
    assert f'data-step-cut="{cuts[0]["node"]}"' in data["steps"]
    assert len([e for e in events if e["kind"] == "leave"]) == len(enters)


def test_trace_refuses_large_trees_and_unknown_algorithms(client: TestClient) -> None:
    status, data = post(client, "/api/trace", {"game": "tictactoe", "position": "start",
                                               "algorithm": "minimax"})
    assert status == 400 and "too many" in data["error"]
    status, data = post(client, "/api/trace", {"game": "tree", "position": SEED002,
                                               "algorithm": "magic"})
    assert status == 400 and "unknown algorithm" in data["error"]
    status, data = post(client, "/api/trace", {"game": "chess", "position": "startpos",
                                               "algorithm": "minimax", "depth": 1})
    assert status == 400


def test_node_table_matches_the_full_tree(client: TestClient) -> None:
    status, data = post(client, "/api/compare", {"game": "tree", "position": SEED002})
    assert status == 200, data
    rows = {row["algorithm"]: row for row in data["rows"]}
    assert rows["minimax"]["nodes"] == _full_tree(3)
    assert rows["alphabeta-minmax"]["nodes"] == _full_tree(3) - 1
    status, data = post(client, "/api/compare", {"game": "tictactoe", "position": "start"})
    assert status == 400 and "lower the depth" in data["error"]


# ---- WebSocket: live search --------------------------------------------------------------


def receive_until_done(socket: Any, limit: int = 10_000) -> list[dict[str, Any]]:
    messages = []
    for _ in range(limit):
        message: dict[str, Any] = socket.receive_json()
        messages.append(message)
        if message["type"] in ("done", "error"):
            return messages
    raise AssertionError("no 'done' message")


def negamax_tictactoe(cells: list[str], me: str) -> int:
    """An independent tic-tac-toe solver: +1 win, 0 draw, -1 loss for ``me`` to move."""
    lines = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8),
             (2, 4, 6)]
    other = "o" if me == "x" else "x"
    if any(cells[a] == cells[b] == cells[c] == other for a, b, c in lines):
        return -1
    empty = [i for i, c in enumerate(cells) if c == "."]
    if not empty:
        return 0
    best = -2
    for i in empty:
        cells[i] = me
        best = max(best, -negamax_tictactoe(cells, other))
        cells[i] = "."
    return best


@pytest.mark.parametrize("kind", ["think", "move"])
def test_search_streams_info_and_a_best_move(client: TestClient, kind: str) -> None:
    position = "x...o...."
    with client.websocket_connect("/ws") as socket:
        socket.send_json({"op": "search", "id": 7, "kind": kind, "game": "tictactoe",
                          "start": position, "moves": [], "seconds": 10})
        messages = receive_until_done(socket)
    infos = [m for m in messages if m["type"] == "info"]
    done = messages[-1]
    assert done["type"] == "done" and done["id"] == 7 and not done["stopped"]
    assert [m["depth"] for m in infos] == sorted(m["depth"] for m in infos)
    assert all(m["board"].startswith("<svg") and m["pv"] for m in infos)
    cells = list(position)
    value = negamax_tictactoe(cells, "x")
    best = int(done["best"]) - 1
    cells[best] = "x"
    assert -negamax_tictactoe(cells, "o") == value  # the chosen move keeps the game's value


def test_analysis_values_every_move(client: TestClient) -> None:
    position = "xx.oo...."
    with client.websocket_connect("/ws") as socket:
        socket.send_json({"op": "search", "id": 1, "kind": "analyze", "game": "tictactoe",
                          "start": position, "moves": [], "seconds": 10})
        messages = receive_until_done(socket)
    done = messages[-1]
    assert done["exact"]
    for row in done["moves"]:
        cells = list(position)
        cells[int(row["move"]) - 1] = "x"
        truth = -negamax_tictactoe(cells, "o")
        assert (row["value"] > 0) - (row["value"] < 0) == truth, row
    labels = [m for m in messages if m["type"] == "analysis"][-1]["board"]
    assert "value-label" in labels


@pytest.mark.parametrize("kind", ["analyze", "think"])
def test_search_lines_come_with_their_names(client: TestClient, kind: str) -> None:
    """Every line the page shows is also given as players write it: chess's SAN, each move
    named in the position it is played from (checked against python-chess)."""
    import chess

    start = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    with client.websocket_connect("/ws") as socket:
        socket.send_json({"op": "search", "id": 3, "kind": kind, "game": "chess",
                          "start": start, "moves": [], "depth": 2})
        messages = receive_until_done(socket)
    lines = [(row["pv"], row["pv_names"]) for m in messages if m["type"] == "analysis"
             for row in m["moves"]]
    lines += [(m["pv"], m["pv_names"]) for m in messages if m["type"] == "info"]
    assert lines and all(pv for pv, _ in lines)
    for pv, names in lines:
        board = chess.Board(start)
        expected = []
        for text in pv:
            move = chess.Move.from_uci(text)
            expected.append(board.san(move))
            board.push(move)
        assert names == expected
    for m in messages:
        if m["type"] == "analysis":
            assert all(row["name"] == row["pv_names"][0] for row in m["moves"])


def test_stop_ends_a_search_quickly(client: TestClient) -> None:
    server = client.app.state.server  # type: ignore[attr-defined]
    with client.websocket_connect("/ws") as socket:
        socket.send_json({"op": "search", "id": 2, "kind": "think", "game": "connect4",
                          "start": "", "moves": []})
        first = socket.receive_json()
        assert first["type"] in ("info", "progress")
        start = time.monotonic()
        socket.send_json({"op": "stop"})
        messages = receive_until_done(socket)
        assert time.monotonic() - start < 5
    assert messages[-1]["type"] == "done" and messages[-1]["stopped"]
    assert _settles(server)


def _settles(server: Any, timeout: float = 10.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if server.running() == 0:
            return True
        time.sleep(0.05)
    return False


def test_a_closed_tab_stops_its_search(client: TestClient) -> None:
    server = client.app.state.server  # type: ignore[attr-defined]
    with client.websocket_connect("/ws") as socket:
        socket.send_json({"op": "search", "id": 3, "kind": "think", "game": "othello",
                          "start": "start", "moves": []})
        socket.receive_json()
        assert server.running() == 1
    assert _settles(server)
    with client.websocket_connect("/ws") as socket:  # the slot is free again
        socket.send_json({"op": "search", "id": 4, "kind": "move", "game": "bones",
                          "start": "5", "moves": []})
        assert receive_until_done(socket)[-1]["best"] == "1"  # 5 → leave 4 (a multiple of 4)


def test_searches_are_bounded_and_bad_requests_answered() -> None:
    app = create_app(WebLimits(max_concurrent=1, max_seconds=20.0))
    with TestClient(app) as client, client.websocket_connect("/ws") as one, \
            client.websocket_connect("/ws") as two:
        one.send_json({"op": "search", "id": 1, "kind": "think", "game": "connect4",
                       "start": "", "moves": []})
        one.receive_json()
        two.send_json({"op": "search", "id": 1, "kind": "think", "game": "connect4",
                       "start": "", "moves": []})
        assert "busy" in two.receive_json()["message"]
        one.send_json({"op": "stop"})
        receive_until_done(one)
        for bad in ({"op": "fly"}, {"op": "search", "kind": "think", "game": "chess",
                                    "start": "bad fen"},
                    {"op": "search", "kind": "dream", "game": "nim"},
                    {"op": "search", "kind": "think", "game": "nim", "seconds": -1},
                    {"op": "search", "kind": "think", "game": "tictactoe",
                     "moves": ["1", "1"]}):
            two.send_json(bad)
            reply = two.receive_json()
            assert reply["type"] == "error" and reply["message"], bad
        two.send_text("not json")
        assert two.receive_json()["type"] == "error"


def test_other_sites_cannot_open_the_websocket(client: TestClient) -> None:
    with pytest.raises(WebSocketDisconnect), client.websocket_connect(
            "/ws", headers={"origin": "http://evil.example"}) as socket:
        socket.receive_json()


def test_finished_games_are_not_searched(client: TestClient) -> None:
    with client.websocket_connect("/ws") as socket:
        socket.send_json({"op": "search", "id": 5, "kind": "think", "game": "tictactoe",
                          "start": "xxxoo....", "moves": []})
        reply = receive_until_done(socket)[-1]
    assert reply["type"] == "error" and "over" in reply["message"]


# ---- the command ---------------------------------------------------------------------------


def test_serve_refuses_a_bad_port(capsys: pytest.CaptureFixture[str]) -> None:
    from sakiyomi.cli import main

    assert main(["serve", "--port", "70000"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "port" in err[0]


def test_serve_listens_on_loopback_and_serves_the_page() -> None:
    import socket
    import subprocess
    import sys
    import urllib.request

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen([sys.executable, "-m", "sakiyomi", "serve", "--port", str(port)],
                               stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        assert f"http://127.0.0.1:{port}/" in process.stdout.readline()
        end = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as page:
                    assert b'id="board"' in page.read()
                break
            except OSError:
                assert time.monotonic() < end, "the server did not answer"
                time.sleep(0.1)
    finally:
        process.terminate()
        process.wait(10)


def test_small_trees_and_tictactoe_can_be_stepped(client: TestClient) -> None:
    for body in ({"game": "tree", "position": "random:3,3,7", "algorithm": "negascout"},
                 {"game": "tictactoe", "position": "xo.......", "algorithm": "alphabeta",
                  "depth": 2},
                 {"game": "tree", "position": SEED002, "algorithm": "mtdf"}):
        status, data = post(client, "/api/trace", body)
        assert status == 200, data
        enters = [e for e in data["events"] if e["kind"] == "enter"]
        leaves = [e for e in data["events"] if e["kind"] == "leave"]
        assert len(enters) == len(leaves) > 0 and data["steps"].startswith("<svg")
        if body["game"] == "tictactoe":  # depth 2 from "xo.......": 1 + 7 + 7*6 positions
            assert len(enters) <= 1 + 7 + 7 * 6


def test_a_failing_search_still_ends_with_a_message(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    from sakiyomi.web import jobs

    def broken(self: Any) -> dict[str, Any]:
        raise RuntimeError("boom")

    monkeypatch.setattr(jobs.SearchJob, "_think", broken)
    with client.websocket_connect("/ws") as socket:
        socket.send_json({"op": "search", "id": 9, "kind": "think", "game": "nim",
                          "start": "1,2", "moves": []})
        reply = receive_until_done(socket)[-1]
    assert reply["type"] == "error" and "internal error" in reply["message"]


def test_moves_typed_as_players_write_them_come_back_in_notation_with_their_names(
        client: TestClient) -> None:
    chess_game = state(client, "chess", ["e4", "e7e5", "Nf3"])
    assert chess_game["moves"] == ["e2e4", "e7e5", "g1f3"]
    assert chess_game["names"] == ["e4", "e5", "Nf3"]
    shogi_game = state(client, "shogi", ["７六歩", "3c3d", "22角成", "同銀"])
    assert shogi_game["moves"] == ["7g7f", "3c3d", "8h2b+", "3a2b"]
    assert shogi_game["names"] == ["▲７六歩", "△３四歩", "▲２二角成", "△２二同銀"]
    connect4 = state(client, "connect4", ["4", "4"])
    assert connect4["names"] == connect4["moves"] == ["4", "4"]
