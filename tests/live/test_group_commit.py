"""The store log's group commit: writes of several games arriving together are
committed in one transaction, each call returning once its own write is on disk; a
refused write in a batch fails alone, the others are committed."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from meldtour.live.log import LogError, StoreLog
from meldtour.store import games
from meldtour.store.db import Store
from tests.store.backends import BACKENDS, database, upgraded

HEADER = {
    "rules": "standard",
    "players": ["Ann", "Bo"],
    "seed": 7,
    "started_at": 100.0,
    "table": {
        "rules": "standard",
        "seats": [{"kind": "human", "level": None}] * 2,
        "seed": 7,
        "watch_drafts": False,
        "bot_delay": 0.8,
        "names": ["Ann", "Bo"],
        "keys": [None, None],
    },
}


@pytest.mark.parametrize("kind", BACKENDS)
def test_a_refused_write_fails_alone_in_its_batch(kind: str, tmp_path: Path) -> None:
    with database(kind, tmp_path) as url, upgraded(url) as store:
        asyncio.run(_batch(store))


async def _batch(store: Store) -> None:
    log = StoreLog(store)
    await log.start("g1", HEADER)
    await log.save_table("w1", {"config": {}, "names": [None], "keys": [None]})
    results = await asyncio.gather(
        log.append("g1", 0, {"seat": 0, "action": "draw", "at": 101.0}),
        log.save_table("g1", {"config": {}, "names": [], "keys": []}),  # started: refused
        log.start("g2", HEADER),
        log.append("g2", 0, {"seat": 0, "action": "draw", "at": 102.0}),
        log.append("g1", 5, {"seat": 1, "action": "draw"}),  # out of order: refused
        log.alive(["g1", "g2"], 103.0),
        log.put_draft("nope", None),  # no such game: refused
        return_exceptions=True,
    )
    refused = [i for i, r in enumerate(results) if isinstance(r, BaseException)]
    assert refused == [1, 4, 6], results
    assert all(isinstance(results[i], LogError) for i in refused)
    g1, g2 = games.load_game(store, "g1"), games.load_game(store, "g2")
    assert g1 is not None and g2 is not None
    assert [m["at"] for m in g1.moves] == [101.0] and [m["at"] for m in g2.moves] == [102.0]
    # The heartbeat is the process's own row: it lists both games whatever the other
    # writes of the batch did (g2's start on its way, g1's refused writes).
    assert g1.alive_at == g2.alive_at == 103.0
    await log.alive(["g1", "g2"], 104.0)
    g1, g2 = games.load_game(store, "g1"), games.load_game(store, "g2")
    assert g1 is not None and g2 is not None
    assert g1.alive_at == g2.alive_at == 104.0
    # The waiting table w1 is kept; g2's start forgot nothing it should not have.
    assert games.waiting_tables(store) == ["w1"]
    log.close()
