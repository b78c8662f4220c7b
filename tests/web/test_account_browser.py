"""A director's account in Debian's Chromium (issue 26, finding 11): bee changes his
password from the dashboard's "your account" link, and a copy of his session cookie
(another browser holding it) is signed out at once while his own stays; the
administrator disables an account with a button of the accounts list, and that
account's browser is signed out. Screenshots of the account page at 390 and 1280 px
in Korean and Japanese go to ``shots/`` (not committed)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .browser import serve
from .test_e2e_tournament import CHROMIUM

playwright_api = pytest.importorskip("playwright.sync_api")
if not CHROMIUM.exists():
    pytest.skip("Debian's Chromium is not installed", allow_module_level=True)

from playwright.sync_api import Browser, BrowserContext, Page, expect  # noqa: E402

from meldtour.web.app import create_app  # noqa: E402
from meldtour.web.config import Settings  # noqa: E402
from meldtour.web.director import accounts  # noqa: E402
from meldtour.web.director.deps import Web  # noqa: E402

from .test_e2e_tournament import browser  # noqa: E402,F401  (the module's browser)
from .test_venue_browser import shoot  # noqa: E402

ADMIN_PASSWORD = "the administrator's password"
PASSWORD = "bee's first password"
NEW_PASSWORD = "bee's second password"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    settings = Settings(env="test")
    app = create_app(settings)
    web = Web(settings, url=f"sqlite:///{tmp_path_factory.mktemp('account') / 'm.db'}")
    app.state.director = web
    store = web.store()
    accounts.create(store, "boss", ADMIN_PASSWORD)  # the administrator
    for name in ("bee", "wasp"):
        accounts.create(store, name, PASSWORD)
    with serve(app) as base:
        yield base


def new_context(
    browser: Browser,
    base: str,
    lang: str = "ko",
    width: int = 1280,
) -> BrowserContext:
    ctx = browser.new_context(
        base_url=base,
        locale={"ko": "ko-KR", "ja": "ja-JP"}[lang],
        viewport={"width": width, "height": 720 if width > 400 else 844},
        extra_http_headers={"Accept-Language": lang},
    )
    ctx.set_default_timeout(10_000)
    return ctx


def sign_in(page: Page, name: str, password: str) -> None:
    page.goto("/director/login")
    page.locator("input[name=name]").fill(name)
    page.locator("input[name=password]").fill(password)
    page.locator("form[action='/director/login'] button").click()
    page.wait_for_load_state()


def signed_in(page: Page) -> bool:
    page.goto("/director")
    return "/director/login" not in page.url


def test_change_the_password_signs_out_a_copied_cookie(
    browser: Browser,
    site: str,
) -> None:
    mine = new_context(browser, site)
    page = mine.new_page()
    sign_in(page, "bee", PASSWORD)
    assert signed_in(page)
    # someone copies the session cookie into a browser of their own
    theirs = new_context(browser, site)
    theirs.add_cookies(mine.cookies())
    other = theirs.new_page()
    assert signed_in(other)
    # bee: the dashboard's link to his account, the form, the button
    page.goto("/director")
    page.get_by_role("link", name="내 계정").click()
    expect(page.get_by_role("heading", name="비밀번호 바꾸기")).to_be_visible()
    page.locator("input[name=current]").fill(PASSWORD)
    page.locator("input[name=password]").fill(NEW_PASSWORD)
    page.locator("input[name=again]").fill(NEW_PASSWORD)
    page.get_by_role("button", name="비밀번호 바꾸기").click()
    expect(page.locator(".flash")).to_contain_text("비밀번호를 바꿨습니다")
    expect(page.locator(".audit")).to_contain_text("비밀번호를 바꾸고")
    assert signed_in(page)  # his own browser stays signed in
    assert not signed_in(other)  # the copy: sent to sign in
    # the old password no longer opens the account; the new one does
    sign_in(other, "bee", PASSWORD)
    assert not signed_in(other)
    sign_in(other, "bee", NEW_PASSWORD)
    assert signed_in(other)
    mine.close()
    theirs.close()


def test_a_wrong_current_password_is_said_and_changes_nothing(browser: Browser, site: str) -> None:
    ctx = new_context(browser, site, "ja")
    page = ctx.new_page()
    sign_in(page, "wasp", PASSWORD)
    page.goto("/director/account")
    page.locator("input[name=current]").fill("not the password")
    page.locator("input[name=password]").fill(NEW_PASSWORD)
    page.locator("input[name=again]").fill(NEW_PASSWORD)
    page.get_by_role("button", name="パスワードを変更する").click()
    expect(page.locator(".flash")).to_contain_text("現在のパスワードが正しくありません")
    assert signed_in(page)
    ctx.close()


def test_the_administrator_disables_an_account(browser: Browser, site: str) -> None:
    theirs = new_context(browser, site)
    wasp = theirs.new_page()
    sign_in(wasp, "wasp", PASSWORD)
    assert signed_in(wasp)
    ctx = new_context(browser, site)
    page = ctx.new_page()
    sign_in(page, "boss", ADMIN_PASSWORD)
    page.goto("/director/account")
    row = page.locator("#account-list tr", has_text="wasp")
    row.get_by_role("button", name="사용 중지").click()
    expect(page.locator(".flash")).to_contain_text("wasp")
    expect(row).to_contain_text("사용 중지됨")
    assert not signed_in(wasp)
    sign_in(wasp, "wasp", PASSWORD)
    expect(wasp.locator(".flash.error")).to_contain_text("사용 중지된 계정입니다")
    row.get_by_role("button", name="다시 사용").click()
    expect(page.locator(".flash")).to_contain_text("wasp")
    sign_in(wasp, "wasp", PASSWORD)
    assert signed_in(wasp)
    ctx.close()
    theirs.close()


@pytest.mark.parametrize("lang", ["ko", "ja"])
@pytest.mark.parametrize("width", [390, 1280])
def test_account_page_screenshots(
    browser: Browser,
    site: str,
    lang: str,
    width: int,
) -> None:
    ctx = new_context(browser, site, lang, width)
    page = ctx.new_page()
    sign_in(page, "boss", ADMIN_PASSWORD)
    page.goto("/director/account")
    expect(page.locator("form[action='/director/account/password']")).to_be_visible()
    # nothing wider than the screen
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shoot(page, f"account-{lang}-{width}")
    ctx.close()
