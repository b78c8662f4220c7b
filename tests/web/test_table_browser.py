"""The table page's help to the players, in a real browser (Debian's Chromium): the
computer's move highlighted and named, a meld marked while it is not valid yet, the
whole turn from the keyboard, the tab's title on one's turn; on a phone with seven
melds down the new-meld zone reached by a finger, and Undo after a reload."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

from meldtour.core.state import Deal  # noqa: E402
from meldtour.core.tiles import full_set, parse_tiles  # noqa: E402
from meldtour.live import LiveServer, SeatConfig, TableConfig  # noqa: E402
from meldtour.web.app import create_app  # noqa: E402
from meldtour.web.config import Settings  # noqa: E402
from tests.live.helpers import RACK0  # noqa: E402

from .browser import ARGS, CHROMIUM, serve  # noqa: E402

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is missing")

#: The computer (seat 1, first to play) holds seven runs no group can join and one
#: tile that fits nowhere: it puts the seven runs down at once.
SEVEN_RUNS = [
    "k1",
    "k2",
    "k3",
    "r1",
    "r2",
    "r3",
    "o4",
    "o5",
    "o6",
    "b4",
    "b5",
    "b6",
    "r7",
    "r8",
    "r9",
    "b10",
    "b11",
    "b12",
    "k11",
    "k12",
    "k13",
    "o13",
]


def seven_melds_deal() -> Deal:
    racks = (parse_tiles(RACK0), parse_tiles(SEVEN_RUNS))
    rest = list(full_set())
    for t in racks[0] + racks[1]:
        rest.remove(t)
    return Deal(racks, tuple(rest), 1)


@pytest.fixture(scope="module")
def site() -> Iterator[tuple[str, LiveServer, Any]]:
    app = create_app(Settings(env="test"))
    live = LiveServer()
    app.state.live = live
    with serve(app) as base, playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield base, live, browser
        finally:
            browser.close()


def open_table(live: LiveServer, game_id: str) -> None:
    live.create_table(
        TableConfig.make(
            "standard",
            [SeatConfig("human"), SeatConfig("computer", "greedy")],
            deal=seven_melds_deal(),
            turn_seconds=90,
            bot_delay=0.05,
        ),
        game_id,
    )


def sit(page: Any, base: str, game_id: str, lang: str = "en") -> None:
    page.set_default_timeout(15_000)
    page.goto(f"{base}/play/t/{game_id}?lang={lang}")
    page.fill("input[name=name]", "Ann")
    page.locator("#seats button").click()


def test_the_computers_move_is_named_and_the_turn_is_played_from_the_keyboard(
    site: tuple[str, LiveServer, Any],
) -> None:
    base, live, browser = site
    open_table(live, "keys")
    expect = playwright_api.expect
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    sit(page, base, "keys")
    # The computer's seven runs: each tile it put down is highlighted, the log and the
    # strip above the table name them as tiles.
    expect(page.locator("#turn")).to_have_text("Your turn")
    expect(page).to_have_title("● Your turn! · Table · meldtour")
    expect(page.locator("#board .meld")).to_have_count(7)
    expect(page.locator("#board .tile.added")).to_have_count(21)
    play = page.locator("#events li[data-kind=play]")
    expect(play).to_contain_text("Greedy 2 put down")
    expect(play.locator(".tile")).to_have_count(21)
    expect(page.locator("#last-move")).to_contain_text("Greedy 2 put down")
    assert (
        page.locator("#board .tile.added").first.get_attribute("aria-label")
        == "black 1, just put down"
    )
    rack_tile = page.locator("#rack .tile[data-tile=r10]")
    assert rack_tile.get_attribute("aria-label") == "red 10, on your rack"

    # Keyboard only: r10 picked up and put on a new meld; alone it is not a meld yet.
    rack_tile.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#rack .tile.picked")).to_have_count(1)
    page.locator("#board .new-meld").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#board .meld")).to_have_count(8)
    invalid = page.locator("#board .meld.invalid")
    expect(invalid).to_have_count(1)
    expect(invalid).to_have_attribute(
        "title", "[red 10] has fewer than 3 tiles: a meld needs at least 3"
    )
    expect(page.locator("#build")).to_have_text("Toward the initial meld: 0 of 30")
    # Done now is refused, and the notice goes once the corrected turn is accepted.
    page.locator("#b-done").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#notice")).to_contain_text("Refused")
    for t in ("r11", "r12"):
        page.locator(f"#rack .tile[data-tile={t}]").focus()
        page.keyboard.press("Enter")
        page.locator("#board .meld[data-meld='7']").focus()
        page.keyboard.press("Enter")
    expect(page.locator("#board .meld[data-meld='7'] .tile")).to_have_count(3)
    expect(page.locator("#board .meld.invalid")).to_have_count(0)
    expect(page.locator("#build")).to_have_text("Initial meld: 33 points, enough")
    assert (
        page.locator("#board .meld[data-meld='7'] .tile").first.get_attribute("aria-label")
        == "red 10, from your rack"
    )
    page.locator("#b-done").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#events li[data-kind=play]").nth(1)).to_contain_text("Ann put down")
    expect(page.locator("#notice")).to_be_hidden()
    expect(page.locator("#rack .tile")).to_have_count(11)
    # The computer cannot play its last tile: it draws; Ann's three are the last move's.
    expect(page.locator("#events li[data-kind=draw]")).to_contain_text("Greedy 2 drew a tile")
    expect(page).to_have_title("● Your turn! · Table · meldtour")
    expect(page.locator("#board .tile.added")).to_have_count(0)
    # Stepping back: the table after Ann's move, her tiles highlighted; then now again.
    page.click("#b-back")
    expect(page.locator("#board.stepping .tile.added")).to_have_count(3)
    expect(page.locator("#last-move")).to_contain_text("Move 2 of 3")
    page.click("#b-now")
    expect(page.locator("#board.stepping")).to_have_count(0)
    # The signals can be switched off, and stay off.
    page.click("#signals summary")
    page.uncheck("[data-signal=title]")
    expect(page).to_have_title("Table · meldtour")
    page.reload()
    expect(page.locator("#turn")).to_have_text("Your turn")
    expect(page).to_have_title("Table · meldtour")
    page.close()


def finger_drag(page: Any, source: Any, target_selector: str) -> None:
    """A finger drags ``source``: touch, move a little (the drag begins), then over
    the element the page offers then, and lift."""
    a = source.bounding_box()
    assert a
    cdp = page.context.new_cdp_session(page)
    x0, y0 = a["x"] + a["width"] / 2, a["y"] + a["height"] / 2

    def touch(kind: str, x: float, y: float) -> None:
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [{"x": x, "y": y}]})

    touch("touchStart", x0, y0)
    for i in range(1, 4):
        touch("touchMove", x0, y0 - 8 * i)
    b = page.locator(target_selector).bounding_box()
    assert b, f"{target_selector} is not shown while dragging"
    x1, y1 = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
    for i in range(1, 6):
        touch("touchMove", x0 + (x1 - x0) * i / 5, y0 - 24 + (y1 - y0 + 24) * i / 5)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()
    page.wait_for_timeout(400)


def test_a_phone_reaches_the_new_meld_zone_and_undoes_after_a_reload(
    site: tuple[str, LiveServer, Any],
) -> None:
    base, live, browser = site
    open_table(live, "phone7")
    expect = playwright_api.expect
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    page = context.new_page()
    sit(page, base, "phone7")
    expect(page.locator("#board .meld")).to_have_count(7)
    expect(page.locator("#turn")).to_have_text("Your turn")
    # With seven melds down the board's own zone is below the rack's panel; the panel
    # offers one while a tile is dragged, and a drop there is no tap on Undo.
    finger_drag(page, page.locator("#rack .tile[data-tile=r10]"), "#dock")
    expect(page.locator("#board .meld")).to_have_count(8)
    expect(page.locator("#rack .tile")).to_have_count(13)
    expect(page.locator("#board .meld.invalid")).to_have_count(1)  # the draft is checked
    expect(page.locator("#dock")).to_be_hidden()
    # A reload mid-turn: the draft is back, and Undo and Reset still work.
    page.reload()
    expect(page.locator("#board .meld")).to_have_count(8)
    expect(page.locator("#b-undo")).to_be_enabled()
    expect(page.locator("#b-reset")).to_be_enabled()
    page.click("#b-undo")
    expect(page.locator("#board .meld")).to_have_count(7)
    expect(page.locator("#rack .tile")).to_have_count(14)
    # A sort stays on: the tile drawn goes to its place, outlined as new.
    page.click("#b-number")
    page.click("#b-draw")
    expect(page.locator("#rack .tile")).to_have_count(15)
    expect(page.locator("#rack .tile.fresh")).to_have_count(1)
    tiles = page.eval_on_selector_all("#rack .tile", "ts => ts.map(t => t.dataset.tile)")
    key = [(99, 99) if t == "J" else (int(t[1:]), "krob".index(t[0])) for t in tiles]
    assert key == sorted(key), tiles
    context.close()


def test_a_finished_games_page_finds_its_score_once_the_server_forgot_it(
    site: tuple[str, LiveServer, Any],
) -> None:
    base, live, browser = site
    racks = (parse_tiles(["r10", "r11", "r12"]), parse_tiles(SEVEN_RUNS[:14]))
    rest = list(full_set())
    for t in racks[0] + racks[1]:
        rest.remove(t)
    live.create_table(
        TableConfig.make(
            "standard",
            [SeatConfig("human"), SeatConfig("computer", "greedy")],
            deal=Deal(racks, tuple(rest), 0),
        ),
        "over",
    )
    expect = playwright_api.expect
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    sit(page, base, "over")
    for t in ("r10", "r11", "r12"):
        page.locator(f"#rack .tile[data-tile={t}]").focus()
        page.keyboard.press("Enter")
        page.locator("#board .new-meld" if t == "r10" else "#board .meld").first.focus()
        page.keyboard.press("Enter")
    page.click("#b-done")
    expect(page.locator("#result h2")).to_have_text("Winner: Ann")
    expect(page.locator("#result .tiles").nth(1).locator(".tile")).to_have_count(14)
    # A restart: the server holds the game no more (its log has the score) and the
    # page's socket drops. The page does not say "reconnecting" for ever: it goes to
    # the score.
    game = live.games.pop("over")
    for sub in list(game.subscribers):
        sub.send({"type": "closing", "reason": "restart"})
    page.wait_for_url(f"{base}/play/t/over/score", timeout=10_000)
    page.close()
