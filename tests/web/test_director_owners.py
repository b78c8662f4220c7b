"""Tournament ownership (migration 0006): the account that creates a tournament is its
director, a director of it adds co-directors, the site's administrator (the first
account) opens every tournament, and anyone else signed in is refused — on every
``/director/t/{slug}`` route, before anything changes. The table is in backups."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.routing import APIRoute, _IncludedRouter
from fastapi.testclient import TestClient
from sqlalchemy import insert, select

from meldtour import application as usecases
from meldtour.store import owners
from meldtour.store.backup import dumps, restore
from meldtour.store.db import Store, make_engine, upgrade
from meldtour.web.app import create_app
from meldtour.web.config import Settings
from meldtour.web.director import accounts
from meldtour.web.director.accounts import Account
from meldtour.web.director.deps import (
    CSRF_COOKIE,
    SESSION_COOKIE,
    Scope,
    Web,
    require_tournament_director,
)
from tests.old_schema import old_tournament
from tests.store.backends import BACKENDS, database

CSRF = "c" * 32


@pytest.fixture()
def site(tmp_path: Path) -> Iterator[tuple[TestClient, Web, dict[str, Account]]]:
    settings = Settings(env="test")
    app = create_app(settings)
    web = Web(settings, url=f"sqlite:///{tmp_path / 'owners.db'}")
    app.state.director = web
    store = web.store()
    people = {
        name: accounts.create(store, name, f"a long secret {name}")
        for name in ("admin", "ann", "bo", "cy")
    }  # admin is the first account
    with TestClient(app, base_url="https://testserver") as client:
        yield client, web, people
    store.close()


def sign_in(client: TestClient, web: Web, account: Account) -> None:
    client.cookies.clear()
    client.cookies.set(
        SESSION_COOKIE,
        web.session.sign({"a": account.id, "exp": int(time.time()) + 3600, "n": account.name}),
    )
    client.cookies.set(CSRF_COOKIE, CSRF)


def post(client: TestClient, web: Web, path: str, **data: str) -> Any:
    return client.post(
        path, data=data, headers={"X-CSRF-Token": web.csrf_token(CSRF)}, follow_redirects=False
    )


def create(client: TestClient, web: Web, account: Account, name: str) -> str:
    """A tournament made by ``account`` through the dashboard's form; its slug."""
    sign_in(client, web, account)
    r = post(client, web, "/director/new", template="club-night", name=name)
    assert r.status_code == 303, r.text
    return str(r.headers["location"]).removeprefix("/director/t/")


def test_the_creator_directs_it_and_others_are_refused_until_added(site: Any) -> None:
    client, web, p = site
    slug = create(client, web, p["ann"], "Spring cup")
    assert owners.directors(web.store(), slug) == ["ann"]
    assert client.get(f"/director/t/{slug}").status_code == 200
    assert "Spring cup" in client.get("/director").text

    sign_in(client, web, p["bo"])
    refused = client.get(f"/director/t/{slug}?lang=en", follow_redirects=False)
    assert refused.status_code == 403
    assert "not a director of this tournament" in refused.text
    assert client.get(f"/director/t/{slug}/audit").status_code == 403
    assert client.get(f"/director/t/{slug}/export/players.csv").status_code == 403
    assert "Spring cup" not in client.get("/director").text  # not on bo's dashboard

    sign_in(client, web, p["ann"])
    r = post(client, web, f"/director/t/{slug}/directors", name="bo")
    assert r.status_code == 303 and owners.directors(web.store(), slug) == ["ann", "bo"]
    assert [(a["who"], a["action"], a["after"]) for a in usecases.audit_log(web.store(), slug)][
        -1
    ] == ("ann", "add director", "bo")
    # adding again, or an account that does not exist, changes nothing
    post(client, web, f"/director/t/{slug}/directors", name="bo")
    post(client, web, f"/director/t/{slug}/directors", name="nobody")
    assert owners.directors(web.store(), slug) == ["ann", "bo"]

    sign_in(client, web, p["bo"])  # the co-director opens it and changes it
    assert client.get(f"/director/t/{slug}").status_code == 200
    assert "Spring cup" in client.get("/director").text
    assert post(client, web, f"/director/t/{slug}/edit", name="Spring open").status_code == 303
    assert usecases.read(web.store(), slug).name == "Spring open"
    sign_in(client, web, p["cy"])  # still not cy
    assert client.get(f"/director/t/{slug}", follow_redirects=False).status_code == 403


