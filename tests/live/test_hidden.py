"""Hidden information: every message sent to every subscriber in whole games (people
drafting and drawing, computer players playing) is recorded, and none holds a tile
its recipient may not see — no other rack, no draft of another player, no pool tile.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections import Counter
from typing import Any

import pytest

from meldtour.core.melds import parse_board
from meldtour.core.state import GameState
from meldtour.core.tiles import format_tiles
from meldtour.core.views import player_view
from meldtour.live import LiveGame, LiveServer, SeatConfig, Subscriber, TableConfig
from meldtour.live.game import ENCODE
from meldtour.players.base import no_play

from .helpers import until

TILE = re.compile(r"(?<![\w])([krob](?:1[0-3]|[1-9])|J)(?![\w])")


#: Fields that are identifiers, never tiles: a random game id such as ``Qx-k5_3a``
#: holds "k5" between word boundaries (the Redis restart test once failed on one).
NOT_TILES = frozenset({"id"})


def tiles_in(value: Any, key: str | None = None) -> Counter[str]:
    """Every tile named anywhere in a message (keys are field names, not tiles; the
    values of :data:`NOT_TILES` fields are identifiers)."""
    found: Counter[str] = Counter()
    if key in NOT_TILES:
        return found
    if isinstance(value, str):
        found.update(TILE.findall(value))
    elif isinstance(value, dict):
        for k, v in value.items():
            found += tiles_in(v, k)
    elif isinstance(value, list | tuple):
        for v in value:
            found += tiles_in(v, key)
    return found


def keys_in(value: Any) -> set[str]:
    if isinstance(value, dict):
        out = set(value)
        for v in value.values():
            out |= keys_in(v)
        return out
    if isinstance(value, list):
        return set().union(*(keys_in(v) for v in value)) if value else set()
    return set()


def values_of(value: Any, name: str) -> list[Any]:
    """Every value stored under the key ``name``, at any depth."""
    out: list[Any] = []
    if isinstance(value, dict):
        for k, v in value.items():
            if k == name:
                out.append(v)
            out.extend(values_of(v, name))
    elif isinstance(value, list):
        for v in value:
            out.extend(values_of(v, name))
    return out


def may_see(states: list[GameState], seat: int | None) -> Counter[str]:
    """The tiles ``seat`` may see across these states: the board, its own rack and its
    own draft; every rack once the game is over."""
    allowed: Counter[str] = Counter()
    for s in states:
        table = Counter(format_tiles([t for m in s.board for t in m.tiles]))
        in_state = Counter(table)
        if seat is not None:
            if s.draft is not None and s.current == seat:
                table |= Counter(format_tiles([t for m in s.draft for t in m.tiles]))
            in_state = table + Counter(format_tiles(s.racks[seat]))
        if s.end is not None:
            in_state = table + Counter(format_tiles([t for r in s.racks for t in r]))
        # The seat draw is made face up at the table (and the tiles go back to a
        # pool shuffled again): everyone saw it.
        in_state |= Counter(str(t) for r in s.seat_draws for _, t in r)
        allowed |= in_state  # the most of each tile in any one of the states
    return allowed


def hidden_tiles(
    seat: int | None, message: dict[str, Any], around: list[GameState]
) -> Counter[str]:
    """The tiles of ``message`` that ``seat`` may not see (empty if none)."""
    allowed = may_see(around, seat)
    view = message.get("view") or {}
    # The view's rack and board together (they are disjoint), its other fields and each
    # event field apart (a play names its placed tiles and the board that holds them).
    parts = [
        [view.get("board"), view.get("rack")],
        *(v for k, v in view.items() if k not in ("board", "rack")),
        *(v for k, v in message.items() if k not in ("view", "events", "recent")),
    ]
    # The recent moves (a page's "what just happened"), each on its own: a board of an
    # earlier move was on the table for all to see, and a table only grows.
    for move in message.get("recent") or []:
        if not isinstance(move, dict):
            parts.append(move)
            continue
        parts.extend(v for k, v in move.items() if k != "events")
        for event in move.get("events") or []:
            parts.extend((event.get("private") or {}).values())
            parts.extend((event.get("data") or {}).values())
    for event in message.get("events", []):
        parts.extend((event.get("private") or {}).values())
        parts.extend(event["data"].values())
    extra: Counter[str] = Counter()
    for part in parts:
        extra |= tiles_in(part) - allowed
    return extra


class Recorder:
    """Wraps every subscriber's ``send``: the message, and the states around it."""

    def __init__(self, game: LiveGame) -> None:
        self.game = game
        self.sent: list[tuple[int | None, dict[str, Any], list[GameState]]] = []
        self.states: dict[int, GameState] = {}

    def watch(self, sub: Subscriber) -> None:
        original = sub.send

        def send(message: dict[str, Any]) -> None:
            state = self.game.state
            around = []
            if state is not None:
                self.states.setdefault(len(state.history), state)
                around = [state, self.states.get(len(state.history) - 1, state)]
            self.sent.append((sub.seat, message, around))
            original(message)

        sub.send = send  # type: ignore[method-assign]


