"""The self-play lab and the ``simulate`` and ``analyse`` command contracts."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from meldtour.cli import main
from meldtour.core.record import record_of
from meldtour.core.rules import find_rules
from meldtour.players.lab import deal_of, lab_games, play_lab_game, summarise, wilson
from meldtour.players.levels import make_player
from meldtour.players.runner import play_game
from meldtour.solver import finder

KRC = find_rules("krc-2015")


def test_wilson_interval() -> None:
    low, high = wilson(25, 100)
    assert 0.17 < low < 0.18 and 0.34 < high < 0.35
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)
    assert wilson(0, 0) == (0.0, 1.0)


def test_seats_rotate_and_mirror_replays_each_deal_per_rotation() -> None:
    levels = ["expert", "greedy", "greedy"]
    plain = [play_lab_game(KRC, levels, i, 7) for i in range(3)]
    assert [r.seed for r in plain] == [7, 8, 9]
    assert [r.seats[0] for r in plain] == [0, 1, 2]
    mirrored = list(lab_games(KRC, levels, range(6), 7, mirror=True))
    assert [r.seed for r in mirrored] == [7, 7, 7, 8, 8, 8]
    for block in (mirrored[:3], mirrored[3:]):
        # Each entry sits at every seat, and so moves at every position, once per deal.
        for e in range(3):
            assert sorted(r.seats[e] for r in block) == [0, 1, 2]
            assert sorted(r.positions[e] for r in block) == [0, 1, 2]
    assert deal_of(5, 7, 3, True) == (8, 2)


def test_summary_fields() -> None:
    levels = ["greedy", "beginner"]
    results = list(lab_games(KRC, levels, range(6), 1, mirror=True))
    s = summarise(levels, results, seconds=2.0)
    assert s["games"] == 6 and s["games_per_second"] == 3.0
    assert [p["name"] for p in s["players"]] == levels
    assert sum(p["wins"] for p in s["players"]) == 6
    for p in s["players"]:
        assert set(p) == {
            "name",
            "seat_results",
            "wins",
            "win_rate",
            "win_rate_ci95",
            "mean_points",
        }
        assert [row["position"] for row in p["seat_results"]] == [0, 1]
        assert sum(row["games"] for row in p["seat_results"]) == 6
        assert sum(row["wins"] for row in p["seat_results"]) == p["wins"]
        low, high = p["win_rate_ci95"]
        assert low <= p["win_rate"] <= high


def run(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "meldtour", *args], capture_output=True, text=True, timeout=120
    )


def test_simulate_contract_and_jobs_do_not_change_results() -> None:
    args = [
        "simulate",
        "--rules",
        "krc-2015",
        "--players",
        "expert,greedy,greedy,beginner",
        "--games",
        "6",
        "--seed",
        "3",
        "--mirror",
        "--json",
    ]
    one = run(args)
    assert one.returncode == 0, one.stderr
    assert one.stderr == ""  # no progress bar when standard error is not a terminal
    out = json.loads(one.stdout)
    assert set(out) == {"games", "players", "games_per_second"}
    assert out["games"] == 8  # rounded up to whole rotations of four players
    assert [p["name"] for p in out["players"]] == ["expert", "greedy", "greedy", "beginner"]
    assert out["games_per_second"] > 0
    two = json.loads(run([*args, "--jobs", "2"]).stdout)
    for a, b in zip(out["players"], two["players"], strict=True):
        assert a == b


def test_simulate_refuses_bad_arguments() -> None:
    for bad in (
        ["--players", "expert,wizard"],
        ["--players", "greedy"],
        ["--players", "greedy,greedy", "--games", "0"],
        ["--players", "greedy,greedy", "--rules", "nowhere"],
    ):
        result = run(["simulate", *bad])
        assert result.returncode == 2, bad
        assert "error" in result.stderr


def test_simulate_prints_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--players", "greedy,beginner", "--games", "2"]) == 0
    text = capsys.readouterr().out
    assert "2 games" in text and "greedy" in text and "95% interval" in text


def _record(tmp_path: Path) -> Path:
    players = [make_player("beginner", "Bea"), make_player("greedy", "Gus")]
    state = play_game(KRC, players, 5, finder=finder)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record_of(state)), encoding="utf-8")
    return path


def test_analyse_marks_missed_plays(tmp_path: Path) -> None:
    path = _record(tmp_path)
    result = run(["analyse", str(path), "--json"])
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    record = json.loads(path.read_text())
    assert len(out["turns"]) == len(record["moves"])
    for turn in out["turns"]:
        assert set(turn) == {
            "turn",
            "seat",
            "player",
            "action",
            "placed",
            "value",
            "best",
            "missed",
            "tiles_left",
            "points_left",
        }
        if turn["player"] == "Gus":  # greedy plays the solver's best: it never misses
            assert not turn["missed"]
        if turn["missed"]:
            assert turn["tiles_left"] > 0 or turn["points_left"] > 0
            assert turn["tiles_left"] == turn["best"]["placed"] - len(turn["placed"])
    bea, gus = out["players"]
    assert gus["missed"] == 0 and bea["missed"] > 0  # the beginner never rearranges
    assert bea["tiles_left"] == sum(t["tiles_left"] for t in out["turns"] if t["seat"] == 0)
    text = run(["analyse", str(path)]).stdout
    assert "MISSED" in text and "best:" in text


def test_analyse_reports_a_bad_record(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(
        json.dumps(
            {
                "rules": "krc-2015",
                "players": ["a", "b"],
                "seed": 1,
                "moves": [{"seat": 9, "action": "draw"}],
            }
        )
    )
    result = run(["analyse", str(bad)])
    assert result.returncode == 1
    assert json.loads(result.stdout)["move"] == 0
    assert run(["analyse", str(tmp_path / "missing.json")]).returncode == 1
