"""The table page's smaller findings of issue 28, each in a real browser: computer
players named by their level in the reader's language on the lobby, score, replay and
analysis pages; the result table on a phone keeps names whole; the game's buttons go
once the game is over; under `japan` the page says what Done on an illegal table costs
before the tap; one penalty tile is said in the singular; the log keeps its history
over a reload; the "back to now" button draws without an emoji font."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

from meldtour.core.state import Deal  # noqa: E402
from meldtour.core.tiles import full_set, parse_tiles  # noqa: E402
from meldtour.live import LiveServer, SeatConfig, TableConfig  # noqa: E402

from .browser import ARGS, CHROMIUM, drag, live_site, touch_drag  # noqa: E402

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is missing")

#: Seat 0 holds two runs of seven (56 points): its whole rack goes down at once.
OUT = ["k1", "k2", "k3", "k4", "k5", "k6", "k7", "r1", "r2", "r3", "r4", "r5", "r6", "r7"]
OTHER = ["b1", "b3", "b5", "b7", "b9", "b11", "b13", "o2", "o4", "o6", "o8", "o10", "o12", "k13"]


def deal() -> Deal:
    racks = (parse_tiles(OUT), parse_tiles(OTHER))
    rest = list(full_set())
    for t in racks[0] + racks[1]:
        rest.remove(t)
    return Deal(racks, tuple(rest), 0)


@pytest.fixture()
def site() -> Iterator[tuple[str, LiveServer]]:
    with live_site() as both:
        yield both


def phone(browser: Any) -> Any:
    page = browser.new_context(
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    ).new_page()
    page.set_default_timeout(20_000)
    return page


def sit(page: Any, base: str, game: str, name: str, lang: str = "ko") -> None:
    page.goto(f"{base}/play/t/{game}?lang={lang}")
    page.fill("input[name=name]", name)
    page.locator("#seats button").first.tap()
    page.wait_for_selector("#rack .tile")


def test_names_the_result_on_a_phone_and_no_buttons_after_the_game(
    site: tuple[str, LiveServer],
) -> None:
    base, live = site
    live.create_table(
        TableConfig.make(
            "krc-2015",
            [SeatConfig("human"), SeatConfig("computer", "greedy")],
            deal=deal(),
            turn_seconds=120,
            bot_delay=0.1,
            hints=True,
        ),
        "out",
    )
    live.create_table(
        TableConfig.make(
            "krc-2015",
            [SeatConfig("computer", "expert"), SeatConfig("computer", "greedy")],
            turn_seconds=120,
            bot_delay=60,
        ),
        "bots",
    )
    expect = playwright_api.expect
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = phone(browser)
            sit(page, base, "out", "보라")
            expect(page.locator("#b-now")).to_have_text("▶▶")  # no emoji font needed
            # The hint lays the whole rack; Done ends the game.
            page.locator("#b-hint").tap()
            expect(page.locator("#rack .tile")).to_have_count(0)
            page.locator("#b-done").tap()
            expect(page.locator("#result")).to_be_visible()
            expect(page.locator("#buttons")).to_be_hidden()
            expect(page.locator("#b-done")).to_be_hidden()
            names = page.locator("#result table.scores tr:not(.why-row) td:first-child")
            expect(names).to_have_count(2)
            expect(names.nth(1)).to_have_text("욕심쟁이 2")
            for i in range(2):  # each name on one line
                lines = names.nth(i).evaluate(
                    "td => { const r = document.createRange(); r.selectNodeContents(td);"
                    " return new Set([...r.getClientRects()].map(x => Math.round(x.top))).size; }"
                )
                assert lines == 1, f"name {i} of the result takes {lines} lines"
            page.locator("#result").scroll_into_view_if_needed()
            page.screenshot(path="/tmp/h7shots/phone-ko-result.png")
            for path in ("score", "replay?step=1", "analysis"):
                page.goto(
                    f"{base}/play/t/out/{path}&lang=ko"
                    if "?" in path
                    else f"{base}/play/t/out/{path}?lang=ko"
                )
                text = page.locator("main").inner_text()
                assert "욕심쟁이 2" in text and "greedy" not in text, f"{path}: {text[:300]}"
            page.goto(f"{base}/play/t/bots?lang=ja")
            expect(page.locator("#players li")).to_have_count(2)
            page.goto(f"{base}/play?lang=ja")
            listed = page.locator("main").inner_text()
            assert "上級 1, 欲張り 2" in listed and "expert" not in listed, listed
        finally:
            browser.close()


def test_japan_says_what_done_costs_one_penalty_tile_and_the_log_after_a_reload(
    site: tuple[str, LiveServer],
) -> None:
    base, live = site
    live.create_table(
        TableConfig.make(
            "japan",
            [SeatConfig("human"), SeatConfig("computer", "greedy")],
            deal=deal(),
            turn_seconds=120,
            bot_delay=0.1,
        ),
        "jp",
    )
    expect = playwright_api.expect
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = phone(browser)
            sit(page, base, "jp", "보라")
            touch_drag(page, page.locator("#rack .tile").first, page.locator(".new-meld"))
            build = page.locator("#build")
            expect(build).to_have_text(
                "테이블이 올바르지 않습니다: 지금 완료하면 턴 실패입니다 (-50점)"
            )
            page.locator("#b-done").tap()
            line = page.locator("#events li[data-kind=draw]").first
            expect(line).to_contain_text("벌칙으로 가져온 타일 한 개")
            expect(page.locator("#events li[data-kind=penalty]")).to_contain_text("-50")
            # More moves than the server resends to a page that opens (12): 보라 draws.
            for _ in range(8):
                page.wait_for_function("() => !document.getElementById('b-draw').disabled")
                held = page.locator("#rack .tile").count()
                page.locator("#b-draw").tap()
                # Her rack grows by the tile drawn (the button, disabled meanwhile, may be
                # enabled again, after the computer's move, before a poll sees it).
                page.wait_for_function(
                    f"() => document.querySelectorAll('#rack .tile').length > {held}"
                )
            page.wait_for_function("() => !document.getElementById('b-draw').disabled")
            before = page.locator("#events li").all_inner_texts()
            assert len(before) > 14
            page.reload()
            page.wait_for_selector("#rack .tile")
            # The first move's lines are older than what the server resends: still there.
            expect(page.locator("#events li[data-kind=illegal_end]")).to_have_count(1)
            after = page.locator("#events li").all_inner_texts()
            assert after[: len(before)] == before, (before, after)
        finally:
            browser.close()


#: Ann holds r10 r11 r12 (her initial meld) and r13, which she adds a turn later.
ANN = ["r10", "r11", "r12", "r13", "b1", "k5", "o7", "k9", "o11", "b13", "k2", "o4", "r6", "b8"]
BO = ["k1", "o2", "r3", "b4", "k6", "o8", "r9", "b10", "k12", "o13", "r1", "b3", "o5", "k7"]


def test_a_tile_added_to_a_meld_is_the_only_one_marked_and_none_moved(
    site: tuple[str, LiveServer],
) -> None:
    base, live = site
    racks = (parse_tiles(ANN), parse_tiles(BO))
    rest = list(full_set())
    for t in racks[0] + racks[1]:
        rest.remove(t)
    live.create_table(
        TableConfig.make(
            "standard",
            [SeatConfig("human"), SeatConfig("human")],
            deal=Deal(racks, tuple(rest), 0),
            turn_seconds=120,
        ),
        "mv",
    )
    expect = playwright_api.expect
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            ann = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
            bo = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
            for page, seat, name in ((ann, 0, "Ann"), (bo, 1, "Bo")):
                page.set_default_timeout(15_000)
                page.goto(f"{base}/play/t/mv?lang=en")
                page.locator("#seats li").nth(seat).locator("input[name=name]").fill(name)
                page.locator("#seats li").nth(seat).locator("button").click()
            for page in (ann, bo):
                page.wait_for_selector("#rack .tile")
            drag(ann, ann.locator('#rack .tile[data-tile="r10"]'), ann.locator(".new-meld"))
            for t in ("r11", "r12"):
                drag(
                    ann,
                    ann.locator(f'#rack .tile[data-tile="{t}"]'),
                    ann.locator("#board .meld").first,
                    at="end",
                )
            ann.click("#b-done")
            expect(bo.locator("#turn")).to_have_text("Your turn")
            expect(bo.locator("#board .tile.added")).to_have_count(3)
            bo.click("#b-draw")
            expect(ann.locator("#turn")).to_have_text("Your turn")
            drag(
                ann,
                ann.locator('#rack .tile[data-tile="r13"]'),
                ann.locator("#board .meld").first,
                at="end",
            )
            ann.click("#b-done")
            expect(bo.locator("#turn")).to_have_text("Your turn")
            # r13 joined a run of three: one tile added, none moved, and the words say so.
            expect(bo.locator("#board .tile.added")).to_have_count(1)
            expect(bo.locator("#board .tile.added")).to_have_attribute("data-tile", "r13")
            expect(bo.locator("#board .tile.moved")).to_have_count(0)
            expect(bo.locator("#last-move")).to_contain_text("Ann put down")
            expect(bo.locator("#last-move")).not_to_contain_text("moved")
        finally:
            browser.close()


#: A third player, Cy, holds k11 k12 k13 (an initial meld of 36).
CY = ["k11", "k12", "k13", "b2", "o1", "r2", "b5", "o9", "r5", "b7", "o3", "r8", "b9", "o6"]


def test_everything_since_ones_own_last_move_is_marked(site: tuple[str, LiveServer]) -> None:
    base, live = site
    racks = (parse_tiles(ANN), parse_tiles(BO), parse_tiles(CY))
    rest = list(full_set())
    for t in racks[0] + racks[1] + racks[2]:
        rest.remove(t)
    live.create_table(
        TableConfig.make(
            "standard",
            [SeatConfig("human")] * 3,
            deal=Deal(racks, tuple(rest), 0),
            turn_seconds=120,
        ),
        "since",
    )
    expect = playwright_api.expect
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            pages = [
                browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
                for _ in range(3)
            ]
            for seat, (page, name) in enumerate(zip(pages, ("Ann", "Bo", "Cy"), strict=True)):
                page.set_default_timeout(15_000)
                page.goto(f"{base}/play/t/since?lang=en")
                page.locator("#seats li").nth(seat).locator("input[name=name]").fill(name)
                page.locator("#seats li").nth(seat).locator("button").click()
            ann, bo, cy = pages
            for page in pages:
                page.wait_for_selector("#rack .tile")

            def meld(page: Any, tiles: list[str]) -> None:
                drag(
                    page,
                    page.locator(f'#rack .tile[data-tile="{tiles[0]}"]'),
                    page.locator(".new-meld"),
                )
                for t in tiles[1:]:
                    drag(
                        page,
                        page.locator(f'#rack .tile[data-tile="{t}"]'),
                        page.locator("#board .meld").last,
                        at="end",
                    )
                page.click("#b-done")

            meld(ann, ["r10", "r11", "r12"])
            expect(bo.locator("#turn")).to_have_text("Your turn")
            bo.click("#b-draw")
            expect(cy.locator("#turn")).to_have_text("Your turn")
            meld(cy, ["k11", "k12", "k13"])
            expect(ann.locator("#turn")).to_have_text("Your turn")
            drag(
                ann,
                ann.locator('#rack .tile[data-tile="r13"]'),
                ann.locator("#board .meld").first,
                at="end",
            )
            ann.click("#b-done")
            expect(bo.locator("#turn")).to_have_text("Your turn")
            # Since Bo drew: Cy's meld and Ann's r13, not only the very last move.
            added = bo.locator("#board .tile.added")
            expect(added).to_have_count(4)
            assert sorted(added.evaluate_all("ts => ts.map(t => t.dataset.tile)")) == [
                "k11",
                "k12",
                "k13",
                "r13",
            ]
            expect(bo.locator("#board .tile.moved")).to_have_count(0)
        finally:
            browser.close()
