"""The live games of one process: tables by id, the log and the clock they share.

Alone (the default), the process owns every game. With a :class:`~.cluster.Cluster`
(``MELDTOUR_REDIS_URL`` set, the games logged in a shared database) several processes
share the games: each game is owned by the process holding its lease, the others reach
it through a :class:`RemoteGame` handle, and a game whose owner died is taken over and
rebuilt from the log.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import gc
import logging
import secrets
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import Any

from meldtour.core.search import PlayFinder
from meldtour.players import Player
from meldtour.solver import finder as solver_finder
from meldtour.store.games import ListedTable

from .clock import Clock, SystemClock
from .cluster import RENEW, Cluster, RemoteError, RemoteSubscriber
from .game import TABLE_CODES, LiveGame, Subscriber, TableError, seat_of_token
from .handle import GameHandle
from .log import GameLog, MemoryLog, StoreLog
from .online import OnlineRounds
from .table import TableConfig, secret_seed

log = logging.getLogger(__name__)

#: Seconds between heartbeats: how much a restart may give back to the player to move
#: beyond the time they had (never less: the clock is paused from the last beat).
HEARTBEAT = 1.0
#: A game over leaves this process's memory (its log keeps it: the score, the replay)
#: this many seconds after its end once nobody watches it, and after ``KEEP_WATCHED``
#: seconds whoever still does (their pages go to the score).
KEEP_OVER = 30.0
KEEP_WATCHED = 600.0
#: A table opened in the lobby that has not started after this many seconds is closed
#: and forgotten (its watchers are told ``closing``); a tournament's tables wait on.
IDLE_WAITING = 1800.0
#: A socket on a game recorded but not opened yet (a tournament's next game, this very
#: instant) waits this many seconds for it.
OPENING_WAIT = 10.0
#: At most this many lobby tables wait for players on one process at once.
MAX_WAITING = 300

OverHook = Callable[[LiveGame], Awaitable[None]]


#: With :func:`tune_gc`: every this many seconds the heartbeat moves what has survived
#: into the collector's permanent generation (``gc.freeze``)...
FREEZE_EVERY = 60.0
#: ... and every this many seconds lets the collector see everything once more
#: (``gc.unfreeze``), so that a reference cycle frozen meanwhile is still freed.
THAW_EVERY = 1800.0


@dataclass
class _Freezer:
    on: bool = False
    frozen_at: float = 0.0
    thawed_at: float = 0.0

    def step(self, now: float) -> None:
        """The heartbeat's turn (``time.monotonic`` seconds)."""
        if not self.on:
            return
        if now - self.thawed_at >= THAW_EVERY:
            gc.unfreeze()
            self.thawed_at = self.frozen_at = now
        elif now - self.frozen_at >= FREEZE_EVERY:
            gc.freeze()
            self.frozen_at = now


_FREEZER = _Freezer()


def tune_gc() -> None:
    """The garbage collector for a game server (measured with ``bench/server.py
    --probe``: its full collections were the event loop's longest stalls). What is
    alive once the server has started — the modules and the app, ≈ 140 000 objects —
    is moved out of the collector's sight (``gc.freeze``: freed as usual by reference
    counting, never scanned again), and full collections come ten times less often
    (the young generations keep their defaults: larger ones pause longer).

    The games' own objects are long-lived too (states, boards, the meld cache's
    entries: ≈ 2 million at 400 games, a full pass of 1–2 s), so the heartbeat freezes
    what survived every :data:`FREEZE_EVERY` seconds: a full pass then scans only the
    last minute's objects. That leaks only reference cycles that die while frozen —
    the live layer makes none per move (a closure of the solver's and of the engine's
    search did, and were fixed; ``bench/server.py --probe`` counts) — and those are
    freed every :data:`THAW_EVERY` seconds, when everything is unfrozen once."""
    release_closed_transports()
    gc.collect()
    gc.freeze()
    gc.set_threshold(700, 10, 100)
    now = time.monotonic()
    _FREEZER.on, _FREEZER.frozen_at, _FREEZER.thawed_at = True, now, now


def _closed() -> None:
    """What a closed transport does when asked to read: nothing."""


