"""Scale-out: two real server processes (uvicorn) on one PostgreSQL database and one
Redis, sharing a game. One person sits down and plays through process A (the game's
owner), the other through process B (its moves forwarded to A, its frames relayed
back), a spectator watches on B, two computer players play on A. Both people see the
same table at every version; no message to anyone holds a tile they may not see.

Then A is killed with SIGKILL: B takes the game over (its lease runs out), rebuilds it
from the log, the person on B gets a snapshot of the same game without reconnecting,
the person on A reconnects to B, and the game is played to its end, every move in the
log once."""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
import redis
import websockets

from meldtour.core.game import apply, new_game
from meldtour.core.melds import format_board
from meldtour.core.record import move_to_json, read_record
from meldtour.core.state import GameState
from meldtour.core.tiles import format_tiles
from meldtour.core.views import view_from_json
from meldtour.players.levels import make_player
from meldtour.solver import finder
from meldtour.store import games
from meldtour.store.db import open_store

from .test_durable import BOT_SECONDS, RULES, TURN, App
from .test_hidden import hidden_tiles

REDIS = "redis://127.0.0.1:6379/0"
SPLIT_AT = 10  # moves played before the owner is killed, at least


def redis_available() -> bool:
    try:
        return bool(redis.Redis.from_url(REDIS, socket_connect_timeout=2).ping())
    except redis.RedisError:
        return False


def two_apps(url: str, tmp_path: Path, redis_url: str = REDIS) -> tuple[App, App]:
    """Two server processes on the database at ``url`` sharing games through Redis, with
    a key prefix of their own (tests running side by side never meet), their computer
    players quick (:data:`.test_durable.BOT_SECONDS`)."""
    env = {
        "MELDTOUR_REDIS_URL": redis_url,
        "MELDTOUR_REDIS_PREFIX": f"t{uuid.uuid4().hex[:10]}",
        "MELDTOUR_BOT_SECONDS": BOT_SECONDS,
    }
    return App(url, tmp_path, **env), App(url, tmp_path, **env)


class Client:
    """A socket of one seat (None: a spectator); a person's moves are a greedy
    player's, decided from what the socket says. Every message is kept."""

    def __init__(self, game_id: str, seat: int | None, token: str | None) -> None:
        self.game_id, self.seat, self.token = game_id, seat, token
        self.player = make_player("greedy", f"p{seat}", 5 + (seat or 0))
        self.view: dict[str, Any] | None = None
        self.version = -1
        self.sent: set[int] = set()
        self.received: list[dict[str, Any]] = []
        self.snapshots = 0
        self.n = 0
        self.ws: Any = None

    async def connect(self, app: App) -> None:
        url = f"ws://127.0.0.1:{app.port}/play/t/{self.game_id}/ws"
        headers = {"Cookie": f"meldtour_seat_{self.game_id}={self.token}"} if self.token else {}
        self.ws = await websockets.connect(url, additional_headers=headers, open_timeout=40)

    def take(self, message: dict[str, Any]) -> None:
        self.received.append(message)
        kind = message["type"]
        assert kind not in ("refused", "error"), message
        if kind == "snapshot":
            self.snapshots += 1
        if kind in ("snapshot", "frame", "synced") and message.get("view") is not None:
            self.view, self.version = message["view"], message["version"]
            if kind == "snapshot":
                self.sent.discard(self.version)  # a new owner: what was sent may be lost

    def my_turn(self) -> bool:
        v = self.view
        return (
            self.seat is not None
            and v is not None
            and v["end"] is None
            and v["current"] == self.seat
            and self.version not in self.sent
        )

    async def play(self, until: Any) -> None:
        while not until(self):
            if self.my_turn():
                assert self.view is not None
                move = self.player.decide(view_from_json(self.view, RULES))
                self.n += 1
                self.sent.add(self.version)
                await self.ws.send(
                    json.dumps(
                        {
                            "type": "move",
                            "id": f"{self.seat}.{self.n}",
                            "version": self.version,
                            **move_to_json(move),
                        }
                    )
                )
            self.take(await self.next_message())

    async def next_message(self, wait: float = 30) -> dict[str, Any]:
        """The socket's next message; on a silence of ``wait`` seconds, a failure that
        says where this client was (a flake seen once on CI timed out here, no more)."""
        try:
            return dict(json.loads(await asyncio.wait_for(self.ws.recv(), wait)))
        except TimeoutError:
            v = self.view or {}
            last = [(m.get("type"), m.get("version")) for m in self.received[-6:]]
            raise AssertionError(
                f"seat {self.seat}: nothing for {wait} s at version {self.version} "
                f"(current {v.get('current')}, end {v.get('end')}, sent at {sorted(self.sent)}"
                f"; last messages {last})"
            ) from None


