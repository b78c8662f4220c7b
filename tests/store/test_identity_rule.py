"""Issue 25, findings 4, 5 and 9 on the command line and in the store: a merge with
contradicting member numbers or birth years is refused unless ``--keep`` says which
value stands (the dropped one in the people's log); ``players import`` reports the
returning players with the evidence and takes the decision from a ``person`` column
or ``--link``/``--new``; ``people list 이준`` finds "이 준"; the same commands give the
same person numbers on SQLite and PostgreSQL (no person row is made and thrown away)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from meldtour import application as uc
from meldtour.application import circuit
from meldtour.cli import main
from meldtour.store.circuit import MergeRow
from meldtour.store.db import Store

from ..circuit_play import play_out
from .backends import BACKENDS, database, upgraded

OP = circuit.Acting.operator("d")
BUSAN = ["김민지", "이 준", "박지호", "최하은", "정도윤", "강서연", "조민준", "윤지우"]


def season(store: Store) -> list[tuple[int, str]]:
    """Busan played, a club night with returning players found by the evidence, a
    qualification claimed by code, a merge and a split: every person's number."""
    uc.create_tournament(store, "busan-2015", who="d", seed=5, slug="busan", date="2026-03-07")
    uc.register_players(
        store,
        "busan",
        [uc.PlayerEntry(n, "general", birth_year=1980 + i) for i, n in enumerate(BUSAN)],
        who="d",
    )
    uc.check_in_players(store, "busan", [], who="d", everyone_but=True, division="general")
    play_out(store, "busan", "general", seed=5)
    circuit.grant_qualification(store, "busan", "general", "q", label="Q", seats=8, who=OP)
    uc.create_tournament(store, "club-night", who="d", seed=2, slug="club", date="2026-04-01")
    uc.register_players(
        store,
        "club",
        [uc.PlayerEntry(n, birth_year=1980 + i) for i, n in enumerate(BUSAN[:4])]
        + [uc.PlayerEntry("새사람")],
        who="d",
    )
    uc.create_tournament(store, "busan-2015", who="d", seed=6, slug="sel", date="2027-01-01")
    circuit.set_quota(store, "sel", "general", "q", 8, who=OP)
    codes = {h.person: h.claim for h in circuit.holders(store, "q", who=OP)}
    holders = [h for h in circuit.holders(store, "q") if h.status == "holds"]
    uc.register_players(
        store,
        "sel",
        [uc.PlayerEntry(h.name, "general", claim=codes[h.person]) for h in holders[:3]],
        who="web",
    )
    returning = next(h.person for h in holders if len(circuit.person(store, h.person).entries) > 1)
    circuit.split(store, returning, ["club"], who=OP, why="two people")
    return sorted((p.person, p.name) for p in circuit.people(store))


@pytest.mark.parametrize("kind", BACKENDS)
def test_person_numbers_are_the_same_on_every_backend(kind: str, tmp_path: Path) -> None:
    with database("sqlite", tmp_path) as url, upgraded(url) as store:
        expected = season(store)
    with database(kind, tmp_path) as url, upgraded(url) as store:
        got = season(store)
        with store.reading() as s:
            from meldtour.store.models import Player

            made = s.query(Player).count()
    assert got == expected
    assert made == len(got)  # no person row was made and thrown away, none left over
    assert [n for _p, n in got].count("김민지") == 1  # found again by the birth year


@pytest.fixture()
def url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    url = f"sqlite:///{tmp_path / 'm.db'}"
    monkeypatch.setenv("MELDTOUR_DATABASE_URL", url)
    monkeypatch.setenv("MELDTOUR_USER", "director")
    monkeypatch.delenv("MELDTOUR_TOURNAMENT", raising=False)
    assert main(["db", "upgrade"]) == 0
    return url


