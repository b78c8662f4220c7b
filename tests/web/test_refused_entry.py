"""After a two-phone conflict the director sees what the refused phone entered (issue
27): two phones post the same table from the version they both read; the first
counts, the second is refused. The round page shows the refused games (who, when)
next to the sheet as counted, with "take it instead" (a correction, audited) and
"keep the sheet" (audited); either one closes the conflict. And the head table's
round status screen: a tile a table, its state and minutes, late ones marked."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from meldtour import application as usecases
from meldtour.application import refused as refused_uc
from meldtour.web.director.deps import Scope

from .test_director import csrf, make_client, sign_up, web
from .test_director_pages import flash


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path) as c:
        c.post("/director/demo", data={"csrf": csrf(c)})
        sign_up(c)
        yield c


def phone(client: TestClient) -> TestClient:
    """Another device on the venue's network: its own cookies, no director session."""
    return TestClient(client.app, base_url="https://testserver")


def sheet(points: list[list[int]]) -> list[dict[str, object]]:
    return [{"points": p, "penalties": [0] * len(p), "winner": 1} for p in points]


A = [[30, -10, -10, -10], [20, -5, -5, -10], [25, -5, -10, -10], [40, -20, -10, -10]]
B = [[30, -10, -10, -10], [21, -6, -5, -10], [25, -5, -10, -10], [40, -20, -10, -10]]


def two_phones(client: TestClient, table: int) -> tuple[dict[str, object], dict[str, object]]:
    """Both phones read the sheet, A saves, then B saves from the same version."""
    token = web(client).scorer_token(Scope("demo", "general", 0, 1, table))
    store = web(client).store()
    _s, version, _k = usecases.get_sheet(store, "demo", "general", 1, table)
    a, b = phone(client), phone(client)
    first = a.post(
        f"/score/{token}",
        json={"games": sheet(A), "version": version},
        headers={"X-CSRF-Token": csrf(a)},
    )
    second = b.post(
        f"/score/{token}",
        json={"games": sheet(B), "version": version},
        headers={"X-CSRF-Token": csrf(b)},
    )
    return first.json(), {"status": second.status_code, **second.json()}


def round_html(client: TestClient, lang: str = "ko") -> str:
    return client.get(f"/director/t/demo/d/general/round?lang={lang}").text


def card(html: str, table: int) -> str:
    found = re.search(
        rf'<section class="tablecard[^"]*" id="table-{table}".*?</section>', html, re.S
    )
    assert found, table
    return found.group(0)


def test_the_refused_phone_entry_is_shown_and_taken(client: TestClient) -> None:
    first, second = two_phones(client, 1)
    assert first["counted"] is True
    # The sheet was counted by the first phone: the second is refused (and shown).
    assert second["status"] == 403 and second["counted"] is True
    html = card(round_html(client), 1)
    assert 'data-state="conflict"' in html
    assert "거부된 입력" in html and "1번 테이블 기록원이" in html and "에 보냈습니다." in html
    assert "점수표가 집계된 뒤에 들어온 입력입니다." in html
    # The second game differs: 20/-5 counted, 21/-6 refused, marked.
    assert '<td class="differs">21</td>' in html and '<td class="differs">-6</td>' in html
    entry = refused_uc.refused_entries(web(client).store(), "demo", "general")[1]
    assert [list(g.points) for g in entry.games] == B
    take = f"/director/t/demo/d/general/table/1/refused/{entry.id}/take"
    assert take in html and "거부된 입력으로 바꾸기" in html
    assert f"/director/t/demo/d/general/table/1/refused/{entry.id}/dismiss" in html
    # A stale id is refused in Korean and changes nothing.
    before = usecases.audit_log(web(client).store(), "demo")
    r = client.post(
        f"/director/t/demo/d/general/table/1/refused/{entry.id + 999}/take?lang=ko",
        data={"csrf": csrf(client)},
    )
    assert flash(r.text).startswith("error: 1번 테이블에는 확인할 거부된 입력이 없습니다")
    assert usecases.audit_log(web(client).store(), "demo") == before
    # Taken: B is the counted sheet, a correction with its reason, and no conflict.
    r = client.post(take + "?lang=ko", data={"csrf": csrf(client)})
    assert flash(r.text) == "ok: 거부된 입력을 이 테이블의 점수표로 집계했습니다."
    now, _v, _k = usecases.get_sheet(web(client).store(), "demo", "general", 1, 1)
    assert now.counted is not None and [list(g.points) for g in now.counted] == B
    log = usecases.audit_log(web(client).store(), "demo")
    assert any(
        "거부된 입력으로 바꿈" in a["why"] and a["action"] in ("enter_sheet", "correct_sheet")
        for a in log
    )
    html = card(round_html(client), 1)
    assert 'data-state="counted"' in html and "거부된 입력" not in html
    # Taking it again: nothing left to take.
    r = client.post(take + "?lang=en", data={"csrf": csrf(client)})
    assert "has no refused entry" in flash(r.text)


