"""Hidden information over a whole tournament round played online.

A club night (SQLite) seats its round; the director starts it online through the
director's route (``POST /director/t/{slug}/d/{key}/online/start``) with computer
players for all but two players, one at each table. The real app runs under uvicorn
(in a thread of this process, so that the computer players can be told not to wait)
and every socket is a real WebSocket: each person seat follows its seat link to the
table's current game and plays it with a greedy player deciding only from what its
socket says; a spectator watches each table's games. The round is played to its end
(every game of every table, the sheets filled). Then EVERY frame every socket got is
checked against the logged games replayed: no frame holds a tile of another seat's
rack or of the pool (:func:`tests.live.test_hidden.hidden_tiles`), and none names the
pool's order or the deal's seed."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
import uvicorn
import websockets

from meldtour import application as usecases
from meldtour.core.record import move_to_json
from meldtour.core.state import GameState
from meldtour.core.views import view_from_json
from meldtour.live.online import seat_tokens
from meldtour.players.levels import make_player
from meldtour.store import games as game_log
from meldtour.store import online
from meldtour.web.app import create_app
from meldtour.web.config import Settings
from meldtour.web.director import accounts
from meldtour.web.director.deps import CSRF_COOKIE, SESSION_COOKIE, Web
from meldtour.web.limits import WS_PROTOCOL
from tests.live.test_cluster import replay
from tests.live.test_hidden import hidden_tiles

from .servers import free_port

SLUG = "club"
NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lu"]
WALL = 90.0  # seconds for the whole round, at most
FORBIDDEN_KEYS = {"pool", "seed", "racks", "deal", "wall", "hands"}


@dataclass
class Socket:
    """One WebSocket's every message, with the game and seat it was for."""

    game_id: str
    seat: int | None
    messages: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Round:
    base: str
    port: int
    web: Web
    sockets: list[Socket] = field(default_factory=list)


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Round]:
    settings = Settings(env="test")
    app = create_app(settings)
    web = Web(settings, url=f"sqlite:///{tmp_path / 'round.db'}")
    app.state.director = web
    port = free_port()
    uv = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", ws=WS_PROTOCOL)
    )
    thread = threading.Thread(target=uv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not uv.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    app.state.live.online.bot_delay = 0.0  # type: ignore[attr-defined]
    try:
        yield Round(f"http://127.0.0.1:{port}", port, web)
    finally:
        uv.should_exit = True
        thread.join(30)


async def connect(r: Round, gid: str, token: str | None) -> Any:
    """A socket to the game; a game just recorded may not be open yet (a 403): retry."""
    headers = {"Cookie": f"meldtour_seat_{gid}={token}"} if token else {}
    for _ in range(100):
        try:
            return await websockets.connect(
                f"ws://127.0.0.1:{r.port}/play/t/{gid}/ws", additional_headers=headers
            )
        except websockets.InvalidStatus:
            await asyncio.sleep(0.1)
    raise AssertionError(f"game {gid} never opened")


def table_of(store: Any, game_id: str) -> list[online.OnlineGame]:
    return online.table_games(store, game_id)


async def person(r: Round, first: str, token: str, seat: int, n_games: int) -> None:
    """Follow the seat link through the table's games, playing each to its end."""
    player = make_player("greedy", f"person{seat}", 7 + seat)
    played: set[str] = set()
    async with httpx.AsyncClient(base_url=r.base, timeout=30) as http:
        while len(played) < n_games:
            link = await http.get(f"/online/seat/{first}/{token}", follow_redirects=False)
            assert link.status_code == 303, link.text
            gid = link.headers["location"].rsplit("/", 1)[1]
            if gid in played:  # the next game is not started yet
                await asyncio.sleep(0.1)
                continue
            sock = Socket(gid, seat)
            r.sockets.append(sock)
            game = await asyncio.to_thread(online.get_game, r.web.store(), gid)
            assert game is not None
            rules = usecases.read(r.web.store(), SLUG).divisions[0].rules
            async with await connect(r, gid, token) as ws:
                view: dict[str, Any] | None = None
                version, sent, n = -1, set(), 0
                while view is None or view["end"] is None:
                    if view is not None and view["current"] == seat and version not in sent:
                        move = player.decide(view_from_json(view, rules))
                        n += 1
                        sent.add(version)
                        await ws.send(
                            json.dumps(
                                {
                                    "type": "move",
                                    "id": f"{seat}.{n}",
                                    "version": version,
                                    **move_to_json(move),
                                }
                            )
                        )
                    message = json.loads(await asyncio.wait_for(ws.recv(), 30))
                    sock.messages.append(message)
                    assert message["type"] not in ("refused", "error"), message
                    if message.get("view") is not None and isinstance(message.get("version"), int):
                        view, version = message["view"], message["version"]
                        if view.get("seat", seat) is not None:
                            assert view.get("rack") is not None
            played.add(gid)


async def spectator(r: Round, first: str, n_games: int) -> None:
    """Watch each game of the table in turn, to its end."""
    watched: set[str] = set()
    while len(watched) < n_games:
        games = await asyncio.to_thread(table_of, r.web.store(), first)
        todo = [g.game_id for g in games if g.game_id not in watched]
        if not todo:
            await asyncio.sleep(0.1)
            continue
        gid = todo[0]
        sock = Socket(gid, None)
        r.sockets.append(sock)
        async with await connect(r, gid, None) as ws:
            while True:
                message = json.loads(await asyncio.wait_for(ws.recv(), 30))
                sock.messages.append(message)
                view = message.get("view")
                if isinstance(view, dict) and view.get("end") is not None:
                    break
        watched.add(gid)


def keys_in(value: Any) -> set[str]:
    """The keys in ``value`` (nested) that name the pool, the deal or the racks and do
    not hold a mere count (``"pool": 48`` is the number of tiles left)."""
    if isinstance(value, dict):
        own = {k for k, v in value.items() if k in FORBIDDEN_KEYS and not isinstance(v, int)}
        return own | {k for v in value.values() for k in keys_in(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys_in(v)}
    return set()


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_no_hidden_tile_in_any_frame_of_an_online_round(server: Round) -> None:
    r = server
    started = time.monotonic()
    store = r.web.store()
    boss = accounts.create(store, "boss", "a long director password")
    usecases.create_tournament(store, "club-night", who="boss", slug=SLUG, seed=3)
    usecases.register_players(store, SLUG, [usecases.PlayerEntry(n) for n in NAMES], who="boss")
    usecases.check_in_players(store, SLUG, [], everyone_but=True, who="boss")
    outcome = usecases.seat(store, SLUG, None, 1, who="boss")
    key = outcome.tournament.divisions[0].key
    tables = outcome.tournament.division(key).stages[0].rounds[0].tables
    # Two people at each table (different seats from table to table), computers elsewhere.
    people = {t.players[(i + k) % len(t.players)] for i, t in enumerate(tables) for k in (0, 2)}
    computers = [p for t in tables for p in t.players if p not in people]

    cookie = "c" * 32
    session = r.web.session.sign({"a": boss.id, "exp": int(time.time()) + 3600, "n": "t"})
    started_round = httpx.post(
        f"{r.base}/director/t/{SLUG}/d/{key}/online/start",
        data={
            "csrf": r.web.csrf_token(cookie),
            "level": "greedy",
            "computer": [str(p) for p in computers],
        },
        cookies={SESSION_COOKIE: session, CSRF_COOKIE: cookie},
        follow_redirects=False,
    )
    assert started_round.status_code == 303, started_round.text
    tid = online.tournament_of(store, SLUG)[0]
    first = online.round_games(store, tid, key, 0, 1)
    assert len(first) == len(tables) >= 2
    n_games = first[0].games

    async def play() -> None:
        tasks = []
        token = seat_tokens(r.web.settings.secret_key)  # the links the director's page shows
        for g in first:
            for seat, s in enumerate(g.seats):
                if s["key"]:
                    tasks.append(person(r, g.game_id, token(g.game_id, s["player"]), seat, n_games))
            tasks.append(spectator(r, g.game_id, n_games))
        assert sum(1 for g in first for s in g.seats if s["key"]) == len(people)
        await asyncio.wait_for(asyncio.gather(*tasks), WALL)

    asyncio.run(play())
    # The round is over: every game filled its sheet.
    deadline = time.monotonic() + 20
    while True:
        games = online.round_games(store, tid, key, 0, 1)
        if len(games) == len(tables) * n_games and all(g.filled for g in games):
            break
        assert time.monotonic() < deadline, games
        time.sleep(0.1)
    assert all(
        t.counted for t in usecases.read(store, SLUG).division(key).stages[0].rounds[0].tables
    )

    # Every message of every socket against the logged game.
    states: dict[str, list[GameState]] = {}
    for g in games:
        logged = game_log.load_game(store, g.game_id)
        assert logged is not None and logged.result is not None
        states[g.game_id] = replay(logged)
    counted: Counter[str] = Counter()
    for sock in r.sockets:
        game_states = states[sock.game_id]
        last = 0
        assert sock.messages, sock
        for message in sock.messages:
            counted[message["type"]] += 1
            v = message.get("version")
            if isinstance(v, int):
                assert 0 <= v < len(game_states), (sock.game_id, v)
                last = v
            around = [game_states[last], game_states[max(last - 1, 0)]]
            extra = hidden_tiles(sock.seat, message, around)
            assert not extra, (sock.game_id, sock.seat, dict(extra), message)
            named = keys_in(message)
            if "racks" in named:  # the racks are shown when the game is over, not before
                assert game_states[last].end is not None, (sock.seat, message)
                named.discard("racks")
            assert not named, (sock.seat, message)
            view = message.get("view")
            if isinstance(view, dict) and sock.seat is None:
                assert not view.get("rack"), message
    # The check can fail: a person's frames read as another seat's (or a spectator's)
    # hold tiles that reader may not see.
    probe = next(s for s in r.sockets if s.seat is not None)
    frame = next(m for m in probe.messages if m["type"] == "frame" and m.get("view"))
    around = [states[probe.game_id][frame["version"]]] * 2
    assert hidden_tiles(None, frame, around)
    assert probe.seat is not None
    assert hidden_tiles((probe.seat + 1) % len(around[0].racks), frame, around)
    people_sockets = [s for s in r.sockets if s.seat is not None]
    assert len(people_sockets) == len(people) * n_games
    assert len(r.sockets) - len(people_sockets) == len(tables) * n_games
    assert counted["frame"] > 100, counted
    wall = time.monotonic() - started
    print(
        f"\n{len(tables)} tables × {n_games} games, {len(people)} people: "
        f"{sum(len(s.messages) for s in r.sockets)} messages on {len(r.sockets)} "
        f"sockets ({dict(counted)}), {sum(len(s) - 1 for s in states.values())} moves, "
        f"{wall:.1f} s"
    )
    assert wall < WALL + 30
