"""The authorisation walk (issue 26): every director route of the app, asked by a
director of another tournament, with real data.

``bee`` is an account the administrator created; he directs his own tournament (``bee``)
and none of the administrator's: ``home`` (in progress: players checked in, round 1
seated, a sheet counted, a vote open) and ``past`` (played out and awarded; its awards
qualify for ``nat-final``; a person has a member number; a ranking counts it).

The routes are not listed here: :func:`director_routes` takes them from the app (every
path under ``/director`` and every route that asks for a signed-in director), so a new
route is walked without a test of its own. Each route is asked:

* **with the administrator's things in its path** (``{slug}`` = ``home`` or ``past``,
  ``{player}`` = one of the administrator's people, ``{key}`` = the administrator's
  ranking): a refusal is expected — a 403 — and nothing of the administrator's changes;
* **with bee's own tournament in its path but form fields that name the
  administrator's things** (the decline form's ``source``, a ``person`` to link to, a
  ``qualification`` to grant, an account to add, a public address): nothing of the
  administrator's changes.

Routes that name nothing of anyone else's (bee's dashboard, a new tournament of his
own, his own password) are in :data:`OWN`: they may answer, but nothing of the
administrator's may change and the dashboard shows none of the administrator's
tournaments. "Nothing changes" is checked on the database itself (:func:`theirs`): every
row that belongs to the administrator's tournaments and people, every site setting, every
account but bee's.

:func:`test_the_walk_finds_a_forgotten_check` removes the tournament check from the app
and expects the walk to report the routes it then lets through.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from fastapi.routing import APIRoute, _IncludedRouter
from fastapi.testclient import TestClient
from sqlalchemy import select

from meldtour import application as usecases
from meldtour.application import circuit, venue
from meldtour.store import owners
from meldtour.store.models import Base
from meldtour.web.app import create_app
from meldtour.web.config import Settings
from meldtour.web.director import accounts
from meldtour.web.director.deps import (
    CSRF_COOKIE,
    FLASH_COOKIE,
    SESSION_COOKIE,
    Web,
    require_director,
    require_tournament_director,
)
from tests.circuit_play import play_out, play_table

DIV = "club"
QUAL = "nat-final"

#: Routes that name nothing of another organiser's: a director may use them, as long as
#: nothing of the administrator's changes.
OWN: set[tuple[str, str]] = {
    ("GET", "/director"),
    # asks whether the address the QR codes carry answers (read-only: any director may,
    # RELIABILITY.md "The venue's network"); setting it is the administrator's
    ("POST", "/director/address/check"),
    ("POST", "/director/new"),
    ("POST", "/director/new-blank"),
    ("POST", "/director/demo"),
    ("GET", "/director/setup"),
    ("POST", "/director/setup"),
    ("GET", "/director/login"),
    ("POST", "/director/login"),
    ("POST", "/director/logout"),
    # the laptop's addresses and the address in use (changing it is not bee's)
    ("GET", "/director/address"),
    # bee's own account
    ("GET", "/director/account"),
    ("POST", "/director/account/password"),
    ("POST", "/director/account/sessions"),
}


def director_routes(app: Any) -> list[APIRoute]:
    """Every route of the director: under ``/director``, or asking for a director."""
    found: list[APIRoute] = []

    def asks_director(dependant: Any) -> bool:
        return any(
            d.call in (require_director, require_tournament_director) or asks_director(d)
            for d in dependant.dependencies
        )

    def walk(routes: Any) -> None:
        for r in routes:
            if isinstance(r, _IncludedRouter):
                walk(r.original_router.routes)
            elif isinstance(r, APIRoute) and (
                r.path.startswith("/director") or asks_director(r.dependant)
            ):
                found.append(r)

    walk(app.routes)
    return found


@dataclass
class World:
    client: TestClient
    web: Web
    app: Any
    bee_session: str
    csrf: tuple[str, str]
    people: list[int]  # the administrator's people (player ids)
    ranking: str
    namesake: str  # the name of the administrator's person with a member number
    namesake_number: int  # bee's registration of that name
    holder: int  # the number (in ``past``) of a holder of the qualification
    admin_id: int
    bee_id: int
    ids: dict[str, set[int]] = field(default_factory=dict)


def _play_round(store: Any, slug: str) -> None:
    t = usecases.read(store, slug)
    div = t.division(DIV)
    rnd = div.stages[-1].rounds[-1]
    x = rnd.tables[0]
    usecases.enter_sheet(
        store,
        slug,
        DIV,
        rnd.number,
        x.number,
        play_table(div.rules, len(x.players), 1, len(x.sheet.games)),
        who="admin",
    )


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    where: Path = tmp_path_factory.mktemp("walk")
    settings = Settings(env="test")
    app = create_app(settings)
    web = Web(settings, url=f"sqlite:///{where / 'walk.db'}")
    app.state.director = web
    store = web.store()
    admin = accounts.create(store, "admin", "a long secret 0")  # the first account
    # the director has signed in on the laptop once: the site answers the network
    # (web/director/gate.py), so a sign-in from now on changes no site setting
    venue.open_to_network(store, who="admin")
    bee = accounts.create(store, "bee", "a long secret 1")
    for slug, who, aid in (
        ("past", "admin", admin.id),
        ("home", "admin", admin.id),
        ("bee", "bee", bee.id),
    ):
        usecases.create_tournament(store, "club-night", who=who, name=slug.title(), slug=slug)
        owners.record_creator(store, slug, aid)
        usecases.register_players(
            store,
            slug,
            [usecases.PlayerEntry(f"{slug} 선수 {i}", DIV) for i in range(1, 13)],
            who=who,
        )
        usecases.check_in_players(store, slug, [str(i) for i in range(1, 13)], who=who)
    play_out(store, "past", DIV)
    circuit.grant_qualification(
        store,
        "past",
        DIV,
        QUAL,
        label="National final",
        seats=2,
        who=circuit.Acting.operator("admin"),
    )
    people = sorted({p.person for p in circuit.holders(store, QUAL)})
    holder = next(h.number for h in circuit.holders(store, QUAL) if h.status == "holds")
    circuit.set_person(
        store,
        people[0],
        who=circuit.Acting.operator("admin"),
        member_number="KR-0001",
        birth_year=1990,
        public=False,
    )
    usecases.seat(store, "home", DIV, None, who="admin")
    _play_round(store, "home")
    # bee registers a player of the same name as the administrator's person (a namesake)
    namesake = circuit.person(store, people[0]).name
    out = usecases.register_players(
        store, "bee", [usecases.PlayerEntry(namesake, DIV, person=circuit.NEW)], who="bee"
    )
    number = out.tournament.registrations[-1].player
    usecases.seat(store, "bee", DIV, None, who="bee")
    _play_round(store, "bee")
    ranking = circuit.define_ranking(store, "national", who="admin", name="National").key
    circuit.count_division(store, ranking, "past", DIV, who="admin")
    with TestClient(app) as client:
        exp = int(time.time()) + 3600
        session = web.session.sign({"a": bee.id, "exp": exp, "n": "bee-walk"})
        cookie = "w" * 32
        w = World(
            client,
            web,
            app,
            session,
            (cookie, web.csrf_token(cookie)),
            people,
            ranking,
            namesake,
            number,
            holder,
            admin.id,
            bee.id,
        )
        w.ids = _their_ids(w)
        yield w
    store.close()


# ---------------------------------------------------------------- what is theirs


def _their_ids(w: World) -> dict[str, set[int]]:
    """The ids of the administrator's rows, by the column that refers to them."""
    t = Base.metadata.tables

    def ids(table: str, col: str, among: set[int]) -> set[int]:
        return set(s.scalars(select(t[table].c.id).where(t[table].c[col].in_(among))))

    with w.web.store().reading() as s:
        tids = set(
            s.scalars(
                select(t["tournament"].c.id).where(t["tournament"].c.slug.in_(("home", "past")))
            )
        )
        dids = ids("division", "tournament_id", tids)
        regs = list(
            s.execute(
                select(t["registration"].c.id, t["registration"].c.player_id).where(
                    t["registration"].c.tournament_id.in_(tids)
                )
            )
        )
        sids = ids("stage", "division_id", dids)
        rids = ids("round", "stage_id", sids)
        shids = ids("score_sheet", "round_id", rids)
        grants = ids("qualification_grant", "division_id", dids)
        polls = ids("winner_poll", "tournament_id", tids)
    players = {p for _r, p in regs}
    return {
        "tournament_id": tids,
        "division_id": dids,
        "registration_id": {r for r, _p in regs},
        "player_id": players,
        "source_id": players,
        "target_id": players,
        "stage_id": sids,
        "round_id": rids,
        "sheet_id": shids,
        "grant_id": grants,
        "poll_id": polls,
    }


