"""Results files whose games are numbered across the stage, as a spreadsheet kept over
the day numbers them (games 1-8 over four seatings of two games), are read by
``meldtour standings`` and by the sheet import like files numbered from 1 at every
seating; only what neither numbering explains is refused, naming line, round and
table."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from meldtour import application as usecases
from meldtour.cli import main
from meldtour.tournament import StageFormat
from tests.store.backends import database, upgraded

PLAYERS = ("A", "B", "C", "D")


def write(path: Path, numbering: dict[int, list[int]]) -> Path:
    """Four seatings of one table of 4; ``numbering`` gives each round's game numbers."""
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["round", "table", "game", "player", "points"])
        for rnd, games in numbering.items():
            for k, g in enumerate(games):
                winner = (rnd + k) % 4
                for i, p in enumerate(PLAYERS):
                    pts = 3 * (rnd + k + 3) if i == winner else -(rnd + k + 3)
                    w.writerow([rnd, 1, g, p, pts])
    return path


def standings(capsys: pytest.CaptureFixture[str], path: Path, code: int = 0) -> str:
    capsys.readouterr()
    assert main(["standings", str(path), "--json"]) == code
    out = capsys.readouterr()
    return out.out if code == 0 else out.err


def test_games_numbered_across_the_stage_rank_as_numbered_per_seating(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    own = write(tmp_path / "own.csv", {r: [1, 2] for r in range(1, 5)})
    across = write(tmp_path / "across.csv", {r: [2 * r - 1, 2 * r] for r in range(1, 5)})
    mixed = write(tmp_path / "mixed.csv", {1: [1, 2], 2: [1, 2], 3: [5, 6], 4: [7, 8]})
    want = json.loads(standings(capsys, own))
    assert len(want) == 4
    assert json.loads(standings(capsys, across)) == want
    assert json.loads(standings(capsys, mixed)) == want


@pytest.mark.parametrize(
    ("numbering", "said"),
    [
        (
            {1: [1, 2], 2: [3, 4], 3: [3, 4]},
            "line 18: round 3, table 1: games 3, 4 are numbered neither 1-2 (this seating) nor "
            "5-6 (across the stage)",
        ),
        ({1: [1, 3]}, "line 2: round 1, table 1: games 1, 3 are not numbered one after another"),
        ({1: [2, 3]}, "line 2: round 1, table 1: games 2, 3: a seating's games are numbered 1-2"),
    ],
)
def test_only_what_is_ambiguous_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], numbering: dict[int, list[int]], said: str
) -> None:
    # a round's rows come after the rounds before: round 3's first row is line 2 + 16 = 18
    err = standings(capsys, write(tmp_path / "bad.csv", numbering), code=1)
    assert said in err, err


def test_the_sheet_import_takes_the_stages_numbering(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with database("sqlite", tmp_path) as url, upgraded(url) as store:
        spec = usecases.DivisionSpec(
            "d", "General", 8, "krc-2015", (StageFormat("seatings", games=2, seatings=4),)
        )
        usecases.create_blank_tournament(store, who="x", name="Day", divisions=[spec], slug="day")
        usecases.register_players(
            store, "day", [usecases.PlayerEntry(p, "d") for p in PLAYERS], who="x"
        )
        usecases.check_in_players(store, "day", [], everyone_but=True, division="d", who="x")
        usecases.seat(store, "day", "d", None, who="x")
        usecases.enter_sheet(
            store,
            "day",
            "d",
            1,
            1,
            [usecases.GameEntry(g, (30, -10, -10, -10), None, 1) for g in (1, 2)],
            who="x",
        )
        usecases.seat(store, "day", "d", None, who="x")
        monkeypatch.setenv("MELDTOUR_DATABASE_URL", url)
        monkeypatch.setenv("MELDTOUR_USER", "director")
        monkeypatch.delenv("MELDTOUR_TOURNAMENT", raising=False)
        sheet = tmp_path / "round2.csv"
        seats = usecases.read(store, "day").division("d").stages[0].rounds[1].tables[0].players
        rows = [["game", "player", "points"]]
        for g in (3, 4):  # round 2 of two-game seatings, numbered across the stage
            rows += [[g, f"#{p}", 30 if i == 0 else -10] for i, p in enumerate(seats)]
        bad = tmp_path / "bad.csv"
        with sheet.open("w", newline="") as f:
            csv.writer(f).writerows(rows)
        with bad.open("w", newline="") as f:
            csv.writer(f).writerows([rows[0]] + [[5, *r[1:]] for r in rows[1:5]])
        capsys.readouterr()
        assert main(["tournament", "sheet", "enter", "2", "1", str(bad)]) != 0
        err = capsys.readouterr()
        assert (
            "round 2, table 1: games 5 are numbered neither 1-2 (this seating) nor 3-4 "
            "(across the stage)" in err.out + err.err
        )
        assert main(["tournament", "sheet", "enter", "2", "1", str(sheet)]) == 0
        got = usecases.read(store, "day").division("d").stages[0].rounds[1].tables[0].sheet
        assert got.counted is not None and [g.points[0] for g in got.counted] == [30, 30]


def test_a_sheets_problem_names_the_files_game_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path / "across.csv", {r: [2 * r - 1, 2 * r] for r in range(1, 4)})
    rows = path.read_text().splitlines()
    # round 3's game 6 (the sheet's game 2): a loser written as a plus
    rows[-1] = rows[-1].rsplit(",", 1)[0] + ",7"
    path.write_text("\n".join(rows) + "\n")
    err = standings(capsys, path, code=1)
    assert "round 3, table 1, game 6, player D) points" in err, err
