"""A socket's outbox (``Subscriber``) pushing its messages to the socket
(``deliver_to``): in order, those queued before first; a reader that falls
``QUEUE_SIZE`` behind is told to reconnect and sent nothing more; a reader gone (its
delivery answers False, or fails) is sent nothing more; stopping cancels a delivery
under way; and no task waits between two messages, nor is a reference cycle left."""

from __future__ import annotations

import asyncio
import gc
import weakref
from typing import Any

from meldtour.live.game import QUEUE_SIZE, Subscriber


def test_messages_are_pushed_in_order_and_no_task_waits_between_them() -> None:
    async def run() -> None:
        sub = Subscriber(0)
        sub.send({"n": 0})  # before a reader: queued
        got: list[int] = []
        gate = asyncio.Event()

        async def deliver(message: dict[str, Any]) -> bool:
            await gate.wait()  # a slow socket: the others wait their turn
            got.append(message["n"])
            return True

        sub.deliver_to(deliver)
        for n in range(1, 6):
            sub.send({"n": n})
        await asyncio.sleep(0)
        assert got == [] and sub._drain is not None
        gate.set()
        while sub._drain is not None:
            await asyncio.sleep(0)
        assert got == [0, 1, 2, 3, 4, 5]
        assert sub.queue.empty()
        sub.send({"n": 6})
        while sub._drain is not None:
            await asyncio.sleep(0)
        assert got[-1] == 6 and sub._drain is None  # nothing waits once it is sent

    asyncio.run(run())


def test_a_socket_that_takes_a_message_at_once_is_sent_it_in_the_senders_call() -> None:
    """No task for a socket whose buffer has room: the message is written before
    ``send`` returns; one that has to wait goes on in a task, in order, and a message
    sent meanwhile (here, by the delivery itself) waits its turn."""

    async def run() -> None:
        sub = Subscriber(3)
        got: list[int] = []
        full = asyncio.Event()
        full.set()

        async def deliver(message: dict[str, Any]) -> bool:
            await full.wait()  # returns at once while the socket has room
            got.append(message["n"])
            if message["n"] == 1:
                sub.send({"n": 2})  # sent while delivering: after this one
            return True

        sub.deliver_to(deliver)
        tasks = len(asyncio.all_tasks())
        sub.send({"n": 0})
        sub.send({"n": 1})
        assert got == [0, 1, 2] and sub._drain is None and len(asyncio.all_tasks()) == tasks
        full.clear()  # the socket's buffer is full: the next waits, in a task
        sub.send({"n": 3})
        sub.send({"n": 4})
        assert got == [0, 1, 2] and sub._drain is not None
        full.set()
        while sub._drain is not None:
            await asyncio.sleep(0)
        assert got == [0, 1, 2, 3, 4]
        sub.send({"n": 5})
        assert got[-1] == 5 and sub._drain is None

    asyncio.run(run())


def test_a_reader_far_behind_is_told_to_reconnect_and_then_sent_nothing() -> None:
    async def run() -> None:
        sub = Subscriber(None)
        got: list[dict[str, Any]] = []
        gate = asyncio.Event()

        async def deliver(message: dict[str, Any]) -> bool:
            await gate.wait()
            got.append(message)
            return message.get("type") != "closing"

        sub.deliver_to(deliver)
        for n in range(QUEUE_SIZE + 5):
            sub.send({"n": n})
        gate.set()
        while sub._drain is not None:
            await asyncio.sleep(0)
        assert got[-1] == {"type": "closing", "reason": "behind"}
        assert len(got) <= 2 and sub.closed  # the one being sent when it fell behind
        sub.send({"n": -1})
        await asyncio.sleep(0)
        assert sub._drain is None and got[-1]["type"] == "closing"

    asyncio.run(run())


def test_a_reader_gone_or_failing_is_sent_nothing_more() -> None:
    async def run(answer: Any) -> list[int]:
        sub = Subscriber(1)
        got: list[int] = []

        async def deliver(message: dict[str, Any]) -> bool:
            got.append(message["n"])
            if message["n"] == 1:
                if isinstance(answer, Exception):
                    raise answer
                return bool(answer)
            return True

        sub.deliver_to(deliver)
        for n in range(4):
            sub.send({"n": n})
        while sub._drain is not None:
            await asyncio.sleep(0)
        sub.send({"n": 9})
        await asyncio.sleep(0)
        assert sub.closed and sub._drain is None
        return got

    assert asyncio.run(run(False)) == [0, 1]
    assert asyncio.run(run(RuntimeError("the socket's own failure"))) == [0, 1]


def test_stopping_cancels_a_delivery_under_way_and_frees_it_at_once() -> None:
    async def run() -> None:
        sub = Subscriber(2)
        got: list[int] = []
        stuck = asyncio.Event()
        cancelled = []

        async def deliver(message: dict[str, Any]) -> bool:
            got.append(message["n"])
            try:
                await stuck.wait()  # a socket that never drains
            except asyncio.CancelledError:
                cancelled.append(message["n"])
                raise
            return True

        sub.deliver_to(deliver)
        sub.send({"n": 0})
        sub.send({"n": 1})
        await asyncio.sleep(0)
        assert sub._drain is not None
        task = weakref.ref(sub._drain)
        await sub.stop_delivery()
        sub.send({"n": 2})
        await asyncio.sleep(0)
        assert sub._drain is None and sub.closed
        assert got == [0] and cancelled == [0]
        # Freed by reference counting alone: the delivery is over, not left cancelling,
        # and nothing of it is in a reference cycle (a frozen one would stay for ever).
        owner = weakref.ref(sub)
        del sub, deliver
        assert task() is None and owner() is None

    gc.collect()
    gc.disable()
    try:
        asyncio.run(run())
    finally:
        gc.enable()
