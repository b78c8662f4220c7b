"""The circuit's director forms in Debian's Chromium, in Korean: a pasted list where one
김민지 gives the birth year of the 김민지 who played in spring (the same person,
chosen already, with the evidence shown) and another 김민지 gives nothing (a new
person: two people of one name stay two); and the ranking form making a ranking by a
points table, which the public ranking page then shows. Screenshots at 390 and 1280 px,
in Korean and Japanese, go to ``artifacts/director`` for a look by eye."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from .browser import serve
from .test_e2e_tournament import CHROMIUM, context, shot

playwright_api = pytest.importorskip("playwright.sync_api")
if not CHROMIUM.exists():
    pytest.skip("Debian's Chromium is not installed", allow_module_level=True)

from playwright.sync_api import Browser, BrowserContext, expect  # noqa: E402

from meldtour import application as uc  # noqa: E402
from meldtour.web.app import create_app  # noqa: E402
from meldtour.web.config import Settings  # noqa: E402
from meldtour.web.director import accounts  # noqa: E402
from meldtour.web.director.deps import SESSION_COOKIE, Web  # noqa: E402

from ..circuit_play import play_out  # noqa: E402
from .test_e2e_tournament import browser  # noqa: E402,F401  (the module's browser)

SPRING = ["김민지", "이서준", "박지호", "최하은", "정도윤", "강서연", "조민준", "윤지우"]
PASTE = "이름,부,출생 연도\n김민지,,1990\n한유진,,\n김민지,,\n"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Web, str, int]]:
    """Spring's tournament played and awarded (its 김민지 born in 1990), autumn open,
    and the administrator's session."""
    settings = Settings(env="test", default_locale="ko")
    app = create_app(settings)
    db = tmp_path_factory.mktemp("circuit-forms") / "meldtour.db"
    web = Web(settings, url=f"sqlite:///{db}")
    app.state.director = web
    store = web.store()
    account = accounts.create(store, "boss", "a long secret 1")  # the administrator
    session = web.session.sign({"a": account.id, "exp": int(time.time()) + 3600, "n": "c"})
    uc.create_tournament(
        store,
        "busan-2015",
        who="boss",
        seed=3,
        slug="spring",
        name="봄 대회",
        date="2026-03-07",
        locale="ko",
    )
    uc.register_players(
        store,
        "spring",
        [uc.PlayerEntry(n, "general", birth_year=1990 if n == "김민지" else None) for n in SPRING],
        who="boss",
    )
    uc.check_in_players(store, "spring", [], who="boss", everyone_but=True, division="general")
    play_out(store, "spring", "general", seed=3)
    for slug, name in (("autumn", "가을 대회"), ("autumn-ja", "秋の大会")):
        uc.create_tournament(
            store,
            "club-night",
            who="boss",
            seed=4,
            slug=slug,
            name=name,
            date="2026-10-03",
            locale="ja" if slug.endswith("ja") else "ko",
        )
    kim = uc.registrations_by_number(store, "spring")[1].player_id
    with serve(app) as base:
        yield base, web, session, kim


def signed_in(
    browser: Browser,
    site: tuple[str, Web, str, int],
    lang: str,
    phone: bool = False,
) -> BrowserContext:
    base, _web, session, _kim = site
    ctx = context(browser, base, lang, phone=phone)
    ctx.add_cookies([{"name": SESSION_COOKIE, "value": session, "url": base}])
    return ctx


