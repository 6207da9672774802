"""The web app in a real headless Chromium (Debian's ``chromium``, driven by Playwright; no
browser is downloaded): play tic-tac-toe to the end by clicking, watch Connect Four's analysis
and a live search, step an αβ search to its first cut-off.  Assertions read the page's state,
never pixels; screenshots go to ``$SAKIYOMI_SCREENSHOTS`` (or the test's temporary folder) with
the measured page-load time and update rate in ``measurements.json``.

Without Chromium the tests skip, except where ``CI`` or ``SAKIYOMI_REQUIRE_BROWSER=1`` is set:
there they fail, so that CI never passes without having run them.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("SAKIYOMI_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def _required() -> bool:
    return bool(os.environ.get("CI")) or os.environ.get("SAKIYOMI_REQUIRE_BROWSER") == "1"


def _need_browser() -> None:
    missing = None
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        missing = f"Chromium not found at {CHROMIUM} (apt-get install chromium)"
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            missing = "Playwright for Python is not installed (pip install playwright)"
    if missing is not None:
        if _required():
            pytest.fail(f"browser tests are required here: {missing}")
        pytest.skip(missing)


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, Any]]:
    """The app served by uvicorn on a free loopback port, in this process."""
    _need_browser()
    import uvicorn

    from sakiyomi.web.server import create_app
    from sakiyomi.web.settings import WebLimits

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    app = create_app(WebLimits(max_seconds=20.0))
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    uv = uvicorn.Server(config)
    thread = threading.Thread(target=uv.run, daemon=True)
    thread.start()
    end = time.monotonic() + 20
    while not uv.started:
        assert time.monotonic() < end, "the server did not start"
        time.sleep(0.05)
    assert app.state.server.warm.wait(300), "the compiled engines were not built"
    yield f"http://127.0.0.1:{port}/", app.state.server
    uv.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, Any]]]:
    """Where screenshots go, and the measurements written there at the end."""
    folder = Path(os.environ.get("SAKIYOMI_SCREENSHOTS") or tmp_path_factory.mktemp("shots"))
    folder.mkdir(parents=True, exist_ok=True)
    measured: dict[str, Any] = {}
    yield folder, measured
    (folder / "measurements.json").write_text(json.dumps(measured, indent=2) + "\n")


@pytest.fixture
def page(server: tuple[str, Any], shots: tuple[Path, dict[str, Any]]) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    url, _ = server
    _, measured = shots
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        tab = browser.new_page(viewport={"width": 1280, "height": 900})
        errors: list[str] = []
        tab.on("pageerror", lambda exc: errors.append(str(exc)))
        start = time.perf_counter()
        tab.goto(url)
        tab.wait_for_selector("body[data-ready='1']", timeout=20_000)
        measured.setdefault("page_load_seconds", []).append(
            round(time.perf_counter() - start, 3))
        yield tab
        assert errors == [], errors
        browser.close()


def ui(page: Any, path: str) -> Any:
    """A value of the page's state object (``window.sakiyomi``)."""
    return page.evaluate(f"() => window.sakiyomi.{path}")


def test_play_tictactoe_against_the_computer_to_the_end(
        page: Any, shots: tuple[Path, dict[str, Any]]) -> None:
    folder, _ = shots
    page.select_option("#limit-kind", "depth")
    page.fill("#limit-value", "9")
    page.click("#new-game")
    page.wait_for_function("() => window.sakiyomi.moves.length === 0")
    page.click("[data-cell='5']")
    page.wait_for_function("() => window.sakiyomi.moves.length === 2", timeout=20_000)
    taken = page.inner_text("#status")
    page.click(f"[data-cell='{ui(page, 'moves[1]')}']")  # the computer's cell: refused
    page.wait_for_function("() => document.getElementById('message').textContent.length > 0")
    assert "taken" in page.inner_text("#message") and page.inner_text("#status") == taken
    page.click("#undo")  # back to the human's last turn: both moves are taken back
    page.wait_for_function("() => window.sakiyomi.moves.length === 0")
    page.click("[data-cell='5']")
    page.wait_for_function("() => window.sakiyomi.moves.length === 2", timeout=20_000)
    while ui(page, "desc.outcome") is None:
        count = ui(page, "moves.length")
        page.click(f"[data-cell='{ui(page, 'desc.legal[0]')}']")
        page.wait_for_function(
            f"() => window.sakiyomi.desc.outcome || window.sakiyomi.moves.length === {count + 2}",
            timeout=20_000)
    page.screenshot(path=str(folder / "tictactoe-end.png"))
    status = page.inner_text("#status")
    assert status.startswith("Game over") and ("draw" in status or "o wins" in status)
    assert [li.inner_text() for li in page.query_selector_all("#move-list li")] == \
        ui(page, "moves")


