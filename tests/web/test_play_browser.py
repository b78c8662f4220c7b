"""The table page in a real browser (Debian's Chromium through Playwright): a person
sits down, drags tiles from the rack to the table, is told why a move is refused,
makes the initial meld, and runs out of time with a draft on the table — the server
applies the time-out and its penalty."""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")
import uvicorn  # noqa: E402

from meldtour.live import LiveServer, SeatConfig, TableConfig  # noqa: E402
from meldtour.web.app import create_app  # noqa: E402
from meldtour.web.config import Settings  # noqa: E402
from tests.live.helpers import known_deal  # noqa: E402

CHROMIUM = Path(os.environ.get("MELDTOUR_CHROMIUM", "/usr/bin/chromium"))
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
TURN = 12

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is missing")


@pytest.fixture()
def site() -> Iterator[tuple[str, LiveServer]]:
    app = create_app(Settings(env="test"))
    live = LiveServer()
    app.state.live = live
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning", ws="websockets-sansio"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}", live
    finally:
        server.should_exit = True
        thread.join(10)


def drag(page: object, source: object, target: object, *, at_end: bool = False) -> None:
    """Press on ``source``, move in steps (pointer events), release over ``target``."""
    a = source.bounding_box()  # type: ignore[attr-defined]
    b = target.bounding_box()  # type: ignore[attr-defined]
    assert a and b
    mouse = page.mouse  # type: ignore[attr-defined]
    mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    mouse.down()
    x = b["x"] + (b["width"] - 4 if at_end else b["width"] / 2)
    mouse.move(x, b["y"] + b["height"] / 2, steps=6)
    mouse.up()


def test_play_by_drag_and_drop_with_a_refusal_and_a_time_out(
        site: tuple[str, LiveServer]) -> None:
    base, live = site
    live.create_table(TableConfig.make(
        "standard", [SeatConfig("human"), SeatConfig("computer", "greedy")],
        deal=known_deal(), turn_seconds=TURN, bot_delay=0.3), "pw")
    expect = playwright_api.expect
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1100, "height": 900})
            page.set_default_timeout(15_000)
            page.goto(f"{base}/play/t/pw?lang=en")
            expect(page.locator("#waiting")).to_be_visible()
            page.fill("input[name=name]", "Ann")
            page.click("text=Take this seat")
            expect(page.locator("#turn")).to_have_text("Your turn")
            expect(page.locator("#rack .tile")).to_have_count(14)
            expect(page.locator("#players li")).to_have_count(2)
            expect(page.locator("#pool")).to_have_text("Pool: 78")

            rack = page.locator("#rack")
            # One tile alone on the table: refused, with the reason in words.
            drag(page, rack.locator(".tile[data-tile=r10]"), page.locator(".new-meld"))
            expect(page.locator("#board .meld")).to_have_count(1)
            page.click("#b-done")
            expect(page.locator("#notice")).to_contain_text("has fewer than 3 tiles")
            # Two more onto the same meld: the initial meld r10 r11 r12 (33) is accepted.
            drag(page, rack.locator(".tile[data-tile=r11]"), page.locator(".meld").first,
                 at_end=True)
            drag(page, rack.locator(".tile[data-tile=r12]"), page.locator(".meld").first,
                 at_end=True)
            expect(page.locator(".meld").first.locator(".tile")).to_have_count(3)
            page.click("#b-done")
            expect(page.locator("#events")).to_contain_text("Ann put down 3 tile(s)")
            expect(page.locator("#rack .tile")).to_have_count(11)
            # The computer player moves; then it is Ann's turn again.
            expect(page.locator("#events")).to_contain_text("greedy 2")
            expect(page.locator("#turn")).to_have_text("Your turn")
            # Rearranging the rack works at any time.
            page.click("#b-number")
            assert rack.locator(".tile").first.get_attribute("data-tile") == "b1"
            # A draft with one tile of hers on the table when time runs out: the server
            # applies the time-out; under "standard" the board goes back and she draws 3.
            drag(page, rack.locator(".tile[data-tile=b1]"), page.locator(".new-meld"))
            expect(page.locator("#board .meld")).to_have_count(2)
            expect(page.locator("#clock.warning")).to_be_visible(timeout=TURN * 1000)
            expect(page.locator("#events")).to_contain_text(
                "Time ran out for Ann", timeout=(TURN + 5) * 1000)
            expect(page.locator("#events")).to_contain_text("the table goes back as it was")
            expect(page.locator("#notice")).to_be_visible()
            expect(page.locator("#rack .tile")).to_have_count(14)
            expect(page.locator("#board .meld")).to_have_count(1)
        finally:
            browser.close()
    game = live.get("pw")
    assert game is not None and game.state is not None
    actions = [m.action for m in game.state.history]
    assert actions[0] == "play" and "timeout" in actions
