"""Issue 25 in Debian's Chromium, in Korean: the director corrects a sheet of a club
night after its awards; the page says what the correction changes (places, prizes,
ranking points) and saves nothing until "정정하고 다시 시상", which awards the division
again (the awards then follow the sheets)."""

from __future__ import annotations

import pytest

from .test_e2e_tournament import CHROMIUM, context, shot

playwright_api = pytest.importorskip("playwright.sync_api")
if not CHROMIUM.exists():
    pytest.skip("Debian's Chromium is not installed", allow_module_level=True)

from playwright.sync_api import Browser, expect  # noqa: E402

from meldtour import application as usecases  # noqa: E402
from meldtour.tournament import final_ranking  # noqa: E402
from meldtour.web.director import accounts  # noqa: E402
from meldtour.web.director.deps import Scope, Web  # noqa: E402

from ..circuit_play import play_out  # noqa: E402
from .test_director_browser import app_web  # noqa: E402,F401  (the module's app)
from .test_e2e_tournament import browser  # noqa: E402,F401  (the module's browser)

NAMES = ["박서준", "김민지", "이서연", "최하은", "정도윤", "강서연", "조민준", "윤지우"]


def test_a_correction_after_the_awards_shows_what_changes_and_awards_again(
    app_web: tuple[str, Web], browser: Browser
) -> None:
    base, web = app_web
    store = web.store()
    usecases.create_tournament(
        store, "club-night", who="d", seed=4, slug="awarded", date="2026-11-04"
    )
    usecases.register_players(store, "awarded", [usecases.PlayerEntry(n) for n in NAMES], who="d")
    usecases.check_in_players(store, "awarded", [], who="d", everyone_but=True)
    play_out(store, "awarded", "club", seed=4)
    accounts.create(store, "reaward-director", "a long secret 25")
    usecases.add_director(store, "awarded", "reaward-director", who="test")
    t = usecases.read(store, "awarded")
    third = final_ranking(t, "club")[2].player
    rnd = t.division("club").stages[0].rounds[-1]
    table = next(x for x in rnd.tables if third in x.players)
    seat = table.players.index(third)
    before = usecases.awarded(store, "awarded")

    ctx = context(browser, base, "ko")
    page = ctx.new_page()
    page.goto("/director/login?next=/director/t/awarded")
    page.fill('input[name="name"]', "reaward-director")
    page.fill('input[name="password"]', "a long secret 25")
    page.locator("main form button").last.click()
    page.goto("/score/" + web.scorer_token(Scope("awarded", "club", 0, rnd.number, table.number)))
    for g, line in enumerate(table.sheet.counted or table.sheet.games, 1):
        pts = list(line.points)
        low = pts.index(min(pts))
        pts[seat], pts[low] = pts[low], pts[seat]
        for s, v in enumerate(pts, 1):
            page.locator(f"#p{g}_{s}").fill(str(v))
        page.locator(f'input[name="w{g}"][value="{pts.index(max(pts)) + 1}"]').check()
    page.fill("#why", "기록지를 잘못 읽음")
    page.get_by_role("button", name="기록지 저장").click()
    box = page.locator("#reaward")
    expect(box).to_be_visible()
    expect(page.locator("#result")).to_contain_text("시상이 끝난 부문입니다")
    expect(box).to_contain_text(f"순위: {t.name_of(third)} ({third}번) 3위 →")
    expect(box).to_contain_text("3위 상:")
    shot(page, "25-reaward-ko")
    assert usecases.awarded(store, "awarded") == before  # nothing saved yet
    box.get_by_role("button", name="정정하고 다시 시상").click()
    expect(page.locator("#result")).to_contain_text("이 부문을 다시 시상했습니다")
    expect(box).to_be_hidden()
    now = final_ranking(usecases.read(store, "awarded"), "club")
    after = usecases.awarded(store, "awarded")
    assert after != before and [a[2] for a in after] == [p.player for p in now[:3]]
    assert third not in [a[2] for a in after]
    ctx.close()
