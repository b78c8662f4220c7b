"""The game log: what a live game writes before it tells anyone (append-only).

A narrow protocol: :class:`StoreLog` keeps it in the database (``meldtour.store.games``:
each move in its own transaction), :class:`MemoryLog` in memory (unit tests). A logged
game (:class:`~meldtour.store.games.StoredGame`, whichever log keeps it) is a game
record (``core.record``: rules, players, seed, deal, moves with their server times
``at``) plus the header's ``started_at`` and ``table``, the current turn's latest
draft, the heartbeat and the clock's resumptions after restarts.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import queue
import threading
import uuid
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol, TypeVar

from meldtour.store import games
from meldtour.store.db import Busy, Store
from meldtour.store.games import StoredGame
from meldtour.store.passing_pg import AsyncPassing, Refused

T = TypeVar("T")


class LogError(RuntimeError):
    """The log refused a write (an out-of-order append, an unknown game)."""


class GameLog(Protocol):
    async def start(self, game_id: str, header: Mapping[str, Any]) -> None:
        """Create the game's log; the header is written once."""

    async def append(self, game_id: str, index: int, move: Mapping[str, Any]) -> None:
        """Append move number ``index`` (0-based); anything but the next index is refused."""

    async def put_draft(self, game_id: str, draft: Mapping[str, Any] | None) -> None:
        """Replace the game's latest draft (not a move: it is overwritten, not appended)."""

    async def finish(self, game_id: str, result: Mapping[str, Any]) -> None:
        """Mark the game over."""

    async def load(self, game_id: str) -> StoredGame | None:
        """Everything written for the game, or None."""

    async def unfinished(self) -> list[str]:
        """The games that were started and are not over (to recover at start-up)."""

    async def alive(self, game_ids: Iterable[str], at: float) -> None:
        """The heartbeat: the games' process was alive at ``at`` (server seconds)."""

    async def resume(self, game_id: str, entry: Mapping[str, Any]) -> None:
        """Record a resumption after a restart: ``{"version", "turn_started", "at"}``."""

    async def save_table(self, game_id: str, table: Mapping[str, Any]) -> None:
        """Keep a table waiting for players (its set-up and the seats taken so far),
        replacing what was kept; starting the game (:meth:`start`) forgets it."""

    async def load_table(self, game_id: str) -> dict[str, Any] | None:
        """A table waiting for players, as :meth:`save_table` kept it, or None."""

    async def waiting_tables(self) -> list[str]:
        """The tables still waiting for players, oldest first."""

    async def drop_table(self, game_id: str) -> None:
        """Forget a table that waited for players in vain."""


class MemoryLog:
    """The log in memory (a process's lifetime); copies in and out, like a database."""

    def __init__(self) -> None:
        self._games: dict[str, StoredGame] = {}
        self._tables: dict[str, dict[str, Any]] = {}

    async def start(self, game_id: str, header: Mapping[str, Any]) -> None:
        if game_id in self._games:
            raise LogError(f"game {game_id} is already in the log")
        self._games[game_id] = StoredGame(copy.deepcopy(dict(header)))
        self._tables.pop(game_id, None)

    async def save_table(self, game_id: str, table: Mapping[str, Any]) -> None:
        if game_id in self._games:
            raise LogError(f"game {game_id} has started")
        self._tables[game_id] = copy.deepcopy(dict(table))

    async def load_table(self, game_id: str) -> dict[str, Any] | None:
        table = self._tables.get(game_id)
        return None if table is None else copy.deepcopy(table)

    async def waiting_tables(self) -> list[str]:
        return list(self._tables)

    async def drop_table(self, game_id: str) -> None:
        self._tables.pop(game_id, None)

    def _game(self, game_id: str) -> StoredGame:
        try:
            return self._games[game_id]
        except KeyError:
            raise LogError(f"game {game_id} is not in the log") from None

    async def append(self, game_id: str, index: int, move: Mapping[str, Any]) -> None:
        game = self._game(game_id)
        if index != len(game.moves):
            raise LogError(f"game {game_id}: move {index} appended after {len(game.moves)} moves")
        game.moves.append(copy.deepcopy(dict(move)))

    async def put_draft(self, game_id: str, draft: Mapping[str, Any] | None) -> None:
        self._game(game_id).draft = None if draft is None else copy.deepcopy(dict(draft))

    async def finish(self, game_id: str, result: Mapping[str, Any]) -> None:
        self._game(game_id).result = copy.deepcopy(dict(result))

    async def load(self, game_id: str) -> StoredGame | None:
        game = self._games.get(game_id)
        return None if game is None else copy.deepcopy(game)

    async def unfinished(self) -> list[str]:
        return [gid for gid, g in self._games.items() if g.result is None]

    async def alive(self, game_ids: Iterable[str], at: float) -> None:
        for gid in game_ids:
            if gid in self._games:
                self._games[gid].alive_at = at

    async def resume(self, game_id: str, entry: Mapping[str, Any]) -> None:
        self._game(game_id).resumes.append(copy.deepcopy(dict(entry)))


