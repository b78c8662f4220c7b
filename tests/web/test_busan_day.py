"""Acceptance of issue #16: the Busan day (three divisions, 64 + 32 + 32 players) run
from the director's pages alone, in Korean, in Debian's Chromium — no command line:

- the first account and the tournament from the busan-2015 template;
- 128 players pasted as one list with two errors and a duplicate, mended in the
  preview, the divisions as a person types them (초등 저학년부), one value that
  matches none (4~6학년, 32 lines) set by one "apply to every line" control, the save
  button's count following the dropped line; a name edited; a check-in undone; a
  no-show reinstated at the desk;
- the public address set from the laptop's network addresses and checked by decoding
  the test QR code (zbar);
- the three divisions seated and scored from phones (the scorer's page: one sheet
  typed into its boxes, the others sent by the page's own request), one wrong sheet
  corrected by the director with a reason, a closed round reopened;
- the projector's standings paging through the 64 players by themselves;
- one desk for every division (a child found from the general division's desk); a
  double tap on 기록지 저장 sent once; the change log's old → new values;
- the knockout bracket in the programme's words (32강전 … 결승전); the winner-guess
  vote with vote cards (a second phone typing a used card is asked first), and its
  prize draw naming the card;
- prizes per place (1위 부산시장상 + WRC 선발전 출전권 + 트로피, 2–4위 출전권 + 보드게임)
  and the signer lines, on the awards page and the certificates PDF, rendered and
  checked for the winner's name and prize.

The director works at 1280 px, the scorers and the voter at phone width."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest

from .browser import serve
from .test_e2e_tournament import CHROMIUM, context

playwright_api = pytest.importorskip("playwright.sync_api")
if not CHROMIUM.exists():
    pytest.skip("Debian's Chromium is not installed", allow_module_level=True)

from playwright.sync_api import Browser, Page, expect  # noqa: E402

from meldtour import application as usecases  # noqa: E402
from meldtour.tournament.stages import final_ranking  # noqa: E402
from meldtour.web.app import create_app  # noqa: E402
from meldtour.web.config import Settings  # noqa: E402
from meldtour.web.director import accounts  # noqa: E402
from meldtour.web.director.deps import Web  # noqa: E402

from .test_e2e_tournament import browser  # noqa: E402,F401  (the module's browser)

SHOTS = Path(__file__).resolve().parents[2] / "shots"
PASSWORD = "부산에서 하루 2015"
FAMILY = "김이박최정강조윤장임한오서신권황안송류전"
GIVEN = ["민준", "서연", "도윤", "하은", "시우", "지우", "예준", "수아"]


def names(n: int, start: int = 0) -> list[str]:
    out = []
    for i in range(start, start + n):
        out.append(FAMILY[i // len(GIVEN) % len(FAMILY)] + GIVEN[i % len(GIVEN)])
    return out


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"busan-{name}.png"), full_page=True)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, Web]]:
    """The app on every interface, as a venue laptop runs it."""
    settings = Settings(env="test")
    app = create_app(settings)
    web = Web(settings, url=f"sqlite:///{tmp_path_factory.mktemp('busan') / 'm.db'}")
    app.state.director = web
    with serve(app, host="0.0.0.0") as base:
        yield int(base.rsplit(":", 1)[1]), web


def accept_all(page: Page, said: list[str]) -> None:
    def on(dialog: Any) -> None:
        said.append(dialog.message)
        dialog.accept()

    page.on("dialog", on)


def points_of(table: int, game: int, seats: int) -> tuple[list[int], int]:
    """A plausible game: the winner's plus is the others' minus."""
    winner = (table + game) % seats + 1
    points = [-(3 + 2 * s + game + table) for s in range(1, seats + 1)]
    points[winner - 1] = 0
    points[winner - 1] = -sum(points)
    return points, winner


def send_sheet(phone: Page, games: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    """What the score page's Save does: its own request, from the phone."""
    answer: dict[str, Any] = phone.evaluate(
        """async ([games, extra]) => {
            const f = document.getElementById("sheet");
            const r = await fetch(f.dataset.url, {method: "POST",
                headers: {"Content-Type": "application/json",
                          "X-CSRF-Token": f.dataset.csrf},
                body: JSON.stringify(Object.assign(
                    {games, version: Number(f.dataset.version)}, extra))});
            return Object.assign({status: r.status}, await r.json());
        }""",
        [games, extra],
    )
    return answer