def test_a_merge_of_contradicting_details_needs_keep(
    url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with upgraded(url) as store:
        for slug in ("a", "b"):
            uc.create_tournament(store, "club-night", who="d", slug=slug)
        uc.register_players(
            store,
            "a",
            [uc.PlayerEntry("송민호", member_number="KRF-3001", birth_year=1980)],
            who="d",
        )
        uc.register_players(
            store,
            "b",
            [uc.PlayerEntry("송민호", member_number="KRF-3002", birth_year=1970, person="new")],
            who="d",
        )
        one, two = (p.person for p in circuit.people(store, "송민호"))
    capsys.readouterr()
    assert main(["people", "merge", str(one), str(two), "--why", "same man"]) == 1
    assert f"member differs (#{one} KRF-3001, #{two} KRF-3002)" in capsys.readouterr().err
    assert (
        main(
            [
                "people",
                "merge",
                str(one),
                str(two),
                "--why",
                "same man",
                "--keep",
                "member=KRF-3001",
            ]
        )
        == 1
    )
    assert "birth-year differs" in capsys.readouterr().err
    assert (
        main(
            [
                "people",
                "merge",
                str(one),
                str(two),
                "--why",
                "same man",
                "--keep",
                "member=KRF-3001",
                "--keep",
                "birth-year=1999",
            ]
        )
        == 1
    )
    assert "'1999' is not a birth-year of the two people" in capsys.readouterr().err
    assert (
        main(
            [
                "people",
                "merge",
                str(one),
                str(two),
                "--why",
                "same man",
                "--keep",
                "member=KRF-3002",
                "--keep",
                "birth-year=1980",
            ]
        )
        == 0
    )
    with upgraded(url) as store:
        kept = circuit.person(store, one)
        assert (kept.member_number, kept.birth_year) == ("KRF-3002", 1980)
        with store.reading() as s:
            why = [m.why for m in s.query(MergeRow).all() if m.kind == "merge"]
    assert why == ["same man; dropped birth year 1970; dropped member number KRF-3001"]


def test_the_import_reports_returning_players_and_takes_a_decision(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with upgraded(url) as store:
        uc.create_tournament(store, "busan-2015", who="d", seed=5, slug="busan", date="2026-03-07")
        uc.register_players(
            store,
            "busan",
            [uc.PlayerEntry(n, "general", birth_year=1980 + i) for i, n in enumerate(BUSAN)],
            who="d",
        )
        uc.create_tournament(store, "club-night", who="d", slug="club")
        lee = circuit.people(store, "이 준")[0].person
        park = circuit.people(store, "박지호")[0].person
    path = tmp_path / "club.csv"
    path.write_text(
        "name,birth year,person\n이준,1981,\n박지호,,\n최하은,,new\n새사람,,\n", encoding="utf-8"
    )
    capsys.readouterr()
    assert main(["tournament", "-t", "club", "players", "import", str(path)]) == 1
    err = capsys.readouterr().err
    assert (
        f"line 2 이준: people of this name played before — #{lee} 이 준: member unknown"
        ", born 1981 (the same)" in err
    )
    assert "line 3 박지호" in err and "a new person (no evidence)" in err
    assert "line 4" not in err and "line 5" not in err  # decided, and nobody of that name
    assert "2 lines name people who played before" in err
    with upgraded(url) as store:
        assert uc.read(store, "club").registrations == ()
    assert (
        main(["tournament", "-t", "club", "players", "import", str(path), "--new", "--json"]) == 0
    )
    assert json.loads(capsys.readouterr().out)["registered"] == 4
    with upgraded(url) as store:
        people = [r.player_id for r in uc.registrations_by_number(store, "club").values()]
    assert lee not in people and park not in people  # --new: every open line is new
    # people list matches as the preview does (spaces and width aside)
    assert main(["people", "list", "이준", "--json"]) == 0
    assert {p["name"] for p in json.loads(capsys.readouterr().out)} == {"이 준", "이준"}


def test_the_import_links_by_the_evidence_with_link(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with upgraded(url) as store:
        uc.create_tournament(store, "busan-2015", who="d", seed=5, slug="busan")
        uc.register_players(
            store,
            "busan",
            [uc.PlayerEntry(n, "general", birth_year=1980 + i) for i, n in enumerate(BUSAN)],
            who="d",
        )
        uc.create_tournament(store, "club-night", who="d", slug="club")
        lee = circuit.people(store, "이 준")[0].person
        park = circuit.people(store, "박지호")[0].person
    path = tmp_path / "club.csv"
    path.write_text(f"name,birth year,person\n이준,1981,\n박지호,,#{park}\n", encoding="utf-8")
    assert main(["tournament", "-t", "club", "players", "import", str(path), "--link"]) == 0
    with upgraded(url) as store:
        people = [r.player_id for r in uc.registrations_by_number(store, "club").values()]
    assert people == [lee, park]


def test_the_desks_late_entry_goes_through_the_same_rule(tmp_path: Path) -> None:
    """A late entry into a division by qualification: a name takes no seat, the holder
    chosen (or by code) does; a contradicting birth year refuses."""
    with database("sqlite", tmp_path) as url, upgraded(url) as store:
        uc.create_tournament(store, "club-night", who="d", seed=2, slug="a", date="2026-01-01")
        uc.register_players(
            store,
            "a",
            [uc.PlayerEntry(n, birth_year=1990) for n in ("가", "나", "다", "라", "마", "바")],
            who="d",
        )
        uc.check_in_players(store, "a", [], who="d", everyone_but=True, division="club")
        play_out(store, "a", "club", seed=1)
        circuit.grant_qualification(store, "a", "club", "k", label="K", seats=6, who=OP)
        uc.create_tournament(store, "club-night", who="d", seed=3, slug="b")
        circuit.set_quota(store, "b", "club", "k", 6, who=OP)
        uc.register_players(
            store,
            "b",
            [uc.PlayerEntry(h.name, person=h.person) for h in circuit.holders(store, "k")[:4]],
            who="d",
        )
        uc.check_in_players(store, "b", [], who="d", everyone_but=True, division="club")
        uc.seat(store, "b", "club", 1, who="d")
        last = circuit.holders(store, "k", who=OP)[4]
        with pytest.raises(uc.UseCaseError) as refused:
            uc.enter_late(store, "b", "club", last.name, who="d")
        assert refused.value.code == "circuit.needs_claim"
        with pytest.raises(uc.UseCaseError) as refused:
            uc.enter_late(
                store, "b", "club", last.name, who="d", person=last.person, birth_year=2001
            )
        assert refused.value.code == "circuit.birth_year_differs"
        out = uc.enter_late(store, "b", "club", last.name, who="d", claim=last.claim)
        reg = uc.registrations_by_number(store, "b")[out.tournament.registrations[-1].player]
        assert reg.player_id == last.person
