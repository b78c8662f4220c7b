"""One penalty policy from the rules to the clock (issue 28): a house rule's penalty
added in one place (an entry of ``core.penalties.PENALTIES``) is what the referee
counts, what the score sheet's check takes as a whole number of ×, what the review
says, and what the table clock's page is served and accepts."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from meldtour import application as usecases
from meldtour.application.unit import act
from meldtour.core.analysis import Step
from meldtour.core.game import apply, new_game
from meldtour.core.melds import Meld
from meldtour.core.moves import Draw, Timeout
from meldtour.core.penalties import PENALTIES, PenaltyPolicy
from meldtour.core.rules import find_rules
from meldtour.core.state import GameState
from meldtour.tournament import Notice, Progress, Tournament
from meldtour.tournament.sheets import enter_game, new_sheet, penalty_marks, penalty_of_marks
from meldtour.web.director.deps import Scope
from meldtour.web.i18n import translations
from meldtour.web.routes.review import describe

from .browser import ARGS, CHROMIUM, serve
from .test_director import csrf, make_client, sign_up, web

playwright_api = pytest.importorskip("playwright.sync_api")

#: The house rule: the n-th failed turn of a game costs 2^(n-1) times the base (50,
#: 100, 200, …). Its words are ones the catalogs have.
DOUBLING = PenaltyPolicy(
    "doubling",
    lambda n, base: base * 2 ** (n - 1),
    ", and penalty points (×) that rise by %(p)d with each failed turn",
    "{name}: {n} penalty points (failed turn {k})",
)


@pytest.fixture()
def house(monkeypatch: pytest.MonkeyPatch) -> PenaltyPolicy:
    monkeypatch.setitem(PENALTIES, DOUBLING.name, DOUBLING)  # the one place
    return DOUBLING


def fail(state: GameState, seat: int) -> tuple[GameState, list[object]]:
    """``seat`` runs out of time with one tile of its rack alone on the table."""
    progress = apply(state, Timeout(seat, (*state.board, Meld((state.racks[seat][0],)))))
    return progress.state, list(progress.events)


def test_a_house_penalty_in_one_place_is_seen_everywhere(
    house: PenaltyPolicy, tmp_path: Path
) -> None:
    rules = find_rules("japan").replace(name="japan (doubling)", penalty="doubling")
    assert rules.failed_turn_penalty(1) == 50 and rules.failed_turn_penalty(3) == 200

    # The referee: the first failed turn costs 50, the second 100.
    state = new_game(rules, ["a", "b"], 5).state
    seat = state.current
    state, first = fail(state, seat)
    state = apply(state, Draw(state.current)).state
    before = state
    state, second = fail(state, seat)
    points = [e.data for e in (*first, *second) if e.kind == "penalty"]  # type: ignore[attr-defined]
    assert points == [{"points": -50, "n": 1}, {"points": -100, "n": 2}]
    assert state.penalties[seat] == 150 and state.penalty_marks[seat] == 2

    # The review says it with the policy's sentence, in Korean.
    ko = translations("ko").gettext
    step = Step(3, Timeout(seat, ()), before, state, tuple(second))  # type: ignore[arg-type]
    said = describe(step, ["가나", "다라"], ko, None, True)
    assert f"{['가나', '다라'][seat]}: 벌점 -100점 (2번째 실패)" in said

    # The sheet: 150 is two ×, 100 is no number of them.
    assert penalty_marks(150, rules) == "××" and penalty_of_marks("xxx", rules) == 350
    sheet = new_sheet(1, 5, (21, 22, 23, 24), 1)
    _, problems = enter_game(
        sheet, 1, (58, -5, -23, -30), penalties=(0, 150, 0, 0), rules=rules, who="ref"
    )
    assert not problems
    _, problems = enter_game(
        sheet, 1, (58, -5, -23, -30), penalties=(0, 100, 0, 0), rules=rules, who="ref"
    )
    assert [p.refusal.code for p in problems] == ["sheet.penalty_not_whole"]
    assert problems[0].refusal.params["totals"] == "50, 150, 350, 750"

    # The table clock: its page is served the points of each time-out, and the scorer
    # may confirm two time-outs of one seat as 150 (not 100).
    with make_client(tmp_path) as c:
        sign_up(c)
        store = web(c).store()
        usecases.create_tournament(store, "club-night", who="d", seed=3, slug="house")

        def house_rules(t: Tournament) -> Progress:
            div = t.division("club")
            return Progress(
                t.with_division(replace(div, rules=rules)), (Notice("division", "rules", div.key),)
            )

        act(store, "house", "d", "edit_division", house_rules)
        usecases.register_players(
            store, "house", [usecases.PlayerEntry(f"P{n}") for n in range(1, 9)], who="d"
        )
        usecases.check_in_players(store, "house", [], who="d", everyone_but=True)
        usecases.seat(store, "house", None, 1, who="d")
        url = "/score/" + web(c).scorer_token(Scope("house", "club", 0, 1, 1))
        page = c.get(url + "/clock?lang=ko")
        assert page.status_code == 200
        assert '"penalty_schedule": [50, 100, 200, 400' in page.text
        # Seat 2 runs out twice (65 s of 60), the others are quick.
        taps = [
            ["start", 0],
            ["next", 65_000],
            ["next", 66_000],
            ["next", 67_000],
            ["next", 68_000],
            ["next", 133_000],
            ["end", 134_000],
        ]
        headers = {"X-CSRF-Token": csrf(c)}
        sent = c.post(
            url + "/clock?lang=en",
            json={
                "game": 1,
                "order": [2, 3, 4, 1],
                "taps": taps,
                "device": "phoneA123456",
                "now": 140_000,
            },
            headers=headers,
        )
        assert sent.status_code == 200 and sent.json()["timeouts"] == [2, 2], sent.text
        wrong = c.post(
            url + "/clock/penalties?lang=en",
            json={"game": 1, "penalties": [0, 100, 0, 0]},
            headers=headers,
        )
        assert wrong.status_code == 400 and "seat 2" in wrong.text
        # The clock page in a browser: its script offers seat 2's time-outs at 50 and
        # 100 points (from what the page is served), and confirming them puts 150 on
        # the sheet.
        with serve(c.app) as base, playwright_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
            try:
                page = browser.new_context(
                    viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
                ).new_page()
                page.set_default_timeout(15_000)
                page.goto(f"{base}{url}/clock?lang=ko")
                page.locator("#games button").first.tap()  # game 1 (over; 2 is next)
                offers = page.locator("#offers li")
                expect = playwright_api.expect
                expect(offers).to_have_count(2)
                expect(offers.nth(0)).to_contain_text("50")
                expect(offers.nth(1)).to_contain_text("100")
                page.locator("#confirm").tap()
                expect(page.locator("#confirm-result")).to_have_text("벌점을 기록지에 적었습니다.")
            finally:
                browser.close()
        sheet, _v, _k = usecases.get_sheet(store, "house", "club", 1, 1)
        assert sheet.games[0].penalties == (0, 150, 0, 0)
