"""The venue in Debian's Chromium: the projector's seat lists page through by
themselves (the page's clock fast-forwarded with Playwright's clock), and the public
address is set from the laptop's network addresses and checked by decoding the test QR
code (zbar) and opening it. Screenshots of the new pages at 390 and 1280 px in Korean
and Japanese go to ``shots/`` (not committed)."""

from __future__ import annotations

import datetime as dt
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from .browser import serve
from .test_e2e_tournament import CHROMIUM

playwright_api = pytest.importorskip("playwright.sync_api")
if not CHROMIUM.exists():
    pytest.skip("Debian's Chromium is not installed", allow_module_level=True)

from playwright.sync_api import Browser, Page, expect  # noqa: E402

from meldtour import application as usecases  # noqa: E402
from meldtour.tournament.collation import name_key  # noqa: E402
from meldtour.web.address import network_addresses  # noqa: E402
from meldtour.web.app import create_app  # noqa: E402
from meldtour.web.config import Settings  # noqa: E402
from meldtour.web.director.deps import Web  # noqa: E402

from .test_e2e_tournament import browser  # noqa: E402,F401  (the module's browser)

SHOTS = Path(__file__).resolve().parents[2] / "shots"
FAMILY = "김이박최정강조윤장임한오서신권황안송류홍"
GIVEN = [
    "민준",
    "서연",
    "하준",
    "지우",
    "도윤",
    "수아",
    "시우",
    "하은",
    "예준",
    "지호",
    "서준",
    "유진",
    "은비",
    "태양",
]
PASSWORD = "a long secret 1"


def names(n: int) -> list[str]:
    out: list[str] = []
    i = 0
    while len(out) < n:
        name = FAMILY[i % len(FAMILY)] + GIVEN[(i * 5) % len(GIVEN)]
        if name not in out:
            out.append(name)
        i += 1
    return out


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, Web]]:
    """The app on every interface (as a venue laptop runs it), a 64-player division
    seated; the port and the app's state."""
    settings = Settings(env="test")
    app = create_app(settings)
    web = Web(settings, url=f"sqlite:///{tmp_path_factory.mktemp('venue') / 'm.db'}")
    app.state.director = web
    store = web.store()
    usecases.create_tournament(store, "busan-2015", who="d", seed=5, slug="busan", name="부산 대회")
    usecases.register_players(
        store, "busan", [usecases.PlayerEntry(n, "general") for n in names(64)], who="d"
    )
    usecases.check_in_players(store, "busan", [], who="d", everyone_but=True)
    usecases.seat(store, "busan", "general", 1, who="d")
    with serve(app, host="0.0.0.0") as base:
        yield int(base.rsplit(":", 1)[1]), web


def new_page(
    browser: Browser,
    base: str,
    lang: str,
    width: int,
    clock: dt.datetime | None = None,
) -> Page:
    ctx = browser.new_context(
        base_url=base,
        locale={"ko": "ko-KR", "ja": "ja-JP"}[lang],
        viewport={"width": width, "height": 720 if width > 400 else 844},
        extra_http_headers={"Accept-Language": lang},
    )
    ctx.set_default_timeout(10_000)
    page = ctx.new_page()
    if clock is not None:
        # The page's clock stands still at ``clock`` until the test moves it on.
        page.clock.install(time=clock - dt.timedelta(seconds=1))
        page.clock.pause_at(clock)
    return page


def shoot(page: Page, name: str, full: bool = True) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full)


def test_projector_pages_through_by_itself(site: tuple[int, Web], browser: Browser) -> None:
    port, _ = site
    base = f"http://127.0.0.1:{port}"
    at = dt.datetime(2026, 12, 5, 10, 30, 0)
    page = new_page(browser, base, "ko", 1280, clock=at)
    page.goto("/t/busan/seats/names?division=general")
    expect(page.locator("header.bar")).to_have_count(0)  # no site menu
    expect(page.locator("h1")).to_contain_text("1라운드")
    expect(page.locator("#clock")).to_have_text("10:30:00")
    box = page.locator("#paged")
    pages = int(box.get_attribute("data-pages") or 0)
    assert pages >= 2, pages  # 64 names on a 720 px screen
    everyone = page.locator("ol.names li .who").all_inner_texts()
    assert len(everyone) == 64
    keys = [name_key(w.rsplit(" #", 1)[0], "ko") for w in everyone]
    assert keys == sorted(keys)  # 가나다순
    first = page.locator("ol.names li:visible").first.inner_text()
    expect(page.locator("#pagecount")).to_have_text(f"1 / {pages}")
    shoot(page, "projector-names-ko-1280", full=False)
    page.clock.run_for(12_500)  # one page's time
    expect(box).to_have_attribute("data-page", "2")
    expect(page.locator("#clock")).to_have_text("10:30:12")
    assert page.locator("ol.names li:visible").first.inner_text() != first
    page.clock.run_for(12_000 * pages)  # round and round
    expect(box).to_have_attribute("data-page", "2")
    page.context.close()

    for lang, width in (("ja", 1280), ("ko", 390), ("ja", 390)):
        page = new_page(browser, base, lang, width, clock=at)
        page.goto("/t/busan/seats/names?division=general")
        expect(page.locator("#clock")).to_have_text("10:30:00")
        assert int(page.locator("#paged").get_attribute("data-pages") or 0) >= 2
        shoot(page, f"projector-names-{lang}-{width}", full=False)
        page.goto("/t/busan/seats?division=general")
        tables = int(page.locator("#paged").get_attribute("data-pages") or 0)
        assert tables >= 2  # 16 tables
        page.clock.run_for(12_500)
        expect(page.locator("#paged")).to_have_attribute("data-page", "2")
        shoot(page, f"projector-tables-{lang}-{width}", full=False)
        page.context.close()


