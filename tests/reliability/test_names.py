"""Names in every language, stored and shown exactly, and escaped: Korean, Japanese,
emoji, combining marks, right-to-left text, very long names, HTML and SQL in names —
registered through the public form of the real app, then read back from the store, the
player's page, the live standings, the seat list, the director's check-in desk and round
page, the PDFs (seat list, score sheets, standings) and the CSV/XLSX exports. On SQLite
and on PostgreSQL.

Exactly means: the same code points as typed (the form only folds runs of white space
into one and keeps the first 80 characters, as documented); escaped means: in HTML the
name appears only in its escaped form (``&lt;script&gt;``), never as markup, and in a
spreadsheet a name that starts like a formula is quoted."""

from __future__ import annotations

import csv
import io
import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from markupsafe import escape
from openpyxl import load_workbook

from meldtour import application as usecases
from meldtour.application.spreadsheet import safe_cell
from meldtour.web.app import create_app
from meldtour.web.config import Settings
from meldtour.web.director import accounts
from meldtour.web.director.deps import SESSION_COOKIE, Web
from tests.store.backends import BACKENDS, database

NAMES = [
    "김민지",
    "山田 太郎",
    "佐藤 花子🌸",
    "🀄 Mahjong 🎲",
    "Zoe\u0308 Ångström",  # a combining diaeresis, kept as typed (not NFC)
    "مريم العلي",  # right to left
    "<script>alert('x')</script>",
    '"><img src=x onerror=alert(1)>',
    "Robert'); DROP TABLE registration;--",
    "' OR '1'='1",
    '=HYPERLINK("http://evil","x")',
    "@SUM(1+1)",
    "가" * 80,  # the longest name kept whole
]
TOO_LONG = "나" * 200  # kept as its first 80 characters
TOURNAMENT = "<b>대회</b> & 'SQL' -- 大会"
UNPRINTABLE = re.compile("[\U0001f000-\U0001ffff\u0600-\u06ff]")
MARKUP = re.compile(r"<script>alert|<img src=x|<b>대회")


def plain(name: str) -> str:
    return " ".join(name.split())[:80]


@pytest.fixture(params=BACKENDS)
def client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    with database(request.param, tmp_path) as url:
        settings = Settings(env="test")
        app = create_app(settings)
        app.state.director = Web(settings, url=url)
        with TestClient(app) as c:
            yield c
        app.state.director.store().close()


