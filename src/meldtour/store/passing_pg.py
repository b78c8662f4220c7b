"""PostgreSQL: the live log's usual batch written from the event loop itself.

A batch of moves in play, drafts and heartbeats (:data:`~.games.BATCHED_WRITES`:
nearly every batch the live games make, hundreds a second) is one statement for the
moves and drafts (every game's counter and draft updated and every move inserted,
arrays unnested: :func:`~.games.batch_params`), sent on a connection of psycopg's for
asynchronous use in autocommit: the statement is its own transaction, one round trip
to the server; it checks itself (:data:`~.games.BUMP_AND_ADD_CHECKED_SQL`), so a
refused batch leaves nothing. A batch with the heartbeat (once a second) is a
transaction of two statements. (psycopg's pipeline mode, which would send a
transaction's begin, statements and commit at once, was tried first: it polls the
socket while it waits for the answer — a sixth of py-spy's samples of the interpreter
at 1,000 games — and it needs two round trips all the same.)

On the writer thread each round trip had to take the interpreter's lock back from the
event loop, which at 1,000 games on two processes holds it half the time: a batch of
2 moves took 2.9 ms there at the median and a move waited 8.3 ms for its commit
(BENCHMARKS.md, "Cost per move"). Here nothing waits for the lock, and the loop serves
the other games while the server answers.

The connection looks its games up by primary key whatever the planner thinks of the
table (:data:`BY_KEY_SQL`): a prepared statement keeps the plan it was given when
``live_game`` was small — a hash join over a sequential scan of the table — and every
batch after that read the whole heap, which a thousand heartbeats and moves a second
bloat. At 1,000 games on two processes that was 0.17 of a core for each process's
connection in PostgreSQL, 0.8 ms a batch of one move (BENCHMARKS.md, "The plan of the
live log's batch").

Every other write (a game's start and result, a table waiting for players, the
tournaments') stays on the store's own connections. A batch with a refused write
(:class:`Refused`) has written nothing; the caller writes it again write by write
the usual way, which says which one was refused and why.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any

import psycopg
from psycopg import errors as pg_errors

from .games import ALIVE_SQL, BUMP_AND_ADD_CHECKED_SQL, RETRIES, batch_params


class Refused(Exception):
    """A write of the batch would be refused; nothing of the batch was written."""


#: How long a (re)connection may take before the batch fails (and its moves are
#: answered "try again").
CONNECT_SECONDS = 5

#: Run once on the connection when it opens: its move statement
#: (:data:`~.games.BUMP_AND_ADD_CHECKED_SQL`) finds its few games through
#: ``live_game``'s primary key, a nested loop over the batch's records —
#: never a scan of the whole table, however small the table was when the statement was
#: planned (its plan is kept).
BY_KEY_SQL = (
    "SELECT set_config('enable_seqscan', 'off', false),"
    " set_config('enable_hashjoin', 'off', false),"
    " set_config('enable_mergejoin', 'off', false)"
)

#: Run once on the connection when it opens: its commits do not wait for the server's
#: log to reach the disk (``synchronous_commit`` off, this session only) — what the live
#: games' batch on SQLite does (``PRAGMA synchronous=NORMAL``, :meth:`.db.Store.passing`),
#: decided in RELIABILITY.md, "What a power cut takes back". The server has the
#: commit when the players are told: a crash of the application's process loses
#: nothing; a crash of the database's machine (or of PostgreSQL itself) may take back
#: the moves of its last fraction of a second (three times ``wal_writer_delay`` at
#: most), never a game's start or result, a table or a tournament's write — those
#: commit on the store's own connections, waiting for the disk, and each flushes the
#: log, the moves before it included. Measured: a stall of the machine's disk had held
#: every move on both processes for up to 0.8 s (BENCHMARKS.md, "Server").
NO_SYNC_SQL = "SELECT set_config('synchronous_commit', 'off', false)"

#: The server's answers that a transaction lost a race and may be run again.
_RACES = (pg_errors.DeadlockDetected, pg_errors.SerializationFailure)


class AsyncPassing:
    """One connection of its own (opened on first use, again after it broke), one
    batch at a time: the live log's writer task is its only caller."""

    def __init__(self, conninfo: str) -> None:
        self._conninfo = conninfo
        self._conn: psycopg.AsyncConnection[Any] | None = None

    async def _connection(self) -> psycopg.AsyncConnection[Any]:
        conn = self._conn
        if conn is None or conn.closed or conn.broken:
            self._conn = None
            conn = await psycopg.AsyncConnection.connect(
                self._conninfo, autocommit=True, connect_timeout=CONNECT_SECONDS
            )
            try:
                await conn.execute(BY_KEY_SQL)
                await conn.execute(NO_SYNC_SQL)
            except BaseException:
                await _close(conn)
                raise
            self._conn = conn
        return conn

    async def write(self, ops: Sequence[tuple[str, tuple[Any, ...]]]) -> None:
        """The batch, all of it or (:class:`Refused`) nothing."""
        params = batch_params(ops)  # refused before anything is sent when out of order
        if params is None:
            raise Refused()
        bump, expected, beats = params
        for attempt in range(RETRIES):
            conn = await self._connection()
            try:
                if not beats:  # one statement, its own transaction: one round trip
                    await conn.execute(BUMP_AND_ADD_CHECKED_SQL, (*bump, expected))
                    return
                async with conn.transaction():  # with the heartbeat, once a second
                    if expected:
                        await conn.execute(BUMP_AND_ADD_CHECKED_SQL, (*bump, expected))
                    for beat in beats:
                        await conn.execute(ALIVE_SQL, beat)
                return
            except pg_errors.InvalidTextRepresentation:
                # The statement's own refusal (fewer games bumped than written for):
                # it failed as a whole, nothing of it stays.
                raise Refused() from None
            except _RACES:
                if attempt == RETRIES - 1:
                    raise
            except BaseException:
                # Whatever else (the server gone, a cancelled task): this connection's
                # state is unknown, so the next batch opens another.
                self._conn = None
                await _close(conn)
                raise

    async def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            await _close(conn)


async def _close(conn: psycopg.AsyncConnection[Any]) -> None:
    with contextlib.suppress(Exception):  # closing a broken connection: nothing to do
        await conn.close()


__all__ = ["BY_KEY_SQL", "AsyncPassing", "Refused"]