def sign_up(page: Page) -> None:
    page.goto("/director/setup")
    page.fill("input[name=name]", "boss")
    page.fill("input[name=password]", PASSWORD)
    page.fill("input[name=again]", PASSWORD)
    page.locator("form button").last.click()
    page.wait_for_url("**/director")


@pytest.mark.skipif(shutil.which("zbarimg") is None, reason="zbar-tools is not installed")
def test_public_address_set_from_the_page_and_checked_by_a_decoded_qr(
    site: tuple[int, Web], browser: Browser, tmp_path: Path
) -> None:
    port, _ = site
    lan = next((a for a in network_addresses() if a.version == 4), None)
    if lan is None:
        pytest.skip("this computer has no network address but loopback")
    base = f"http://127.0.0.1:{port}"
    page = new_page(browser, base, "ko", 1280)
    sign_up(page)
    page.goto("/director/t/busan/print")
    expect(page.locator("#loopback")).to_be_visible()
    expect(page.locator("#loopback")).to_contain_text("127.0.0.1")
    shoot(page, "print-loopback-ko-1280")
    page.goto("/director/address")
    expect(page.locator("#loopback")).to_be_visible()
    shoot(page, "address-loopback-ko-1280")
    # The laptop's addresses are listed; choosing one checks that it answers. A test
    # sends nothing beyond loopback: 127.0.0.2 stands in for the Wi-Fi's address (the
    # server listens on every interface), and port 1 for an address nothing answers.
    expect(page.locator("ul.addresses li", has_text=f"http://{lan.ip}:{port}")).to_be_visible()
    form = page.locator("form.stack", has=page.locator('input[name="address"]'))
    form.locator('input[name="address"]').fill("http://127.0.0.2:1")
    form.get_by_role("button").click()
    page.wait_for_load_state("domcontentloaded")
    expect(page.locator("#reach.error")).to_contain_text("아무것도 응답하지 않습니다")
    expect(page.locator("#reach")).to_contain_text("make run")
    shoot(page, "address-refused-ko-1280")
    venue = f"http://127.0.0.2:{port}"
    form.locator('input[name="address"]').fill(venue)
    form.get_by_role("button").click()
    page.wait_for_load_state("domcontentloaded")
    expect(page.locator("#reach.ok")).to_contain_text("meldtour에 접속했습니다")
    expect(page.locator("#public")).to_have_text(venue)
    expect(page.locator("#changes li").first).to_contain_text(f"http://127.0.0.2:1 → {venue}")
    png = tmp_path / "qr.png"
    page.locator("#testqr").screenshot(path=str(png))
    decoded = subprocess.run(
        ["zbarimg", "--quiet", "--raw", str(png)], capture_output=True, text=True, timeout=30
    ).stdout.strip()
    assert decoded.startswith(f"{venue}/address/check?n="), decoded
    shoot(page, "address-set-ko-1280")
    phone = new_page(browser, base, "ko", 390)
    phone.goto(decoded)  # what a phone at the venue does
    expect(phone.locator("#reached")).to_contain_text("휴대폰이 meldtour에 접속했습니다")
    expect(phone.locator("#reached")).to_contain_text(f"127.0.0.2:{port}")
    shoot(phone, "address-check-ko-390")
    phone.context.close()
    page.goto("/director/t/busan/print")
    expect(page.locator("#loopback")).to_contain_text(venue)  # this computer's alone
    shoot(page, "print-ko-1280")
    cookies = page.context.cookies()
    page.context.close()

    for lang, width in (("ja", 1280), ("ko", 390), ("ja", 390)):
        page = new_page(browser, base, lang, width)
        page.context.add_cookies(cookies)
        for path, name in (
            ("/director", "dashboard-address"),
            ("/director/address", "address"),
            ("/director/t/busan/print", "print"),
            ("/address/check?n=1", "address-check-local"),
        ):
            page.goto(path)
            expect(page.locator("main")).to_be_visible()
            shoot(page, f"{name}-{lang}-{width}")
        page.context.close()
