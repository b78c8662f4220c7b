"""Under rules whose redeal is demanded before the game starts (krc-2015), a computer
player to move first waits a moment, so that a person holding enough doubles can still
demand the redeal; without that wait the window would close with the computer's move."""

from __future__ import annotations

import asyncio

from meldtour.core.game import doubles, new_game
from meldtour.core.rules import find_rules
from meldtour.live import LiveServer, SeatConfig, TableConfig

from .helpers import next_of, until

RULES = find_rules("krc-2015")
SEATS = [SeatConfig("computer", "greedy"), SeatConfig("human")]


def seed_with_doubles_for_the_person() -> int:
    """A shuffle where the computer (seat 0) moves first and the person holds enough
    doubles for the redeal right."""
    for seed in range(10_000):
        state = new_game(RULES, ["greedy 1", "Ann"], seed).state
        if state.current == 0 and doubles(state.racks[1]) >= RULES.redeal_doubles:
            return seed
    raise AssertionError("no such seed")


def play(grace: float) -> dict[str, object]:
    async def main() -> dict[str, object]:
        server = LiveServer()
        config = TableConfig.make(
            "krc-2015",
            SEATS,
            seed=seed_with_doubles_for_the_person(),
            bot_delay=0.0,
            redeal_grace=grace,
        )
        game = server.create_table(config, "g")
        me = await game.subscribe(game.seat_of(await game.join(1, "Ann")))
        await until(lambda: game.started)
        await next_of(me, "snapshot")
        await asyncio.sleep(0.2)  # a person takes a moment to see the doubles
        await game.receive(
            me, {"type": "move", "id": "r1", "version": game.version, "action": "redeal"}
        )
        try:
            while True:
                answer: dict[str, object] = await asyncio.wait_for(me.queue.get(), 10)
                if answer["type"] in ("ack", "refused", "stale"):
                    return answer
        finally:
            await server.close()

    return asyncio.run(main())


def test_a_person_can_demand_the_redeal_while_the_computer_waits() -> None:
    assert play(grace=2.0)["type"] == "ack"


def test_without_the_wait_the_window_would_have_closed() -> None:
    answer = play(grace=0.0)
    assert answer["type"] in ("refused", "stale"), answer
