"""Acceptance of issue #27 in Japanese: a Tohoku event (seed 004) run from its own
template through the director's pages alone, in Debian's Chromium — no command line,
no adapting of another template:

- the tournament made from the ``tohoku`` template (its title in Japanese, no key);
- 15 players pasted with their club; every one checked in at the desk;
- three seatings of 2 games (tables of 4, 4, 4 and 3) scored from a phone (the first
  sheet typed into its boxes, the × field explained), closed; the standings page says
  why a table of 3's scores have a decimal (× 4/3), with 得点 = 100 × 勝ち数 + スコア
  and one minus sign;
- the 2-game final of the top 4 with the points carried (8 games each), and the
  awards: 4 places, and no word of family prizes at an event without them.

The director works at 1280 px, the scorer at phone width (390 px)."""

from __future__ import annotations

import re
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
PASSWORD = "盛岡で東北大会 2009"
PLAYERS = [
    ("佐藤 一郎", "盛岡ボードゲームクラブ"),
    ("鈴木 花子", "盛岡ボードゲームクラブ"),
    ("高橋 健", ""),
    ("田中 美咲", ""),
    ("伊藤 翔", "盛岡ボードゲームクラブ"),
    ("渡辺 結衣", ""),
    ("山本 大輔", ""),
    ("中村 彩", ""),
    ("小林 拓海", ""),
    ("加藤 さくら", ""),
    ("吉田 陽斗", ""),
    ("山田 葵", ""),
    ("佐々木 蓮", ""),
    ("山口 凛", ""),
    ("松本 湊", ""),
]


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"tohoku-{name}.png"), full_page=True)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Web]]:
    settings = Settings(env="test")
    app = create_app(settings)
    web = Web(settings, url=f"sqlite:///{tmp_path_factory.mktemp('tohoku') / 'm.db'}")
    app.state.director = web
    with serve(app) as base:
        yield base, web


def points_of(table: int, game: int, seats: int) -> tuple[list[int], int]:
    """A plausible game: the winner's plus is the others' minus."""
    winner = (table + game) % seats + 1
    points = [-(3 + 2 * s + game + table) for s in range(1, seats + 1)]
    points[winner - 1] = 0
    points[winner - 1] = -sum(points)
    return points, winner


def send_sheet(phone: Page, games: list[dict[str, Any]]) -> dict[str, Any]:
    """What the score page's Save does: its own request, from the phone."""
    answer: dict[str, Any] = phone.evaluate(
        """async (games) => {
            const f = document.getElementById("sheet");
            const r = await fetch(f.dataset.url, {method: "POST",
                headers: {"Content-Type": "application/json",
                          "X-CSRF-Token": f.dataset.csrf},
                body: JSON.stringify({games, version: Number(f.dataset.version)})});
            return Object.assign({status: r.status}, await r.json());
        }""",
        games,
    )
    return answer


