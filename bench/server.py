"""The game server's figures: N concurrent games of 4 simulated players each, every
player a computer player driving its own real WebSocket, on one server process.

    .venv/bin/python bench/server.py [--games 200] [--seconds 60] [--think 2.0]
                                     [--level beginner] [--clients 1] [--db URL]
                                     [--servers 1] [--redis URL] [--deflate] [--ws PROTOCOL]
                                     [--client-ws picows|websockets] [--client-nice N]

The server is the real app (``uvicorn meldtour.web.app:create_app --factory``, one
process; its WebSockets without per-message deflate, as ``python -m meldtour.web``
serves them, or with it: ``--deflate``) on a free port of 127.0.0.1, logging every move
to a temporary SQLite database (or ``--db``, e.g. PostgreSQL). Each game is a table of 4
person seats created and joined over HTTP; each seat's client waits ``think`` seconds
(uniform 0.5×–1.5×) on its turn, asks a computer player of ``--level`` for the move, and
sends it, as the page does, asking for its ack in its own frame (``"ack": "frame"``; a
server before that answers with an ``ack`` message, also counted). A game that ends is
replaced by a new one, so N games stay in play. The round
trip of a move is from sending it to its ``ack``: the engine's check, the log's
committed transaction, the broadcast; it is measured once every game has started (after
``--ramp`` seconds, during which the tables are created and joined), for ``--seconds``.
Bounded: at most 500 games (1,000 with ``--servers 2``), 600 s in all (with ``--soak``,
500 games and 1,260 s), traffic only to 127.0.0.1.

``--servers 2`` runs two server processes on the same database (use PostgreSQL:
``--db``) sharing the games through Redis (``--redis``, keys under a prefix of the run):
tables are made on each in turn, and seats 1 and 3 of every game play through the
other process, so half of the moves cross between them.

The simulated players read their frames on picows (``--client-ws picows``: a callback a
frame, no task or future a message; ``websockets``, the library's asyncio client, as
before) and share the machine's cores with what they measure: ``--client-nice 10``
gives the servers, the database and Redis the cores first, as on a site whose players
are on their own devices (a player's own wait to read its answer stays in the round
trip).

``--soak SECONDS`` is the long run: the server's resident memory sampled every
SECONDS, and the round trips quoted per minute as well as over the whole window.

Prints one Markdown table row (and a JSON line with everything measured).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import multiprocessing as mp
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx2 as httpx
import orjson
import websockets
from picows import WSFrame, WSListener, WSMsgType, WSTransport, ws_connect

from meldtour.core.record import move_to_json
from meldtour.core.rules import find_rules
from meldtour.core.views import view_from_json
from meldtour.players.levels import make_player
from meldtour.web.limits import WS_PROTOCOL

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
MAX_GAMES = 500
MAX_GAMES_SHARED = 1000  # with --servers 2: 500 a process (issue 29's 1,000 games)
MAX_SECONDS = 600.0
MAX_SOAK_GAMES = 500  # with --soak: twice the aim's 200 games, for up to 20 minutes
MAX_SOAK_SECONDS = 1260.0
PRESET = "standard"
ADDRESSES = 100
LOOPS = ("auto", "asyncio", "uvloop")  # --loop and --client-loop: auto is uvloop where installed
# uvicorn's --ws; the default is the product's (python -m meldtour.web): limits.WS_PROTOCOL
WS_IMPLEMENTATIONS = ("auto", "websockets", "websockets-sansio", "wsproto")
TURN = 600  # the longest turn a table allows: the bench measures the server, not time-outs


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


class Stats:
    def __init__(self) -> None:
        self.rtt: list[tuple[float, float]] = []  # (when answered, round trip)
        self.moves = 0
        self.games_started = 0
        self.games_finished = 0
        self.refused = 0
        self.stale = 0
        self.timeouts = 0
        self.errors: list[str] = []
        self.measure_from = 0.0
        self.started_at: list[float] = []  # when each table's seats all joined


class Seat:
    """One simulated player's reading of its frames, whichever client reads them: the
    round trips it counts, and when (on which view) it is to move."""

    def __init__(self, seat: int, level: str, stats: Stats, rng: random.Random) -> None:
        self.seat, self.stats = seat, stats
        self.player = make_player(level, f"p{seat}", rng.randrange(1 << 30))
        self.sent: dict[str, float] = {}
        self.answered: set[int] = set()
        self.n = 0

    def read(self, m: dict[str, Any]) -> bool | tuple[int, dict[str, Any]] | None:
        """True when the game is over; ``(version, view)`` when the seat is to move on
        that view (once a version); else None."""
        now = time.monotonic()
        stats = self.stats
        kind = m["type"]
        if kind == "ack" or (kind == "frame" and "ack" in m):  # the page's folded ack
            t0 = self.sent.pop(m["ack"] if kind == "frame" else m["id"], None)
            if t0 is not None:
                stats.moves += 1
                if t0 >= stats.measure_from:  # after the ramp: games in play
                    stats.rtt.append((now, now - t0))
            if kind == "ack":
                return None
        if kind == "refused":
            stats.refused += 1
            return None
        if kind == "stale":
            stats.stale += 1
            return None
        if kind == "frame" and self.seat == 0:
            stats.timeouts += sum(e["kind"] == "timeout" for e in m["events"])
        view = m.get("view")
        if kind not in ("snapshot", "frame", "synced") or view is None:
            return None
        if view["end"] is not None:
            return True
        version = m["version"]
        if view["current"] != self.seat or version in self.answered:
            return None
        self.answered.add(version)
        return version, view

    def move(self, version: int, view: dict[str, Any]) -> bytes:
        """The computer player's move on ``view``, as the page sends it (its ack asked
        for in its own frame), its round trip's clock started."""
        move = self.player.decide(view_from_json(view, find_rules(PRESET)))
        self.n += 1
        rid = f"{self.seat}.{self.n}"
        self.sent[rid] = time.monotonic()
        return orjson.dumps(
            {"type": "move", "id": rid, "version": version, **move_to_json(move), "ack": "frame"}
        )


