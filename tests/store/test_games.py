"""The live games' log in the database, on SQLite and PostgreSQL: moves appended in
order only, drafts overwritten, the result and the heartbeat kept, unfinished games
listed; a game played through the store log and recovered in a new server is the
same game with its clock paused; backups carry the log."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from meldtour.live import LiveServer, ManualClock, SeatConfig, TableConfig
from meldtour.live.log import LogError, StoreLog
from meldtour.store import games
from meldtour.store.backup import dumps, restore
from meldtour.store.db import Store, open_store
from tests.live.helpers import known_deal, next_of, until

from .backends import database

HEADER = {
    "rules": "standard",
    "players": ["Ann", "Bo"],
    "seed": 7,
    "started_at": 100.0,
    "table": {
        "rules": "standard",
        "seats": [{"kind": "human", "level": None}, {"kind": "computer", "level": "greedy"}],
        "seed": 7,
        "watch_drafts": True,
        "bot_delay": 0.8,
        "names": ["Ann", "greedy 2"],
        "keys": ["ab" * 32, None],
    },
}


def test_moves_in_order_drafts_overwritten_result_and_heartbeat(store: Store) -> None:
    games.start_game(store, "g1", HEADER)
    with pytest.raises(games.GameLogError, match="already"):
        games.start_game(store, "g1", HEADER)
    games.append_move(store, "g1", 0, {"seat": 0, "action": "draw", "at": 101.5})
    with pytest.raises(games.GameLogError, match="move 2 appended after 1"):
        games.append_move(store, "g1", 2, {"seat": 1, "action": "draw", "at": 102.0})
    with pytest.raises(games.GameLogError, match="move 0 appended after 1"):
        games.append_move(store, "g1", 0, {"seat": 1, "action": "draw", "at": 102.0})
    with pytest.raises(games.GameLogError, match="not in the log"):
        games.append_move(store, "nope", 0, {"seat": 0, "action": "draw"})
    games.put_draft(store, "g1", {"version": 1, "seat": 1, "board": [["r1"]], "at": 103.0})
    games.put_draft(store, "g1", {"version": 1, "seat": 1, "board": [["r2"]], "at": 104.0})
    games.mark_alive(store, "n1", ["g1", "unknown"], 104.5)
    games.add_resume(store, "g1", {"version": 1, "turn_started": 110.0, "at": 120.0})
    games.start_game(store, "g2", {**HEADER, "started_at": 200.0})
    assert games.unfinished_games(store) == ["g1", "g2"]
    got = games.load_game(store, "g1")
    assert got is not None
    assert got.header == HEADER
    assert got.moves == [{"seat": 0, "action": "draw", "at": 101.5}]
    assert got.draft == {"version": 1, "seat": 1, "board": [["r2"]], "at": 104.0}
    assert got.alive_at == 104.5
    assert got.resumes == [{"version": 1, "turn_started": 110.0, "at": 120.0}]
    games.append_move(store, "g1", 1, {"seat": 1, "action": "draw", "at": 125.0})
    assert games.load_game(store, "g1").draft is None  # type: ignore[union-attr]
    games.finish_game(store, "g1", {"end": "out", "winner": 0, "scores": [10, -10]})
    assert games.unfinished_games(store) == ["g2"]
    assert games.load_game(store, "g1").result == {  # type: ignore[union-attr]
        "end": "out",
        "winner": 0,
        "scores": [10, -10],
    }
    assert games.load_game(store, "nope") is None


def test_the_store_log_refuses_as_the_memory_log_does(store: Store) -> None:
    async def main() -> None:
        log = StoreLog(store)
        await log.start("g", HEADER)
        with pytest.raises(LogError):
            await log.start("g", HEADER)
        await log.append("g", 0, {"seat": 0, "action": "draw", "at": 1.0})
        with pytest.raises(LogError, match="appended after 1"):
            await log.append("g", 0, {"seat": 0, "action": "draw", "at": 1.0})
        # Concurrent appends of one game: exactly one of each index is taken.
        results = await asyncio.gather(
            *(log.append("g", 1, {"seat": 1, "action": "draw", "at": 2.0}) for _ in range(4)),
            return_exceptions=True,
        )
        assert sum(r is None for r in results) == 1
        logged = await log.load("g")
        assert logged is not None and len(logged.moves) == 2
        log.close()

    asyncio.run(main())


def test_a_game_on_the_store_log_recovers_with_its_clock_paused(db_url: str, store: Store) -> None:
    """Play into the game on one server, drop it (the process dies), recover on a new
    server with a new connection to the same database."""

    async def main() -> None:
        clock = ManualClock()
        server = LiveServer(StoreLog(store), clock=clock)
        config = TableConfig.make(
            "standard",
            [SeatConfig("human"), SeatConfig("human")],
            deal=known_deal(),
            turn_seconds=30,
            watch_drafts=True,
        )
        game = server.create_table(config, "g1")
        token = await game.join(0, "Ann")
        a = await game.subscribe(game.seat_of(token))
        b = await game.subscribe(game.seat_of(await game.join(1, "Bo")))
        await until(lambda: game.started)
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
        await next_of(a, "ack")
        clock.advance(5)
        await game.receive(b, {"type": "move", "id": "2", "version": 1, "action": "draw"})
        await next_of(b, "ack")
        clock.advance(4)
        await game.receive(
            a, {"type": "draft", "id": "3", "version": 2, "board": [["r10", "r11", "r12"], ["b1"]]}
        )
        await next_of(a, "draft_ok")
        await server.log.alive(["g1"], clock.now() + 3)  # the last heartbeat: 7 s in
        before = game.state
        await server.close()
        server.log.close()  # type: ignore[attr-defined]

        clock.advance(60)  # the server is down for a minute
        other = open_store(db_url)
        again = LiveServer(StoreLog(other), clock=clock)
        assert await again.recover() == ["g1"]
        game2 = again.get("g1")
        assert game2 is not None and game2.state is not None and before is not None
        s1, s2 = before, game2.state
        assert (s2.racks, s2.board, s2.pool, s2.draft, s2.history) == (
            s1.racks,
            s1.board,
            s1.pool,
            s1.draft,
            s1.history,
        )
        assert game2.seat_of(token) == 0 and game2.names == ["Ann", "Bo"]
        assert game2.config == config
        assert s2.deadline == clock.now() + 23  # 30 s less the 7 it had used
        # A second restart replays the first resumption, then pauses again.
        await again.close()
        again.log.close()  # type: ignore[attr-defined]
        clock.advance(100)
        third = LiveServer(StoreLog(other), clock=clock)
        await third.recover()
        game3 = third.get("g1")
        assert game3 is not None and game3.state is not None
        assert game3.state.deadline == clock.now() + 23
        watcher = await game3.subscribe(None)
        await next_of(watcher, "snapshot")
        clock.advance(23)
        frame = await next_of(watcher, "frame")
        assert [e["kind"] for e in frame["events"]][:2] == ["timeout", "failed_turn"]
        logged = await third.log.load("g1")
        assert logged is not None and len(logged.moves) == 3 and len(logged.resumes) == 2
        await third.close()
        third.log.close()  # type: ignore[attr-defined]
        other.close()

    asyncio.run(main())


def test_a_backup_carries_the_live_games(store: Store, tmp_path: Path) -> None:
    games.start_game(store, "g1", HEADER)
    games.append_move(store, "g1", 0, {"seat": 0, "action": "draw", "at": 101.25})
    games.put_draft(store, "g1", {"version": 1, "seat": 1, "board": [["r1"]], "at": 103.0})
    games.mark_alive(store, "n1", ["g1"], 104.5)
    games.add_resume(store, "g1", {"version": 1, "turn_started": 110.0, "at": 120.0})
    games.start_game(store, "g2", {**HEADER, "started_at": 200.0})
    games.finish_game(store, "g2", {"end": "out", "winner": 1, "scores": [-3, 3]})
    first = dumps(store)
    assert '"live_game"' in first and '"live_move"' in first
    for kind in ("sqlite", "postgresql"):
        with database(kind, tmp_path) as url:
            other = open_store(url, check=False)
            try:
                restore(other, json.loads(first))
                assert dumps(other) == first
                assert games.unfinished_games(other) == ["g1"]
                assert games.load_game(other, "g1") == games.load_game(store, "g1")
                games.append_move(other, "g1", 1, {"seat": 1, "action": "draw", "at": 130.0})
            finally:
                other.close()


def test_many_games_append_together_and_every_move_is_kept(store: Store) -> None:
    """Group commit: appends of many games at once, each returning once committed."""

    async def main() -> None:
        log = StoreLog(store)
        ids = [f"g{n}" for n in range(20)]
        for gid in ids:
            await log.start(gid, HEADER)

        async def play(gid: str) -> None:
            for i in range(5):
                await log.append(gid, i, {"seat": i % 2, "action": "draw", "at": float(i)})

        await asyncio.gather(*(play(gid) for gid in ids))
        for gid in ids:
            logged = await log.load(gid)
            assert logged is not None
            assert [m["at"] for m in logged.moves] == [0.0, 1.0, 2.0, 3.0, 4.0]
        with pytest.raises(LogError, match="appended after 5"):
            await log.append("g3", 2, {"seat": 0, "action": "draw", "at": 9.0})
        log.close()

    asyncio.run(main())


def test_a_batch_of_moves_drafts_and_heartbeats_is_kept_as_written(store: Store) -> None:
    """The log's usual batch (on SQLite straight to the driver, without waiting for
    the disk: ``Store.passing``) keeps exactly what the toolkit's statements keep, and
    a refused write takes the whole batch back."""
    games.start_game(store, "b1", HEADER)
    games.start_game(store, "b2", HEADER)
    move = {
        "seat": 0,
        "action": "play",
        "board": [["r1", "r2", "r3"], ["J", "k5", "k6"]],
        "at": 1.5,
    }
    games.write(
        store,
        [
            ("append", ("b1", 0, move)),
            ("draft", ("b2", {"version": 0, "seat": 0, "board": [["r1"]], "at": 2.0})),
            ("append", ("b1", 1, {"seat": 1, "action": "draw", "at": None})),
            ("alive", ("n1", ["b1", "b2", "none"], 3.25)),
        ],
    )
    one, two = games.load_game(store, "b1"), games.load_game(store, "b2")
    assert one is not None and two is not None
    assert one.moves == [move, {"seat": 1, "action": "draw", "at": None}]
    assert one.draft is None and one.alive_at == 3.25 and two.alive_at == 3.25
    assert two.draft == {"version": 0, "seat": 0, "board": [["r1"]], "at": 2.0}
    with pytest.raises(games.GameLogError, match="move 5 appended after 3"):
        games.write(
            store,
            [("append", ("b1", 2, move)), ("append", ("b1", 5, move))],
        )
    with pytest.raises(games.GameLogError, match="not in the log"):
        games.write(store, [("draft", ("nope", None))])
    again = games.load_game(store, "b1")
    assert again is not None and len(again.moves) == 2  # the batch was taken back
    games.write(store, [("append", ("b1", 2, move)), ("draft", ("b1", None))])
    last = games.load_game(store, "b1")
    assert last is not None and len(last.moves) == 3


def test_the_heartbeat_is_a_row_a_process_and_never_waits_for_a_game(store: Store) -> None:
    """The heartbeat writes its own process's row (``live_node``), not the games':
    it completes while another process's move holds a game's row, so it can be no part
    of a deadlock. A game's last beat is the latest of the processes that listed it
    (a game taken over by another process, or recovered by a restarted one, is listed
    by both); a game no beat lists has none; a week-old process's row is let go."""
    games.start_game(store, "h1", HEADER)
    games.start_game(store, "h2", HEADER)
    games.start_game(store, "h3", HEADER)
    games.mark_alive(store, "a", ["h1", "h2"], 1.0)
    games.mark_alive(store, "b", ["h2"], 2.0)
    games.mark_alive(store, "a", ["h1"], 3.0)  # h2 is no longer a's (over, or moved)
    assert [games.load_game(store, g).alive_at for g in ("h1", "h2", "h3")] == [3.0, 2.0, None]  # type: ignore[union-attr]
    if store.dialect == "postgresql":
        import threading

        from sqlalchemy import text

        with store.engine.connect() as other, other.begin():
            # Another process's move on h1, not committed yet: its row is locked.
            other.execute(text("SELECT id FROM live_game WHERE id = 'h1' FOR UPDATE"))
            beat = threading.Thread(
                target=games.write, args=(store, [("alive", ("a", ["h1"], 4.0))])
            )
            beat.start()
            beat.join(5.0)
            waited = beat.is_alive()
        beat.join()
        assert not waited, "the heartbeat waited for a row a move held"
        assert games.load_game(store, "h1").alive_at == 4.0  # type: ignore[union-attr]
    week = games.NODE_KEEP
    games.mark_alive(store, "c", ["h3"], 2.0 + week + 1)  # b's beat is more than a week old
    assert games.load_game(store, "h2").alive_at is None  # type: ignore[union-attr]
    assert games.load_game(store, "h3").alive_at == 3.0 + week  # type: ignore[union-attr]