def test_a_non_director_changes_nothing(site: Any) -> None:
    client, web, p = site
    slug = create(client, web, p["ann"], "Autumn cup")
    store = web.store()
    before = (
        usecases.audit_log(store, slug),
        repr(usecases.read(store, slug)),
        owners.directors(store, slug),
    )
    sign_in(client, web, p["bo"])
    for path, data in [
        (f"/director/t/{slug}/edit", {"name": "Taken over"}),
        (f"/director/t/{slug}/directors", {"name": "bo"}),
        (f"/director/t/{slug}/divisions", {"name": "Extra"}),
        (f"/director/t/{slug}/d/club/late", {"name": "Intruder"}),
        (f"/director/t/{slug}/d/club/start", {}),
    ]:
        r = post(client, web, path, **data)
        assert r.status_code == 403, (path, r.status_code)
    after = (
        usecases.audit_log(store, slug),
        repr(usecases.read(store, slug)),
        owners.directors(store, slug),
    )
    assert after == before


def test_the_administrator_opens_every_tournament(site: Any) -> None:
    client, web, p = site
    slug = create(client, web, p["ann"], "Ann's night")
    usecases.create_tournament(
        web.store(), "club-night", who="cli", name="Old one", slug="old"
    )  # no director recorded: an old database, the CLI
    sign_in(client, web, p["admin"])
    listed = client.get("/director?lang=en").text
    assert "Ann&#39;s night" in listed and "Old one" in listed
    assert "the first account" in listed
    for s in (slug, "old"):
        assert client.get(f"/director/t/{s}").status_code == 200
        assert client.get(f"/director/t/{s}/d/club/checkin").status_code == 200
    assert post(client, web, "/director/t/old/directors", name="cy").status_code == 303
    sign_in(client, web, p["ann"])  # the unowned tournament is the administrator's alone
    assert client.get("/director/t/old", follow_redirects=False).status_code == 403
    assert "Old one" not in client.get("/director").text
    sign_in(client, web, p["cy"])  # until the administrator added cy
    assert client.get("/director/t/old").status_code == 200


def test_from_scratch_and_the_demo_record_their_creator(site: Any) -> None:
    client, web, p = site
    sign_in(client, web, p["cy"])
    r = post(
        client,
        web,
        "/director/new-blank",
        name="Blank day",
        division="Open",
        kind0="seatings",
        seatings0="2",
        games0="2",
    )
    assert r.status_code == 303 and r.headers["location"].startswith("/director/t/")
    blank = str(r.headers["location"]).removeprefix("/director/t/")
    assert post(client, web, "/director/demo").status_code == 303
    assert owners.directors(web.store(), blank) == ["cy"]
    assert owners.directors(web.store(), "demo") == ["cy"]


