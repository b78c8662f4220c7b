"""The director's app without a browser: the database on first start and an old schema,
accounts and sessions, CSRF, login throttling, the scorer's table link, checks as you
type, version conflicts, exports."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from meldtour import application as usecases
from meldtour.web.app import create_app
from meldtour.web.config import Settings
from meldtour.web.director.deps import Scope, Web

PASSWORD = "a long secret 1"


def make_client(
    tmp_path: Path, settings: Settings | None = None, name: str = "meldtour.db"
) -> TestClient:
    settings = settings or Settings(env="test")
    app = create_app(settings)
    app.state.director = Web(settings, url=f"sqlite:///{tmp_path / name}")
    base = "https://testserver" if not settings.is_development else "http://testserver"
    return TestClient(app, base_url=base)


def csrf(client: TestClient, path: str = "/director/login") -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', client.get(path).text)
    assert found
    return found.group(1)


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path) as c:
        yield c


def web(client: TestClient) -> Web:
    w: Web = client.app.state.director  # type: ignore[attr-defined]
    return w


def sign_up(client: TestClient) -> None:
    token = csrf(client, "/director/setup")
    r = client.post(
        "/director/setup",
        data={"csrf": token, "name": "boss", "password": PASSWORD, "again": PASSWORD},
    )
    assert r.status_code == 200 and r.url.path == "/director"


def test_first_start_offers_the_demo_and_the_first_account(client: TestClient) -> None:
    page = client.get("/tournaments?lang=en")
    assert "Create the demo tournament" in page.text
    assert "/director/setup" in page.text
    assert (
        client.get("/director", follow_redirects=False)
        .headers["location"]
        .startswith("/director/login")
    )
    assert client.get("/director/login").url.path == "/director/setup"
    r = client.post("/director/demo", data={"csrf": csrf(client)})
    assert r.url.path == "/t/demo"
    assert "김민준" in r.text
    # Once there is a tournament, only a director may add the demo again.
    assert client.post("/director/demo", data={"csrf": csrf(client)}).status_code == 403


def test_an_old_or_foreign_database_is_refused_naming_the_command(tmp_path: Path) -> None:
    with sqlite3.connect(tmp_path / "old.db") as conn:
        conn.execute("create table something (x integer)")
    with make_client(tmp_path, name="old.db") as c:
        page = c.get("/tournaments?lang=en")
    assert page.status_code == 503
    assert "meldtour db upgrade" in page.text


def test_every_form_needs_its_csrf_token(client: TestClient) -> None:
    csrf(client)
    assert client.post("/director/demo").status_code == 403
    assert client.post("/director/demo", data={"csrf": "forged"}).status_code == 403
    other = TestClient(client.app)
    token = csrf(other)  # a token of another visitor's cookie
    assert client.post("/director/demo", data={"csrf": token}).status_code == 403


def test_the_first_account_only_once_and_a_session_cookie_that_is_safe(client: TestClient) -> None:
    sign_up(client)
    cookie = next(c for c in client.cookies.jar if c.name == "mt_session")
    assert cookie.has_nonstandard_attr("HttpOnly")
    # A second "first account" is refused: the form sends you to sign in.
    stranger = TestClient(client.app)
    token = csrf(stranger, "/tournaments")
    r = stranger.post(
        "/director/setup",
        data={"csrf": token, "name": "mallory", "password": PASSWORD, "again": PASSWORD},
    )
    assert r.url.path == "/director/login"
    assert stranger.get("/director", follow_redirects=False).status_code == 303
    # A forged session is no session.
    stranger.cookies.set("mt_session", cookie.value[:-2] + "xx")
    assert stranger.get("/director", follow_redirects=False).status_code == 303


def test_session_cookie_is_secure_outside_development(tmp_path: Path) -> None:
    settings = Settings(env="production", secret_key="s" * 40)
    with make_client(tmp_path, settings) as c:
        sign_up(c)
        r = c.post(
            "/director/login",
            data={"csrf": csrf(c, "/director/login"), "name": "boss", "password": PASSWORD},
            follow_redirects=False,
        )
        header = r.headers["set-cookie"]
        assert "mt_session=" in header
        assert "HttpOnly" in header and "Secure" in header and "SameSite=lax" in header


def test_login_is_rate_limited(client: TestClient) -> None:
    sign_up(client)
    other = TestClient(client.app)
    token = csrf(other, "/director/login")
    for _ in range(5):
        r = other.post(
            "/director/login", data={"csrf": token, "name": "boss", "password": "wrong password"}
        )
        assert r.status_code == 401
    r = other.post("/director/login", data={"csrf": token, "name": "boss", "password": PASSWORD})
    assert r.status_code == 429
    assert "Retry-After" in r.headers


def test_director_pages_printing_and_exports_need_a_director(client: TestClient) -> None:
    client.post("/director/demo", data={"csrf": csrf(client)})
    for path in (
        "/director/t/demo",
        "/director/t/demo/d/general/checkin",
        "/director/t/demo/d/general/pdf/sheets",
        "/director/t/demo/export/players.csv",
        "/director/t/demo/audit",
    ):
        assert client.get(path, follow_redirects=False).status_code == 303, path
    sign_up(client)
    assert client.get("/director/t/demo/d/general/pdf/sheets").content[:5] == b"%PDF-"
    text = client.get("/director/t/demo/export/players.csv?lang=en").text
    assert text.startswith("\ufeffNumber,Name,Division") and "김민준" in text
    assert client.get("/director/t/demo/export/players.csv?lang=ko").text.startswith(
        "\ufeff번호,이름,부문"
    )
    assert client.get("/director/t/demo/export/standings.xlsx").content[:2] == b"PK"


def _demo_sheet(client: TestClient) -> tuple[str, Scope, int]:
    client.post("/director/demo", data={"csrf": csrf(client)})
    scope = Scope("demo", "general", 0, 1, 1)
    return web(client).scorer_token(scope), scope, 4


def test_the_scorer_link_opens_its_own_table_only(client: TestClient) -> None:
    token, _scope, _ = _demo_sheet(client)
    assert client.get(f"/score/{token}?lang=en").status_code == 200
    body, _mac = token.split(".")
    other = web(client).scorer.sign(["demo", "general", 0, 1, 2])
    assert client.get(f"/score/{body}.{other.split('.')[1]}").status_code == 404
    # A session cookie's signature is no scorer token, and the other way round.
    assert web(client).scope_of(web(client).session.sign(["demo", "general", 0, 1, 1])) is None


def test_checks_as_you_type_name_the_cell(client: TestClient) -> None:
    token, _scope, seats = _demo_sheet(client)
    headers = {"X-CSRF-Token": csrf(client)}
    games = [{"points": [30, 5, None, None], "penalties": [0] * seats, "winner": 1}] + [
        {"points": [None] * seats, "penalties": [0] * seats, "winner": None}
    ] * 3
    r = client.post(f"/score/{token}/check?lang=en", json={"games": games}, headers=headers)
    assert r.status_code == 200
    assert {
        "game": 1,
        "seat": 2,
        "field": "points",
        "message": "a loser cannot score +5",
    } in r.json()["problems"]
    assert client.post(f"/score/{token}/check", json={"games": games}).status_code == 403


def test_a_version_conflict_keeps_what_was_typed(client: TestClient) -> None:
    token, _scope, seats = _demo_sheet(client)
    store = web(client).store()
    _sheet, version, _key = usecases.get_sheet(store, "demo", "general", 1, 1)
    headers = {"X-CSRF-Token": csrf(client)}
    games = [{"points": [30, -10, -10, -10], "penalties": [0] * seats, "winner": 1}] + [
        {"points": [None] * seats, "penalties": [0] * seats, "winner": None}
    ] * 3
    first = client.post(
        f"/score/{token}", json={"games": games, "version": version}, headers=headers
    )
    assert first.status_code == 200 and not first.json()["counted"]
    games[0]["points"] = [24, -8, -8, -8]
    second = client.post(
        f"/score/{token}?lang=en", json={"games": games, "version": version}, headers=headers
    )
    assert second.status_code == 409
    data = second.json()
    assert data["conflict"] and data["theirs"][0]["points"] == [30, -10, -10, -10]
    assert "what you typed is still here" in data["message"]
    log = usecases.audit_log(store, "demo")
    assert log[-1]["action"] == "enter_sheet_conflict"
    assert log[-1]["after"]["refused"][0]["points"] == [24, -8, -8, -8]


def test_a_counted_sheet_is_corrected_by_the_director_only(client: TestClient) -> None:
    token, _scope, seats = _demo_sheet(client)
    headers = {"X-CSRF-Token": csrf(client)}
    games = [
        {"points": [30 + g, -10, -10, -10 - g], "penalties": [0] * seats, "winner": 1}
        for g in range(4)
    ]
    r = client.post(f"/score/{token}", json={"games": games}, headers=headers)
    assert r.json()["counted"] is True
    games[0]["points"] = [33, -11, -11, -11]
    assert client.post(f"/score/{token}", json={"games": games}, headers=headers).status_code == 403
    sign_up(client)
    headers = {"X-CSRF-Token": csrf(client)}
    assert client.post(f"/score/{token}", json={"games": games}, headers=headers).status_code == 400
    r = client.post(f"/score/{token}", json={"games": games, "why": "misread"}, headers=headers)
    assert r.json()["counted"] is True
    assert any(a["why"] == "misread" for a in usecases.audit_log(web(client).store(), "demo"))


def test_registration_fills_the_cap_then_the_waitlist(client: TestClient) -> None:
    client.post("/director/demo", data={"csrf": csrf(client)})
    store = web(client).store()
    usecases.create_tournament(store, "japan-championship", who="t", slug="jp")
    token = csrf(client)
    out = None
    for i in range(25):
        out = client.post("/t/jp/register?lang=en", data={"csrf": token, "name": f"P{i}"})
    assert out is not None and "is number 1 on the waitlist" in out.text
    page = client.get("/t/jp?lang=en")
    assert "24 of 24 taken" in page.text and "1 on the waitlist" in page.text
    assert "/rules/japan?lang=en" in page.text


def test_live_standings_answer_304_until_something_changes(client: TestClient) -> None:
    token, _scope, seats = _demo_sheet(client)
    first = client.get("/t/demo/standings/live?division=general")
    etag = first.headers["etag"]
    assert (
        client.get(
            "/t/demo/standings/live?division=general", headers={"If-None-Match": etag}
        ).status_code
        == 304
    )
    games = [{"points": [30, -10, -10, -10], "penalties": [0] * seats, "winner": 1}] * 4
    client.post(f"/score/{token}", json={"games": games}, headers={"X-CSRF-Token": csrf(client)})
    again = client.get("/t/demo/standings/live?division=general", headers={"If-None-Match": etag})
    assert again.status_code == 200 and "+120" in again.text
