"""Fairness of the live table, each found by an attack from outside:

- a time-out is judged on the board the player last proposed, a refused Done included
  (the page dropped its draft after a refused Done, so a half-built board was judged as
  an untouched rack: a 1-tile draw instead of the failed turn's 3);
- a request id used again on a later turn is a new request (it was acknowledged as a
  duplicate and the move dropped);
- an illegal end of turn (japan) tells the others only that it happened, and the player
  why, by code (its reason named the tiles going back to the rack, to every socket).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from meldtour.live import LiveServer, ManualClock, SeatConfig, TableConfig

from .helpers import known_deal, next_of, until

HUMAN = SeatConfig("human")


async def table(clock: ManualClock, preset: str) -> tuple[Any, ...]:
    server = LiveServer(clock=clock)
    config = TableConfig.make(preset, [HUMAN, HUMAN], deal=known_deal(), turn_seconds=30)
    game = server.create_table(config, "g1")
    a = await game.subscribe(game.seat_of(await game.join(0, "Ann")))
    b = await game.subscribe(game.seat_of(await game.join(1, "Bo")))
    watcher = await game.subscribe(None)
    await until(lambda: game.started)
    return server, game, a, b, watcher


def test_a_refused_done_is_what_the_time_out_judges() -> None:
    async def main() -> None:
        clock = ManualClock()
        server, game, a, _b, _w = await table(clock, "krc-2015")
        # No draft sent: only Done with a board the rules refuse (a meld of 2).
        await game.receive(
            a,
            {"type": "move", "id": "m1", "version": 0, "action": "play", "board": [["r10", "r11"]]},
        )
        assert (await next_of(a, "refused"))["id"] == "m1"
        assert game.version == 0
        clock.advance(30)
        frame = await next_of(a, "frame")
        kinds = [e["kind"] for e in frame["events"]]
        assert kinds[:2] == ["timeout", "failed_turn"], kinds
        # The failed turn of krc-2015: the tiles go back and three are drawn (not one).
        assert frame["view"]["rack_sizes"] == [17, 14]
        await server.close()

    asyncio.run(main())


def test_a_refused_done_of_tiles_one_does_not_hold_leaves_the_last_draft() -> None:
    async def main() -> None:
        clock = ManualClock()
        server, game, a, _b, _w = await table(clock, "krc-2015")
        await game.receive(a, {"type": "draft", "id": "d1", "version": 0, "board": [["b1"]]})
        await next_of(a, "draft_ok")
        await game.receive(
            a,
            {
                "type": "move",
                "id": "m1",
                "version": 0,
                "action": "play",
                "board": [["k13", "k12", "k11"]],
            },
        )  # not Ann's tiles
        await next_of(a, "refused")
        assert (await server.log.load("g1")).draft["board"] == [["b1"]]  # type: ignore[union-attr]
        await server.close()

    asyncio.run(main())


def test_a_request_id_may_come_again_on_a_later_turn() -> None:
    async def main() -> None:
        clock = ManualClock()
        server, game, a, b, _w = await table(clock, "standard")
        await game.receive(a, {"type": "move", "id": "1", "version": 0, "action": "draw"})
        assert (await next_of(a, "ack"))["version"] == 1
        await game.receive(b, {"type": "move", "id": "1", "version": 1, "action": "draw"})
        assert (await next_of(b, "ack"))["version"] == 2
        # Ann's client numbers its requests per turn: "1" again, at version 2.
        await game.receive(a, {"type": "move", "id": "1", "version": 2, "action": "draw"})
        ack = await next_of(a, "ack")
        assert ack["version"] == 3 and not ack.get("duplicate")
        assert game.version == 3
        # The same request sent twice is still answered once.
        await game.receive(b, {"type": "move", "id": "1", "version": 3, "action": "draw"})
        await next_of(b, "ack")
        await game.receive(b, {"type": "move", "id": "1", "version": 3, "action": "draw"})
        assert (await next_of(b, "ack"))["duplicate"] is True
        assert game.version == 4
        await server.close()

    asyncio.run(main())


def test_an_illegal_end_tells_the_others_nothing_of_the_tiles() -> None:
    async def main() -> None:
        clock = ManualClock()
        server, game, a, b, watcher = await table(clock, "japan")
        # Ann, not melded, ends her turn with r10 r11 r12 and b1 b2 (a meld of 2).
        await game.receive(
            a,
            {
                "type": "move",
                "id": "m",
                "version": 0,
                "action": "play",
                "board": [["r10", "r11", "r12"], ["b1", "b2"]],
            },
        )
        mine = await next_of(a, "frame")
        hers = [e for e in mine["events"] if e["kind"] == "illegal_end"]
        assert hers and hers[0]["private"]["code"] and "b1" in hers[0]["private"]["reason"]
        for sub in (b, watcher):
            frame = await next_of(sub, "frame")
            ended = [e for e in frame["events"] if e["kind"] == "illegal_end"]
            assert ended and ended[0]["data"] == {} and "private" not in ended[0]
            text = json.dumps(frame["events"])
            assert "b1" not in text and "b2" not in text and "r10" not in text
        await server.close()

    asyncio.run(main())
