"""Issue #27 (3, 4, 7, 8) in Debian's Chromium, in Korean and Japanese, at a phone's
and a laptop's width: the projector's standings page through 64 players by itself
(the whole screen, big type, no site menu, one column per meaning); the list's
preview applies one division to every line with an unmatched value; the awards page
with its prizes per place; the prize draw naming each winner by card and name, and a
second phone asked before a used card's vote changes. Screenshots into shots/ for a
look by eye."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from ..store.test_store import games_for
from .browser import serve
from .test_e2e_tournament import CHROMIUM, PHONE

playwright_api = pytest.importorskip("playwright.sync_api")
if not CHROMIUM.exists():
    pytest.skip("Debian's Chromium is not installed", allow_module_level=True)

from playwright.sync_api import Browser, BrowserContext, Page, expect  # noqa: E402

from meldtour import application as uc  # noqa: E402
from meldtour.tournament.stages import final_ranking  # noqa: E402
from meldtour.web.app import create_app  # noqa: E402
from meldtour.web.config import Settings  # noqa: E402
from meldtour.web.director import accounts  # noqa: E402
from meldtour.web.director.deps import SESSION_COOKIE, Web  # noqa: E402

from .test_e2e_tournament import browser  # noqa: E402,F401  (the module's browser)
from .test_votes import finish  # noqa: E402

SHOTS = Path(__file__).resolve().parents[2] / "shots"
LAPTOP = {"width": 1280, "height": 800}
FAMILY = "김이박최정강조윤장임한오서신권황"
GIVEN = ["민준", "서연", "도윤", "하은"]


def shot(page: Page, name: str, full: bool = True) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"venue1-{name}.png"), full_page=full)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Web, str]]:
    """Busan's 일반부 with 64 players after round 1 (for the projector), a club night
    played out (for the awards and the vote's draw)."""
    settings = Settings(env="test", default_locale="ko")
    app = create_app(settings)
    web = Web(settings, url=f"sqlite:///{tmp_path_factory.mktemp('venue') / 'm.db'}")
    app.state.director = web
    store = web.store()
    boss = accounts.create(store, "boss", "a long secret 1")
    uc.create_tournament(store, "busan-2015", who="boss", seed=5, slug="busan", locale="ko")
    people = [FAMILY[i // 4] + GIVEN[i % 4] + str(i // 64 or "") for i in range(64)]
    uc.register_players(store, "busan", [uc.PlayerEntry(n, "general") for n in people], who="d")
    uc.check_in_players(store, "busan", [], who="d", everyone_but=True, division="general")
    uc.seat(store, "busan", "general", 1, who="d")
    t = uc.read(store, "busan")
    for x in t.division("general").stages[0].rounds[0].tables:
        uc.enter_sheet(
            store,
            "busan",
            "general",
            1,
            x.number,
            games_for(t, "general", 1, x.number, 4, len(x.sheet.games)),
            who="ref",
        )
    # A club night: two cards voted (one with a name), the night played out, drawn.
    uc.create_tournament(store, "club-night", who="boss", seed=5, slug="club", locale="ko")
    uc.register_players(store, "club", [uc.PlayerEntry(f"선수{i}") for i in range(1, 9)], who="d")
    uc.check_in_players(store, "club", [], who="d", everyone_but=True)
    uc.seat(store, "club", None, 1, who="d")
    codes = uc.make_vote_codes(store, "club", 8, who="d")
    uc.open_vote(store, "club", None, who="d", codes=True)
    finalists = uc.polls(store, "club")["club"].finalists
    for i, p in enumerate(finalists):
        name = f"관람객 {i + 1}" if i % 2 == 0 else ""
        uc.cast_vote(store, "club", "club", f"device-{i:04d}", p, name=name, code=codes[i])
    uc.close_vote(store, "club", None, who="d")
    finish(store, "club")
    uc.award(store, "club", "club", who="boss")
    uc.set_prizes(
        store,
        "club",
        "club",
        [(1, 1, "부산시장상 + WRC 선발전 출전권 + 트로피"), (2, 3, "WRC 선발전 출전권 + 보드게임")],
        who="boss",
    )
    uc.draw_vote_prizes(store, "club", "club", 1, who="d")
    session = web.session.sign({"a": boss.id, "exp": int(time.time()) + 3600, "n": "v"})
    with serve(app) as base:
        yield base, web, session


def context(
    browser: Browser, base: str, lang: str, width: str, session: str = ""
) -> BrowserContext:
    ctx = browser.new_context(
        base_url=base,
        locale={"ko": "ko-KR", "ja": "ja-JP"}[lang],
        viewport=PHONE if width == "390" else LAPTOP,
        extra_http_headers={"Accept-Language": lang},
    )
    ctx.set_default_timeout(10_000)
    if session:
        ctx.add_cookies([{"name": SESSION_COOKIE, "value": session, "url": base}])
    return ctx


def test_the_projector_standings_page_through_64_players(
    site: tuple[str, Web, str], browser: Browser
) -> None:
    base, _web, _session = site
    ctx = context(browser, base, "ko", "1280")
    page = ctx.new_page()
    page.goto("/t/busan/standings?division=general&view=projector&seconds=3")
    # The projector's page: no site menu, the whole screen, a page count and a clock.
    expect(page.locator("header.bar")).to_have_count(0)
    expect(page.locator("body.projector-screen")).to_be_visible()
    rows = page.locator("table.standings tbody tr")
    expect(rows).to_have_count(64)
    paged = page.locator("#paged")
    expect(paged).to_have_attribute("data-page", "1")
    pages = int(paged.get_attribute("data-pages") or 0)
    assert 3 <= pages <= 8, pages
    visible = page.locator("table.standings tbody tr:visible")
    first = visible.count()
    assert 8 <= first < 64
    # Busan ranks on wins, then points as written: one points column, no score column.
    head = page.locator("table.standings thead").inner_text()
    assert "승수" in head and "점수" in head and "득점" not in head
    assert page.evaluate("document.getElementById('paged').scrollHeight") <= 800
    shot(page, "projector-standings-ko-1280", full=False)
    # By itself, the next page: the ranks go on where the first page ended.
    expect(paged).to_have_attribute("data-page", "2", timeout=5000)
    ranks = [int(x.split("\t")[0]) for x in visible.all_inner_texts()]
    assert ranks and ranks[0] > 1 and ranks == sorted(ranks)
    ctx.close()
    for lang, width in (("ko", "390"), ("ja", "1280"), ("ja", "390")):
        ctx = context(browser, base, lang, width)
        page = ctx.new_page()
        page.goto("/t/busan/standings?division=general&view=projector")
        expect(page.locator("table.standings tbody tr").first).to_be_attached()
        shot(page, f"projector-standings-{lang}-{width}", full=False)
        ctx.close()


def test_the_club_night_awards_and_draw(site: tuple[str, Web, str], browser: Browser) -> None:
    base, web, session = site
    t = uc.read(web.store(), "club")
    ranking = final_ranking(t, "club")
    for lang in ("ko", "ja"):
        for width in ("1280", "390"):
            ctx = context(browser, base, lang, width, session)
            page = ctx.new_page()
            page.goto("/director/t/club/d/club/awards")
            places = page.locator("#places tbody tr")
            expect(places).to_have_count(3)
            expect(places.first).to_contain_text("부산시장상 + WRC 선발전 출전권 + 트로피")
            expect(places.nth(2)).to_contain_text("WRC 선발전 출전권 + 보드게임")
            line = ranking[0].standing
            assert line is not None
            expect(places.first.locator("td.num").nth(1)).to_have_text(str(line.wins))
            shot(page, f"awards-{lang}-{width}")
            page.goto("/t/club/vote?division=club")
            expect(page.locator("#draw ol.drawn li")).to_have_count(1)
            card = "카드 #" if lang == "ko" else "カード#"
            expect(page.locator("#draw ol.drawn li")).to_contain_text(card)
            shot(page, f"vote-draw-{lang}-{width}")
            ctx.close()


def test_a_used_card_on_a_second_phone_and_the_apply_control(
    site: tuple[str, Web, str], browser: Browser
) -> None:
    base, web, session = site
    store = web.store()
    uc.create_tournament(store, "club-night", who="boss", seed=7, slug="cards", locale="ko")
    uc.register_players(store, "cards", [uc.PlayerEntry(f"P{i}") for i in range(1, 9)], who="d")
    uc.check_in_players(store, "cards", [], who="d", everyone_but=True)
    uc.seat(store, "cards", None, 1, who="d")
    codes = uc.make_vote_codes(store, "cards", 3, who="d")
    uc.open_vote(store, "cards", None, who="d", codes=True)
    finalists = uc.polls(store, "cards")["club"].finalists
    for n, lang in enumerate(("ko", "ja")):
        code = codes[n]  # card #1, then card #2
        first = context(browser, base, lang, "390")
        phone = first.new_page()
        phone.goto(f"/t/cards/vote?code={code}")
        phone.locator(f'input[name="finalist"][value="{finalists[0]}"]').check()
        phone.locator('input[name="name"]').fill("민수")
        phone.locator("#voteform button.primary").click()
        expect(phone.locator("p.flash.ok")).to_be_visible()
        other = context(browser, base, lang, "390")
        second = other.new_page()
        second.goto(f"/t/cards/vote?code={code}")
        second.locator(f'input[name="finalist"][value="{finalists[1]}"]').check()
        second.locator("#voteform button.primary").click()
        asked = second.locator("#cardused")
        expect(asked).to_contain_text(f"#{n + 1}")
        expect(asked).to_contain_text(
            "이미 다른 휴대폰에서 투표한 카드" if lang == "ko" else "すでに別のスマートフォンで投票"
        )
        assert uc.polls(store, "cards")["club"].tally[finalists[0]] == n + 1
        shot(second, f"vote-card-used-{lang}-390")
        second.locator("#cardused button").click()
        expect(second.locator("p.flash.ok")).to_be_visible()
        poll = uc.polls(store, "cards")["club"]
        assert poll.tally[finalists[1]] == 1 and poll.tally[finalists[0]] == n
        uc.cast_vote(store, "cards", "club", "reset-device", finalists[0], code=code, confirm=True)
        first.close()
        other.close()
    # The list's preview: 12 lines of "어린이" set to one division by one control.
    paste = "\n".join(
        ["이름,부"] + [f"어린이{i},어린이" for i in range(12)] + ["문가영,초등 고학년부"]
    )
    for lang in ("ko", "ja"):
        for width in ("1280", "390"):
            ctx = context(browser, base, lang, width, session)
            page = ctx.new_page()
            page.goto("/director/t/busan/players")
            page.locator('textarea[name="paste"]').fill(paste)
            page.locator('form[action$="/players/preview"] button').first.click()
            control = page.locator("#apply .apply-line")
            expect(control).to_have_count(1)
            expect(control).to_contain_text("12")
            expect(page.locator("#saveall")).to_contain_text("13")
            shot(page, f"preview-apply-{lang}-{width}")
            page.locator("input[name=keep0]").check()
            expect(page.locator("#saveall")).to_contain_text("12")
            ctx.close()
    ctx = context(browser, base, "ko", "1280", session)
    page = ctx.new_page()
    page.goto("/director/t/busan/players")
    page.locator('textarea[name="paste"]').fill(paste)
    page.locator('form[action$="/players/preview"] button').first.click()
    page.locator("#apply select").select_option("lower")
    page.locator("#apply button").click()
    expect(page.locator("#summary")).to_contain_text("오류 없음")
    expect(page.locator("#saveall")).to_contain_text("13")
    page.locator("#saveall").click()
    expect(page.locator("p.flash.ok")).to_be_visible()
    t = uc.read(store, "busan")
    assert (
        sum(1 for r in t.registrations if r.name.startswith("어린이") and r.division == "lower")
        == 12
    )
    ctx.close()
