"""Internal keys are not words for people (issue #27): template and preset codes, tags as
``family:이영수네``, division keys in the exports, English file names; the exports
number players under 번호, say yes/no in words, name a stage the same in every sheet
and keep their header row in view."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import unquote

import pytest
from fastapi.testclient import TestClient
from openpyxl import load_workbook

from meldtour import application as usecases

from .test_director import csrf, make_client, sign_up, web


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path) as c:
        sign_up(c)
        r = c.post("/director/demo?lang=ko", data={"csrf": csrf(c, "/director")})
        assert r.url.path == "/t/demo"
        yield c


def file_name(response: object) -> str:
    header = response.headers["content-disposition"]  # type: ignore[attr-defined]
    found = re.search(r"filename\*=UTF-8''([^;]+)", header)
    assert found, header
    return unquote(found.group(1))


def test_pages_name_templates_presets_and_tags_in_words(client: TestClient) -> None:
    dashboard = client.get("/director?lang=ko").text
    assert "한국 루미큐브 챔피언십, 부산 2015 (3개 부문)" in dashboard
    assert "<strong>busan-2015</strong>" not in dashboard
    assert ">krc-2015<" not in dashboard and ">standard<" not in dashboard
    public = client.get("/t/demo?lang=ko").text
    assert ">krc-2015<" not in public and "한국 루미큐브 챔피언십, 부산 2015</a>" in public
    players = client.get("/director/t/demo/players?lang=ko").text
    assert "family:" not in players and "가족: " in players
    ja = client.get("/director/t/demo/players?lang=ja").text
    assert "家族: " in ja and "family:" not in ja


def test_the_exports_read_as_the_director_reads(client: TestClient) -> None:
    store = web(client).store()
    t = usecases.read(store, "demo")
    table = t.division("general").stages[0].rounds[0].tables[0]
    seats = len(table.players)
    line = (30,) + (-10,) * (seats - 1)
    usecases.enter_sheet(
        store,
        "demo",
        "general",
        1,
        table.number,
        [usecases.GameEntry(g, line, None, 1) for g in range(1, 5)],
        who="boss",
    )
    r = client.get("/director/t/demo/export/sheets.xlsx?lang=ko")
    assert file_name(r) == "데모 — KRC 2015 부산 점수 기록지.xlsx"
    sheet = load_workbook(io.BytesIO(r.content)).active
    assert sheet is not None and sheet.freeze_panes == "A2"
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0][:8] == ("부문", "단계", "라운드", "테이블", "게임", "자리", "번호", "이름")
    first = rows[1]
    assert first[0] == "일반부" and first[1] == "예선"  # the division's and stage's names
    assert first[10] in ("예", "아니요") and first[11] == "예"  # winner, counted
    r = client.get("/director/t/demo/export/players.xlsx?lang=ko")
    assert file_name(r) == "데모 — KRC 2015 부산 선수.xlsx"
    rows = list(load_workbook(io.BytesIO(r.content)).active.iter_rows(values_only=True))  # type: ignore[union-attr]
    assert rows[0] == ("번호", "이름", "부문", "상태", "태그", "세대", "늦은 참가")
    assert {row[2] for row in rows[1:]} == {"일반부"}
    assert any(row[4] and str(row[4]).startswith("가족: ") for row in rows[1:])
    assert {row[6] for row in rows[1:]} == {"아니요"}
    standings = client.get("/director/t/demo/export/standings.csv?lang=ko").text
    assert standings.lstrip("\ufeff").startswith("부문,단계,순위,번호,이름")
    assert "\n일반부,예선," in standings
    pdf = client.get("/director/t/demo/d/general/pdf/sheets?lang=ko")
    assert file_name(pdf) == "데모 — KRC 2015 부산 일반부 점수 기록지 1라운드.pdf"
    ja = client.get("/director/t/demo/d/general/pdf/seats?lang=ja")
    assert file_name(ja) == "데모 — KRC 2015 부산 일반부 席表と卓カード 第1ラウンド.pdf"