#: Tables that hold the site's things (every row is someone else's than bee's).
SITE = {"site_setting", "ranking_def", "ranking_event"}
#: Tables of the machinery that are nobody's (signed-out sessions, the game log).
IGNORED = {"revoked_session", "live_game", "live_move", "live_table", "alembic_version"}


def theirs(w: World) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the database that is not bee's: the administrator's tournaments and
    everything under them, their people, the site's settings and rankings, every other
    account (and the administrator's sessions' state)."""
    ids = w.ids
    out: dict[str, list[tuple[Any, ...]]] = {}
    with w.web.store().reading() as s:
        for name, table in Base.metadata.tables.items():
            if name in IGNORED:
                continue
            rows = [tuple(r) for r in s.execute(select(table))]
            cols = list(table.c.keys())
            keep = []
            for r in rows:
                value = dict(zip(cols, r, strict=True))
                mine = name in SITE
                if name == "account":
                    mine = value["name"] != "bee"
                elif name == "tournament":
                    mine = value["id"] in ids["tournament_id"]
                elif name == "player":
                    mine = value["id"] in ids["player_id"]
                elif name == "audit_log" and value.get("tournament_id") is None:
                    mine = value.get("who") != "bee"
                for col, wanted in ids.items():
                    if col in value and value[col] in wanted:
                        mine = True
                if mine:
                    keep.append(r)
            out[name] = sorted(keep, key=repr)
    store = w.web.store()
    # what is derived from them: the qualification's list and label, their people
    out["derived: holders"] = [repr(h) for h in circuit.holders(store) if h.tournament != "bee"]
    out["derived: qualifications"] = list(circuit.qualifications(store))
    out["derived: people"] = [repr(circuit.person(store, p)) for p in w.people]
    return out


# ---------------------------------------------------------------- asking


def values(w: World, how: str) -> dict[str, str]:
    """The path's values: the administrator's (``foreign``) or bee's own (``own``,
    ``cross``)."""
    if how == "foreign":
        return {
            "slug": "home",
            "key": DIV,
            "player": "3",
            "what": "open",
            "kind": "standings",
            "fmt": "csv",
            "table": "1",
            "entry": "1",
        }
    return {
        "slug": "bee",
        "key": DIV,
        "player": "3",
        "what": "open",
        "kind": "standings",
        "fmt": "csv",
        "table": "1",
        "entry": "1",
    }


def fill(w: World, path: str, how: str, slug: str | None = None) -> str:
    v = values(w, how)
    if slug:
        v["slug"] = slug
    if how == "cross" and "{player}" in path:
        v["player"] = str(w.namesake_number)
    if path.startswith("/director/people/"):
        v["player"] = str(w.people[0]) if how == "foreign" else "999999"
    if path.startswith("/director/rankings/"):
        v["key"] = w.ranking
    v["account"] = str(w.admin_id)
    return re.sub(r"\{(\w+)\}", lambda m: v[m.group(1)], path)


def form(w: World, path: str, how: str) -> dict[str, Any]:
    """Plausible fields for the route; ``cross`` names the administrator's things."""
    admin_person = str(w.people[0])
    fields: dict[str, Any] = {
        "name": "Taken over",
        "date": "2026-01-01",
        "venue": "Elsewhere",
        "qualification": QUAL,
        "source": "past",
        "number": str(w.holder),
        "why": "walk",
        "person": admin_person,
        "keep": admin_person,
        "gone": str(w.people[1]),
        "seats": "2",
        "label": "National final",
        "codes": "",
        "count": "3",
        "prizes": "1",
        "address": "http://evil.example",
        "template": "club-night",
        "tournament": "past",
        "member": "X-1",
        "birth_year": "1900",
        "public": "1",
        "text": "walk 선수",
        "lines": "walk 선수",
        "go": "save",
        "division": DIV,
        "kind0": "seatings",
        "games0": "2",
        "seatings0": "2",
        "mode": "points",
        "password": "a new long secret",
        "again": "a new long secret",
        "current": "a long secret 1",
        "new": "a new long secret",
        "status": "withdrawn",
        "paste": w.namesake,
        "line0": "1",
        "name0": w.namesake,
        "division0": DIV,
        "person0": admin_person,
        "keep0": "1",
    }
    if how == "cross":  # a label of bee's for the administrator's qualification
        fields["label"] = "Taken over"
    if path.endswith("/directors"):
        fields["name"] = "bee" if how == "foreign" else "admin"
    if path.endswith(("/late", "/players/add")):
        fields["name"] = w.namesake if how == "cross" else "새 선수"
    if path.endswith("/players/import"):
        fields["count"] = "1"
    if path == "/director/accounts":
        fields["name"] = "eve"
    if path == "/director/login":
        fields.update(name="bee", password="a long secret 1")
    return fields


