"""``meldtour seat`` and ``meldtour standings``."""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path

import pytest

from meldtour.cli import main

EXAMPLE = """round,table,game,player,points,penalty
1,1,1,1,24,
1,1,1,2,-5,
1,1,1,3,-16,
1,1,1,4,-3,
1,1,2,1,-6,
1,1,2,2,-11,
1,1,2,3,22,
1,1,2,4,-5,
1,1,3,1,-32,
1,1,3,2,-13,
1,1,3,3,-2,
1,1,3,4,47,
"""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_seat_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "seat", "--players", "24", "--seatings", "5", "--json")
    assert code == 0
    data = json.loads(out)
    assert set(data) == {"seatings", "repeats"}
    assert data["repeats"] == 0 and len(data["seatings"]) == 5
    for seating in data["seatings"]:
        assert sorted(p for table in seating for p in table) == list(range(1, 25))
    pairs: dict[tuple[int, int], int] = {}
    for seating in data["seatings"]:
        for table in seating:
            for a, b in combinations(sorted(table), 2):
                pairs[a, b] = pairs.get((a, b), 0) + 1
    assert sum(c - 1 for c in pairs.values()) == data["repeats"]


def test_seat_random_and_groups(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(
        capsys,
        "seat",
        "--players",
        "10",
        "--seatings",
        "2",
        "--method",
        "random",
        "--seed",
        "4",
        "--json",
    )
    assert code == 0
    again = run(
        capsys,
        "seat",
        "--players",
        "10",
        "--seatings",
        "2",
        "--method",
        "random",
        "--seed",
        "4",
        "--json",
    )[1]
    assert out == again
    sizes = sorted(len(t) for t in json.loads(out)["seatings"][0])
    assert sizes == [3, 3, 4]
    groups = tmp_path / "groups.csv"
    groups.write_text("player,group\n1,family:kim\n2,family:kim\n3,family:kim\n")
    code, out, _ = run(
        capsys, "seat", "--players", "12", "--seatings", "3", "--groups", str(groups), "--json"
    )
    data = json.loads(out)
    assert code == 0 and data["group_clashes"] == 0
    bad = tmp_path / "bad.csv"
    bad.write_text("player,group\n99,x\n")
    code, _, err = run(capsys, "seat", "--players", "12", "--seatings", "1", "--groups", str(bad))
    assert code == 1 and "line 2" in err


def test_seat_refuses_five(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "seat", "--players", "5", "--seatings", "1", "--json")
    assert code == 1 and "table of 2 or 5" in err


def test_standings_of_the_seeds_example(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "results.csv"
    f.write_text(EXAMPLE)
    code, out, _ = run(capsys, "standings", str(f), "--json")
    assert code == 0
    rows = json.loads(out)
    assert [r["player"] for r in rows] == [4, 3, 1, 2]
    assert rows[0] == {
        "rank": 1,
        "player": 4,
        "wins": 1,
        "points": 39,
        "score": 39,
        "decided_by": "points",
    }
    assert rows[3]["decided_by"] == "wins"
    code, out, _ = run(capsys, "standings", "--mode", "league", str(f), "--json")
    assert [r["score"] for r in json.loads(out)] == [139, 104, 86, -29]
    code, out, _ = run(capsys, "standings", str(f))
    assert code == 0 and "decided by" in out


def test_standings_names_the_failing_row(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    f = tmp_path / "results.csv"
    f.write_text(EXAMPLE.replace("1,1,2,2,-11,", "1,1,2,2,11,"))
    code, out, err = run(capsys, "standings", str(f), "--json")
    assert code == 1 and out == ""
    assert "line 7 (round 1, table 1, game 2, player 2) points: a loser cannot score +11" in err
    assert "lines 6-9 (round 1, table 1, game 2): the points add up to +22, not 0" in err


def test_standings_penalties_and_structure(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    f = tmp_path / "japan.csv"
    f.write_text(
        "round,table,game,player,points,penalty\n"
        "1,1,1,A,58,\n1,1,1,B,-5,×\n1,1,1,C,-23,\n1,1,1,D,-30,\n"
    )
    code, out, err = run(capsys, "standings", "--rules", "japan", str(f), "--json")
    assert code == 0, err
    rows = {r["player"]: r for r in json.loads(out)}
    assert rows["B"]["points"] == -55 and rows["A"]["points"] == 58
    f.write_text("round,table,game,player,points\n1,1,1,A,10\n1,1,1,B,-10\n1,2,1,A,3\n")
    code, _, err = run(capsys, "standings", str(f))
    assert code == 1 and "line 4: player A also sits at table 1 in round 1" in err
    f.write_text("round,table,player,points\n")
    code, _, err = run(capsys, "standings", str(f))
    assert code == 1 and "line 1: the header must be" in err
