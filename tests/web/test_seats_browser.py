"""Issue 25's acceptance in Debian's Chromium, in Korean: Busan's 일반부 awarded, its
places qualify for the 2027 선발전 (a division by qualification only). A namesake of
the holder 김민지 (KRF-1001, born 1990) — another 김민지, born 2001 — cannot take her
seat: not from the players page (the preview marks the holder "different" and
pre-selects the one born 2001; saving is refused, as with "a new person"), and not
from the public form (a name alone, spaces aside, takes nothing; another holder's
code is refused). The holder herself takes it with her claim code. At phone and
desktop widths; screenshots for a look by eye."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from .browser import serve
from .test_e2e_tournament import CHROMIUM, context, shot

playwright_api = pytest.importorskip("playwright.sync_api")
if not CHROMIUM.exists():
    pytest.skip("Debian's Chromium is not installed", allow_module_level=True)

from playwright.sync_api import Browser, expect  # noqa: E402

from meldtour import application as uc  # noqa: E402
from meldtour.application import circuit  # noqa: E402
from meldtour.store import owners  # noqa: E402
from meldtour.web.app import create_app  # noqa: E402
from meldtour.web.config import Settings  # noqa: E402
from meldtour.web.director import accounts  # noqa: E402
from meldtour.web.director.deps import SESSION_COOKIE, Web  # noqa: E402

from ..circuit_play import play_out  # noqa: E402
from .test_e2e_tournament import browser  # noqa: E402,F401  (the module's browser)

OP = circuit.Acting.operator("d")
BUSAN = ["김민지", "이서준", "박지호", "최하은", "정도윤", "강서연", "조민준", "윤지우"]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Web, str]]:
    settings = Settings(env="test", default_locale="ko")
    app = create_app(settings)
    web = Web(settings, url=f"sqlite:///{tmp_path_factory.mktemp('seats') / 'm.db'}")
    app.state.director = web
    store = web.store()
    admin = accounts.create(store, "boss", "a long secret 1")
    uc.create_tournament(store, "busan-2015", who="boss", seed=5, slug="busan26", date="2026-03-07")
    uc.register_players(
        store,
        "busan26",
        [
            uc.PlayerEntry(
                n,
                "general",
                member_number="KRF-1001" if n == "김민지" else None,
                birth_year=1990 if n == "김민지" else None,
            )
            for n in BUSAN
        ],
        who="boss",
    )
    uc.check_in_players(store, "busan26", [], who="d", everyone_but=True, division="general")
    play_out(store, "busan26", "general", seed=5)
    uc.create_tournament(store, "club-night", who="boss", seed=2, slug="club26", date="2026-04-01")
    uc.register_players(store, "club26", [uc.PlayerEntry("김민지", birth_year=2001)], who="boss")
    circuit.grant_qualification(
        store, "busan26", "general", "sel27", label="2027 선발전", seats=8, who=OP
    )
    for slug in ("sel27", "sel27b"):
        uc.create_tournament(store, "busan-2015", who="boss", seed=6, slug=slug, date="2027-01-10")
        owners.record_creator(store, slug, admin.id)
        circuit.set_quota(store, slug, "general", "sel27", 8, who=OP)
    session = web.session.sign({"a": admin.id, "exp": int(time.time()) + 3600, "n": "b"})
    with serve(app) as base:
        yield base, web, session


def holder_and_namesake(web: Web) -> tuple[Any, int]:
    store = web.store()
    holder = next(h for h in circuit.holders(store, "sel27", who=OP) if h.name == "김민지")
    other = next(p.person for p in circuit.people(store, "김민지") if p.person != holder.person)
    return holder, other


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_a_namesake_cannot_take_the_seat_from_the_players_page(
    site: tuple[str, Web, str], browser: Browser, phone: bool
) -> None:
    base, web, session = site
    holder, other = holder_and_namesake(web)
    width = "390" if phone else "1280"
    ctx = context(browser, base, "ko", phone=phone)
    ctx.add_cookies([{"name": SESSION_COOKIE, "value": session, "url": base}])
    page = ctx.new_page()
    page.goto("/director/t/sel27/players")
    form = page.locator("form[action$='/players/add']")
    form.locator("input[name=name]").fill("김민지")
    form.locator("select[name=division]").select_option("general")
    form.locator("input[name=birth_year]").fill("2001")
    form.locator("button.primary").click()
    page.wait_for_load_state("domcontentloaded")
    mine = page.locator(f".candidate[data-person='{holder.person}']")
    expect(mine.locator("li.differs")).to_contain_text("다름")  # born 1990, not 2001
    theirs = page.locator(f".candidate[data-person='{other}']")
    expect(theirs.locator("input[type=radio]")).to_be_checked()  # the evidence's choice
    shot(page, f"seats-preview-ko-{width}")
    page.locator("button[name=go][value=save]").click()
    page.wait_for_load_state("domcontentloaded")
    expect(page.locator("body")).to_contain_text("출전권을 가진 선수만")
    shot(page, f"seats-refused-ko-{width}")
    # "a new person" of that name: a name alone never takes a seat
    page.locator(".who input[value=new]").check()
    page.locator("button[name=go][value=save]").click()
    page.wait_for_load_state("domcontentloaded")
    expect(page.locator("body")).to_contain_text("이름만으로는")
    assert uc.registrations_by_number(web.store(), "sel27") == {}
    seats = circuit.seats(web.store(), "sel27", "general")
    assert seats[0].taken == 0
    ctx.close()


def test_a_namesake_cannot_take_the_seat_from_the_public_form(
    site: tuple[str, Web, str], browser: Browser
) -> None:
    base, web, _session = site
    holder, _other = holder_and_namesake(web)
    someone = next(
        h
        for h in circuit.holders(web.store(), "sel27", who=OP)
        if h.person != holder.person and h.status == "holds"
    )
    ctx = context(browser, base, "ko", phone=True)
    page = ctx.new_page()

    def register(name: str, code: str = "") -> None:
        page.goto("/t/sel27b/register")
        page.fill("input[name=name]", name)
        if code:
            page.fill("input[name=claim]", code)
        page.locator("form[action$='/register'] button.primary").click()
        page.wait_for_load_state("domcontentloaded")

    register("김 민지")
    expect(page.locator(".flash")).to_contain_text("이름만으로는")
    shot(page, "seats-public-refused-ko-390")
    register("김민지", someone.claim)  # another holder's code
    expect(page.locator(".flash")).to_contain_text("같은 이름")
    assert uc.registrations_by_number(web.store(), "sel27b") == {}
    register("김민지", holder.claim.lower())
    expect(page.locator(".flash")).to_contain_text("김민지")
    regs = uc.registrations_by_number(web.store(), "sel27b")
    assert [r.player_id for r in regs.values()] == [holder.person]
    shot(page, "seats-public-claimed-ko-390")
    ctx.close()


def test_the_qualified_page_shows_the_claim_codes(
    site: tuple[str, Web, str], browser: Browser
) -> None:
    base, web, session = site
    holder, _other = holder_and_namesake(web)
    for phone, width in ((False, "1280"), (True, "390")):
        ctx = context(browser, base, "ko", phone=phone)
        ctx.add_cookies([{"name": SESSION_COOKIE, "value": session, "url": base}])
        page = ctx.new_page()
        page.goto("/director/t/sel27b/d/general/qualified")
        row = page.locator(f"tr[data-person='{holder.person}']")
        expect(row.locator("td.claim")).to_contain_text(holder.claim)
        expect(row).to_contain_text("#1")  # registered as number 1
        shot(page, f"seats-qualified-ko-{width}")
        ctx.close()