@dataclass
class Hole:
    method: str
    path: str
    how: str
    status: int
    why: str


def ask(w: World, route: APIRoute, method: str, how: str, slug: str | None = None) -> Any:
    url = fill(w, route.path, how, slug)
    # bee's own password change and "end my other sessions" end this session too: he
    # signs in again at his account's epoch
    bee = accounts.get(w.web.store(), w.bee_id)
    assert bee is not None
    w.bee_session = w.web.session.sign(
        {"a": bee.id, "exp": int(time.time()) + 3600, "n": "bee-walk", "g": bee.epoch}
    )
    w.client.cookies.clear()
    w.client.cookies.set(CSRF_COOKIE, w.csrf[0])
    w.client.cookies.set(SESSION_COOKIE, w.bee_session)
    if method == "GET":
        return w.client.get(url, follow_redirects=False)
    data = {"csrf": w.csrf[1], **form(w, route.path, how)}
    return w.client.post(
        url, data=data, headers={"X-CSRF-Token": w.csrf[1]}, follow_redirects=False
    )


def flash_kind(w: World, r: Any) -> str | None:
    value = w.web.flash.unsign(r.cookies.get(FLASH_COOKIE))
    return value[0] if isinstance(value, list) else None


def walk(w: World) -> list[Hole]:
    """Every director route, asked by bee in every way that fits it: the holes."""
    holes: list[Hole] = []
    for route in director_routes(w.app):
        for method in sorted(route.methods - {"HEAD"}):
            path = route.path
            ways: list[tuple[str, str | None]] = []
            if (method, path) in OWN:
                ways.append(("own", None))
            else:
                if "{slug}" in path:
                    ways += [("foreign", "home"), ("foreign", "past")]
                else:
                    ways.append(("foreign", None))
                if "{slug}" in path:
                    ways.append(("cross", "bee"))
            for how, slug in ways:
                if method == "POST" and path == "/director/logout":
                    continue  # would end bee's walk session; names nothing anyway
                before = theirs(w)
                r = ask(w, route, method, how, slug)
                after = theirs(w)
                why = ""
                if r.status_code >= 500:
                    why = "server error"
                elif before != after:
                    changed = sorted(k for k in before if before[k] != after[k])
                    why = "changed " + ", ".join(changed)
                elif how == "foreign" and r.status_code != 403:
                    why = "not refused"
                elif how != "foreign" and ("KR-0001" in r.text or "1990" in r.text):
                    why = "shows the administrator's person's member number or birth year"
                elif (
                    how == "own" and path == "/director" and ("Home" in r.text or "Past" in r.text)
                ):
                    why = "shows the administrator's tournaments"
                if why:
                    holes.append(Hole(method, path, how, r.status_code, why))
    return holes


