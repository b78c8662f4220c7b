"""Arenas' matching: quick play's (:class:`~meldtour.live.quickplay.QuickPlay`: the
queue in the database, matched under a Redis lock across processes, seats offered and
taken, tables opened all or nothing) with the arena's own pairing — four people at a
time by arena standing then rating (:func:`meldtour.application.arena_rules.tables`),
never a computer, and nobody seated once the arena's clock has run out. Each table
opened is written as the arena's game (its seats' players); the leaderboard reads its
results from the game log.
"""

from __future__ import annotations

import asyncio
import dataclasses
import random
import time
from collections.abc import Callable
from typing import Any

from meldtour.application import arena as arenas
from meldtour.application import arena_rules as rules
from meldtour.application.quickplay import Entry
from meldtour.core.state import Deal
from meldtour.store.db import Store

from .quickplay import QuickPlay, Seated
from .server import LiveServer
from .table import BOT_DELAY, SeatConfig, TableConfig

_DRAW = random.SystemRandom()


class ArenaPlay(QuickPlay):
    """This process's part of the arenas (one object for every arena)."""

    def __init__(
        self,
        server: LiveServer,
        store: Callable[[], Store],
        bot_delay: float = BOT_DELAY,
        clock: Callable[[], float] | None = None,
        deal: Callable[[], Deal] | None = None,
    ) -> None:
        super().__init__(server, store, bot_delay, clock or time.time)
        #: A given deal for every table (tests: games that end at once).
        self.deal = deal

    async def _groups(self, family: str, entries: list[Entry], now: float) -> list[list[Entry]]:
        aid = arenas.arena_of_family(family)
        if aid is None or not entries:
            return []
        store = self.store()
        arena, keys = await asyncio.to_thread(
            arenas.waiting_keys, store, aid, [e.id for e in entries]
        )
        if not arena.open_at(now):
            return []
        by_id = {e.id: e for e in entries}
        waiting = [
            rules.Waiting(e.id, keys.get(e.id, (0, 0)), e.rating, e.joined_at)
            for e in entries
            if e.id in keys
        ]
        groups = [[by_id[i] for i in group] for group in rules.tables(waiting)]
        for group in groups:
            # Who sits together is the standing's; where each sits is drawn (the
            # leader does not always hold the first seat).
            _DRAW.shuffle(group)
        return groups

    def _config(self, table: dict[str, Any], seats: list[SeatConfig]) -> TableConfig:
        config = super()._config(table, seats)
        if self.deal is not None:
            config = dataclasses.replace(config, deal=self.deal())
        return config

    async def _open(self, store: Store, gid: str, group: list[Entry]) -> Seated | None:
        opened = await super()._open(store, gid, group)
        if opened is not None:
            aid = arenas.arena_of_family(group[0].family)
            if aid is not None:
                seats = [(e.seat, e.id) for e in group if e.seat is not None]
                await asyncio.to_thread(arenas.record_game, store, aid, gid, seats, self.clock())
        return opened


__all__ = ["ArenaPlay"]
