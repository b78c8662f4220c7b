"""A refused phone's entry on both backends: kept (audit log), shown until the sheet is
saved again, taken as the sheet (a correction with its reason) or set aside; the round
status knows when the round was seated and each table's last save."""

from __future__ import annotations

import pytest

from meldtour import application as usecases
from meldtour.application import refused as refused_uc
from meldtour.store.db import Store
from meldtour.tournament import StageFormat

WHO = "boss"


def make(store: Store) -> str:
    spec = usecases.DivisionSpec(
        "d", "D", 16, "krc-2015", (StageFormat("seatings", games=2, seatings=1, name="R"),)
    )
    slug, _t = usecases.create_blank_tournament(
        store, who=WHO, name="Day", divisions=[spec], slug="day", seed=7
    )
    usecases.register_players(
        store, slug, [usecases.PlayerEntry(f"P{i}", "d") for i in range(1, 9)], who=WHO
    )
    usecases.check_in_players(store, slug, [], everyone_but=True, division="d", who=WHO)
    usecases.seat(store, slug, "d", None, who=WHO)
    return slug


def games(first: int) -> list[usecases.GameEntry]:
    return [
        usecases.GameEntry(1, (first, -10, -10, 20 - first), winner=1),
        usecases.GameEntry(2, (30, -10, -10, -10), winner=1),
    ]


def test_a_refused_entry_taken_then_another_set_aside(store: Store) -> None:
    slug = make(store)
    _s, version, _k = usecases.get_sheet(store, slug, "d", 1, 1)
    usecases.enter_sheet(store, slug, "d", 1, 1, games(30), who="scorer:table 1", version=version)
    with pytest.raises(usecases.CountedSheet):
        usecases.enter_sheet(
            store,
            slug,
            "d",
            1,
            1,
            games(25),
            who="scorer:table 1",
            version=version,
            may_correct=False,
        )
    open_ = refused_uc.refused_entries(store, slug, "d")
    assert list(open_) == [1] and open_[1].over_counted
    assert open_[1].games[0].points == (25, -10, -10, -5)
    assert refused_uc.round_status(store, slug, "d").tables[0].state == "conflict"  # type: ignore[union-attr]
    with pytest.raises(usecases.UseCaseError):
        refused_uc.take_refused(store, slug, "d", 1, open_[1].id + 1, who=WHO, why="x")
    out = refused_uc.take_refused(store, slug, "d", 1, open_[1].id, who=WHO, why="phone B")
    assert out.counted and out.sheet.counted is not None
    assert out.sheet.counted[0].points == (25, -10, -10, -5)
    assert refused_uc.refused_entries(store, slug, "d") == {}
    assert any(a["why"] == "phone B" for a in usecases.audit_log(store, slug))
    # Again from a stale phone: refused, then set aside; the sheet stands.
    with pytest.raises(usecases.CountedSheet):
        usecases.enter_sheet(
            store, slug, "d", 1, 1, games(31), who="scorer:table 1", may_correct=False
        )
    entry = refused_uc.refused_entries(store, slug, "d")[1]
    refused_uc.dismiss_refused(store, slug, "d", 1, entry.id, who=WHO)
    assert refused_uc.refused_entries(store, slug, "d") == {}
    status = refused_uc.round_status(store, slug, "d")
    assert status is not None and status.seated_at is not None
    assert [x.state for x in status.tables] == ["counted", "empty"]
    assert status.tables[0].saved_at is not None and status.tables[1].saved_at is None
    assert usecases.audit_log(store, slug)[-1]["action"] == "refused_dismissed"
