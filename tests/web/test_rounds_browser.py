"""The director's rounds in Debian's Chromium, in Korean, at desktop and phone widths:
closing check-in asks first (how many play, how many become no-shows), the round page
shows each table's state (empty, draft, counted) with its totals and what is missing,
closing the round asks first (its tables and players) and is refused by "cancel",
the closed round is reopened, an advancement asks first and is undone, and the
knockout division's bracket shows who went on from each table. Screenshots at 390 and
1280 px in Korean and Japanese go to ``shots/`` (not committed) for a look by eye."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from .test_e2e_tournament import CHROMIUM, context

playwright_api = pytest.importorskip("playwright.sync_api")
if not CHROMIUM.exists():
    pytest.skip("Debian's Chromium is not installed", allow_module_level=True)

from playwright.sync_api import Browser, Dialog, Page, expect  # noqa: E402

from meldtour import application as usecases  # noqa: E402
from meldtour.store import owners  # noqa: E402
from meldtour.store.db import Store  # noqa: E402
from meldtour.tournament import StageFormat  # noqa: E402
from meldtour.web.app import create_app  # noqa: E402
from meldtour.web.config import Settings  # noqa: E402
from meldtour.web.director import accounts  # noqa: E402
from meldtour.web.director.deps import Scope, Web  # noqa: E402

from .browser import serve  # noqa: E402
from .test_e2e_tournament import browser  # noqa: E402,F401  (the module's browser)

SHOTS = Path(__file__).resolve().parents[2] / "shots"
PASSWORD = "a long secret 1"
SLUG = "busan"
GENERAL = [f"김민{c}" for c in "가나다라마바사아자차카타"]
KIDS = [f"이서{c}" for c in "가나다라마바사아자차카타파하거너"]


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


@pytest.fixture(scope="module")
def app_web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Web]]:
    settings = Settings(env="test")
    app = create_app(settings)
    db = tmp_path_factory.mktemp("rounds") / "meldtour.db"
    web = Web(settings, url=f"sqlite:///{db}")
    app.state.director = web
    store = web.store()
    account = accounts.create(store, "boss", PASSWORD)
    general = usecases.DivisionSpec(
        "general",
        "일반부",
        32,
        "krc-2015",
        (
            StageFormat("seatings", games=1, seatings=2, name="예선"),
            StageFormat("final", games=1, entrants=4, name="결승"),
        ),
    )
    kids = usecases.DivisionSpec(
        "kids",
        "초등부",
        32,
        "krc-2015",
        (StageFormat("knockout", games=1, advance=2, final_games=1, name="토너먼트"),),
    )
    usecases.create_blank_tournament(
        store, who="boss", name="부산 대회", divisions=[general, kids], slug=SLUG, seed=2015
    )
    owners.record_creator(store, SLUG, account.id)
    usecases.register_players(
        store,
        SLUG,
        [usecases.PlayerEntry(n, "general") for n in GENERAL]
        + [usecases.PlayerEntry(n, "kids") for n in KIDS],
        who="boss",
    )
    usecases.check_in_players(store, SLUG, GENERAL[:-1] + KIDS, who="boss")
    with serve(app) as base:
        yield base, web


def score(
    store: Store, key: str, *, only: tuple[int, ...] | None = None, draft: tuple[int, ...] = ()
) -> None:
    """The current round's tables (``only`` these): seat 1 wins every game."""
    rnd = usecases.read(store, SLUG).division(key).stages[-1].rounds[-1]
    for x in rnd.tables:
        if only is not None and x.number not in only:
            continue
        seats = len(x.players)
        line = (10 * (seats - 2) + x.number,) + (-10,) * (seats - 2) + (-x.number,)
        games = [usecases.GameEntry(g, line, None, 1) for g in range(1, len(x.sheet.games) + 1)]
        if x.number in draft:
            games = [usecases.GameEntry(1, (line[0], line[1]) + (None,) * (seats - 2))]
        usecases.enter_sheet(
            store,
            SLUG,
            key,
            rnd.number,
            x.number,
            games,
            who="scorer",
            submit=x.number not in draft,
        )


def answer(page: Page, accept: bool, said: list[str]) -> None:
    def on(d: Dialog) -> None:
        said.append(d.message)
        d.accept() if accept else d.dismiss()

    page.once("dialog", on)


def click(page: Page, name: str, *, accept: bool | None = None) -> str:
    said: list[str] = []
    if accept is not None:
        answer(page, accept, said)
    page.get_by_role("button", name=name, exact=True).first.click()
    page.wait_for_load_state("domcontentloaded")
    return said[0] if said else ""


