"""The circuit's commands on one database: ``meldtour ranking`` (define, count, list,
the table), ``meldtour rating``, ``meldtour people`` (list, set, candidates, same,
split, merge) and ``meldtour qualify``; bad input is refused with a message naming
it, exit 1 or 2, no traceback, nothing changed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from meldtour import application as uc
from meldtour.cli import main
from meldtour.store.db import open_store

from ..circuit_play import play_out
from ..store.backends import upgraded

NAMES = ["김민지", "김민지", "이서준", "박지호", "최하은", "정도윤", "강서연", "조민준"]


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    url = f"sqlite:///{tmp_path_factory.mktemp('cli') / 'circuit.db'}"
    with upgraded(url) as store:
        for slug, day in (("spring", "2026-03-07"), ("autumn", "2026-10-03")):
            uc.create_tournament(store, "busan-2015", who="d", seed=len(slug), slug=slug, date=day)
            # each found again in autumn by the birth year given (never by the name alone)
            uc.register_players(
                store,
                slug,
                [uc.PlayerEntry(n, "general", birth_year=1980 + i) for i, n in enumerate(NAMES)],
                who="d",
            )
            uc.check_in_players(store, slug, [], who="d", everyone_but=True, division="general")
            play_out(store, slug, "general", seed=len(slug))
    yield url


def run(db: str, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main([*argv, "--db", db])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


def test_ranking_define_count_and_read(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(db, capsys, "ranking", "--as-of", "2026-12-31", "--json")
    assert code == 0 and len(json.loads(out)) == len(NAMES)
    code, out, _ = run(
        db,
        capsys,
        "ranking",
        "define",
        "krf",
        "--name",
        "KRF",
        "--best",
        "1",
        "--table",
        "100,50,25",
        "--half-life",
        "0",
        "--only-listed",
        "--json",
    )
    assert code == 0 and json.loads(out)["config"]["table"] == [100.0, 50.0, 25.0]
    assert (
        run(
            db,
            capsys,
            "ranking",
            "count",
            "krf",
            "-t",
            "spring",
            "-d",
            "general",
            "--level",
            "regional",
        )[0]
        == 0
    )
    code, out, _ = run(db, capsys, "ranking", "--ranking", "krf", "--json")
    lines = json.loads(out)
    assert [x["points"] for x in lines[:3]] == [50.0, 25.0, 12.5]  # × regional 0.5
    assert {e["tournament"] for x in lines for e in x["events"]} == {"spring"}
    code, out, _ = run(db, capsys, "ranking", "list")
    assert code == 0 and "krf: KRF" in out and "best 1" in out
    # the only ranking defined is the one read; with two, the table needs --ranking
    assert json.loads(run(db, capsys, "ranking", "--json")[1]) == lines
    assert run(db, capsys, "ranking", "define", "club")[0] == 0
    code, _, err = run(db, capsys, "ranking", "--json")
    assert code == 1 and "several rankings" in err
    for argv, said in (
        (["ranking", "--ranking", "nope"], "no ranking 'nope'"),
        (["ranking", "--ranking", "krf", "--as-of", "soon"], "YYYY-MM-DD"),
        (["ranking", "define", "Bad Key"], "letters, digits"),
        (["ranking", "define", "x", "--best", "0"], "at least one result"),
        (["ranking", "define", "x", "--weight", "world=lots"], "a number"),
        (["ranking", "count", "krf", "-t", "spring", "-d", "nope"], "no division 'nope'"),
    ):
        code, _, err = run(db, capsys, *argv)
        assert code == 1 and said in err, (argv, err)


def test_rating_best_first(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(db, capsys, "rating", "--json")
    rated = json.loads(out)
    assert code == 0 and len(rated["lines"]) + len(rated["provisional"]) == len(NAMES)
    code, out, _ = run(db, capsys, "rating", "--pool", rated["pool"], "--json")
    assert json.loads(out) == rated  # derived: the same reading again
    person = (rated["lines"] + rated["provisional"])[0]["person"]
    code, out, _ = run(db, capsys, "rating", "--person", str(person), "--json")
    mine = json.loads(out)
    assert code == 0 and [r["pool"] for r in mine] == [rated["pool"]]
    assert [h["event"] for h in mine[0]["history"]] == ["spring/general", "autumn/general"]
    for argv, said in (
        (["rating", "--pool", "nope"], "no rating pool 'nope'"),
        (["rating", "--as-of", "soon"], "YYYY-MM-DD"),
        (["rating", "pool", "Bad Pool", "-t", "spring", "-d", "general"], "letters, digits"),
    ):
        code, _, err = run(db, capsys, *argv)
        assert code == 1 and said in err, (argv, err)


def test_people_commands(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(db, capsys, "people", "list", "김민지", "--json")
    kims = json.loads(out)
    assert code == 0 and len(kims) == 2
    a, b = kims[0]["person"], kims[1]["person"]
    assert (
        run(
            db,
            capsys,
            "people",
            "set",
            str(b),
            "--member",
            "KRF-9",
            "--birth-year",
            "1999",
            "--contact",
            "kim@example.org",
        )[0]
        == 0
    )
    code, out, _ = run(db, capsys, "people", "candidates", "-t", "autumn", "1", "--json")
    found = json.loads(out)
    assert found["registration"]["person"] == a and "contact" not in found["registration"]
    assert found["candidates"][0]["person"] == b and found["candidates"][0]["played_together"]
    code, _, err = run(db, capsys, "people", "merge", str(a), str(b), "--why", "same?")
    assert code == 1 and "two people" in err
    code, _, err = run(db, capsys, "people", "merge", str(a), "x", "--why", "x")
    assert code == 1 and "must be a number" in err
    code, _, err = run(db, capsys, "people", "merge", str(a), str(a + 1000), "--why", "x")
    assert code == 1 and "no person" in err
    code, _, err = run(db, capsys, "people", "set", str(a), "--member", "KRF-9")
    assert code == 1 and "belongs to" in err
    code, _, err = run(
        db,
        capsys,
        "people",
        "split",
        str(a),
        "--tournament",
        "spring",
        "--tournament",
        "autumn",
        "--why",
        "x",
    )
    assert code == 1 and "at least one registration" in err
    code, out, _ = run(
        db,
        capsys,
        "people",
        "split",
        str(a),
        "--tournament",
        "autumn",
        "--why",
        "a different 김민지",
        "--json",
    )
    new = json.loads(out)["person"]["person"]
    code, _, err = run(db, capsys, "people", "merge", str(b), str(new), "--why", "x")
    assert code == 1 and "both played in autumn" in err  # b is autumn's other 김민지
    code, out, _ = run(
        db,
        capsys,
        "people",
        "merge",
        str(a),
        str(new),
        "--why",
        "the split was a mistake",
        "--json",
    )
    assert code == 0 and [t["tournament"] for t in json.loads(out)["person"]["tournaments"]] == [
        "spring",
        "autumn",
    ]
    code, out, _ = run(db, capsys, "people", "show", str(b))
    assert code == 0 and "KRF-9" in out
    store = open_store(db)
    try:
        log = uc.audit_log(store, "spring")
    finally:
        store.close()
    assert not any(a["action"].startswith("people_") for a in log)  # the people's own
    assert run(db, capsys, "people")[0] == 2


def test_qualify_commands(db: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(
        db,
        capsys,
        "qualify",
        "grant",
        "sel",
        "-t",
        "spring",
        "-d",
        "general",
        "--seats",
        "2",
        "--label",
        "2018 Korean selection",
        "--json",
    )
    holders = json.loads(out)
    assert code == 0 and [h["status"] for h in holders] == ["holds", "holds", "next"]
    first = holders[0]
    store = open_store(db)
    try:
        number = next(
            n
            for n, r in uc.registrations_by_number(store, "spring").items()
            if r.player_id == first["person"]
        )
    finally:
        store.close()
    code, out, _ = run(
        db,
        capsys,
        "qualify",
        "decline",
        "sel",
        "-t",
        "spring",
        str(number),
        "--why",
        "abroad",
        "--json",
    )
    assert [h["status"] for h in json.loads(out)] == ["declined", "holds", "holds", "next"]
    code, _, err = run(db, capsys, "qualify", "decline", "sel", "-t", "spring", str(number))
    assert code == 1 and "does not hold 2018 Korean selection" in err
    code, _, err = run(
        db, capsys, "qualify", "grant", "x", "-t", "spring", "-d", "general", "--seats", "0"
    )
    assert code == 1 and "1 or more" in err
    assert (
        run(db, capsys, "tournament", "new", "--template", "busan-2015", "--slug", "selection")[0]
        == 0
    )
    code, out, _ = run(
        db,
        capsys,
        "qualify",
        "quota",
        "sel",
        "-t",
        "selection",
        "-d",
        "general",
        "--seats",
        "2",
        "--json",
    )
    seats = json.loads(out)
    assert seats[0]["seats"] == 2 and seats[0]["taken"] == 0
    (tmp_path / "p.csv").write_text("name,division\n" + "아무개,general\n", encoding="utf-8")
    code, _, err = run(
        db, capsys, "tournament", "-t", "selection", "players", "import", str(tmp_path / "p.csv")
    )
    assert code == 1 and "by qualification only" in err
    code, out, _ = run(db, capsys, "qualify", "list", "sel")
    assert code == 0 and "declined" in out