def score_round(director: Page, phone: Page, slug: str, *, typed: bool) -> None:
    director.goto(f"/director/t/{slug}/d/tohoku/round")
    cards = director.locator("section.tablecard")
    hrefs = [
        (
            cards.nth(i).locator("a.scorelink").get_attribute("href"),
            cards.nth(i).get_attribute("data-state"),
        )
        for i in range(cards.count())
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
            # the × field is explained where it is typed
            expect(phone.locator("#penalty-hint")).to_contain_text("×")
            shot(phone, "sheet-ja-390")
            for g in range(1, count + 1):
                points, winner = points_of(number, g, seats)
                for s, value in enumerate(points, 1):
                    phone.locator(f"#p{g}_{s}").fill(str(value))
                phone.locator(f'input[name="w{g}"][value="{winner}"]').check()
            phone.get_by_role("button", name="記録用紙を保存").click()
            expect(phone.locator("#result")).to_contain_text("保存して集計に反映しました")
            continue
        games = []
        for g in range(1, count + 1):
            points, winner = points_of(number, g, seats)
            games.append({"points": points, "penalties": [0] * seats, "winner": winner})
        answer = send_sheet(phone, games)
        assert answer["status"] == 200 and answer["counted"], answer


def step_of(director: Page, slug: str) -> str:
    director.goto(f"/director/t/{slug}#tohoku")
    return director.locator("section#tohoku [data-step]").get_attribute("data-step") or ""


def test_a_tohoku_event_from_its_template_in_japanese(
    site: tuple[str, Web], browser: Browser
) -> None:
    started = time.monotonic()
    base, web = site
    store = web.store()
    desk = context(browser, base, "ja")
    director = desk.new_page()
    director.on("dialog", lambda d: d.accept())
    accounts.create(store, "東北 運営者", PASSWORD)
    director.goto("/director/login")
    director.locator('input[name="name"]').fill("東北 運営者")
    director.locator('input[name="password"]').fill(PASSWORD)
    director.get_by_role("button", name="ログイン").click()
    director.wait_for_url(re.compile(r"/director$"))

    # The template, by its title in Japanese (no internal key shown).
    choice = director.locator("label.choice", has=director.locator('input[value="tohoku"]'))
    expect(choice).to_contain_text("東北大会・日本選手権東北地区予選会")
    expect(director.locator("fieldset", has=choice)).not_to_contain_text("club-night")
    shot(director, "templates-ja-1280")
    choice.locator("input").check()
    director.locator('form[action="/director/new"] button.primary').click()
    director.wait_for_url(re.compile(r"/director/t/[^/#?]+$"))
    slug = unquote(director.url.rsplit("/", 1)[-1])
    t = usecases.read(store, slug)
    assert t.name == "ラミィキューブ東北大会" and t.date == "2009-08-01"
    (div,) = t.divisions
    assert div.name == "東北大会"
    assert [(f.kind, f.games, f.carry) for f in div.formats] == [
        ("seatings", 2, False),
        ("final", 2, True),
    ]

    # 15 players pasted with their club, then each checked in at the desk.
    director.goto(f"/director/t/{slug}/players")
    director.get_by_label("一覧を貼り付け").fill(
        "\n".join(["名前,クラブ"] + [f"{n},{c}" for n, c in PLAYERS])
    )
    director.get_by_role("button", name="一覧を確認").click()
    expect(director.locator("#summary")).to_contain_text("エラーなし")
    director.get_by_role("button", name="15名を保存").click()
    expect(director.locator("p.flash.ok")).to_contain_text("15名を登録しました。")
    for number in range(1, 16):
        director.goto(f"/director/t/{slug}/d/tohoku/checkin?q={number}")
        director.locator("ul.desk li").first.get_by_role("button", name="出席").click()
        expect(director.locator("p.flash.ok")).to_be_visible()
    assert {r.status for r in usecases.read(store, slug).in_division("tohoku")} == {"checked_in"}

    phones = context(browser, base, "ja", phone=True)
    phone = phones.new_page()
    prelim_seen = False
    first_sheet: list[str] = []
    for _ in range(40):
        step = step_of(director, slug)
        stages = usecases.read(store, slug).division("tohoku").stages
        if step == "awards":
            break
        if step in ("close_check_in", "seat", "advance"):
            if step == "advance" and not prelim_seen:
                prelim_seen = True
                check_the_standings(director, slug)
                continue
            director.locator("section#tohoku [data-step] button.primary").click()
            director.wait_for_load_state("domcontentloaded")
        elif step == "scores":
            rnd = stages[-1].rounds[-1]
            assert len(stages) == 2 or sorted(len(x.players) for x in rnd.tables) == [3, 4, 4, 4]
            score_round(director, phone, slug, typed=len(stages) == 1 and rnd.number == 1)
            if not first_sheet:
                first_sheet.append(phone.url)
        elif step == "close_round":
            director.goto(f"/director/t/{slug}/d/tohoku/round")
            director.get_by_role("button", name="ラウンドを終了", exact=True).click()
            expect(director.locator("p.flash.ok")).to_be_visible()
        else:
            raise AssertionError(f"unexpected step {step!r}")
    else:
        raise AssertionError("the day did not end")
    assert prelim_seen
    t = usecases.read(store, slug)
    prelim, final = t.division("tohoku").stages
    assert len(prelim.rounds) == 3 and len(final.rounds) == 1

    # The awards: the final's 4 places, on 8 games each; no family prize words.
    director.locator("section#tohoku [data-step] button.primary").click()
    director.wait_for_load_state("domcontentloaded")
    director.goto(f"/director/t/{slug}/d/tohoku/awards")
    places = final_ranking(usecases.read(store, slug), "tohoku")
    expect(director.locator("main")).to_contain_text(places[0].name)
    expect(director.locator("main")).not_to_contain_text("家族賞")
    shot(director, "awards-ja-1280")
    director.goto(f"/t/{slug}/standings")
    finals = director.locator("table.standings").first.locator("tbody tr")
    expect(finals).to_have_count(15)
    shot(director, "final-ja-1280")
    # The pages changed here, for a look by eye: ja and ko, 1280 and 390 px.
    for lang in ("ja", "ko"):
        for width in (1280, 390):
            director.set_viewport_size({"width": width, "height": 900})
            for page, path in (
                ("dashboard", "/director"),
                ("standings", f"/t/{slug}/standings?division=tohoku"),
                ("awards", f"/director/t/{slug}/d/tohoku/awards"),
                ("print", f"/director/t/{slug}/print"),
                ("audit", f"/director/t/{slug}/audit"),
                ("public", f"/t/{slug}"),
            ):
                director.goto(f"{path}{'&' if '?' in path else '?'}lang={lang}")
                shot(director, f"{page}-{lang}-{width}")
            phone.goto(f"{first_sheet[0]}?lang={lang}")
            phone.set_viewport_size({"width": width, "height": 900})
            shot(phone, f"sheet-{lang}-{width}")
    print(f"the Tohoku day through the pages: {time.monotonic() - started:.0f} s")
    desk.close()
    phones.close()


def check_the_standings(director: Page, slug: str) -> None:
    """After the preliminaries: 得点 (100 × wins + points) with a decimal for who sat
    at a table of 3, explained on the page; one minus sign."""
    director.goto(f"/t/{slug}/standings")
    head = director.locator("table.standings thead")
    expect(head).to_contain_text("得点")
    expect(head).to_contain_text("スコア")
    note = director.locator("#scaled")
    expect(note).to_contain_text("4/3")
    body = director.locator("table.standings tbody").inner_text()
    assert "-" not in body.replace("−", ""), body  # one minus sign: −
    assert re.search(r"\d\.\d", body), body
    shot(director, "standings-ja-1280")