def test_a_pasted_list_finds_the_same_kim_minji_by_birth_year(
    site: tuple[str, Web, str, int], browser: Browser
) -> None:
    _base, web, _s, kim = site
    ctx = signed_in(browser, site, "ko")
    page = ctx.new_page()
    page.goto("/director/t/autumn/players")
    page.fill("textarea[name=paste]", PASTE)
    page.get_by_role("button", name="목록 확인").click()
    page.wait_for_load_state("domcontentloaded")
    expect(page.locator("h1")).to_contain_text("목록 확인")
    expect(page.locator("#summary")).to_contain_text("전에 출전한 사람인지 고를 줄")
    first, second = page.locator("fieldset.known").all()
    # the first 김민지: the birth year is the spring 김민지's, so that person is chosen
    same = first.locator(f"input[type=radio][value='{kim}']")
    expect(same).to_be_checked()
    evidence = first.locator(f".candidate[data-person='{kim}']")
    expect(evidence).to_contain_text("출생 연도: 1990 — 같음")
    expect(evidence).to_contain_text("봄 대회")
    expect(evidence).to_contain_text("8명 중")
    # the second 김민지: no evidence, so a new person; the spring one plays on line 2
    expect(second.locator("input[type=radio][value=new]")).to_be_checked()
    expect(second.locator(f".candidate[data-person='{kim}']")).to_contain_text(
        "이 대회에 출전 중: 다른 사람"
    )
    assert second.locator(f"input[type=radio][value='{kim}']").count() == 0
    # the name is twice in the list too: the director says they are two people
    second.get_by_label("다른 사람입니다: 둘 다 등록").check()
    shot(page, "circuit-preview-ko-1280")
    page.get_by_role("button", name="선수 3명 저장").click()
    page.wait_for_load_state("domcontentloaded")
    expect(page.locator(".flash")).to_contain_text("3명")
    regs = uc.registrations_by_number(web.store(), "autumn")
    assert regs[1].player_id == kim
    assert regs[3].player_id != kim and regs[3].name == "김민지"
    # the new 김민지 may yet be the other one: the list marks her, not the linked one
    marks = page.locator("a.maybe")
    expect(marks).to_have_count(0)  # the only other 김민지 plays in autumn now
    ctx.close()
    # the same preview at a phone's width, and in Japanese
    for lang, phone, name in (
        ("ko", True, "circuit-preview-ko-390"),
        ("ja", False, "circuit-preview-ja-1280"),
        ("ja", True, "circuit-preview-ja-390"),
    ):
        ctx = signed_in(browser, site, lang, phone=phone)
        page = ctx.new_page()
        page.goto("/director/t/autumn-ja/players")
        page.fill("textarea[name=paste]", PASTE)
        page.locator("#many button.primary").click()
        page.wait_for_load_state("domcontentloaded")
        # 김민지 twice and 한유진, who played in autumn: each offered, none chosen but
        # the 김민지 of 1990
        expect(page.locator("fieldset.known")).to_have_count(3)
        expect(page.locator("fieldset.known input[value=new]:checked")).to_have_count(2)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= (390 if phone else 1280), (name, width)
        shot(page, name)
        ctx.close()


def test_the_ranking_form_makes_a_points_table_ranking(
    site: tuple[str, Web, str, int], browser: Browser
) -> None:
    _base, _web, _s, kim = site
    for lang, phone, name in (
        ("ko", True, "circuit-ranking-form-ko-390"),
        ("ja", False, "circuit-ranking-form-ja-1280"),
        ("ja", True, "circuit-ranking-form-ja-390"),
    ):
        ctx = signed_in(browser, site, lang, phone=phone)
        page = ctx.new_page()
        page.goto("/director/rankings/new")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= (390 if phone else 1280), (name, width)
        shot(page, name)
        ctx.close()
    ctx = signed_in(browser, site, "ko")
    page = ctx.new_page()
    page.goto("/director")
    page.get_by_role("link", name="랭킹 설정").click()
    page.get_by_role("link", name="새 랭킹").click()
    page.fill("input[name=key]", "krf")
    page.fill("input[name=name]", "한국 랭킹")
    page.fill("input[name=organisation]", "한국루미큐브협회")
    page.get_by_label("점수표: 순위별 점수").check()
    page.fill("input[name=table]", "100, 60, 40")  # a mistake first: a word in it
    page.fill("input[name=best]", "넷")
    page.get_by_role("button", name="랭킹 저장").click()
    page.wait_for_load_state("domcontentloaded")
    expect(page.locator(".flash.error")).to_contain_text("아직 아무것도 저장되지")
    expect(page.locator(".err[data-field=best]")).to_contain_text("'넷': 정수가 아닙니다")
    expect(page.locator("input[name=best]")).to_have_attribute("aria-invalid", "true")
    shot(page, "circuit-ranking-form-ko-1280")
    page.fill("input[name=table]", "100, 60, 40, 20")
    page.fill("input[name=best]", "2")
    page.fill("input[name=half_life]", "0")
    page.get_by_role("button", name="랭킹 저장").click()
    page.wait_for_load_state("domcontentloaded")
    expect(page.locator(".flash")).to_contain_text("랭킹을 저장했습니다")
    page.get_by_role("link", name="공개 랭킹 페이지").click()
    page.wait_for_load_state("domcontentloaded")
    expect(page.locator("h1")).to_contain_text("한국 랭킹")
    expect(page.locator("#how")).to_contain_text("순위별 점수(100, 60, 40, 20)")
    expect(page.locator("#how")).to_contain_text("가장 좋은 2개 성적")
    first = page.locator("tr.line").first
    expect(first).to_contain_text("100.0")
    assert page.locator("tr.line").count() == len(SPRING)  # spring's eight
    shot(page, "circuit-ranking-public-ko-1280")
    ctx.close()
    del kim
