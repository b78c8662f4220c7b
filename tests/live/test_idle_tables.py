"""Tables anyone may open cannot pile up: a lobby table nobody starts is closed and
forgotten after ``IDLE_WAITING`` (3,000 anonymous tables were kept for ever); a
tournament's table waits on; the lobby caps tables per client and in all."""

from __future__ import annotations

import asyncio

import pytest
from fastapi.testclient import TestClient

from meldtour.live import LiveServer, SeatConfig, TableConfig
from meldtour.live.server import IDLE_WAITING
from meldtour.web.routes import play

from .helpers import drain, next_of

HUMAN = SeatConfig("human")


def test_an_idle_lobby_table_goes_and_a_tournament_table_stays() -> None:
    async def main() -> None:
        server = LiveServer()
        config = TableConfig.make("standard", [HUMAN, HUMAN])
        lobby = await server.open_table(config, "lobby1", lobby=True)
        other = await server.open_table(config, "round1")
        watcher = await lobby.subscribe(None)
        drain(watcher)
        await server._forget_idle(lobby.made_at + IDLE_WAITING - 1)
        assert server.get("lobby1") is lobby
        await server._forget_idle(lobby.made_at + IDLE_WAITING + 1)
        assert server.get("lobby1") is None and server.get("round1") is other
        assert (await next_of(watcher, "closing"))["reason"] == "idle"
        assert await server.log.waiting_tables() == ["round1"]
        assert await server.recover() == []  # not rebuilt after a restart either
        await server.close()

    asyncio.run(main())


FORM = {"preset": "standard", "seat_count": "2", "seat0": "human", "seat1": "human"}


def test_the_lobby_caps_tables_per_client_and_in_all(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    for _ in range(play.TABLES_PER_CLIENT.amount):
        assert client.post("/play/tables", data=FORM, follow_redirects=False).status_code == 303
    refused = client.post("/play/tables?lang=ko", data=FORM, follow_redirects=False)
    assert refused.status_code == 429 and "테이블" in refused.json()["detail"]
    monkeypatch.setattr(play, "MAX_WAITING", 5)
    client.app.state.client_limiter = None  # type: ignore[attr-defined]
    full = client.post("/play/tables?lang=ja", data=FORM, follow_redirects=False)
    assert full.status_code == 503 and "テーブル" in full.json()["detail"]
