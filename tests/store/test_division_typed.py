"""Busan's pasted list names its divisions as people say them (issue 27 item 3):
`초등 저학년부` for `초등 저학년부 (1~3학년)` is found, and a line that names no
division (or two) is refused naming the divisions by their titles, not their keys."""

from __future__ import annotations

from meldtour import application as uc
from meldtour.application.roster import check_roster, read_roster
from meldtour.core.refusal import render
from meldtour.store.db import Store
from meldtour.web.i18n import gettext_for


def test_busan_divisions_as_typed_and_refused_by_title(store: Store) -> None:
    slug, _t = uc.create_tournament(store, "busan-2015", who="d", slug="busan", locale="ko")
    t = uc.read(store, slug)
    lower = t.division("lower")
    rows = check_roster(
        t, read_roster(f"a,{lower.name.split('(')[0].strip()}\nb,{lower.name}\nc,일반부\nd,초등\n")
    )
    assert [r.division for r in rows[:3]] == ["lower", "lower", "general"]
    (problem,) = rows[3].problems
    assert problem.refusal.code == "usecase.no_division"
    listed = str(problem.refusal.params["keys"])
    assert listed == ", ".join(d.name for d in t.divisions)
    words = render(problem.refusal, gettext_for("ko"))
    assert "general" not in words and "lower" not in words and lower.name in words
