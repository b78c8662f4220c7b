"""Shared by the live and web tests: a known deal, and waiting on an asyncio condition."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from meldtour.core.state import Deal
from meldtour.core.tiles import full_set, parse_tiles
from meldtour.live import Subscriber

#: Seat 0 holds r10 r11 r12 (an initial meld of 33) and b1 b2; seat 1 holds no meld.
RACK0 = ["r10", "r11", "r12", "b1", "b2", "k5", "o7", "k9", "o11", "b13", "k2", "o4", "r6", "b8"]
RACK1 = ["k1", "o2", "r3", "b4", "k6", "o8", "r9", "b10", "k12", "o13", "r1", "b3", "o5", "k7"]


def known_deal(first: int = 0) -> Deal:
    racks = (parse_tiles(RACK0), parse_tiles(RACK1))
    rest = list(full_set())
    for t in racks[0] + racks[1]:
        rest.remove(t)
    return Deal(racks, tuple(rest), first)


async def until(check: Callable[[], Any], timeout: float = 10.0) -> Any:
    """Wait until ``check()`` is truthy (the owner task runs meanwhile)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        value = check()
        if value:
            return value
        if loop.time() > end:
            raise AssertionError("timed out waiting")
        await asyncio.sleep(0.005)


def drain(sub: Subscriber) -> list[dict[str, Any]]:
    out = []
    while not sub.queue.empty():
        out.append(sub.queue.get_nowait())
    return out


async def next_of(sub: Subscriber, kind: str, timeout: float = 10.0) -> dict[str, Any]:
    """The next message of this type (others before it are dropped)."""

    async def get() -> dict[str, Any]:
        while True:
            m = await sub.queue.get()
            if m["type"] == kind:
                return m

    return await asyncio.wait_for(get(), timeout)
