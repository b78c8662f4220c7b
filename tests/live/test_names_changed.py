"""A name shown at a table changed outside it (the administrator hid it): every socket
on the game is sent the table again — on the owner's process and on another process
that relays the game through Redis — whichever process the administrator acted on."""

from __future__ import annotations

import asyncio
import uuid

from meldtour.live import LiveServer, SeatConfig, TableConfig
from meldtour.live.cluster import Cluster
from meldtour.live.game import Subscriber
from meldtour.live.log import StoreLog
from meldtour.store.db import Store
from tests.store.backends import upgraded

from .test_cluster import REDIS


def test_an_open_table_is_told_from_either_process(pg_url: str) -> None:
    with upgraded(pg_url) as store:
        asyncio.run(_told(store))


async def _tables(sub: Subscriber) -> int:
    """How many table messages the socket has been sent (and reads them off)."""
    await asyncio.sleep(0.3)  # a relayed message crosses Redis
    n = 0
    while not sub.queue.empty():
        n += sub.queue.get_nowait().get("type") == "table"
    return n


async def _told(store: Store) -> None:
    prefix = f"n{uuid.uuid4().hex[:10]}"
    a = LiveServer(StoreLog(store), cluster=Cluster(REDIS, prefix))
    b = LiveServer(StoreLog(store), cluster=Cluster(REDIS, prefix))
    await a.ensure_recovered()
    await b.ensure_recovered()
    try:
        config = TableConfig.make("standard", [SeatConfig("human"), SeatConfig("human")], seed=1)
        game = await a.open_table(config, f"g{uuid.uuid4().hex[:8]}")
        await game.join(0, "Ann")
        on_a = await game.subscribe(None)
        remote = await b.find(game.id)
        assert remote is not None and remote is not game
        on_b = await remote.subscribe(None)
        await _tables(on_a), await _tables(on_b)  # the snapshots
        # The administrator acts on B (not the owner): both sockets are told.
        assert await b.names_changed([game.id, "not-a-game"]) == 1
        assert await _tables(on_a) == 1 and await _tables(on_b) == 1
        # On A (the owner): the same.
        assert await a.names_changed([game.id]) == 1
        assert await _tables(on_a) == 1 and await _tables(on_b) == 1
    finally:
        await b.close()
        await a.close()
