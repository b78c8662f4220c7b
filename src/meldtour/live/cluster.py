"""Several server processes sharing the live games through Redis (scale-out).

Each process (a *node*) has a random id and one Redis channel of its own. A game has
exactly one owner: the node holding its lease, a Redis key ``{prefix}:lease:{game}``
set with ``NX`` and an expiry, renewed every :data:`RENEW` seconds while the owner
lives. When the owner dies the lease runs out and another node takes the game over:
it rebuilds it from the database's log (:meth:`LiveGame.recover`: the same racks,
board, pool order and the clock's remaining time).

A socket connected to a node that does not own its game talks to the owner through
the channels: the owner keeps a :class:`RemoteSubscriber` for it, whose messages (the
very frames a local socket of that seat gets: computed by the owner for that seat
alone) are published to the socket's node; the socket's messages (moves, drafts) are
published to the owner, which handles them as its own. Moves are still committed to
the log before anything is sent anywhere.

Messages on a node's channel are JSON objects:

* ``{"t": "req", "rid", "from", "op", "gid", ...}`` a request (``info``, ``join``,
  ``open``, ``subscribe``), answered by ``{"t": "rep", "rid", "ok", "value" | "error",
  "kind"}``;
* ``{"t": "in", "gid", "sid", "m"}`` a socket's message to the owner;
  ``{"t": "unsub", "gid", "sid"}`` the socket has gone;
* ``{"t": "out", "sid", "m"}`` a message from the owner to one socket. A move's frame
  already has its JSON text (:class:`~meldtour.live.game.Shared`): the envelope is
  written around that text, and the socket's node reads the text out of it as it is
  (:func:`out_of`), decodes it once for the socket's page and sends the same text — no
  frame is encoded twice on its way (BENCHMARKS.md, "The relay passes the frame's text").

All of it is written with orjson (:data:`~meldtour.live.game.ENCODE`); the other
messages are read with the standard library, which keeps a client's numbers exact. One
writer task publishes everything in order over one connection, so a socket's frames
arrive in the order the owner sent them; what it has for one node at once goes in one
message, a line each.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

import orjson

from meldtour.core.refusal import Refused

from .game import ENCODE, Shared, Subscriber, text_of

log = logging.getLogger(__name__)

#: How long a lease (and a node's liveness key) lasts unless renewed, in seconds.
LEASE = 5.0
#: Seconds between renewals (and between looks for games whose owner died).
RENEW = 1.0
#: Seconds a request to another node waits for its answer.
REQUEST_TIMEOUT = 5.0

_RENEW_SCRIPT = """
local lost = {}
for i, k in ipairs(KEYS) do
  local v = redis.call('get', k)
  if v == ARGV[1] then
    redis.call('pexpire', k, ARGV[2])
  elseif not v then
    redis.call('set', k, ARGV[1], 'PX', ARGV[2])
  else
    table.insert(lost, i)
  end
