"""The director's app in Debian's Chromium, in Korean: two devices saving the same
score sheet (the second sees the conflict with the other's values and loses nothing),
live standings pushed by Server-Sent Events within 2 s of a saved sheet, and the
winner-guess vote on a phone (one vote per browser, results after closing)."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator

import pytest

from .test_e2e_tournament import CHROMIUM, context, free_port, shot

playwright_api = pytest.importorskip("playwright.sync_api")
if not CHROMIUM.exists():
    pytest.skip("Debian's Chromium is not installed", allow_module_level=True)

import uvicorn  # noqa: E402
from playwright.sync_api import Browser, expect  # noqa: E402

from meldtour import application as usecases  # noqa: E402
from meldtour.web.app import create_app  # noqa: E402
from meldtour.web.config import Settings  # noqa: E402
from meldtour.web.director.deps import Scope, Web  # noqa: E402
from meldtour.web.limits import WS_PROTOCOL  # noqa: E402

from .test_e2e_tournament import browser  # noqa: E402,F401  (the module's browser)


@pytest.fixture(scope="module")
def app_web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Web]]:
    settings = Settings(env="test")
    app = create_app(settings)
    db = tmp_path_factory.mktemp("browser") / "meldtour.db"
    web = Web(settings, url=f"sqlite:///{db}")
    app.state.director = web
    port = free_port()
    srv = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", ws=WS_PROTOCOL)
    )
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    while not srv.started:
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}", web
    srv.should_exit = True
    thread.join(timeout=10)


def seated(web: Web, slug: str) -> None:
    store = web.store()
    usecases.create_tournament(
        store, "club-night", who="d", seed=11, slug=slug, venue="부산 벡스코"
    )
    usecases.register_players(
        store,
        slug,
        [
            usecases.PlayerEntry(n)
            for n in (
                "김철수",
                "이영희",
                "박민수",
                "최지우",
                "정하늘",
                "강바다",
                "조은비",
                "윤태양",
            )
        ],
        who="d",
    )
    usecases.check_in_players(store, slug, [], who="d", everyone_but=True)
    usecases.seat(store, slug, None, 1, who="d")


def scorer_link(web: Web, slug: str, table: int) -> str:
    return "/score/" + web.scorer_token(Scope(slug, "club", 0, 1, table))


def test_two_devices_on_one_sheet_the_second_sees_the_conflict(
    app_web: tuple[str, Web], browser: Browser
) -> None:
    base, web = app_web
    seated(web, "conflict")
    link = scorer_link(web, "conflict", 1)
    a_ctx, b_ctx = (context(browser, base, "ko", phone=True) for _ in range(2))
    a, b = a_ctx.new_page(), b_ctx.new_page()
    a.goto(link)
    b.goto(link)
    # Device A saves game 1 only (a draft); device B, which read the sheet before,
    # types both games with other values and saves.
    for s, v in enumerate((30, -10, -10, -10), 1):
        a.locator(f"#p1_{s}").fill(str(v))
    a.locator('input[name="w1"][value="1"]').check()
    a.get_by_role("button", name="기록지 저장").click()
    expect(a.locator("#result")).to_contain_text("임시 저장")
    mine = {1: (-5, 20, -5, -10), 2: (-8, -8, 24, -8)}
    for g, values in mine.items():
        for s, v in enumerate(values, 1):
            b.locator(f"#p{g}_{s}").fill(str(v))
        b.locator(f'input[name="w{g}"][value="{values.index(max(values)) + 1}"]').check()
    b.get_by_role("button", name="기록지 저장").click()
    theirs = b.locator("#theirs")
    expect(theirs).to_be_visible()
    expect(b.locator("#result")).to_contain_text("다른 기기")
    expect(theirs.locator("tbody tr").first).to_contain_text("+30 ★")
    expect(theirs.locator("td.differs")).not_to_have_count(0)
    for g, values in mine.items():  # nothing typed on B is lost
        for s, v in enumerate(values, 1):
            expect(b.locator(f"#p{g}_{s}")).to_have_value(str(v))
    expect(b.locator("#p1_1")).to_have_class(re.compile(r"\btheirs-differs\b"))
    shot(b, "20-score-conflict-phone")
    # Saving again saves what B typed, over A's draft, and counts it.
    b.get_by_role("button", name="기록지 저장").click()
    expect(b.locator("#result")).to_contain_text("저장되어 집계에 반영되었습니다")
    expect(theirs).to_be_hidden()
    sheet, _v, _k = usecases.get_sheet(web.store(), "conflict", None, 1, 1)
    assert sheet.counted is not None and sheet.counted[0].points == (-5, 20, -5, -10)
    # Table 2: B takes the other device's values from the conflict box instead.
    link = scorer_link(web, "conflict", 2)
    a.goto(link)
    b.goto(link)
    for s, v in enumerate((-4, 12, -4, -4), 1):
        a.locator(f"#p1_{s}").fill(str(v))
    a.get_by_role("button", name="기록지 저장").click()
    expect(a.locator("#result")).to_contain_text("임시 저장")
    b.locator("#p1_1").fill("7")
    b.get_by_role("button", name="기록지 저장").click()
    expect(b.locator("#theirs")).to_be_visible()
    b.get_by_role("button", name="다른 기기의 값 사용").click()
    expect(b.locator("#p1_2")).to_have_value("12")
    expect(b.locator("#p1_1")).to_have_value("-4")
    expect(b.locator("#theirs")).to_be_hidden()
    for c in (a_ctx, b_ctx):
        c.close()


def test_live_standings_are_pushed_within_2_s(app_web: tuple[str, Web], browser: Browser) -> None:
    base, web = app_web
    seated(web, "live")
    ctx = context(browser, base, "ko")
    viewer = ctx.new_page()
    viewer.goto("/t/live/standings?division=club&view=projector")
    live = viewer.locator("#live")
    expect(live).to_have_attribute("data-mode", "push")  # Server-Sent Events, no polling
    expect(viewer.locator("#livestate")).to_contain_text("실시간")
    store = web.store()
    sheet, version, _k = usecases.get_sheet(store, "live", None, 1, 2)
    top = sheet.players[2]
    name = usecases.read(store, "live").name_of(top)
    saved = time.monotonic()
    usecases.enter_sheet(
        store,
        "live",
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
    row = viewer.locator("table.standings tbody tr").first
    expect(row).to_contain_text(name, timeout=2000)
    expect(row).to_contain_text("+66", timeout=500)
    elapsed = time.monotonic() - saved
    assert elapsed < 2.0, elapsed
    assert live.get_attribute("data-mode") == "push"
    ctx.close()


def test_the_winner_guess_vote_on_a_phone(app_web: tuple[str, Web], browser: Browser) -> None:
    base, web = app_web
    seated(web, "vote")
    store = web.store()
    usecases.open_vote(store, "vote", None, who="d")
    ctx = context(browser, base, "ko", phone=True)
    phone = ctx.new_page()
    phone.goto("/t/vote")
    expect(phone.locator("body")).to_contain_text("부산 벡스코")
    phone.get_by_role("link", name="우승자 맞히기 투표: 누가 우승할까요?").click()
    phone.get_by_label("이영희").check()
    phone.get_by_role("button", name="투표하기").click()
    expect(phone.locator(".flash")).to_contain_text("이영희 님에게 한 투표가 반영되었습니다")
    phone.get_by_label("박민수").check()
    phone.get_by_role("button", name="내 투표 바꾸기").click()
    expect(phone.locator(".mine")).to_contain_text("박민수")
    shot(phone, "21-vote-phone")
    assert usecases.polls(store, "vote")["club"].votes == 1
    usecases.close_vote(store, "vote", None, who="d")
    phone.reload()
    results = phone.locator("#results")
    expect(results.locator("ol.tally li").first).to_contain_text("박민수")
    expect(results).to_contain_text("1표")
    shot(phone, "22-vote-results-phone")
    ctx.close()


def test_withdraw_asks_first(app_web: tuple[str, Web], browser: Browser) -> None:
    base, web = app_web
    store = web.store()
    from meldtour.web.director import accounts

    accounts.create(store, "desk", "a long secret 1")
    usecases.create_tournament(store, "club-night", who="d", slug="desk")
    usecases.register_players(
        store, "desk", [usecases.PlayerEntry("김철수"), usecases.PlayerEntry("이영희")], who="d"
    )
    ctx = context(browser, base, "ko", phone=True)
    page = ctx.new_page()
    page.goto("/director/login?next=/director/t/desk/d/club/checkin")
    page.fill('input[name="name"]', "desk")
    page.fill('input[name="password"]', "a long secret 1")
    page.locator("main form button").last.click()
    row = page.locator("ul.desk li", has_text="김철수")
    page.once("dialog", lambda d: d.dismiss())
    row.get_by_role("button", name="참가 취소").click()
    page.wait_for_timeout(300)
    assert usecases.read(store, "desk").registration(1).status == "registered"
    page.once("dialog", lambda d: (d.message.startswith("김철수"), d.accept()))
    row.get_by_role("button", name="참가 취소").click()
    expect(page.locator(".flash")).to_contain_text("김철수 님이 참가를 취소했습니다")
    assert usecases.read(store, "desk").registration(1).status == "withdrawn"
    ctx.close()
