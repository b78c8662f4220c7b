"""Security settings of the real app: session cookie flags, CSRF on every POST form of the
director and scorer, the login rate limit, forged and expired sessions, the default
secret refused outside development, and no secret in the server's log.

In process (``create_app`` with :class:`Settings`, SQLite) except the log test, which
runs uvicorn in a subprocess at log level debug and greps everything it wrote."""

from __future__ import annotations

import copy
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from http.cookies import SimpleCookie
from pathlib import Path

import httpx2 as httpx
import pytest
from fastapi.testclient import TestClient
from uvicorn.config import LOGGING_CONFIG

from meldtour import application as usecases
from meldtour.web.app import create_app
from meldtour.web.config import DEV_SECRET, ConfigError, Settings
from meldtour.web.director import accounts
from meldtour.web.director.deps import (
    CSRF_COOKIE,
    SESSION_COOKIE,
    Scope,
    Web,
    open_web_store,
)
from meldtour.web.security import MAX_FAILURES, LoginThrottle, Signer

from .servers import ROOT, free_port
from .test_authorisation import app_routes

SECRET = "k" * 8 + "-a-known-secret-key-for-the-log-test-" + "q" * 8
PASSWORD = "a long director password 7"
SLUG, DIV = "home", "club"


def make(tmp_path: Path, settings: Settings) -> tuple[TestClient, Web]:
    app = create_app(settings)
    web = Web(settings, url=f"sqlite:///{tmp_path / 'sessions.db'}")
    app.state.director = web
    base = "http://testserver" if settings.is_development else "https://testserver"
    return TestClient(app, base_url=base), web


def csrf_of(client: TestClient, path: str = "/director/login") -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', client.get(path).text)
    assert found, path
    return found.group(1)


def login(client: TestClient, name: str, password: str) -> httpx.Response:
    token = csrf_of(client)
    return client.post(
        "/director/login",
        data={"csrf": token, "name": name, "password": password},
        follow_redirects=False,
    )


def set_cookies(response: httpx.Response) -> dict[str, str]:
    """Each Set-Cookie header of the response by cookie name (the header's raw text)."""
    out = {}
    for raw in response.headers.get_list("set-cookie"):
        out[raw.split("=", 1)[0]] = raw
    return out


@pytest.mark.parametrize("env", ["development", "production"])
def test_session_cookie_flags(tmp_path: Path, env: str) -> None:
    settings = Settings(env=env, secret_key="s" * 40)
    client, web = make(tmp_path, settings)
    with client:
        accounts.create(web.store(), "boss", PASSWORD)
        page = client.get("/director/login")
        r = login(client, "boss", PASSWORD)
        assert r.status_code == 303, r.text
        for raw in (set_cookies(r)[SESSION_COOKIE], set_cookies(page)[CSRF_COOKIE]):
            attrs = {a.strip().split("=")[0].lower(): a.strip() for a in raw.split(";")[1:]}
            assert "httponly" in attrs, raw
            assert attrs["samesite"].lower() == "samesite=lax", raw
            assert ("secure" in attrs) == (env != "development"), raw
        parsed = SimpleCookie()
        parsed.load(set_cookies(r)[SESSION_COOKIE])
        assert int(parsed[SESSION_COOKIE]["max-age"]) <= 12 * 3600
        # logging out clears it with the same flags
        client.cookies.set(SESSION_COOKIE, parsed[SESSION_COOKIE].value)
        out = client.post(
            "/director/logout", data={"csrf": csrf_of(client)}, follow_redirects=False
        )
        cleared = set_cookies(out)[SESSION_COOKIE]
        assert "Max-Age=0" in cleared and "HttpOnly" in cleared, cleared


@pytest.fixture()
def world(tmp_path: Path) -> Iterator[tuple[TestClient, Web, str]]:
    settings = Settings(env="test")
    client, web = make(tmp_path, settings)
    with client:
        store = web.store()
        boss = accounts.create(store, "boss", PASSWORD)
        usecases.create_tournament(store, "club-night", who="boss", name="Home", slug=SLUG)
        usecases.register_players(
            store, SLUG, [usecases.PlayerEntry(f"선수 {i}", DIV) for i in range(1, 9)], who="boss"
        )
        usecases.check_in_players(store, SLUG, [str(i) for i in range(1, 9)], who="boss")
        usecases.seat(store, SLUG, DIV, None, who="boss")
        session = web.session.sign({"a": boss.id, "exp": int(time.time()) + 3600, "n": "x"})
        yield client, web, session


