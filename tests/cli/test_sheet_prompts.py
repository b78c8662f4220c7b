"""Entering a score sheet at the terminal's prompts, with the same checks as a file:
a wrong game is named and asked again; the sheet is counted when every game passes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def run(tmp: Path, *argv: str, stdin: str = "", code: int = 0) -> str:
    env = dict(
        os.environ,
        MELDTOUR_DATABASE_URL=f"sqlite:///{tmp / 't.db'}",
        MELDTOUR_USER="referee",
        COLUMNS="120",
    )
    env.pop("MELDTOUR_TOURNAMENT", None)
    result = subprocess.run(
        [sys.executable, "-m", "meldtour", *argv],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=tmp,
        env=env,
        timeout=120,
    )
    assert result.returncode == code, (argv, result.stdout, result.stderr)
    return result.stdout


def test_a_sheet_entered_at_the_prompts(tmp_path: Path) -> None:
    run(tmp_path, "db", "upgrade")
    run(tmp_path, "tournament", "new", "--template", "club-night", "--seed", "3", "--slug", "club")
    players = tmp_path / "players.csv"
    players.write_text(
        "name,division,tags,generation\n"
        + "".join(
            f"{n},club,,\n"
            for n in [
                "김민지",
                "이서준",
                "박지우",
                "최하은",
                "山田太郎",
                "佐藤花子",
                "Alice",
                "Bob",
            ]
        ),
        encoding="utf-8",
    )
    run(tmp_path, "tournament", "players", "import", str(players))
    run(tmp_path, "tournament", "checkin", *[f"#{n}" for n in range(1, 9)])
    run(tmp_path, "tournament", "seat", "1")
    sheet = json.loads(run(tmp_path, "tournament", "sheet", "show", "1", "1", "--json"))
    seats = len(sheet["players"])
    games = len(sheet["games"])
    assert seats == 4
    # Japan rules (club night): each seat's points, then its penalty (Enter for none).
    bad = ["12", "", "-4", "", "-6", "", "-1", ""]  # adds up to +1: asked again
    good = ["12", "", "-4", "", "-6", "", "-2", "×"]  # seat 4 also failed a turn (×)
    answers = bad + good + good * (games - 1)
    out = run(tmp_path, "tournament", "sheet", "enter", "1", "1", stdin="\n".join(answers) + "\n")
    assert "add up to +1, not 0" in out and "enter game 1 again" in out
    assert "counted" in out
    shown = json.loads(run(tmp_path, "tournament", "sheet", "show", "1", "1", "--json"))
    assert shown["status"] == "submitted", shown
    assert shown["games"][0]["penalties"][3] == 50