def test_moves_typed_as_players_write_them_and_shown_with_their_names(page: Any) -> None:
    page.select_option("#second", "human")
    page.select_option("#game", "shogi")
    page.wait_for_function("() => window.sakiyomi.game === 'shogi'")
    for count, text in enumerate(["７六歩", "3c3d", "22角成", "同銀"], 1):
        page.fill("#move-text", text)
        page.click("#play-move")
        page.wait_for_function(f"() => window.sakiyomi.moves.length === {count}")
        # a played text is cleared for the next move
        page.wait_for_function("() => document.getElementById('move-text').value === ''")
    assert ui(page, "moves") == ["7g7f", "3c3d", "8h2b+", "3a2b"]
    assert [li.inner_text() for li in page.query_selector_all("#move-list li")] == [
        "7g7f (▲７六歩)", "3c3d (△３四歩)", "8h2b+ (▲２二角成)", "3a2b (△２二同銀)"]
    page.fill("#move-text", "99王")  # no king can go there: refused, and kept to mend
    page.click("#play-move")
    page.wait_for_function("() => document.getElementById('message').textContent.length > 0")
    assert page.input_value("#move-text") == "99王" and ui(page, "moves.length") == 4


def test_the_address_holds_the_game(page: Any, server: tuple[str, Any]) -> None:
    """Game, moves and players live in the URL's fragment: a link opens the same game, every
    move updates it, and an address with an illegal move says so and starts afresh."""
    url, _ = server
    page.goto(f"{url}#game=chess&moves=e2e4+e7e5&first=human&second=human")
    page.wait_for_function("() => window.sakiyomi.game === 'chess'")
    assert ui(page, "moves") == ["e2e4", "e7e5"] and page.input_value("#second") == "human"
    page.fill("#move-text", "Nf3")
    page.click("#play-move")
    page.wait_for_function("() => window.sakiyomi.moves.length === 3")
    fragment = page.evaluate("() => location.hash")
    assert "game=chess" in fragment and "moves=e2e4+e7e5+g1f3" in fragment
    page.goto(f"{url}#game=connect4&start=44&moves=9&first=human&second=human")
    page.wait_for_function("() => window.sakiyomi.game === 'connect4'")
    page.wait_for_function("() => document.getElementById('message').textContent.length > 0")
    assert "refused" in page.inner_text("#message") and ui(page, "moves.length") == 0
    page.evaluate("() => { location.hash = 'game=tictactoe&moves=5+1&first=human&second=human'; }")
    page.wait_for_function("() => window.sakiyomi.game === 'tictactoe'")
    assert ui(page, "moves") == ["5", "1"]


def test_chess_analysis_lines_read_in_san(page: Any) -> None:
    page.select_option("#second", "human")
    page.select_option("#game", "chess")
    page.wait_for_function("() => window.sakiyomi.game === 'chess'")
    page.select_option("#limit-kind", "depth")
    page.fill("#limit-value", "2")
    page.fill("#move-text", "e4")
    page.click("#play-move")
    page.wait_for_function("() => window.sakiyomi.moves.length === 1")
    page.check("#analyze-every")
    page.wait_for_function("() => document.getElementById('info-state').textContent === 'done'",
                           timeout=30_000)
    rows = [[cell.inner_text() for cell in row.query_selector_all("td")]
            for row in page.query_selector_all("#analysis tr") if row.query_selector("td")]
    assert len(rows) == 20  # black's twenty replies
    by_move = {row[0]: row for row in rows}
    assert "g8f6 (Nf6)" in by_move and "e7e5 (e5)" in by_move
    assert all(row[2].split()[0] == row[0].split("(")[1].rstrip(")") for row in rows)


