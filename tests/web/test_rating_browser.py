"""The rating in Debian's Chromium: a person's public page shows their rating history
as a chart (an inline SVG: a point per event, in date order), in Korean and Japanese,
on a phone and a desktop; the public /rating page says what the rating measures, lists
the provisional players apart and takes an as-of date."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .browser import serve
from .test_e2e_tournament import CHROMIUM, context, shot

playwright_api = pytest.importorskip("playwright.sync_api")
if not CHROMIUM.exists():
    pytest.skip("Debian's Chromium is not installed", allow_module_level=True)

from playwright.sync_api import Browser, expect  # noqa: E402

from meldtour import application as uc  # noqa: E402
from meldtour.application import circuit  # noqa: E402
from meldtour.web.app import create_app  # noqa: E402
from meldtour.web.config import Settings  # noqa: E402
from meldtour.web.director.deps import Web  # noqa: E402

from ..circuit_play import play_out  # noqa: E402
from .test_e2e_tournament import browser  # noqa: E402,F401  (the module's browser)

NAMES = ["김민지", "이서준", "박지호", "최하은", "정도윤", "강서연", "조민준", "윤지우"]
DAYS = ("2026-03-07", "2026-06-13", "2026-10-03")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    """Three Busan-style events of the same eight people (found again by birth year)."""
    settings = Settings(env="test", default_locale="ko")
    app = create_app(settings)
    db = tmp_path_factory.mktemp("rating") / "meldtour.db"
    web = Web(settings, url=f"sqlite:///{db}")
    app.state.director = web
    store = web.store()
    for i, day in enumerate(DAYS, 1):
        slug = f"e{i}"
        uc.create_tournament(store, "busan-2015", who="d", seed=i, slug=slug, date=day)
        uc.register_players(
            store,
            slug,
            [uc.PlayerEntry(n, "general", birth_year=1980 + k) for k, n in enumerate(NAMES)],
            who="d",
        )
        uc.check_in_players(store, slug, [], who="d", everyone_but=True, division="general")
        play_out(store, slug, "general", seed=i)
    kim = circuit.people(store, "김민지")[0].person
    with serve(app) as base:
        yield base, kim


@pytest.mark.parametrize(
    ("lang", "phone"), [("ko", True), ("ja", False), ("ko", False), ("ja", True)]
)
def test_a_persons_page_shows_the_rating_chart(
    site: tuple[str, int],
    browser: Browser,
    lang: str,
    phone: bool,
) -> None:
    base, kim = site
    ctx = context(browser, base, lang, phone=phone)
    page = ctx.new_page()
    page.goto(f"/people/{kim}")
    chart = page.locator("section.rated[data-pool=korea] svg.rating-chart")
    expect(chart).to_be_visible()
    assert chart.locator("circle").count() == len(DAYS)  # one point per event
    titles = [chart.locator("circle title").nth(i).text_content() or "" for i in range(len(DAYS))]
    assert [t[:10] for t in titles] == list(DAYS)  # in date order
    box = chart.bounding_box()
    assert box is not None and box["width"] > 100 and box["height"] > 50
    expect(page.locator("section.rated")).to_contain_text(
        {"ko": "한국 (성인)", "ja": "韓国（一般）"}[lang]
    )
    shot(page, f"rating-person-{lang}-{'390' if phone else '1280'}")
    ctx.close()


@pytest.mark.parametrize("lang", ["ko", "ja"])
def test_the_rating_page_says_what_it_measures(
    site: tuple[str, int],
    browser: Browser,
    lang: str,
) -> None:
    base, _kim = site
    ctx = context(browser, base, lang, phone=lang == "ko")
    page = ctx.new_page()
    page.goto("/rating")
    expect(page.locator(".measures")).to_contain_text(
        {"ko": "레이팅이 재는 것", "ja": "レーティングが測るもの"}[lang]
    )
    rows = page.locator("table.rating tbody tr")
    assert rows.count() == len(NAMES)
    shot(page, f"rating-list-{lang}")
    # the rating on a date before the last event: two events, σ as it was then
    page.fill("input[name=as_of]", "2026-07-01")
    page.get_by_role("button", name={"ko": "보기", "ja": "表示"}[lang]).click()
    page.wait_for_load_state("domcontentloaded")
    assert "as_of=2026-07-01" in page.url
    assert page.locator("input[name=as_of]").input_value() == "2026-07-01"
    expect(page.locator("table.rating").first).to_be_visible()
    ctx.close()