def test_the_refused_entry_is_set_aside_and_the_sheet_stands(client: TestClient) -> None:
    _first, second = two_phones(client, 2)
    assert second["status"] == 403
    entry = refused_uc.refused_entries(web(client).store(), "demo", "general")[2]
    r = client.post(
        f"/director/t/demo/d/general/table/2/refused/{entry.id}/dismiss?lang=ja",
        data={"csrf": csrf(client)},
    )
    assert flash(r.text) == "ok: 拒否された入力は採用しませんでした。記録用紙はそのままです。"
    now, _v, _k = usecases.get_sheet(web(client).store(), "demo", "general", 1, 2)
    assert now.counted is not None and [list(g.points) for g in now.counted] == A
    html = card(round_html(client, "ja"), 2)
    assert 'data-state="counted"' in html and "拒否された入力" not in html
    log = usecases.audit_log(web(client).store(), "demo")
    assert log[-1]["action"] == "refused_dismissed"
    page = client.get("/director/t/demo/audit?lang=en").text
    assert "set aside what a refused device had entered" in page


def test_the_round_status_screen(client: TestClient) -> None:
    two_phones(client, 1)
    page = client.get("/director/t/demo/d/general/status?lang=ko")
    assert page.status_code == 200
    html = page.text
    assert 'class="site' not in html and "<nav" not in html  # no site menu
    tiles = re.findall(r'<section class="tile[^"]*" data-table="(\d+)" data-state="(\w+)"', html)
    assert ("1", "conflict") in tiles
    assert all(state == "empty" for n, state in tiles if n != "1")
    assert "1번 테이블" in html and "분 전 저장" in html and "배정 후 0분" in html
    assert 'data-late="1"' not in html  # just seated: nobody is late
    # Seated long ago (the audit's time moved back): every table not counted is late.
    store = web(client).store()
    from sqlalchemy import text

    with store.transaction() as s:
        s.execute(
            text("UPDATE audit_log SET at = :at WHERE entity = 'round' AND action = 'seat'"),
            {"at": "2000-01-01T00:00:00+00:00"},
        )
    html = client.get("/director/t/demo/d/general/status?lang=ja&per_game=5").text
    late = re.findall(r'data-table="(\d+)" data-state="(\w+)" data-late="1"', html)
    assert late and all(state != "counted" for _n, state in late)
    assert "遅れ" in html and 'value="5"' in html
    # A bad threshold falls back to the default; the round page links the screen.
    for bad in ("0", "abc", "99999999999999999999", "%C2%B2"):
        answer = client.get(f"/director/t/demo/d/general/status?per_game={bad}")
        assert answer.status_code == 200 and 'value="20"' in answer.text
    assert "/director/t/demo/d/general/status" in round_html(client)


def test_two_drafts_at_once_the_second_is_shown(client: TestClient) -> None:
    """Both phones type the first game only; the second's save is a version conflict
    (409): the round page shows it as entered after another device saved first."""
    token = web(client).scorer_token(Scope("demo", "general", 0, 1, 3))
    _s, version, _k = usecases.get_sheet(web(client).store(), "demo", "general", 1, 3)
    empty = {"points": [None] * 4, "penalties": [0] * 4, "winner": None}
    a, b = phone(client), phone(client)
    for device, first_game, want in ((a, A[0], 200), (b, B[1], 409)):
        r = device.post(
            f"/score/{token}",
            json={"games": sheet([first_game]) + [empty] * 3, "version": version},
            headers={"X-CSRF-Token": csrf(device)},
        )
        assert r.status_code == want, r.text
    html = card(round_html(client), 3)
    assert "다른 기기가 먼저 점수표를 저장했습니다." in html and 'data-state="conflict"' in html
    entry = refused_uc.refused_entries(web(client).store(), "demo", "general")[3]
    r = client.post(
        f"/director/t/demo/d/general/table/3/refused/{entry.id}/take?lang=en",
        data={"csrf": csrf(client)},
    )
    # Three games not played yet: saved as the director's draft, not counted.
    assert flash(r.text).startswith("error: The refused entry is saved as a draft")
    now, _v, _k = usecases.get_sheet(web(client).store(), "demo", "general", 1, 3)
    assert list(now.games[0].points) == B[1] and now.counted is None