def test_computer_against_computer_plays_bones_to_the_end(page: Any) -> None:
    page.select_option("#limit-kind", "depth")
    page.fill("#limit-value", "12")
    page.select_option("#game", "bones")
    page.wait_for_function("() => window.sakiyomi.game === 'bones'")
    page.select_option("#first", "cpu")
    page.wait_for_function("() => window.sakiyomi.desc.outcome !== null", timeout=30_000)
    # 6 bones: taking 2 leaves a multiple of 4, a lost heap for the side to move
    assert ui(page, "moves[0]") == "2"
    assert page.inner_text("#status").startswith("Game over: first wins")


def test_connect4_analysis_updates_and_a_search_can_be_stopped(
        page: Any, server: tuple[str, Any], shots: tuple[Path, dict[str, Any]]) -> None:
    folder, measured = shots
    page.select_option("#game", "connect4")
    page.select_option("#second", "human")
    page.wait_for_function("() => window.sakiyomi.game === 'connect4'")
    page.check("#analyze-every")
    page.wait_for_selector("#board .value-label")
    clicked = time.perf_counter()
    page.click("[data-cell='4']")
    page.wait_for_function("() => window.sakiyomi.moves.length === 1 && "
                           "document.querySelectorAll('#board .value-label').length === 7 && "
                           "document.querySelector('#analysis td') !== null", timeout=5_000)
    analysis_delay = time.perf_counter() - clicked
    measured["connect4_analysis_seconds"] = round(analysis_delay, 3)
    assert analysis_delay < 2.0  # the issue asks for "live": about 0.3-0.7 s measured here
    page.screenshot(path=str(folder / "connect4-analysis.png"))
    page.uncheck("#analyze-every")
    # the analysis may already have reached its limit: press Stop only while it runs
    page.evaluate("() => { if (window.sakiyomi.searching) $('stop').click(); }")
    page.wait_for_function("() => !window.sakiyomi.searching")
    page.click("#think")
    page.wait_for_function("() => window.sakiyomi.info.lastUpdate - "
                           "window.sakiyomi.info.firstUpdate > 2000", timeout=20_000)
    info = page.evaluate("() => window.sakiyomi.info")
    rate = (info["updates"] - 1) / ((info["lastUpdate"] - info["firstUpdate"]) / 1000)
    measured["search_updates_per_second"] = round(rate, 2)
    assert rate >= 3  # several times a second
    assert int(page.inner_text("#info-depth")) >= 1
    assert page.query_selector("#board .pv-mark") is not None  # the PV drawn on the board
    page.screenshot(path=str(folder / "connect4-search.png"))
    page.click("#stop")
    page.wait_for_function("() => document.getElementById('info-state').textContent "
                           "=== 'stopped'", timeout=5_000)
    _, app_server = server
    end = time.monotonic() + 5
    while app_server.running() and time.monotonic() < end:
        time.sleep(0.05)
    assert app_server.running() == 0


def test_step_the_seed_tree_to_its_first_cut(
        page: Any, shots: tuple[Path, dict[str, Any]]) -> None:
    folder, _ = shots
    page.click("#tab-tree")
    page.click("#t-examples button:nth-child(2)")  # seed 002, αβ in MinMax form
    page.wait_for_selector("#t-steps svg")
    page.click("#t-next")
    assert "enter root" in page.inner_text("#t-event")
    page.click("#t-cut")
    assert "β-cut" in page.inner_text("#t-event")
    cut = page.query_selector("#t-steps [data-step-cut]")
    assert cut is not None and cut.get_attribute("visibility") == "visible"
    pruned = page.query_selector("#t-steps .step-node.pruned")
    assert pruned is not None and pruned.get_attribute("visibility") == "visible"
    page.screenshot(path=str(folder / "tree-first-cut.png"), full_page=True)
    step = int(page.input_value("#t-slider"))
    page.click("#t-back")
    assert int(page.input_value("#t-slider")) == step - 1
    assert cut.get_attribute("visibility") == "hidden"
    page.click("#t-last")
    assert "principal variation 1 1 0" in page.inner_text("#t-event")
    assert page.query_selector_all("#t-steps .step-node.pv")
