"""Redis restarted under two server processes (the scale-out of ``live/cluster.py``).

Two uvicorn processes on one PostgreSQL database and a PRIVATE ``redis-server`` (its
own free port, no persistence: a restart loses every lease, liveness key and
subscription — the machine's shared Redis on 6379 is never touched). A four-seat game
is made on A; one person plays through A, one through B (moves forwarded to A), a
spectator watches on B, two computer players play on A. After a few moves across the
processes, while everyone keeps playing, the redis-server is stopped, left down for
longer than a lease, and started again on the same port. The game must go on to its
end within a bound; a client that hears nothing for a while asks to resync
(``hello`` with its version) and must be answered; every frame any client got must be
the logged game's state at that version (nothing shown was lost, no fork); the moves
logged before the outage are still the log's first moves; the log replays legally
(each move once); no frame shows a tile its reader may not see."""

from __future__ import annotations

import asyncio
import json
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
import redis
import websockets

from meldtour.core.melds import format_board
from meldtour.core.record import move_to_json
from meldtour.core.tiles import format_tiles
from meldtour.core.views import view_from_json
from meldtour.store import games
from meldtour.store.db import open_store
from tests.live.test_cluster import Client, replay, two_apps
from tests.live.test_durable import RULES, TURN, App
from tests.live.test_hidden import hidden_tiles
from tests.store.backends import database

from .servers import free_port

SPLIT_AT = 6  # moves before the outage, at least
DOWN = 7.0  # seconds Redis stays down (longer than a lease: LEASE = 5 s)
STALL = 4.0  # seconds of silence before a client asks to resync
BOUND = 150.0  # seconds from the restart to the game's end, at most


class PrivateRedis:
    """``redis-server`` on its own port, no RDB, no AOF: a restart starts empty."""

    def __init__(self, where: Path) -> None:
        self.port = free_port()
        self.where = where
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.starts += 1
        out = (self.where / f"redis-{self.port}-{self.starts}.log").open("wb")
        self.proc = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.where),
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 15
        while True:
            try:
                if redis.Redis.from_url(self.url, socket_connect_timeout=1).ping():
                    return
            except redis.RedisError:
                pass
            assert self.proc.poll() is None, "redis-server exited"
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)


class Player(Client):
    """A test_cluster client that resyncs after :data:`STALL` seconds of silence and
    reconnects (to its own process) when its socket is closed."""

    def __init__(self, game_id: str, seat: int | None, token: str | None, app: App) -> None:
        super().__init__(game_id, seat, token)
        self.app = app
        self.resyncs = 0
        self.reconnects = 0

    async def play(self, until: Callable[[Client], bool]) -> None:
        while not until(self):
            try:
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
                try:
                    raw = await asyncio.wait_for(self.ws.recv(), STALL)
                except TimeoutError:
                    self.resyncs += 1
                    self.sent.discard(self.version)  # the move may have been lost
                    await self.ws.send(json.dumps({"type": "hello", "version": self.version}))
                    continue
            except websockets.ConnectionClosed:
                self.reconnects += 1
                self.sent.discard(self.version)
                await asyncio.sleep(0.5)
                await self.connect(self.app)
                continue
            message = json.loads(raw)
            if message["type"] == "stale":  # a resent move its first copy beat
                continue
            self.take(message)


@pytest.fixture
def pg_url(tmp_path: Path) -> Iterator[str]:
    with database("postgresql", tmp_path) as url:
        yield url


def test_redis_restart_under_two_processes(pg_url: str, tmp_path: Path) -> None:
    asyncio.run(_restart(pg_url, tmp_path))


def logged_moves(url: str, gid: str) -> list[Any]:
    store = open_store(url)
    try:
        logged = games.load_game(store, gid)
        assert logged is not None
        return list(logged.moves)
    finally:
        store.close()


async def _restart(url: str, tmp_path: Path) -> None:
    rs = PrivateRedis(tmp_path)
    rs.start()
    a, b = two_apps(url, tmp_path, rs.url)
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
            joined = await http_a.post(f"/play/t/{gid}/join", data={"seat": "0", "name": "Ann"})
            token0 = joined.cookies[f"meldtour_seat_{gid}"]
            joined = await http_b.post(f"/play/t/{gid}/join", data={"seat": "1", "name": "Bo"})
            token1 = joined.cookies[f"meldtour_seat_{gid}"]

        ann, bo = Player(gid, 0, token0, a), Player(gid, 1, token1, b)
        watcher = Player(gid, None, None, b)
        for c in (ann, bo, watcher):
            await c.connect(c.app)

        def ended(c: Client) -> bool:
            return c.view is not None and c.view["end"] is not None

        play = asyncio.gather(*(c.play(ended) for c in (ann, bo, watcher)))
        deadline = time.monotonic() + 60
        while min(ann.version, bo.version) < SPLIT_AT:
            assert not play.done(), play
            assert time.monotonic() < deadline, (ann.version, bo.version)
            await asyncio.sleep(0.1)
        assert any(m["type"] == "ack" for m in bo.received) or bo.version >= SPLIT_AT
        before = logged_moves(url, gid)
        assert len(before) >= SPLIT_AT

        # Redis goes away while everyone plays on, then comes back empty.
        rs.stop()
        down_at = time.monotonic()
        await asyncio.sleep(DOWN)
        during = logged_moves(url, gid)
        rs.start()
        restarted_at = time.monotonic()
        await asyncio.wait_for(play, BOUND)
        ended_after = time.monotonic() - restarted_at
        for c in (ann, bo, watcher):
            await c.ws.close()
    finally:
        a.stop()
        b.stop()
        rs.stop()

    store = open_store(url)
    try:
        logged = games.load_game(store, gid)
        assert games.unfinished_games(store) == []
    finally:
        store.close()
    assert logged is not None and logged.result is not None
    moves = list(logged.moves)
    assert moves[: len(before)] == before, "moves logged before the outage were lost"
    assert moves[: len(during)] == during, "moves logged during the outage were lost"
    states = replay(logged)  # each move legal in turn: none applied twice
    final = states[-1]
    assert final.end is not None
    assert ann.view is not None and bo.view is not None
    assert (
        ann.view["scores"]
        == bo.view["scores"]
        == list(final.scores or ())
        == logged.result["scores"]
    )
    assert bo.view["rack"] == format_tiles(final.racks[1])
    # Every state any client was shown is the logged game's at that version.
    for client in (ann, bo, watcher):
        for message in client.received:
            v, view = message.get("version"), message.get("view")
            if not isinstance(v, int) or not isinstance(view, dict):
                continue
            assert 0 <= v < len(states), (client.seat, v, len(states))
            assert view["board"] == format_board(states[v].board), (client.seat, v)
            if client.seat is not None:
                assert view["rack"] == format_tiles(states[v].racks[client.seat]), (client.seat, v)
            around = [states[v], states[max(v - 1, 0)]]
            assert not hidden_tiles(client.seat, message, around), (client.seat, message)
    print(
        f"\nredis down {DOWN:.0f} s at move {len(before)} (moves logged meanwhile: "
        f"{len(during) - len(before)}); game over {ended_after:.1f} s after the restart, "
        f"{len(moves)} moves; resyncs ann {ann.resyncs} bo {bo.resyncs} "
        f"watcher {watcher.resyncs}; "
        f"reconnects {ann.reconnects + bo.reconnects + watcher.reconnects}; "
        f"down-to-end {time.monotonic() - down_at:.1f} s"
    )
