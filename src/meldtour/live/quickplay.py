"""Quick play: the queue's matching (the queue itself is the database's:
:mod:`meldtour.application.quickplay`).

Whoever waits has a page that asks every second how the wait goes; each of those
asks runs a :meth:`QuickPlay.tick` of the player's family (preset and clock), on
whichever server process answered it. So the queue needs no task of its own, survives
a restart (it is in the database) and is shared by every process; matching is done
under a lock — a Redis key (``SET NX PX``) when processes share games through Redis,
this process's lock alone — and the seats are written all or nothing only if every
entry still waits, so nobody is ever seated twice even if two processes matched at
once.

A tick, for one family:

1. the entries whose page has gone quiet (:data:`~meldtour.application.quickplay.QUIET`
   seconds: disconnected) leave the queue — a player gone at the start is replaced,
   never waited for;
2. while :data:`SEATS` are waiting, a table of people: the longest-waiting player with
   the players nearest their rating once :data:`BY_RATING` or more wait (else the
   longest-waiting ones);
3. when someone has waited as long as they asked (30 s unless they set otherwise),
   they sit with whoever else waits, and computer players fill the free seats, at the
   level whose fixed rating is nearest the people's mean.

A group is first *offered* its seats: each page takes its own on its next ask (its
seat cookie). Once every page of the group has, the table is opened by the process
that sees it (a lobby-less table, all its people seated at once) and started, and the
pages go to it. A page that does not take its seat within
:data:`~meldtour.application.quickplay.ACCEPT` seconds has gone: the offer is
withdrawn, the others wait again (first in line: their arrival is kept) and are
seated with someone else or the computers — a player disconnected at the start is
replaced, not waited for.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from meldtour.application import online_rating as ratings
from meldtour.application import players_accounts as accounts
from meldtour.application import quickplay as queue
from meldtour.application.quickplay import Entry
from meldtour.store.db import Store

from .server import LiveServer
from .table import BOT_DELAY, SeatConfig, TableConfig, secret_seed

log = logging.getLogger(__name__)

#: The seats of a quick-play table.
SEATS = 4
#: From this many waiting players on, tables are made by rating (else by arrival).
BY_RATING = 2 * SEATS
#: How long a matching lock is held at most (ms): a process dying in a match frees it.
LOCK_MS = 5000


@dataclass(frozen=True, slots=True)
class Seated:
    game_id: str
    people: tuple[str, ...]
    levels: tuple[str, ...]


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def pick(entries: list[Entry], now: float) -> list[list[Entry]]:
    """The groups to seat now, from the waiting entries (oldest first): pure.

    >>> e = [Entry(str(i), "f", "p", 60, f"n{i}", None, 1500, 30, float(i), 0) for i in range(5)]
    >>> [[x.id for x in g] for g in pick(e, 10.0)]
    [['0', '1', '2', '3']]
    >>> [[x.id for x in g] for g in pick(e[:3], 10.0)]
    []
    >>> [[x.id for x in g] for g in pick(e[:3], 40.0)]
    [['0', '1', '2']]
    """
    left = list(entries)
    groups = []
    while len(left) >= SEATS:
        first = left[0]
        if len(left) >= BY_RATING:
            others = sorted(left[1:], key=lambda e: (abs(e.rating - first.rating), e.joined_at))
            group = [first, *others[: SEATS - 1]]
        else:
            group = left[:SEATS]
        groups.append(group)
        left = [e for e in left if e not in group]
    due = [e for e in left if now - e.joined_at >= e.wait]
    if due:
        first = due[0]
        others = sorted(
            (e for e in left if e is not first),
            key=lambda e: (abs(e.rating - first.rating), e.joined_at),
        )
        groups.append([first, *others[: SEATS - 1]])
    return groups


class QuickPlay:
    """This process's part of quick play: matching the shared queue, opening tables."""

    def __init__(
        self,
        server: LiveServer,
        store: Callable[[], Store],
        bot_delay: float = BOT_DELAY,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.server = server
        self._store = store
        self.bot_delay = bot_delay
        self.clock = clock
        self._local = asyncio.Lock()

    def store(self) -> Store:
        return self._store()

    async def _run(self, fn: Callable[..., object], *args: object) -> object:
        return await asyncio.to_thread(fn, *args)

    @contextlib.asynccontextmanager
    async def _lock(self, family: str):  # type: ignore[no-untyped-def]
        async with self._local:
            cluster = self.server.cluster
            if cluster is None:
                yield True
                return
            key = f"{cluster.prefix}:quick:{family}"
            mine = secrets.token_hex(8)
            got = await cluster.redis.set(key, mine, nx=True, px=LOCK_MS)
            try:
                yield bool(got)
            finally:
                if got:
                    with contextlib.suppress(Exception):
                        if await cluster.redis.get(key) == mine:
                            await cluster.redis.delete(key)

    async def tick(self, family: str) -> list[Seated]:
        """Open the tables whose pages have all taken their seats, withdraw the offers
        not taken in time, and offer seats to whoever can be seated now (see the
        module); returns the tables opened."""
        store = self.store()
        now = self.clock()
        async with self._lock(family) as held:
            if not held:
                return []  # another process is matching this family just now
            out = []
            for gid, group in (await asyncio.to_thread(queue.offers, store, family)).items():
                levels = (group[0].table or {}).get("levels") or []
                if len(group) < sum(1 for lv in levels if not lv):
                    # Someone of the group left the queue: the others wait again.
                    await asyncio.to_thread(queue.unseat, store, gid)
                elif all(e.accepted_at is not None for e in group):
                    opened = await self._open(store, gid, group)
                    if opened is not None:
                        out.append(opened)
                elif now - (group[0].offered_at or 0.0) > queue.ACCEPT:
                    log.info("quick play: table %s not taken by every page; offered again", gid)
                    await asyncio.to_thread(queue.withdraw, store, gid)
            entries = await asyncio.to_thread(queue.waiting, store, family, now - queue.QUIET)
            for group in await self._groups(family, entries, now):
                await self._offer(store, group, now)
            return out

    async def _groups(self, family: str, entries: list[Entry], now: float) -> list[list[Entry]]:
        """The groups to offer seats now (quick play's :func:`pick`; an arena's own)."""
        return pick(entries, now)

    def _config(self, table: dict[str, Any], seats: list[SeatConfig]) -> TableConfig:
        """The set-up of a table opened for a group."""
        return TableConfig.make(
            str(table.get("preset")),
            seats,
            turn_seconds=int(table.get("turn_seconds") or 0) or None,
            seed=secret_seed(),
            bot_delay=self.bot_delay,
        )

    async def _offer(self, store: Store, group: list[Entry], now: float) -> str | None:
        """Offer a group its seats (each page takes its own on its next ask); None when
        one of them was taken meanwhile (by another process's match)."""
        first = group[0]
        mean = sum(e.rating for e in group) / len(group)
        level = ratings.level_near(mean)
        levels = [""] * len(group) + [level] * (SEATS - len(group))
        gid = secrets.token_urlsafe(6)
        table = {
            "names": [e.name for e in group],
            "levels": levels,
            "preset": first.preset,
            "turn_seconds": first.turn_seconds,
        }
        assignments = [(e.id, i, secrets.token_urlsafe(18)) for i, e in enumerate(group)]
        if not await asyncio.to_thread(queue.seat_group, store, gid, assignments, table, now):
            return None
        return gid

    async def _open(self, store: Store, gid: str, group: list[Entry]) -> Seated | None:
        """Open and start a table every page of its group has taken its seat at."""
        if not await asyncio.to_thread(queue.opening, store, gid, len(group), self.clock()):
            return None
        group = sorted(group, key=lambda e: e.seat or 0)
        table = group[0].table or {}
        levels = tuple(str(x) for x in table.get("levels", []))
        seats = [SeatConfig("human") if not lv else SeatConfig("computer", lv) for lv in levels]
        names = [e.name for e in group]
        free = len(levels) - len(group)
        try:
            config = self._config(table, seats)
            game = await self.server.open_table(
                config,
                gid,
                names=[*names, *([None] * free)],
                keys=[*(_hash(e.token or "") for e in group), *([None] * free)],
            )
            for e in group:
                if e.account_id is not None and e.seat is not None:
                    who = accounts.PlayerAccount(e.account_id, e.name)
                    await asyncio.to_thread(accounts.take_seat, store, who, gid, e.seat, "quick")
            await game.open()
        except Exception:
            log.exception("quick play: table %s could not be opened; its players wait again", gid)
            await asyncio.to_thread(queue.unseat, store, gid)
            return None
        return Seated(gid, tuple(names), levels)


__all__ = ["BY_RATING", "SEATS", "QuickPlay", "Seated", "pick"]
