"""The server applies the time-out at the deadline (RULES.md §4.3), judging the last
draft; the timer is cancelled when the turn ends; recovery replays the log, and the
clock stands still while the server is down."""

from __future__ import annotations

import asyncio
from typing import Any

from meldtour.live import LiveServer, ManualClock, MemoryLog, SeatConfig, TableConfig

from .helpers import drain, known_deal, next_of, until

HUMAN = SeatConfig("human")


async def table(
    clock: ManualClock, preset: str = "standard", log: MemoryLog | None = None, **options: Any
) -> tuple[Any, ...]:
    server = LiveServer(log, clock=clock)
    config = TableConfig.make(preset, [HUMAN, HUMAN], deal=known_deal(), turn_seconds=30, **options)
    game = server.create_table(config, "g1")
    a = await game.subscribe(game.seat_of(await game.join(0, "Ann")))
    b = await game.subscribe(game.seat_of(await game.join(1, "Bo")))
    await until(lambda: game.started)
    return server, game, a, b


def kinds(frame: dict[str, Any]) -> list[str]:
    return [e["kind"] for e in frame["events"]]


def test_nothing_moved_is_a_draw_at_the_deadline_and_not_before() -> None:
    async def main() -> None:
        clock = ManualClock()
        server, game, a, _b = await table(clock)
        clock.advance(29.9)
        await asyncio.sleep(0.05)
        assert game.version == 0
        clock.advance(0.1)
        frame = await next_of(a, "frame")
        assert kinds(frame) == ["timeout", "draw", "turn"]
        assert frame["view"]["rack_sizes"] == [15, 14] and frame["view"]["current"] == 1
        assert frame["view"]["deadline"] == clock.now() + 30
        await server.close()

    asyncio.run(main())


def test_an_unfinished_draft_fails_the_turn_and_drafts_are_checked() -> None:
    async def main() -> None:
        clock = ManualClock()
        server, game, a, b = await table(clock)
        # Ann's draft: one tile of hers on the table. Time runs out: under "standard" the
        # board goes back and she draws 3.
        await game.receive(a, {"type": "draft", "id": "d1", "version": 0, "board": [["b1"]]})
        assert (await next_of(a, "draft_ok"))["id"] == "d1"
        assert (await server.log.load("g1")).draft["board"] == [["b1"]]  # type: ignore[union-attr]
        clock.advance(30)
        frame = await next_of(a, "frame")
        assert kinds(frame)[:2] == ["timeout", "failed_turn"]
        assert frame["view"]["board"] == [] and frame["view"]["rack_sizes"] == [17, 14]
        # Bo's drafts: each checked against his rack as it arrives; the last one counts.
        drain(b)
        await game.receive(
            b, {"type": "draft", "id": "d2", "version": 1, "board": [["k5", "k6", "k7"]]}
        )
        assert (await next_of(b, "refused"))["reason"] == "tile k5 is not on your rack"
        await game.receive(
            b, {"type": "draft", "id": "d3", "version": 1, "board": [["r1", "r3", "r9"]]}
        )
        await next_of(b, "draft_ok")
        await game.receive(
            b,
            {
                "type": "draft",
                "id": "d4",
                "version": 1,
                "board": [["o8", "r9", "b10"], ["k12", "o13", "k1"]],
            },
        )
        await next_of(b, "draft_ok")
        await game.receive(
            b, {"type": "draft", "id": "d5", "version": 1, "board": [["b3", "b4", "J"]]}
        )
        assert "not on your rack" in (await next_of(b, "refused"))["reason"]
        await game.receive(
            b, {"type": "draft", "id": "d6", "version": 1, "board": [["k12", "k6", "k7"]]}
        )
        await next_of(b, "draft_ok")
        clock.advance(30)
        frame = await next_of(b, "frame")
        assert kinds(frame)[:2] == ["timeout", "failed_turn"]
        await server.close()

    asyncio.run(main())


def test_a_legal_draft_stands_at_the_time_out() -> None:
    async def main() -> None:
        clock = ManualClock()
        server, game, a, _b = await table(clock)
        await game.receive(
            a, {"type": "draft", "id": "d", "version": 0, "board": [["r10", "r11", "r12"]]}
        )
        await next_of(a, "draft_ok")
        clock.advance(31)
        frame = await next_of(a, "frame")
        assert kinds(frame)[:3] == ["timeout", "initial_meld", "play"]
        assert frame["view"]["board"] == [["r10", "r11", "r12"]]
        await server.close()

    asyncio.run(main())


def test_the_timer_is_cancelled_when_the_turn_ends_and_late_moves_are_stale() -> None:
    async def main() -> None:
        clock = ManualClock()
        server, game, a, b = await table(clock)
        clock.advance(20)
        await game.receive(a, {"type": "move", "id": "1", "version": 0, "action": "draw"})
        assert game.version == 1
        clock.advance(15)  # Ann's old deadline passes: nothing happens to Bo (35 s < 20+30)
        await asyncio.sleep(0.05)
        assert game.version == 1
        clock.advance(15)  # Bo's deadline passes; his late draw arrives before the timer's turn
        await game.receive(b, {"type": "move", "id": "2", "version": 1, "action": "draw"})
        await until(lambda: game.version == 2)
        stale = await next_of(b, "stale")
        assert stale["version"] == 2
        assert game.state is not None and game.state.history[-1].action == "timeout"
        await server.close()

    asyncio.run(main())


def test_recovery_replays_the_log_with_the_draft_and_pauses_the_clock() -> None:
    async def main() -> None:
        clock = ManualClock()
        log = MemoryLog()
        server, game, a, b = await table(clock, log=log)
        await game.receive(
            a,
            {
                "type": "move",
                "id": "1",
                "version": 0,
                "action": "play",
                "board": [["r10", "r11", "r12"]],
            },
        )
        clock.advance(5)
        await game.receive(b, {"type": "move", "id": "2", "version": 1, "action": "draw"})
        clock.advance(4)
        await game.receive(
            a, {"type": "draft", "id": "3", "version": 2, "board": [["r10", "r11", "r12"], ["b1"]]}
        )
        await next_of(a, "draft_ok")
        before = game.state
        await server.close()  # the process dies; the log survives

        clock.advance(10)
        again = LiveServer(log, clock=clock)
        assert await again.recover() == ["g1"]
        game2 = again.get("g1")
        assert game2 is not None and game2.state is not None and before is not None
        s1, s2 = before, game2.state
        assert (s2.racks, s2.board, s2.pool, s2.draft) == (s1.racks, s1.board, s1.pool, s1.draft)
        # Last seen alive at the draft (+9, 4 s into the turn): 26 s are left, from now.
        assert s1.deadline is not None and s2.deadline == s1.deadline + 10
        assert game2.seat_of("nope") is None and game2.names == ["Ann", "Bo"]
        watcher = await game2.subscribe(None)
        assert (await next_of(watcher, "snapshot"))["version"] == 2
        # 26 s after the restart the server applies the time-out with the draft.
        clock.advance(25.9)
        await asyncio.sleep(0.05)
        assert game2.version == 2
        clock.advance(0.1)
        frame = await next_of(watcher, "frame")
        assert kinds(frame)[:2] == ["timeout", "failed_turn"]
        assert frame["view"]["rack_sizes"] == [14, 15]
        await again.close()

    asyncio.run(main())
