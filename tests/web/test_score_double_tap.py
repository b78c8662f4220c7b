"""A double tap on 기록지 저장 (issue 27, item 2): the second POST of the same sheet
answered "another device counted it already" with the phone's own sheet in the red box.
Now a resubmission of the sheet as it stands answers "saved" (the use case sees that
the refused save would have made the sheet that is there: nothing changes, no conflict
line), a different sheet is still refused, and the phone's button sends once."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from meldtour import application as usecases

from .test_director import _demo_sheet, csrf, make_client, web


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path) as c:
        yield c


def conflicts(client: TestClient) -> list[str]:
    return [
        a["action"]
        for a in usecases.audit_log(web(client).store(), "demo")
        if a["action"].endswith("_conflict")
    ]


def test_the_same_counted_sheet_twice_is_saved(client: TestClient) -> None:
    token, _scope, seats = _demo_sheet(client)
    _sheet, version, _key = usecases.get_sheet(web(client).store(), "demo", "general", 1, 1)
    headers = {"X-CSRF-Token": csrf(client)}
    games = [
        {"points": [30 + g, -10, -10, -10 - g], "penalties": [0] * seats, "winner": 1}
        for g in range(4)
    ]
    body = {"games": games, "version": version}
    first = client.post(f"/score/{token}?lang=ko", json=body, headers=headers)
    again = client.post(f"/score/{token}?lang=ko", json=body, headers=headers)
    assert first.status_code == 200 and first.json()["counted"] is True
    assert again.status_code == 200, again.text
    assert again.json()["counted"] is True and again.json()["version"] == first.json()["version"]
    assert again.json()["message"] == first.json()["message"]
    assert conflicts(client) == []
    # Without the version too (the sheet is counted: the scorer's link may not correct).
    assert client.post(f"/score/{token}", json={"games": games}, headers=headers).status_code == 200
    # Another sheet is still refused, and kept in the audit log.
    games[0]["points"] = [33, -11, -11, -11]
    assert client.post(f"/score/{token}", json=body, headers=headers).status_code in (403, 409)
    assert conflicts(client) == ["enter_sheet_conflict"]


def test_the_same_draft_twice_is_saved(client: TestClient) -> None:
    token, _scope, seats = _demo_sheet(client)
    _sheet, version, _key = usecases.get_sheet(web(client).store(), "demo", "general", 1, 1)
    headers = {"X-CSRF-Token": csrf(client)}
    games = [{"points": [30, -10, -10, -10], "penalties": [0] * seats, "winner": 1}] + [
        {"points": [None] * seats, "penalties": [0] * seats, "winner": None}
    ] * 3
    body = {"games": games, "version": version}
    first = client.post(f"/score/{token}", json=body, headers=headers)
    again = client.post(f"/score/{token}", json=body, headers=headers)
    assert first.status_code == 200 and not first.json()["counted"]
    assert again.status_code == 200 and not again.json()["counted"], again.text
    assert conflicts(client) == []
