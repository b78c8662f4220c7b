"""Online players in Debian's Chromium (issue 29), several browser contexts on one
app whose games are logged in its database:

- three strangers press quick play and are seated at one table, a computer player
  filling the fourth seat after their (short) wait;
- two players create accounts, sit at one table and play it to its end (Ann goes out
  on her first turn, dragging her tiles): both ratings move, shown on their pages,
  in the lobby and at the table;
- screenshots of the pages at 390 and 1280 px in Korean and Japanese (``shots/``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .browser import ARGS, CHROMIUM, drag, serve

playwright_api = pytest.importorskip("playwright.sync_api")
if not CHROMIUM.exists():
    pytest.skip("Debian's Chromium is not installed", allow_module_level=True)

from playwright.sync_api import Browser, BrowserContext, Page, expect  # noqa: E402

from meldtour.application import online_rating as ratings  # noqa: E402
from meldtour.core.state import Deal  # noqa: E402
from meldtour.core.tiles import full_set, parse_tiles  # noqa: E402
from meldtour.live import SeatConfig, TableConfig  # noqa: E402
from meldtour.live.quickplay import QuickPlay  # noqa: E402
from meldtour.web.app import create_app  # noqa: E402
from meldtour.web.config import Settings  # noqa: E402

SHOTS = Path(__file__).resolve().parents[2] / "shots"
PASSWORD = "a long enough password"


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    url = f"sqlite:///{tmp_path_factory.mktemp('online') / 'm.db'}"
    app = create_app(Settings(env="test", database_url=url))
    app.state.quickplay = QuickPlay(
        app.state.live, lambda: app.state.director.store(), bot_delay=0.3
    )
    with serve(app) as base:
        yield base, app


def context(browser: Browser, base: str, lang: str = "en", width: int = 1280) -> BrowserContext:
    ctx = browser.new_context(
        base_url=base,
        locale={"ko": "ko-KR", "ja": "ja-JP", "en": "en-GB"}[lang],
        viewport={"width": width, "height": 800 if width > 400 else 844},
        extra_http_headers={"Accept-Language": lang},
    )
    ctx.set_default_timeout(20_000)
    return ctx


def sign_up(page: Page, name: str) -> int:
    page.goto("/play/signup?lang=en")
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", PASSWORD)
    page.fill("input[name=again]", PASSWORD)
    page.click("#signup button")
    expect(page.locator("#who")).to_have_text(name)
    found = re.search(r"/play/p/(\d+)", page.url)
    assert found, page.url
    return int(found.group(1))


def test_three_strangers_quick_play_and_a_computer_fills(
    browser: Browser, site: tuple[str, Any]
) -> None:
    base, app = site
    contexts = [context(browser, base) for _ in range(3)]
    try:
        pages = [c.new_page() for c in contexts]
        for i, page in enumerate(pages):
            page.goto("/play?lang=en")
            page.click("#quick-play")
            page.select_option("select[name=preset]", "standard")
            page.fill("input[name=turn_seconds]", "45")
            page.fill("input[name=wait]", "6")
            page.fill("input[name=name]", f"Stranger {i + 1}")
            page.click("#play")
            expect(page.locator("#quick-status")).to_contain_text("Players waiting")
        expect(pages[0].locator("#quick-status")).to_contain_text("Players waiting: 3")
        for page in pages:
            page.wait_for_url(re.compile(r"/play/t/[\w-]+$"), timeout=30_000)
        urls = {p.url for p in pages}
        assert len(urls) == 1, urls
        gid = urls.pop().rsplit("/", 1)[1]
        game = app.state.live.get(gid)
        assert game is not None
        kinds = [s.kind for s in game.config.seats]
        assert kinds == ["human", "human", "human", "computer"]
        assert game.config.rules.turn_seconds == 45
        # Each page holds its own seat: it sees its own rack, and the others' names.
        for page in pages:
            expect(page.locator("#rack .tile")).to_have_count(14)
            expect(page.locator("#players li")).to_have_count(4)
        # The table shows the computer's fixed rating.
        expect(pages[0].locator("#seat-ratings")).to_contain_text(
            str(ratings.COMPUTER_RATINGS[game.config.seats[3].level or ""])
        )
    finally:
        for c in contexts:
            c.close()


def one_meld_deal() -> Deal:
    racks = (parse_tiles(["r10", "r11", "r12"]), parse_tiles(["k1", "o5"]))
    rest = list(full_set())
    for t in racks[0] + racks[1]:
        rest.remove(t)
    return Deal(racks, tuple(rest), 0)


def test_two_accounts_play_a_rated_game_and_both_ratings_move(
    browser: Browser, site: tuple[str, Any]
) -> None:
    base, app = site
    app.state.live.create_table(
        TableConfig.make(
            "krc-2015", [SeatConfig("human"), SeatConfig("human")], deal=one_meld_deal()
        ),
        "rated1",
    )
    ann_ctx, bo_ctx = context(browser, base), context(browser, base)
    try:
        ann, bo = ann_ctx.new_page(), bo_ctx.new_page()
        ann_id, bo_id = sign_up(ann, "Ann Lee"), sign_up(bo, "Bo Kim")
        for page, name in ((ann, "Ann Lee"), (bo, "Bo Kim")):
            page.goto("/play/t/rated1?lang=en")
            expect(page.locator("#waiting")).to_be_visible()
            page.fill("input[name=name]", name)
            page.click("text=Take this seat")
        expect(ann.locator("#turn")).to_have_text("Your turn")
        # Both accounts' provisional newcomer ratings at the table.
        expect(bo.locator("#seat-ratings")).to_contain_text("Ann Lee 1500?")
        rack = ann.locator("#rack")
        drag(ann, rack.locator(".tile[data-tile=r10]"), ann.locator(".new-meld"))
        drag(ann, rack.locator(".tile[data-tile=r11]"), ann.locator(".meld").first, at="end")
        drag(ann, rack.locator(".tile[data-tile=r12]"), ann.locator(".meld").first, at="end")
        ann.click("#b-done")
        expect(bo.locator("#events")).to_contain_text("Ann Lee")
        store = app.state.director.store()
        deadline = 200
        while not ratings.book(store)[1] and deadline:  # the result is on its way to the log
            ann.wait_for_timeout(50)
            deadline -= 1
        book, _ = ratings.book(store)
        a, b = book.line(ann_id, "krc-2015/60"), book.line(bo_id, "krc-2015/60")
        assert a is not None and b is not None
        assert a.shown > ratings.NEWCOMER > b.shown
        # Each sees the moved rating on their page, and the lobby shows it.
        ann.goto(f"/play/p/{ann_id}?lang=en")
        expect(ann.locator("#ratings")).to_contain_text(f"{a.shown}?")
        expect(ann.locator("#games")).to_contain_text("1 / 2")
        bo.goto(f"/play/p/{bo_id}?lang=en")
        expect(bo.locator("#ratings")).to_contain_text(f"{b.shown}?")
        expect(bo.locator("#games")).to_contain_text("2 / 2")
        bo.goto("/play?lang=en")
        expect(bo.locator("#my-ratings")).to_contain_text(f"{b.shown}?")
        # Ann's page seen from Bo's browser: public, with her history's chart.
        bo.goto(f"/play/p/{ann_id}?lang=en")
        expect(bo.locator(".rating-chart svg circle")).to_have_count(1)
    finally:
        ann_ctx.close()
        bo_ctx.close()


def shoot(page: Page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


@pytest.mark.parametrize("lang", ["ko", "ja"])
@pytest.mark.parametrize("width", [390, 1280])
def test_screenshots(browser: Browser, site: tuple[str, Any], lang: str, width: int) -> None:
    base, _app = site
    ctx = context(browser, base, lang, width)
    try:
        page = ctx.new_page()
        page.goto(f"/play/signup?lang={lang}")
        shoot(page, f"online-signup-{lang}-{width}")
        name = {"ko": "김하늘", "ja": "佐藤花子"}.get(lang, "Ann Lee")
        page.goto(f"/play/signin?lang={lang}")
        page.fill("input[name=name]", name)
        page.fill("input[name=password]", PASSWORD)
        page.click("#signin button")
        page.wait_for_load_state("domcontentloaded")
        if not re.search(r"/play$", page.url):  # no such account on this worker yet
            sign_up(page, name)
            page.goto(f"/play?lang={lang}")
        page.wait_for_url(re.compile(r"/play(\?lang=\w+)?$"))
        shoot(page, f"online-lobby-{lang}-{width}")
        page.click("#my-page")
        expect(page.locator("#who")).to_have_text(name)
        shoot(page, f"online-player-{lang}-{width}")
        page.goto(f"/play/quick?lang={lang}")
        shoot(page, f"online-quick-{lang}-{width}")
        page.fill("input[name=wait]", "300")
        page.click("#play")
        expect(page.locator("#quick-status")).to_contain_text("1")
        shoot(page, f"online-wait-{lang}-{width}")
        page.click("#leave-queue")
        page.wait_for_url(re.compile(r"/play$"))
    finally:
        ctx.close()
