"""Acceptance of issue 7: a whole small tournament through the pages, in Korean, with
Debian's Chromium — 12 players register (one lands on the waitlist), check in, two
seated rounds (tables of 4, 4 and 3), score entry with one deliberate error shown and
fixed, live standings updating in a second browser context, a final, awards, and a PDF
score sheet that opens; the key pages again in Japanese and English. Screenshots of the
main pages go to ``artifacts/`` (not committed) for a look by eye."""

from __future__ import annotations

import io
import re
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip("Debian's Chromium is not installed", allow_module_level=True)

import uvicorn  # noqa: E402
from playwright.sync_api import Browser, BrowserContext, Page, expect  # noqa: E402

from meldtour.web.app import create_app  # noqa: E402
from meldtour.web.config import Settings  # noqa: E402
from meldtour.web.director.deps import Web  # noqa: E402
from meldtour.web.limits import WS_PROTOCOL  # noqa: E402

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "director"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PLAYERS = [
    ("김철수", "김", "1"),
    ("김영희", "김", "2"),
    ("김민지", "김", "3"),
    ("이준호", "", ""),
    ("박서연", "", ""),
    ("최지훈", "", ""),
    ("정수빈", "", ""),
    ("강도현", "", ""),
    ("조은비", "", ""),
    ("윤태양", "", ""),
    ("장하늘", "", ""),
    ("임바다", "", ""),
]
PHONE = {"width": 390, "height": 844}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    settings = Settings(env="test")
    app = create_app(settings)
    db = tmp_path_factory.mktemp("e2e") / "meldtour.db"
    app.state.director = Web(settings, url=f"sqlite:///{db}")
    port = free_port()
    srv = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", ws=WS_PROTOCOL)
    )
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    for _ in range(200):
        if srv.started:
            break
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def context(browser: Browser, base: str, lang: str, phone: bool = False) -> BrowserContext:
    locale = {"ko": "ko-KR", "ja": "ja-JP"}.get(lang, "en-US")
    ctx = browser.new_context(
        base_url=base,
        locale=locale,
        viewport=PHONE if phone else {"width": 1280, "height": 900},
        extra_http_headers={"Accept-Language": lang},
    )
    ctx.set_default_timeout(10_000)
    return ctx


def post_button(page: Page, text: str) -> None:
    # closing check-in, a round and advancing ask first: the director says yes
    def yes(dialog: Any) -> None:
        dialog.accept()

    page.on("dialog", yes)
    try:
        page.get_by_role("button", name=text, exact=True).first.click()
        page.wait_for_load_state("domcontentloaded")
    finally:
        page.remove_listener("dialog", yes)


def game_points(table: int, game: int, seats: int) -> tuple[list[int], int]:
    winner = (table + game) % seats + 1
    points = [-(3 + 2 * s + game + table) for s in range(1, seats + 1)]
    points[winner - 1] = 0
    points[winner - 1] = -sum(points)
    return points, winner


def fill_sheet(
    page: Page, table: int, games: int, seats: int, *, error_first: bool = False
) -> None:
    for g in range(1, games + 1):
        points, winner = game_points(table, g, seats)
        for s, value in enumerate(points, 1):
            box = page.locator(f"#p{g}_{s}")
            if error_first and g == 1 and s != winner:
                # A deliberate error: a loser written as a plus.
                box.fill(str(-value))
                page.locator(f'input[name="w{g}"][value="{winner}"]').check()
                err = page.locator(f'.err[data-cell="{g}-{s}"]')
                expect(err).to_be_visible()
                expect(err).to_contain_text("진 사람은")
                expect(box).to_have_class(re.compile(r"\bbad\b"))
                shot(page, "05-score-entry-error-shown")
                error_first = False
            box.fill(str(value))
        page.locator(f'input[name="w{g}"][value="{winner}"]').check()
    page.wait_for_timeout(300)
    expect(page.locator("input.bad")).to_have_count(0)
    page.get_by_role("button", name="기록지 저장").click()
    expect(page.locator("#result")).to_contain_text("저장되어 집계에 반영되었습니다")


def score_round(
    director: Page,
    scorer: Page,
    slug: str,
    seats_of: dict[int, int],
    games: int,
    *,
    error_table: int | None = None,
) -> None:
    director.goto(f"/director/t/{slug}/d/general/round")
    links = director.locator("a.scorelink")
    hrefs = [links.nth(i).get_attribute("href") for i in range(links.count())]
    for number, href in enumerate(hrefs, 1):
        assert href
        scorer.goto(href)
        seats = scorer.locator('fieldset.game[data-game="1"] .seat').count()
        seats_of[number] = seats
        fill_sheet(scorer, number, games, seats, error_first=number == error_table)