def type_sheet(phone: Page, table: int, games: int, seats: int) -> None:
    """A sheet typed into its boxes, as a scorer does."""
    for g in range(1, games + 1):
        points, winner = points_of(table, g, seats)
        for s, value in enumerate(points, 1):
            phone.locator(f"#p{g}_{s}").fill(str(value))
        phone.locator(f'input[name="w{g}"][value="{winner}"]').check()
    # a double tap, as a hurried scorer does: sent once, and it says saved
    phone.get_by_role("button", name="기록지 저장").dblclick()
    expect(phone.locator("#result")).to_contain_text("저장되어 집계에 반영되었습니다")
    expect(phone.locator("#result")).not_to_contain_text("다른 기기")


def score_round(director: Page, phone: Page, slug: str, key: str, *, typed: bool = False) -> None:
    """Every table of the division's round, from the scorer's phone."""
    director.goto(f"/director/t/{slug}/d/{key}/round")
    links = director.locator("section.tablecard a.scorelink")
    states = director.locator("section.tablecard")
    hrefs = [
        (links.nth(i).get_attribute("href"), states.nth(i).get_attribute("data-state"))
        for i in range(links.count())
    ]
    for number, (href, state) in enumerate(hrefs, 1):
        if state == "counted":
            continue
        assert href
        phone.goto(href)
        sheet = phone.locator("#sheet")
        seats = int(sheet.get_attribute("data-seats") or 0)
        count = int(sheet.get_attribute("data-games") or 0)
        if typed and number == 1:
            type_sheet(phone, number, count, seats)
            continue
        games = []
        for g in range(1, count + 1):
            points, winner = points_of(number, g, seats)
            games.append({"points": points, "penalties": [0] * seats, "winner": winner})
        answer = send_sheet(phone, games)
        assert answer["status"] == 200 and answer["counted"], answer


def step_of(director: Page, slug: str, key: str) -> str:
    director.goto(f"/director/t/{slug}#{key}")
    return director.locator(f"section#{key} [data-step]").get_attribute("data-step") or ""


def play_division(
    director: Page, phone: Page, slug: str, key: str, *, on_round: Any = None
) -> None:
    """The division's day from its main button: seat, score, close, advance."""
    for _ in range(60):
        step = step_of(director, slug, key)
        if step == "awards":
            return
        if step in ("close_check_in", "seat", "advance"):
            director.locator(f"section#{key} [data-step] button.primary").click()
            director.wait_for_load_state("domcontentloaded")
        elif step == "scores":
            score_round(director, phone, slug, key, typed=key == "general")
        elif step == "close_round":
            director.goto(f"/director/t/{slug}/d/{key}/round")
            if on_round is not None:
                on_round(director)
            director.get_by_role("button", name="라운드 마감", exact=True).click()
            expect(director.locator("p.flash.ok")).to_be_visible()
        else:
            raise AssertionError(f"{key}: unexpected step {step!r}")
    raise AssertionError(f"{key}: the day did not end")


