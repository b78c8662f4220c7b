"""The circuit in Debian's Chromium, in Japanese: the winner of the Tohoku regional
event (played by computer players) qualifies for the Japanese championship's Tohoku
seat and registers for it on the public form with the claim code that came with it
(its name alone takes nothing); a player without the qualification is
refused with the reason; the public ranking shows the tournaments behind a line."""

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

TOHOKU = [
    "佐藤花子",
    "鈴木一郎",
    "高橋健",
    "田中美咲",
    "伊藤翔",
    "渡辺愛",
    "山本大輝",
    "中村さくら",
]

OP = circuit.Acting.operator("d")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Web, str, str]]:
    """The site with the Tohoku event played and awarded (its winner qualifies for the
    Tohoku seat) and the Japanese championship open, by qualification only."""
    settings = Settings(env="test", default_locale="ja")
    app = create_app(settings)
    db = tmp_path_factory.mktemp("circuit") / "meldtour.db"
    web = Web(settings, url=f"sqlite:///{db}")
    app.state.director = web
    store = web.store()
    uc.create_tournament(
        store, "busan-2015", who="d", seed=3, slug="tohoku", name="東北大会", date="2026-06-14"
    )
    uc.register_players(store, "tohoku", [uc.PlayerEntry(n, "general") for n in TOHOKU], who="d")
    uc.check_in_players(store, "tohoku", [], who="d", everyone_but=True, division="general")
    play_out(store, "tohoku", "general", seed=3)
    circuit.grant_qualification(
        store, "tohoku", "general", "tohoku-seat", label="日本選手権 東北枠", seats=1, who=OP
    )
    uc.create_tournament(store, "japan-championship", who="d", seed=4, slug="jc", date="2026-08-30")
    circuit.set_quota(store, "jc", "open", "tohoku-seat", 1, who=OP)
    holders = circuit.holders(store, "tohoku-seat", who=OP)
    held = next(h for h in holders if h.status == "holds")
    other = next(n for n in TOHOKU if n != held.name)
    with serve(app) as base:
        yield base, web, held.name, other, held.claim


def test_the_tohoku_winner_takes_the_seat_and_others_are_refused(
    site: tuple[str, Web, str, str, str], browser: Browser
) -> None:
    base, web, winner, other, code = site
    ctx = context(browser, base, "ja", phone=True)
    page = ctx.new_page()
    # someone without the qualification is refused, with the reason, in Japanese
    page.goto("/t/jc/register")
    page.fill("input[name=name]", other)
    page.get_by_role("button", name="参加申込").last.click()
    page.wait_for_load_state("domcontentloaded")
    flash = page.locator(".flash")
    expect(flash).to_contain_text("出場権を持つ選手のみ")
    expect(flash).to_contain_text(other)
    shot(page, "circuit-refused-ja")
    # the winner's name alone (with a space, as 田中 美咲) takes no seat
    page.goto("/t/jc/register")
    page.fill("input[name=name]", winner[:2] + " " + winner[2:])
    page.get_by_role("button", name="参加申込").last.click()
    page.wait_for_load_state("domcontentloaded")
    expect(page.locator(".flash")).to_contain_text("名前だけでは")
    # the winner registers with the claim code and is the Tohoku event's person
    page.goto("/t/jc/register")
    page.fill("input[name=name]", winner)
    page.fill("input[name=claim]", code.lower())
    page.get_by_role("button", name="参加申込").last.click()
    page.wait_for_load_state("domcontentloaded")
    expect(page.locator("h1")).to_contain_text(winner)
    expect(page.locator(".flash")).to_contain_text(winner)
    store = web.store()
    held = next(h for h in circuit.holders(store, "tohoku-seat") if h.status == "holds")
    regs = uc.registrations_by_number(store, "jc")
    assert [r.player_id for r in regs.values()] == [held.person]
    seats = circuit.seats(store, "jc", "open")
    assert seats[0].taken == 1 and seats[0].holders[0][1] == 1
    ctx.close()


def test_the_public_ranking_shows_each_lines_events(
    site: tuple[str, Web, str, str, str], browser: Browser
) -> None:
    base, _web, winner, _other, _code = site
    ctx = context(browser, base, "ja")
    page = ctx.new_page()
    page.goto("/ranking?as_of=2026-06-14")
    expect(page.locator("h1")).to_contain_text("ランキング")
    first = page.locator("tr.line").first
    expect(first).to_contain_text(winner)
    first.locator("summary").click()
    event = first.locator("li.counted").first
    expect(event).to_be_visible()
    expect(event).to_contain_text("東北大会")
    expect(event).to_contain_text("8人中1位")
    expect(event).to_contain_text("1000.0")
    shot(page, "circuit-ranking-ja")
    first.locator("a").first.click()
    page.wait_for_load_state("domcontentloaded")
    expect(page.locator("h1")).to_contain_text(winner)
    expect(page.locator("body")).to_contain_text("日本選手権 東北枠")
    expect(page.locator("body")).to_contain_text("レーティング")
    shot(page, "circuit-person-ja")
    ctx.close()