def test_a_batch_is_written_game_by_game_in_the_games_order(store: Store) -> None:
    """Two processes' batches lock the game rows they share in one order (the games'
    ids), each game's writes in the order given: written so, a batch keeps its moves."""
    games.start_game(store, "o2", HEADER)
    games.start_game(store, "o1", HEADER)
    draw = {"seat": 0, "action": "draw", "at": None}
    games.write(
        store,
        [
            ("append", ("o2", 0, draw)),
            ("append", ("o1", 0, draw)),
            ("alive", ("n1", ["o1", "o2"], 5.0)),
            ("append", ("o2", 1, draw)),
            ("append", ("o1", 1, draw)),
        ],
    )
    assert [len(games.load_game(store, g).moves) for g in ("o1", "o2")] == [2, 2]  # type: ignore[union-attr]
    ops: list[tuple[str, tuple[object, ...]]] = [
        ("alive", ("n1", [], 1.0)),
        ("append", ("o1", 0, {})),
    ]
    assert [games._game_of(op) for op in ops] == ["", "o1"]


def test_a_batch_leaves_each_game_as_its_writes_in_order_would(store: Store) -> None:
    """A batch written at once (on PostgreSQL two statements for all its games) leaves
    every game as its writes one after the other would: a move clears the draft, a
    later draft stays; drafts alone change no counter; a move another process already
    wrote (the counter past it) refuses the batch and nothing of it stays."""
    for gid in ("d1", "d2", "d3"):
        games.start_game(store, gid, HEADER)
    draw = {"seat": 0, "action": "draw", "at": 1.0}
    draft = {"version": 1, "seat": 1, "board": [["r1"]], "at": 2.0}
    games.write(
        store,
        [
            ("draft", ("d1", draft)),
            ("append", ("d1", 0, draw)),
            ("append", ("d2", 0, draw)),
            ("draft", ("d2", draft)),
            ("draft", ("d3", draft)),
            ("draft", ("d3", None)),
        ],
    )
    d1, d2, d3 = (games.load_game(store, g) for g in ("d1", "d2", "d3"))
    assert d1 is not None and d1.moves == [draw] and d1.draft is None
    assert d2 is not None and d2.moves == [draw] and d2.draft == draft
    assert d3 is not None and d3.moves == [] and d3.draft is None
    games.write(store, [("draft", ("d3", draft)), ("draft", ("d1", draft))])
    d3 = games.load_game(store, "d3")
    assert d3 is not None and d3.draft == draft and d3.moves == []
    with pytest.raises(games.GameLogError, match="move 0 appended after 1"):
        games.write(store, [("append", ("d3", 0, draw)), ("append", ("d1", 0, draw))])
    d1, d3 = games.load_game(store, "d1"), games.load_game(store, "d3")
    assert d1 is not None and d1.moves == [draw] and d1.draft == draft
    assert d3 is not None and d3.moves == [] and d3.draft == draft
