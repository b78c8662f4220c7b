"""The server's clock: the only clock a live game trusts (docs/rules.md, "The clock and
failed turns").

Times are seconds. :class:`SystemClock` is wall time, so that a game recovered after
a restart keeps its deadline; :class:`ManualClock` lets tests drive time.
"""

from __future__ import annotations

import asyncio
import time
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float: ...

    async def sleep_until(self, when: float) -> None: ...


class SystemClock:
    """Wall-clock seconds (``time.time``)."""

    def now(self) -> float:
        return time.time()

    async def sleep_until(self, when: float) -> None:
        while (left := when - self.now()) > 0:
            await asyncio.sleep(min(left, 3600.0))


class ManualClock:
    """A clock that moves only when told to: ``advance(seconds)`` wakes the sleepers
    whose time has come.

    >>> clock = ManualClock(100.0)
    >>> clock.advance(2.5); clock.now()
    102.5
    """

    def __init__(self, start: float = 1_000_000.0) -> None:
        self._now = start
        self._sleepers: list[tuple[float, asyncio.Future[None]]] = []

    def now(self) -> float:
        return self._now

    async def sleep_until(self, when: float) -> None:
        if when <= self._now:
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        entry = (when, future)
        self._sleepers.append(entry)
        try:
            await future
        finally:
            if entry in self._sleepers:
                self._sleepers.remove(entry)

    def advance(self, seconds: float) -> None:
        self._now += seconds
        for when, future in list(self._sleepers):
            if when <= self._now and not future.done():
                future.set_result(None)
