"""A live game handle: this process's game and a handle on another process's game
both implement :class:`meldtour.live.GameHandle`, what the pages and sockets use."""

from __future__ import annotations

import asyncio

from meldtour.live import GameHandle, LiveServer, ManualClock, MemoryLog, SeatConfig, TableConfig
from meldtour.live.server import RemoteGame

from .helpers import known_deal


def test_the_local_and_the_remote_game_are_handles() -> None:
    async def main() -> None:
        server = LiveServer(MemoryLog(), ManualClock())
        config = TableConfig.make(
            "standard", [SeatConfig("human"), SeatConfig("human")], deal=known_deal()
        )
        local = await server.open_table(config)
        assert isinstance(local, GameHandle)
        found = await server.find(local.id)
        assert found is local
        info = {
            "table": local.table_json(),
            "config": local.config.to_json(),
            "names": list(local.names),
            "keys": list(local.keys),
            "started": local.started,
            "over": local.over,
        }
        remote = RemoteGame(server, local.id, "another-node", info)
        assert isinstance(remote, GameHandle)
        assert remote.table_json() == local.table_json() and remote.config == local.config
        assert (remote.id, remote.started, remote.over) == (local.id, False, False)
        await server.close()

    asyncio.run(main())
