"""The hint button in a real browser: at a casual table it lays the solver's best play
on the table as the player's draft, which the player puts back or keeps and plays; at
a tournament's table there is no button, and a hint asked for anyway is refused in
the reader's language."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

from meldtour.live import LiveServer, SeatConfig, TableConfig  # noqa: E402
from tests.live.helpers import known_deal  # noqa: E402

from .browser import ARGS, CHROMIUM, live_site  # noqa: E402

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is missing")


@pytest.fixture()
def site() -> Iterator[tuple[str, LiveServer]]:
    with live_site() as both:
        yield both


def test_hint_at_a_casual_table_and_none_at_a_tournament(site: tuple[str, LiveServer]) -> None:
    base, live = site
    seats = [SeatConfig("human"), SeatConfig("computer", "greedy")]
    live.create_table(
        TableConfig.make("standard", seats, deal=known_deal(), bot_delay=0.3, hints=True), "casual"
    )
    live.create_table(
        TableConfig.make(
            "standard", seats, deal=known_deal(), bot_delay=0.3, hints=True, tournament=True
        ),
        "cup",
    )
    expect = playwright_api.expect
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1100, "height": 900})
            page.set_default_timeout(15_000)
            page.goto(f"{base}/play/t/casual?lang=en")
            page.fill("input[name=name]", "Ann")
            page.click("text=Take this seat")
            expect(page.locator("#turn")).to_have_text("Your turn")
            expect(page.locator("#rack .tile")).to_have_count(14)
            # The hint lays the best play as the draft; putting it back undoes it.
            page.click("#b-hint")
            expect(page.locator("#hint")).to_contain_text("lays 3 tiles")
            expect(page.locator("#board .meld")).to_have_count(1)
            expect(page.locator("#rack .tile")).to_have_count(11)
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "hint-casual.png"))
            page.click("#b-hint-back")
            expect(page.locator("#board .meld")).to_have_count(0)
            expect(page.locator("#rack .tile")).to_have_count(14)
            # Asked again and kept: Done plays it.
            page.click("#b-hint")
            expect(page.locator("#board .meld .tile")).to_have_count(3)
            page.click("#b-hint-keep")
            expect(page.locator("#hint")).to_be_hidden()
            page.click("#b-done")
            expect(
                page.locator("#events li").filter(has_text="Ann put down").locator(".tile")
            ).to_have_count(3)
            expect(page.locator("#rack .tile")).to_have_count(11)

            # A tournament's table: no button; a hint sent anyway is refused, in Korean.
            cup = browser.new_page(viewport={"width": 1100, "height": 900})
            cup.set_default_timeout(15_000)
            cup.goto(f"{base}/play/t/cup?lang=ko")
            cup.fill("input[name=name]", "Bo")
            cup.locator("#seats button").first.click()
            expect(cup.locator("#rack .tile")).to_have_count(14)
            expect(cup.locator("#b-hint")).to_be_hidden()
            cup.evaluate(
                "window.meldtourTable.send({type: 'hint', id: 'x', "
                "version: window.meldtourTable.version()})"
            )
            expect(cup.locator("#hint")).to_have_text("대회 테이블에서는 힌트를 쓸 수 없습니다.")
        finally:
            browser.close()
