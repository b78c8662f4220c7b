"""Moderation in a browser (issue 29), two contexts: after a game Ann reports Bo from
the table page; the site's administrator (signed in on the other browser) sees the
report on ``/director/reports`` and hides the name; Ann's browser then shows the
placeholder on Bo's page and at the table, never the name."""

from __future__ import annotations

from typing import Any

from meldtour.live import SeatConfig, TableConfig
from meldtour.web.director import accounts as directors

from .test_players_online_browser import (  # noqa: F401  (the fixtures)
    Browser,
    browser,
    context,
    drag,
    expect,
    one_meld_deal,
    sign_up,
    site,
)


def test_a_report_after_a_game_and_the_name_hidden(browser: Browser, site: tuple[str, Any]) -> None:
    base, app = site
    app.state.live.create_table(
        TableConfig.make(
            "krc-2015", [SeatConfig("human"), SeatConfig("human")], deal=one_meld_deal()
        ),
        "mod1",
    )
    store = app.state.director.store()
    if directors.authenticate(store, "boss", "the administrator's password") is None:
        directors.create(store, "boss", "the administrator's password")
    ann_ctx, bo_ctx = context(browser, base), context(browser, base)
    try:
        ann, bo = ann_ctx.new_page(), bo_ctx.new_page()
        sign_up(ann, "Ann Report")
        bo_id = sign_up(bo, "Bo Hidden")
        for page, name in ((ann, "Ann Report"), (bo, "Bo Hidden")):
            page.goto("/play/t/mod1?lang=en")
            expect(page.locator("#waiting")).to_be_visible()
            page.fill("input[name=name]", name)
            page.click("text=Take this seat")
        expect(ann.locator("#turn")).to_have_text("Your turn")
        rack = ann.locator("#rack")
        drag(ann, rack.locator(".tile[data-tile=r10]"), ann.locator(".new-meld"))
        drag(ann, rack.locator(".tile[data-tile=r11]"), ann.locator(".meld").first, at="end")
        drag(ann, rack.locator(".tile[data-tile=r12]"), ann.locator(".meld").first, at="end")
        ann.click("#b-done")
        expect(bo.locator("#events")).to_contain_text("Ann Report")
        # After the game, Ann reports Bo from the table page.
        ann.goto("/play/t/mod1?lang=en")
        ann.click("#report summary")
        form = ann.locator(f'form.report-form[data-account="{bo_id}"]')
        form.locator("select[name=reason]").select_option("name")
        form.locator("button").click()
        expect(ann.locator("#report-said")).to_contain_text("Your report is sent")
        # The administrator, on the other browser, sees it and hides the name.
        bo.goto("/director/login?lang=en")
        bo.fill("input[name=name]", "boss")
        bo.fill("input[name=password]", "the administrator's password")
        bo.locator("form button").first.click()
        bo.goto("/director/reports?lang=en")
        row = bo.locator(f'#reports tr[data-account="{bo_id}"]')
        expect(row).to_contain_text("Bo Hidden")
        expect(row).to_contain_text("Offensive name: 1")
        row.locator("button.hide-name").click()
        expect(bo.locator("#hidden-names")).to_contain_text(f"Player #{bo_id}")
        # Ann's browser: the placeholder on Bo's page and at the table, not the name.
        ann.goto(f"/play/p/{bo_id}?lang=en")
        expect(ann.locator("#who")).to_have_text(f"Player #{bo_id}")
        assert "Bo Hidden" not in ann.content()
        ann.goto("/play/t/mod1?lang=en")
        expect(ann.locator("body")).to_contain_text(f"Player #{bo_id}")
        assert "Bo Hidden" not in ann.content()
    finally:
        ann_ctx.close()
        bo_ctx.close()