def _socket_of(base: str, game_id: str, token: str) -> tuple[str, dict[str, str]]:
    """A seat's WebSocket address and its seat cookie."""
    url = base.replace("http://", "ws://") + f"/play/t/{game_id}/ws"
    return url, {"Cookie": f"meldtour_seat_{game_id}={token}"}


async def seat_client_websockets(
    base: str,
    game_id: str,
    seat: int,
    token: str,
    level: str,
    think: float,
    stop_at: float,
    stats: Stats,
    rng: random.Random,
) -> bool:
    """One player on its socket (the websockets library's asyncio client) until the
    game ends (True) or the time is up."""
    reader = Seat(seat, level, stats, rng)
    url, cookie = _socket_of(base, game_id, token)
    async with websockets.connect(
        url, additional_headers=cookie, max_size=2**22, open_timeout=60, ping_interval=None
    ) as ws:
        # One deadline for the whole game, not a wait_for (a task and a timer) a frame.
        loop = asyncio.get_running_loop()
        try:
            async with asyncio.timeout_at(loop.time() + stop_at - time.monotonic()):
                while True:
                    got = reader.read(orjson.loads(await ws.recv()))
                    if got is True:
                        return True
                    if got:
                        await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                        await ws.send(reader.move(*got).decode())
        except (TimeoutError, websockets.ConnectionClosed):
            return False


