"""PostgreSQL: the live log's usual batch sent from the event loop
(:mod:`meldtour.store.passing_pg`) is all or nothing — a move behind the game's counter
(another process wrote it) or a game not in the log refuses the whole batch, one
statement that checks itself, and leaves every game as it was; the heartbeat's batch
is a transaction of its own; the connection comes back after the server closed it."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from sqlalchemy import text

from meldtour.store import games
from meldtour.store.db import Store
from meldtour.store.passing_pg import AsyncPassing, Refused

from .backends import database, upgraded
from .test_games import HEADER

DRAW = {"seat": 0, "action": "draw", "at": 1.0}


def test_a_batch_is_all_or_nothing(tmp_path: Path) -> None:
    with database("postgresql", tmp_path) as url, upgraded(url) as store:
        asyncio.run(_batches(store))


def _conninfo(store: Store) -> str:
    return store.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)


async def _batches(store: Store) -> None:
    for gid in ("p1", "p2"):
        games.start_game(store, gid, HEADER)
    passing = AsyncPassing(_conninfo(store))
    try:
        await passing.write([("append", ("p1", 0, DRAW)), ("draft", ("p2", {"v": 1}))])
        # p1's move 0 again (written elsewhere meanwhile): nothing of the batch stays.
        with pytest.raises(Refused):
            await passing.write([("append", ("p2", 0, DRAW)), ("append", ("p1", 0, DRAW))])
        with pytest.raises(Refused):
            await passing.write([("draft", ("nope", None)), ("draft", ("p2", None))])
        with pytest.raises(Refused):  # out of order within the batch: never sent
            await passing.write([("append", ("p2", 0, DRAW)), ("append", ("p2", 2, DRAW))])
        p1, p2 = games.load_game(store, "p1"), games.load_game(store, "p2")
        assert p1 is not None and p2 is not None
        assert p1.moves == [DRAW] and p2.moves == [] and p2.draft == {"v": 1}
        # With the heartbeat; a refused one takes the heartbeat back too.
        await passing.write([("append", ("p2", 0, DRAW)), ("alive", ("n1", ["p1", "p2"], 7.0))])
        with pytest.raises(Refused):
            await passing.write([("append", ("p2", 0, DRAW)), ("alive", ("n1", ["p1", "p2"], 9.0))])
        p1, p2 = games.load_game(store, "p1"), games.load_game(store, "p2")
        assert p1 is not None and p2 is not None
        assert p2.moves == [DRAW] and p1.alive_at == p2.alive_at == 7.0
        # Each game as its writes in order leave it: a move clears the draft, a
        # later draft stays, drafts alone change no counter.
        games.start_game(store, "p3", HEADER)
        draft = {"version": 1, "seat": 1, "board": [["r1"]], "at": 2.0}
        await passing.write(
            [
                ("draft", ("p1", draft)),
                ("append", ("p1", 1, DRAW)),
                ("append", ("p3", 0, DRAW)),
                ("draft", ("p3", draft)),
                ("draft", ("p2", draft)),
                ("draft", ("p2", None)),
            ]
        )
        p1, p2, p3 = (games.load_game(store, g) for g in ("p1", "p2", "p3"))
        assert p1 is not None and p1.moves == [DRAW, DRAW] and p1.draft is None
        assert p2 is not None and p2.moves == [DRAW] and p2.draft is None
        assert p3 is not None and p3.moves == [DRAW] and p3.draft == draft
        # The server closes the connection: the batch fails, the next one reconnects.
        pid = passing._conn.info.backend_pid  # type: ignore[union-attr]
        with store.engine.begin() as conn:
            conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
        with pytest.raises(Exception):  # noqa: B017 - whichever error the driver says
            await passing.write([("append", ("p2", 1, DRAW))])
        await passing.write([("append", ("p2", 1, DRAW))])
        p2 = games.load_game(store, "p2")
        assert p2 is not None and len(p2.moves) == 2
    finally:
        await passing.close()


def test_a_batch_finds_its_games_by_key_on_a_small_table(tmp_path: Path) -> None:
    """A site's first minutes: the statements are planned while ``live_game`` holds a
    few rows, and a prepared statement keeps that plan. It must reach its games through
    the primary key — a plan that scanned the whole table (a hash join over a
    sequential scan, the planner's choice for a small table) read every page of it for
    every move once the table had grown and bloated (BENCHMARKS.md, "The plan of the
    live log's batch")."""
    with database("postgresql", tmp_path) as url, upgraded(url) as store:
        asyncio.run(_plans(store))


async def _plans(store: Store) -> None:
    ids = [f"s{i}" for i in range(20)]
    for gid in ids:
        games.start_game(store, gid, HEADER)
    with store.engine.begin() as conn:
        conn.execute(text("ANALYZE live_game"))
    passing = AsyncPassing(_conninfo(store))
    try:
        await passing.write([("append", ("s0", 0, DRAW))])  # connected, as in play
        conn = passing._conn
        assert conn is not None
        await conn.execute("SET plan_cache_mode = force_generic_plan")  # the kept plan
        params = games.batch_params([("append", ("s1", 0, DRAW))])
        assert params is not None
        bump, expected, _ = params
        plans = []
        beat = games.batch_params([("alive", ("n1", ids, 5.0))])
        assert beat is not None
        for sql, params in (
            (games.BUMP_AND_ADD_CHECKED_SQL, (*bump, expected)),
            (games.ALIVE_SQL, beat[2][0]),
        ):
            async with conn.transaction():
                cur = await conn.execute("EXPLAIN " + sql, params)
                plans.append("\n".join(str(row[0]) for row in await cur.fetchall()))
        move, alive = plans
        assert "Seq Scan on live_game" not in move, move
        assert "pk_live_game" in move, move
        assert "live_game" not in alive, alive  # the heartbeat is the process's own row
    finally:
        await passing.close()


def test_only_the_batch_of_moves_in_play_commits_without_waiting_for_the_disk(
    tmp_path: Path,
) -> None:
    """The live log's batch (moves in play, drafts, heartbeats) commits as on SQLite,
    without waiting for the disk (RELIABILITY.md, "What a power cut takes back"); the
    store's own connections — a game's start and result, every tournament's write —
    still wait."""
    with database("postgresql", tmp_path) as url, upgraded(url) as store:
        asyncio.run(_sync(store))
        with store.engine.connect() as conn:
            assert conn.execute(text("SHOW synchronous_commit")).scalar() == "on"


async def _sync(store: Store) -> None:
    games.start_game(store, "y1", HEADER)
    passing = AsyncPassing(_conninfo(store))
    try:
        await passing.write([("append", ("y1", 0, DRAW))])
        conn = passing._conn
        assert conn is not None
        cur = await conn.execute("SHOW synchronous_commit")
        assert await cur.fetchone() == ("off",)
        logged = games.load_game(store, "y1")
        assert logged is not None and logged.moves == [DRAW]  # committed all the same
    finally:
        await passing.close()
