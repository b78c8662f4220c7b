"""Lobby tables waiting for players are kept in the database: a restart (a new server
on the same database) still offers them, with the seats already taken, and a table's
game, once started, is no longer waiting."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from meldtour.live import LiveServer, ManualClock, SeatConfig, TableConfig, TableError
from meldtour.live.log import StoreLog
from meldtour.store import games
from meldtour.store.db import Store
from tests.store.backends import BACKENDS, database, upgraded

from .helpers import until


@pytest.mark.parametrize("kind", BACKENDS)
def test_a_waiting_table_survives_a_restart(kind: str, tmp_path: Path) -> None:
    with database(kind, tmp_path) as url, upgraded(url) as store:
        asyncio.run(_restart(store))


async def _restart(store: Store) -> None:
    config = TableConfig.make(
        "standard", [SeatConfig("human"), SeatConfig("human"), SeatConfig("computer", "beginner")]
    )
    first = LiveServer(StoreLog(store), clock=ManualClock())
    game = await first.open_table(config, "t1")
    token = await game.join(0, "Ann")
    assert games.waiting_tables(store) == ["t1"]
    await first.close()

    second = LiveServer(StoreLog(store), clock=ManualClock())
    found = await second.find("t1")
    assert found is not None and [g.id for g in second.open_tables()] == ["t1"]
    assert found.seat_of(token) == 0 and found.names[0] == "Ann" and not found.started
    assert found.table_json()["seats"][2]["kind"] == "computer"
    with pytest.raises(TableError, match="taken"):
        await found.join(0, "Eve")
    await found.join(1, "Bo")
    await until(lambda: found.started)
    assert games.waiting_tables(store) == []
    assert games.unfinished_games(store) == ["t1"]
    assert await second.find("nope") is None
    await second.close()
