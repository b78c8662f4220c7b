"""Acceptance: a director runs the Busan general division from the terminal alone —
64 players from a CSV, check-in with 3 no-shows, two seatings of 4 games with
computer-made scores entered as sheet files, a top-4 final, awards — on SQLite and
on PostgreSQL, and the final standings are the pure engine's."""

from __future__ import annotations

import csv
import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from meldtour.cli import main
from meldtour.tournament import (
    Tournament,
    check_in,
    close_round,
    enter_table_game,
    final_ranking,
    register,
    seat_round,
    stage_standings,
    start_division,
    start_stage,
    submit_table,
)
from meldtour.tournament.simulate import PlayedGame, plausible_game
from meldtour.tournament.templates import from_template
from tests.store.backends import BACKENDS, database

NO_SHOWS = ("G07", "G23", "G50")


@pytest.fixture(params=BACKENDS)
def db(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[str]:
    with database(request.param, tmp_path) as url:
        monkeypatch.setenv("MELDTOUR_DATABASE_URL", url)
        monkeypatch.delenv("MELDTOUR_TOURNAMENT", raising=False)
        monkeypatch.setenv("MELDTOUR_USER", "director")
        monkeypatch.chdir(tmp_path)
        yield url


def cli(capsys: pytest.CaptureFixture[str], *argv: str, code: int = 0) -> str:
    capsys.readouterr()
    got = main(list(argv))
    out = capsys.readouterr()
    assert got == code, (argv, out.out, out.err)
    return out.out if code == 0 else out.out + out.err


def cli_json(capsys: pytest.CaptureFixture[str], *argv: str) -> object:
    return json.loads(cli(capsys, *argv, "--json"))


def game_for(rnd: str, table: int, game: int, seats: int) -> PlayedGame:
    rules = from_template("busan-2015").division("general").rules
    return plausible_game(random.Random(f"{rnd}:{table}:{game}"), seats, rules)


def write_sheet(path: Path, players: list[int], stage: str, table: int, games: int) -> None:
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["game", "player", "points", "penalty"])
        for g in range(1, games + 1):
            played = game_for(stage, table, g, len(players))
            for p, pts in zip(players, played.points, strict=True):
                w.writerow([g, f"#{p}", pts, ""])


def pure_busan() -> Tournament:
    """The same day on the pure engine alone."""
    t = from_template("busan-2015", seed=2015)
    for i in range(1, 65):
        t = register(t, "general", f"G{i:02d}", tags=["family:kim"] if i <= 3 else []).tournament
    for r in t.in_division("general"):
        if r.name not in NO_SHOWS:
            t = check_in(t, r.player).tournament
    t = start_division(t, "general").tournament
    t = start_stage(t, "general").tournament
    for rnd, stage in ((1, "prelim1"), (2, "prelim2"), (1, "final")):
        if stage == "final":
            t = close_round(t, "general").tournament
            t = start_stage(t, "general").tournament
        elif rnd == 2:
            t = close_round(t, "general").tournament
        t = seat_round(t, "general").tournament
        for x in t.division("general").stages[-1].rounds[-1].tables:
            for g in range(1, len(x.sheet.games) + 1):
                played = game_for(stage, x.number, g, len(x.players))
                t = enter_table_game(
                    t, "general", rnd, x.number, g, played.points, who="ref"
                ).tournament
            t = submit_table(t, "general", rnd, x.number, who="ref").tournament
    return close_round(t, "general").tournament