class SeatListener(WSListener):  # type: ignore[misc]
    """One player on a picows socket: every frame is read in the frame's own callback,
    and its move is made by a timer ``think`` seconds later, on the freshest view it
    has by then."""

    def __init__(self, reader: Seat, think: float, rng: random.Random) -> None:
        self.reader, self.think, self.rng = reader, think, rng
        self.loop = asyncio.get_running_loop()
        self.done: asyncio.Future[bool] = self.loop.create_future()
        self.transport: WSTransport | None = None
        self.pending: tuple[int, dict[str, Any]] | None = None  # what a timer will answer
        self.parts = bytearray()

    def on_ws_connected(self, transport: WSTransport) -> None:
        self.transport = transport

    def on_ws_disconnected(self, transport: WSTransport) -> None:
        self.end(False)

    def end(self, result: bool) -> None:
        if not self.done.done():
            self.done.set_result(result)
        if self.transport is not None and not self.transport.is_disconnected:
            self.transport.disconnect()

    def on_ws_frame(self, transport: WSTransport, frame: WSFrame) -> None:
        kind = frame.msg_type
        if kind == WSMsgType.CLOSE:
            transport.send_close(frame.get_close_code())
            self.end(False)
            return
        if kind not in (WSMsgType.TEXT, WSMsgType.CONTINUATION):
            return
        if not frame.fin:  # a message in parts: kept until its last frame
            self.parts += frame.get_payload_as_memoryview()
            return
        if self.parts:
            self.parts += frame.get_payload_as_memoryview()
            raw: bytes | bytearray = self.parts
            self.parts = bytearray()
        else:
            raw = frame.get_payload_as_bytes()
        got = self.reader.read(orjson.loads(raw))
        if got is True:
            self.end(True)
        elif got:
            if self.pending is None:
                self.loop.call_later(self.think * self.rng.uniform(0.5, 1.5), self._move)
            self.pending = got

    def _move(self) -> None:
        if self.pending is None or self.transport is None or self.done.done():
            return
        got, self.pending = self.pending, None
        self.transport.send(WSMsgType.TEXT, self.reader.move(*got))


async def seat_client_picows(
    base: str,
    game_id: str,
    seat: int,
    token: str,
    level: str,
    think: float,
    stop_at: float,
    stats: Stats,
    rng: random.Random,
) -> bool:
    """:func:`seat_client_websockets` on picows."""
    reader = Seat(seat, level, stats, rng)
    url, cookie = _socket_of(base, game_id, token)
    transport, listener = await ws_connect(
        lambda: SeatListener(reader, think, rng),
        url,
        extra_headers=cookie,
        websocket_handshake_timeout=60,
        max_frame_size=2**22,
    )
    assert isinstance(listener, SeatListener)
    ends = listener.loop.call_later(max(0.0, stop_at - time.monotonic()), listener.end, False)
    try:
        return await listener.done
    finally:
        ends.cancel()
        if not transport.is_disconnected:
            transport.disconnect()


#: The seat client each ``--client-ws`` names: picows (Cython, a callback a frame: no
#: task, no future, no stream a message) or the websockets library's asyncio client.
SEAT_CLIENTS = {"picows": seat_client_picows, "websockets": seat_client_websockets}


async def one_table(
    http: httpx.AsyncClient,
    others: list[str],
    level: str,
    think: float,
    stop_at: float,
    stats: Stats,
    rng: random.Random,
    client_ws: str = "picows",
) -> None:
    """Tables one after another, each played to its end, until the time is up.
    ``others[0]`` is the server the table is made on; each seat plays on a socket of
    ``client_ws`` (:data:`SEAT_CLIENTS`)."""
    seat_client = SEAT_CLIENTS[client_ws]
    while time.monotonic() < stop_at:
        made = await http.post(
            "/play/tables",
            data={
                "preset": PRESET,
                "turn_seconds": str(TURN),
                "seat_count": "4",
                "seat0": "human",
                "seat1": "human",
                "seat2": "human",
                "seat3": "human",
            },
        )
        if made.status_code != 303:
            stats.errors.append(f"create {made.status_code}")
            return
        gid = made.headers["location"].rsplit("/", 1)[1]
        tokens = []
        for seat in range(4):
            joined = await http.post(
                f"/play/t/{gid}/join", data={"seat": str(seat), "name": f"p{seat}"}
            )
            token = joined.cookies.get(f"meldtour_seat_{gid}")
            if token is None:
                stats.errors.append(
                    f"join {joined.status_code} "
                    f"{joined.headers.get('location')} {joined.text[:100]}"
                )
                return
            tokens.append(token)
        stats.games_started += 1
        stats.started_at.append(time.monotonic())
        # With two servers, seats 1 and 3 play through the other process: their moves
        # and frames cross between the processes through Redis.
        results = await asyncio.gather(
            *(
                seat_client(
                    others[s % len(others)], gid, s, tokens[s], level, think, stop_at, stats, rng
                )
                for s in range(4)
            ),
            return_exceptions=True,
        )
        for r in results:
            if isinstance(r, BaseException):
                stats.errors.append(repr(r)[:200])
        if all(r is True for r in results):
            stats.games_finished += 1
        elif any(isinstance(r, BaseException) for r in results):
            return