def sign_in(page: Page) -> None:
    page.goto("/director/login")
    page.locator('input[name="name"]').fill("boss")
    page.locator('input[name="password"]').fill(PASSWORD)
    page.get_by_role("button", name="로그인").click()
    page.wait_for_url(re.compile(r"/director$"))


def test_the_round_page_undo_and_the_bracket(app_web: tuple[str, Web], browser: Browser) -> None:
    base, web = app_web
    store = web.store()
    desk = context(browser, base, "ko")
    page = desk.new_page()
    sign_in(page)
    page.goto(f"/director/t/{SLUG}#general")
    general = page.locator("section#general")
    # players still to check in: the desk is the main button
    expect(general.locator('[data-step="check_in"] a.button.primary')).to_have_text("체크인 데스크")
    expect(page.locator('section#kids [data-step="close_check_in"] button.primary')).to_have_text(
        "체크인 마감 후 1라운드 자리 배정"
    )
    # Closing check-in (with round 1) asks first, naming who plays and who is a no-show.
    said = click(page, "체크인 마감 후 1라운드 자리 배정", accept=False)
    assert "11명" in said and "1명은 불참" in said, said
    assert page.url.endswith("#general")  # nothing happened
    said = click(page, "체크인 마감 후 1라운드 자리 배정", accept=True)
    page.wait_for_url(re.compile(r"/d/general/round$"))
    cards = page.locator("section.tablecard")
    expect(cards).to_have_count(3)
    expect(page.locator("#missing")).to_have_text("1, 2, 3번 테이블을 기다리는 중입니다.")
    expect(page.get_by_role("button", name="자리 배정 잠그기")).to_have_class(re.compile("primary"))
    # A new draw: asked first, and the tables change.
    before = [cards.nth(i).locator("li .who").first.inner_text() for i in range(3)]
    said = click(page, "자리 다시 뽑기", accept=True)
    assert "1라운드" in said
    expect(page.locator(".flash")).to_be_visible()
    after = [cards.nth(i).locator("li .who").first.inner_text() for i in range(3)]
    assert after != before
    # Two tables counted, one a draft: states, totals and what is missing.
    score(store, "general", only=(1, 3), draft=(3,))
    page.reload()
    assert [cards.nth(i).get_attribute("data-state") for i in range(3)] == [
        "counted",
        "empty",
        "draft",
    ]
    expect(page.locator("#missing")).to_have_text("2, 3번 테이블을 기다리는 중입니다.")
    expect(cards.nth(0).locator("li .num").first).to_have_text("+21")
    expect(page.locator("#roundsum")).to_contain_text("테이블 3개 중 1개 집계됨")
    shot(page, "round-states-ko-1280")
    # The whole round counted: closing asks first (tables and players), "cancel" keeps
    # it open, "OK" closes it; then it is reopened.
    score(store, "general", only=(2, 3))
    page.reload()
    expect(page.get_by_role("button", name="라운드 마감")).to_have_class(re.compile("primary"))
    said = click(page, "라운드 마감", accept=False)
    assert "테이블 3개(11명)" in said, said
    assert not usecases.read(store, SLUG).division("general").stages[0].rounds[0].closed
    click(page, "라운드 마감", accept=True)
    expect(page.locator(".flash")).to_contain_text("라운드를 마감했습니다")
    expect(page.get_by_role("button", name="라운드 마감")).to_have_count(0)
    expect(page.get_by_role("button", name="다음 라운드 자리 배정")).to_have_class(
        re.compile("primary")
    )
    said = click(page, "라운드 다시 열기", accept=True)
    assert "다시 열까요" in said
    expect(page.locator(".flash")).to_contain_text("1라운드를 다시 열었습니다")
    expect(page.get_by_role("button", name="라운드 마감")).to_be_visible()
    assert not usecases.read(store, SLUG).division("general").stages[0].rounds[0].closed
    # Round 2, then the advancement: asked first with the finalists, then undone.
    click(page, "다음 라운드 자리 배정")
    score(store, "general")
    page.goto(f"/director/t/{SLUG}#general")
    expect(general.locator('[data-step="close_round"]')).to_be_visible()
    said = click(page, "진출: 결승 시작", accept=True)
    assert "4명" in said and "결승" in said, said
    page.goto(f"/director/t/{SLUG}#general")
    said = click(page, "진출 되돌리기", accept=True)
    assert "결승" in said
    expect(page.locator(".flash")).to_contain_text("진출을 되돌렸습니다")
    assert len(usecases.read(store, SLUG).division("general").stages) == 1
    shot(page, "tournament-ko-1280")
    # The knockout: round 1 played and closed; the bracket shows who went on.
    usecases.seat(store, SLUG, "kids", None, who="boss")
    score(store, "kids")
    usecases.close(store, SLUG, "kids", who="boss")
    usecases.seat(store, SLUG, "kids", None, who="boss")
    page.goto(f"/t/{SLUG}/bracket?division=kids")
    expect(page.locator('[data-round="1"] .bt')).to_have_count(4)
    expect(page.locator('[data-round="1"] li.on')).to_have_count(8)
    expect(page.locator('[data-round="2"] .bt')).to_have_count(2)
    expect(page.locator('[data-round="1"] li.on').first).to_contain_text("진출")
    shot(page, "bracket-ko-1280")
    # A second phone typed the sheet while the first had it counted: its save is refused
    # and it sees what differs from what it typed, not only "counted".
    scorer = context(browser, base, "ko", phone=True)
    sp = scorer.new_page()
    sp.goto("/score/" + web.scorer_token(Scope(SLUG, "kids", 0, 2, 1)))
    for s, v in enumerate((-5, 25, -10, -10), 1):
        sp.locator(f"#p1_{s}").fill(str(v))
    sp.locator('input[name="w1"][value="2"]').check()
    score(store, "kids", only=(1,))  # the first phone, meanwhile
    sp.get_by_role("button", name="기록지 저장").click()
    expect(sp.locator("#theirs")).to_be_visible()
    expect(sp.locator("#result")).to_contain_text("이미 집계되었습니다")
    expect(sp.locator("#theirs td.differs")).to_have_count(3)  # seat 3 agrees
    expect(sp.locator("#theirs-counted")).to_be_visible()
    expect(sp.locator("#take-theirs")).to_be_hidden()
    shot(sp, "score-counted-elsewhere-ko-390")
    scorer.close()
    page.goto(f"/director/t/{SLUG}/d/kids/round")
    expect(page.locator('section.tablecard[data-table="1"]')).to_have_attribute(
        "data-state", "conflict"
    )
    # The standings of a round not played yet say so, not "by lot".
    page.goto(f"/t/{SLUG}/standings?division=kids")
    expect(page.locator("p.nogames")).to_have_count(0)  # table 1 of round 2 is counted
    score(store, "kids", only=(2,))
    usecases.close(store, SLUG, "kids", who="boss")
    usecases.seat(store, SLUG, "kids", None, who="boss")  # the final table
    page.goto(f"/t/{SLUG}/standings?division=kids")
    expect(page.locator("p.nogames")).to_contain_text("아직 집계된 게임이 없습니다")
    # The final ranking says in which round each player went out.
    score(store, "kids")
    usecases.close(store, SLUG, "kids", who="boss")
    page.goto(f"/t/{SLUG}/standings?division=kids")
    ranking = page.locator("table.standings").first.locator("tbody tr")
    expect(ranking).to_have_count(16)
    expect(ranking.nth(0)).to_contain_text("결승 테이블")
    expect(ranking.nth(5)).to_contain_text("8강전 탈락")
    expect(ranking.nth(15)).to_contain_text("16강전 탈락")
    shot(page, "final-ranking-ko-1280")
    desk.close()
    # The same pages on a phone, in Korean and in Japanese.
    for lang in ("ko", "ja"):
        phone = context(browser, base, lang, phone=True)
        p = phone.new_page()
        sign_in(p) if lang == "ko" else _sign_in_ja(p)
        p.goto(f"/director/t/{SLUG}/d/general/round")
        expect(p.locator("section.tablecard")).to_have_count(3)
        width = p.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, width  # nothing runs off the phone's screen
        shot(p, f"round-{lang}-390")
        p.goto(f"/t/{SLUG}/bracket?division=kids")
        shot(p, f"bracket-{lang}-390")
        p.goto(f"/director/t/{SLUG}#general")
        p.locator("#general-ranking summary").click()
        expect(p.locator('#general-ranking select[name="mode"]')).to_be_visible()
        width = p.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, width
        shot(p, f"tournament-{lang}-390")
        phone.close()
    wide = context(browser, base, "ja")
    p = wide.new_page()
    _sign_in_ja(p)
    p.goto(f"/director/t/{SLUG}/d/general/round")
    shot(p, "round-ja-1280")
    p.goto(f"/t/{SLUG}/bracket?division=kids")
    shot(p, "bracket-ja-1280")
    wide.close()


def _sign_in_ja(page: Page) -> None:
    page.goto("/director/login")
    page.locator('input[name="name"]').fill("boss")
    page.locator('input[name="password"]').fill(PASSWORD)
    page.locator("form button.primary").click()
    page.wait_for_url(re.compile(r"/director$"))
