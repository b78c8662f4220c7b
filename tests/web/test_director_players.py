"""The director's players pages without a browser: a CSV or XLSX file previewed, a list
too long or a file too big refused in the reader's language with nothing saved, one
player added (a name already registered goes through the preview), the check-in
desk's search by "#5", and where the desk's buttons lead back to."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from openpyxl import Workbook

from meldtour import application as usecases

from .test_director import csrf, make_client, sign_up, web


@pytest.fixture()
def director(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path) as c:
        c.headers["Accept-Language"] = "ko"
        sign_up(c)
        store = web(c).store()
        usecases.create_tournament(store, "busan-2015", who="d", slug="busan", locale="ko")
        usecases.register_players(
            store,
            "busan",
            [
                usecases.PlayerEntry(n, "general")
                for n in ("김민지", "이서준", "박지호", "최하은", "정도윤")
            ],
            who="d",
        )
        yield c


def flash_of(c: TestClient, r: object) -> str:
    page = c.get("/director/t/busan/players").text
    found = re.search(r'<p class="flash (\w+)"[^>]*>([^<]*)</p>', page)
    return f"{found.group(1)}: {found.group(2)}" if found else ""


def count(c: TestClient) -> int:
    return len(usecases.read(web(c).store(), "busan").registrations)


def test_files_are_previewed_and_big_input_refused(director: TestClient) -> None:
    c = director
    token = csrf(c, "/director/t/busan/players")
    book = Workbook()
    book.active.append(["이름", "부", "가족"])
    book.active.append(["강서연", "general", "강"])
    book.active.append(["김민지", "lower", ""])
    data = io.BytesIO()
    book.save(data)
    text = "이름,부,가족\n강서연,general,강\n김민지,lower,\n"
    for name, body in [("players.xlsx", data.getvalue()), ("players.csv", text.encode())]:
        r = c.post(
            "/director/t/busan/players/preview", data={"csrf": token}, files={"file": (name, body)}
        )
        assert r.status_code == 200, r.text[:300]
        assert r.text.count('class="line') == 2
        assert "family:강" in r.text
        assert "이미 등록됨: 일반부, 1번" in r.text  # 김민지 is #1 of the general division
        assert 'name="keep1" value="keep"' in r.text
    assert count(c) == 5
    # A paste over 200 KB and a file over 2 MB: refused, in Korean, nothing saved.
    r = c.post(
        "/director/t/busan/players/preview",
        data={"csrf": token},
        files={"paste": (None, "가" * 80_000)},
        follow_redirects=False,
    )
    assert r.status_code == 303
    assert "붙여 넣은 목록이 너무 깁니다" in flash_of(c, r)
    r = c.post(
        "/director/t/busan/players/preview",
        data={"csrf": token},
        files={"file": ("big.csv", b"name\n" + b"x," * (1024 * 1024 + 10))},
        follow_redirects=False,
    )
    assert r.status_code == 303 and "최대 2,097,152바이트" in flash_of(c, r)
    r = c.post(
        "/director/t/busan/players/preview",
        data={"csrf": token},
        files={"file": ("p.xlsx", b"PK\x03\x04broken")},
        follow_redirects=False,
    )
    assert "XLSX 통합 문서가 아닙니다" in flash_of(c, r)
    assert count(c) == 5
    # A preview of 170 lines sent back (1,020 fields, more than a form's default bound)
    # is saved whole; the general division takes 64, the rest wait.
    fields = {"csrf": token, "count": "170", "go": "save"}
    for i in range(170):
        fields |= {f"line{i}": str(i + 2), f"name{i}": f"선수{i}", f"division{i}": "general"}
    r = c.post("/director/t/busan/players/import", data=fields)
    assert r.url.path == "/director/t/busan/players" and count(c) == 175
    assert "그중 111명은 정원이 차서 대기 명단에 올랐습니다" in r.text
    # The preview's form sent back with more lines than a list may hold: refused.
    r = c.post(
        "/director/t/busan/players/import",
        data={"csrf": token, "count": "5000", "go": "save"},
        follow_redirects=False,
    )
    assert r.status_code == 303 and count(c) == 175


def test_one_player_and_the_desk(director: TestClient) -> None:
    c = director
    token = csrf(c, "/director/t/busan/players")
    r = c.post(
        "/director/t/busan/players/add",
        data={
            "csrf": token,
            "name": "강서연",
            "division": "general",
            "family": "강 씨",
            "generation": "2",
        },
    )
    assert r.url.path == "/director/t/busan/players" and count(c) == 6
    reg = usecases.read(web(c).store(), "busan").registration(6)
    assert reg.tags == {"family:강_씨"} and reg.generation == 2
    # A name already registered is not saved at once: the preview asks.
    r = c.post(
        "/director/t/busan/players/add",
        data={"csrf": token, "name": "이 서준", "division": "general"},
    )
    assert r.status_code == 200 and "중복일 수 있습니다" in r.text and count(c) == 6
    # The desk finds "#5" (number 5 only) and a part of a name.
    desk = c.get("/director/t/busan/d/general/checkin", params={"q": "#5"}).text
    assert desk.count('<li class="registered" ') == 1 and "정도윤" in desk
    desk = c.get("/director/t/busan/d/general/checkin", params={"q": "서"}).text
    assert desk.count('<li class="registered" ') == 2  # 이서준, 강서연
    # Undo from the desk goes back to the desk; a foreign "back" is not followed.
    usecases.check_in_players(web(c).store(), "busan", ["5", "4"], who="d")
    back = "/director/t/busan/d/general/checkin?q=%235"
    r = c.post(
        "/director/t/busan/p/5/undo-check-in",
        data={"csrf": token, "back": back},
        follow_redirects=False,
    )
    assert r.headers["location"] == back
    r = c.post(
        "/director/t/busan/p/4/undo-check-in",
        data={"csrf": token, "back": "https://elsewhere.example/"},
        follow_redirects=False,
    )
    assert r.headers["location"] == "/director/t/busan/p/4"
    assert usecases.read(web(c).store(), "busan").registration(5).status == "registered"
    assert c.get("/director/t/busan/p/99").status_code == 404
    # A move to another division from the player's page, before the start.
    r = c.post(
        "/director/t/busan/p/2",
        data={"csrf": token, "name": "이서준", "division": "upper", "club": "부산"},
    )
    assert "이제 초등 고학년부 (4~6학년) 부문 소속입니다" in r.text
    reg = usecases.read(web(c).store(), "busan").registration(2)
    assert (reg.division, reg.tags) == ("upper", {"club:부산"})
    r = c.post(
        "/director/t/busan/p/2",
        data={"csrf": token, "name": "이서준", "generation": "둘", "division": "upper"},
    )
    assert "세대에는 정수를 적어야 합니다" in r.text
