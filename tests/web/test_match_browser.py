"""A match at one table in a real browser (issue 28's "beyond the app", issue 29's
"a 4-game match's running total"): four games in a row, each ended with a clear
"Rummikub!", the running total under each result, the next game of the match one tap
away, and the final standing by the tournament's rule (wins, then points). Also the
creator's flow: the table's creator gives a name in the lobby and sits at once, and
the invite link fits a phone.

Screenshots go to ``$MELDTOUR_SHOTS`` when it is set."""

from __future__ import annotations

import os
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

#: Seat 0 holds two runs of seven: it goes out on its first turn, every game.
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


def shoot(page: Any, name: str, full: bool = True) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=full)


def context(browser: Any, width: int) -> Any:
    if width < 600:
        made = browser.new_context(
            viewport={"width": width, "height": 844},
            device_scale_factor=2,
            is_mobile=True,
            has_touch=True,
        )
    else:
        made = browser.new_context(viewport={"width": width, "height": 900})
    page = made.new_page()
    page.set_default_timeout(20_000)
    return page


def test_a_four_game_matchs_running_total_and_final_standing(
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
            match_games=4,
        ),
        "m1",
    )
    expect = playwright_api.expect
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = context(browser, 390)
            page.goto(f"{base}/play/t/m1?lang=ko")
            page.fill("input[name=name]", "보라")
            page.locator("#seats button").first.tap()
            ids = []
            for k in range(1, 5):
                page.wait_for_selector("#rack .tile")
                ids.append(page.url.rsplit("/", 1)[1].split("?")[0])
                expect(page.locator("#match-no")).to_have_text(f"4판 중 {k}판")
                watcher = None
                if k == 4:  # a spectator in Japanese at a desk sees the moment too
                    watcher = context(browser, 1280)
                    watcher.goto(f"{base}/play/t/{ids[-1]}?lang=ja")
                    expect(watcher.locator("#watching")).to_be_visible()
                page.locator("#b-hint").tap()
                expect(page.locator("#rack .tile")).to_have_count(0)
                page.locator("#b-done").tap()
                # The moment stays 5 s: both pages are seen first (a loaded machine
                # takes seconds over the screenshots), the words read after.
                moment = page.locator("#rummikub")
                seen = watcher.locator("#rummikub") if watcher is not None else None
                if seen is not None:
                    expect(seen).to_be_visible()
                expect(moment).to_be_visible()
                if k == 4:
                    page.wait_for_timeout(500)  # its entrance over
                    assert seen is not None and watcher is not None
                    shoot(watcher, "match-rummikub-1280-ja", full=False)
                    shoot(page, "match-rummikub-390-ko", full=False)
                if seen is not None and watcher is not None:
                    expect(seen).to_contain_text("ラミィキューブ！")
                    expect(seen).to_contain_text("勝者：보라")
                    watcher.context.close()
                expect(moment).to_contain_text("루미큐브!")
                expect(moment).to_contain_text("승자: 보라")
                if k < 4:
                    moment.tap()  # a tap takes it away
                else:  # after the screenshots it may have gone by itself
                    moment.dispatch_event("click")
                match = page.locator("#match")
                heading = "매치 종료: 최종 순위" if k == 4 else f"매치 중간 순위 (4판 중 {k}판까지)"
                expect(match.locator("h3")).to_have_text(heading)
                first = match.locator("tr[data-seat='0']")
                expect(first.locator("td.total")).to_have_text(str(100 * k))
                expect(match.locator("tr[data-seat='1'] td.total")).to_have_text(str(-100 * k))
                expect(first.locator("td").nth(k + 1)).to_have_text("100")
                again = page.locator("#b-rematch")
                if k < 4:
                    expect(again).to_have_text(f"매치 다음 판 (4판 중 {k + 1}판)")
                    if k == 2:  # a reload keeps the total (read from the log)
                        page.reload()
                        expect(page.locator("#match tr[data-seat='0'] td.total")).to_have_text(
                            "200"
                        )
                    page.locator("#b-rematch").tap()
            assert len(set(ids)) == 4
            expect(page.locator("#match .match-winner")).to_have_text("매치 우승: 보라")
            expect(page.locator("#match tr.winner td").nth(1)).to_have_text("보라")
            expect(page.locator("#match tr[data-seat='0'] td").nth(6)).to_have_text("4")  # wins
            expect(page.locator("#b-rematch")).to_have_text("이 테이블에서 새 매치 시작")
            assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
            page.locator("#match").scroll_into_view_if_needed()
            shoot(page, "match-390-ko")
            game = live.get(ids[-1])
            assert game is not None and game.config.match_before == tuple(ids[:3])
            # Everyone's page says the same: another reader, in Japanese, at each width.
            for width, lang in ((1280, "ja"), (390, "ja"), (1280, "ko")):
                other = context(browser, width)
                other.goto(f"{base}/play/t/{ids[-1]}?lang={lang}")
                words = "マッチ終了：最終順位" if lang == "ja" else "매치 종료: 최종 순위"
                expect(other.locator("#match h3")).to_have_text(words)
                expect(other.locator("#match tr[data-seat='0'] td.total")).to_have_text("400")
                wide = other.evaluate("() => document.documentElement.scrollWidth")
                assert wide <= width, f"{wide} px at {width}"
                shoot(other, f"match-{width}-{lang}")
                # The score page, from the log, holds the match's standing too.
                other.goto(f"{base}/play/t/{ids[-1]}/score?lang={lang}")
                expect(other.locator("#match tr[data-seat='0'] td.total")).to_have_text("400")
                expect(other.locator("#match h2")).to_have_text(words)
                wide = other.evaluate("() => document.documentElement.scrollWidth")
                assert wide <= width, f"the score page is {wide} px at {width}"
                shoot(other, f"match-score-{width}-{lang}")
                other.context.close()
        finally:
            browser.close()