end
return lost
"""

_RELEASE_SCRIPT = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""


class RemoteError(RuntimeError):
    """A request to another node failed: ``kind`` names the exception it raised there
    (``TableError``, ``Moved``: the node no longer owns the game, ``Timeout``), and
    ``code`` the refusal's code when it was one."""

    def __init__(self, kind: str, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.code = code


Handler = Callable[[str, dict[str, Any]], Awaitable[Any]]


#: Redis connections one node holds at most; a command beyond them waits up to
#: REDIS_WAIT seconds for one to be free.
REDIS_CONNECTIONS = 100
REDIS_WAIT = 10.0


class Cluster:
    """This node's link to the others: leases, requests and the channels."""

    def __init__(self, url: str, prefix: str | None = None, node: str | None = None) -> None:
        import redis.asyncio as aioredis

        self.url = url
        #: Keys and channels are named under it (``MELDTOUR_REDIS_PREFIX``, read with the
        #: settings: the processes of one site share it).
        self.prefix = prefix or "meldtour"
        self.node = node or secrets.token_hex(6)
        # A pool that waits for a free connection rather than failing: at 1,000 games on
        # two processes the joins' and sockets' lease look-ups at once took all 100 of
        # the default pool, and the next raised "Too many connections" (bench/server.py).
        pool = aioredis.BlockingConnectionPool.from_url(
            url, decode_responses=True, max_connections=REDIS_CONNECTIONS, timeout=REDIS_WAIT
        )
        self.redis = aioredis.Redis.from_pool(pool)  # closed with it
        self._pubsub: Any = None
        self._listener: asyncio.Task[None] | None = None
        self._writer: asyncio.Task[None] | None = None
        self._outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self._waiting: dict[str, asyncio.Future[Any]] = {}
        self._on_request: Handler | None = None
        self._on_message: Callable[[dict[str, Any]], None] | None = None
        #: This node's proxied sockets: their outbox by socket id.
        self.routes: dict[str, Subscriber] = {}
        #: Until this time (loop clock) a node without a liveness key counts as alive:
        #: Redis lost every key (a restart without persistence, a flush), and the other
        #: nodes have not written theirs again yet. See :meth:`beat`.
        self._amnesia_until = 0.0
        self._beaten = False
        self._renew = self.redis.register_script(_RENEW_SCRIPT)
        self._release = self.redis.register_script(_RELEASE_SCRIPT)

    # ------------------------------------------------------------ keys

    def lease_key(self, game_id: str) -> str:
        return f"{self.prefix}:lease:{game_id}"

    def channel(self, node: str) -> str:
        return f"{self.prefix}:node:{node}"

    def alive_key(self, node: str) -> str:
        return f"{self.prefix}:alive:{node}"

    # ------------------------------------------------------------ life

    async def start(
        self, on_request: Handler, on_message: Callable[[dict[str, Any]], None]
    ) -> None:
        """Listen on this node's channel; ``on_request(op, message)`` answers requests,
        ``on_message`` takes the one-way messages (``in``, ``unsub``)."""
        self._on_request, self._on_message = on_request, on_message
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(self.channel(self.node))
        await self.beat()
        loop = asyncio.get_running_loop()
        self._listener = loop.create_task(self._listen(), name="cluster listener")
        self._writer = loop.create_task(self._write(), name="cluster writer")

    async def close(self) -> None:
        for task in (self._listener, self._writer):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        with contextlib.suppress(Exception):
            await self.redis.delete(self.alive_key(self.node))
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    async def beat(self) -> None:
        """This node is alive (for :data:`LEASE` seconds). If its own key had gone
        before it ran out, Redis forgot everything: for a lease's time every node counts
        as alive, so that none drops another's sockets before that one beats again."""
        had = await self.redis.set(self.alive_key(self.node), "1", px=int(LEASE * 1000), get=True)
        if had is None and self._beaten:
            log.warning(
                "cluster: Redis lost this node's keys (restarted?); other nodes "
                "count as alive for %.0f s",
                LEASE,
            )
            self._amnesia_until = asyncio.get_running_loop().time() + LEASE
        self._beaten = True

    async def node_alive(self, node: str) -> bool:
        if await self.redis.exists(self.alive_key(node)):
            return True
        return asyncio.get_running_loop().time() < self._amnesia_until

    # ------------------------------------------------------------ leases

    async def acquire(self, game_id: str) -> bool:
        """Take the game's lease if nobody holds it."""
        return bool(
            await self.redis.set(self.lease_key(game_id), self.node, nx=True, px=int(LEASE * 1000))
        )

    async def owner(self, game_id: str) -> str | None:
        value = await self.redis.get(self.lease_key(game_id))
        return None if value is None else str(value)

    async def owners(self, game_ids: list[str]) -> list[str | None]:
        if not game_ids:
            return []
        values = await self.redis.mget([self.lease_key(g) for g in game_ids])
        return [None if v is None else str(v) for v in values]

    async def renew(self, game_ids: list[str]) -> list[str]:
        """Renew this node's leases; returns the games another node holds now."""
        if not game_ids:
            return []
        lost = await self._renew(
            keys=[self.lease_key(g) for g in game_ids], args=[self.node, int(LEASE * 1000)]
        )
        return [game_ids[int(i) - 1] for i in lost]

    async def release(self, game_id: str) -> None:
        await self._release(keys=[self.lease_key(game_id)], args=[self.node])

    # ------------------------------------------------------------ messages

    def post(self, node: str, message: dict[str, Any]) -> None:
        """Publish to a node, in order with everything posted before."""
        self._outbox.put_nowait((self.channel(node), ENCODE(message)))

    def post_out(self, node: str, sid: str, message: dict[str, Any]) -> None:
        """Publish a message for one socket of ``node`` (``{"t": "out"}``): around the
        message's own JSON text when it has one."""
        self._outbox.put_nowait((self.channel(node), f"{_OUT}{sid}{_OUT_M}{text_of(message)}}}"))

    async def request(self, node: str, op: str, game_id: str, **args: Any) -> Any:
        """Ask ``node`` to do ``op`` on a game it owns; its answer or :class:`RemoteError`."""
        rid = secrets.token_hex(8)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting[rid] = future
        try:
            self.post(
                node, {"t": "req", "rid": rid, "from": self.node, "op": op, "gid": game_id, **args}
            )
            try:
                return await asyncio.wait_for(future, REQUEST_TIMEOUT)
            except TimeoutError:
                raise RemoteError("Timeout", f"node {node} did not answer {op}") from None
        finally:
            self._waiting.pop(rid, None)

    async def _write(self) -> None:
        while True:
            channel, data = await self._outbox.get()
            batch = [(channel, data)]
            while not self._outbox.empty() and len(batch) < 512:
                batch.append(self._outbox.get_nowait())
            # One PUBLISH a channel: the channel's messages of the batch in order, one a
            # line (JSON text holds no raw newline) — a thousand relayed frames a second
            # were as many commands for Redis and messages for the listener to parse.
            lines: dict[str, list[str]] = {}
            for ch, d in batch:
                lines.setdefault(ch, []).append(d)
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for ch, ds in lines.items():
                        pipe.publish(ch, "\n".join(ds))
                    await pipe.execute()
            except Exception:
                log.exception("cluster: %d messages could not be published", len(batch))

    async def _listen(self) -> None:
        while True:
            try:
                async for raw in self._pubsub.listen():
                    if raw.get("type") != "message":
                        continue
                    data = raw["data"]
                    if isinstance(data, str):
                        for line in data.split("\n"):
                            self._read(line)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("cluster: the channel failed; listening again")
                await asyncio.sleep(0.5)
                with contextlib.suppress(Exception):
                    await self._pubsub.subscribe(self.channel(self.node))

    def _read(self, data: str) -> None:
        """One message off the channel: a socket's (its text passed on as it is), or
        any other."""
        out = out_of(data)
        if out is not None:
            sub = self.routes.get(out[0])
            if sub is not None:
                sub.send(out[1])
            return
        try:  # the standard library: a client's number exactly as it sent it
            message = json.loads(data)
        except ValueError:
            return
        if isinstance(message, dict):
            self._take(message)

    def _take(self, message: dict[str, Any]) -> None:
        kind = message.get("t")  # a socket's ("out") is read by :func:`out_of`
        if kind == "rep":
            future = self._waiting.get(str(message.get("rid")))
            if future is not None and not future.done():
                if message.get("ok"):
                    future.set_result(message.get("value"))
                else:
                    code = message.get("code")
                    future.set_exception(
                        RemoteError(
                            str(message.get("kind")),
                            str(message.get("error")),
                            code if isinstance(code, str) else None,
                        )
                    )
        elif kind == "req":
            asyncio.get_running_loop().create_task(self._answer(message))
        elif self._on_message is not None:
            self._on_message(message)

    async def _answer(self, message: dict[str, Any]) -> None:
        assert self._on_request is not None
        reply: dict[str, Any] = {"t": "rep", "rid": message.get("rid")}
        try:
            reply["value"] = await self._on_request(str(message.get("op")), message)
            reply["ok"] = True
        except Exception as exc:
            reply.update(ok=False, kind=type(exc).__name__, error=str(exc))
            if isinstance(exc, Refused):
                reply["code"] = exc.code
        self.post(str(message.get("from")), reply)


class RemoteSubscriber(Subscriber):
    """At the owner: a socket connected to another node. What the owner sends it is
    published to that node, which hands it to the socket."""

    def __init__(self, cluster: Cluster, node: str, sid: str, seat: int | None) -> None:
        super().__init__(seat)
        self.cluster, self.node, self.sid = cluster, node, sid

    def send(self, message: dict[str, Any]) -> None:
        if not self.closed:
            self.cluster.post_out(self.node, self.sid, message)


_OUT = '{"t":"out","sid":"'
_OUT_M = '","m":'


def out_of(data: Any) -> tuple[str, Shared] | None:
    """A ``{"t": "out"}`` envelope's socket id and message (its text kept with it:
    the socket sends that text), or None for any other message. The message's text
    is cut out of the envelope, not re-encoded; a socket id is hex (``LiveServer``).
    The owner made the message, so orjson reads it (an integer past 64 bits, which no
    frame holds, would come out a float in the dict; the text sent stays exact)."""
    if not isinstance(data, str) or not data.startswith(_OUT):
        return None
    end = data.find('"', len(_OUT))
    if end < 0 or not data.startswith(_OUT_M, end) or not data.endswith("}"):
        return None
    text = data[end + len(_OUT_M) : -1]
    try:
        value = orjson.loads(text)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(value, dict):
        return None
    message = Shared(value)
    message.text = text
    return data[len(_OUT) : end], message


__all__ = ["LEASE", "RENEW", "Cluster", "RemoteError", "RemoteSubscriber", "out_of"]
