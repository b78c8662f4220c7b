"""The hint for learners: the solver's best play for the seat to move, to that seat
alone, at casual tables only (never at a tournament's table, nor when the host turned
hints off), a few a turn at most."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

from meldtour.live import LiveServer, ManualClock, TableConfig
from meldtour.live.game import HINTS_PER_TURN

from .helpers import drain, next_of
from .test_protocol import seated as seated_on
from .test_protocol import two_people


async def seated(config: TableConfig, clock: ManualClock) -> tuple[Any, ...]:
    return await seated_on(LiveServer(clock=clock), config)


def test_a_hint_is_the_best_play_for_that_seat_alone() -> None:
    async def main() -> None:
        clock = ManualClock()
        game, a, b, watcher = await seated(two_people(hints=True), clock)
        assert game.table_json()["hints"] is True
        for s in (a, b, watcher):
            drain(s)
        await game.receive(a, {"type": "hint", "id": "h1", "version": 0})
        hint = await next_of(a, "hint")
        # Seat 0's only initial meld worth 30: r10 r11 r12.
        assert hint["id"] == "h1" and hint["version"] == 0 and hint["action"] == "play"
        assert hint["board"] == [["r10", "r11", "r12"]]
        assert sorted(hint["tiles"]) == ["r10", "r11", "r12"]
        # Nothing changed on the server, and nobody else heard of it.
        assert game.version == 0 and game.state.draft is None
        await asyncio.sleep(0.01)
        assert not [m for m in drain(b) + drain(watcher) if m["type"] == "hint"]
        # Not your turn; a spectator.
        await game.receive(b, {"type": "hint", "id": "h2", "version": 0})
        assert (await next_of(b, "refused"))["code"] == "live.hint.not_your_turn"
        await game.receive(watcher, {"type": "hint", "id": "h3", "version": 0})
        assert (await next_of(watcher, "refused"))["code"] == "live.spectator"
        # The hint taken: the player ends the turn with it.
        await game.receive(
            a, {"type": "move", "id": "m", "version": 0, "action": "play", "board": hint["board"]}
        )
        assert (await next_of(a, "ack"))["version"] == 1
        # Seat 1 holds no initial meld: the hint says draw.
        await game.receive(b, {"type": "hint", "id": "h4", "version": 1})
        hint = await next_of(b, "hint")
        assert hint["action"] == "draw" and hint["board"] is None and hint["tiles"] == []
        await game.close()

    asyncio.run(main())


def test_hints_are_counted_per_turn() -> None:
    async def main() -> None:
        clock = ManualClock()
        game, a, b, _w = await seated(two_people(hints=True), clock)
        drain(a)
        for i in range(HINTS_PER_TURN):
            await game.receive(a, {"type": "hint", "id": f"h{i}", "version": 0})
            hint = await next_of(a, "hint")
            assert hint["id"] == f"h{i}" and hint["left"] == HINTS_PER_TURN - i - 1
        await game.receive(a, {"type": "hint", "id": "over", "version": 0})
        refused = await next_of(a, "refused")
        assert refused["code"] == "live.hint.too_many" and refused["hint"] is True
        assert refused["params"] == {"n": HINTS_PER_TURN}
        # The next turns: the other player's, then Ann's own again, with a full count.
        await game.receive(a, {"type": "move", "id": "d1", "version": 0, "action": "draw"})
        assert (await next_of(a, "ack"))["version"] == 1
        drain(b)
        await game.receive(b, {"type": "move", "id": "d2", "version": 1, "action": "draw"})
        assert (await next_of(b, "ack"))["version"] == 2
        await game.receive(a, {"type": "hint", "id": "again", "version": 2})
        again = await next_of(a, "hint")
        assert again["id"] == "again" and again["left"] == HINTS_PER_TURN - 1
        await game.close()

    asyncio.run(main())


def test_no_hint_at_a_tournament_table_nor_when_the_host_turned_it_off() -> None:
    async def main() -> None:
        clock = ManualClock()
        for config, code in (
            (two_people(hints=True, tournament=True), "live.hint.tournament"),
            (two_people(hints=False), "live.hint.off"),
        ):
            game, a, _b, _w = await seated(config, clock)
            assert game.table_json()["hints"] is False
            drain(a)
            await game.receive(a, {"type": "hint", "id": "h", "version": 0})
            refused = await next_of(a, "refused")
            assert refused["code"] == code and refused["id"] == "h"
            await game.close()

    asyncio.run(main())


def test_the_hint_settings_travel_with_the_table() -> None:
    config = two_people(hints=True, tournament=True)
    again = TableConfig.from_json(config.to_json())
    assert again == config
    old = config.to_json()
    del old["hints"], old["tournament"]  # a table logged before hints: none
    assert TableConfig.from_json(old) == dataclasses.replace(config, hints=False, tournament=False)
