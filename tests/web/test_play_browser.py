"""The table page in a real browser (Debian's Chromium through Playwright): a person
sits down, drags tiles from the rack to the table, is told why a move is refused,
makes the initial meld, and runs out of time with a draft on the table — the server
applies the time-out and its penalty."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

from meldtour.live import LiveServer, SeatConfig, TableConfig  # noqa: E402
from tests.live.helpers import known_deal  # noqa: E402

from .browser import ARGS, CHROMIUM, drag, live_site, touch_drag  # noqa: E402

TURN = 12

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is missing")


@pytest.fixture()
def site() -> Iterator[tuple[str, LiveServer]]:
    with live_site() as both:
        yield both


def test_play_by_drag_and_drop_with_a_refusal_and_a_time_out(site: tuple[str, LiveServer]) -> None:
    base, live = site
    live.create_table(
        TableConfig.make(
            "standard",
            [SeatConfig("human"), SeatConfig("computer", "greedy")],
            deal=known_deal(),
            turn_seconds=TURN,
            bot_delay=0.3,
        ),
        "pw",
    )
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
            drag(page, rack.locator(".tile[data-tile=r11]"), page.locator(".meld").first, at="end")
            drag(page, rack.locator(".tile[data-tile=r12]"), page.locator(".meld").first, at="end")
            expect(page.locator(".meld").first.locator(".tile")).to_have_count(3)
            page.click("#b-done")
            expect(page.locator("#events li[data-kind=play]")).to_contain_text("Ann put down")
            expect(page.locator("#events li[data-kind=play] .tile")).to_have_count(3)
            expect(page.locator("#rack .tile")).to_have_count(11)
            # The computer player moves; then it is Ann's turn again.
            expect(page.locator("#events")).to_contain_text("Greedy 2")
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
                "Time ran out for Ann", timeout=(TURN + 5) * 1000
            )
            expect(page.locator("#events")).to_contain_text("the table goes back as it was")
            expect(page.locator("#notice")).to_be_visible()
            expect(page.locator("#rack .tile")).to_have_count(14)
            expect(page.locator("#board .meld")).to_have_count(1)
            # The three penalty tiles are outlined as newly drawn, not the b1 given back.
            expect(page.locator("#rack .tile.fresh")).to_have_count(3)
        finally:
            browser.close()
    game = live.get("pw")
    assert game is not None and game.state is not None
    actions = [m.action for m in game.state.history]
    assert actions[0] == "play" and "timeout" in actions


#: Under krc-2015 seed 19 deals seat 0 three doubles (seat 1 one) and seat 1 starts.
REDEAL_SEED = 19


def rack_of(page: object) -> list[str]:
    return page.eval_on_selector_all(  # type: ignore[attr-defined,no-any-return]
        "#rack .tile", "ts => ts.map(t => t.dataset.tile)"
    )


def test_a_phone_touch_drags_sorts_out_of_turn_and_demands_a_redeal(
    site: tuple[str, LiveServer],
) -> None:
    base, live = site
    live.create_table(
        TableConfig.make(
            "krc-2015",
            [SeatConfig("human"), SeatConfig("human")],
            seed=REDEAL_SEED,
            turn_seconds=60,
        ),
        "phone",
    )
    expect = playwright_api.expect
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            phone = browser.new_context(
                viewport={"width": 390, "height": 844},
                device_scale_factor=2,
                is_mobile=True,
                has_touch=True,
            ).new_page()
            desk = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
            for page, seat, name in ((phone, 0, "Ann"), (desk, 1, "Bo")):
                page.set_default_timeout(15_000)
                page.goto(f"{base}/play/t/phone?lang=en")
                form = page.locator("#seats li").nth(seat).locator("form")
                form.locator("input[name=name]").fill(name)
                form.locator("button").click()
            expect(desk.locator("#turn")).to_have_text("Your turn")
            expect(phone.locator("#turn")).to_have_text("Bo's turn")
            expect(phone.locator("#pool")).to_have_text("Pool: 78")
            expect(phone.locator("#players li[data-seat='1'] .count")).to_have_text("14 tiles")
            expect(phone.locator("#clock")).to_be_visible()
            expect(phone.locator("#clockbar")).to_be_visible()

            # Arranging the rack during someone else's turn: a finger moves the first
            # tile to the end, then one tap sorts by colour.
            first = rack_of(phone)
            touch_drag(phone, phone.locator("#rack .tile").first, phone.locator("#rack"), at="end")
            expect(phone.locator("#rack .tile").last).to_have_attribute("data-tile", first[0])
            assert sorted(rack_of(phone)) == sorted(first)
            phone.click("#b-colour")
            by_colour = sorted(
                first, key=lambda t: (9, 0) if t == "J" else ("krob".index(t[0]), int(t[1:]))
            )
            phone.wait_for_function(
                "want => [...document.querySelectorAll('#rack .tile')]"
                ".map(t => t.dataset.tile).join(' ') === want",
                arg=" ".join(by_colour),
            )

            # The redeal right: Ann holds three doubles before anyone's first turn, so
            # her page offers it (Bo's, with one double, does not); two taps demand it.
            redeal = phone.locator("#b-redeal")
            expect(redeal).to_be_visible()
            expect(redeal).to_have_text("Demand a new deal (3 doubles)")
            expect(desk.locator("#b-redeal")).to_be_hidden()
            redeal.click()
            expect(redeal).to_contain_text("demand a new deal for everyone?")
            redeal.click()
            expect(phone.locator("#events")).to_contain_text("Ann demanded a new deal")
            expect(desk.locator("#events")).to_contain_text("Ann demanded a new deal")
            game = live.get("phone")
            assert game is not None and game.state is not None and game.state.deal_no == 1
            expect(phone.locator("#rack .tile")).to_have_count(14)
            assert (
                sorted(rack_of(phone))
                == sorted(str(t) for t in game.state.racks[0])
                != sorted(first)
            )
            expect(desk.locator("#turn")).to_have_text("Your turn")  # the order stays

            # Bo draws; on her turn Ann drags a tile to the table with her finger, and
            # takes it back with Undo.
            desk.click("#b-draw")
            expect(phone.locator("#turn")).to_have_text("Your turn")
            expect(phone.locator("#clock")).to_have_class("clock mine")
            touch_drag(phone, phone.locator("#rack .tile").first, phone.locator(".new-meld"))
            expect(phone.locator("#board .meld")).to_have_count(1)
            expect(phone.locator("#rack .tile")).to_have_count(13)
            phone.click("#b-undo")
            expect(phone.locator("#board .meld")).to_have_count(0)
            expect(phone.locator("#rack .tile")).to_have_count(14)
            expect(phone.locator("#b-reset")).to_be_disabled()
            # Two tiles down, then Reset: the table and the rack as the turn began.
            before = rack_of(phone)
            touch_drag(phone, phone.locator("#rack .tile").first, phone.locator(".new-meld"))
            touch_drag(
                phone,
                phone.locator("#rack .tile").first,
                phone.locator("#board .meld").first,
                at="end",
            )
            expect(phone.locator("#board .meld .tile")).to_have_count(2)
            phone.click("#b-reset")
            expect(phone.locator("#board .meld")).to_have_count(0)
            assert rack_of(phone) == before
        finally:
            browser.close()