@pytest.mark.skipif(shutil.which("zbarimg") is None, reason="zbar-tools is not installed")
def test_the_busan_day_from_the_pages_in_korean(
    site: tuple[int, Web],
    browser: Browser,
    tmp_path: Path,
) -> None:
    started = time.monotonic()
    port, web = site
    store = web.store()
    base = f"http://127.0.0.1:{port}"
    desk = context(browser, base, "ko")
    director = desk.new_page()
    said: list[str] = []
    accept_all(director, said)

    # The director signs in (the site's first account, made when the laptop was set
    # up), then makes the tournament from its template.
    accounts.create(store, "부산 운영자", PASSWORD)
    director.goto("/director/login")
    director.locator('input[name="name"]').fill("부산 운영자")
    director.locator('input[name="password"]').fill(PASSWORD)
    director.get_by_role("button", name="로그인").click()
    director.wait_for_url(re.compile(r"/director$"))
    director.goto("/director")
    director.locator('input[name="template"][value="busan-2015"]').check()
    director.locator('form[action="/director/new"] input[name="name"]').fill(
        "2015 코리아 루미큐브 챔피언십"
    )
    director.locator('form[action="/director/new"] button.primary').click()
    director.wait_for_url(re.compile(r"/director/t/[^/#?]+$"))
    slug = unquote(director.url.rsplit("/", 1)[-1])  # a readable slug, in Korean
    t = usecases.read(store, slug)
    assert [d.name for d in t.divisions] == [
        "일반부",
        "초등 저학년부 (1~3학년)",
        "초등 고학년부 (4~6학년)",
    ]

    # 128 players in one pasted list: two errors and a duplicate, mended in the preview.
    general, lower, upper = names(64), names(32, 64), names(32, 96)
    lines = ["이름,부,가족,세대"]
    lines += [f"{n},일반부,," for n in general]  # lines 2-65
    lines += [f"{general[5]},일반부,,"]  # line 66: line 7 again
    lines += [f"{n},초등 저학년부,," for n in lower[:10]]  # lines 67-76, as typed
    lines += [",lower,,"]  # line 77: no name
    lines += [f"{lower[10]},lower,,셋"]  # line 78: a generation in words
    lines += [f"{n},lower,," for n in lower[11:31]]  # lines 79-98
    lines += [f"{n},4~6학년,," for n in upper]  # lines 99-130: matches no division
    director.goto(f"/director/t/{slug}/players")
    director.get_by_label("목록 붙여 넣기").fill("\n".join(lines))
    director.get_by_role("button", name="목록 확인").click()
    expect(director.locator("#summary")).to_contain_text("오류가 있는 줄: 77, 78, 99, 100")
    expect(director.locator("#summary")).to_contain_text("중복 여부를 정할 줄: 66")
    # One control for the 32 lines of "4~6학년" (not a drop-down per line).
    apply = director.locator("#apply .apply-line")
    expect(apply).to_have_count(1)
    expect(apply).to_contain_text("“4~6학년” · 32줄")
    expect(director.locator("#saveall")).to_have_text("선수 129명 저장")
    shot(director, "preview")
    apply.locator("select").select_option("upper")
    director.locator("#line77 input[name^=name]").fill("문가영")
    director.locator("#line78 input[name^=generation]").fill("")
    director.locator("#line66").get_by_label("같은 사람입니다: 이 줄 빼기").check()
    expect(director.locator("#saveall")).to_have_text("선수 128명 저장")  # follows the drop
    director.get_by_role("button", name="적용하고 다시 확인").click()
    expect(director.locator("#summary")).to_contain_text("오류 없음")
    expect(director.locator("#apply")).to_have_count(0)
    director.get_by_role("button", name="선수 128명 저장").click()
    expect(director.locator("p.flash.ok")).to_contain_text("선수 128명을 등록했습니다.")
    t = usecases.read(store, slug)
    assert [len(t.in_division(k)) for k in ("general", "lower", "upper")] == [64, 32, 32]

    # A name edited (found by its number).
    director.get_by_placeholder("이름 또는 번호").fill("#3")
    director.get_by_role("button", name="검색").click()
    director.locator("ul.roster li").get_by_role("link", name="수정").click()
    director.get_by_label("이름", exact=True).fill("김도현")
    director.get_by_role("button", name="선수 정보 저장").click()
    expect(director.locator("p.flash.ok")).to_contain_text("저장했습니다: 3번 김도현")

    # The desk: #1 checked in at the desk, the others as the desk does (#40 stays
    # away); #39's check-in, a mistake, undone and done again; check-in closed; #40
    # arrives late and is reinstated under the same number.
    director.goto(f"/director/t/{slug}/d/general/checkin?q=%231")
    director.locator("ul.desk li").first.get_by_role("button", name="출석").click()
    # One entrance: the general division's desk finds a child of another division.
    child = next(r for r in usecases.read(store, slug).registrations if r.division == "upper")
    director.goto(f"/director/t/{slug}/d/general/checkin?q=%23{child.player}")
    expect(director.locator("ul.desk li")).to_have_count(1)
    expect(director.locator("ul.desk li")).to_contain_text(child.name)
    others = [str(n) for n in range(2, 129) if n != 40]
    usecases.check_in_players(store, slug, others, who="desk")
    director.goto(f"/director/t/{slug}/d/general/checkin?q=%2339")
    director.locator("ul.desk li").get_by_role("button", name="체크인 취소").click()
    expect(director.locator("p.flash.ok")).to_contain_text("체크인을 취소했습니다")
    director.goto(f"/director/t/{slug}/d/general/checkin?q=%2339")
    director.locator("ul.desk li").get_by_role("button", name="출석").click()
    for key in ("general", "lower", "upper"):
        director.goto(f"/director/t/{slug}/d/{key}/checkin")
        director.get_by_role("button", name="체크인 마감").click()
        director.wait_for_load_state("domcontentloaded")
    assert usecases.read(store, slug).registration(40).status == "no_show"
    director.goto(f"/director/t/{slug}/d/general/checkin?q=40")
    director.get_by_role("button", name="선수 복귀").click()
    expect(director.locator("p.flash.ok")).to_contain_text("40번 그대로 복귀했습니다")
    assert usecases.read(store, slug).registration(40).status == "checked_in"

    # The public address: this computer on "the venue's network" — its other loopback
    # address 127.0.0.2 here, for a test sends nothing beyond loopback — chosen, checked
    # by the server (it asks that address's /healthz), and by a decoded QR code that a
    # phone opens. (127.0.0.2 is still this computer's alone: the print page says so.)
    venue_address = f"http://127.0.0.2:{port}"
    director.goto("/director/address")
    director.locator('form.stack input[name="address"]').fill(venue_address)
    director.get_by_role("button", name="주소 저장").click()
    director.wait_for_load_state("domcontentloaded")
    expect(director.locator("#reach.ok")).to_contain_text("meldtour에 접속했습니다")
    png = tmp_path / "qr.png"
    director.locator("#testqr").screenshot(path=str(png))
    decoded = subprocess.run(
        ["zbarimg", "--quiet", "--raw", str(png)], capture_output=True, text=True, timeout=30
    ).stdout.strip()
    assert decoded.startswith(f"{venue_address}/address/check"), decoded
    phones = context(browser, base, "ko", phone=True)
    phone = phones.new_page()
    phone.goto(decoded)
    expect(phone.locator("#reached")).to_be_visible()
    director.goto(f"/director/t/{slug}/print")
    expect(director.locator("#loopback")).to_contain_text(venue_address)

    # The general division: round 1 scored (one sheet typed), closed, reopened, closed.
    reopened: list[bool] = []

    def reopen_once(page: Page) -> None:
        view = usecases.read(store, slug).division("general")
        if reopened or len(view.stages) != 1:
            return
        # Round 1 counted: the projector's standings page through the 64 by themselves.
        projector = desk.new_page()
        projector.set_viewport_size({"width": 1280, "height": 800})
        projector.goto(f"/t/{slug}/standings?division=general&view=projector&seconds=3")
        expect(projector.locator("header.bar")).to_have_count(0)  # no site menu
        expect(projector.locator("table.standings tbody tr")).to_have_count(64)
        head = projector.locator("table.standings thead").inner_text()
        assert "승수" in head and "점수" in head and "득점" not in head  # one per meaning
        paged = projector.locator("#paged")
        assert int(paged.get_attribute("data-pages") or 0) >= 3
        shown = projector.locator("table.standings tbody tr:visible").count()
        assert 8 <= shown < 64
        shot(projector, "projector-standings")
        expect(paged).to_have_attribute("data-page", "2", timeout=5000)
        projector.close()
        # A wrong sheet, corrected by the director with a reason (the sheet is counted).
        href = page.locator("section.tablecard a.scorelink").nth(1).get_attribute("href")
        assert href
        page.goto(href)
        sheet = page.locator("#sheet")
        seats = int(sheet.get_attribute("data-seats") or 0)
        games = []
        for g in range(1, int(sheet.get_attribute("data-games") or 0) + 1):
            points, winner = points_of(2, g, seats)
            points[winner - 1] += 10
            points[winner % seats] -= 10
            games.append({"points": points, "penalties": [0] * seats, "winner": winner})
        answer = send_sheet(page, games, why="기록지 옮겨 적기 실수")
        assert answer["status"] == 200 and answer["counted"], answer
        page.goto(f"/director/t/{slug}/d/general/round")
        page.get_by_role("button", name="라운드 마감", exact=True).click()
        expect(page.locator("p.flash.ok")).to_contain_text("라운드를 마감했습니다")
        page.goto(f"/director/t/{slug}/d/general/round")
        page.get_by_role("button", name="라운드 다시 열기").click()
        expect(page.locator("p.flash.ok")).to_contain_text("1라운드를 다시 열었습니다")
        reopened.append(True)

    second = context(browser, base, "ko", phone=True)
    other = second.new_page()
    play_stage_votes(director, phone, other, slug, store, reopen_once)
    assert reopened and any(
        a["why"] == "기록지 옮겨 적기 실수" for a in usecases.audit_log(store, slug)
    )
    # The change log says what the correction changed, old → new.
    director.goto(f"/director/t/{slug}/audit")
    expect(director.get_by_text("기록지 옮겨 적기 실수").first).to_be_visible()
    expect(director.locator("main")).to_contain_text("→")

    # The knockouts, and their bracket.
    for key in ("lower", "upper"):
        play_division(director, phone, slug, key)
    director.goto(f"/t/{slug}/bracket?division=lower")
    expect(director.locator('[data-round="1"] .bt')).to_have_count(8)
    expect(director.locator('[data-round="4"] .bt')).to_have_count(1)
    # the programme's words: 32강전 → 16강전 → 8강전 → 결승전
    expect(director.locator('[data-round="1"] h3')).to_contain_text("32강전")
    expect(director.locator('[data-round="4"] h3')).to_contain_text("결승전")
    shot(director, "bracket")

    # Prizes per place and the signer lines, set on the awards page; then the awards,
    # and the certificates: the winner's name and prize on the first page.
    director.goto(f"/director/t/{slug}/d/general/awards")
    lines_ = director.locator("#prizes .prize-line")
    lines_.nth(0).locator('input[name="first"]').fill("1")
    lines_.nth(0).locator('input[name="title"]').fill("부산시장상 + WRC 선발전 출전권 + 트로피")
    lines_.nth(1).locator('input[name="first"]').fill("2")
    lines_.nth(1).locator('input[name="last"]').fill("4")
    lines_.nth(1).locator('input[name="title"]').fill("WRC 선발전 출전권 + 보드게임")
    director.get_by_role("button", name="상 저장").click()
    expect(director.locator("p.flash.ok")).to_contain_text("상을 저장했습니다")
    director.locator('#signers input[name="signer"]').nth(0).fill("부산광역시장")
    director.locator('#signers input[name="signer"]').nth(1).fill("대한루미큐브협회 심판장")
    director.get_by_role("button", name="서명란 저장").click()
    expect(director.locator("p.flash.ok")).to_contain_text("서명란을 저장했습니다")
    for key in ("general", "lower", "upper"):
        assert step_of(director, slug, key) == "awards"
        director.locator(f"section#{key} [data-step] button.primary").click()
        director.wait_for_load_state("domcontentloaded")
    ranking = final_ranking(usecases.read(store, slug), "general")
    winner = ranking[0].name
    director.goto(f"/director/t/{slug}/d/general/awards")
    places = director.locator("#places tbody tr")
    expect(places).to_have_count(4)
    expect(places.nth(0)).to_contain_text("부산시장상 + WRC 선발전 출전권 + 트로피")
    for i in (1, 2, 3):
        expect(places.nth(i)).to_contain_text("WRC 선발전 출전권 + 보드게임")
    line = ranking[0].standing
    assert line is not None  # wins and points on the awards list
    expect(places.nth(0).locator("td.num").nth(1)).to_have_text(str(line.wins))
    shot(director, "awards")
    pdf = director.request.get(f"/director/t/{slug}/d/general/pdf/certificates")
    assert pdf.status == 200 and pdf.body().startswith(b"%PDF")
    path = tmp_path / "certificates.pdf"
    path.write_bytes(pdf.body())
    first = subprocess.run(
        ["pdftotext", "-f", "1", "-l", "1", str(path), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert winner in first and "상장" in first, first[:300]
    assert "부산시장상 + WRC 선발전 출전권 + 트로피" in first and "부산광역시장" in first
    subprocess.run(
        ["pdftoppm", "-png", "-r", "50", "-f", "1", "-l", "1", str(path), str(tmp_path / "cert")],
        check=True,
    )
    assert list(tmp_path.glob("cert*.png"))
    shot(director, "done")
    elapsed = time.monotonic() - started
    print(f"the Busan day through the pages: {elapsed:.0f} s")
    (SHOTS / "busan-day.json").write_text(json.dumps({"seconds": round(elapsed)}))
    desk.close()
    phones.close()
    second.close()


def play_stage_votes(
    director: Page, phone: Page, other: Page, slug: str, store: Any, on_round: Any
) -> None:
    """The general division: the preliminaries; at the final, the winner-guess vote
    with vote cards (a phone votes with card #1; a second phone typing it is asked
    first and changes nothing; cards #2–#4 vote for the other finalists), closed after
    the final's first game; the final played; the prize draw, naming the card."""
    for _ in range(60):
        step = step_of(director, slug, "general")
        stages = usecases.read(store, slug).division("general").stages
        if step == "scores" and len(stages) == 2 and not usecases.polls(store, slug):
            director.goto(f"/director/t/{slug}/visitors")
            director.locator('form[action$="/vote-codes"] input[name="count"]').fill("40")
            director.get_by_role("button", name="코드 만들기").click()
            section = director.locator("#vote-general")
            section.get_by_label("투표 카드의 코드가 있는 표만 인정").check()
            section.get_by_role("button", name="투표 열기").click()
            expect(director.locator("p.flash.ok")).to_contain_text("투표를 열었습니다")
            code = usecases.vote_codes(store, slug)[0]
            phone.goto(f"/t/{slug}/vote?code={code}")
            finalists = usecases.polls(store, slug)["general"].finalists
            phone.locator(f'input[name="finalist"][value="{finalists[0]}"]').check()
            phone.get_by_label("이름(경품 추첨용, 선택)").fill("관람객 김")
            phone.get_by_role("button", name="투표하기").click()
            expect(phone.locator("p.flash.ok")).to_be_visible()
            other.goto(f"/t/{slug}/vote?code={code}")
            other.locator(f'input[name="finalist"][value="{finalists[1]}"]').check()
            other.get_by_role("button", name="투표하기").click()
            expect(other.locator("#cardused")).to_contain_text(
                "카드 #1: 이미 다른 휴대폰에서 투표한 카드입니다"
            )
            assert usecases.polls(store, slug)["general"].tally[finalists[0]] == 1
            for n, code_n in enumerate(usecases.vote_codes(store, slug)[1:4], 1):
                usecases.cast_vote(
                    store, slug, "general", f"busan-card-{n}", finalists[n], code=code_n
                )
            director.goto(f"/director/t/{slug}/visitors")
            director.locator("#vote-general").get_by_role("button", name="투표 마감").click()
            expect(director.locator("p.flash.ok")).to_be_visible()
            continue
        if step == "awards":
            break
        if step in ("close_check_in", "seat", "advance"):
            director.locator("section#general [data-step] button.primary").click()
            director.wait_for_load_state("domcontentloaded")
        elif step == "scores":
            score_round(director, phone, slug, "general", typed=len(stages) == 1)
        elif step == "close_round":
            director.goto(f"/director/t/{slug}/d/general/round")
            on_round(director)
            director.goto(f"/director/t/{slug}/d/general/round")
            director.get_by_role("button", name="라운드 마감", exact=True).click()
            expect(director.locator("p.flash.ok")).to_be_visible()
        else:
            raise AssertionError(f"general: unexpected step {step!r}")
    director.goto(f"/director/t/{slug}/visitors")
    director.locator("#vote-general input[name=prizes]").fill("1")
    director.get_by_role("button", name="맞힌 사람 중에서 경품 추첨").click()
    expect(director.locator("p.flash.ok")).to_contain_text("경품 추첨을 마쳤습니다")
    phone.goto(f"/t/{slug}/vote?division=general")
    expect(phone.locator("#draw")).to_contain_text("경품 추첨")
    # One card guessed each finalist: the winner's card is drawn, named by its number
    # (and by the name given with card #1).
    finalists = usecases.polls(store, slug)["general"].finalists
    k = finalists.index(final_ranking(usecases.read(store, slug), "general")[0].player)
    drawn = phone.locator("#draw ol.drawn li")
    expect(drawn).to_have_text(f"카드 #{k + 1} · 관람객 김" if k == 0 else f"카드 #{k + 1}")
    shot(phone, "vote-draw")
