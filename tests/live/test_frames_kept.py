"""A move's frames are made from what the live game keeps of the last one (the board's
JSON while the board is the same, each seat's rack and draft while they are, the
events every seat sees alike once): over whole games, with drafts shown to the others
or not, every seat's and a spectator's frame after every move is exactly the view the
referee gives of the state then, and its text is exactly its JSON."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from meldtour.core.moves import Play
from meldtour.core.record import move_to_json
from meldtour.core.views import player_view
from meldtour.live import LiveServer, ManualClock, SeatConfig, TableConfig
from meldtour.live.game import text_of
from meldtour.players.levels import make_player

from .helpers import drain, until

HUMAN = SeatConfig("human")


@pytest.mark.parametrize("watch", [False, True])
def test_every_frame_shows_the_state_of_its_move(watch: bool) -> None:
    draws = plays = 0
    for seed in range(1, 5):
        d, p = asyncio.run(_whole_game(seed, watch))
        draws, plays = draws + d, plays + p
    assert draws >= 10 and plays >= 30, (draws, plays)  # both kinds of move, many times


async def _whole_game(seed: int, watch: bool) -> tuple[int, int]:
    """Draws and plays of one game, every frame checked."""
    server = LiveServer(clock=ManualClock())
    game = server.create_table(
        TableConfig.make("krc-2015", [HUMAN] * 4, seed=seed, watch_drafts=watch), "g1"
    )
    for seat in range(4):
        await game.join(seat, f"P{seat}")
    subs = [await game.subscribe(seat) for seat in range(4)] + [await game.subscribe(None)]
    await until(lambda: game.started)
    players = [make_player("greedy", f"P{seat}", seed + seat) for seat in range(4)]
    moves = draws = 0
    while game.state is not None and game.state.end is None and moves < 400:
        state = game.state
        seat = state.current
        move = players[seat].decide(player_view(state, seat))
        if isinstance(move, Play) and moves % 2:  # a draft first: seen, then played
            draft = {"type": "draft", "id": f"d{moves}", "version": game.version}
            await game.receive(subs[seat], {**draft, "board": move_to_json(move)["board"]})
        for sub in subs:
            drain(sub)
        message = {"type": "move", "id": f"m{moves}", "version": game.version}
        await game.receive(subs[seat], {**message, **move_to_json(move)})
        await until(lambda: all(not sub.queue.empty() for sub in subs))
        after = game.state
        assert after is not None
        for sub in subs:
            frames: list[Any] = [m for m in drain(sub) if m["type"] == "frame"]
            assert len(frames) == 1, sub.seat
            frame = frames[0]
            assert json.loads(text_of(frame)) == json.loads(json.dumps(frame))
            expected = player_view(after, sub.seat).to_json()
            if after.seat_draws:  # the draws for the first turn, face up at the table
                expected["seat_draw"] = [[[s, str(t)] for s, t in r] for r in after.seat_draws]
            assert frame["view"] == expected, (moves, sub.seat)
        moves += 1
        draws += after.board is state.board
    assert game.state is not None and game.state.end is not None
    await server.close()
    return draws, moves - draws