def test_a_scorer_link_held_by_another_director_corrects_nothing(site: Any) -> None:
    """A counted sheet is corrected by a director of its tournament only: a director of
    another one holding the table's link is just its scorer."""
    client, web, p = site
    slug = create(client, web, p["ann"], "Sheets")
    store = web.store()
    usecases.register_players(
        store, slug, [usecases.PlayerEntry(f"P{i}", "club") for i in range(1, 9)], who="ann"
    )
    usecases.check_in_players(store, slug, [str(i) for i in range(1, 9)], who="ann")
    usecases.seat(store, slug, "club", None, who="ann")
    sheet, _version, _key = usecases.get_sheet(store, slug, "club", 1, 1)
    seats, count = len(sheet.players), len(sheet.games)
    token = web.scorer_token(Scope(slug, "club", 0, 1, 1))
    games = [
        {
            "points": [30 + g] + [-10] * (seats - 2) + [-10 - g],
            "penalties": [0] * seats,
            "winner": 1,
        }
        for g in range(count)
    ]
    headers = {"X-CSRF-Token": web.csrf_token(CSRF)}
    client.cookies.clear()
    client.cookies.set(CSRF_COOKIE, CSRF)
    assert (
        client.post(f"/score/{token}", json={"games": games}, headers=headers).json()["counted"]
        is True
    )
    before = usecases.audit_log(store, slug)
    games[0]["points"] = [33] + [-11] * (seats - 1)
    sign_in(client, web, p["bo"])
    r = client.post(f"/score/{token}", json={"games": games, "why": "takeover"}, headers=headers)
    # refused: the sheet is as it was; what was typed is kept for the director (a
    # refused save, shown as a conflict on the round page), nothing else is written
    after = usecases.audit_log(store, slug)
    assert r.status_code == 403 and after[: len(before)] == before
    assert [x["action"] for x in after[len(before) :]] == ["enter_sheet_conflict"]
    counted = usecases.get_sheet(store, slug, "club", 1, 1)[0].counted
    assert counted is not None and counted[0].points[0] == 30
    assert r.json()["theirs"][0]["points"][0] == 30
    sign_in(client, web, p["ann"])
    r = client.post(f"/score/{token}", json={"games": games, "why": "misread"}, headers=headers)
    assert r.status_code == 200 and usecases.audit_log(store, slug)[-1]["who"] == "ann"


def test_every_tournament_route_checks_its_directors(site: Any) -> None:
    """Each director route with ``{slug}`` depends on the one ownership check."""
    client, _web, _p = site

    def routes(rs: Any) -> Iterator[APIRoute]:
        for r in rs:
            if isinstance(r, _IncludedRouter):
                yield from routes(r.original_router.routes)
            elif isinstance(r, APIRoute):
                yield r

    def calls(dep: Any) -> Iterator[Any]:
        for d in dep.dependencies:
            yield d.call
            yield from calls(d)

    found = [r for r in routes(client.app.routes) if r.path.startswith("/director/t/{slug}")]
    assert len(found) > 20
    for r in found:
        assert require_tournament_director in set(calls(r.dependant)), r.path


@pytest.mark.parametrize("kind", BACKENDS)
def test_directors_are_in_the_backup(site: Any, tmp_path: Path, kind: str) -> None:
    """Dump → restore (SQLite and PostgreSQL) → dump is identical, with the directors."""
    client, web, p = site
    slug = create(client, web, p["ann"], "Backed up")
    post(client, web, f"/director/t/{slug}/directors", name="bo")
    first = dumps(web.store())
    rows = json.loads(first)["tables"]["tournament_director"]["rows"]
    assert len(rows) == 2
    with database(kind, tmp_path) as url:
        other = Store(make_engine(url))
        try:
            restore(other, json.loads(first))
            assert dumps(other) == first
            assert owners.directors(other, slug) == ["ann", "bo"]
            assert owners.may_direct(other, slug, p["bo"].id)
            assert not owners.may_direct(other, slug, p["cy"].id)
            assert owners.may_direct(other, slug, p["admin"].id)
        finally:
            other.close()


def test_an_old_database_upgraded_keeps_its_tournaments_for_the_administrator(
    tmp_path: Path,
) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'old.db'}")
    upgrade(engine, "0005")
    store = Store(engine)
    try:
        from meldtour.store.models import Account as AccountRow

        with store.transaction() as s:
            # (a Core insert: the ORM would read back columns of later migrations)
            for name in ("first", "second"):
                s.execute(
                    insert(AccountRow.__table__).values(
                        name=name, password_hash="x", role="director", created_at="2026"
                    )
                )
            old_tournament(
                s,
                slug="before",
                name="Before",
                date="",
                venue="",
                seed=1,
                template="scratch",
                created_at="2026",
                updated_at="2026",
            )
        upgrade(engine)
        with store.transaction() as s:
            first, second = s.scalars(select(AccountRow.id).order_by(AccountRow.id)).all()
        assert owners.directors(store, "before") == []
        assert owners.may_direct(store, "before", first)
        assert not owners.may_direct(store, "before", second)
        assert [x[0] for x in owners.tournaments_of(store, first)] == ["before"]
        assert owners.tournaments_of(store, second) == []
    finally:
        store.close()
