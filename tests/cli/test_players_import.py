"""``meldtour tournament players import`` reads an XLSX workbook too, through the one
reader of players' lists the director's pages use (application/roster.py); a line in
error is refused naming its row and field's reason, nothing registered."""

from __future__ import annotations

from pathlib import Path

import pytest
from openpyxl import Workbook

from .test_tournament_cli import cli, cli_json


@pytest.fixture()
def sqlite_db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    url = f"sqlite:///{tmp_path / 'm.db'}"
    monkeypatch.setenv("MELDTOUR_DATABASE_URL", url)
    monkeypatch.delenv("MELDTOUR_TOURNAMENT", raising=False)
    monkeypatch.setenv("MELDTOUR_USER", "director")
    return url


def test_an_xlsx_file_is_imported(
    sqlite_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cli(capsys, "db", "upgrade")
    cli(
        capsys, "tournament", "new", "--template", "busan-2015", "--slug", "busan", "--locale", "ko"
    )
    book = Workbook()
    book.active.append(["이름", "부", "가족", "세대"])
    book.active.append(["김민지", "general", "김", 1])
    book.active.append(["이서준", "일반부", None, None])
    path = tmp_path / "players.xlsx"
    book.save(path)
    assert cli_json(capsys, "tournament", "players", "import", str(path))["registered"] == 2  # type: ignore[index]
    players = cli_json(capsys, "tournament", "players", "list")
    assert [(p["name"], p["tags"], p["generation"]) for p in players] == [  # type: ignore[index, union-attr]
        ("김민지", ["family:김"], 1),
        ("이서준", [], None),
    ]
    book.active.append(["박지호", "general", None, "셋"])
    book.save(path)
    err = cli(capsys, "tournament", "players", "import", str(path), code=1)
    assert "row 4: generation '셋' is not a whole number" in err
    assert len(cli_json(capsys, "tournament", "players", "list")) == 2  # type: ignore[arg-type]
