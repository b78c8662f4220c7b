"""Quick play's matching (issue 29): groups by arrival, by rating once enough wait,
computers after a player's wait; and the queue across a restart and two server
processes sharing PostgreSQL and Redis — nobody seated twice, even when both
processes match the same players at once."""

from __future__ import annotations

import asyncio
import time
import uuid

from meldtour.application import quickplay as queue
from meldtour.application.quickplay import Entry
from meldtour.live import LiveServer
from meldtour.live.cluster import Cluster
from meldtour.live.log import StoreLog
from meldtour.live.quickplay import QuickPlay, pick
from meldtour.store.db import Store
from tests.store.backends import upgraded

from .test_cluster import REDIS

FAMILY = "standard/30"


def entry(i: int, rating: float, joined: float = 0.0, wait: float = 30.0) -> Entry:
    return Entry(f"e{i}", FAMILY, "standard", 30, f"P{i}", None, rating, wait, joined, joined)


def test_pick_by_arrival_then_by_rating_then_computers_after_the_wait() -> None:
    # Fewer than 8: the four who came first, whatever their ratings.
    few = [entry(i, r, float(i)) for i, r in enumerate([1500, 1900, 1100, 1500, 1520])]
    assert [[e.id for e in g] for g in pick(few, 5.0)] == [["e0", "e1", "e2", "e3"]]
    # Eight or more: the first with the three nearest their rating.
    many = [entry(i, r, float(i)) for i, r in enumerate([1500, 1900, 1100, 1510, 1490, 1880])]
    many += [entry(6, 1120, 6.0), entry(7, 1495, 7.0)]
    groups = [[e.id for e in g] for g in pick(many, 8.0)]
    assert groups[0] == ["e0", "e7", "e3", "e4"]
    assert sorted(groups[1]) == ["e1", "e2", "e5", "e6"]
    # Alone before the wait: nobody; after it, seated (computers fill).
    assert pick([entry(0, 1500, 0.0, wait=30)], 29.0) == []
    assert [[e.id for e in g] for g in pick([entry(0, 1500, 0.0, wait=30)], 30.0)] == [["e0"]]


def wait_in(store: Store, ticket: str, name: str, at: float, wait: float = 300) -> None:
    queue.join(
        store,
        ticket,
        family=FAMILY,
        preset="standard",
        turn_seconds=30,
        name=name,
        account_id=None,
        rating=1500,
        wait=wait,
        at=at,
    )


def server(store: Store, prefix: str) -> tuple[LiveServer, QuickPlay]:
    live = LiveServer(StoreLog(store), cluster=Cluster(REDIS, prefix))
    return live, QuickPlay(live, lambda: store, bot_delay=0.0)


def test_the_queue_survives_a_restart_and_two_processes_seat_nobody_twice(
    pg_url: str,
) -> None:
    with upgraded(pg_url) as store:
        asyncio.run(_restart_and_two_processes(store))


async def _restart_and_two_processes(store: Store) -> None:
    prefix = f"q{uuid.uuid4().hex[:10]}"
    a, qa = server(store, prefix)
    await a.ensure_recovered()
    now = time.time()
    for i in range(3):
        wait_in(store, f"t{i}", f"P{i}", now + i * 0.01)
    assert await qa.tick(FAMILY) == []  # three wait: not enough, and not long enough
    await a.close()  # the process stops; the queue is in the database

    a, qa = server(store, prefix)  # ... and starts again, with a second process beside it
    b, qb = server(store, prefix)
    await a.ensure_recovered()
    await b.ensure_recovered()
    try:
        waiting = queue.waiting(store, FAMILY, time.time() - queue.QUIET)
        assert [e.name for e in waiting] == ["P0", "P1", "P2"]
        wait_in(store, "t3", "P3", time.time())
        # Both processes match at once: one offer, each player offered one seat.
        await asyncio.gather(qa.tick(FAMILY), qb.tick(FAMILY))
        await asyncio.gather(qa.tick(FAMILY), qb.tick(FAMILY))
        offers = queue.offers(store, FAMILY)
        assert len(offers) == 1 and len(next(iter(offers.values()))) == 4
        # Each page takes its seat; then both processes tick at once: one table opened.
        for i in range(4):
            assert queue.accept(store, f"t{i}", time.time())
        both = await asyncio.gather(qa.tick(FAMILY), qb.tick(FAMILY))
        seated = [s for found in both for s in found]
        seated += [*await qa.tick(FAMILY), *await qb.tick(FAMILY)]
        assert len(seated) == 1 and sorted(seated[0].people) == ["P0", "P1", "P2", "P3"]
        gid = seated[0].game_id
        looks = [queue.look(store, f"t{i}", time.time()) for i in range(4)]
        assert {e.game_id for e in looks if e} == {gid}
        assert sorted(e.seat for e in looks if e is not None and e.seat is not None) == [0, 1, 2, 3]
        # The table is found from either process (the other's through Redis).
        for live in (a, b):
            game = await live.find(gid)
            assert game is not None and game.started
            for i, e in enumerate(looks):
                assert e is not None and game.seat_of(e.token) == e.seat, i

        # Both processes offer the very same group at the same moment (past the lock),
        # and then both open it: the database's all-or-nothing writes let one through.
        for i in range(4, 8):
            wait_in(store, f"t{i}", f"P{i}", time.time())
        group = queue.waiting(store, FAMILY, time.time() - queue.QUIET)
        assert len(group) == 4
        now = time.time()
        offered = await asyncio.gather(qa._offer(store, group, now), qb._offer(store, group, now))
        assert sum(1 for r in offered if r is not None) == 1
        gid = next(r for r in offered if r is not None)
        for i in range(4, 8):
            assert queue.accept(store, f"t{i}", time.time())
        taken = queue.offers(store, FAMILY)[gid]
        opened = await asyncio.gather(qa._open(store, gid, taken), qb._open(store, gid, taken))
        assert sum(1 for r in opened if r is not None) == 1
        assert await a.find(gid) is not None and await b.find(gid) is not None
    finally:
        await a.close()
        await b.close()
