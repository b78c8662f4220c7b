"""The authorisation matrix: every route of the app × every role, with the answer
expected, on the real app (in process, SQLite).

Roles: anonymous; a player (holding the seat cookie of a live game); the scorer of
table 3 and the scorer of table 4 (each holding only their own table's link); a director
of another tournament (an account that created tournament ``away``); the director.

Every route of the app must be classified in :data:`ROUTES` — a route added without a
line here fails :func:`test_every_route_is_classified`, so none slips in unclassified.

What is expected of each class:

* ``public``: answered for everyone (a 2xx or 3xx, or the route's own 4xx for bad input:
  never a 401/403 nor the sign-in page).
* ``director``: only a signed-in director (any director: their dashboard, a new
  tournament); everyone else is sent to the sign-in page (303) or
  refused (403), and nothing changes (the audit log and the tournament are as before).
* ``tournament``: a director route of one tournament (``{slug}`` in its path): only
  that tournament's directors (and the site's administrator, the first account); a
  director of another tournament is refused (403) and nothing changes.
* ``scorer``: the holder of the table's link (and the director, who prints the links);
  a forged or altered link — another table's number, another tournament — is a 404.
* ``seat``: the holder of the seat's secret; anything else is a 404.
* ``administrator``: only the site's administrator (the first account): a new account;
  any other director is refused (403), as is everyone else.
* ``first-account``: only while no account exists; afterwards it sends everyone to sign in.
* ``sign-in``: open to all; wrong credentials are a 401 (then a 429 once throttled).

Until migration 0006 accounts were global: a director of another tournament could
direct this one too. The matrix recorded that as ``GAP = True``; with tournament
ownership (:mod:`meldtour.store.owners`) it is ``False``: the rival is refused on every
``tournament`` route of this one, and holds no scorer link of it. The ``director``
here is this tournament's recorded director, not the administrator (a third account,
made first, that no role signs in as), so the matrix tests ownership itself.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.routing import _IncludedRouter
from fastapi.testclient import TestClient
from starlette.routing import Mount

from meldtour import application as usecases
from meldtour.application import arena as arena_use
from meldtour.application import players_accounts
from meldtour.application.acting import Acting
from meldtour.live import SeatConfig, TableConfig
from meldtour.store import owners
from meldtour.web.app import create_app
from meldtour.web.config import Settings
from meldtour.web.director import accounts
from meldtour.web.director.accounts import PASSWORDS
from meldtour.web.director.deps import CSRF_COOKIE, SESSION_COOKIE, Scope, Web

ROLES = ("anonymous", "player", "scorer3", "scorer4", "rival", "director")
#: A director of another tournament may direct this one (accounts were global before
#: migration 0006; now each tournament has its directors).
GAP = False

#: Every route: (method, path) -> class. "ws" is the game's WebSocket.
ROUTES: dict[tuple[str, str], str] = {
    ("GET", "/openapi.json"): "public",
    ("GET", "/docs"): "public",
    ("GET", "/docs/oauth2-redirect"): "public",
    ("GET", "/redoc"): "public",
    ("MOUNT", "/static"): "public",
    ("GET", "/healthz"): "public",
    ("GET", "/"): "public",
    ("GET", "/rules"): "public",
    ("GET", "/rules/{preset}"): "public",
    # online play
    ("GET", "/play"): "public",
    ("POST", "/play/tables"): "public",
    ("GET", "/play/t/{game_id}"): "public",
    ("POST", "/play/t/{game_id}/join"): "public",
    ("POST", "/play/t/{game_id}/rematch"): "public",
    ("WS", "/play/t/{game_id}/ws"): "ws",
    ("GET", "/play/t/{game_id}/score"): "public",
    ("GET", "/play/t/{game_id}/match"): "public",
    ("GET", "/play/t/{game_id}/replay"): "public",
    ("GET", "/play/t/{game_id}/analysis"): "public",
    # online players (issue 29): accounts, a player's page, quick play
    ("GET", "/play/signup"): "public",
    ("POST", "/play/signup"): "public",
    ("GET", "/play/signin"): "public",
    ("POST", "/play/signin"): "sign-in",
    ("POST", "/play/signout"): "public",
    ("GET", "/play/p/{account_id}"): "public",
    ("POST", "/play/p/{account_id}/disable"): "administrator",
    # moderation (issue 29): a player's report (a guest is told they cannot: a message
    # on the page, not a refusal of the route), the administrator's reports page
    ("POST", "/play/report"): "public",
    ("GET", "/director/reports"): "administrator",
    ("POST", "/director/reports/{account}/hide"): "administrator",
    ("POST", "/director/reports/{account}/show"): "administrator",
    ("POST", "/director/reports/{account}/disable"): "administrator",
    ("POST", "/director/reports/{account}/dismiss"): "administrator",
    ("GET", "/play/quick"): "public",
    ("POST", "/play/quick"): "public",
    ("GET", "/play/quick/wait"): "public",
    ("GET", "/play/quick/state"): "public",
    ("POST", "/play/quick/leave"): "public",
    ("GET", "/play/arenas/new"): "director",
    ("POST", "/play/arenas"): "director",
    ("GET", "/play/arena/{arena_id}"): "public",
    ("GET", "/play/arena/{arena_id}/board"): "public",
    ("POST", "/play/arena/{arena_id}/join"): "public",
    ("GET", "/play/arena/{arena_id}/state"): "public",
    ("POST", "/play/arena/{arena_id}/leave"): "public",
    ("GET", "/online/seat/{game_id}/{token}"): "seat",
    # public tournament pages
    ("GET", "/tournaments"): "public",
    ("GET", "/t/{slug}"): "public",
    ("GET", "/t/{slug}/register"): "public",
    ("POST", "/t/{slug}/register"): "public",
    ("GET", "/t/{slug}/p/{player}"): "public",
    ("GET", "/t/{slug}/standings"): "public",
    ("GET", "/t/{slug}/standings/live"): "public",
    ("GET", "/t/{slug}/standings/events"): "public",
    ("GET", "/t/{slug}/seats"): "public",
    ("GET", "/t/{slug}/vote"): "public",
    ("POST", "/t/{slug}/vote"): "public",
    ("GET", "/t/{slug}/vote/poster"): "public",
    # accounts
    ("GET", "/director/setup"): "first-account",
    ("POST", "/director/setup"): "first-account",
    ("GET", "/director/login"): "public",
    ("POST", "/director/login"): "sign-in",
    ("POST", "/director/logout"): "public",
    ("POST", "/director/accounts"): "administrator",
    ("POST", "/director/demo"): "director",
    ("GET", "/director/account"): "director",
    ("POST", "/director/account/password"): "director",
    ("POST", "/director/account/sessions"): "director",
    ("POST", "/director/accounts/{account}/disable"): "administrator",
    ("POST", "/director/accounts/{account}/enable"): "administrator",
    # the director's pages
    ("GET", "/director"): "director",
    ("POST", "/director/new-blank"): "director",
    ("POST", "/director/new"): "director",
    ("GET", "/director/t/{slug}"): "tournament",
    ("POST", "/director/t/{slug}/edit"): "tournament",
    ("POST", "/director/t/{slug}/divisions"): "tournament",
    ("POST", "/director/t/{slug}/d/{key}/settings"): "tournament",
    ("GET", "/director/t/{slug}/d/{key}/checkin"): "tournament",
    ("POST", "/director/t/{slug}/d/{key}/checkin/{player}"): "tournament",
    ("POST", "/director/t/{slug}/d/{key}/checkin-many"): "tournament",
    ("POST", "/director/t/{slug}/d/{key}/start"): "tournament",
    ("POST", "/director/t/{slug}/d/{key}/withdraw/{player}"): "tournament",
    ("POST", "/director/t/{slug}/d/{key}/drop/{player}"): "tournament",
    ("POST", "/director/t/{slug}/d/{key}/late"): "tournament",
    ("POST", "/director/t/{slug}/d/{key}/seat"): "tournament",
    ("POST", "/director/t/{slug}/d/{key}/lock"): "tournament",
    ("POST", "/director/t/{slug}/d/{key}/reseat"): "tournament",
    ("POST", "/director/t/{slug}/d/{key}/vote/{what}"): "tournament",
    ("POST", "/director/t/{slug}/d/{key}/vote/void"): "tournament",
    ("POST", "/director/t/{slug}/d/{key}/vote/draw"): "tournament",
    ("GET", "/director/t/{slug}/visitors"): "tournament",
    ("POST", "/director/t/{slug}/vote-codes"): "tournament",
    ("GET", "/director/t/{slug}/vote-codes.pdf"): "tournament",
    ("POST", "/director/t/{slug}/sources/withdraw"): "tournament",
    ("POST", "/director/t/{slug}/d/{key}/close"): "tournament",
    ("POST", "/director/t/{slug}/d/{key}/advance"): "tournament",
    ("GET", "/director/t/{slug}/d/{key}/round"): "tournament",
    ("GET", "/director/t/{slug}/d/{key}/status"): "tournament",
    ("POST", "/director/t/{slug}/d/{key}/table/{table}/refused/{entry}/take"): "tournament",
    ("POST", "/director/t/{slug}/d/{key}/table/{table}/refused/{entry}/dismiss"): "tournament",
    ("POST", "/director/t/{slug}/d/{key}/reopen"): "tournament",
    ("POST", "/director/t/{slug}/d/{key}/undo-advance"): "tournament",
    ("POST", "/director/t/{slug}/d/{key}/ranking"): "tournament",
    ("GET", "/t/{slug}/bracket"): "public",
    ("POST", "/director/t/{slug}/d/{key}/award"): "tournament",
    ("GET", "/director/t/{slug}/d/{key}/awards"): "tournament",
    ("POST", "/director/t/{slug}/d/{key}/prizes"): "tournament",
    ("POST", "/director/t/{slug}/d/{key}/signers"): "tournament",
    ("GET", "/director/t/{slug}/audit"): "tournament",
    ("GET", "/director/t/{slug}/players"): "tournament",
    ("POST", "/director/t/{slug}/players/add"): "tournament",
    ("POST", "/director/t/{slug}/players/preview"): "tournament",
    ("POST", "/director/t/{slug}/players/import"): "tournament",
    ("GET", "/director/t/{slug}/p/{player}"): "tournament",
    ("POST", "/director/t/{slug}/p/{player}"): "tournament",
    ("POST", "/director/t/{slug}/p/{player}/undo-check-in"): "tournament",
    ("POST", "/director/t/{slug}/p/{player}/reinstate"): "tournament",
    ("POST", "/director/t/{slug}/directors"): "tournament",
    ("GET", "/director/t/{slug}/d/{key}/pdf/{kind}"): "tournament",
    ("GET", "/director/t/{slug}/export/{what}.{fmt}"): "tournament",
    ("GET", "/director/t/{slug}/d/{key}/online"): "tournament",
    # the venue: the public address, the print page, the projector's list by name
    ("GET", "/director/address"): "director",
    ("POST", "/director/address"): "administrator",
    ("POST", "/director/address/check"): "director",
    ("GET", "/address/check"): "public",
    ("GET", "/director/t/{slug}/print"): "tournament",
    ("GET", "/t/{slug}/seats/names"): "public",
    ("POST", "/director/t/{slug}/d/{key}/online/start"): "tournament",
    # the circuit: ranking, rating, people (web/routes/circuit.py)
    ("GET", "/ranking"): "public",
    ("GET", "/ranking.{fmt}"): "public",
    ("GET", "/api/ranking"): "public",
    ("GET", "/rating"): "public",
    ("GET", "/rating.{fmt}"): "public",
    ("GET", "/people/{player}"): "public",
    ("GET", "/director/t/{slug}/d/{key}/qualified"): "tournament",
    ("POST", "/director/t/{slug}/d/{key}/quota"): "tournament",
    ("POST", "/director/t/{slug}/d/{key}/decline"): "tournament",
    ("POST", "/director/t/{slug}/d/{key}/grant"): "tournament",
    ("GET", "/director/t/{slug}/p/{player}/same"): "tournament",
    ("POST", "/director/t/{slug}/p/{player}/same"): "tournament",
    ("GET", "/director/people"): "administrator",
    ("POST", "/director/people/merge"): "administrator",
    ("POST", "/director/people/{player}/details"): "administrator",
    ("POST", "/director/people/{player}/split"): "administrator",
    ("GET", "/director/rankings"): "administrator",
    ("GET", "/director/rankings/new"): "administrator",
    ("GET", "/director/rankings/{key}"): "administrator",
    ("POST", "/director/rankings"): "administrator",
    ("POST", "/director/rankings/{key}"): "administrator",
    ("POST", "/director/rating-pools"): "administrator",
    # score entry by the table's link
    ("GET", "/score/{token}"): "scorer",
    ("POST", "/score/{token}/check"): "scorer",
    ("POST", "/score/{token}"): "scorer",
    # the table clock, by the same link; its service worker; the director's list
    ("GET", "/score/{token}/clock"): "scorer",
    ("POST", "/score/{token}/clock"): "scorer",
    ("POST", "/score/{token}/clock/penalties"): "scorer",
    ("GET", "/score-clock-sw.js"): "public",
    ("GET", "/director/t/{slug}/d/{key}/clocks"): "tournament",
}

#: Routes whose director answer depends on the state left by others: only "not refused".
SLUG, DIV = "home", "club"


def app_routes(app: Any) -> set[tuple[str, str]]:
    """Every (method, path) the app answers, through included routers."""
    found: set[tuple[str, str]] = set()

    def walk(routes: Any) -> None:
        for r in routes:
            if isinstance(r, _IncludedRouter):
                walk(r.original_router.routes)
            elif isinstance(r, Mount):
                found.add(("MOUNT", r.path))
            elif getattr(r, "methods", None):
                for m in r.methods - {"HEAD"}:
                    found.add((m, r.path))
            else:
                found.add(("WS", r.path))

    walk(app.routes)
    return found


#: The arena the world opens (its id is drawn when it is opened).
ARENA_ID = ""


@dataclass
class World:
    client: TestClient
    web: Web
    game_id: str
    seat_cookie: str
    tokens: dict[int, str]
    sessions: dict[str, str]
    csrf: tuple[str, str]


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    where: Path = tmp_path_factory.mktemp("authz")
    settings = Settings(env="test")
    app = create_app(settings)
    web = Web(settings, url=f"sqlite:///{where / 'authz.db'}")
    app.state.director = web
    store = web.store()
    accounts.create(store, "admin", "a long secret 0")  # the first: the administrator
    boss = accounts.create(store, "boss", "a long secret 1")
    rival = accounts.create(store, "rival", "a long secret 2")
    usecases.create_tournament(store, "club-night", who="rival", name="Away", slug="away")
    owners.record_creator(store, "away", rival.id)
    usecases.create_tournament(store, "club-night", who="boss", name="Home", slug=SLUG)
    owners.record_creator(store, SLUG, boss.id)
    usecases.register_players(
        store, SLUG, [usecases.PlayerEntry(f"선수 {i}", DIV) for i in range(1, 17)], who="boss"
    )
    usecases.check_in_players(store, SLUG, [str(i) for i in range(1, 17)], who="boss")
    usecases.seat(store, SLUG, DIV, None, who="boss")
    tokens = {n: web.scorer_token(Scope(SLUG, DIV, 0, 1, n)) for n in (1, 2, 3, 4)}
    # An online player's account (#1: its page, which only the administrator moderates).
    players_accounts.sign_up(store, "Online", "a long secret 3", "a long secret 3", PASSWORDS)
    # An arena (its pages are public; opening one is a director's).
    now = time.time()
    opened = arena_use.open_arena(
        store,
        Acting("boss", boss.id),
        name="Arena",
        preset="standard",
        turn_seconds=60,
        seconds=3600,
        starts_at=now,
        at=now,
    )
    global ARENA_ID
    ARENA_ID = opened.id
    with TestClient(app) as client:
        game = app.state.live.create_table(
            TableConfig.make(
                "standard", [SeatConfig("human"), SeatConfig("human")], turn_seconds=600
            )
        )
        joined = client.post(
            f"/play/t/{game.id}/join", data={"seat": "0", "name": "Ann"}, follow_redirects=False
        )
        seat_cookie = joined.cookies[f"meldtour_seat_{game.id}"]
        client.cookies.clear()
        exp = int(time.time()) + 3600
        sessions = {
            name: web.session.sign({"a": account.id, "exp": exp, "n": name})
            for name, account in (("director", boss), ("rival", rival))
        }
        cookie = "z" * 32
        yield World(
            client, web, game.id, seat_cookie, tokens, sessions, (cookie, web.csrf_token(cookie))
        )
    store.close()


def forged(token: str, table: int) -> str:
    """The link of ``token``, its table number changed: the signature no longer fits."""
    body, mac = token.split(".")
    import base64
    import json

    value = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    value[4] = table
    new = base64.urlsafe_b64encode(json.dumps(value, separators=(",", ":")).encode())
    return new.decode().rstrip("=") + "." + mac


def cookies_of(w: World, role: str) -> dict[str, str]:
    out = {CSRF_COOKIE: w.csrf[0]}
    if role in w.sessions:
        out[SESSION_COOKIE] = w.sessions[role]
    if role == "player":
        out[f"meldtour_seat_{w.game_id}"] = w.seat_cookie
    return out


def fill(w: World, path: str, role: str) -> str:
    """The path with real values; a scorer route gets the link the role holds."""
    holders = {"scorer3": w.tokens[3], "scorer4": w.tokens[4], "director": w.tokens[3]}
    if GAP:
        holders["rival"] = w.tokens[3]
    own = holders.get(role, forged(w.tokens[4], 3))
    if role == "scorer4":
        own = forged(w.tokens[4], 3)  # table 4's scorer tries table 3
    values = {
        "slug": SLUG,
        "key": DIV,
        "player": "3",
        "game_id": w.game_id,
        "token": own,
        "preset": "japan",
        "kind": "standings",
        "what": "players",
        "fmt": "csv",
        "account": "1",
        "account_id": "1",
        "table": "3",
        "entry": "1",
        "arena_id": ARENA_ID,
    }
    if path.startswith("/online/seat/"):
        values["token"] = "not-a-seat-secret"
    if "/vote/" in path:
        values["what"] = "open"
    return re.sub(r"\{(\w+)\}", lambda m: values[m.group(1)], path)


BODIES: dict[str, dict[str, str]] = {
    "/play/tables": {"seat_count": "2", "seat0": "human", "seat1": "greedy"},
    "/play/t/{game_id}/join": {"seat": "1", "name": "Bo"},
    "/t/{slug}/register": {"name": "새 선수", "division": DIV},
    "/t/{slug}/vote": {"finalist": "1"},
    "/director/login": {"name": "nobody", "password": "wrong password"},
    "/director/setup": {"name": "mallory", "password": "x" * 12, "again": "x" * 12},
    "/director/accounts": {"name": "eve", "password": "y" * 12},
    "/director/new": {"template": "club-night", "name": "New"},
    "/director/new-blank": {"name": "Blank"},
    "/director/t/{slug}/d/{key}/late": {"name": "늦은 선수"},
    "/director/t/{slug}/directors": {"name": "nobody"},
}


def state_of(w: World) -> tuple[int, str]:
    store = w.web.store()
    return len(usecases.audit_log(store, SLUG)), repr(usecases.read(store, SLUG))


def ask(w: World, method: str, path: str, role: str) -> Any:
    url = fill(w, path, role)
    headers = {"X-CSRF-Token": w.csrf[1]}
    w.client.cookies.clear()
    for k, v in cookies_of(w, role).items():
        w.client.cookies.set(k, v)
    if method == "MOUNT":
        return w.client.get("/static/style.css")
    if method == "GET":
        if path.endswith("/standings/events"):  # a stream: its status and first event
            with w.client.stream("GET", url) as r:
                first = next(r.iter_lines())
                assert first.startswith("retry:"), first
                return SimpleNamespace(status_code=r.status_code, headers=r.headers, text=first)
        return w.client.get(url, follow_redirects=False)
    if path.startswith("/score/"):
        return w.client.post(url, json={"games": []}, headers=headers, follow_redirects=False)
    return w.client.post(url, data=BODIES.get(path, {}), headers=headers, follow_redirects=False)


def refused(r: Any) -> bool:
    return r.status_code in (401, 403) or (
        r.status_code in (302, 303, 307) and "/director/login" in r.headers.get("location", "")
    )


def expected(kind: str, role: str) -> str:
    if kind == "public":
        return "ok"
    if kind == "director":
        return "ok" if role in ("director", "rival") else "refused"
    if kind == "administrator":  # the first account only: none of these roles
        return "refused"
    if kind == "tournament":
        if role == "director" or (role == "rival" and GAP):
            return "ok"
        return "refused"
    if kind == "scorer":
        return "ok" if role in ("scorer3", "director") or (role == "rival" and GAP) else "not-found"
    if kind == "seat":
        return "not-found"
    if kind == "first-account":
        return "to-login"
    if kind == "sign-in":
        return "wrong-password"
    raise AssertionError(kind)


MATRIX: list[tuple[str, str, str, int, str]] = []


def test_every_route_is_classified(world: World) -> None:
    routes = app_routes(world.client.app)
    assert sorted(routes - set(ROUTES)) == [], "routes without a class in ROUTES"
    assert sorted(set(ROUTES) - routes) == [], "classified routes the app no longer has"


@pytest.mark.parametrize("role", [r for r in ROLES if r != "director"] + ["director"])
def test_every_route_for_every_role(world: World, role: str) -> None:
    """Refused roles change nothing; allowed roles are never refused."""
    for (method, path), kind in ROUTES.items():
        if kind == "ws":
            continue
        want = expected(kind, role)
        before = state_of(world)
        r = ask(world, method, path, role)
        if path == "/director/logout" and role in world.sessions:
            # Signing out revokes the session (a copy of it is refused from then on):
            # the role signs in again for the routes after this one.
            value = dict(world.web.session.unsign(world.sessions[role]))
            world.sessions[role] = world.web.session.sign({**value, "n": value["n"] + "+"})
        if path == "/director/account/sessions" and role in world.sessions:
            # Ending the other sessions ends this copy too: the role signs in again.
            value = dict(world.web.session.unsign(world.sessions[role]))
            now = accounts.get(world.web.store(), value["a"])
            assert now is not None
            world.sessions[role] = world.web.session.sign({**value, "g": now.epoch})
        MATRIX.append((method, path, role, r.status_code, want))
        where = (method, path, role, r.status_code, r.text[:200])
        assert r.status_code < 500, where
        if want == "ok":
            assert not refused(r) and r.status_code != 404, where
        elif want == "refused":
            assert refused(r), where
            assert state_of(world) == before, where
        elif want == "not-found":
            assert r.status_code == 404, where
            assert state_of(world) == before, where
        elif want == "wrong-password":  # open to all; these credentials are wrong
            assert r.status_code in (401, 429), where
            assert state_of(world) == before, where
        elif want == "to-login":
            assert r.status_code == 303 and "/director/login" in r.headers["location"], where
            assert state_of(world) == before, where


def test_the_game_socket_seats_only_the_cookie_holder(world: World) -> None:
    """The player's cookie opens their seat; every other role watches (seat None), and
    a spectator's move is refused."""
    for role in ROLES:
        world.client.cookies.clear()
        for k, v in cookies_of(world, role).items():
            world.client.cookies.set(k, v)
        with world.client.websocket_connect(f"/play/t/{world.game_id}/ws") as ws:
            snap = ws.receive_json()
            assert snap["type"] == "snapshot"
            assert snap["seat"] == (0 if role == "player" else None), role


def test_a_running_game_is_not_replayed(world: World) -> None:
    """The replay and analysis of a game still in play (which would show every rack)
    send everyone to the table instead."""
    for page in ("replay", "analysis", "score"):
        r = world.client.get(f"/play/t/{world.game_id}/{page}", follow_redirects=False)
        assert r.status_code in (303, 307, 404) or "rack" not in r.text, page


def test_print_the_matrix() -> None:
    rows: dict[tuple[str, str], dict[str, int]] = {}
    for method, path, role, status, _want in MATRIX:
        rows.setdefault((method, path), {})[role] = status
    print("\n| route | " + " | ".join(ROLES) + " |")
    for (method, path), got in rows.items():
        print(f"| {method} {path} | " + " | ".join(str(got.get(r, "")) for r in ROLES) + " |")
