"""The live protocol: versions, acks, refusals with the engine's reason, stale and
duplicate submissions ignored safely, resync by version or snapshot, the log written
before anything is broadcast."""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any

import pytest

from meldtour.live import LiveServer, ManualClock, MemoryLog, SeatConfig, TableConfig, TableError

from .helpers import drain, known_deal, next_of, until

HUMAN = SeatConfig("human")


def two_people(**options: Any) -> TableConfig:
    return TableConfig.make("standard", [HUMAN, HUMAN], deal=known_deal(), **options)


async def seated(server: LiveServer, config: TableConfig) -> tuple[Any, ...]:
    game = server.create_table(config, "g1")
    a = await game.subscribe(game.seat_of(await game.join(0, "Ann")))
    b = await game.subscribe(game.seat_of(await game.join(1, "Bo")))
    watcher = await game.subscribe(None)
    await until(lambda: game.started)
    return game, a, b, watcher


def test_join_start_move_duplicate_stale_and_refusal() -> None:
    async def main() -> None:
        clock = ManualClock()
        server = LiveServer(clock=clock)
        game = server.create_table(two_people(), "g1")
        early = await game.subscribe(None)
        assert (await next_of(early, "snapshot"))["view"] is None
        token = await game.join(0, "  Ann  ")
        assert game.seat_of(token) == 0 and game.seat_of("forged") is None
        with pytest.raises(TableError):
            await game.join(0, "Eve")
        with pytest.raises(TableError):
            await game.join(1, "   ")
        assert (await next_of(early, "table"))["table"]["seats"][0]["name"] == "Ann"
        await game.join(1, "Bo")
        started = await next_of(early, "snapshot")
        assert started["view"]["rack"] == [] and started["view"]["rack_sizes"] == [14, 14]
        a = await game.subscribe(0)
        b = await game.subscribe(1)
        snap = await next_of(a, "snapshot")
        assert snap["version"] == 0 and snap["view"]["current"] == 0
        assert "r10" in snap["view"]["rack"]

        # A move the rules refuse: the engine's reason, nothing changes.
        await game.receive(
            a,
            {"type": "move", "id": "m1", "version": 0, "action": "play", "board": [["r10", "r11"]]},
        )
        refused = await next_of(a, "refused")
        assert refused["id"] == "m1" and "at least 3" in refused["reason"]
        assert game.version == 0

        # Not your turn.
        await game.receive(b, {"type": "move", "id": "x", "version": 0, "action": "draw"})
        assert "turn" in (await next_of(b, "refused"))["reason"]

        # The initial meld is accepted: a frame for everyone, then the ack.
        board = [["r10", "r11", "r12"]]
        await game.receive(
            a, {"type": "move", "id": "m2", "version": 0, "action": "play", "board": board}
        )
        frame = await next_of(a, "frame")
        assert frame["version"] == 1 and frame["view"]["board"] == board
        assert (await next_of(a, "ack")) == {"type": "ack", "id": "m2", "version": 1}
        assert (await next_of(b, "frame"))["view"]["board"] == board
        assert (await next_of(early, "frame"))["view"]["rack"] == []

        # The same request again (a resend after a lost connection): answered, not applied.
        await game.receive(
            a, {"type": "move", "id": "m2", "version": 0, "action": "play", "board": board}
        )
        again = await next_of(a, "ack")
        assert again["duplicate"] is True and game.version == 1
        # A submission against an old version: ignored, with the version to catch up to.
        await game.receive(b, {"type": "move", "id": "b1", "version": 0, "action": "draw"})
        assert (await next_of(b, "stale"))["version"] == 1 and game.version == 1
        # Bo draws; only Bo sees which tile.
        drain(a)
        await game.receive(b, {"type": "move", "id": "b2", "version": 1, "action": "draw"})
        mine = await next_of(b, "frame")
        theirs = await next_of(a, "frame")
        drawn = next(e for e in mine["events"] if e["kind"] == "draw")
        assert drawn["private"]["tiles"] == ["k1"]  # the pool's first tile
        seen = next(e for e in theirs["events"] if e["kind"] == "draw")
        assert "private" not in seen and seen["data"]["count"] == 1
        assert theirs["view"]["rack_sizes"] == [11, 15]
        await server.close()

    asyncio.run(main())


def test_the_ack_in_the_movers_frame_when_asked() -> None:
    """A move sent with ``"ack": "frame"`` (the page's) is acknowledged in the mover's
    own frame — one message fewer a move — and in no one else's; a repeat of it gets
    the ack message; a refusal is the refusal as ever."""

    async def main() -> None:
        server = LiveServer(clock=ManualClock())
        game, a, b, watcher = await seated(server, two_people())
        for sub in (a, b, watcher):
            drain(sub)
        board = [["r10", "r11", "r12"]]
        move = {"type": "move", "id": "m1", "version": 0, "action": "play", "ack": "frame"}
        await game.receive(a, {**move, "board": [["r10", "r11"]]})
        assert (await next_of(a, "refused"))["id"] == "m1" and game.version == 0
        await game.receive(a, {**move, "id": "m2", "board": board})
        mine = await next_of(a, "frame")
        assert mine["ack"] == "m2" and mine["version"] == 1 and mine["view"]["board"] == board
        assert "ack" not in await next_of(b, "frame")
        assert "ack" not in await next_of(watcher, "frame")
        await asyncio.sleep(0)
        assert all(m["type"] != "ack" for m in drain(a))  # no ack message besides
        await game.receive(a, {**move, "id": "m2", "board": board})  # a resend
        again = await next_of(a, "ack")
        assert again == {"type": "ack", "id": "m2", "version": 1, "duplicate": True}
        # Without asking, the ack message as before.
        await game.receive(b, {"type": "move", "id": "b1", "version": 1, "action": "draw"})
        assert "ack" not in await next_of(b, "frame")
        assert (await next_of(b, "ack"))["id"] == "b1"
        await server.close()

    asyncio.run(main())