def fill(web: Web, path: str) -> str:
    values = {
        "slug": SLUG,
        "key": DIV,
        "player": "3",
        "what": "open",
        "account": "1",
        "table": "1",
        "entry": "1",
        "account_id": "1",
        "arena_id": "1",
        "game_id": "g",
        "token": web.scorer_token(Scope(SLUG, DIV, 0, 1, 1)),
    }
    return re.sub(r"\{(\w+)\}", lambda m: values[m.group(1)], path)


def test_csrf_refused_on_every_post_form(world: tuple[TestClient, Web, str]) -> None:
    """Every POST route of the director, the public tournament pages and the scorer
    (the routes enumerated from the app, not a hand-picked few), with a valid director
    session: without a token and with a wrong one (the token of another CSRF cookie),
    as a form field and as a header, it is a 403 and nothing changes."""
    client, web, session = world
    posts = sorted(p for m, p in app_routes(client.app) if m == "POST")
    checked = [p for p in posts if not p.startswith("/play/")]
    assert len(checked) >= 25 and "/score/{token}" in checked, checked
    store = web.store()

    def state() -> tuple[int, str, int]:
        return (
            len(usecases.audit_log(store, SLUG)),
            repr(usecases.read(store, SLUG)),
            accounts.count(store),
        )

    cookie, other = "c" * 32, "d" * 32
    wrong = web.csrf_token(other)
    for path in checked:
        url = fill(web, path) + "?lang=en"
        for how in ("none", "form", "header", "cookie-less"):
            client.cookies.clear()
            client.cookies.set(SESSION_COOKIE, session)
            if how != "cookie-less":
                client.cookies.set(CSRF_COOKIE, cookie)
            before = state()
            headers = {"X-CSRF-Token": wrong} if how == "header" else {}
            if how == "cookie-less":  # a token valid for some cookie, but no cookie
                headers = {"X-CSRF-Token": web.csrf_token(cookie)}
            if path.startswith("/score/"):
                r = client.post(url, json={"games": []}, headers=headers, follow_redirects=False)
            else:
                data = {
                    "name": "x",
                    "password": PASSWORD,
                    "again": PASSWORD,
                    "template": "club-night",
                }
                if how == "form":
                    data["csrf"] = wrong
                r = client.post(url, data=data, headers=headers, follow_redirects=False)
            assert r.status_code == 403, (path, how, r.status_code, r.text[:200])
            assert "did not come from this site" in r.text, (path, how, r.text[:200])
            assert state() == before, (path, how)
    # The control: the right token passes the check (the route's own answer).
    client.cookies.clear()
    client.cookies.set(SESSION_COOKIE, session)
    client.cookies.set(CSRF_COOKIE, cookie)
    r = client.post(
        fill(web, "/score/{token}/check"),
        json={"games": []},
        headers={"X-CSRF-Token": web.csrf_token(cookie)},
    )
    assert r.status_code != 403


def test_login_rate_limit(world: tuple[TestClient, Web, str]) -> None:
    client, web, _session = world
    assert int(LoginThrottle().window) >= 60  # the shipped window
    window = 8
    web.throttle = LoginThrottle(window=window)  # the limits library's real clock
    started = time.monotonic()  # every failure counted below is at or after this
    for _ in range(MAX_FAILURES):
        assert login(client, "boss", "not the password").status_code == 401
    last = time.monotonic()
    # Now even the right password is refused, for the whole window.
    r = login(client, "boss", PASSWORD)
    assert r.status_code == 429 and SESSION_COOKIE not in set_cookies(r)
    assert int(r.headers["Retry-After"]) >= window
    # Later in the window (however slow the machine was, still inside it): refused.
    time.sleep(max(0.0, min(started + window - 2.5, last + 2) - time.monotonic()))
    if time.monotonic() < started + window - 1.5:
        assert login(client, "boss", PASSWORD).status_code == 429
        # A different account name from the same address is refused too (per address).
        assert login(client, "BOSS ", PASSWORD).status_code == 429
    time.sleep(max(0.0, last + window + 0.5 - time.monotonic()))
    r = login(client, "boss", PASSWORD)
    assert r.status_code == 303 and SESSION_COOKIE in set_cookies(r)