@pytest.mark.parametrize(("width", "lang"), [(390, "ko"), (390, "ja"), (1280, "ko"), (1280, "ja")])
def test_the_creator_names_themselves_and_sits_in_one_step(
    site: tuple[str, LiveServer], width: int, lang: str
) -> None:
    base, _live = site
    expect = playwright_api.expect
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = context(browser, width)
            # Against a computer: the game starts as the form is sent.
            page.goto(f"{base}/play?lang={lang}")
            page.select_option("#seat_count", "2")
            page.select_option("select[name=seat1]", "greedy")
            page.select_option("select[name=match_games]", "2")
            expect(page.locator(".seat-choice[data-seat='2']")).to_be_hidden()
            page.fill("#creator input", "보라")
            shoot(page, f"lobby-{width}-{lang}")
            page.locator("#create button[type=submit]").click()
            page.wait_for_selector("#rack .tile")
            expect(page.locator("#waiting")).to_be_hidden()
            expect(page.locator("#players li[data-seat='0']")).to_contain_text("보라")
            expect(page.locator("#match-no")).to_be_visible()
            # With a friend to come: the creator is seated, the invite link fits.
            page.goto(f"{base}/play?lang={lang}")
            page.select_option("#seat_count", "2")
            page.select_option("select[name=seat1]", "human")
            page.fill("#creator input", "보라")
            page.locator("#create button[type=submit]").click()
            invite = page.locator("#invite")
            expect(invite).to_be_visible()
            expect(page.locator("#seats li").first).to_contain_text("보라")
            expect(page.locator("#seats input[name=name]")).to_have_count(0)  # seated
            box = invite.bounding_box()
            assert box is not None and box["x"] + box["width"] <= width, box
            assert page.evaluate("() => document.documentElement.scrollWidth") <= width
            shoot(page, f"invite-{width}-{lang}")
            # The first seat a computer's: no name is asked.
            page.goto(f"{base}/play?lang={lang}")
            page.select_option("select[name=seat0]", "expert")
            expect(page.locator("#creator")).to_be_hidden()
        finally:
            browser.close()
