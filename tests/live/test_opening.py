"""A tournament's next game is recorded (its seat links lead to it) an instant before
this process opens it: a socket that follows the link in that instant waits for the
game instead of being told there is no such game (CI saw a spectator's socket closed
with 4404 between the record and the opening)."""

from __future__ import annotations

import asyncio

from meldtour.live import LiveServer, ManualClock, SeatConfig, TableConfig


def test_a_game_being_opened_is_waited_for_not_refused() -> None:
    asyncio.run(_opening())


async def _opening() -> None:
    server = LiveServer(clock=ManualClock())
    config = TableConfig.make(
        "standard", [SeatConfig("human"), SeatConfig("human")], seed=3, redeal_grace=0.0
    )
    try:
        assert await server.find("next") is None  # nothing recorded: no such game
        with server.opening(["next"]):
            looking = asyncio.ensure_future(server.find("next"))
            await asyncio.sleep(0.05)  # the record is written, the game not open yet
            assert not looking.done()
            game = await server.open_table(config, "next")
        assert await asyncio.wait_for(looking, 5) is game
        with server.opening(["never"]):
            never = asyncio.ensure_future(server.find("never"))
            await asyncio.sleep(0.01)
        assert await asyncio.wait_for(never, 5) is None  # refused at once once it failed
        assert server._opening == {}
    finally:
        await server.close()