def test_forged_and_expired_sessions_refused(world: tuple[TestClient, Web, str]) -> None:
    client, web, session = world
    boss = accounts.authenticate(web.store(), "boss", PASSWORD)
    assert boss is not None

    def dashboard(cookie: str) -> int:
        client.cookies.clear()
        client.cookies.set(SESSION_COOKIE, cookie)
        r = client.get("/director", follow_redirects=False)
        if r.status_code == 303:
            assert r.headers["location"].startswith("/director/login")
        return r.status_code

    assert dashboard(session) == 200  # the control
    exp = int(time.time()) + 3600
    other = Signer("another secret key, not this app's one, 40 chars", "session")
    assert dashboard(other.sign({"a": boss.id, "exp": exp, "n": "x"})) == 303
    assert dashboard(Signer(DEV_SECRET + "x", "session").sign({"a": boss.id, "exp": exp})) == 303
    # Another purpose's signature with the right secret is no session either.
    assert dashboard(web.scorer.sign({"a": boss.id, "exp": exp})) == 303
    assert dashboard(web.session.sign({"a": boss.id, "exp": int(time.time()) - 1})) == 303
    assert dashboard(web.session.sign({"a": boss.id})) == 303
    body, mac = session.split(".")
    assert dashboard(f"{body}x.{mac}") == 303
    assert dashboard(session + "x") == 303
    # A tournament page too, not only the dashboard.
    client.cookies.clear()
    client.cookies.set(SESSION_COOKIE, other.sign({"a": boss.id, "exp": exp}))
    assert client.get(f"/director/t/{SLUG}", follow_redirects=False).status_code == 303