def release_closed_transports() -> None:
    """A closed socket's transport is freed at once, not by a full collection.

    Python 3.11's ``asyncio`` keeps, in every socket transport, a bound method of its
    own (``_read_ready_cb``): a reference cycle, which only the collector breaks. A
    connection that lives across a heartbeat's :func:`gc.freeze` (every game's 4
    sockets do) is frozen with it, so when it closes its transport stays until the next
    thaw — and the few objects it keeps pin the memory pages around them (measured:
    resident memory rising 30 MiB a minute at 400 games, BENCHMARKS.md, "Server").
    Python 3.12 drops the method when the connection is lost (CPython gh-100348); this
    does the same on 3.11, once per process."""
    if sys.version_info >= (3, 12):
        return
    from asyncio import selector_events

    transport: Any = getattr(selector_events, "_SelectorSocketTransport")  # noqa: B009
    if getattr(transport, "_meldtour_releases", False):
        return
    lost = transport._call_connection_lost

    def call_connection_lost(self: Any, exc: BaseException | None) -> None:
        try:
            lost(self, exc)
        finally:
            self._read_ready_cb = _closed

    transport._call_connection_lost = call_connection_lost
    transport._meldtour_releases = True


class Moved(RuntimeError):
    """This process does not own the game (any more)."""


@dataclass(frozen=True, slots=True)
class LobbyTable:
    """A lobby's table that may be another process's, read from the shared log: what
    the lobby shows of a :class:`LiveGame` (its id, set-up, seat names, whether it has
    started), without the game itself."""

    id: str
    config: TableConfig
    names: list[str | None]
    keys: list[str | None]
    started: bool

    @staticmethod
    def of(row: ListedTable) -> LobbyTable:
        config = TableConfig.from_json(row.config)
        n = len(config.seats)
        names = (list(row.names) + [None] * n)[:n]
        keys = (list(row.keys) + [None] * n)[:n]
        return LobbyTable(row.id, config, names, keys, row.started)


Listed = LiveGame | LobbyTable


