"""Who a new registration is, on SQLite and PostgreSQL: a list (or a late entry) links a
player to the person who played before when the evidence says so (the same member
number, the same birth year) or the director chose so, and never by the name alone
(two 김민지 stay two people); a choice the evidence contradicts refuses the whole list
and changes nothing. And a ranking's definition as typed (the director's form): every
field's refusal at once, nothing saved, then saved with the divisions it lists in one
transaction, audited."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from meldtour import application as uc
from meldtour.application import circuit as c
from meldtour.store import circuit as rows
from meldtour.store.db import Store
from meldtour.store.models import AuditRow, Player


def _past(store: Store) -> dict[str, int]:
    """Spring's people: 김민지 born 1990, another 김민지 with nothing known, 이서준 with
    a member number. (name or name+year) → person."""
    uc.create_tournament(store, "club-night", who="d", seed=1, slug="spring", date="2026-03-01")
    uc.register_players(
        store,
        "spring",
        [
            uc.PlayerEntry("김민지", birth_year=1990),
            uc.PlayerEntry("김민지"),
            uc.PlayerEntry("이서준", member_number="KRF-7"),
            uc.PlayerEntry("박지호"),
        ],
        who="d",
    )
    regs = uc.registrations_by_number(store, "spring")
    return {
        "kim1990": regs[1].player_id,
        "kim": regs[2].player_id,
        "lee": regs[3].player_id,
        "park": regs[4].player_id,
    }


def _people(store: Store) -> int:
    with store.reading() as s:
        return int(s.scalar(select(func.count()).select_from(Player)) or 0)


def test_the_evidence_links_a_registration_and_the_name_alone_never(store: Store) -> None:
    spring = _past(store)
    assert c.person(store, spring["kim1990"]).birth_year == 1990  # recorded at registration
    assert c.person(store, spring["lee"]).member_number == "KRF-7"
    uc.create_tournament(store, "club-night", who="d", seed=2, slug="autumn", date="2026-10-01")
    lines = [
        uc.PlayerEntry("김민지", birth_year=1990, line=2),
        uc.PlayerEntry("김 민지", line=3),
        uc.PlayerEntry("이서준", member_number="KRF-7", birth_year=1995, line=4),
        uc.PlayerEntry("한유진", line=5),
    ]
    first, second, lee, han = c.identify(store, "autumn", lines)
    # the preview's view: both 김민지 are offered to both lines, with the evidence
    assert [x.person.person for x in first.candidates] == [spring["kim1990"], spring["kim"]]
    assert first.candidates[0].same_birth_year and not first.candidates[1].same_birth_year
    assert first.suggested == first.chosen == spring["kim1990"]
    # the line below may not be the person the first line is: "plays here"
    assert [x.shared_tournament for x in second.candidates] == [True, False]
    assert second.suggested is None and second.chosen is None  # no evidence: a new person
    assert lee.candidates[0].same_member and lee.chosen == spring["lee"]
    assert han.candidates == () and han.chosen is None and not han.problems
    out = uc.register_players(store, "autumn", lines, who="boss")
    regs = uc.registrations_by_number(store, "autumn")
    assert regs[1].player_id == spring["kim1990"] and regs[3].player_id == spring["lee"]
    assert regs[2].player_id not in spring.values() and regs[4].player_id not in spring.values()
    assert c.person(store, spring["lee"]).birth_year == 1995  # what the person lacked
    assert [n.player for n in out.notices if n.what == "person"] == [1, 3]
    # each link is in the people's log, with the evidence as the reason
    with store.reading() as s:
        links = [(m.kind, m.target_id, m.why, m.who) for m in rows.merges(s, spring["kim1990"])]
        audits = s.scalars(select(AuditRow.action).where(AuditRow.who == "boss")).all()
    assert links[-1] == (
        "link",
        spring["kim1990"],
        "registration: the same birth year 1990",
        "boss",
    )
    assert "people_link" in audits and "person" in audits
    # the director's list marks the new 김민지 (and not the linked ones, nor 한유진)
    assert c.possible_same(store, "autumn") == {2}
    # the director's explicit choices: "a new person" over the evidence is kept (and
    # recorded: no mark), "the same person as" without evidence links
    uc.create_tournament(store, "club-night", who="d", seed=3, slug="winter", date="2026-12-01")
    uc.register_players(
        store,
        "winter",
        [
            uc.PlayerEntry("김민지", birth_year=1990, person=c.NEW),
            uc.PlayerEntry("박지호", person=spring["park"]),
        ],
        who="boss",
    )
    regs = uc.registrations_by_number(store, "winter")
    assert regs[1].player_id not in spring.values() and regs[2].player_id == spring["park"]
    assert c.possible_same(store, "winter") == set()
    # a late entry at the desk links the same way (here before the start: a registration)
    uc.enter_late(store, "winter", "club", "이서준", who="boss", member_number="KRF-7")
    assert uc.registrations_by_number(store, "winter")[3].player_id == spring["lee"]
    assert [e.tournament for e in c.person(store, spring["lee"]).entries] == [
        "spring",
        "autumn",
        "winter",
    ]


@pytest.mark.parametrize(
    ("entries", "code"),
    [
        # the person chosen plays in this tournament already (or by a line above)
        (
            lambda p: [
                uc.PlayerEntry("박지호", person=p["park"]),
                uc.PlayerEntry("박지호", person=p["park"], line=3),
            ],
            "circuit.played_together",
        ),
        # a member number of someone else
        (
            lambda p: [uc.PlayerEntry("한유진", member_number="KRF-7", line=2)],
            "circuit.member_taken",
        ),
        # the chosen person was born in another year
        (
            lambda p: [uc.PlayerEntry("김민지", birth_year=1991, person=p["kim1990"], line=2)],
            "circuit.birth_year_differs",
        ),
        # the chosen person has another member number
        (
            lambda p: [uc.PlayerEntry("이서준", member_number="KRF-8", person=p["lee"], line=2)],
            "circuit.member_differs",
        ),
        (lambda p: [uc.PlayerEntry("김민지", person=999_999, line=2)], "circuit.no_person"),
        (lambda p: [uc.PlayerEntry("김민지", birth_year=1850, line=2)], "circuit.birth_year"),
    ],
)
def test_a_choice_the_evidence_contradicts_changes_nothing(
    store: Store, entries: object, code: str
) -> None:
    spring = _past(store)
    uc.create_tournament(store, "club-night", who="d", seed=2, slug="autumn")
    before = _people(store)
    batch = entries(spring)  # type: ignore[operator]
    found = c.identify(store, "autumn", batch)
    assert any(r.code == code for x in found for _f, r in x.problems), found
    with pytest.raises(uc.UseCaseError) as refused:
        uc.register_players(store, "autumn", batch, who="boss")
    err = refused.value
    if batch[-1].line is not None:  # the refusal names the line of the list
        assert err.code == "usecase.row" and err.params["reason"].code == code
    else:
        assert err.code == code
    assert uc.read(store, "autumn").registrations == () and _people(store) == before


def test_the_ranking_form_refuses_every_bad_field_and_saves_in_one_go(store: Store) -> None:
    uc.create_tournament(store, "busan-2015", who="d", seed=1, slug="busan", date="2026-05-02")
    bad = c.RankingForm(
        "Bad Key",
        name="x\x00",
        method="table",
        table="100, lots",
        weights=(("world", "2"), ("world", "3"), ("a b", "1")),
        half_life="-1",
        best="0",
        season_start="2026-13-01",
        season_end="2026-01-01",
        level="galaxy",
        counts=(("busan", "general", "moon"),),
        new=True,
    )
    _config, errors = c.check_ranking(bad)
    assert {f: r.code for f, r in errors.items()} == {
        "key": "circuit.ranking_key",
        "name": "circuit.control_character",
        "table": "circuit.not_a_number",
        "weights": "circuit.level_twice",
        "half_life": "ranking.half_life",
        "best": "ranking.best",
        "season_start": "circuit.not_a_date",
        "level": "circuit.level_not_weighed",
        "count:busan/general": "ranking.unknown_level",
    }
    with pytest.raises(c.RankingRefused) as refused:
        c.save_ranking(store, bad, who="boss")
    assert refused.value.fields.keys() == errors.keys()
    assert c.rankings(store, stored=True) == []
    for form, field, code in (
        (c.RankingForm("krf", method="table", table=""), "table", "circuit.table_empty"),
        (
            c.RankingForm("krf", season_start="2026-12-01", season_end="2026-01-01"),
            "season_end",
            "circuit.season_order",
        ),
        (c.RankingForm("krf", base="1e12"), "base", "circuit.too_big"),
        (c.RankingForm("krf", best="2.5"), "best", "circuit.not_whole"),
        (c.RankingForm("new", new=True), "key", "circuit.ranking_key_reserved"),
        (
            c.RankingForm("krf", counts=(("busan", "nope", "national"),)),
            "count:busan/nope",
            "circuit.no_division",
        ),
    ):
        with pytest.raises(c.RankingRefused) as refused:
            c.save_ranking(store, form, who="boss")
        assert refused.value.fields[field].code == code, form
    assert c.rankings(store, stored=True) == []
    # saved: a points table, its levels, a season, the divisions it lists
    good = c.RankingForm(
        "krf",
        name="KRF ranking",
        organisation="KRF",
        method="table",
        base="500",
        table="100 60 40 20",
        weights=(("national", "1"), ("club", "0.5")),
        half_life="0",
        best="3",
        season_start="2026-01-01",
        only_listed=True,
        level="national",
        counts=(("busan", "general", "national"), ("busan", "lower", "")),
        new=True,
    )
    info = c.save_ranking(store, good, who="boss")
    assert info.config.table == (100, 60, 40, 20) and info.config.best == 3
    assert dict(info.config.weights) == {"national": 1.0, "club": 0.5}
    assert not info.counts_all and list(info.events.values()) == ["national"]
    assert c.RankingForm.of(info).table == "100, 60, 40, 20"
    with pytest.raises(c.RankingRefused) as refused:  # the key is taken
        c.save_ranking(store, good, who="boss")
    assert refused.value.fields["key"].code == "circuit.ranking_exists"
    # a level the weights lose while a division is listed at it: refused, unchanged
    with pytest.raises(c.RankingRefused) as refused:
        c.save_ranking(
            store, c.RankingForm("krf", weights=(("club", "1"),), level="club"), who="boss"
        )
    assert refused.value.fields["weights"].code == "ranking.unknown_level"
    assert c.rankings(store, stored=True)[0].config == info.config
    # edited: no longer listed, back to the percentile
    info = c.save_ranking(
        store,
        replace_form(
            c.RankingForm.of(info), method="percentile", counts=(("busan", "general", ""),)
        ),
        who="boss",
    )
    assert info.config.table == () and info.config.base == 500 and info.events == {}
    with store.reading() as s:
        actions = s.scalars(select(AuditRow.action).where(AuditRow.who == "boss")).all()
    assert actions.count("ranking") == 2 and actions.count("ranking_counts") == 2


def replace_form(form: c.RankingForm, **changes: object) -> c.RankingForm:
    from dataclasses import replace

    return replace(form, **changes)  # type: ignore[arg-type]