_HOLES: list[Hole] | None = None


def holes_of(w: World) -> list[Hole]:
    global _HOLES
    if _HOLES is None:
        _HOLES = walk(w)
    return _HOLES


def test_the_walk_covers_every_director_route(world: World) -> None:
    """The walk is generated from the app: it sees the tournament routes, the people,
    the rankings, the accounts."""
    paths = {r.path for r in director_routes(world.app)}
    assert "/director/t/{slug}/d/{key}/decline" in paths
    assert "/director/people/{player}/split" in paths
    assert "/director/accounts" in paths
    assert "/director/reports" in paths and "/director/reports/{account}/hide" in paths
    assert len(paths) > 60


def test_no_hole(world: World) -> None:
    """bee is refused (or changes nothing of the administrator's) on every director
    route."""
    found = holes_of(world)
    assert found == []


def test_the_walk_finds_a_forgotten_check(world: World) -> None:
    """With the tournament check gone (every signed-in director let through), the walk
    reports the routes — it can fail."""
    app = world.app

    def let_through(request: Any) -> Any:  # the signed-in director, unchecked
        return require_director(request)

    app.dependency_overrides[require_tournament_director] = let_through
    try:
        found = {(h.method, h.path) for h in walk(world) if h.how == "foreign"}
    finally:
        app.dependency_overrides.clear()
    for route in (
        ("POST", "/director/t/{slug}/edit"),
        ("GET", "/director/t/{slug}/audit"),
        ("POST", "/director/t/{slug}/players/add"),
        ("GET", "/director/t/{slug}/p/{player}"),
    ):
        assert route in found, route


def test_print_the_walk(world: World) -> None:
    """The holes the walk finds (run with -s to read them)."""
    print(f"\n{len(director_routes(world.app))} director routes walked")
    for h in holes_of(world):
        print(f"| {h.method} {h.path} | {h.how} | {h.status} | {h.why} |")