def test_the_busan_general_division_from_the_terminal(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert "meldtour db upgrade" in cli(capsys, "tournament", "list", code=1)
    cli(capsys, "db", "upgrade")
    made = cli_json(
        capsys, "tournament", "new", "--template", "busan-2015", "--seed", "2015", "--slug", "busan"
    )
    assert made == {
        "slug": "busan",
        "name": "KRC 2015 Busan",
        "date": "2015-12-05",
        "seed": 2015,
        "divisions": ["general", "lower", "upper"],
    }
    assert cli(
        capsys, "tournament", "new", "--template", "club-night", "--slug", "busan", code=1
    ) == ("meldtour tournament new: there is already a tournament 'busan': choose another --slug\n")

    players = tmp_path / "players.csv"
    players.write_text(
        "name,division,tags\n"
        + "".join(f"G{i:02d},general,{'family:kim' if i <= 3 else ''}\n" for i in range(1, 65)),
        encoding="utf-8",
    )
    bad = tmp_path / "bad.csv"
    bad.write_text("name,division\nA,general\nB,seniors\n", encoding="utf-8")
    assert "row 3: no division 'seniors'" in cli(
        capsys, "tournament", "players", "import", str(bad), code=1
    )
    imported = cli_json(capsys, "tournament", "players", "import", str(players))
    assert imported["registered"] == 64 and imported["waitlisted"] == 0  # type: ignore[index]
    assert len(cli_json(capsys, "tournament", "players", "list")) == 64  # type: ignore[arg-type]
    done = cli_json(capsys, "tournament", "checkin", "--all-but", *NO_SHOWS)
    assert done["checked_in"] == 61  # type: ignore[index]

    # two seatings of 4 games; check-in closes at the first seating
    for rnd in (1, 2):
        seated = cli_json(capsys, "tournament", "seat", str(rnd))
        tables = seated["tables"]  # type: ignore[index]
        if rnd == 1:
            assert sum(n.endswith("did not check in") for n in seated["notices"]) == 3  # type: ignore[index]
        assert sorted(len(x["players"]) for x in tables) == [3] * 3 + [4] * 13
        for x in tables:
            path = tmp_path / f"r{rnd}t{x['table']}.csv"
            write_sheet(path, [p["number"] for p in x["players"]], f"prelim{rnd}", x["table"], 4)
            sheet = cli_json(
                capsys, "tournament", "sheet", "enter", str(rnd), str(x["table"]), str(path)
            )
            assert sheet["counted"] and sheet["problems"] == []  # type: ignore[index]
        if rnd == 1:
            text = cli(capsys, "tournament", "standings")
            assert "decided by" in text and "G" in text

    # the final: top 4, 3 games, not carried
    adv = cli_json(capsys, "tournament", "advance")
    assert len(adv["entrants"]) == 4  # type: ignore[index]
    final = cli_json(capsys, "tournament", "seat", "1")
    (table,) = final["tables"]  # type: ignore[index]
    path = tmp_path / "final.csv"
    write_sheet(path, [p["number"] for p in table["players"]], "final", 1, 3)
    cli(capsys, "tournament", "sheet", "enter", "1", "1", str(path))
    cli(capsys, "tournament", "close")
    awards = cli_json(capsys, "tournament", "awards")
    standings = cli_json(capsys, "tournament", "standings")
    ranking = cli_json(capsys, "tournament", "ranking")

    # the pure engine, given the same day, agrees
    pure = pure_busan()
    want = stage_standings(pure, "general", 1)
    assert [
        (s["player"], s["wins"], s["points"], s["decided_by"])  # type: ignore[index]
        for s in standings
    ] == [(s.player, s.wins, s.points, s.decided_by) for s in want]  # type: ignore[union-attr]
    assert [p["player"] for p in ranking] == [  # type: ignore[index, union-attr]
        p.player for p in final_ranking(pure, "general")
    ]
    prelim = cli_json(capsys, "tournament", "standings", "--stage", "1")
    assert [s["player"] for s in prelim] == [  # type: ignore[index, union-attr]
        s.player for s in stage_standings(pure, "general", 0)
    ]
    assert (
        [(a["place"], a["player"]) for a in awards]
        == [  # type: ignore[index, union-attr]
            (p.place, p.player) for p in final_ranking(pure, "general")[:4]
        ]
    )

    cli(capsys, "tournament", "export", "--csv", str(tmp_path / "out"))
    assert (tmp_path / "out" / "results-general.csv").read_text().count("\n") == 1 + (
        13 * 4 + 3 * 3
    ) * 8 + 4 * 3
    awarded = (tmp_path / "out" / "awards.csv").read_text().splitlines()
    assert awarded[0] == "division,place,player,name" and len(awarded) == 5

    # backup → restore into an empty database → backup: identical
    cli(capsys, "backup", str(tmp_path / "one.json"))
    with database("sqlite", tmp_path) as other:
        cli(capsys, "restore", str(tmp_path / "one.json"), "--db", other)
        cli(capsys, "backup", str(tmp_path / "two.json"), "--db", other)
    assert (tmp_path / "one.json").read_bytes() == (tmp_path / "two.json").read_bytes()


def test_sheet_errors_name_the_line_and_drafts_are_kept(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cli(capsys, "db", "upgrade")
    cli(capsys, "tournament", "new", "--template", "club-night", "--slug", "club")
    players = tmp_path / "p.csv"
    players.write_text("name\n" + "".join(f"C{i}\n" for i in range(1, 9)), encoding="utf-8")
    cli(capsys, "tournament", "players", "import", str(players))
    cli(capsys, "tournament", "checkin", "--all-but")
    seated = cli_json(capsys, "tournament", "seat", "1")
    seats = [p["number"] for p in seated["tables"][0]["players"]]  # type: ignore[index]
    wrong = tmp_path / "wrong.csv"
    wrong.write_text(
        "game,player,points,penalty\n"
        + "".join(f"1,#{p},{v},\n" for p, v in zip(seats, (30, -10, -10, -9), strict=True))
        + "".join(
            f"2,#{p},{v},{'×' if k == 3 else ''}\n"
            for k, (p, v) in enumerate(zip(seats, (20, -10, -5, -5), strict=True))
        ),
        encoding="utf-8",
    )
    out = json.loads(
        cli(capsys, "tournament", "sheet", "enter", "1", "1", str(wrong), "--json", code=1)
    )
    assert out["problems"] == ["lines 2-5: table 1, game 1: the points add up to +1, not 0"], out[
        "problems"
    ]
    shown = cli_json(capsys, "tournament", "sheet", "show", "1", "1")
    assert shown["status"] == "draft" and not shown["counted"]  # type: ignore[index]
    assert shown["games"][0]["points"] == [30, -10, -10, -9]  # type: ignore[index]
    assert shown["games"][1]["penalties"] == [0, 0, 0, 50]  # type: ignore[index]
    # an old version with the same sheet is a resubmission (a double tap): nothing to
    # refuse; with another sheet it is refused, and what was typed is kept in a file
    stale = str(shown["version"] - 1)  # type: ignore[index]
    cli(
        capsys, "tournament", "sheet", "enter", "1", "1", str(wrong), "--version", stale, code=1
    )  # saved again as the same draft (its problems still said)
    other = tmp_path / "other.csv"
    other.write_text(wrong.read_text(encoding="utf-8").replace(",30,", ",31,"), encoding="utf-8")
    err = cli(
        capsys, "tournament", "sheet", "enter", "1", "1", str(other), "--version", stale, code=1
    )
    assert "another device" in err and (tmp_path / "unsaved-round1-table1.csv").exists()
    audit = cli_json(capsys, "tournament", "audit")
    assert any(a["action"] == "enter_sheet_conflict" for a in audit)  # type: ignore[union-attr, index]


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"name\n\xc0\xe9\n", "is not UTF-8 text"),
        (b'name\n"Ann\nBo\nCy\n', "quote left open"),
        (b"name\n" + b"x" * (10 * 1024 * 1024 - 100) + b"\n", "cannot be read"),
        (b"name\n" + b"y" * 500 + b"\n", "at most 80"),
    ],
)
def test_a_bad_players_file_is_refused_naming_why(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes, words: str
) -> None:
    """Non-UTF-8, an unterminated quote (it merged the rest of the file into one player),
    a 10 MB field and an overlong name: refused in seconds with the reason, nothing
    registered, no traceback."""
    import time

    cli(capsys, "db", "upgrade")
    cli(capsys, "tournament", "new", "--template", "club-night", "--slug", "club")
    bad = tmp_path / "bad.csv"
    bad.write_bytes(content)
    started = time.monotonic()
    err = cli(capsys, "tournament", "players", "import", str(bad), code=1)
    assert time.monotonic() - started < 10
    assert words in err and "Traceback" not in err, err
    players = cli_json(capsys, "tournament", "players", "list")
    assert players == [] or players == {"players": []}, players
