"""A tournament round played online, end to end through the director's pages: at a
club night the director starts round 1 online with computer players standing in for
every player; each table's games are played to the end on the server, each finished
game fills its game of the table's sheet by itself, the last one counts the sheet, and
the standings are those of the games' scores. In an official tournament computer
players are refused; every seat is the player's own, reached by a seat link."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from meldtour import application as usecases
from meldtour.live import LiveServer
from meldtour.store import games as game_log
from meldtour.store import online
from meldtour.store.db import Store

from .test_director import csrf, make_client, sign_up, web

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path) as c:
        sign_up(c)
        live: LiveServer = c.app.state.live  # type: ignore[attr-defined]
        assert live.online is not None
        live.online.bot_delay = 0.0
        yield c


def seated(store: Store, template: str, slug: str) -> str:
    usecases.create_tournament(store, template, who="boss", slug=slug, seed=3)
    usecases.register_players(store, slug, [usecases.PlayerEntry(n) for n in NAMES], who="boss")
    usecases.check_in_players(store, slug, [], everyone_but=True, who="boss")
    outcome = usecases.seat(store, slug, None, 1, who="boss")
    return outcome.tournament.divisions[0].key


def test_a_club_night_round_played_online_fills_its_sheets(client: TestClient) -> None:
    store = web(client).store()
    key = seated(store, "club-night", "club")
    page = f"/director/t/club/d/{key}/online?lang=en"
    # The round page leads there.
    assert page.split("?")[0] in client.get(f"/director/t/club/d/{key}/round?lang=en").text
    assert "Start the round online" in client.get(page).text
    form = {
        "csrf": csrf(client, page),
        "level": "beginner",
        "computer": [str(n) for n in range(1, len(NAMES) + 1)],
    }
    r = client.post(f"/director/t/club/d/{key}/online/start", data=form)
    assert r.status_code == 200 and "played online" in r.text, r.text
    tid = online.tournament_of(store, "club")[0]
    first = online.round_games(store, tid, key, 0, 1)
    assert [g.table for g in first] == [1, 2] and all(g.games == 2 for g in first)
    assert all(s["computer"] == "beginner" and s["key"] is None for g in first for s in g.seats)

    # Both tables play their two games to the end, by themselves.
    deadline = time.monotonic() + 240
    while True:
        games = online.round_games(store, tid, key, 0, 1)
        if len(games) == 4 and all(g.filled for g in games):
            break
        assert time.monotonic() < deadline, games
        time.sleep(0.25)

    t = usecases.read(store, "club")
    rnd = t.division(key).stages[0].rounds[0]
    expected: dict[int, int] = {}
    for g in games:
        logged = game_log.load_game(store, g.game_id)
        assert logged is not None and logged.result is not None
        table = rnd.tables[g.table - 1]
        assert table.counted, table.sheet
        line = table.sheet.counted[g.game - 1]  # type: ignore[index]
        assert list(line.points) == logged.result["scores"]
        assert line.winner == logged.result["winner"] + 1
        assert [s["player"] for s in g.seats] == list(table.players)
        for seat, player in enumerate(table.players):
            expected[player] = expected.get(player, 0) + line.totals()[seat]
    _t, _key, standings = usecases.standings(store, "club", key)
    assert {s.player: s.points for s in standings} == expected
    assert sum(s.games for s in standings) == 2 * len(NAMES)
    text = client.get(page).text
    assert text.count('data-status="filled"') == 4
    # Nothing is left to start: the form is gone.
    assert "Start the round online" not in text


def test_an_official_tournament_refuses_computer_players(client: TestClient) -> None:
    store = web(client).store()
    key = seated(store, "japan-championship", "japan")
    page = f"/director/t/japan/d/{key}/online?lang=en"
    text = client.get(page).text
    assert "every seat is played by its player" in text
    r = client.post(
        f"/director/t/japan/d/{key}/online/start",
        data={"csrf": csrf(client, page), "level": "greedy", "computer": ["1"]},
    )
    assert "never in an official tournament" in r.text
    tid = online.tournament_of(store, "japan")[0]
    assert online.round_games(store, tid, key, 0, 1) == []

    # Without computer players the round starts: every seat is its player's, by link.
    r = client.post(f"/director/t/japan/d/{key}/online/start", data={"csrf": csrf(client, page)})
    assert "played online" in r.text
    games = online.round_games(store, tid, key, 0, 1)
    assert len(games) == 2 and all(s["key"] and not s["computer"] for g in games for s in g.seats)
    g = games[0]
    seat = g.seats[2]
    live: LiveServer = client.app.state.live  # type: ignore[attr-defined]
    assert live.online is not None
    token = live.online.seat_token(g.game_id, seat["player"])  # derived, never stored
    link = f"/online/seat/{g.game_id}/{token}"
    assert link in r.text
    sat = client.get(link, follow_redirects=False)
    assert sat.status_code == 303 and sat.headers["location"] == f"/play/t/{g.game_id}"
    assert client.get(f"/online/seat/{g.game_id}/nope").status_code == 404
    game = live.games[g.game_id]
    assert game.seat_of(token) == 2 and game.started  # the clocks run
    assert game.names == [s["name"] for s in g.seats]
    again = client.post(
        f"/director/t/japan/d/{key}/online/start", data={"csrf": csrf(client, page)}
    )
    assert "already played online" in again.text


@pytest.mark.parametrize("env", ["production", "development"])
def test_the_seat_cookie_is_secure_in_production(tmp_path: Path, env: str) -> None:
    """Issue 26, finding 8: the online round's seat cookie, like the lobby's, is sent
    only over HTTPS outside development (and still over http:// on a venue laptop run
    in development)."""
    import secrets

    from meldtour.web.config import Settings

    settings = Settings(env=env, secret_key=secrets.token_urlsafe(40))
    with make_client(tmp_path, settings) as c:
        sign_up(c)
        store = web(c).store()
        key = seated(store, "japan-championship", "japan")
        page = f"/director/t/japan/d/{key}/online?lang=en"
        c.post(f"/director/t/japan/d/{key}/online/start", data={"csrf": csrf(c, page)})
        tid = online.tournament_of(store, "japan")[0]
        g = online.round_games(store, tid, key, 0, 1)[0]
        live: LiveServer = c.app.state.live  # type: ignore[attr-defined]
        assert live.online is not None
        token = live.online.seat_token(g.game_id, g.seats[0]["player"])
        sat = c.get(f"/online/seat/{g.game_id}/{token}", follow_redirects=False)
        assert sat.status_code == 303
        cookie = sat.headers["set-cookie"]
        assert "HttpOnly" in cookie and "Path=/play" in cookie
        assert ("Secure" in cookie) == (env == "production"), cookie
