"""Arenas (issue 29): the pairing (four by standing, then rating, then arrival) and the
scoring (the preset's points per game, wins, ranks), pure; and an arena across a
restart and two server processes sharing PostgreSQL and Redis — its players and
games kept, a game's result on the leaderboard, nobody seated twice, nobody seated
after the end."""

from __future__ import annotations

import asyncio
import time
import uuid

import pytest

from meldtour.application import arena as arenas
from meldtour.application import quickplay as queue
from meldtour.application.acting import Acting
from meldtour.application.arena_rules import (
    Played,
    Waiting,
    leaderboard,
    points,
    tables,
    winners,
)
from meldtour.application.errors import UseCaseError
from meldtour.core.state import Deal
from meldtour.core.tiles import full_set, parse_tiles
from meldtour.live import LiveServer
from meldtour.live.arena import ArenaPlay
from meldtour.live.cluster import Cluster
from meldtour.live.game import LiveGame
from meldtour.live.log import StoreLog
from meldtour.store.db import Store
from tests.store.backends import upgraded

from .test_cluster import REDIS


def w(i: str, key: tuple[int, int], rating: float, joined: float) -> Waiting:
    return Waiting(i, key, rating, joined)


def test_tables_by_standing_then_rating_then_arrival_and_the_rest_wait() -> None:
    waiting = [
        w("new-high", (0, 0), 1700, 1),
        w("leader", (2, 50), 1400, 9),
        w("second", (2, 10), 1500, 5),
        w("loser", (0, -40), 1900, 2),
        w("one-win", (1, -5), 1500, 3),
        w("new-low", (0, 0), 1300, 4),
        w("new-mid-late", (0, 0), 1500, 8),
        w("new-mid-early", (0, 0), 1500, 7),
        w("last", (0, -90), 1500, 6),
    ]
    assert tables(waiting) == [
        ["leader", "second", "one-win", "new-high"],
        ["new-mid-early", "new-mid-late", "new-low", "loser"],
    ]  # "last" waits for three more: never a computer in an arena
    assert tables(waiting[:3]) == []
    assert tables([]) == []


def game(
    gid: str, players: str, scores: list[int], winner: int | None, pen: list[int] | None = None
) -> Played:
    return Played(
        gid,
        tuple(players),
        {"scores": scores, "penalties": pen or [0] * len(scores), "winner": winner},
    )


def test_points_wins_ranks_ties_and_the_winner() -> None:
    assert points({"scores": [30, -10, -20], "penalties": [0, -5, 0]}) == [30, -15, -20]
    assert points({"scores": [12, -12], "penalties": [3]}) == [9, -12]
    names = {k: k.upper() for k in "abcdefg"}
    games = [
        game("g1", "abcd", [45, -10, -15, -20], 0),
        game("g2", "efgb", [-5, 30, -10, -15], 1, pen=[0, 0, 10, 0]),
        game("g3", "acfe", [-10, -20, 60, -30], 2),
    ]
    lines = leaderboard(names, games, "wins")
    got = [(x.id, x.games, x.wins, x.points, x.rank) for x in lines]
    # Wins first (KRC's match ranking), then points; a tie shares its rank.
    assert got == [
        ("f", 2, 2, 90, 1),
        ("a", 2, 1, 35, 2),
        ("d", 1, 0, -20, 3),
        ("g", 1, 0, -20, 3),  # -10 less 10 of penalty
        ("b", 2, 0, -25, 5),
        ("c", 2, 0, -35, 6),
        ("e", 2, 0, -35, 6),
    ]
    assert next(x for x in lines if x.id == "b").each == [-10, -15]
    assert [x.id for x in winners(lines)] == ["f"]
    # Points first (the preset's other ranking): a winner who paid a big penalty
    # ranks below a loser by points, above them by wins.
    two = [game("g1", "pqrs", [10, -2, -3, -5], 0, pen=[50, 0, 0, 0])]
    four = {k: k for k in "pqrs"}
    assert [x.id for x in leaderboard(four, two, "wins")] == ["p", "q", "r", "s"]
    assert [x.id for x in leaderboard(four, two, "points")] == ["q", "r", "s", "p"]
    # Nobody has played: no winner; everybody listed.
    empty = leaderboard(names, [], "wins")
    assert len(empty) == 7 and winners(empty) == [] and {x.rank for x in empty} == {1}


def test_every_rank_is_one_more_than_the_lines_above_it_unless_tied() -> None:
    names = {k: k for k in "abcdefgh"}
    games = [
        game("g1", "abcd", [40, -10, -10, -20], 0),
        game("g2", "efgh", [40, -10, -10, -20], 0),
    ]
    lines = leaderboard(names, games, "wins")
    assert [(x.id, x.rank) for x in lines] == [
        ("a", 1),
        ("e", 1),
        ("b", 3),
        ("c", 3),
        ("f", 3),
        ("g", 3),
        ("d", 7),
        ("h", 7),
    ]
    assert [x.id for x in winners(lines)] == ["a", "e"]


# ---------------------------------------------------------------- across processes

ONE_MELD = ["r10", "r11", "r12"]


def quick_deal() -> Deal:
    """Seat 0 goes out on its first turn (a game over at once)."""
    racks = [parse_tiles(ONE_MELD)] + [parse_tiles([f"k{i}", f"o{i}"]) for i in (1, 2, 3)]
    rest = list(full_set())
    for rack in racks:
        for t in rack:
            rest.remove(t)
    return Deal(tuple(racks), tuple(rest), 0)


