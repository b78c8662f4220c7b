"""The rest of issue 28's smaller findings, in a real browser: keyboard play with the
arrow keys and single keys (D, X, Z, S, N, A; never while typing in a field), and
how few keys an initial meld takes now; the players' chips in turn order; the "new
tile" outline cleared at the end of the player's next turn; the hint counted per
turn, said on its button; the result saying why a rack counts what it counts.

Screenshots go to ``$MELDTOUR_SHOTS`` when it is set."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

from meldtour.core.state import Deal  # noqa: E402
from meldtour.core.tiles import full_set, parse_tiles  # noqa: E402
from meldtour.live import LiveServer, SeatConfig, TableConfig  # noqa: E402

from .browser import ARGS, CHROMIUM, live_site  # noqa: E402

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is missing")
SHOTS = os.environ.get("MELDTOUR_SHOTS")

#: Ann holds r10 r11 r12 (her initial meld) among tiles that make nothing else.
ANN = ["r10", "r11", "r12", "r13", "b1", "k5", "o7", "k9", "o11", "b13", "k2", "o4", "r6", "b8"]
BO = ["k1", "o2", "r3", "b4", "k6", "o8", "r9", "b10", "k12", "o13", "r1", "b3", "o5", "k7"]
CY = ["k3", "o3", "b5", "k8", "o9", "r2", "b6", "k10", "o1", "r4", "b9", "k11", "o12", "r8"]
#: Seat 0 holds two runs of seven: its whole rack goes down at once.
OUT = ["k1", "k2", "k3", "k4", "k5", "k6", "k7", "r1", "r2", "r3", "r4", "r5", "r6", "r7"]
OTHER = ["b1", "b3", "b5", "b7", "b9", "b11", "b13", "o2", "o4", "o6", "o8", "o10", "o12", "J"]


def deal(*racks_: list[str], first: int = 0) -> Deal:
    racks = tuple(parse_tiles(r) for r in racks_)
    rest = list(full_set())
    for rack in racks:
        for t in rack:
            rest.remove(t)
    return Deal(racks, tuple(rest), first)


@pytest.fixture()
def site() -> Iterator[tuple[str, LiveServer]]:
    with live_site() as both:
        yield both


def shoot(page: Any, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def desk(browser: Any, width: int = 1280) -> Any:
    page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    page.set_default_timeout(20_000)
    return page


def phone(browser: Any) -> Any:
    page = browser.new_context(
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    ).new_page()
    page.set_default_timeout(20_000)
    return page


def sit(page: Any, base: str, game: str, name: str, lang: str) -> None:
    page.goto(f"{base}/play/t/{game}?lang={lang}")
    page.fill("input[name=name]", name)
    page.locator("#seats button").first.click()
    page.wait_for_selector("#rack .tile")


def focused(page: Any) -> str:
    return str(page.evaluate("() => document.activeElement.dataset.key || ''"))


def board(page: Any) -> list[list[str]]:
    return page.evaluate(  # type: ignore[no-any-return]
        "() => [...document.querySelectorAll('#board .meld')]"
        ".map(m => [...m.querySelectorAll('.tile')].map(t => t.dataset.tile))"
    )


@pytest.mark.parametrize("lang", ["ko", "ja"])
def test_an_initial_meld_by_keyboard_in_ten_keys(site: tuple[str, LiveServer], lang: str) -> None:
    base, live = site
    live.create_table(
        TableConfig.make(
            "krc-2015",
            [SeatConfig("human"), SeatConfig("computer", "greedy")],
            deal=deal(ANN, BO),
            turn_seconds=300,
            bot_delay=30,
        ),
        "keys",
    )
    expect = playwright_api.expect
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = desk(browser)
            sit(page, base, "keys", "보라", lang)
            hint = page.locator("#keys-hint")
            expect(hint).to_be_visible()
            expect(hint).to_contain_text(re.compile("D[:：].*S[:：]"))
            # A key typed in a field does nothing at the table (another part of the
            # page, such as a search box, holds the text).
            page.evaluate(
                "() => { const i = document.createElement('input'); i.id = 'field';"
                " document.body.append(i); }"
            )
            page.locator("#field").type("dxzsna")
            expect(page.locator("#b-done")).to_be_enabled()
            assert page.locator("#board .meld").count() == 0
            page.locator("#field").evaluate("el => { el.blur(); el.remove(); }")
            presses = 0

            def key(name: str) -> None:
                nonlocal presses
                presses += 1
                page.keyboard.press(name)

            key("s")  # sorted by colour: k2 k5 k9 r6 r10 r11 r12 r13 o4 …
            key("ArrowRight")  # nothing focused: the rack's first tile
            assert focused(page) == "rack:0"
            for _ in range(4):
                key("ArrowRight")
            assert focused(page) == "rack:4"
            key("n")  # r10 starts a new meld; the focus stays on the rack (now r11)
            assert board(page) == [["r10"]] and focused(page) == "rack:4"
            key("a")
            key("a")
            assert board(page) == [["r10", "r11", "r12"]], board(page)
            expect(page.locator("#build")).to_contain_text("33")
            # The arrows reach the table: up to the meld, along it, and back down.
            page.keyboard.press("ArrowUp")
            assert focused(page) == "meld:0:2"
            page.keyboard.press("ArrowLeft")
            assert focused(page) == "meld:0:1"
            page.keyboard.press("ArrowDown")
            assert focused(page) == "new"
            page.keyboard.press("ArrowDown")
            assert focused(page).startswith("rack:")
            # Z takes the last step back, N and A put it again.
            page.keyboard.press("z")
            assert board(page) == [["r10", "r11"]]
            page.keyboard.press("a")
            shoot(page, f"keys-1280-{lang}")
            key("d")
            expect(page.locator("#events")).to_contain_text("보라")
            expect(page.locator("#b-done")).to_be_disabled()
            game = live.get("keys")
            assert game is not None and game.state is not None and game.state.melded[0]
            # The issue counted 158 + 97 key presses for an initial meld.
            assert presses == 10, presses
            print(f"initial meld by keyboard: {presses} key presses")
        finally:
            browser.close()


def test_chips_in_turn_order_the_new_tile_outline_and_hints_per_turn(
    site: tuple[str, LiveServer],
) -> None:
    base, live = site
    # Under japan, seat 1 plays first: the chips read 1, 2, 0 (the order of play).
    live.create_table(
        TableConfig.make(
            "japan",
            [
                SeatConfig("human"),
                SeatConfig("computer", "beginner"),
                SeatConfig("computer", "beginner"),
            ],
            deal=deal(ANN, BO, CY, first=1),
            turn_seconds=120,
            bot_delay=0.1,
            hints=True,
        ),
        "jp",
    )
    expect = playwright_api.expect
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = phone(browser)
            sit(page, base, "jp", "보라", "ko")
            order = page.evaluate(
                "() => [...document.querySelectorAll('#players li')].map(li => li.dataset.seat)"
            )
            assert order == ["1", "2", "0"], order
            # The hint: its rule on its button, counted down within the turn.
            expect(page.locator("#b-done")).to_be_enabled()
            hint = page.locator("#b-hint")
            expect(hint).to_have_text("힌트 (한 턴에 3번)")
            hint.tap()
            expect(hint).to_have_text("힌트 (이번 턴 3번 중 2번 남음)")
            page.locator("#b-hint-back").tap()
            # A draw: the tile drawn is outlined as new.
            page.locator("#b-draw").tap()
            fresh = page.locator("#rack .tile.fresh")
            expect(fresh).to_have_count(1)
            first_drawn = fresh.first.get_attribute("data-tile")
            shoot(page, "fresh-390-ko")
            # The next turn: the outline stays while it is ours, the hint count is new.
            expect(page.locator("#b-done")).to_be_enabled()
            expect(fresh).to_have_count(1)
            expect(hint).to_have_text("힌트 (한 턴에 3번)")
            page.locator("#b-draw").tap()
            # That turn's end takes the first outline off; the tile just drawn has it.
            page.wait_for_function("() => document.getElementById('b-done').disabled")
            expect(fresh).to_have_count(1)
            assert fresh.first.get_attribute("data-tile") != first_drawn
            shoot(page, "chips-390-ko")
            # Every reader sees the chips in the order of play.
            for width, lang in ((1280, "ko"), (1280, "ja"), (390, "ja")):
                other = desk(browser, width) if width > 600 else phone(browser)
                other.goto(f"{base}/play/t/jp?lang={lang}")
                expect(other.locator("#players li")).to_have_count(3)
                seen = other.evaluate(
                    "() => [...document.querySelectorAll('#players li')].map(li => li.dataset.seat)"
                )
                assert seen == ["1", "2", "0"], seen
                shoot(other, f"chips-{width}-{lang}")
                other.context.close()
        finally:
            browser.close()


@pytest.mark.parametrize("lang", ["ko", "ja"])
def test_the_result_says_why_a_rack_counts(site: tuple[str, LiveServer], lang: str) -> None:
    base, live = site
    live.create_table(
        TableConfig.make(
            "krc-2015",
            [SeatConfig("human"), SeatConfig("computer", "greedy")],
            deal=deal(OUT, OTHER),
            turn_seconds=120,
            bot_delay=0.1,
            hints=True,
        ),
        "why",
    )
    expect = playwright_api.expect
    words = {
        "ko": ("이유: 등록 못 함: 100점", "조커는 50점", "루미큐브!"),
        "ja": ("理由: 最初のプレーなし：100点", "ジョーカーは50点", "ラミィキューブ！"),
    }[lang]
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            for width, page in ((390, phone(browser)), (1280, desk(browser))):
                if width == 390:
                    sit(page, base, "why", "보라", lang)
                    page.locator("#b-hint").tap()
                    expect(page.locator("#rack .tile")).to_have_count(0)
                    page.locator("#b-done").tap()
                    moment = page.locator("#rummikub")
                    expect(moment).to_be_visible()
                    expect(moment).to_contain_text(words[2])
                    expect(moment).to_contain_text("보라")
                    if SHOTS:  # the moment as the phone shows it (the screen, not the page)
                        page.screenshot(path=str(Path(SHOTS) / f"rummikub-390-{lang}.png"))
                    moment.tap()
                    expect(moment).to_be_hidden()
                else:
                    page.goto(f"{base}/play/t/why?lang={lang}")
                    expect(page.locator("#rummikub")).to_be_hidden()  # not on a later visit
                result = page.locator("#result")
                expect(result).to_be_visible()
                expect(result.locator("tr.why-row[data-seat='1'] td")).to_have_text(words[0])
                expect(result.locator(".why-rule")).to_contain_text(words[1])
                wide = page.evaluate("() => document.documentElement.scrollWidth")
                assert wide <= width, f"the result is {wide} px wide at {width}"
                result.scroll_into_view_if_needed()
                shoot(page, f"why-{width}-{lang}")
        finally:
            browser.close()
