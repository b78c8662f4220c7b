"""``meldtour seat --method swiss``: seatings by the standings of simulated games."""

from __future__ import annotations

import json
from itertools import combinations

import pytest

from meldtour.cli import main


def seat(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(["seat", *argv])
    out, _ = capsys.readouterr()
    return code, out


def test_seat_swiss_json_is_deterministic_and_valid(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("--players", "24", "--seatings", "6", "--method", "swiss", "--seed", "4", "--json")
    code, out = seat(capsys, *argv)
    assert code == 0
    assert seat(capsys, *argv) == (0, out)
    data = json.loads(out)
    assert set(data) == {"seatings", "repeats", "points", "standings_gap"}
    assert len(data["seatings"]) == 6 and len(data["points"]) == 6
    assert data["points"][0] == [0] * 24
    pairs: dict[tuple[int, int], int] = {}
    for seating, points in zip(data["seatings"], data["points"], strict=True):
        assert sorted(p for table in seating for p in table) == list(range(1, 25))
        assert [len(t) for t in seating] == [4] * 6
        assert sum(points) == 0  # every game is zero-sum
        for table in seating:
            for a, b in combinations(sorted(table), 2):
                pairs[a, b] = pairs.get((a, b), 0) + 1
    assert sum(c - 1 for c in pairs.values()) == data["repeats"]
    # the leaders before the last seating sit at its first two tables
    last = data["points"][-1]
    leaders = sorted(range(1, 25), key=lambda p: -last[p - 1])[:4]
    front = set(data["seatings"][-1][0]) | set(data["seatings"][-1][1])
    assert set(leaders) <= front
    assert 0 < data["standings_gap"] < 8


def test_seat_swiss_text_and_another_seed(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = seat(
        capsys, "--players", "13", "--seatings", "3", "--method", "swiss", "--games", "1"
    )
    assert code == 0
    assert out.count("Seating ") == 3 and "mean standings gap at a table:" in out
    _, other = seat(
        capsys,
        "--players",
        "13",
        "--seatings",
        "3",
        "--method",
        "swiss",
        "--games",
        "1",
        "--seed",
        "9",
        "--json",
    )
    _, same = seat(
        capsys, "--players", "13", "--seatings", "3", "--method", "swiss", "--games", "1", "--json"
    )
    assert json.loads(other)["seatings"] != json.loads(same)["seatings"]
