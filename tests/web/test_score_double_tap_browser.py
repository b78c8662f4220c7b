"""A double tap on 기록지 저장 in Debian's Chromium (issue 27, item 2): the phone
sends the sheet once, and says it is counted — no red "another device" box."""

from __future__ import annotations

import pytest

from .test_e2e_tournament import CHROMIUM, context, shot

playwright_api = pytest.importorskip("playwright.sync_api")
if not CHROMIUM.exists():
    pytest.skip("Debian's Chromium is not installed", allow_module_level=True)

from playwright.sync_api import Browser, Request, expect  # noqa: E402

from meldtour import application as usecases  # noqa: E402
from meldtour.web.director.deps import Web  # noqa: E402

from .test_director_browser import app_web, scorer_link, seated  # noqa: E402,F401
from .test_e2e_tournament import browser  # noqa: E402,F401


def test_a_double_tap_on_save_sends_once_and_says_saved(
    app_web: tuple[str, Web], browser: Browser
) -> None:
    base, web = app_web
    seated(web, "tap")
    link = scorer_link(web, "tap", 1)
    ctx = context(browser, base, "ko", phone=True)
    page = ctx.new_page()
    posts: list[str] = []

    def seen(request: Request) -> None:
        if request.method == "POST" and request.url.split("?")[0].endswith(link):
            posts.append(request.url)

    page.on("request", seen)
    page.goto(link)
    for g, values in {1: (-5, 20, -5, -10), 2: (-8, -8, 24, -8)}.items():
        for s, v in enumerate(values, 1):
            page.locator(f"#p{g}_{s}").fill(str(v))
        page.locator(f'input[name="w{g}"][value="{values.index(max(values)) + 1}"]').check()
    page.locator("#save").dblclick()
    expect(page.locator("#result")).to_contain_text("저장되어 집계에 반영되었습니다")
    page.wait_for_timeout(500)
    expect(page.locator("#theirs")).to_be_hidden()
    assert len(posts) == 1, posts
    shot(page, "score-double-tap-phone")
    sheet, _v, _k = usecases.get_sheet(web.store(), "tap", None, 1, 1)
    assert sheet.counted is not None and sheet.counted[1].points == (-8, -8, 24, -8)
    ctx.close()
