"""Nothing lost in a crash: the real app under uvicorn in a subprocess, on a temporary
SQLite database (and on PostgreSQL when it answers, in a fresh schema), one person's
seat played by this test over a real WebSocket against two computer players; the server
is killed with SIGKILL in mid-game, during the person's turn after a draft, and started
again on the same database.

It resumes with the same racks, board and pool order — everything the person is told
after the restart is what the log at the moment of the kill dictates, replayed here
independently — and the clock gives back the time that was left; the game is played to
its end and its result logged."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
import websockets

from meldtour.core.game import apply, new_game
from meldtour.core.melds import format_board
from meldtour.core.record import move_to_json, read_record
from meldtour.core.rules import find_rules
from meldtour.core.state import GameState
from meldtour.core.tiles import format_tiles, parse_tiles
from meldtour.core.views import view_from_json
from meldtour.live.game import event_json
from meldtour.players.levels import make_player
from meldtour.solver import finder
from meldtour.store import games
from meldtour.store.db import open_store
from tests.store.backends import database

ROOT = Path(__file__).resolve().parents[2]
TURN = 30
RULES = dataclasses.replace(find_rules("standard"), turn_seconds=TURN)
KILL_AT = 8  # moves played before the crash, at least


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class App:
    """``uvicorn meldtour.web.app:create_app --factory`` on a free port of 127.0.0.1."""

    def __init__(self, url: str, where: Path, **more: str) -> None:
        self.port = free_port()
        env = {
            **os.environ,
            "MELDTOUR_DATABASE_URL": url,
            "MELDTOUR_ENV": "test",
            "PYTHONPATH": str(ROOT / "src"),
            **more,
        }
        self.log = (where / f"uvicorn-{self.port}.log").open("wb")
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                "meldtour.web.app:create_app",
                "--factory",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--log-level",
                "warning",
            ],
            cwd=where,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 30
        while True:
            assert self.proc.poll() is None, f"uvicorn exited: {self.output()}"
            try:
                if httpx.get(f"{self.base}/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def output(self) -> str:
        self.log.flush()
        return Path(self.log.name).read_text(errors="replace")[-3000:]

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.log.close()


def replay_log(logged: games.StoredGame) -> GameState:
    header = logged.header
    record = read_record(
        {k: header[k] for k in ("rules", "players", "seed", "deal") if k in header}
        | {"moves": logged.moves}
    )
    state = new_game(
        record.rules, record.players, record.seed, deal=record.deal, now=header["started_at"]
    ).state
    for move in record.moves:
        state = apply(state, move, finder=finder).state
    return state


class Person:
    """Seat 0, played by a greedy computer player deciding from what the socket says."""

    def __init__(self, app: App, game_id: str, token: str) -> None:
        self.app, self.game_id, self.token = app, game_id, token
        self.player = make_player("greedy", "Ann", 11)
        self.view: dict[str, Any] | None = None
        self.version = -1
        self.now = 0.0
        self.frames: dict[int, dict[str, Any]] = {}
        self.sent: set[int] = set()
        self.requests = 0

    async def connect(self) -> Any:
        url = f"ws://127.0.0.1:{self.app.port}/play/t/{self.game_id}/ws"
        return await websockets.connect(
            url, additional_headers={"Cookie": f"meldtour_seat_{self.game_id}={self.token}"}
        )

    def take(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        assert kind != "refused", message
        if kind in ("snapshot", "frame", "synced") and message.get("view") is not None:
            self.view, self.version, self.now = message["view"], message["version"], message["now"]
        if kind == "frame":
            self.frames[message["version"]] = message

    def my_turn(self) -> bool:
        v = self.view
        return (
            v is not None
            and v["end"] is None
            and v["current"] == 0
            and self.version not in self.sent
        )

    async def move(self, ws: Any) -> None:
        assert self.view is not None
        move = self.player.decide(view_from_json(self.view, RULES))
        self.requests += 1
        self.sent.add(self.version)
        await ws.send(
            _json(
                {
                    "type": "move",
                    "id": f"m{self.requests}",
                    "version": self.version,
                    **move_to_json(move),
                }
            )
        )

    async def play(self, ws: Any, until: Any) -> None:
        """Read and answer until ``until(self)`` holds (checked before each move)."""
        while True:
            if until(self):
                return
            if self.my_turn():
                await self.move(ws)
            self.take(_loads(await asyncio.wait_for(ws.recv(), 20)))


def _json(value: Any) -> str:
    return json.dumps(value)


def _loads(text: Any) -> dict[str, Any]:
    value: dict[str, Any] = json.loads(text)
    return value


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with database(request.param, tmp_path) as url:
        yield url


#: The computer players' pause (the site's 0.8 s made the game's play-out most of the
#: test's time; what survives the kill does not depend on it).
BOT_SECONDS = "0.05"


def test_sigkill_in_mid_game_loses_nothing(db_url: str, tmp_path: Path) -> None:
    asyncio.run(_sigkill(db_url, tmp_path))


async def _sigkill(db_url: str, tmp_path: Path) -> None:
    first = App(db_url, tmp_path, MELDTOUR_BOT_SECONDS=BOT_SECONDS)
    second: App | None = None
    try:
        async with httpx.AsyncClient(base_url=first.base) as http:
            made = await http.post(
                "/play/tables",
                data={
                    "preset": "standard",
                    "turn_seconds": str(TURN),
                    "seat_count": "3",
                    "seat0": "human",
                    "seat1": "greedy",
                    "seat2": "beginner",
                },
            )
            assert made.status_code == 303, made.text
            game_id = made.headers["location"].rsplit("/", 1)[1]
            joined = await http.post(f"/play/t/{game_id}/join", data={"seat": "0", "name": "Ann"})
            token = joined.cookies[f"meldtour_seat_{game_id}"]
        person = Person(first, game_id, token)
        ws = await person.connect()
        # Into the game: at least KILL_AT moves, and the person's turn again.
        await person.play(ws, lambda p: p.version >= KILL_AT and p.my_turn())
        assert person.view is not None
        # The person thinks, drafts a tile on the table, thinks on: then the crash.
        await asyncio.sleep(1.2)
        rack = parse_tiles(person.view["rack"])
        draft = [*person.view["board"], [format_tiles([rack[0]])[0]]]
        await ws.send(
            _json({"type": "draft", "id": "d1", "version": person.version, "board": draft})
        )
        while (m := _loads(await asyncio.wait_for(ws.recv(), 10)))["type"] != "draft_ok":
            person.take(m)
        await asyncio.sleep(1.3)
        before = dict(person.view)
        version = person.version
        left = before["deadline"] - time.time()
        first.kill()
        await ws.close()
        assert 20 < left < TURN

        # The log as the crash left it: the draft is there, and its replay is the game
        # the person was looking at.
        store = open_store(db_url)
        try:
            crashed = games.load_game(store, game_id)
        finally:
            store.close()
        assert crashed is not None and crashed.result is None
        assert len(crashed.moves) == version
        assert crashed.draft is not None and crashed.draft["board"] == draft
        state = replay_log(crashed)
        assert format_tiles(state.racks[0]) == before["rack"]
        assert format_board(state.board) == before["board"]
        assert len(state.pool) == before["pool_left"]

        time.sleep(2.0)  # the server is down for a while: the clock stands still
        second = App(db_url, tmp_path, MELDTOUR_BOT_SECONDS=BOT_SECONDS)
        person.app = second
        person.sent.discard(version)
        ws = await person.connect()
        person.take(_loads(await asyncio.wait_for(ws.recv(), 10)))  # the snapshot
        after = person.view
        assert person.version == version and after is not None
        for key in ("rack", "board", "rack_sizes", "pool_left", "melded", "current", "turn_no"):
            assert after[key] == before[key], key
        resumed_left = after["deadline"] - person.now
        assert left - 0.5 <= resumed_left <= left + 1.6, (left, resumed_left)

        # Play on to the end.
        await person.play(ws, lambda p: p.view is not None and p.view["end"] is not None)
        await ws.close()
        final = person.view
        assert final is not None

        store = open_store(db_url)
        try:
            done = games.load_game(store, game_id)
            assert games.unfinished_games(store) == []
        finally:
            store.close()
        assert done is not None and done.result is not None
        assert done.moves[:version] == crashed.moves
        assert done.result["scores"] == final["scores"]
        # Everything the person was told after the restart follows from the state at
        # the kill: the same pool order, the same racks.
        record = read_record(
            {
                "rules": done.header["rules"],
                "players": done.header["players"],
                "seed": done.header["seed"],
                "moves": done.moves,
            }
        )
        for i, move in enumerate(record.moves[version:], start=version + 1):
            progress = apply(state, move, finder=finder)
            state = progress.state
            frame = person.frames.get(i)
            assert frame is not None, f"frame {i} missing"
            told = [e for e in (event_json(ev, 0) for ev in progress.events) if e is not None]
            assert frame["events"] == told, i
            assert frame["view"]["rack"] == format_tiles(state.racks[0])
        assert state.end is not None and list(state.scores or ()) == final["scores"]
    finally:
        first.stop()
        if second is not None:
            second.stop()
