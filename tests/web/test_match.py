"""A table's match (issues 28 and 29): a table plays 1, 2 or 4 games; each rematch is
the match's next game with the total going on, and after the last one a new match
starts; the standing is the tournament's rule (wins, then points). The match's games
are named in the table's set-up and their results read from the log, so the total
survives a restart (a new server on the same database), on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from meldtour.core.state import Deal
from meldtour.core.tiles import full_set, parse_tiles
from meldtour.live import LiveServer, ManualClock, SeatConfig, TableConfig
from meldtour.live.game import LiveGame
from meldtour.live.log import StoreLog
from meldtour.store.db import Store
from meldtour.web.match import match_json
from tests.live.helpers import drain, next_of, until
from tests.store.backends import BACKENDS, database, upgraded

#: Seat 0 holds two runs of seven: it goes out on its first turn, every game.
OUT = ["k1", "k2", "k3", "k4", "k5", "k6", "k7", "r1", "r2", "r3", "r4", "r5", "r6", "r7"]
OTHER = ["b1", "b3", "b5", "b7", "b9", "b11", "b13", "o2", "o4", "o6", "o8", "o10", "o12", "k13"]


def config(games: int) -> TableConfig:
    racks = (parse_tiles(OUT), parse_tiles(OTHER))
    rest = list(full_set())
    for t in racks[0] + racks[1]:
        rest.remove(t)
    return TableConfig.make(
        "krc-2015",
        [SeatConfig("human"), SeatConfig("computer", "greedy")],
        deal=Deal(racks, tuple(rest), 0),
        match_games=games,
    )


async def go_out(game: LiveGame) -> None:
    """Seat 0 (seated) lays its whole rack: the game is over."""
    sub = await game.subscribe(0)
    drain(sub)
    board = [OUT[:7], OUT[7:]]
    await game.receive(
        sub,
        {"type": "move", "id": "out", "version": game.version, "action": "play", "board": board},
    )
    await next_of(sub, "ack")
    await until(lambda: game.over)
    game.unsubscribe(sub)


async def next_game(live: LiveServer, game: LiveGame) -> LiveGame:
    new = await live.rematch(game)
    await new.join(0, "Ann")
    await until(lambda: new.started)
    return new


def test_a_match_config_is_kept_as_json_and_refuses_other_lengths() -> None:
    four = config(4)
    again = TableConfig.from_json(four.to_json())
    assert again.match_games == 4 and again.match_before == ()
    assert "match" not in config(1).to_json()  # a single game's set-up as before
    with pytest.raises(ValueError, match="1, 2 or 4"):
        config(3)


@pytest.mark.parametrize("kind", BACKENDS)
def test_a_matchs_total_survives_a_restart(kind: str, tmp_path: Path) -> None:
    with database(kind, tmp_path) as url, upgraded(url) as store:
        asyncio.run(_restart(store))


async def _restart(store: Store) -> None:
    first = LiveServer(StoreLog(store), clock=ManualClock())
    game = await first.open_table(config(4), "m1")
    await game.join(0, "Ann")
    await go_out(game)
    one = await match_json(first, game)
    assert one is not None and one["no"] == 1 and one["played"] == 1 and not one["over"]
    assert [(x["seat"], x["games"], x["wins"], x["rank"]) for x in one["lines"]] == [
        (0, [100], 1, 1),
        (1, [-100], 0, 2),
    ]
    second = await next_game(first, game)
    assert second.config.match_before == ("m1",)
    await go_out(second)
    third = await next_game(first, second)
    assert third.config.match_before == ("m1", second.id)
    await first.close()

    # A new server on the same database: the third game resumes, its match with it.
    again = LiveServer(StoreLog(store), clock=ManualClock())
    found = await again.find(third.id)
    assert isinstance(found, LiveGame) and found.started and not found.over
    assert found.config.match_games == 4 and found.config.match_before == ("m1", second.id)
    now = await match_json(again, found)
    assert now is not None and now["no"] == 3 and now["played"] == 2
    assert [x["points"] for x in now["lines"]] == [200, -200]
    await go_out(found)
    fourth = await next_game(again, found)
    await go_out(fourth)
    final = await match_json(again, fourth)
    assert final is not None and final["over"] and final["played"] == 4
    assert [(x["wins"], x["points"], x["rank"]) for x in final["lines"]] == [
        (4, 400, 1),
        (0, -400, 2),
    ]
    # After the match's last game, the table's next game starts a new match.
    fifth = await again.rematch(fourth)
    assert fifth.config.match_before == () and fifth.config.match_games == 4
    await again.close()


def test_the_creator_who_gives_a_name_sits_at_once(client: TestClient) -> None:
    live: LiveServer = client.app.state.live  # type: ignore[attr-defined]
    form = {"preset": "krc-2015", "seat_count": "2", "seat0": "human", "seat1": "human"}
    made = client.post(
        "/play/tables", data={**form, "name": "Ann", "match_games": "2"}, follow_redirects=False
    )
    assert made.status_code == 303
    gid = made.headers["location"].rsplit("/", 1)[1]
    game = live.get(gid)
    assert game is not None and game.names[0] == "Ann" and game.config.match_games == 2
    assert game.seat_of(client.cookies.get(f"meldtour_seat_{gid}")) == 0
    assert game.config.free_seats(game.keys) == [1]
    # A name with a right-to-left mark: the table is made, the seat stays free, and why.
    bad = client.post("/play/tables", data={**form, "name": "A\u202en"}, follow_redirects=False)
    assert bad.status_code == 303 and bad.headers["location"].endswith("?error=invisible")
    other = live.get(bad.headers["location"].split("/")[-1].split("?")[0])
    assert other is not None and other.names[0] is None
    # Without a name, as before: the seats are chosen at the table.
    plain = client.post("/play/tables", data=form, follow_redirects=False)
    alone = live.get(plain.headers["location"].rsplit("/", 1)[1])
    assert alone is not None and alone.names == [None, None]
    # A match is 1, 2 or 4 games.
    assert client.post("/play/tables", data={**form, "match_games": "3"}).status_code == 400
