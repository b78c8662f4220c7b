"""Seat links of a round played online are not in the database: each seat's token is
derived from the app's secret when the director's page shows it, and only its hash is
stored — a copy of the database (a backup, a leaked dump) lets nobody act for a seat.
The director's links seat their own player; a wrong token, another seat's or the
stored hash itself is refused. Migration 0007 turns the plain tokens stored before into
their hashes: those links keep working, and the page says it cannot show them again."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import inspect, select, text
from sqlalchemy.engine import Engine

from meldtour.live import LiveServer
from meldtour.live.log import StoreLog
from meldtour.live.online import OnlineRounds, seat_key, seat_tokens
from meldtour.store import online
from meldtour.store.backup import dumps
from meldtour.store.db import Store, make_engine, upgrade
from tests.old_schema import old_tournament
from tests.store.backends import BACKENDS, database

from .test_director import csrf, make_client, sign_up, web
from .test_online_round import seated

#: A seat on the director's page: the player's name and number, then the seat link.
SEAT = re.compile(
    r'<li>([^<]*?) <small>#(\d+)</small>\s*· <a class="seatlink" '
    r'href="/online/seat/([^/"]+)/([^"]+)">'
)


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path) as c:
        sign_up(c)
        yield c


def rounds_of(client: TestClient) -> OnlineRounds:
    live: LiveServer = client.app.state.live  # type: ignore[attr-defined]
    assert live.online is not None
    return live.online


def start_official_round(client: TestClient) -> tuple[str, str]:
    """An official tournament's round 1 started online; (its division, the page)."""
    key = seated(web(client).store(), "japan-championship", "japan")
    page = f"/director/t/japan/d/{key}/online?lang=en"
    r = client.post(f"/director/t/japan/d/{key}/online/start", data={"csrf": csrf(client, page)})
    assert "played online" in r.text, r.text
    return key, page


def database_text(engine: Engine) -> str:
    """Every row of every table of the database, as text."""
    out = []
    with engine.connect() as conn:
        for name in inspect(engine).get_table_names():
            for row in conn.execute(text(f'SELECT * FROM "{name}"')):
                out.append(f"{name}: {row!r}")
    return "\n".join(out)


def test_no_seat_token_is_stored_and_each_link_seats_its_player(
    client: TestClient, tmp_path: Path
) -> None:
    store = web(client).store()
    key, page = start_official_round(client)
    html = client.get(page).text
    seats = SEAT.findall(html)
    assert len(seats) == 8, html  # two tables of four, every seat a person's
    tokens = [token for _name, _player, _gid, token in seats]
    assert len(set(tokens)) == 8 and all(len(t) >= 24 for t in tokens)

    # Nowhere in the database: not in any row, not in the backup, not in the file.
    rows = database_text(store.engine)
    backup = dumps(store)
    raw = b"".join(p.read_bytes() for p in tmp_path.glob("meldtour.db*"))
    assert "online_game" in rows and raw
    for token in tokens:
        assert token not in rows and token not in backup
        assert token.encode() not in raw
    # What is stored is each token's hash.
    tid = online.tournament_of(store, "japan")[0]
    games = online.round_games(store, tid, key, 0, 1)
    assert sorted(s["key"] for g in games for s in g.seats) == sorted(seat_key(t) for t in tokens)
    assert all(set(s) == {"player", "name", "computer", "key"} for g in games for s in g.seats)

    # Each link seats the player named next to it, at their seat of their table's game.
    live: LiveServer = client.app.state.live  # type: ignore[attr-defined]
    for name, player, gid, token in seats:
        sat = client.get(f"/online/seat/{gid}/{token}", follow_redirects=False)
        assert sat.status_code == 303 and sat.headers["location"] == f"/play/t/{gid}"
        assert token in sat.headers["set-cookie"]
        g = online.get_game(store, gid)
        assert g is not None and g.game == 1
        seat = live.games[gid].seat_of(token)
        assert seat is not None
        assert g.seats[seat]["player"] == int(player) and g.seats[seat]["name"] == name


