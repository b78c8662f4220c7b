"""The JSON-lines contracts of check, score and replay, run as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def run(args: list[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "meldtour", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def lines(out: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in out.splitlines()]


def test_check_answers_one_line_per_input_line() -> None:
    inp = (
        "\n".join(
            json.dumps(x)
            for x in [
                {
                    "board": [],
                    "rack": ["k8", "r8", "o8", "b8"],
                    "melded": False,
                    "play": [["k8", "r8", "o8", "b8"]],
                },
                {
                    "board": [],
                    "rack": ["k8", "r8", "o8"],
                    "melded": False,
                    "play": [["k8", "r8", "o8"]],
                },
                {
                    "board": [["r4", "r5", "r6", "r7", "r8"]],
                    "rack": ["r6"],
                    "melded": True,
                    "play": [["r4", "r5", "r6"], ["r6", "r7", "r8"]],
                },
            ]
        )
        + "\nnot json\n"
        + json.dumps({"board": [], "rack": ["z3"], "play": []})
        + "\n"
    )
    result = run(["check", "--rules", "krc-2015"], inp)
    assert result.returncode == 0
    out = lines(result.stdout)
    assert out[0] == {"legal": True, "reason": None, "placed": ["k8", "r8", "o8", "b8"]}
    assert out[1]["legal"] is False and "worth 24" in str(out[1]["reason"])
    assert out[2] == {"legal": True, "reason": None, "placed": ["r6"]}
    assert "not valid JSON" in str(out[3]["error"])
    assert "bad tile 'z3'" in str(out[4]["error"])


def test_score_contract() -> None:
    inp = (
        json.dumps(
            {
                "racks": [
                    ["k10"],
                    ["r5", "r10"],
                    ["b9", "b12", "b12"],
                    ["o10", "o10", "k10", "b10"],
                ],
                "winner": None,
                "melded": [True] * 4,
                "could_meld": [False] * 4,
                "first": 0,
            }
        )
        + "\n"
    )
    inp += (
        json.dumps(
            {
                "racks": [[], ["J"]],
                "winner": 0,
                "melded": [True, True],
                "could_meld": [False, False],
                "first": 1,
            }
        )
        + "\n"
    )
    inp += json.dumps({"racks": [["k1"], ["k2"]], "winner": 0}) + "\n"
    out = lines(run(["score", "--rules", "japan"], inp).stdout)
    assert out[0] == {"scores": [58, -5, -23, -30], "winner": 0}
    assert out[1] == {"scores": [50, -50], "winner": 0}
    assert "still holds 1 tiles" in str(out[2]["error"])


def test_rules_accept_a_house_rules_file(tmp_path: Path) -> None:
    house = tmp_path / "club.toml"
    house.write_text('preset = "standard"\njoker_penalty = 77\n', encoding="utf-8")
    inp = json.dumps({"racks": [[], ["J"]], "winner": 0}) + "\n"
    out = lines(run(["score", "--rules", str(house)], inp).stdout)
    assert out[0] == {"scores": [77, -77], "winner": 0}
    bad = tmp_path / "bad.toml"
    bad.write_text("jokers = 3\n", encoding="utf-8")
    result = run(["score", "--rules", str(bad)], inp)
    assert result.returncode == 2 and "unknown rule option(s): jokers" in result.stderr
    result = run(["check", "--rules", "wrc"], "")
    assert result.returncode == 2 and "unknown rules preset 'wrc'" in result.stderr


def test_replay_prints_the_position_and_names_a_refused_move(tmp_path: Path) -> None:
    record = {
        "rules": "krc-2015",
        "players": ["A", "B"],
        "seed": 1,
        "deal": {"racks": [["k10", "k11", "k12"], ["b1", "b2"]], "pool": ["o5", "o6"], "first": 0},
        "moves": [{"seat": 0, "action": "play", "board": [["k10", "k11", "k12"]]}],
    }
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    result = run(["replay", str(path)])
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {
        "board": [["k10", "k11", "k12"]],
        "racks": [[], ["b1", "b2"]],
        "pool_left": 2,
        "penalties": [0, 0],
        "scores": [100, -100],
        "winner": 0,
        "end": "out",
    }
    record["moves"].append({"seat": 1, "action": "draw"})
    path.write_text(json.dumps(record), encoding="utf-8")
    result = run(["replay", str(path)])
    assert result.returncode == 1
    assert json.loads(result.stdout)["move"] == 1
    assert "move 1" in result.stderr and "game is over" in result.stderr


def test_replay_of_a_whole_self_played_game(tmp_path: Path) -> None:
    from meldtour.core.record import record_of
    from meldtour.core.rules import find_rules
    from meldtour.players.runner import play_game
    from meldtour.players.trivial import TrivialPlayer
    from meldtour.solver import finder

    state = play_game(
        find_rules("korea-official"),
        [TrivialPlayer(f"T{i}", finder) for i in range(4)],
        5,
        finder=finder,
    )
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record_of(state)), encoding="utf-8")
    result = run(["replay", str(path)])
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == state.summary()


def test_help_lists_the_commands() -> None:
    result = run(["--help"])
    assert result.returncode == 0
    for name in ("check", "score", "replay", "solve", "seat", "standings"):
        assert name in result.stdout