async def clients(
    base: str,
    games: int,
    level: str,
    think: float,
    seconds: float,
    ramp: float,
    seed: int,
    client_ws: str = "picows",
    begin: float | None = None,
) -> dict[str, Any]:
    """``base``: one server's URL, or several joined by ``|`` (tables are made on each
    in turn). ``begin``: the run's start (``time.monotonic()``, the same clock in every
    process), so that every client process ramps, measures and stops on one schedule
    however long it took to start; None: now."""
    cpu0 = time.process_time()
    pauses = collector_pauses()
    freezer = asyncio.create_task(freeze_survivors())
    stats = Stats()
    if begin is None:
        begin = time.monotonic()
    ready = time.monotonic() - begin
    await asyncio.sleep(max(0.0, begin - time.monotonic()))
    stats.measure_from = begin + ramp
    stop_at = begin + ramp + seconds
    bases = base.split("|")
    # The lobby lets one client address open 30 tables in 10 minutes: the tables come
    # from ADDRESSES loopback addresses of their own (127.0.S.2 ...), each opening a few.
    https = [
        [
            httpx.AsyncClient(
                base_url=b,
                timeout=60,
                limits=httpx.Limits(max_connections=16),
                transport=httpx.AsyncHTTPTransport(local_address=f"127.0.{seed % 250}.{j + 2}"),
            )
            for j in range(ADDRESSES)
        ]
        for b in bases
    ]
    try:

        async def start(i: int) -> None:
            await asyncio.sleep(max(0.0, begin + ramp * i / max(games, 1) - time.monotonic()))
            k = i % len(bases)
            try:
                await one_table(
                    https[k][i % ADDRESSES],
                    bases[k:] + bases[:k],
                    level,
                    think,
                    stop_at,
                    stats,
                    random.Random(seed * 100_003 + i),
                    client_ws,
                )
            except Exception as exc:  # a table that could not be made or joined
                stats.errors.append(repr(exc)[:200])

        await asyncio.gather(*(start(i) for i in range(games)))
    finally:
        freezer.cancel()
        for row in https:
            for http in row:
                await http.aclose()
    return {
        "rtt": stats.rtt,
        "moves": stats.moves,
        "started": stats.games_started,
        "finished": stats.games_finished,
        "refused": stats.refused,
        "stale": stats.stale,
        "timeouts": stats.timeouts,
        "errors": stats.errors[:20],
        "cpu": time.process_time() - cpu0,
        "gc": pauses,
        "started_at": [t - begin for t in stats.started_at],
        "ready": ready,
    }


#: Seconds the client processes are given to start (spawned, their modules imported)
#: before the run's schedule begins.
CLIENT_START = 5.0


#: The load generator moves what survived out of its collector's sight this often (s).
CLIENT_FREEZE_EVERY = 5.0


async def freeze_survivors() -> None:
    """The simulated players' collector, as the server's (``live.server.tune_gc``): what
    survived is frozen every :data:`CLIENT_FREEZE_EVERY` seconds, so a full pass scans
    only the last seconds' objects. Without it a client process of 250 tables paused up
    to 257 ms for a full pass, and every move acked meanwhile counted that pause as the
    server's (the run is bounded: what a frozen cycle keeps is freed at the exit)."""
    gc.freeze()
    while True:
        await asyncio.sleep(CLIENT_FREEZE_EVERY)
        gc.freeze()


