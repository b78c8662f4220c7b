"""Two players of one name in one tournament are two people: a club night with two
김민지 is awarded and rated (it died on the rating's primary key), on SQLite and
PostgreSQL; the migration 0008 parts the registrations that earlier versions joined."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import func, select

from meldtour import application as uc
from meldtour.application.circuit import Acting
from meldtour.cli import main
from meldtour.store.db import Store, make_engine, upgrade
from meldtour.store.models import (
    DivisionRow,
    Player,
    RegistrationRow,
    TournamentRow,
)
from tests.old_schema import old_row, old_tournament

from .test_store import finished_club

NAMES = ["김민지", "김민지", "이서준", "박지호", "최하은", "정도윤", "강서연", "조민준", "윤지우"]

OP = Acting.operator("d")


def test_two_players_of_one_name_are_awarded_and_rated_apart(store: Store) -> None:
    slug = finished_club(store, NAMES)
    lines = uc.award(store, slug, None, who="d")
    assert [a.place for a in lines] == [1, 2, 3]
    with store.transaction() as s:
        regs = list(s.scalars(select(RegistrationRow).where(RegistrationRow.name == "김민지")))
        assert len(regs) == 2 and regs[0].player_id != regs[1].player_id
    from meldtour.application.circuit import rating_table

    table = rating_table(store)
    rated = {r.person for r in (*table.lines, *table.provisional)}
    assert rated == {r.player_id for r in _regs(store)} and len(rated) == len(NAMES)
    # A second tournament never finds a 김민지 again by the name alone: three new people;
    # the one whose birth year is given is the earlier 김민지 of that birth year.
    from meldtour.application import circuit

    circuit.set_person(store, regs[1].player_id, who=OP, birth_year=2001)
    slug2, _ = uc.create_tournament(store, "club-night", who="d", seed=4, slug="club2")
    uc.register_players(
        store,
        slug2,
        [
            uc.PlayerEntry("김민지"),
            uc.PlayerEntry("김민지"),
            uc.PlayerEntry("김민지", birth_year=2001),
        ],
        who="d",
    )
    with store.transaction() as s:
        pids = [
            r.player_id
            for r in s.scalars(
                select(RegistrationRow)
                .join(TournamentRow)
                .where(TournamentRow.slug == "club2")
                .order_by(RegistrationRow.number)
            )
        ]
    assert len(set(pids)) == 3 and pids[2] == regs[1].player_id
    assert not {pids[0], pids[1]} & {r.player_id for r in regs}


def test_the_awards_command_names_both(
    tmp_path: Path, db_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MELDTOUR_DATABASE_URL", db_url)
    monkeypatch.delenv("MELDTOUR_TOURNAMENT", raising=False)
    monkeypatch.chdir(tmp_path)
    assert main(["db", "upgrade"]) == 0
    (tmp_path / "p.csv").write_text("name\n" + "\n".join(NAMES) + "\n", encoding="utf-8")
    assert main(["tournament", "new", "--template", "club-night", "--slug", "club"]) == 0
    assert main(["tournament", "players", "import", str(tmp_path / "p.csv")]) == 0
    assert main(["tournament", "checkin", "--all-but"]) == 0
    for rnd in range(1, 5):
        assert main(["tournament", "seat", str(rnd)]) == 0
        assert main(["tournament", "simulate", str(rnd)]) == 0
    assert main(["tournament", "close"]) == 0
    capsys.readouterr()
    assert main(["tournament", "awards", "--json"]) == 0
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    assert [a["place"] for a in json.loads(out)] == [1, 2, 3]


def test_migration_0008_parts_registrations_that_shared_a_person(db_url: str) -> None:
    engine = make_engine(db_url)
    upgrade(engine, "0007")
    store = Store(engine)
    try:
        with store.transaction() as s:
            tid = old_tournament(
                s,
                slug="before",
                name="Before",
                date="",
                venue="",
                seed=1,
                template="club-night",
                created_at="2026",
                updated_at="2026",
            )
            did = old_row(
                s,
                DivisionRow,
                tournament_id=tid,
                position=0,
                key="club",
                name="Club",
                cap=8,
                eligibility="",
                rules={},
                formats=[],
                ranking=None,
                keep_apart=[],
                groups_hard=False,
                late_entry=False,
                prizes=3,
                started=False,
            )
            p = Player(name="김민지", created_at="2026")
            s.add(p)
            s.flush()
            for n in (1, 2):
                s.add(
                    RegistrationRow(
                        tournament_id=tid,
                        division_id=did,
                        player_id=p.id,
                        number=n,
                        name="김민지",
                        tags=[],
                        generation=None,
                        status="registered",
                        late=False,
                    )
                )
        upgrade(engine)
        with store.transaction() as s:
            pids = list(
                s.scalars(select(RegistrationRow.player_id).order_by(RegistrationRow.number))
            )
            assert len(set(pids)) == 2 and pids[0] == p.id
            assert s.scalar(select(func.count()).select_from(Player)) == 2
    finally:
        store.close()


def _regs(store: Store) -> list[RegistrationRow]:
    with store.reading() as s:
        return list(s.scalars(select(RegistrationRow)))
