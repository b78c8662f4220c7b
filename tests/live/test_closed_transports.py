"""A closed connection's transport is freed by reference counting, at once: the game
server freezes what lives across a heartbeat (``tune_gc``), so a transport kept by a
reference cycle after its socket closed stayed until the next thaw, and with it the
memory pages around it (BENCHMARKS.md, "Server": resident memory rising at 400 games)."""

from __future__ import annotations

import asyncio
import gc
import weakref

from meldtour.live.server import release_closed_transports


class _Echo(asyncio.Protocol):
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        assert isinstance(self.transport, asyncio.Transport)
        self.transport.write(data)


async def _transports_left(abort: bool) -> list[weakref.ref[asyncio.BaseTransport]]:
    """Weak references to both ends' transports of connections that were closed (by
    the client, or aborted by it), with the collector off."""
    loop = asyncio.get_running_loop()
    ends: list[weakref.ref[asyncio.BaseTransport]] = []

    server = await loop.create_server(_Echo, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    for _ in range(5):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"move")
        assert await reader.readexactly(4) == b"move"
        ends.append(weakref.ref(writer.transport))
        if abort:
            writer.transport.abort()
        else:
            writer.close()
            await writer.wait_closed()
        del reader, writer
    await asyncio.sleep(0.05)  # the server's side sees the end, and lets go
    server.close()
    await server.wait_closed()
    for _ in range(3):
        await asyncio.sleep(0)
    return ends


def test_a_closed_transport_needs_no_collection() -> None:
    release_closed_transports()
    gc.collect()
    gc.disable()
    try:
        for abort in (False, True):
            ends = asyncio.run(_transports_left(abort))
            assert [e() for e in ends] == [None] * len(ends)
    finally:
        gc.enable()
