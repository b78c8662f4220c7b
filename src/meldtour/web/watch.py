"""One watcher per tournament and process for the live standings streams.

Every open projector or phone on the live standings holds a Server-Sent Events stream.
Rather than each stream asking the database for the tournament's newest audit line,
one task per tournament asks (every :data:`WATCH_SECONDS` while anybody watches) and
wakes every stream when the mark moves. Three hundred phones cost one query per
period, not three hundred; the task stops when the last stream leaves.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field

WATCH_SECONDS = 0.4


@dataclass
class _Watch:
    mark: int
    read_at: float = field(default_factory=time.monotonic)
    readers: int = 0
    # Set (and replaced by a fresh one) when the mark moves: no lock to take, so the
    # streams' timeouts cannot leave one half-acquired ("Lock is not acquired" from an
    # asyncio.Condition under wait_for, seen with 300 streams on Python 3.11).
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None


class Watchers:
    """Shared watchers keyed by tournament; ``read_mark`` runs in a worker thread."""

    def __init__(self, read_mark: Callable[[str], int], period: float = WATCH_SECONDS) -> None:
        self._read = read_mark
        self._period = period
        self._watches: dict[str, _Watch] = {}

    async def _run(self, slug: str, watch: _Watch) -> None:
        while watch.readers > 0:
            await asyncio.sleep(self._period)
            try:
                mark = await asyncio.to_thread(self._read, slug)
            except Exception:  # the database away for a moment: try again next period
                continue
            watch.read_at = time.monotonic()
            if mark != watch.mark:
                watch.mark = mark
                changed, watch.changed = watch.changed, asyncio.Event()
                changed.set()

    def current(self, slug: str) -> int | None:
        """The mark as the watcher read it within the last two periods (so at most that
        old), or None when nobody watches or the last reads failed."""
        watch = self._watches.get(slug)
        if watch is None or time.monotonic() - watch.read_at > 2 * self._period:
            return None
        return watch.mark

    @contextlib.asynccontextmanager
    async def subscribe(self, slug: str, mark: int) -> AsyncIterator[_Watch]:
        watch = self._watches.get(slug)
        if watch is None or watch.task is None or watch.task.done():
            watch = _Watch(mark=mark)
            self._watches[slug] = watch
            watch.readers = 1
            watch.task = asyncio.get_running_loop().create_task(self._run(slug, watch))
        else:
            watch.readers += 1
        try:
            yield watch
        finally:
            watch.readers -= 1
            if watch.readers == 0 and self._watches.get(slug) is watch:
                del self._watches[slug]
                if watch.task is not None:
                    watch.task.cancel()

    @staticmethod
    async def wait_change(watch: _Watch, last: int, timeout: float) -> int:
        """The mark once it differs from ``last``, or ``last`` after ``timeout``."""
        if watch.mark == last:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(watch.changed.wait(), timeout)
        return watch.mark
