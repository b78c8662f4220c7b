"""The one desk in a real browser, in Korean and Japanese: #36 of 초등 고학년부 found
from the 일반부 desk, marked with their division, and checked in there. Screenshots at
390 and 1280 px."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from .test_e2e_tournament import CHROMIUM, context

playwright_api = pytest.importorskip("playwright.sync_api")
if not CHROMIUM.exists():
    pytest.skip("chromium is not installed", allow_module_level=True)

from playwright.sync_api import Browser, expect  # noqa: E402

from meldtour import application as usecases  # noqa: E402
from meldtour.web.app import create_app  # noqa: E402
from meldtour.web.config import Settings  # noqa: E402
from meldtour.web.director import accounts  # noqa: E402
from meldtour.web.director.deps import Web  # noqa: E402

from .browser import serve  # noqa: E402
from .test_e2e_tournament import browser  # noqa: E402,F401  (the module's browser)
from .test_one_desk import busan_in  # noqa: E402

SHOTS = Path(__file__).resolve().parents[2] / "shots"
PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Web, str]]:
    settings = Settings(env="test")
    app = create_app(settings)
    db = tmp_path_factory.mktemp("desk") / "meldtour.db"
    web = Web(settings, url=f"sqlite:///{db}")
    app.state.director = web
    store = web.store()
    account = accounts.create(store, "boss", PASSWORD)
    slug = busan_in(store, account.id)
    with serve(app) as url:
        yield url, web, slug


@pytest.mark.parametrize(
    ("lang", "login", "present"), [("ko", "로그인", "출석"), ("ja", "ログイン", "出席")]
)
def test_one_desk_for_every_division(
    site: tuple[str, Web, str],
    browser: Browser,
    lang: str,
    login: str,
    present: str,
) -> None:
    base, web, slug = site
    SHOTS.mkdir(parents=True, exist_ok=True)
    for phone in (False, True):
        ctx = context(browser, base, lang, phone=phone)
        page = ctx.new_page()
        page.goto("/director/login")
        page.locator('input[name="name"]').fill("boss")
        page.locator('input[name="password"]').fill(PASSWORD)
        page.get_by_role("button", name=login).click()
        page.wait_for_url(re.compile(r"/director$"))
        page.goto(f"/director/t/{slug}/d/general/checkin")
        page.locator('form.search input[name="q"]').fill("36")
        page.locator("form.search button").click()
        row = page.locator("ul.desk li")
        expect(row).to_have_count(1)
        expect(row.locator(".deskdiv.other")).to_have_text("초등 고학년부 (4~6학년)")
        page.screenshot(
            path=str(SHOTS / f"desk-{lang}-{390 if phone else 1280}.png"), full_page=True
        )
        if not phone and lang == "ko":
            row.get_by_role("button", name=present, exact=True).click()
            expect(page.locator("p.flash.ok")).to_be_visible()
            assert usecases.read(web.store(), slug).registration(36).status == "checked_in"
        ctx.close()