def csrf(client: TestClient, path: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', client.get(path).text)
    assert found, path
    return found.group(1)


def shown(page: str, name: str) -> None:
    """The name is on the page, escaped, and no name's markup is live."""
    assert str(escape(name)) in page, name
    assert not MARKUP.search(page)


def pdf_text(data: bytes) -> str:
    assert data.startswith(b"%PDF")
    out = subprocess.run(
        ["pdftotext", "-layout", "-", "-"], input=data, capture_output=True, check=True
    ).stdout.decode()
    return " ".join(out.split())


def test_names_in_every_language_are_stored_and_shown_exactly(client: TestClient) -> None:
    web: Web = client.app.state.director  # type: ignore[attr-defined]
    store = web.store()
    boss = accounts.create(store, "boss", "a long secret 1")
    slug, _t = usecases.create_tournament(
        store, "club-night", who="boss", name=TOURNAMENT, slug="names"
    )
    numbers: dict[str, int] = {}
    for name in [*NAMES, TOO_LONG]:
        token = csrf(client, f"/t/{slug}/register?lang=ko")
        r = client.post(
            f"/t/{slug}/register", data={"csrf": token, "name": name, "division": "club"}
        )
        assert r.status_code == 200 and r.url.path.startswith(f"/t/{slug}/p/"), r.text[:300]
        numbers[name] = int(r.url.path.rsplit("/", 1)[1])
        # The player's page (with the flash message naming them), escaped.
        shown(r.text, plain(name))

    t = usecases.read(store, slug)
    stored = {r.player: r.name for r in t.registrations}
    for name, number in numbers.items():
        assert stored[number] == plain(name), (name, stored[number])
    assert stored[numbers[TOO_LONG]] == "나" * 80
    assert t.name == TOURNAMENT

    usecases.check_in_players(store, slug, [str(n) for n in numbers.values()], who="boss")
    usecases.seat(store, slug, "club", None, who="boss")
    # every table plays (standings show names, not ranks, once a game is counted)
    rnd = usecases.read(store, slug).division("club").stages[-1].rounds[-1]
    for x in rnd.tables:
        line = (5 * (len(x.players) - 1),) + (-5,) * (len(x.players) - 1)
        usecases.enter_sheet(
            store,
            slug,
            "club",
            rnd.number,
            x.number,
            [usecases.GameEntry(g, line, None, 1) for g in range(1, len(x.sheet.games) + 1)],
            who="boss",
        )

    for path in (
        f"/t/{slug}/standings",
        f"/t/{slug}/standings/live",
        f"/t/{slug}/seats",
        f"/t/{slug}/standings?view=projector&lang=ja",
    ):
        page = client.get(path)
        assert page.status_code == 200, path
        for name in NAMES:
            shown(page.text, name)
    assert str(escape(TOURNAMENT)) in client.get(f"/t/{slug}").text
    assert not MARKUP.search(client.get("/tournaments").text)

    client.cookies.set(
        SESSION_COOKIE,
        web.session.sign({"a": boss.id, "exp": int(time.time()) + 3600, "n": "names"}),
    )
    for path in (
        f"/director/t/{slug}/d/club/checkin",
        f"/director/t/{slug}/d/club/round",
        f"/director/t/{slug}",
        f"/director/t/{slug}/audit",
    ):
        page = client.get(path)
        assert page.status_code == 200, path
        assert not MARKUP.search(page.text), path
    desk = client.get(f"/director/t/{slug}/d/club/checkin").text
    for name in NAMES:
        shown(desk, name)
    # The check-in desk's search finds a name typed in any script.
    for name in ("山田", "<script>", "DROP TABLE"):
        found = client.get(f"/director/t/{slug}/d/club/checkin", params={"q": name}).text
        assert str(escape(next(n for n in NAMES if name in n))) in found

    # PDFs: every name is printed as typed, as far as the font has the letters: the CJK
    # font has no emoji and no Arabic, which are left out (RELIABILITY.md).
    if shutil.which("pdftotext"):
        for kind in ("seats", "sheets", "standings"):
            r = client.get(f"/director/t/{slug}/d/club/pdf/{kind}?lang=ko")
            assert r.status_code == 200, (kind, r.text[:300])
            text = pdf_text(r.content)
            for name in NAMES:
                expected = " ".join(UNPRINTABLE.sub("", name).split())[:10]
                if expected and "\u0308" not in name:
                    assert expected in text, (kind, name)

    # Exports: exactly as stored; a formula starter that may begin a cell (at the start
    # or after a separator: "registration;--") gets a quote (application/spreadsheet.py).
    r = client.get(f"/director/t/{slug}/export/players.csv?lang=en")
    assert r.status_code == 200 and r.text.startswith("\ufeff")
    rows = list(csv.DictReader(io.StringIO(r.text.lstrip("\ufeff"))))
    by_number = {int(row["Number"]): row["Name"] for row in rows}
    for name, number in numbers.items():
        want = plain(name)
        assert by_number[number] == safe_cell(want), name
    r = client.get(f"/director/t/{slug}/export/players.xlsx")
    sheet = load_workbook(io.BytesIO(r.content)).active
    assert sheet is not None
    cells = {row[0]: row[1] for row in sheet.iter_rows(min_row=2, values_only=True)}
    for name, number in numbers.items():
        want = plain(name)
        assert cells[number] == safe_cell(want), name