def test_a_wrong_or_another_seats_token_is_refused(client: TestClient) -> None:
    store = web(client).store()
    _key, page = start_official_round(client)
    seats = SEAT.findall(client.get(page).text)
    by_game: dict[str, list[str]] = {}
    for _name, _player, gid, token in seats:
        by_game.setdefault(gid, []).append(token)
    (first, mine), (second, theirs) = by_game.items()
    rounds = rounds_of(client)
    assert rounds.seat_game(first, mine[0]) == first
    refused = [
        "nope",
        mine[0][:-1] + ("A" if mine[0][-1] != "A" else "B"),  # one character off
        theirs[0],  # a seat of another table
        seat_key(mine[0]),  # the stored hash, as a leaked copy of the database shows it
        seat_tokens("another secret, another site")(first, int(seats[0][1])),
    ]
    for token in refused:
        assert (
            client.get(f"/online/seat/{first}/{token}", follow_redirects=False).status_code == 404
        ), token
        assert rounds.seat_game(first, token) is None
    assert client.get(f"/online/seat/nogame/{mine[0]}").status_code == 404
    # A link is its table's: another table's game id does not take this table's token.
    assert rounds.seat_game(second, mine[0]) is None
    assert online.table_games(store, first)[0].game_id == first


def test_links_derived_under_another_secret_are_not_shown_but_keep_working(
    client: TestClient,
) -> None:
    _key, page = start_official_round(client)
    seats = SEAT.findall(client.get(page).text)
    rounds = rounds_of(client)
    before = rounds.seat_token
    # The secret changed (or the links were given out before they were derived): the
    # page cannot show them again, and says so; the links given out still seat.
    rounds.seat_token = seat_tokens("a new secret for this site, 32 chars+")
    try:
        html = client.get(page).text
        assert 'class="seatlink"' not in html
        assert html.count("The seat link was given out before and cannot be shown again.") == 8
        assert (
            "이 자리 링크는 이미 전달되었으며"
            in client.get(page.replace("lang=en", "lang=ko")).text
        )
        assert (
            "この席のリンクは以前に渡された" in client.get(page.replace("lang=en", "lang=ja")).text
        )
        for _name, _player, gid, token in seats:
            assert (
                client.get(f"/online/seat/{gid}/{token}", follow_redirects=False).status_code == 303
            )
    finally:
        rounds.seat_token = before
    assert len(SEAT.findall(client.get(page).text)) == 8


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with database(request.param, tmp_path) as url:
        yield url


def test_migration_0007_turns_plain_tokens_into_their_hashes(db_url: str) -> None:
    engine = make_engine(db_url)
    upgrade(engine, "0006")
    store = Store(engine)
    try:
        with store.transaction() as s:
            tid = old_tournament(
                s,
                slug="before",
                name="Before",
                date="",
                venue="",
                seed=1,
                template="club-night",
                created_at="2026",
                updated_at="2026",
            )
            for n, gid in ((1, "firstgame"), (2, "nextgame")):
                s.add(
                    online.OnlineGameRow(
                        game_id=gid,
                        tournament_id=tid,
                        division="general",
                        stage=0,
                        round=1,
                        table_number=1,
                        game=n,
                        games=2,
                        filled=n == 1,
                        created_at=float(n),
                        seats=[
                            {
                                "player": 1,
                                "name": "Ann",
                                "computer": None,
                                "token": "ann-plain-token-from-0006",
                            },
                            {"player": 2, "name": "Bo", "computer": "greedy", "token": None},
                        ],
                    )
                )
        upgrade(engine)
        for gid in ("firstgame", "nextgame"):
            g = online.get_game(store, gid)
            assert g is not None
            assert g.seats == [
                {
                    "player": 1,
                    "name": "Ann",
                    "computer": None,
                    "key": hashlib.sha256(b"ann-plain-token-from-0006").hexdigest(),
                },
                {"player": 2, "name": "Bo", "computer": "greedy", "key": None},
            ]
        with engine.connect() as conn:
            stored = str(conn.execute(select(online.OnlineGameRow.seats)).all())
        assert "ann-plain-token-from-0006" not in stored
        # The old link still leads to the table's current game; it cannot be shown again.
        rounds = LiveServer(StoreLog(store)).online
        assert rounds is not None
        assert rounds.seat_game("firstgame", "ann-plain-token-from-0006") == "nextgame"
        assert rounds.seat_game("firstgame", "another-token") is None
        first = online.get_game(store, "firstgame")
        assert first is not None and rounds.seat_links(first) == [None, None]
    finally:
        store.close()
