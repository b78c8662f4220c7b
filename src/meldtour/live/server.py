"""The live games of one process: tables by id, the log and the clock they share."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable

from meldtour.core.search import PlayFinder
from meldtour.players import Player
from meldtour.solver import finder as solver_finder

from .clock import Clock, SystemClock
from .game import LiveGame
from .log import GameLog, MemoryLog
from .table import TableConfig

log = logging.getLogger(__name__)

#: Seconds between heartbeats: how much a restart may give back to the player to move
#: beyond the time they had (never less: the clock is paused from the last beat).
HEARTBEAT = 1.0


class LiveServer:
    def __init__(
        self,
        game_log: GameLog | None = None,
        clock: Clock | None = None,
        finder: PlayFinder | None = solver_finder,
        make: Callable[[str, str, int], Player] | None = None,
    ) -> None:
        self.log: GameLog = game_log if game_log is not None else MemoryLog()
        self.clock: Clock = clock if clock is not None else SystemClock()
        self.finder = finder
        self.make = make
        self.games: dict[str, LiveGame] = {}
        self._recovered = False
        self._heart: asyncio.Task[None] | None = None

    def create_table(self, config: TableConfig, game_id: str | None = None) -> LiveGame:
        """A new table; its owner task starts with the first request made to it."""
        gid = game_id or secrets.token_urlsafe(6)
        if gid in self.games:
            raise ValueError(f"table {gid} exists")
        game = LiveGame(gid, config, self.log, self.clock, self.finder, self.make)
        self.games[gid] = game
        return game

    def get(self, game_id: str) -> LiveGame | None:
        return self.games.get(game_id)

    async def open_table(self, config: TableConfig, game_id: str | None = None) -> LiveGame:
        """A new table (the lobby's): created here, this process its owner."""
        return self.create_table(config, game_id)

    async def find(self, game_id: str) -> LiveGame | None:
        """The game, wherever it is: this process's (recovered from the log first if
        need be)."""
        await self.ensure_recovered()
        return self.games.get(game_id)

    def open_tables(self) -> list[LiveGame]:
        """Tables with a free seat, newest first."""
        return [g for g in reversed(self.games.values())
                if not g.started and any(k is None for i, k in enumerate(g.keys)
                                         if i in g.config.humans)]

    async def recover(self) -> list[str]:
        """Resume every unfinished game in the log (after a restart)."""
        resumed = []
        for gid in await self.log.unfinished():
            if gid in self.games:
                continue
            game = await LiveGame.recover(gid, self.log, self.clock, self.finder, self.make)
            self.games[gid] = game
            await game.resume()
            resumed.append(gid)
        return resumed

    async def ensure_recovered(self) -> None:
        """Recover the log's unfinished games once (at start-up, or on the first request
        after start), then keep the heartbeat."""
        if not self._recovered:
            self._recovered = True
            try:
                await self.recover()
            finally:
                self._start_heartbeat()

    def _start_heartbeat(self) -> None:
        if self._heart is None or self._heart.done():
            self._heart = asyncio.get_running_loop().create_task(self._beat(),
                                                                 name="live heartbeat")

    async def _beat(self) -> None:
        """Tell the log, every :data:`HEARTBEAT` seconds, that this process's running
        games are alive: after a crash, their clocks restart from the last beat."""
        while True:
            ids = [gid for gid, g in self.games.items() if g.started and not g.over]
            if ids:
                try:
                    await self.log.alive(ids, self.clock.now())
                except Exception:
                    log.exception("the heartbeat could not be written")
            await asyncio.sleep(HEARTBEAT)

    async def close(self) -> None:
        if self._heart is not None:
            self._heart.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._heart
        for game in self.games.values():
            await game.close()
