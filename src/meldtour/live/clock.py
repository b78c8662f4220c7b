"""The server's clock: the only clock a live game trusts (docs/rules.md, "The clock and
failed turns").

Times are seconds. :class:`SystemClock` is wall time, so that a game recovered after
a restart keeps its deadline; :class:`ManualClock` lets tests drive time.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Protocol


class Alarm(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    def now(self) -> float: ...

    async def sleep_until(self, when: float) -> None: ...

    def call_at(self, when: float, callback: Callable[[], None]) -> Alarm:
        """Call ``callback`` (on the running loop) once the clock reads ``when``;
        ``cancel()`` on the answer calls it off. A timer handle, not a task: a live
        game sets one per move and cancels it at the next (``bench/server.py``)."""
        ...


class _SystemAlarm:
    """A wall-clock alarm on the loop's monotonic timer, set again if the wall clock
    has not reached ``when`` when it rings (the wall clock was set back)."""

    __slots__ = ("_callback", "_clock", "_handle", "_when")

    def __init__(self, clock: SystemClock, when: float, callback: Callable[[], None]) -> None:
        self._clock, self._when, self._callback = clock, when, callback
        self._handle: asyncio.TimerHandle | None = None
        self._arm()

    def _arm(self) -> None:
        left = min(max(self._when - self._clock.now(), 0.0), 3600.0)
        self._handle = asyncio.get_running_loop().call_later(left, self._ring)

    def _ring(self) -> None:
        if self._when - self._clock.now() > 0:
            self._arm()
            return
        self._handle = None
        self._callback()

    def cancel(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        self._callback = _nothing  # lets go of whatever the callback holds (its game)


def _nothing() -> None:
    """A cancelled alarm's callback."""


class SystemClock:
    """Wall-clock seconds (``time.time``)."""

    def now(self) -> float:
        return time.time()

    async def sleep_until(self, when: float) -> None:
        while (left := when - self.now()) > 0:
            await asyncio.sleep(min(left, 3600.0))

    def call_at(self, when: float, callback: Callable[[], None]) -> Alarm:
        return _SystemAlarm(self, when, callback)


class _ManualAlarm:
    __slots__ = ("callback", "cancelled", "loop", "when")

    def __init__(self, when: float, callback: Callable[[], None]) -> None:
        self.when, self.callback, self.cancelled = when, callback, False
        self.loop = asyncio.get_running_loop()

    def cancel(self) -> None:
        self.cancelled = True
        self.callback = _nothing


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
        self._alarms: list[_ManualAlarm] = []

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

    def call_at(self, when: float, callback: Callable[[], None]) -> Alarm:
        alarm = _ManualAlarm(when, callback)
        self._alarms = [a for a in self._alarms if not a.cancelled]
        self._alarms.append(alarm)
        if when <= self._now:  # as a sleeper whose time has come: on the next turn
            alarm.loop.call_soon(self._ring, alarm)
        return alarm

    def _ring(self, alarm: _ManualAlarm) -> None:
        if not alarm.cancelled:
            alarm.cancelled = True
            alarm.callback()

    def advance(self, seconds: float) -> None:
        self._now += seconds
        for when, future in list(self._sleepers):
            if when <= self._now and not future.done():
                future.set_result(None)
        due = [a for a in self._alarms if a.when <= self._now and not a.cancelled]
        self._alarms = [a for a in self._alarms if a.when > self._now and not a.cancelled]
        for alarm in due:  # on the loop's next turn, as a sleeper woken here would be
            alarm.loop.call_soon(self._ring, alarm)
