"""A game the server has let go of is freed by reference counting alone, with the
collector off: the server freezes what lives across a heartbeat (``tune_gc``), so
anything a game leaves in a reference cycle stays in memory until the next thaw
(BENCHMARKS.md, "Server": resident memory rising with every game played at 400
games). Found so far: a per-game rate limiter (its storage and its expiry timer), a
cancelled task's traceback, the socket sender's exception, the seat draw's recursive
closure."""

from __future__ import annotations

import asyncio
import gc
import time
import weakref
from collections import Counter
from pathlib import Path

from meldtour.live import LiveServer, ManualClock, SeatConfig, TableConfig
from meldtour.live.log import StoreLog
from meldtour.live.server import KEEP_OVER
from meldtour.store.db import Store
from tests.store.backends import upgraded

from .helpers import until

PLAIN = {
    "builtins.dict",
    "builtins.frozenset",
    "builtins.method",
    "builtins.tuple",
    "builtins.list",
}


def test_a_game_let_go_needs_no_collection(tmp_path: Path) -> None:
    with upgraded(f"sqlite:///{tmp_path / 'cycles.db'}") as store:
        gc.collect()
        gc.disable()
        try:
            games = asyncio.run(_play(store))
            assert [g() for g in games] == [None] * len(games)
            gc.set_debug(gc.DEBUG_SAVEALL)
            gc.collect()
            left = Counter(f"{type(o).__module__}.{type(o).__qualname__}" for o in gc.garbage)
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
            gc.enable()
        # SQLAlchemy's class registry leaves a few cycles once a process (with the
        # plain containers in them); everything else found is the games'.
        ours = {
            kind: n
            for kind, n in left.items()
            if not kind.startswith("sqlalchemy.") and kind not in PLAIN
        }
        assert ours == {}


async def _play(store: Store) -> list[weakref.ref[object]]:
    server = LiveServer(StoreLog(store), clock=ManualClock())
    config = TableConfig.make(
        "standard",
        [SeatConfig("computer", "greedy"), SeatConfig("computer", "expert")],
        seed=5,
        bot_delay=0.0,
        redeal_grace=0.0,
    )
    refs: list[weakref.ref[object]] = []
    try:
        for gid in ("one", "two"):
            game = await server.open_table(config, gid)
            await game.open()
            watcher = await game.subscribe(None)
            await until(lambda g=game: g.over, timeout=60)
            game.unsubscribe(watcher)
            refs.append(weakref.ref(game))
            del game, watcher
        await until(lambda: len(server._ended) == 2)  # results logged, end hooks run
        await server._forget_ended(time.monotonic() + KEEP_OVER + 1)
        assert server.games == {}
    finally:
        await server.close()
    for _ in range(3):
        await asyncio.sleep(0)
    return refs