def test_default_secret_refused_outside_development() -> None:
    with pytest.raises(ConfigError):
        Settings.from_env({"MELDTOUR_ENV": "production"})
    with pytest.raises(ConfigError):
        Settings.from_env({"MELDTOUR_ENV": "production", "MELDTOUR_SECRET_KEY": DEV_SECRET})
    with pytest.raises(ConfigError):
        Settings.from_env({"MELDTOUR_ENV": "staging", "MELDTOUR_SECRET_KEY": "short"})
    ok = Settings.from_env({"MELDTOUR_ENV": "production", "MELDTOUR_SECRET_KEY": SECRET})
    assert not ok.is_development
    assert Settings.from_env({}).is_development  # development may use the default
    # The real server refuses to start with it.
    env = {**os.environ, "MELDTOUR_ENV": "production", "PYTHONPATH": str(ROOT / "src")}
    env.pop("MELDTOUR_SECRET_KEY", None)
    out = subprocess.run(
        [sys.executable, "-c", "from meldtour.web.app import create_app; create_app()"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode != 0 and "MELDTOUR_SECRET_KEY" in out.stderr


def test_no_secret_in_the_server_log(tmp_path: Path) -> None:
    """uvicorn at log level debug, a known secret key and director password: sign up,
    sign out and in, make the demo, save a sheet by the scorer's link, start a round
    online and follow a person's seat link. The whole output holds none of the secret
    key, the password, the session cookies, the CSRF cookie, the scorer's link or the
    seat tokens."""
    url = f"sqlite:///{tmp_path / 'log.db'}"
    store = open_web_store(url)
    usecases.create_tournament(store, "club-night", who="boss", name="Club", slug=SLUG)
    usecases.register_players(
        store, SLUG, [usecases.PlayerEntry(f"P{i}", DIV) for i in range(1, 9)], who="boss"
    )
    usecases.check_in_players(store, SLUG, [str(i) for i in range(1, 9)], who="boss")
    usecases.seat(store, SLUG, DIV, None, who="boss")
    store.close()
    port = free_port()
    log = tmp_path / "server.log"
    # uvicorn's own logging, plus the root logger at DEBUG: meldtour's loggers and the
    # libraries' (SQLAlchemy, asyncio, websockets) write to the output too.
    config = copy.deepcopy(LOGGING_CONFIG)
    config["root"] = {"handlers": ["default"], "level": "DEBUG"}
    for name in config["loggers"]:
        config["loggers"][name]["level"] = "DEBUG"
    (tmp_path / "logging.json").write_text(json.dumps(config))
    env = {
        **os.environ,
        "MELDTOUR_DATABASE_URL": url,
        "MELDTOUR_ENV": "test",
        "MELDTOUR_SECRET_KEY": SECRET,
        "PYTHONPATH": str(ROOT / "src"),
    }
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                "meldtour.web.app:create_app",
                "--factory",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--log-level",
                "debug",
                "--log-config",
                str(tmp_path / "logging.json"),
            ],
            cwd=tmp_path,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    secrets_seen: list[str] = [SECRET, PASSWORD]
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            assert proc.poll() is None, log.read_text()
            try:
                if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline
            time.sleep(0.1)
        with httpx.Client(base_url=base, timeout=30, follow_redirects=True) as c:

            def token(path: str) -> str:
                found = re.search(r'name="csrf" value="([^"]+)"', c.get(path).text)
                assert found, path
                return found.group(1)

            r = c.post(
                "/director/setup",
                data={
                    "csrf": token("/director/setup"),
                    "name": "boss",
                    "password": PASSWORD,
                    "again": PASSWORD,
                },
            )
            assert r.status_code == 200 and r.url.path == "/director", r.text[:300]
            secrets_seen += [c.cookies[SESSION_COOKIE], c.cookies[CSRF_COOKIE]]
            c.post("/director/logout", data={"csrf": token("/director")})
            assert (
                c.post(
                    "/director/login",
                    data={"csrf": token("/director/login"), "name": "boss", "password": "wrong!"},
                ).status_code
                == 401
            )
            r = c.post(
                "/director/login",
                data={"csrf": token("/director/login"), "name": "boss", "password": PASSWORD},
            )
            assert r.status_code == 200 and r.url.path == "/director"
            secrets_seen.append(c.cookies[SESSION_COOKIE])
            c.post("/director/demo", data={"csrf": token("/director")})
            scorer = Signer(SECRET, "scorer").sign(["demo", "general", 0, 1, 1])
            secrets_seen.append(scorer)
            assert c.get(f"/score/{scorer}").status_code == 200
            games = [{"points": [30, -10, -10, -10], "penalties": [0] * 4, "winner": 1}] + [
                {"points": [None] * 4, "penalties": [0] * 4, "winner": None}
            ] * 3
            r = c.post(
                f"/score/{scorer}",
                json={"games": games},
                headers={"X-CSRF-Token": token("/director")},
            )
            assert r.status_code == 200, r.text
            page = f"/director/t/{SLUG}/d/{DIV}/online"
            r = c.post(
                f"/director/t/{SLUG}/d/{DIV}/online/start",
                data={
                    "csrf": token(page),
                    "level": "beginner",
                    "computer": [str(n) for n in range(1, 7)],
                },
            )
            assert r.status_code == 200, r.text[:300]
            links = re.findall(r"/online/seat/([\w-]+)/([\w-]+)", r.text)
            assert links, r.text[:500]
            with httpx.Client(base_url=base, timeout=30) as player:
                for game_id, seat_token in links[:2]:
                    secrets_seen.append(seat_token)
                    got = player.get(f"/online/seat/{game_id}/{seat_token}", follow_redirects=False)
                    assert got.status_code == 303
                    assert player.get(got.headers["location"]).status_code == 200
    finally:
        proc.terminate()
        proc.wait(10)
    text = log.read_text(errors="replace")
    assert "GET /healthz" in text and "POST /director/login" in text  # it did log
    assert "GET /score/…" in text and "/online/seat/" in text  # redacted, not left out
    assert "DEBUG" in text
    assert len(secrets_seen) >= 8
    for secret in secrets_seen:
        assert len(secret) >= 10
        assert secret not in text, f"{secret[:6]}… is in the server's log"
    # Nor a recognisable part of them (a cookie cut at its signature).
    for secret in secrets_seen[2:]:
        for part in secret.split("."):
            if len(part) >= 12:
                assert part not in text, f"{part[:6]}… is in the server's log"


def test_signing_out_revokes_a_copied_cookie(world: tuple[TestClient, Web, str]) -> None:
    """A copy of the session cookie taken before its owner signs out is refused after
    (it stayed valid for 12 h before)."""
    client, _web, session = world
    client.cookies.clear()
    client.cookies.set(SESSION_COOKIE, session)
    assert client.get("/director", follow_redirects=False).status_code == 200
    token = csrf_of(client, "/director")
    assert (
        client.post("/director/logout", data={"csrf": token}, follow_redirects=False).status_code
        == 303
    )
    client.cookies.clear()
    client.cookies.set(SESSION_COOKIE, session)  # the copy
    r = client.get("/director", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/director/login")
    # Signing in again gives a new session that works.
    fresh = set_cookies(login(client, "boss", PASSWORD))
    assert SESSION_COOKIE in fresh