def _settle(done: asyncio.Future[None], exc: BaseException | None = None) -> None:
    """Answer one waiting append (unless its waiter has gone: a cancelled game task)."""
    if done.done():
        return
    if exc is None:
        done.set_result(None)
    else:
        done.set_exception(exc)


class _Writer:
    """The log's writes, one batch at a time, on a thread of their own: a batch is put
    on a queue and its future settled from the thread (one wake-up of the loop) — the
    executor's round trip (a future with its lock and condition per call, the pool's
    bookkeeping) cost more than a move's write itself (BENCHMARKS.md, "Cost per move")."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._serve, name="game-log-writer", daemon=True)
        self._thread.start()

    def write(self, ops: list[tuple[str, tuple[Any, ...]]]) -> asyncio.Future[None]:
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._queue.put((loop, done, ops))
        return done

    def _serve(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            loop, done, ops = item
            try:
                games.write(self._store, ops)
            except Exception as exc:  # handed to the waiting write, on the loop
                error: Exception | None = exc
            else:
                error = None
            with contextlib.suppress(RuntimeError):  # a loop closed: nobody waits
                loop.call_soon_threadsafe(_settle, done, error)

    def stop(self) -> None:
        self._queue.put(None)
        self._thread.join()


class _Lane:
    """Writes waiting for their batch, and the task committing them."""

    __slots__ = ("games", "pending", "task")

    def __init__(self) -> None:
        self.pending: list[tuple[str, tuple[Any, ...], asyncio.Future[None]]] = []
        self.task: asyncio.Task[None] | None = None
        #: The games with a write pending or on its way in this lane, and how many.
        self.games: dict[str, int] = {}


class StoreLog:
    """The log in the database (:mod:`meldtour.store.games`), done on worker threads
    so that the games' loop never waits on the disk (one thread for SQLite, whose
    writers queue anyway; a few for PostgreSQL's reads).

    Writes are group-committed, in two lanes (the usual writes — moves, drafts, the
    heartbeat — and the rest — starts, results, tables waiting for players): every
    write of every game that arrives while its lane's commit is on its way is written
    with the others of the lane in the next transaction, in order, and each
    call returns only once its own write is committed — so a move is still on disk
    before it is broadcast, and nothing acknowledged is ever lost. One commit (one
    fsync) then serves many games. A batch with a refused write is retried write by
    write, so only that write fails.

    The log takes the values it is given as they are (no copy: every move's board was
    deep-copied twice on its way, BENCHMARKS.md, "Cost per move"):
    the caller builds each one for the log and does not change it afterwards, as the
    live games do (:class:`MemoryLog`, the tests' log, still copies in and out).

    ``store`` is a :class:`~meldtour.store.db.Store` or a function giving one, called
    on first use (the web app opens its database lazily)."""

    def __init__(self, store: Store | Callable[[], Store], threads: int | None = None) -> None:
        self._given = store
        self._store: Store | None = None
        self._threads = threads
        self._pool: ThreadPoolExecutor | None = None
        self._lock = asyncio.Lock()
        #: Two lanes of batches, each one batch at a time: the usual writes (moves in
        #: play, drafts, the heartbeat) and the others (a game's start and result, the
        #: tables waiting for players). A game's own writes are one at a time (its
        #: owner task awaits each), so the lanes never reorder them; a slow start (a
        #: thread's batch, tens of milliseconds on a loaded machine) no longer holds
        #: up the moves of every other game behind it (BENCHMARKS.md, "Cost per move").
        self._lanes: dict[bool, _Lane] = {True: _Lane(), False: _Lane()}
        self._writer_thread: _Writer | None = None
        #: SQLite's store once the log has written (its moves and drafts may then be
        #: written on the loop, :meth:`_write`); None before, and on PostgreSQL.
        self._now: Store | None = None
        #: PostgreSQL: the usual batch's connection, used from the event loop.
        self._passing: AsyncPassing | None = None
        #: This log's heartbeat row (``live_node``): one a process run, so that a
        #: restarted process recovering the games reads its predecessor's last beat.
        self.node = uuid.uuid4().hex

    def open(self) -> Store:
        """The store (opened on first use)."""
        return self._open()

    def _open(self) -> Store:
        if self._store is None:
            given = self._given
            self._store = given() if callable(given) else given
        return self._store

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        if self._pool is None:
            async with self._lock:
                if self._pool is None:
                    store = await loop.run_in_executor(None, self._open)
                    threads = self._threads or (1 if store.dialect == "sqlite" else 4)
                    self._pool = ThreadPoolExecutor(threads, thread_name_prefix="game-log")
        return await loop.run_in_executor(self._pool, fn, self._open(), *args)

    async def _write(self, name: str, *args: Any) -> None:
        """One write, committed with whatever else is waiting (see the class) — or, on
        SQLite, a move or a draft whose lane is idle, at once in this call
        (:func:`meldtour.store.games.write_now`): nothing of the game is on its way
        before it, and no task, future or turn of the loop is spent on it."""
        lane = self._lane_of(name, args)
        now = self._now
        if now is not None and name in games.NOW_WRITES and not lane.pending and lane.task is None:
            try:
                games.write_now(now, [(name, args)])
                return
            except Busy:
                pass  # written with the others, off the loop
            except games.GameLogError as exc:
                raise LogError(str(exc)) from None
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        lane.pending.append((name, args, done))
        if name != "alive":
            lane.games[args[0]] = lane.games.get(args[0], 0) + 1
        if lane.task is None:
            lane.task = asyncio.create_task(self._write_pending(lane))
        try:
            await done
        except games.GameLogError as exc:
            raise LogError(str(exc)) from None

    def _lane_of(self, name: str, args: tuple[Any, ...]) -> _Lane:
        """The lane a write goes in: the one where a write of its game is on its way,
        if any (a game's writes are committed in the order given, even made at once);
        else the usual lane for a usual write, the heartbeat's among them."""
        usual, other = self._lanes[True], self._lanes[False]
        if name == "alive":  # its own row (``live_node``): no game's write to follow
            return usual
        game = args[0]
        if game in other.games:
            return other
        if game in usual.games:
            return usual
        return usual if name in games.BATCHED_WRITES else other

    async def _commit(self, ops: list[tuple[str, tuple[Any, ...]]]) -> None:
        """One batch: on SQLite, moves and drafts at once on the loop when nothing needs
        waiting for (:func:`meldtour.store.games.write_now`: the lock free, no disk
        sync — tens of microseconds, where a thread's wake-up cost a move's write
        several times over on this machine); on PostgreSQL, moves, drafts and
        heartbeats from the loop on a connection of their own
        (:mod:`meldtour.store.passing_pg`); else on the writer thread
        (:class:`_Writer`)."""
        if self._writer_thread is None:
            store = await self._run(lambda s: s)  # opened off the loop, once
            self._writer_thread = _Writer(store)
            if store.dialect == "sqlite":
                self._now = store
        store = self._open()
        if store.dialect == "sqlite" and all(n in games.NOW_WRITES for n, _ in ops):
            try:
                games.write_now(store, ops)
                return
            except Busy:
                pass
        elif store.dialect == "postgresql" and all(n in games.BATCHED_WRITES for n, _ in ops):
            if self._passing is None:
                url = store.engine.url.set(drivername="postgresql")
                self._passing = AsyncPassing(url.render_as_string(hide_password=False))
            try:
                await self._passing.write(ops)
                return
            except Refused:
                pass  # nothing written: the writer thread's way says which write, and why
        await self._writer_thread.write(ops)

    async def _write_pending(self, lane: _Lane) -> None:
        """Commit what is pending in the lane, batch after batch, until nothing is left."""
        try:
            while lane.pending:
                batch, lane.pending = lane.pending, []
                try:
                    await self._write_batch(batch)
                finally:
                    for name, args, _ in batch:  # settled: the game's next write may go anywhere
                        if name != "alive":
                            left = lane.games[args[0]] - 1
                            if left:
                                lane.games[args[0]] = left
                            else:
                                del lane.games[args[0]]
        finally:
            lane.task = None  # idle: the next write may go at once

    async def _write_batch(
        self, batch: list[tuple[str, tuple[Any, ...], asyncio.Future[None]]]
    ) -> None:
        """Commit one batch and settle its writes (a refused one alone)."""
        try:
            await self._commit([(n, a) for n, a, _ in batch])
        except games.GameLogError:
            for n, a, done in batch:  # find the refused one; commit the others
                try:
                    await self._commit([(n, a)])
                except Exception as exc:  # refused, or the database itself failed
                    _settle(done, exc)
                else:
                    _settle(done)
            return
        except Exception as exc:
            for *_, done in batch:
                _settle(done, exc)
            return
        for *_, done in batch:
            _settle(done)

    async def start(self, game_id: str, header: Mapping[str, Any]) -> None:
        await self._write("start", game_id, dict(header))

    async def append(self, game_id: str, index: int, move: Mapping[str, Any]) -> None:
        await self._write("append", game_id, index, dict(move))

    async def put_draft(self, game_id: str, draft: Mapping[str, Any] | None) -> None:
        await self._write("draft", game_id, None if draft is None else dict(draft))

    async def finish(self, game_id: str, result: Mapping[str, Any]) -> None:
        await self._write("finish", game_id, dict(result))

    async def load(self, game_id: str) -> StoredGame | None:
        return await self._run(games.load_game, game_id)

    async def unfinished(self) -> list[str]:
        return await self._run(games.unfinished_games)

    async def alive(self, game_ids: Iterable[str], at: float) -> None:
        await self._write("alive", self.node, list(game_ids), at)

    async def resume(self, game_id: str, entry: Mapping[str, Any]) -> None:
        await self._write("resume", game_id, dict(entry))

    async def save_table(self, game_id: str, table: Mapping[str, Any]) -> None:
        await self._write("table", game_id, dict(table))

    async def load_table(self, game_id: str) -> dict[str, Any] | None:
        return await self._run(games.load_table, game_id)

    async def waiting_tables(self) -> list[str]:
        return await self._run(games.waiting_tables)

    async def drop_table(self, game_id: str) -> None:
        await self._write("drop_table", game_id)

    async def lobby(
        self, limit: int = 20
    ) -> tuple[list[games.ListedTable], list[games.ListedTable]]:
        """Every process's tables waiting for players and games in play, newest first,
        at most ``limit`` each (one read: :func:`meldtour.store.games.lobby`)."""
        return await self._run(games.lobby, limit)

    async def close_passing(self) -> None:
        """Close the usual batch's connection (PostgreSQL), after the games are closed."""
        passing, self._passing = self._passing, None
        if passing is not None:
            await passing.close()

    def close(self) -> None:
        """Stop the worker threads (after the games are closed); the store stays open."""
        if self._writer_thread is not None:
            self._writer_thread.stop()
            self._writer_thread = None
            self._now = None
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None