class LiveServer:
    def __init__(
        self,
        game_log: GameLog | None = None,
        clock: Clock | None = None,
        finder: PlayFinder | None = solver_finder,
        make: Callable[[str, str, int], Player] | None = None,
        cluster: Cluster | None = None,
    ) -> None:
        self.log: GameLog = game_log if game_log is not None else MemoryLog()
        self.clock: Clock = clock if clock is not None else SystemClock()
        self.finder = finder
        self.make = make
        self.games: dict[str, LiveGame] = {}
        # Games logged in a database are shared with the other processes through the
        # cluster the app gives (web/assemble.py builds it when Redis is configured).
        self.cluster = cluster
        #: Handles on games other processes own, by id.
        self.handles: dict[str, RemoteGame] = {}
        #: At the owner: the other processes' sockets on its games, by socket id.
        self.remote_subs: dict[str, tuple[str, RemoteSubscriber]] = {}
        #: Called when a game of this process is over (its result logged).
        self.over_hooks: list[OverHook] = []
        self._recovered = False
        self._heart: asyncio.Task[None] | None = None
        self._keeper: asyncio.Task[None] | None = None
        self._taking: dict[str, asyncio.Future[LiveGame | None]] = {}
        #: Games recorded elsewhere (a tournament's next game) that this process is about
        #: to open: a socket that finds the record first waits for them.
        self._opening: dict[str, asyncio.Event] = {}
        #: When each game of this process ended (``time.monotonic``), until it leaves.
        self._ended: dict[str, float] = {}
        #: A tournament's tables played online (games logged in the tournaments' database).
        self.online: OnlineRounds | None = None
        if isinstance(self.log, StoreLog):
            self.online = OnlineRounds(self, self.log.open)

    # ------------------------------------------------------------ tables

    def _adopt(self, game: LiveGame) -> LiveGame:
        game.on_over = self._over
        self.games[game.id] = game
        return game

    def create_table(self, config: TableConfig, game_id: str | None = None) -> LiveGame:
        """A new table; its owner task starts with the first request made to it."""
        gid = game_id or secrets.token_urlsafe(6)
        if gid in self.games:
            raise ValueError(f"table {gid} exists")
        return self._adopt(LiveGame(gid, config, self.log, self.clock, self.finder, self.make))

    def waiting_in_lobby(self) -> int:
        """How many lobby tables of this process wait for players."""
        return sum(1 for g in self.games.values() if g.lobby and not g.started)

    async def open_table(
        self,
        config: TableConfig,
        game_id: str | None = None,
        names: list[str | None] | None = None,
        keys: list[str | None] | None = None,
        lobby: bool = False,
    ) -> LiveGame:
        """A new table owned by this process, kept in the log while it waits for
        players (a restart keeps it). ``names`` and ``keys`` (token hashes) seat people
        at once (a tournament's table)."""
        await self.ensure_recovered()
        gid = game_id or secrets.token_urlsafe(6)
        if self.cluster is not None and not await self.cluster.acquire(gid):
            raise ValueError(f"table {gid} exists")
        game = self.create_table(config, gid)
        game.lobby = lobby
        for i, name in enumerate(names or []):
            if name is not None:
                game.names[i] = name
        for i, key in enumerate(keys or []):
            if key is not None:
                game.keys[i] = key
        try:
            if game.config.humans and not all(game.keys[i] for i in game.config.humans):
                await self.log.save_table(gid, game.waiting_json())
        except Exception:
            del self.games[gid]
            if self.cluster is not None:
                await self.cluster.release(gid)
            raise
        return game

    async def rematch(self, game: LiveGame) -> LiveGame:
        """The next game at ``game``'s table, once it is over: the same rules and seats
        (computers at the same levels), a new shuffle; one per game, whoever asks first
        (the others are given the same). It waits for the people like a lobby table.
        Within a match it is the match's next game (the running total goes on); after a
        match's last game, the first of a new match. A given deal (a teaching position)
        is dealt again."""
        if not game.over:
            raise ValueError("the game is not over")
        task = game.rematch_task
        if task is None or (task.done() and (task.cancelled() or task.exception() is not None)):
            before = (*game.config.match_before, game.id)
            if len(before) >= game.config.match_games:
                before = ()
            config = dataclasses.replace(game.config, seed=secret_seed(), match_before=before)
            task = game.rematch_task = asyncio.ensure_future(self.open_table(config, lobby=True))
        new: LiveGame = await asyncio.shield(task)
        if game.rematch != new.id:
            game.rematch = new.id
            game.table_changed()
        return new

    def get(self, game_id: str) -> LiveGame | None:
        return self.games.get(game_id)

    async def find(self, game_id: str) -> GameHandle | None:
        """The game, wherever it is: this process's (recovered from the log first if
        need be), or a handle on the process that owns it."""
        await self.ensure_recovered()
        opening = self._opening.get(game_id)
        if opening is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(opening.wait(), OPENING_WAIT)
        game = self.games.get(game_id)
        if game is not None or self.cluster is None:
            return game
        cluster = self.cluster
        for _ in range(20):
            owner = await cluster.owner(game_id)
            if owner is None or owner == cluster.node:
                taken = await self.take_over(game_id)
                if taken is not None:
                    return taken
                if owner is None and await cluster.owner(game_id) is None:
                    return None  # in no log: no such game
            else:
                try:
                    info = await cluster.request(owner, "info", game_id)
                except RemoteError as exc:
                    if exc.kind not in ("Moved", "Timeout"):
                        raise
                    await asyncio.sleep(0.5)  # its owner is gone or going: look again
                    continue
                if info is None:
                    return None
                handle = self.handles.get(game_id)
                if handle is None:
                    handle = self.handles[game_id] = RemoteGame(self, game_id, owner, info)
                else:
                    handle.update(owner, info)
                return handle
            await asyncio.sleep(0.25)
        return None

    @contextlib.contextmanager
    def opening(self, game_ids: list[str]) -> Iterator[None]:
        """Within this block the games ``game_ids`` are being recorded and opened here:
        :meth:`find` waits for them (up to :data:`OPENING_WAIT` seconds) rather than
        answering "no such game" to a link followed the instant the record appeared."""
        events = {gid: self._opening.setdefault(gid, asyncio.Event()) for gid in game_ids}
        try:
            yield
        finally:
            for gid, event in events.items():
                event.set()
                if self._opening.get(gid) is event:
                    del self._opening[gid]

    def open_tables(self) -> list[LiveGame]:
        """Tables with a free seat, newest first."""
        return [
            g
            for g in reversed(self.games.values())
            if not g.started and g.config.free_seats(g.keys)
        ]

    async def lobby(self, limit: int = 20) -> tuple[list[Listed], list[Listed]]:
        """The lobby: the tables with a free person seat (not started) and the games in
        play, newest first, at most ``limit`` each. Alone, this process's games (no
        query); in a cluster, every process's, from one read of the shared log (a table
        opened on another process is joined through it: :meth:`find`)."""
        if self.cluster is not None and isinstance(self.log, StoreLog):
            try:
                waiting, playing = await self.log.lobby(limit)
            except Exception:
                log.exception("the lobby could not be read from the log: this process's only")
            else:
                tables = [t for t in self._listed(waiting) if t.config.free_seats(t.keys)]
                return tables, self._listed(playing)
        here = [g for g in reversed(self.games.values()) if g.started and not g.over]
        return list(self.open_tables()[:limit]), list(here[:limit])

    @staticmethod
    def _listed(rows: list[ListedTable]) -> list[Listed]:
        out: list[Listed] = []
        for row in rows:
            try:
                out.append(LobbyTable.of(row))
            except (KeyError, TypeError, ValueError):
                log.warning("lobby: table %s cannot be read; left out", row.id)
        return out

    # ------------------------------------------------------------ recovery

    async def _load(self, game_id: str) -> LiveGame | None:
        """The game rebuilt from the log (started: its moves; waiting: its seats); None
        for a game over (its score and replay are read from the log) or unknown."""
        logged = await self.log.load(game_id)
        if logged is not None and logged.result is not None:
            return None
        if logged is not None:
            game = await LiveGame.recover(game_id, self.log, self.clock, self.finder, self.make)
            self._adopt(game)
            await game.resume()
            return game
        data = await self.log.load_table(game_id)
        if data is None:
            return None
        return self._adopt(
            LiveGame.waiting(game_id, data, self.log, self.clock, self.finder, self.make)
        )

    async def take_over(self, game_id: str) -> LiveGame | None:
        """Take the game's lease if it is free (or ours) and rebuild the game here;
        None if another process holds it or the log does not know it."""
        if game_id in self.games:
            return self.games[game_id]
        pending = self._taking.get(game_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[LiveGame | None] = asyncio.get_running_loop().create_future()
        self._taking[game_id] = future
        game: LiveGame | None = None
        try:
            cluster = self.cluster
            if (
                cluster is None
                or await cluster.owner(game_id) == cluster.node
                or await cluster.acquire(game_id)
            ):
                game = await self._load(game_id)
                if game is None and cluster is not None:
                    await cluster.release(game_id)
                elif game is not None:
                    log.info(
                        "game %s: taken over by %s",
                        game_id,
                        cluster.node if cluster else "this process",
                    )
                    handle = self.handles.get(game_id)
                    if handle is not None:
                        await handle.rebind()
        except BaseException as exc:
            future.set_exception(exc)
            raise
        finally:
            self._taking.pop(game_id, None)
        if not future.done():
            future.set_result(game)
        return game

    async def recover(self) -> list[str]:
        """Resume every unfinished game in the log and rebuild the tables waiting for
        players (after a restart); in a cluster, only those no live process owns."""
        resumed = []
        ids = [*await self.log.unfinished(), *await self.log.waiting_tables()]
        for gid in ids:
            if gid in self.games:
                continue
            if self.cluster is not None:
                if await self.take_over(gid) is not None:
                    resumed.append(gid)
                continue
            if await self._load(gid) is not None:
                resumed.append(gid)
        return resumed

    async def ensure_recovered(self) -> None:
        """Recover the log's unfinished games once (at start-up, or on the first request
        after start), then keep the heartbeat (and, in a cluster, the leases)."""
        if not self._recovered:
            self._recovered = True
            if isinstance(self.log, StoreLog):
                tune_gc()  # a real server, starting: before any clock is resumed
            try:
                if self.cluster is not None:
                    await self.cluster.start(self._request, self._message)
                await self.recover()
                if self.online is not None:
                    try:
                        await self.online.settle()
                    except Exception:
                        log.exception("the online tables could not be settled")
            finally:
                self._start_heartbeat()

    def _start_heartbeat(self) -> None:
        loop = asyncio.get_running_loop()
        if self._heart is None or self._heart.done():
            self._heart = loop.create_task(self._beat(), name="live heartbeat")
        if self.cluster is not None and (self._keeper is None or self._keeper.done()):
            self._keeper = loop.create_task(self._keep(), name="live leases")

    async def _beat(self) -> None:
        """Tell the log, every :data:`HEARTBEAT` seconds, that this process's running
        games are alive: after a crash, their clocks restart from the last beat."""
        while True:
            ids = [gid for gid, g in self.games.items() if g.started and not g.over]
            if ids:
                try:
                    await self.log.alive(ids, self.clock.now())
                except Exception:
                    log.exception("the heartbeat could not be written")
            try:
                await self._forget_ended(time.monotonic())
                await self._forget_idle(time.monotonic())
            except Exception:
                log.exception("games over could not be let go")
            _FREEZER.step(time.monotonic())
            await asyncio.sleep(HEARTBEAT)

    async def _forget_ended(self, now: float) -> None:
        """Let go of the games over for :data:`KEEP_OVER` seconds that nobody watches,
        and of every game over for :data:`KEEP_WATCHED` seconds (its watchers are told
        ``closing``/``over`` and their pages show the score from the log): a server up
        for days holds only the games in play, not every game it ever ran."""
        for gid, ended in list(self._ended.items()):
            game = self.games.get(gid)
            if game is None or not game.over:
                self._ended.pop(gid, None)
                continue
            age = now - ended
            if age < KEEP_OVER or (game.subscribers and age < KEEP_WATCHED):
                continue
            del self._ended[gid]
            del self.games[gid]
            await self._let_go(game, "over")
            if self.cluster is not None:
                await self.cluster.release(gid)

    async def _forget_idle(self, now: float) -> None:
        """Close the lobby tables nobody started within :data:`IDLE_WAITING` seconds:
        anyone can open one, so they must not pile up (3,000 in a minute were kept)."""
        for gid, game in list(self.games.items()):
            if not game.lobby or game.started or now - game.made_at < IDLE_WAITING:
                continue
            del self.games[gid]
            await self.log.drop_table(gid)
            await self._let_go(game, "idle")
            if self.cluster is not None:
                await self.cluster.release(gid)

    # ------------------------------------------------------------ the end of a game

    async def _over(self, game: LiveGame) -> None:
        self._ended[game.id] = time.monotonic()
        for hook in list(self.over_hooks):
            try:
                await hook(game)
            except Exception:
                log.exception("game %s: an end-of-game hook failed", game.id)

    # ------------------------------------------------------------ the cluster

    async def _keep(self) -> None:
        """Every :data:`RENEW` seconds: this node is alive, its leases renewed (a game
        another node holds now is dropped here), handles follow their game's owner, and
        every other tick the log's games that nobody owns are taken over."""
        assert self.cluster is not None
        tick = 0
        while True:
            await asyncio.sleep(RENEW)
            tick += 1
            try:
                await self._keep_once(scan=tick % 2 == 0)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("cluster: keeping the leases failed")

    async def _keep_once(self, scan: bool) -> None:
        cluster = self.cluster
        assert cluster is not None
        await cluster.beat()
        for gid in await cluster.renew(list(self.games)):
            await self._drop(gid)
        watched = [h for h in self.handles.values() if h.subs and h.local is None]
        owners = await cluster.owners([h.id for h in watched])
        # Whether each owner lives, asked once a pass (not once a game: at 1,000 games
        # on two processes that was 500 round trips to Redis a second, 4 % of the loop).
        alive: dict[str, bool] = {}
        for handle, owner in zip(watched, owners, strict=True):
            if owner == handle.owner and owner is not None:
                if owner not in alive:
                    alive[owner] = await cluster.node_alive(owner)
                if alive[owner]:
                    continue
            if owner is None or owner == cluster.node:
                await self.take_over(handle.id)
            elif owner != handle.owner:
                handle.owner = owner
                await handle.rebind()
        if scan:
            ids = [
                g
                for g in (*await self.log.unfinished(), *await self.log.waiting_tables())
                if g not in self.games
            ]
            for gid, owner in zip(ids, await cluster.owners(ids), strict=True):
                if owner is None:
                    await self.take_over(gid)
            # Sockets of dead nodes on this node's games.
            nodes = {sub.node for _, sub in self.remote_subs.values()}
            for node in nodes:
                if not await cluster.node_alive(node):
                    for sid, (_, sub) in list(self.remote_subs.items()):
                        if sub.node == node:
                            self._unsubscribe_remote(sid)
            for gid, handle in list(self.handles.items()):
                if not handle.subs:
                    del self.handles[gid]

    async def _drop(self, game_id: str) -> None:
        """Another node holds the game now: stop it here; its sockets reconnect."""
        game = self.games.pop(game_id, None)
        if game is None:
            return
        log.warning("game %s: its lease was lost; stopped here", game_id)
        await self._let_go(game, "moved")

    @staticmethod
    async def _let_go(game: LiveGame, reason: str) -> None:
        """Stop a game this process no longer holds, telling its sockets why
        (``closing``: ``moved`` — they reconnect to the new owner; ``over`` — their
        pages go to the score)."""
        await game.close()
        for sub in list(game.subscribers):
            sub.send({"type": "closing", "reason": reason})
            game.unsubscribe(sub)
        game.release()

    async def _request(self, op: str, message: dict[str, Any]) -> Any:
        """Another node's request on a game of this one."""
        gid = str(message.get("gid"))
        game = self.games.get(gid)
        if game is None:
            raise Moved(f"game {gid} is not owned by this node")
        if op == "info":
            return {
                "table": game.table_json(),
                "config": game.config.to_json(),
                "names": list(game.names),
                "keys": list(game.keys),
                "started": game.started,
                "over": game.over,
            }
        if op == "join":
            return await game.join(int(message["seat"]), str(message.get("name", "")))
        if op == "open":
            await game.open()
            return None
        if op == "names":
            game.table_changed()
            return None
        if op == "subscribe":
            assert self.cluster is not None
            seat = message.get("seat")
            sid = str(message["sid"])
            sub = RemoteSubscriber(
                self.cluster, str(message["from"]), sid, None if seat is None else int(seat)
            )
            old = self.remote_subs.pop(sid, None)
            if old is not None:
                old[1].closed = True
            self.remote_subs[sid] = (gid, sub)
            await game._ask("subscribe", sub)
            return None
        raise ValueError(f"unknown request {op!r}")

    async def names_changed(self, game_ids: list[str]) -> int:
        """Names shown at these games changed (the administrator hid one or showed it
        again): every socket on those of them in play — on this process or another —
        is sent the table again, and its page the names as they are now. The number of
        games told."""
        here = [g for g in game_ids if g in self.games]
        for gid in here:
            game = self.games[gid]
            if not game.over:
                game.table_changed()
        told = len(here)
        if self.cluster is None:
            return told
        elsewhere = [g for g in game_ids if g not in self.games]
        owners = await self.cluster.owners(elsewhere)
        for gid, owner in zip(elsewhere, owners, strict=True):
            if owner is None or owner == self.cluster.node:
                continue
            with contextlib.suppress(Exception):  # gone meanwhile: its next page is right
                await self.cluster.request(owner, "names", gid)
                told += 1
        return told

    def _message(self, message: dict[str, Any]) -> None:
        kind = message.get("t")
        sid = str(message.get("sid"))
        if kind == "unsub":
            self._unsubscribe_remote(sid)
        elif kind == "in":
            found = self.remote_subs.get(sid)
            data = message.get("m")
            if found is None or not isinstance(data, dict):
                return
            game = self.games.get(found[0])
            if game is None:
                return
            asyncio.get_running_loop().create_task(self._receive(game, found[1], data))

    async def _receive(self, game: LiveGame, sub: Subscriber, data: dict[str, Any]) -> None:
        try:
            await game.receive(sub, data)
        except Exception as exc:  # a failed write to the log: the client may resend
            log.warning("game %s: a message failed: %s", game.id, exc)
            sub.send({"type": "error", "id": data.get("id"), "reason": "server"})

    def _unsubscribe_remote(self, sid: str) -> None:
        found = self.remote_subs.pop(sid, None)
        if found is None:
            return
        gid, sub = found
        game = self.games.get(gid)
        if game is not None:
            game.unsubscribe(sub)
        sub.closed = True

    async def close(self) -> None:
        for task in (self._heart, self._keeper):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        for game in self.games.values():
            await game.close()
        if isinstance(self.log, StoreLog):
            await self.log.close_passing()
        if self.cluster is not None:
            for gid in list(self.games):
                with contextlib.suppress(Exception):
                    await self.cluster.release(gid)
            await self.cluster.close()


class RemoteGame:
    """A game another process owns, as this process's pages and sockets see it: a
    :class:`~.handle.GameHandle` like :class:`LiveGame`, its requests done by the
    owner. When the owner dies, the sockets follow the game to its new owner (this
    process or another) and get a snapshot there."""

    def __init__(self, server: LiveServer, game_id: str, owner: str, info: dict[str, Any]) -> None:
        self.server = server
        self.id = game_id
        self.subs: dict[str, Subscriber] = {}
        #: The game itself once this process has taken it over.
        self.local: LiveGame | None = None
        self.update(owner, info)

    def update(self, owner: str, info: dict[str, Any]) -> None:
        self.owner = owner
        self.config = TableConfig.from_json(info["config"])
        self.names: list[str | None] = list(info["names"])
        self.keys: list[str | None] = list(info["keys"])
        self.started = bool(info["started"])
        self.over = bool(info["over"])
        self._table: dict[str, Any] = dict(info["table"])

    @property
    def cluster(self) -> Cluster:
        assert self.server.cluster is not None
        return self.server.cluster

    def table_json(self) -> dict[str, Any]:
        return dict(self._table)

    def seat_of(self, token: str | None) -> int | None:
        return seat_of_token(self.keys, token)

    async def _call(self, op: str, **args: Any) -> Any:
        for attempt in range(3):
            if self.local is not None:
                raise Moved(self.id)
            try:
                return await self.cluster.request(self.owner, op, self.id, **args)
            except RemoteError as exc:
                if exc.kind == "TableError":
                    code = exc.code if exc.code in TABLE_CODES else "table.taken"
                    raise TableError(code or "table.taken") from None
                if exc.kind not in ("Moved", "Timeout") or attempt == 2:
                    raise
            await asyncio.sleep(0.5)
            await self._follow()
        raise Moved(self.id)

    async def _follow(self) -> None:
        """Find the game's owner again (taking the game over if nobody holds it)."""
        owner = await self.cluster.owner(self.id)
        if owner is None or owner == self.cluster.node:
            await self.server.take_over(self.id)
        elif owner != self.owner:
            self.owner = owner
            await self.rebind()

    async def join(self, seat: int, name: str) -> str:
        if self.local is None:
            with contextlib.suppress(Moved):
                return str(await self._call("join", seat=seat, name=name))
        assert self.local is not None
        return await self.local.join(seat, name)

    async def open(self) -> None:
        if self.local is None:
            with contextlib.suppress(Moved):
                await self._call("open")
                return
        assert self.local is not None
        await self.local.open()

    async def subscribe(self, seat: int | None) -> Subscriber:
        sub = Subscriber(seat)
        sid = secrets.token_hex(8)
        self.subs[sid] = sub
        if self.local is not None:
            await self.local._ask("subscribe", sub)
            return sub
        self.cluster.routes[sid] = sub
        with contextlib.suppress(Moved):
            await self._call("subscribe", sid=sid, seat=seat)
        return sub

    def unsubscribe(self, sub: Subscriber) -> None:
        sub.closed = True
        for sid, s in list(self.subs.items()):
            if s is sub:
                del self.subs[sid]
                self.cluster.routes.pop(sid, None)
                if self.local is not None:
                    self.local.unsubscribe(sub)
                else:
                    self.cluster.post(self.owner, {"t": "unsub", "gid": self.id, "sid": sid})
        if not self.subs and self.local is None:
            self.server.handles.pop(self.id, None)

    async def receive(self, sub: Subscriber, message: dict[str, Any]) -> None:
        if self.local is not None:
            await self.local.receive(sub, message)
            return
        for sid, s in self.subs.items():
            if s is sub:
                self.cluster.post(self.owner, {"t": "in", "gid": self.id, "sid": sid, "m": message})
                return

    async def rebind(self) -> None:
        """The game's owner changed: subscribe the sockets there (each gets a snapshot)."""
        local = self.server.games.get(self.id)
        if local is not None:
            self.local = local
            for sid, sub in list(self.subs.items()):
                self.cluster.routes.pop(sid, None)
                await local._ask("subscribe", sub)
            self.server.handles.pop(self.id, None)
            return
        for sid, sub in list(self.subs.items()):
            self.cluster.routes[sid] = sub
            try:
                await self.cluster.request(self.owner, "subscribe", self.id, sid=sid, seat=sub.seat)
            except RemoteError:
                log.warning("game %s: a socket could not follow it to %s", self.id, self.owner)


__all__ = ["LiveServer", "LobbyTable", "Moved", "RemoteGame"]