async def person(game: LiveGame, sub: Subscriber, seat: int) -> None:
    """Drafts a tile of its own onto the table, then draws (or plays when it must)."""
    n = 0
    while True:
        message = await sub.queue.get()
        view = message.get("view")
        if not view or view["end"] is not None:
            if view and view["end"] is not None:
                return
            continue
        if view["current"] != seat or message["type"] not in ("snapshot", "frame"):
            continue
        version = message["version"]
        n += 1
        draft = [*view["board"], [view["rack"][0]]]
        await game.receive(
            sub, {"type": "draft", "id": f"{seat}-{n}d", "version": version, "board": draft}
        )
        pv = player_view(game.state, seat)  # type: ignore[arg-type]
        move = no_play(pv)
        out: dict[str, Any] = {
            "type": "move",
            "id": f"{seat}-{n}",
            "version": version,
            "action": move.action,
        }
        if move.action == "play":
            out["board"] = [m.to_json() for m in move.board]  # type: ignore[union-attr]
        await game.receive(sub, out)


@pytest.mark.parametrize(("preset", "seed"), [("standard", 3), ("korea-official", 11)])
def test_no_message_holds_a_hidden_tile(preset: str, seed: int) -> None:
    async def main() -> None:
        server = LiveServer()
        seats = [
            SeatConfig("human"),
            SeatConfig("computer", "greedy"),
            SeatConfig("human"),
            SeatConfig("computer", "expert"),
        ]
        game = server.create_table(
            TableConfig.make(preset, seats, seed=seed, bot_delay=0), "hidden"
        )
        rec = Recorder(game)
        watcher = await game.subscribe(None)
        rec.watch(watcher)
        bots = [await game.subscribe(s) for s in (1, 3)]
        for sub in bots:
            rec.watch(sub)
        people = []
        for seat, name in ((0, "Ann"), (2, "Cy")):
            token = await game.join(seat, name)
            sub = await game.subscribe(game.seat_of(token))
            rec.watch(sub)
            people.append(asyncio.create_task(person(game, sub, seat)))
        await until(lambda: game.over, timeout=120)
        await asyncio.gather(*people)
        await server.close()

        assert game.state is not None and game.state.end is not None
        frames = [m for _s, m, _a in rec.sent if m["type"] == "frame"]
        assert len(frames) >= 5 * 20
        assert any(e["kind"] == "draw" and "private" in e for f in frames for e in f["events"])
        drafts = [m for _s, m, _a in rec.sent if m["type"] == "draft_ok"]
        assert drafts, "the people drafted"
        checked = encoded = 0
        for seat, message, around in rec.sent:
            over = message.get("view") is not None and message["view"]["end"] is not None
            keys = keys_in(message)
            assert all(isinstance(v, int) for v in values_of(message, "pool")), message
            if not over:
                assert "racks" not in keys
                assert all(v is None for v in values_of(message, "final_racks"))
            if seat is None and message.get("view") and not over:
                assert message["view"]["rack"] == []
            if message.get("view") and message["view"].get("draft") is not None:
                assert message["view"]["current"] == seat
            extra = hidden_tiles(seat, message, around)
            assert not extra, repr((seat, dict(extra), message))
            text = getattr(message, "text", None)
            if text is not None:  # what the socket sends is exactly the message checked
                assert text == ENCODE(dict(message)) and json.loads(text) == message
                encoded += 1
            checked += 1
        assert checked == len(rec.sent) > 200
        assert encoded >= len(frames)  # every move's frame is sent as the text made with it
        # The check itself finds a leak: another seat's rack slipped into a frame.
        seat, message, around = next(
            x for x in rec.sent if x[0] == 1 and x[1]["type"] == "frame" and x[2][0].end is None
        )

        def slipped(tiles: Any) -> dict[str, Any]:
            event = {"kind": "x", "seat": 0, "data": {"t": format_tiles(tiles)}}
            return {**message, "events": [event]}

        assert hidden_tiles(seat, slipped(around[0].racks[0]), around)
        assert hidden_tiles(seat, slipped(around[0].pool), around)
        assert not hidden_tiles(seat, slipped(around[0].racks[1]), around)
        # The record of the game replays from the log to the same end.
        logged = await server.log.load("hidden")
        assert logged is not None and logged.result is not None
        assert logged.result["scores"] == list(game.state.scores or ())
        assert parse_board(logged.moves[-1].get("board", [])) is not None

    asyncio.run(main())