def server(store: Store, prefix: str, clock: float | None = None) -> tuple[LiveServer, ArenaPlay]:
    live = LiveServer(StoreLog(store), cluster=Cluster(REDIS, prefix))
    play = ArenaPlay(
        live,
        lambda: store,
        bot_delay=0.0,
        clock=None if clock is None else (lambda: clock),
        deal=quick_deal,
    )
    return live, play


def test_an_arena_survives_a_restart_and_two_processes_seat_nobody_twice(pg_url: str) -> None:
    with upgraded(pg_url) as store:
        asyncio.run(_arena_across_processes(store))


async def _go_out(live: LiveServer, gid: str) -> None:
    game = live.get(gid)
    assert isinstance(game, LiveGame), "the owner's process plays it"
    sub = await game.subscribe(0)
    await game.receive(
        sub,
        {"type": "move", "id": "1", "version": game.version, "action": "play", "board": [ONE_MELD]},
    )
    for _ in range(200):
        if game.over:
            break
        await asyncio.sleep(0.02)
    assert game.over


async def _arena_across_processes(store: Store) -> None:
    prefix = f"a{uuid.uuid4().hex[:10]}"
    now = time.time()
    arena = arenas.open_arena(
        store,
        Acting.operator("admin"),
        name="Friday arena",
        preset="standard",
        turn_seconds=30,
        seconds=600,
        starts_at=now,
        at=now,
    )
    fam = arenas.family(arena.id)
    a, pa = server(store, prefix)
    await a.ensure_recovered()
    for i in range(5):
        arenas.join(
            store,
            arena.id,
            f"t{i}",
            name=f"P{i}",
            account_id=None,
            rating=1500 + 10 * i,
            at=now + i,
        )
    await pa.tick(fam)
    offers = queue.offers(store, fam)
    # Four by rating: the fifth (the lowest) waits — never a computer.
    assert [sorted(e.name for e in g) for g in offers.values()] == [["P1", "P2", "P3", "P4"]]
    for i in range(1, 5):
        assert queue.accept(store, f"t{i}", time.time())
    await a.close()  # the process stops with its offer taken; all is in the database

    a, pa = server(store, prefix)
    b, pb = server(store, prefix)
    await a.ensure_recovered()
    await b.ensure_recovered()
    try:
        both = await asyncio.gather(pa.tick(fam), pb.tick(fam))
        opened = [s for found in both for s in found]
        opened += [*await pa.tick(fam), *await pb.tick(fam)]
        assert len(opened) == 1
        gid = opened[0].game_id
        board = arenas.board(store, arena.id, time.time())
        assert [g.game_id for g in board.playing] == [gid] and board.played == 0
        # A page telling its own seat again adds nothing (the process already wrote it).
        assert arenas.record_game(store, arena.id, gid, [(0, queue.entry_id("t4"))], 0) == 0
        # Seated players cannot wait again until their game is over.
        seated = [queue.look(store, f"t{i}", time.time()) for i in range(1, 5)]
        assert {e.game_id for e in seated if e} == {gid}
        first = next(e for e in seated if e is not None and e.seat == 0)
        with pytest.raises(UseCaseError) as refused:
            arenas.join(
                store,
                arena.id,
                f"t{first.name[1]}",
                name=first.name,
                account_id=None,
                rating=1500,
                at=time.time(),
            )
        assert refused.value.code == "arena.playing"
        owner = a if isinstance(a.get(gid), LiveGame) else b
        await _go_out(owner, gid)
        for _ in range(100):  # the result is on its way to the log
            if arenas.board(store, arena.id, time.time()).played == 1:
                break
            await asyncio.sleep(0.05)
    finally:
        await a.close()
        await b.close()

    # Restarted again: the leaderboard is the log's.
    a, pa = server(store, prefix)
    await a.ensure_recovered()
    try:
        board = arenas.board(store, arena.id, time.time())
        assert board.played == 1 and not board.playing and not board.over
        assert board.lines[0].name == first.name and board.lines[0].wins == 1
        assert board.lines[0].points > 0
        assert len(board.lines) == 5  # P0 has not played yet: on the board, at the foot
        # The four join again (P0 still waits): the leader is seated first, with the
        # best of the rest; one player waits.
        for i in range(1, 5):
            arenas.join(
                store,
                arena.id,
                f"t{i}",
                name=f"P{i}",
                account_id=None,
                rating=1500 + 10 * i,
                at=time.time(),
            )
        assert [e.name for e in queue.waiting(store, fam, time.time() - queue.QUIET)] != []
        await pa.tick(fam)
        offers = queue.offers(store, fam)
        assert len(offers) == 1
        group = next(iter(offers.values()))
        assert first.name in {e.name for e in group}  # the leader plays again at once
        assert len(queue.waiting(store, fam, time.time() - queue.QUIET)) == 1
    finally:
        await a.close()

    # After the clock: nobody is seated, joining is refused, the winner is named.
    late = arena.ends_at + 1
    a, pa = server(store, prefix, clock=late)
    await a.ensure_recovered()
    try:
        queue.withdraw(store, next(iter(queue.offers(store, fam))))
        await pa.tick(fam)
        assert queue.offers(store, fam) == {}
        with pytest.raises(UseCaseError) as closed:
            arenas.join(store, arena.id, "t9", name="Late", account_id=None, rating=1500, at=late)
        assert closed.value.code == "arena.not_open"
        board = arenas.board(store, arena.id, late)
        assert board.over and [x.name for x in board.winners] == [first.name]
    finally:
        await a.close()
