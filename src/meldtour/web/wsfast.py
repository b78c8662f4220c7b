"""uvicorn's Sans-I/O WebSocket protocol with the common frames framed here.

A game's socket carries one small text frame each way a move; the websockets library's
parser (a generator reading through several layers, a ``Frame`` and its checks for each)
and its writer (a ``Frame`` serialised through a list) were a fifth of the game
server's CPU a move (BENCHMARKS.md, "Server"). This protocol reads a whole, masked,
unfragmented text frame from a client itself, and writes a text frame to it itself,
exactly as the library would; every other frame — a ping, a pong, a close, binary,
fragments, anything long, reserved bits, an unmasked frame — goes to the library whole,
and anything it cannot judge hands the connection to the library for good. The library
therefore always sees whole frames, and sees every one that changes its state.

Nothing here is an extension of the protocol: what a client receives, and what the
application receives, is byte for byte what the library's path gives (the tests in
``tests/web/test_wsfast.py`` send the same frames both ways).
"""

from __future__ import annotations

import struct
from types import GeneratorType
from typing import Any

from uvicorn._types import ASGISendEvent
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import OPEN

try:  # the library's compiled mask, as its own parser uses
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover - a build without the extension
    from websockets.utils import apply_mask

_TEXT = 0x1
_CLOSE, _PING, _PONG = 0x8, 0x9, 0xA
#: The longest frame framed here (a longer one goes to the library, which applies the
#: connection's size limit to it).
_MOST = 0xFFFF


def _at_frame_start(parser: Any) -> bool:
    """Whether the library's parser waits at the start of a frame (in ``at_eof``, its
    buffer empty), not inside one: only then may frames be read here in its place."""
    g = parser
    while isinstance(g, GeneratorType):
        inner = g.gi_yieldfrom
        if inner is None:
            return False
        if not isinstance(inner, GeneratorType):
            return False
        if inner.gi_code.co_name == "at_eof":
            return True
        g = inner
    return False


class FramedSansIO(WebSocketsSansIOProtocol):
    """:class:`WebSocketsSansIOProtocol`, the text frames of an open connection framed
    here (``python -m meldtour.web`` and the tests' servers use it:
    ``limits.WS_PROTOCOL``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: None until the connection is open; then True while frames are read here,
        #: False once the library reads them all.
        self._framing: bool | None = None
        self._held = bytearray()

    # ---------------------------------------------------------------- reading

    def data_received(self, data: bytes) -> None:
        if self._framing is None:
            conn = self.conn
            if (
                conn.state is OPEN
                and not conn.reader.buffer
                and not conn.extensions
                and not conn.debug
                and _at_frame_start(conn.parser)
            ):
                self._framing = True
            else:
                super().data_received(data)
                return
        if not self._framing:
            super().data_received(data)
            return
        held = self._held
        held += data
        start = 0
        end = len(held)
        while end - start >= 2:
            b0, b1 = held[start], held[start + 1]
            opcode, length = b0 & 0x0F, b1 & 0x7F
            if b0 & 0x70 or not b1 & 0x80 or length == 127:  # reserved bits, unmasked, long
                break
            at = start + 2
            if length == 126:
                if end - at < 2:
                    return self._keep(start)
                length = (held[at] << 8) | held[at + 1]
                at += 2
            if length > _MOST or length > (self.conn.max_message_size or _MOST):
                break
            stop = at + 4 + length
            if stop > end:
                return self._keep(start)
            if opcode == _TEXT and b0 & 0x80:
                if self.conn.state is not OPEN or self.conn.current_size is not None:
                    break
                payload = apply_mask(held[at + 4 : stop], held[at : at + 4])
                try:
                    text = payload.decode()
                except UnicodeDecodeError:
                    break  # the library closes with 1007, as before
                start = stop
                if self.close_sent:  # past the app's close: dropped, as the library's path
                    continue
                self.queue.put_nowait({"type": "websocket.receive", "text": text})
                if not self.read_paused:
                    self.read_paused = True
                    self.transport.pause_reading()
                continue
            if opcode in (_CLOSE, _PING, _PONG) and b0 & 0x80 and length <= 125:
                frame = bytes(held[start:stop])
                start = stop
                super().data_received(frame)
                if self.conn.state is not OPEN or self.conn.parser_exc is not None:
                    return self._hand_over(start)  # closed or failed: the library's now
                continue
            break
        else:
            return self._keep(start)
        return self._hand_over(start)  # a frame not read here

    def _keep(self, start: int) -> None:
        """Keep the part of a frame not yet whole (the rest comes in a later read)."""
        if start:
            del self._held[:start]

    def _hand_over(self, start: int) -> None:
        """The library reads what is held from ``start`` on, and every frame after
        (not when the transport is closing: it has closed or failed the connection,
        and would say so twice)."""
        self._framing = False
        rest = bytes(self._held[start:])
        self._held.clear()
        if rest and not self.transport.is_closing():
            super().data_received(rest)

    # ---------------------------------------------------------------- writing

    async def send(self, message: ASGISendEvent) -> None:
        if message["type"] == "websocket.send":
            text = message.get("text")
            conn = self.conn
            if (
                isinstance(text, str)
                and message.get("bytes") is None
                and self.writable.is_set()
                and not self.close_sent
                and not self.disconnected
                and conn.state is OPEN
                and not conn.expect_continuation_frame
                and not conn.writes
                and not conn.extensions
                and not conn.debug
                and not self.transport.is_closing()
            ):
                data = text.encode()
                n = len(data)
                if n < 126:
                    head = bytes((0x81, n))
                elif n < 0x10000:
                    head = struct.pack("!BBH", 0x81, 126, n)
                else:
                    head = struct.pack("!BBQ", 0x81, 127, n)
                self.transport.write(head + data)
                return
        await super().send(message)


__all__ = ["FramedSansIO"]
