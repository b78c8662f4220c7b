"""The store log's group commit: writes of several games arriving together are
committed in one transaction, each call returning once its own write is on disk; a
refused write in a batch fails alone, the others are committed."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from meldtour.live.log import PG_BATCHES, LogError, StoreLog
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
    assert g2.alive_at == 103.0  # in g2's lane, after its writes
    # On PostgreSQL the heartbeat skips a row another batch holds (g1's, in the usual
    # lane at the same instant): it never waits for a move, whose own time then counts.
    assert g1.alive_at == 103.0 or (store.dialect == "postgresql" and g1.alive_at is None)
    # The waiting table w1 is kept; g2's start forgot nothing it should not have.
    assert games.waiting_tables(store) == ["w1"]
    log.close()


def test_postgresql_commits_two_batches_at_once_each_game_in_order(tmp_path: Path) -> None:
    """On PostgreSQL the usual lane has two batches on their way at once (each on a
    connection of its own); a game's writes made while one of its writes is on its way
    wait for the batch after, so they are committed in the order given."""
    with database("postgresql", tmp_path) as url, upgraded(url) as store:
        asyncio.run(_two_at_once(store))


async def _two_at_once(store: Store) -> None:
    log = StoreLog(store)
    ids = [f"c{i}" for i in range(30)]
    for g in ids:
        await log.start(g, HEADER)

    def move(k: int) -> dict[str, object]:
        return {"seat": k % 2, "action": "draw", "at": 100.0 + k}

    async def play(g: str) -> None:
        for k in range(4):
            await log.append(g, k, move(k))

    try:
        await asyncio.gather(*(play(g) for g in ids))
        # One of c0's writes on its way; meanwhile c1's next move (a second batch, on a
        # second connection, at once) and five more of c0's, made at once (they wait).
        first = asyncio.create_task(log.append("c0", 4, move(4)))
        for _ in range(3):
            await asyncio.sleep(0)
        await asyncio.gather(
            first,
            log.append("c1", 4, move(4)),
            *(log.append("c0", k, move(k)) for k in range(5, 10)),
        )
        assert len(log._passing) == PG_BATCHES  # both connections were in use at once
    finally:
        await log.close_passing()
        log.close()
    for g in ids:
        stored = games.load_game(store, g)
        assert stored is not None
        n = {"c0": 10, "c1": 5}.get(g, 4)
        assert [m["at"] for m in stored.moves] == [100.0 + k for k in range(n)]
