"""Arenas without a browser: only a director opens one, bad input is refused and
changes nothing, the lobby lists it, a guest joins, waits, leaves and joins again as
the same player, and joining is refused once the arena's time is up."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from meldtour.application import arena as arenas
from meldtour.web.app import create_app
from meldtour.web.config import Settings
from meldtour.web.director import accounts

from .test_players_online import Other, csrf_of

PASSWORD = "a long secret 1"


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(Settings(env="test", database_url=f"sqlite:///{tmp_path / 'm.db'}"))
    accounts.create(app.state.director.store(), "boss", PASSWORD)
    with TestClient(app) as c:
        yield c


def store_of(client: TestClient) -> Any:
    return client.app.state.director.store()  # type: ignore[attr-defined]


def sign_in(client: Any) -> None:
    page = client.get("/director/login")
    r = client.post(
        "/director/login",
        data={"csrf": csrf_of(page.text), "name": "boss", "password": PASSWORD},
        follow_redirects=False,
    )
    assert r.status_code == 303, r.text[:300]


def open_form(client: Any, **fields: str) -> Any:
    page = client.get("/play/arenas/new?lang=en")
    data = {"csrf": csrf_of(page.text), "name": "Friday", "preset": "standard"}
    return client.post("/play/arenas", data={**data, **fields}, follow_redirects=False)


def test_only_a_director_opens_an_arena_and_bad_input_changes_nothing(
    client: TestClient,
) -> None:
    store = store_of(client)
    r = client.get("/play/arenas/new", follow_redirects=False)
    assert r.status_code == 303 and "/director/login" in r.headers["location"]
    page = client.get("/play/quick?lang=en")
    refused = client.post(
        "/play/arenas", data={"csrf": csrf_of(page.text), "name": "X"}, follow_redirects=False
    )
    assert refused.status_code == 403
    sign_in(client)
    for fields, said in (
        ({"minutes": "soon"}, "numbers"),
        ({"minutes": "0.1"}, "an arena lasts 1 to 480 minutes"),
        ({"minutes": "100000"}, "an arena lasts"),
        ({"name": "   "}, ""),
        ({"name": "a\u202eb"}, ""),
        ({"turn_seconds": "2"}, "5 to 600 seconds"),
        ({"starts_in": "999999"}, "within a week"),
    ):
        r = open_form(client, **fields)
        assert r.status_code == 303 and r.headers["location"] == "/play/arenas/new", fields
        if said:
            assert said in client.get("/play/arenas/new?lang=en").text, fields
    assert open_form(client, preset="nope").status_code == 400
    assert arenas.listed(store, time.time()) == []
    made = open_form(client, minutes="30", turn_seconds="45")
    where = made.headers["location"]
    assert re.fullmatch(r"/play/arena/[\w-]+", where), where
    (arena,) = arenas.listed(store, time.time())
    assert arena.turn_seconds == 45 and 1799 < arena.ends_at - arena.starts_at < 1801
    assert arena.opened_by == "boss"
    assert "Friday" in client.get("/play?lang=en").text


def test_a_guest_joins_waits_leaves_and_is_the_same_player_again(client: TestClient) -> None:
    store = store_of(client)
    sign_in(client)
    where = open_form(client, minutes="30").headers["location"]
    aid = where.rsplit("/", 1)[1]
    guest = Other(client)
    page = guest.get(f"{where}?lang=en")
    assert page.status_code == 200 and 'id="arena-play"' in page.text
    assert guest.get("/play/arena/nope?lang=en").status_code == 404
    nameless = guest.post(
        f"{where}/join", data={"csrf": csrf_of(page.text), "name": " "}, follow_redirects=False
    )
    assert nameless.status_code == 303
    assert arenas.board(store, aid, time.time()).lines == []
    joined = guest.post(
        f"{where}/join", data={"csrf": csrf_of(page.text), "name": "Ann"}, follow_redirects=False
    )
    assert joined.status_code == 303
    state = guest.get(f"{where}/state").json()
    assert state == {"state": "waiting", "waiting": 1, "found": False}
    page = guest.get(f"{where}?lang=en")
    assert 'id="arena-status"' in page.text and 'id="arena-play"' not in page.text
    guest.post(f"{where}/leave", data={"csrf": csrf_of(page.text)})
    assert guest.get(f"{where}/state").json() == {"state": "gone"}
    page = guest.get(f"{where}?lang=en")
    assert "Next game" in page.text  # the same player: their line is kept
    guest.post(f"{where}/join", data={"csrf": csrf_of(page.text), "name": "Ann"})
    board = arenas.board(store, aid, time.time())
    assert [x.name for x in board.lines] == ["Ann"]
    # The leaderboard alone, as the page asks for it.
    assert "Ann" in guest.get(f"{where}/board?lang=en").text
    # Time is up: joining is refused, the wait ends.
    with store.transaction() as s:
        from meldtour.store import arena as rows

        s.execute(
            rows.ArenaRow.__table__.update()
            .where(rows.ArenaRow.__table__.c.id == aid)
            .values(ends_at=time.time() - 1)
        )
    assert guest.get(f"{where}/state").json() == {"state": "over"}
    late = Other(client)
    page = late.get(f"{where}?lang=en")
    assert 'id="arena-play"' not in page.text and 'id="winner"' in page.text
    token = csrf_of(late.get("/play/quick?lang=en").text)
    r = late.post(f"{where}/join?lang=en", data={"csrf": token, "name": "Bo"})
    assert "arena is not open now" in r.text
    assert [x.name for x in arenas.board(store, aid, time.time()).lines] == ["Ann"]
