"""Issue 25, finding 2: a correction after the awards reaches the awards, the ranking,
the person pages, the qualification holders and the rating — warned first, with what
changes, and awarded again only on confirmation (audited)."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from meldtour import application as uc
from meldtour.application import circuit as cc
from meldtour.application.circuit import results as derived
from meldtour.cli import main
from meldtour.store import circuit as rows
from meldtour.tournament import final_ranking

from ..circuit_play import play_out
from ..store.backends import upgraded

NAMES = [
    "박서준",
    "김민지",
    "이서연",
    "최하은",
    "정도윤",
    "강서연",
    "조민준",
    "윤지우",
    "장하준",
    "임수아",
    "한지민",
    "오예준",
]


@pytest.fixture
def club(tmp_path: Path) -> Iterator[tuple[str, object]]:
    url = f"sqlite:///{tmp_path / 'club.db'}"
    with upgraded(url) as store:
        uc.create_tournament(store, "club-night", who="d", seed=4, slug="club4", date="2026-11-04")
        uc.register_players(
            store,
            "club4",
            [uc.PlayerEntry(n, "club", birth_year=1980 + i) for i, n in enumerate(NAMES)],
            who="d",
        )
        uc.check_in_players(store, "club4", [], who="d", everyone_but=True, division="club")
        play_out(store, "club4", "club", seed=4)
        cc.grant_qualification(
            store,
            "club4",
            "club",
            "sel27",
            label="Selection 2027",
            seats=3,
            who=cc.Acting.operator("d"),
        )
        yield url, store


def run(url: str, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main([*argv, "--db", url, "-t", "club4"])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


def _third_drops(store: object, tmp_path: Path) -> tuple[int, int, Path]:
    """A fix for the last round's table of the 3rd place: they lose every game there,
    with the lowest score of the table (the scores of the others kept)."""
    t = uc.read(store, "club4")  # type: ignore[arg-type]
    third = final_ranking(t, "club")[2].player
    rnd = t.division("club").stages[-1].rounds[-1]
    table = next(x for x in rnd.tables if third in x.players)
    seat = table.players.index(third)
    path = tmp_path / "fix.csv"
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["game", "player", "points", "winner"])
        for g, line in enumerate(table.sheet.counted or table.sheet.games, 1):
            pts = list(line.points)
            low = pts.index(min(pts))
            pts[seat], pts[low] = pts[low], pts[seat]
            win = pts.index(max(pts))
            for s, p in enumerate(table.players):
                w.writerow([g, p, pts[s], "1" if s == win else ""])
    return third, rnd.number, path


def test_a_correction_after_the_awards_warns_then_awards_again(
    club: tuple[str, object], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    url, store = club
    code, out, _ = run(url, capsys, "tournament", "awards", "--json")
    assert code == 0
    before = json.loads(out)
    third, rnd, fix = _third_drops(store, tmp_path)
    assert before[2]["player"] == third
    t = uc.read(store, "club4")  # type: ignore[arg-type]
    table = next(
        x for x in t.division("club").stages[-1].rounds[-1].tables if third in x.players
    ).number
    ranking_before = cc.ranking_table(store)  # type: ignore[arg-type]

    # without confirmation: refused with what changes, nothing saved
    code, _, err = run(
        url,
        capsys,
        "tournament",
        "sheet",
        "enter",
        str(rnd),
        str(table),
        str(fix),
        "--why",
        "the table's sheet was read wrong",
    )
    assert code == 1
    assert f"place: {t.name_of(third)} (#{third}) 3rd →" in err
    assert "prize 3:" in err and "ranking club:" in err
    assert "qualification Selection 2027" in err and "--reaward" in err
    assert json.loads(run(url, capsys, "tournament", "awards", "--json")[1]) == before
    assert cc.ranking_table(store).lines == ranking_before.lines  # type: ignore[arg-type]

    code, out, _ = run(
        url,
        capsys,
        "tournament",
        "sheet",
        "enter",
        str(rnd),
        str(table),
        str(fix),
        "--why",
        "the table's sheet was read wrong",
        "--reaward",
    )
    assert code == 0 and "awarded again: club4/club" in out
    t = uc.read(store, "club4")  # type: ignore[arg-type]
    now = final_ranking(t, "club")
    place = next(p.place for p in now if p.player == third)
    assert place > 3
    # the awards, the ranking, the person page and the holders all say the new place
    after = json.loads(run(url, capsys, "tournament", "awards", "--json")[1])
    assert [a["player"] for a in after] == [p.player for p in now[:3]]
    assert run(url, capsys, "tournament", "export", "--csv", str(tmp_path / "x"))[0] == 0
    with (tmp_path / "x" / "awards.csv").open(encoding="utf-8") as f:
        assert [int(r["player"]) for r in csv.DictReader(f)] == [p.player for p in now[:3]]
    with store.reading() as s:  # type: ignore[attr-defined]
        did = rows.division_id(s, "club4", "club")
        stored = {reg: place for reg, place in rows.stored_places(s, did).items()}
        reg = rows.registration(s, "club4", third)
        assert reg is not None and stored[reg.id] == place
        pid = reg.player_id
    page = cc.person_page(store, pid)  # type: ignore[arg-type]
    assert page is not None and page.person.entries[0].place == place
    assert page.person.entries[0].field == len(NAMES)
    line = next(
        x
        for x in cc.ranking_table(store).lines  # type: ignore[arg-type]
        if x.person == pid
    )
    assert line.events[0].place == place
    held = [
        h.number
        for h in cc.holders(store, "sel27")  # type: ignore[arg-type]
        if h.status == "holds"
    ]
    assert held == [p.player for p in now[:3]] and third not in held
    # the rating is derived from the sheets as they are now: the person is rated
    table = cc.rating_table(store)  # type: ignore[arg-type]
    assert pid in {x.person for x in table.lines + table.provisional}
    # audited: the reaward line says what changed
    code, out, _ = run(url, capsys, "tournament", "audit", "--json")
    lines = json.loads(out)
    again = [a for a in lines if a["action"] == "reaward"]
    assert len(again) == 1 and again[0]["why"] == "the table's sheet was read wrong"
    assert [third, t.name_of(third), 3, place] in again[0]["after"]["places"]


def test_a_changed_seat_is_flagged_to_the_event_it_leads_to(
    club: tuple[str, object], tmp_path: Path
) -> None:
    _url, store = club
    uc.create_tournament(
        store,
        "japan-championship",
        who="d",
        slug="sel27",  # type: ignore[arg-type]
        date="2027-02-01",
    )
    cc.set_quota(store, "sel27", "open", "sel27", 3, who=cc.Acting.operator("d"))  # type: ignore[arg-type]
    third, rnd, fix = _third_drops(store, tmp_path)
    t = uc.read(store, "club4")  # type: ignore[arg-type]
    table = next(x for x in t.division("club").stages[-1].rounds[-1].tables if third in x.players)
    games = []
    with fix.open(encoding="utf-8") as f:
        got: dict[int, dict[int, tuple[int, bool]]] = {}
        for r in csv.DictReader(f):
            got.setdefault(int(r["game"]), {})[int(r["player"])] = (
                int(r["points"]),
                r["winner"] == "1",
            )
    for g, line in sorted(got.items()):
        pts = tuple(line[p][0] for p in table.players)
        win = next(i for i, p in enumerate(table.players, 1) if line[p][1])
        games.append(uc.GameEntry(g, pts, (0,) * len(pts), win))
    with pytest.raises(derived.AwardsWouldChange) as refused:
        uc.enter_sheet(
            store,
            "club4",
            "club",
            rnd,
            table.number,
            games,  # type: ignore[arg-type]
            who="d",
            why="fix",
        )
    seen = refused.value.reaward
    assert seen is not None and seen.seats and seen.seats[0].leads_to == ("sel27/open",)
    out = uc.enter_sheet(
        store,
        "club4",
        "club",
        rnd,
        table.number,
        games,  # type: ignore[arg-type]
        who="d",
        why="fix",
        reaward=True,
    )
    assert out.reawards and out.reawards[0].seats
    with store.reading() as s:  # type: ignore[attr-defined]
        from meldtour.store import audit
        from meldtour.store.repository import find_tournament

        flagged = [
            a
            for a in audit.lines(s, find_tournament(s, "sel27").id)
            if a["action"] == "seat_holder_changed"
        ]
    assert len(flagged) == 1 and flagged[0]["after"]["by"] == "club4/club"
    assert any(f"#{third}" in h for h in flagged[0]["before"]["holders"])