def test_a_whole_tournament_in_korean(server: str, browser: Browser) -> None:
    ko = context(browser, server, "ko")
    director = ko.new_page()
    viewer_ctx = context(browser, server, "ko")
    viewer = viewer_ctx.new_page()
    player_ctx = context(browser, server, "ko", phone=True)
    phone = player_ctx.new_page()

    # First start: an empty database offers the demo and the first director account.
    director.goto("/tournaments")
    expect(director.get_by_role("button", name="데모 대회 만들기")).to_be_visible()
    shot(director, "00-first-start")
    director.goto("/director")
    expect(director).to_have_url(re.compile(r"/director/setup$"))
    director.fill('input[name="name"]', "director")
    director.fill('input[name="password"]', "a long secret 1")
    director.fill('input[name="again"]', "a long secret 1")
    post_button(director, "계정 만들기")
    expect(director.locator(".flash")).to_contain_text("운영자 계정이 준비되었습니다")

    # A tournament from the Busan template; the general division trimmed for the test.
    director.fill('input[name="name"]', "부산 클럽 대회")
    director.fill('input[name="date"]', "2025-12-05")
    post_button(director, "대회 만들기")
    slug = director.url.rstrip("/").split("/")[-1]
    general = director.locator("section#general")
    general.locator("details:not(.rankrules) > summary").click()  # the settings
    general.locator('input[name="cap"]').fill("11")
    general.locator('input[name="games0"]').fill("2")
    general.locator('input[name="games1"]').fill("2")
    general.get_by_role("button", name="설정 저장").click()
    expect(director.locator(".flash")).to_contain_text("설정을 저장했습니다")

    # 12 players register on their phones; the twelfth lands on the waitlist.
    for i, (name, family, generation) in enumerate(PLAYERS, 1):
        phone.goto(f"/t/{slug}/register")
        phone.fill('input[name="name"]', name)
        if family:
            phone.fill('input[name="family"]', family)
            phone.select_option('select[name="generation"]', generation)
        if i == 1:
            shot(phone, "01-registration-phone")
        post_button(phone, "참가 신청")
        flash = phone.locator(".flash")
        if i <= 11:
            expect(flash).to_contain_text(f"{i}번으로 등록되었습니다")
        else:
            expect(flash).to_contain_text("대기 1번")
            shot(phone, "02-waitlisted-player-page")
    phone.goto(f"/t/{slug}")
    expect(phone.locator("section#general")).to_contain_text("정원 11명 중 11명")
    expect(phone.locator("section#general")).to_contain_text("대기 1명")
    expect(phone.locator('section#general a[href^="/rules/krc-2015"]')).to_be_visible()
    shot(phone, "03-tournament-page-phone")

    # Check-in desk: search by name, mark present; everyone but the waitlisted.
    director.goto(f"/director/t/{slug}/d/general/checkin?q=김")
    expect(director.locator("ul.desk li")).to_have_count(3)
    for _ in range(3):
        post_button(director, "출석")
    director.goto(f"/director/t/{slug}/d/general/checkin")
    while director.locator("ul.desk button", has_text="출석").count():
        director.locator("ul.desk button", has_text="출석").first.click()
        director.wait_for_load_state("domcontentloaded")
    expect(director.locator("ul.desk li.checked_in")).to_have_count(11)
    shot(director, "04-check-in-desk")
    post_button(director, "체크인 마감")

    # Round 1: 11 players at tables of 4, 4 and 3.
    post_button(director, "다음 라운드 자리 배정")
    expect(director.locator("section.tablecard")).to_have_count(3)
    sizes = sorted(
        director.locator("section.tablecard").nth(i).locator("ol li").count() for i in range(3)
    )
    assert sizes == [3, 4, 4]
    shot(director, "06-round-1-director")
    viewer.goto(f"/t/{slug}/seats?division=general")
    expect(viewer.locator("section.tablecard")).to_have_count(3)
    shot(viewer, "07-seats-projector")

    # The projector's standings, in a second browser context, before any sheet: they
    # say no game is counted yet (no ranks "by lot").
    viewer.goto(f"/t/{slug}/standings?division=general&view=projector")
    expect(viewer.locator("p.nogames")).to_be_visible()
    expect(viewer.locator("table.standings tbody tr")).to_have_count(0)

    scorer_ctx = context(browser, server, "ko", phone=True)
    scorer = scorer_ctx.new_page()
    director.goto(f"/director/t/{slug}/d/general/round")
    first = director.locator("a.scorelink").first.get_attribute("href")
    assert first
    scorer.goto(first)
    shot(scorer, "05-score-entry-phone")
    players = [
        scorer.locator(f'fieldset.game[data-game="1"] .seat[data-seat="{s}"] label.who')
        .inner_text()
        .split(". ", 1)[1]
        for s in range(1, scorer.locator('fieldset.game[data-game="1"] .seat').count() + 1)
    ]
    fill_sheet(scorer, 1, 2, len(players), error_first=True)
    shot(scorer, "05-score-entry-saved")
    # The standings on the projector follow within 2 s of the saved sheet.
    seats = len(players)
    totals = [sum(game_points(1, g, seats)[0][s] for g in (1, 2)) for s in range(seats)]
    best = max(range(seats), key=lambda s: totals[s])
    row = viewer.locator("table.standings tbody tr", has_text=players[best])
    expect(row).to_contain_text(f"+{totals[best]}", timeout=2500)
    shot(viewer, "08-standings-projector-live")

    seats_of: dict[int, int] = {}
    director.goto(f"/director/t/{slug}/d/general/round")
    hrefs = [director.locator("a.scorelink").nth(i).get_attribute("href") for i in (1, 2)]
    for number, href in zip((2, 3), hrefs, strict=True):
        assert href
        scorer.goto(href)
        seats_of[number] = scorer.locator('fieldset.game[data-game="1"] .seat').count()
        fill_sheet(scorer, number, 2, seats_of[number])
    director.goto(f"/director/t/{slug}/d/general/round")
    expect(director.locator(".sheetstate.counted")).to_have_count(3)
    # The first saved sheet locked the seating: no reseat is offered any more.
    expect(director.locator("#lockstate")).to_have_class(re.compile(r"\blocked\b"))
    expect(director.get_by_role("button", name="이 라운드 자리 다시 배정")).to_have_count(0)

    # A scorer's link opens its own table only: a forged token is refused.
    assert scorer.request.get(first[:-3] + "abc").status == 404

    # Round 2 (seating closes round 1), then the final of the top 4.
    post_button(director, "다음 라운드 자리 배정")
    expect(director.locator("h1")).to_contain_text("2라운드")
    score_round(director, scorer, slug, {}, 2)
    director.goto(f"/director/t/{slug}")
    post_button(director, "진출: 결승 시작")
    expect(director.locator(".flash")).to_contain_text("다음 단계가 시작")
    post_button(director, "다음 라운드 자리 배정")
    expect(director.locator("section.tablecard")).to_have_count(1)
    score_round(director, scorer, slug, {}, 2)
    director.goto(f"/director/t/{slug}/d/general/round")
    post_button(director, "라운드 마감")
    viewer.goto(f"/t/{slug}/standings?division=general")
    expect(viewer.locator("h2", has_text="최종 순위")).to_be_visible()
    shot(viewer, "09-final-standings")

    # Awards and the three-generation family prize.
    director.goto(f"/director/t/{slug}")
    post_button(director, "시상")
    expect(director.locator("#places tbody tr")).to_have_count(4)
    expect(director.locator("body")).to_contain_text("3대 가족상")
    shot(director, "10-awards")

    # The printed score sheet of round 1 opens: one page per table, names in Korean.
    response = director.request.get(f"/director/t/{slug}/d/general/pdf/sheets?stage=1&round=1")
    assert response.status == 200 and response.body()[:5] == b"%PDF-"
    from pypdf import PdfReader

    pdf = PdfReader(io.BytesIO(response.body()))
    assert len(pdf.pages) == 3
    # (pypdf reads the CJK font's two-byte codes with a NUL before each character)
    assert players[0] in pdf.pages[0].extract_text().replace("\x00", "")
    sheet = ARTIFACTS / "11-score-sheets.pdf"
    sheet.write_bytes(response.body())
    if shutil.which("pdftoppm"):
        subprocess.run(
            [
                "pdftoppm",
                "-png",
                "-r",
                "60",
                "-f",
                "1",
                "-l",
                "1",
                str(sheet),
                str(ARTIFACTS / "11-score-sheet"),
            ],
            check=True,
            timeout=60,
        )
    certificates = director.request.get(f"/director/t/{slug}/d/general/pdf/certificates")
    assert certificates.status == 200 and len(PdfReader(io.BytesIO(certificates.body())).pages) == 4

    # Exports.
    csv_text = director.request.get(f"/director/t/{slug}/export/standings.csv").text()
    assert players[0] in csv_text
    xlsx = director.request.get(f"/director/t/{slug}/export/sheets.xlsx")
    assert xlsx.status == 200 and xlsx.body()[:2] == b"PK"

    # The key pages in Japanese and English.
    for lang, words in (
        ("ja", ["部門", "参加申込", "定員11名中11名", "最終順位", "第1ゲーム"]),
        ("en", ["Divisions", "Register", "11 of 11 taken", "Final ranking", "Game 1"]),
    ):
        ctx = context(browser, server, lang, phone=True)
        page = ctx.new_page()
        page.goto(f"/t/{slug}?lang={lang}")
        expect(page.locator("html")).to_have_attribute("lang", lang)
        for word in words[:3]:
            expect(page.locator("body")).to_contain_text(word)
        shot(page, f"12-tournament-{lang}")
        page.goto(f"/t/{slug}/standings?division=general")
        expect(page.locator("body")).to_contain_text(words[3])
        shot(page, f"13-standings-{lang}")
        page.goto(first)
        expect(page.locator("body")).to_contain_text(words[4])
        shot(page, f"14-score-entry-{lang}")
        ctx.close()
    for c in (ko, viewer_ctx, player_ctx, scorer_ctx):
        c.close()
