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


def test_on_sqlite_a_move_with_its_lane_idle_is_written_in_the_call(tmp_path: Path) -> None:
    """No task, future or turn of the loop for a move when nothing is on its way in its
    lane: on disk when ``append`` returns, without ``append`` ever waiting; while a
    batch is on its way, a move waits for its turn behind it, in order."""
    with database("sqlite", tmp_path) as url, upgraded(url) as store:
        asyncio.run(_at_once(store))


async def _at_once(store: Store) -> None:
    log = StoreLog(store)
    await log.start("g1", HEADER)
    await log.append("g1", 0, {"seat": 0, "action": "draw", "at": 101.0})
    written = log.append("g1", 1, {"seat": 1, "action": "draw", "at": 102.0})
    with pytest.raises(StopIteration):  # done in its first step: it never waited
        written.send(None)
    stored = games.load_game(store, "g1")
    assert stored is not None and [m["at"] for m in stored.moves] == [101.0, 102.0]
    # A heartbeat on its way (the writer thread's): the next move follows it.
    beat = asyncio.ensure_future(log.alive(["g1"], 103.0))
    await asyncio.sleep(0)
    assert log._lanes[True].task is not None
    await asyncio.gather(beat, log.append("g1", 2, {"seat": 0, "action": "draw", "at": 104.0}))
    assert log._lanes[True].task is None  # idle again
    stored = games.load_game(store, "g1")
    assert stored is not None and [m["at"] for m in stored.moves] == [101.0, 102.0, 104.0]
    with pytest.raises(LogError):  # refused at once, as in a batch
        await log.append("g1", 9, {"seat": 1, "action": "draw"})
    log.close()
