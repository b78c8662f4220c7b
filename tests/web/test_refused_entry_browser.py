"""The two-phone conflict and the head table's status screen in Debian's Chromium, in
Korean (issue 27): two phones save table 1; the second is refused; the director's
round page shows what it entered next to the sheet as counted and takes it instead.
The status screen shows every table as a tile and follows a save by itself.
Screenshots at 390 and 1280 px (and the tablet's 1024×768 and 1280×800) in ko and ja,
into shots/."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from .test_e2e_tournament import CHROMIUM, context

playwright_api = pytest.importorskip("playwright.sync_api")
if not CHROMIUM.exists():
    pytest.skip("Debian's Chromium is not installed", allow_module_level=True)

from playwright.sync_api import Browser, BrowserContext, Page, expect  # noqa: E402

from meldtour import application as usecases  # noqa: E402
from meldtour.store import owners  # noqa: E402
from meldtour.web.app import create_app  # noqa: E402
from meldtour.web.config import Settings  # noqa: E402
from meldtour.web.director import accounts  # noqa: E402
from meldtour.web.director.deps import Web  # noqa: E402

from .browser import serve  # noqa: E402
from .test_director_browser import scorer_link, seated  # noqa: E402
from .test_e2e_tournament import browser  # noqa: E402,F401

SHOTS = Path(__file__).resolve().parents[2] / "shots"
PASSWORD = "a long secret 1"
SLUG = "twophones"


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


@pytest.fixture(scope="module")
def app_web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Web]]:
    settings = Settings(env="test")
    app = create_app(settings)
    db = tmp_path_factory.mktemp("refused") / "meldtour.db"
    web = Web(settings, url=f"sqlite:///{db}")
    app.state.director = web
    account = accounts.create(web.store(), "boss", PASSWORD)
    seated(web, SLUG)
    owners.record_creator(web.store(), SLUG, account.id)
    with serve(app) as base:
        yield base, web


def director(browser: Browser, base: str, lang: str, size: tuple[int, int]) -> BrowserContext:
    ctx = context(browser, base, lang)
    ctx.new_page().set_viewport_size({"width": size[0], "height": size[1]})
    page = ctx.pages[0]
    page.goto("/director/login")
    page.locator('input[name="name"]').fill("boss")
    page.locator('input[name="password"]').fill(PASSWORD)
    page.locator('input[name="password"]').press("Enter")
    page.wait_for_url(re.compile(r"/director$"))
    return ctx


def fill(page: Page, games: dict[int, tuple[int, ...]]) -> None:
    for g, values in games.items():
        for s, v in enumerate(values, 1):
            page.locator(f"#p{g}_{s}").fill(str(v))
        page.locator(f'input[name="w{g}"][value="{values.index(max(values)) + 1}"]').check()


def counted(web: Web, table: int) -> None:
    """Table ``table``'s sheet of round 1 counted, unless it already is: a test that needs
    it does not depend on another test of the module having run first on its worker."""
    store = web.store()
    sheet, version, _k = usecases.get_sheet(store, SLUG, None, 1, table)
    if sheet.counted is None:
        usecases.enter_sheet(
            store,
            SLUG,
            None,
            1,
            table,
            [usecases.GameEntry(g, (-10, -10, 30 + table, -10 - table), winner=3) for g in (1, 2)],
            who="scorer",
            version=version,
        )


def test_two_phones_then_the_director_takes_the_refused_entry(
    app_web: tuple[str, Web], browser: Browser
) -> None:
    base, web = app_web
    link = scorer_link(web, SLUG, 1)
    a_ctx, b_ctx = (context(browser, base, "ko", phone=True) for _ in range(2))
    a, b = a_ctx.new_page(), b_ctx.new_page()
    a.goto(link)
    b.goto(link)
    fill(a, {1: (30, -10, -10, -10), 2: (-8, -8, 24, -8)})
    a.get_by_role("button", name="기록지 저장").click()
    expect(a.locator("#result")).to_contain_text("저장되어 집계에 반영되었습니다")
    fill(b, {1: (31, -11, -10, -10), 2: (-8, -8, 24, -8)})
    b.get_by_role("button", name="기록지 저장").click()
    expect(b.locator("#theirs")).to_be_visible()
    for c in (a_ctx, b_ctx):
        c.close()

    for lang, size in (("ja", (1280, 900)), ("ja", (390, 844)), ("ko", (390, 844))):
        ctx = director(browser, base, lang, size)
        page = ctx.pages[0]
        page.goto(f"/director/t/{SLUG}/d/club/round")
        expect(page.locator("#table-1 .refused")).to_be_visible()
        shot(page, f"refused-round-{lang}-{size[0]}")
        ctx.close()
    ctx = director(browser, base, "ko", (1280, 900))
    page = ctx.pages[0]
    page.goto(f"/director/t/{SLUG}/d/club/round")
    box = page.locator("#table-1 .refused")
    expect(box).to_contain_text("거부된 입력")
    expect(box).to_contain_text("1번 테이블 기록원이")
    expect(box.locator("td.differs")).to_have_count(2)  # game 1: 31 and -11
    expect(page.locator("#table-1")).to_have_attribute("data-state", "conflict")
    shot(page, "refused-round-ko-1280")
    said: list[str] = []
    page.once("dialog", lambda d: (said.append(d.message), d.accept()))
    box.get_by_role("button", name="거부된 입력으로 바꾸기").click()
    expect(page.locator("p.flash.ok")).to_contain_text("거부된 입력을 이 테이블의 점수표로")
    assert said and "1번 테이블의 점수표로" in said[0]
    expect(page.locator("#table-1")).to_have_attribute("data-state", "counted")
    expect(page.locator("#table-1 .refused")).to_have_count(0)
    sheet, _v, _k = usecases.get_sheet(web.store(), SLUG, None, 1, 1)
    assert sheet.counted is not None and sheet.counted[0].points == (31, -11, -10, -10)
    ctx.close()


def test_the_round_status_screen_on_a_tablet(app_web: tuple[str, Web], browser: Browser) -> None:
    base, web = app_web
    counted(web, 1)  # table 1 is in; table 2 comes in while the screen is open
    for lang, size in (
        ("ko", (1024, 768)),
        ("ko", (1280, 800)),
        ("ko", (390, 844)),
        ("ja", (1280, 800)),
        ("ja", (390, 844)),
    ):
        ctx = director(browser, base, lang, size)
        page = ctx.pages[0]
        page.goto(f"/director/t/{SLUG}/d/club/status")
        expect(page.locator(".tile")).to_have_count(2)
        assert page.locator("header.site, nav").count() == 0  # no site menu
        # Nothing spills sideways.
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= size[0], (lang, size, width)
        shot(page, f"status-{lang}-{size[0]}x{size[1]}")
        ctx.close()
    ctx = director(browser, base, "ko", (1024, 768))
    page = ctx.pages[0]
    page.goto(f"/director/t/{SLUG}/d/club/status")
    tile = page.locator('.tile[data-table="2"]')
    expect(tile).to_have_attribute("data-state", "empty")
    expect(tile).to_contain_text("2번 테이블")
    expect(tile).to_contain_text("배정 후")
    # Table 2 is counted from another device: the screen follows by itself.
    store = web.store()
    _s, version, _k = usecases.get_sheet(store, SLUG, None, 1, 2)
    usecases.enter_sheet(
        store,
        SLUG,
        None,
        1,
        2,
        [
            usecases.GameEntry(1, (-10, -10, 33, -13), winner=3),
            usecases.GameEntry(2, (-10, -10, 33, -13), winner=3),
        ],
        who="scorer",
        version=version,
    )
    page.evaluate("window.meldtourStatusRefresh()")  # the 15-second tick, now
    expect(page.locator('.tile[data-table="2"]')).to_have_attribute("data-state", "counted")
    expect(page.locator("#ssum")).to_contain_text("테이블 2개 중 2개 집계됨")
    # The director sets a lower threshold: the page keeps it in its address.
    page.locator('input[name="per_game"]').fill("7")
    page.get_by_role("button", name="적용").click()
    expect(page).to_have_url(re.compile(r"per_game=7"))
    ctx.close()


def test_the_day_s_pages_at_390_and_1280_in_ko_and_ja(
    app_web: tuple[str, Web], browser: Browser
) -> None:
    """Screenshots to read by eye: the players' preview of a pasted list (an error, a
    namesake, a division as typed), the projector standings, the awards page; nothing
    spills sideways on a phone."""
    base, web = app_web
    for table in (1, 2):  # every sheet counted (when this test runs alone too)
        counted(web, table)
    lines = "\n".join(
        [
            "이름,부,가족,세대",
            "서지민,Club night,,",
            "최지우,Club night,,",
            ",Club night,,",
            "한별,없는부,,셋",
        ]
    )
    for lang in ("ko", "ja"):
        for size in ((1280, 900), (390, 844)):
            ctx = director(browser, base, lang, size)
            page = ctx.pages[0]
            page.goto(f"/director/t/{SLUG}/players")
            page.locator('textarea[name="paste"]').fill(lines)
            page.locator('textarea[name="paste"]').locator("xpath=ancestor::form").locator(
                "button.primary"
            ).click()
            page.wait_for_load_state("domcontentloaded")
            expect(page.locator("#summary")).to_be_visible()
            shot(page, f"day-preview-{lang}-{size[0]}")
            page.goto(f"/director/t/{SLUG}/d/club/awards")
            shot(page, f"day-awards-{lang}-{size[0]}")
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= size[0], (lang, size, width)
            page.goto(f"/t/{SLUG}/standings?division=club&view=projector")
            expect(page.locator("table.standings")).to_be_visible()
            shot(page, f"day-projector-{lang}-{size[0]}")
            ctx.close()
