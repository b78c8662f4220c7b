"""A game over leaves the server's memory: the log keeps its score and replay, and a
server up for days holds only the games in play (the soak of RELIABILITY.md found
memory growing by every game ever played, and the garbage collector's pauses with it).
Watchers of a game over are told it is closing, and the game is not rebuilt from the
log when asked for again (its page shows the score)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from meldtour.live import LiveServer, ManualClock, SeatConfig, TableConfig
from meldtour.live.log import StoreLog
from meldtour.live.server import KEEP_OVER, KEEP_WATCHED
from meldtour.store.db import Store
from tests.store.backends import upgraded

from .helpers import next_of, until


def test_games_over_leave_memory_and_are_not_rebuilt(tmp_path: Path) -> None:
    with upgraded(f"sqlite:///{tmp_path / 'forget.db'}") as store:
        asyncio.run(_games(store))


async def _games(store: Store) -> None:
    server = LiveServer(StoreLog(store), clock=ManualClock())
    config = TableConfig.make(
        "standard",
        [SeatConfig("computer", "greedy"), SeatConfig("computer", "greedy")],
        seed=3,
        bot_delay=0.0,
        redeal_grace=0.0,
    )
    watched = await server.open_table(config, "watched")
    alone = await server.open_table(config, "alone")
    try:
        await watched.open()
        await alone.open()
        watcher = await watched.subscribe(None)
        await until(lambda: watched.over and alone.over, timeout=60)
        await until(lambda: len(server._ended) == 2)  # results logged, end hooks run
        now = time.monotonic()
        await server._forget_ended(now)  # just over: both kept (their last frames)
        assert set(server.games) == {"watched", "alone"}
        await server._forget_ended(now + KEEP_OVER + 1)
        assert set(server.games) == {"watched"}  # nobody watches "alone": let go
        await server._forget_ended(now + KEEP_WATCHED + 1)
        assert server.games == {}
        closing = await next_of(watcher, "closing")
        assert closing["reason"] == "over" and watcher not in watched.subscribers
        for gid in ("watched", "alone"):
            assert await server.find(gid) is None  # not rebuilt from the log
            logged = await server.log.load(gid)
            assert logged is not None and logged.result is not None  # the score is kept
        assert server.games == {}
    finally:
        await server.close()
