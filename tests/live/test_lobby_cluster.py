"""The lobby of a cluster: two real server processes (uvicorn) on one PostgreSQL
database and one Redis. A table opened on process A is offered by the lobby of
process B (and B's by A's), newest first; a person sits down at A's table through B,
the game starts on A, and B's lobby lists it among the games being played, with the
person's name, and no longer among the tables with a free seat."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import httpx2 as httpx

from meldtour.store import games
from meldtour.store.db import open_store

from .test_cluster import two_apps
from .test_durable import TURN

LINK = re.compile(r'href="/play/t/([^"/]+)"')


def test_the_lobby_lists_the_tables_of_every_process(pg_url: str, tmp_path: Path) -> None:
    asyncio.run(_lobby_of_two(pg_url, tmp_path))


async def _open(http: httpx.AsyncClient) -> str:
    made = await http.post(
        "/play/tables",
        data={
            "preset": "standard",
            "turn_seconds": str(TURN),
            "seat_count": "2",
            "seat0": "human",
            "seat1": "greedy",
        },
    )
    assert made.status_code == 303, made.text
    return str(made.headers["location"]).rsplit("/", 1)[1]


async def _lobby(http: httpx.AsyncClient) -> tuple[list[str], list[str], str]:
    """The ids the lobby offers to join and to watch, in order, and the second part."""
    page = await http.get("/play", params={"lang": "en"})
    assert page.status_code == 200, page.text
    listed = page.text.split("<h2>Tables with a free seat</h2>", 1)[1]
    waiting, playing = listed.split("<h2>Games being played</h2>", 1)
    return LINK.findall(waiting), LINK.findall(playing), playing


async def _lobby_of_two(url: str, tmp_path: Path) -> None:
    a, b = two_apps(url, tmp_path)
    try:
        async with (
            httpx.AsyncClient(base_url=a.base) as http_a,
            httpx.AsyncClient(base_url=b.base) as http_b,
        ):
            on_a = await _open(http_a)
            on_b = await _open(http_b)
            for http in (http_a, http_b):
                waiting, playing, _ = await _lobby(http)
                assert waiting == [on_b, on_a] and playing == []
            page = (await http_b.get("/play", params={"lang": "en"})).text
            assert f"standard · {TURN} seconds · Join" in page

            # A person takes the free seat of A's table through B: the game starts (on A).
            joined = await http_b.post(f"/play/t/{on_a}/join", data={"seat": "0", "name": "Bo"})
            assert joined.status_code == 303, joined.text
            assert "error" not in joined.headers["location"]
            assert joined.cookies.get(f"meldtour_seat_{on_a}")
            for http in (http_b, http_a):
                waiting, playing, text = await _lobby(http)
                assert waiting == [on_b] and playing == [on_a]
                assert "Bo, Greedy 2" in text
            # Someone else on B no longer finds that seat free.
            taken = await http_b.post(f"/play/t/{on_a}/join", data={"seat": "0", "name": "Eve"})
            assert "error=taken" in taken.headers["location"]
    finally:
        a.stop()
        b.stop()

    store = open_store(url)
    try:
        assert games.waiting_tables(store) == [on_b]
        logged = games.load_game(store, on_a)
        assert logged is not None and logged.header["players"] == ["Bo", "greedy 2"]
    finally:
        store.close()