def collector_pauses() -> list[tuple[int, float]]:
    """The collector's passes in this process from now on, as (generation, seconds): the
    load generator's own pauses hold a round trip's end as the server's would."""
    pauses: list[tuple[int, float]] = []
    began = [0.0]

    def note(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            began[0] = time.perf_counter()
        else:
            pauses.append((info["generation"], time.perf_counter() - began[0]))

    gc.callbacks.append(note)
    return pauses


def client_process(args: tuple[Any, ...]) -> dict[str, Any]:
    """One client process's share; its last arguments its niceness (``--client-nice``),
    the event loop (``--client-loop``) and the run's start (``clients``' ``begin``)."""
    *rest, nice, loop, begin = args
    if nice:
        os.nice(nice)
    if loop != "asyncio":
        try:
            import uvloop
        except ImportError:
            if loop == "uvloop":
                raise
        else:
            return uvloop.run(clients(*rest, begin=begin))
    return asyncio.run(clients(*rest, begin=begin))


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mib(pid: int) -> float:
    """The process's resident set in MiB (``VmRSS``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return float("nan")


def per_minute(rtt: list[tuple[float, float]], start: float) -> list[dict[str, Any]]:
    """The round trips by minute of the measured window: moves, median and p99 (ms)."""
    minutes: dict[int, list[float]] = {}
    for when, x in rtt:
        minutes.setdefault(int((when - start) // 60), []).append(x)
    out = []
    for m in sorted(minutes):
        xs = sorted(minutes[m])
        out.append(
            {
                "minute": m + 1,
                "moves": len(xs),
                "median_ms": round(1000 * statistics.median(xs), 1),
                "p99_ms": round(1000 * xs[min(len(xs) - 1, int(0.99 * len(xs)))], 1),
            }
        )
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument(
        "--timeline",
        help="write every measured round trip to this JSON file as [seconds since the"
        " start, round trip]: when the slow ones came",
    )
    ap.add_argument(
        "--think",
        type=float,
        default=2.0,
        help="mean seconds a player waits on its turn before it moves",
    )
    ap.add_argument("--level", default="beginner")
    ap.add_argument("--clients", type=int, default=1, help="client processes")
    ap.add_argument("--ramp", type=float, default=10.0, help="seconds to start the games over")
    ap.add_argument("--db", default=None, help="database URL (default: a temporary SQLite)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--deflate",
        action="store_true",
        help="serve WebSockets with per-message deflate (uvicorn's default; "
        "the product's server, python -m meldtour.web, has it off)",
    )
    ap.add_argument(
        "--loop",
        default="auto",
        choices=LOOPS,
        help="the server's event loop (uvicorn's --loop; auto, as python -m meldtour.web: "
        "uvloop where it is installed)",
    )
    ap.add_argument(
        "--ws",
        default=WS_PROTOCOL,
        choices=WS_IMPLEMENTATIONS,
        help="the server's WebSocket implementation (uvicorn's --ws; by default the "
        f"product's, as python -m meldtour.web serves them: {WS_PROTOCOL})",
    )
    ap.add_argument(
        "--client-loop",
        default="auto",
        choices=LOOPS,
        help="the simulated players' event loop (auto: uvloop where it is installed; "
        "the load generator shares the machine's cores with the servers)",
    )
    ap.add_argument(
        "--client-ws",
        default="picows",
        choices=tuple(SEAT_CLIENTS),
        help="the simulated players' WebSocket client (picows: a callback a frame; "
        "websockets: the library's asyncio client, as before the fourteenth session)",
    )
    ap.add_argument(
        "--client-nice",
        type=int,
        default=0,
        choices=range(20),
        metavar="0-19",
        help="the simulated players' niceness: with 10, the servers, the database and "
        "Redis have the machine's cores first, as when the players are on other machines "
        "(their own wait to read an answer is still in the round trip)",
    )
    ap.add_argument(
        "--ws-ping",
        type=float,
        default=20.0,
        help="the server's keepalive ping every this many seconds on each socket "
        "(uvicorn's --ws-ping-interval; 20, the product's, is uvicorn's default)",
    )
    ap.add_argument(
        "--probe",
        default=None,
        help="write the server's GC pauses and event-loop lag to this JSON file",
    )
    ap.add_argument(
        "--src",
        default=None,
        help="run the server from this source tree (default: this checkout's "
        "src), to compare two versions in the same time window",
    )
    ap.add_argument(
        "--profile",
        default=None,
        help="record the server with py-spy into this file (collapsed stacks)",
    )
    ap.add_argument(
        "--cprofile",
        default=None,
        help="profile every thread of the (first) server with cProfile into this "
        "file (pstats; slows the server: for where the time goes, not how much)",
    )
    ap.add_argument(
        "--servers",
        type=int,
        default=1,
        help="server processes (2: they share the games through Redis, and "
        "half of each game's sockets are on the other process)",
    )
    ap.add_argument(
        "--redis",
        default="redis://127.0.0.1:6379/0",
        help="with --servers 2: the Redis (keys under a prefix of this run)",
    )
    ap.add_argument(
        "--soak",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="a soak: also sample the server's memory (resident set) every "
        "SECONDS and quote the round trip per minute; allows up to "
        f"{MAX_SOAK_GAMES} games and {MAX_SOAK_SECONDS:.0f} s",
    )
    a = ap.parse_args()
    most_games, most_seconds = (
        (MAX_SOAK_GAMES, MAX_SOAK_SECONDS) if a.soak else (MAX_GAMES, MAX_SECONDS)
    )
    if a.servers > 1 and not a.soak:
        most_games = MAX_GAMES_SHARED
    if not 1 <= a.games <= most_games:
        sys.exit(f"--games is 1 to {most_games}")
    if not 1 <= a.seconds + a.ramp <= most_seconds or a.ramp < 0:
        sys.exit(f"--seconds is 1 to {most_seconds:.0f}")
    if not 1 <= a.clients <= 4:
        sys.exit("--clients is 1 to 4")
    if not 1 <= a.servers <= 2:
        sys.exit("--servers is 1 or 2")

    with tempfile.TemporaryDirectory(prefix="meldtour-bench-") as tmp:
        url = a.db or f"sqlite:///{Path(tmp) / 'bench.db'}"
        ports = [free_port() for _ in range(a.servers)]
        base = "|".join(f"http://{HOST}:{port}" for port in ports)
        env = {
            **os.environ,
            "MELDTOUR_DATABASE_URL": url,
            "MELDTOUR_ENV": "test",
            "PYTHONPATH": str(Path(a.src).resolve() if a.src else ROOT / "src"),
        }
        if a.servers > 1:
            env["MELDTOUR_REDIS_URL"] = a.redis
            env["MELDTOUR_REDIS_PREFIX"] = f"bench-{os.getpid()}-{int(time.time())}"
        if a.probe:
            env["PYTHONPATH"] += os.pathsep + str(ROOT / "bench" / "probe")
        if a.cprofile:
            env["PYTHONPATH"] += os.pathsep + str(ROOT / "bench" / "cprof")
        log = (Path(tmp) / "server.log").open("wb")
        servers = []
        for i, port in enumerate(ports):
            env.pop("MELDTOUR_CPROFILE", None)
            if a.cprofile and i == 0:
                env["MELDTOUR_CPROFILE"] = str(Path(a.cprofile).resolve())
            if a.probe:
                env["MELDTOUR_PROBE"] = str(Path(a.probe + (f".{i}" if i else "")).resolve())
            servers.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "uvicorn",
                        "meldtour.web.app:create_app",
                        "--factory",
                        "--host",
                        HOST,
                        "--port",
                        str(port),
                        "--log-level",
                        "warning",
                        "--backlog",
                        "4096",
                        "--ws-per-message-deflate",
                        "true" if a.deflate else "false",
                        "--loop",
                        a.loop,
                        "--ws",
                        a.ws,
                        "--ws-ping-interval",
                        str(a.ws_ping),
                    ],
                    cwd=tmp,
                    env=dict(env),
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
            )
        server = servers[0]
        try:
            deadline = time.monotonic() + 180  # a loaded machine starts it slowly
            for proc, port in zip(servers, ports, strict=True):
                while True:
                    if proc.poll() is not None:
                        sys.exit("the server did not start:\n" + Path(log.name).read_text())
                    try:
                        if httpx.get(f"http://{HOST}:{port}/healthz", timeout=1).status_code == 200:
                            break
                    except httpx.HTTPError:
                        pass
                    if time.monotonic() > deadline:
                        sys.exit("the server did not start in 180 s")
                    time.sleep(0.2)
            spy = None
            if a.profile:
                spy = subprocess.Popen(
                    [
                        str(Path(sys.executable).parent / "py-spy"),
                        "record",
                        "--pid",
                        str(server.pid),
                        "--rate",
                        "200",
                        "--format",
                        "raw",
                        "--duration",
                        str(int(a.ramp + a.seconds)),
                        "-o",
                        a.profile,
                    ],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            cpu0, t0 = sum(cpu_seconds(p.pid) for p in servers), time.monotonic()
            # Every client process ramps, measures and stops on this one schedule: a
            # process that took longer to start does not measure while the others are
            # still making their tables, or stop (closing its sockets) inside their window.
            shares = [a.games // a.clients + (i < a.games % a.clients) for i in range(a.clients)]
            # One share and no soak: played in this process, nothing to wait for.
            in_process = sum(1 for n in shares if n) == 1 and not a.soak
            begin = t0 + (0.0 if in_process else CLIENT_START)
            # The servers' CPU time at the start of the measured window (after the ramp).
            window_cpu: list[float] = []

            def window_starts() -> None:
                window_cpu.append(sum(cpu_seconds(p.pid) for p in servers))
                if a.cprofile:
                    server.send_signal(signal.SIGUSR2)  # the profile counts from here

            sampler = threading.Timer(begin + a.ramp - time.monotonic(), window_starts)
            sampler.start()
            if a.probe:  # the server reads it when it writes its figures
                for i in range(a.servers):  # each server's file: FILE, FILE.1
                    name = a.probe + (f".{i}" if i else "") + ".from"
                    Path(name).write_text(str(time.time() + begin - time.monotonic() + a.ramp))
            jobs = [
                (
                    base,
                    n,
                    a.level,
                    a.think,
                    a.seconds,
                    a.ramp,
                    a.seed + i,
                    a.client_ws,
                    a.client_nice,
                    a.client_loop,
                    begin,
                )
                for i, n in enumerate(shares)
                if n
            ]
            memory: list[tuple[float, float]] = []  # (seconds since start, server MiB)
            if in_process:
                parts = [client_process(jobs[0])]
            else:
                with mp.get_context("spawn").Pool(len(jobs)) as pool:
                    waiting = pool.map_async(client_process, jobs)
                    while not waiting.ready():
                        if a.soak:
                            memory.append(
                                (
                                    round(time.monotonic() - t0, 1),
                                    sum(rss_mib(p.pid) for p in servers),
                                )
                            )
                        waiting.wait(a.soak or 1.0)
                    parts = waiting.get()
            wall = time.monotonic() - t0
            cpu_end = sum(cpu_seconds(p.pid) for p in servers)
            cpu = cpu_end - cpu0
            sampler.cancel()
            cpu_window = cpu_end - window_cpu[0] if window_cpu else None
            if spy is not None:
                spy.wait(60)
            if a.cprofile:
                threads = Path(a.cprofile + ".threads.json")
                threads.unlink(missing_ok=True)
                server.send_signal(signal.SIGUSR1)  # the profile is written
                for _ in range(600):
                    time.sleep(0.1)
                    if threads.exists():
                        time.sleep(0.5)
                        break
        finally:
            for proc in servers:
                proc.send_signal(signal.SIGTERM)
            for proc in servers:
                try:
                    proc.wait(20)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(10)
            log.close()
            text = Path(log.name).read_text(errors="replace")
            server_errors = text.count("Traceback") + text.count("ERROR")
            if server_errors:
                # What went wrong, each kind once (a traceback's last line), then the end.
                kinds = {
                    line[:300]
                    for line in text.splitlines()
                    if "Error:" in line and not line.startswith(" ")
                }
                print("\n".join(sorted(kinds)[:20]), file=sys.stderr)
                print(text[-4000:], file=sys.stderr)

    timed = [(when, x) for p in parts for when, x in p["rtt"]]
    starts = sorted(t for p in parts for t in p["started_at"])
    rtt = sorted(x for _when, x in timed)
    moves = sum(p["moves"] for p in parts)
    out = {
        "games": a.games,
        "servers": a.servers,
        "sockets": 4 * a.games,
        "seconds": round(wall, 1),
        "think": a.think,
        "level": a.level,
        "ws": a.ws,
        "client_ws": a.client_ws,
        "client_nice": a.client_nice,
        "clients": a.clients,
        "db": "sqlite" if a.db is None else url.split(":")[0],
        "started": sum(p["started"] for p in parts),
        "finished": sum(p["finished"] for p in parts),
        "moves": moves,
        "moves_per_s": round(len(rtt) / a.seconds, 1),
        "rtt_median_ms": round(1000 * statistics.median(rtt), 1) if rtt else None,
        "rtt_p99_ms": round(1000 * rtt[min(len(rtt) - 1, int(0.99 * len(rtt)))], 1)
        if rtt
        else None,
        "rtt_max_ms": round(1000 * rtt[-1], 1) if rtt else None,
        "server_cpu": round(cpu / wall, 2),
        # The simulated players' CPU (cores over the run, every client process).
        "client_cpu": round(sum(p["cpu"] for p in parts) / wall, 2),
        # When the games-th table had all its seats joined (seconds from the start; the
        # ramp's planned end is --ramp): the window's first seconds are not the steady
        # state when the tables' making fell behind.
        "all_started_s": round(starts[a.games - 1], 1) if len(starts) >= a.games else None,
        # When each client process was ready, from the start (negative: before it).
        "clients_ready_s": [round(p["ready"], 2) for p in parts],
        "client_full_collections": sum(1 for p in parts for g, _ in p["gc"] if g == 2),
        "client_collection_max_ms": round(
            1000 * max((t for p in parts for _, t in p["gc"]), default=0.0), 1
        ),
        # The servers' CPU time (ramp included: tables made and joined) per move made.
        "server_cpu_ms_per_move": round(1000 * cpu / moves, 2) if moves else None,
        # The same in the measured window only (after the ramp): moves in play.
        "window_cpu_ms_per_move": round(1000 * cpu_window / len(rtt), 2)
        if rtt and cpu_window is not None
        else None,
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "refused": sum(p["refused"] for p in parts),
        "stale": sum(p["stale"] for p in parts),
        "timeouts": sum(p["timeouts"] for p in parts),
        "errors": [e for p in parts for e in p["errors"]][:10],
        "server_log_errors": server_errors,
    }
    if a.timeline:
        Path(a.timeline).write_text(
            json.dumps([[round(w - begin, 4), round(x, 5)] for w, x in timed])
        )
    if a.soak:
        out["memory_mib"] = memory
        out["per_minute"] = per_minute(timed, begin + a.ramp)
    print(json.dumps(out))
    print(
        f"| {out['games']} | {out['sockets']} | {out['think']} | {out['db']} | "
        f"{out['seconds']} | {out['started']} | {out['finished']} | {out['moves']} | "
        f"{out['moves_per_s']} | {out['rtt_median_ms']} | {out['rtt_p99_ms']} | "
        f"{out['server_cpu']} |"
    )


if __name__ == "__main__":
    main()