def replay(logged: games.StoredGame) -> list[GameState]:
    header = logged.header
    record = read_record(
        {k: header[k] for k in ("rules", "players", "seed", "deal") if k in header}
        | {"moves": logged.moves}
    )
    state = new_game(
        record.rules, record.players, record.seed, deal=record.deal, now=header["started_at"]
    ).state
    states = [state]
    for move in record.moves:
        state = apply(state, move, finder=finder).state
        states.append(state)
    return states


def test_two_processes_share_a_game_and_one_takes_over(pg_url: str, tmp_path: Path) -> None:
    asyncio.run(_two_processes(pg_url, tmp_path))


async def _two_processes(url: str, tmp_path: Path) -> None:
    a, b = two_apps(url, tmp_path)
    try:
        async with (
            httpx.AsyncClient(base_url=a.base) as http_a,
            httpx.AsyncClient(base_url=b.base) as http_b,
        ):
            made = await http_a.post(
                "/play/tables",
                data={
                    "preset": "standard",
                    "turn_seconds": str(TURN),
                    "seat_count": "4",
                    "seat0": "human",
                    "seat1": "human",
                    "seat2": "greedy",
                    "seat3": "beginner",
                },
            )
            assert made.status_code == 303, made.text
            gid = made.headers["location"].rsplit("/", 1)[1]
            # The table page on B shows A's table.
            page = await http_b.get(f"/play/t/{gid}")
            assert page.status_code == 200, page.text
            joined = await http_a.post(f"/play/t/{gid}/join", data={"seat": "0", "name": "Ann"})
            token0 = joined.cookies[f"meldtour_seat_{gid}"]
            # Seat 1 is taken through B: forwarded to the owner.
            joined = await http_b.post(f"/play/t/{gid}/join", data={"seat": "1", "name": "Bo"})
            token1 = joined.cookies[f"meldtour_seat_{gid}"]
            taken = await http_b.post(f"/play/t/{gid}/join", data={"seat": "1", "name": "Eve"})
            assert "error=taken" in taken.headers["location"]

        ann, bo, watcher = Client(gid, 0, token0), Client(gid, 1, token1), Client(gid, None, None)
        await ann.connect(a)
        await bo.connect(b)
        await watcher.connect(b)

        await asyncio.gather(
            ann.play(lambda c: c.version >= SPLIT_AT),
            bo.play(lambda c: c.version >= SPLIT_AT),
            watcher.play(lambda c: c.version >= SPLIT_AT),
        )
        # Both people, on two processes, see the same table.
        while bo.version < ann.version or ann.version < bo.version or watcher.version < ann.version:
            lagging = min((ann, bo, watcher), key=lambda c: c.version)
            lagging.take(await lagging.next_message())
        assert ann.view is not None and bo.view is not None and watcher.view is not None
        for key in ("board", "rack_sizes", "pool_left", "melded", "current", "turn_no"):
            assert ann.view[key] == bo.view[key] == watcher.view[key], key
        assert ann.view["rack"] != bo.view["rack"]
        assert not watcher.view.get("rack")
        assert any(m["type"] == "ack" for m in bo.received)  # B's person moved

        # The owner dies. B takes the game over; the person on B follows it there.
        a.kill()
        with pytest.raises(websockets.ConnectionClosed):
            while True:
                ann.take(json.loads(await asyncio.wait_for(ann.ws.recv(), 10)))
        before = bo.snapshots
        killed_at = time.monotonic()
        ann.sent.clear()
        await ann.connect(b)  # the person on A comes back through B
        await asyncio.gather(
            ann.play(lambda c: c.view is not None and c.view["end"] is not None),
            bo.play(lambda c: c.view is not None and c.view["end"] is not None),
            watcher.play(lambda c: c.view is not None and c.view["end"] is not None),
        )
        assert bo.snapshots > before  # it followed the game without reconnecting
        assert time.monotonic() - killed_at < 120
        for c in (ann, bo, watcher):
            await c.ws.close()
    finally:
        a.stop()
        b.stop()

    store = open_store(url)
    try:
        logged = games.load_game(store, gid)
        assert games.unfinished_games(store) == []
    finally:
        store.close()
    assert logged is not None and logged.result is not None
    states = replay(logged)
    final = states[-1]
    assert final.end is not None
    assert ann.view is not None and bo.view is not None
    assert (
        ann.view["scores"]
        == bo.view["scores"]
        == list(final.scores or ())
        == logged.result["scores"]
    )
    assert ann.view["board"] == format_board(final.board)
    assert bo.view["rack"] == format_tiles(final.racks[1])
    # No tile anyone may not see, in any message either process sent.
    for client in (ann, bo, watcher):
        for message in client.received:
            v = message.get("version")
            if not isinstance(v, int) or not 0 <= v < len(states):
                continue
            around = [states[v], states[max(v - 1, 0)]]
            assert not hidden_tiles(client.seat, message, around), (client.seat, message)