def test_spectators_cannot_move_and_garbage_is_refused() -> None:
    async def main() -> None:
        server = LiveServer(clock=ManualClock())
        game, a, _b, watcher = await seated(server, two_people())
        await game.receive(watcher, {"type": "move", "id": "w", "version": 0, "action": "draw"})
        assert "spectator" in (await next_of(watcher, "refused"))["reason"]
        await game.receive(
            a, {"type": "move", "id": "g", "version": 0, "action": "play", "board": [["zz9"]]}
        )
        assert (await next_of(a, "refused"))["id"] == "g"
        await game.receive(a, {"type": "move", "id": "h", "version": 0, "action": "fly"})
        assert "unknown action" in (await next_of(a, "refused"))["reason"]
        await game.receive(a, {"type": "nonsense"})
        assert (await next_of(a, "error"))["type"] == "error"
        assert game.version == 0
        await server.close()

    asyncio.run(main())


def test_reconnect_gets_missed_frames_or_a_snapshot() -> None:
    async def main() -> None:
        server = LiveServer(clock=ManualClock())
        game, a, b, _w = await seated(server, two_people())
        for v in range(4):
            sub = a if v % 2 == 0 else b
            await game.receive(sub, {"type": "move", "id": f"d{v}", "version": v, "action": "draw"})
        await until(lambda: game.version == 4)
        back = await game.subscribe(1)
        drain(back)
        await game.receive(back, {"type": "hello", "version": 1})
        await until(lambda: back.queue.qsize() == 3)
        frames = drain(back)
        assert [f["version"] for f in frames] == [2, 3, 4]
        assert all(f["type"] == "frame" for f in frames)
        # Only Bo's own draws show their tiles.
        private = [e for f in frames for e in f["events"] if "private" in e]
        assert private and all(e["seat"] == 1 for e in private)
        await game.receive(back, {"type": "hello", "version": 4})
        assert (await next_of(back, "synced"))["version"] == 4
        for version in (None, 99, -1, "2"):
            await game.receive(back, {"type": "hello", "version": version})
            assert (await next_of(back, "snapshot"))["version"] == 4
        # Frames no longer kept: a snapshot instead.
        game.frames = deque(list(game.frames)[-1:], maxlen=1)
        await game.receive(back, {"type": "hello", "version": 1})
        assert (await next_of(back, "snapshot"))["version"] == 4
        await server.close()

    asyncio.run(main())


class WatchfulLog(MemoryLog):
    """Checks that no subscriber has heard of a move when it is logged."""

    def __init__(self) -> None:
        super().__init__()
        self.subscribers: list[Any] = []
        self.fail = False
        self.heard_before: list[int] = []

    async def append(self, game_id: str, index: int, move: Any) -> None:
        if self.fail:
            raise OSError("disk full")
        for sub in self.subscribers:
            for m in list(sub.queue._queue):
                if m.get("type") == "frame" and m["version"] > index:
                    self.heard_before.append(index)
        await super().append(game_id, index, move)


def test_the_log_is_written_before_anything_is_broadcast() -> None:
    async def main() -> None:
        wlog = WatchfulLog()
        server = LiveServer(wlog, clock=ManualClock())
        game, a, b, w = await seated(server, two_people())
        wlog.subscribers = [a, b, w]
        await game.receive(a, {"type": "move", "id": "1", "version": 0, "action": "draw"})
        await game.receive(b, {"type": "move", "id": "2", "version": 1, "action": "draw"})
        await until(lambda: game.version == 2)
        assert wlog.heard_before == []
        logged = await wlog.load("g1")
        assert logged is not None and [m["action"] for m in logged.moves] == ["draw", "draw"]
        assert all(m["at"] is not None for m in logged.moves)
        # A log that cannot write: the move is not applied and nobody hears of it.
        wlog.fail = True
        drain(a), drain(b)
        with pytest.raises(OSError):
            await game.receive(a, {"type": "move", "id": "3", "version": 2, "action": "draw"})
        assert game.version == 2 and not [m for m in drain(b) if m["type"] == "frame"]
        await server.close()

    asyncio.run(main())


def test_others_watch_drafts_only_when_the_table_says_so() -> None:
    async def main() -> None:
        for watch in (False, True):
            server = LiveServer(clock=ManualClock())
            game, a, b, w = await seated(server, two_people(watch_drafts=watch))
            drain(b), drain(w)
            await game.receive(
                a, {"type": "draft", "id": "d", "version": 0, "board": [["r10", "r11"]]}
            )
            await next_of(a, "draft_ok")
            heard = [m for sub in (b, w) for m in drain(sub)]
            if watch:
                assert [m["type"] for m in heard] == ["draft", "draft"]
                assert heard[0]["board"] == [["r10", "r11"]] and heard[0]["seat"] == 0
                late = await game.subscribe(None)
                snap = await next_of(late, "snapshot")
                assert snap["view"]["watched_draft"] == [["r10", "r11"]]
            else:
                assert heard == []
                late = await game.subscribe(1)
                snap = await next_of(late, "snapshot")
                assert "watched_draft" not in snap["view"] and snap["view"]["draft"] is None
            await server.close()

    asyncio.run(main())
