"""The framed WebSocket protocol (``meldtour.web.wsfast``) against uvicorn's own
Sans-I/O protocol: the same bytes sent to both, in whole frames, byte by byte, several
frames at once, pings, binary and fragmented messages, bad frames — and the same bytes
and the same messages come back from both."""

from __future__ import annotations

import socket
import struct
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, ClassVar

import pytest
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from meldtour.web.limits import WS_PROTOCOL
from meldtour.web.wsfast import FramedSansIO

from .browser import serve

MAX = 4096
KEYS = (b"\x37\xfa\x21\x3d", b"\x00\x00\x00\x00", b"\xff\x01\x80\x7f")


def frame(opcode: int, payload: bytes, *, fin: bool = True, mask: bool = True) -> bytes:
    """A client's frame (masked unless told)."""
    b0 = (0x80 if fin else 0) | opcode
    n = len(payload)
    if n < 126:
        head = bytes((b0, (0x80 if mask else 0) | n))
    elif n < 65536:
        head = struct.pack("!BBH", b0, (0x80 if mask else 0) | 126, n)
    else:
        head = struct.pack("!BBQ", b0, (0x80 if mask else 0) | 127, n)
    if not mask:
        return head + payload
    key = KEYS[n % len(KEYS)]  # fixed keys: the same test ids in every worker
    return head + key + bytes(c ^ key[i % 4] for i, c in enumerate(payload))


def text(s: str | bytes, **kw: Any) -> bytes:
    return frame(0x1, s.encode() if isinstance(s, str) else s, **kw)


class Echo:
    """An ASGI app that answers each message ("got: ..."), and notes what it received."""

    def __init__(self) -> None:
        self.seen: list[Any] = []

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        assert scope["type"] == "websocket"
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": "hello " + "é" * 100})
        while True:
            m = await receive()
            self.seen.append(m)
            if m["type"] == "websocket.disconnect":
                return
            if m.get("text") == "close please":
                await send({"type": "websocket.close", "code": 4001})
                continue
            if m.get("text") is not None:
                await send({"type": "websocket.send", "text": "got: " + m["text"]})
            else:
                await send({"type": "websocket.send", "bytes": b"got: " + m["bytes"]})


@contextmanager
def served(protocol: type[Any]) -> Iterator[tuple[int, Echo]]:
    app = Echo()
    with serve(
        app,
        log_level="critical",
        ws=protocol,
        ws_max_size=MAX,
        ws_ping_interval=None,
        ws_per_message_deflate=False,
        lifespan="off",
    ) as base:
        yield int(base.rsplit(":", 1)[1]), app


def talk(port: int, chunks: list[bytes], pause: float = 0.05) -> bytes:
    """Open a socket, send ``chunks`` one by one, and return everything the server
    sent after its handshake, until it closes or is quiet for a while."""
    with socket.create_connection(("127.0.0.1", port)) as c:
        c.sendall(
            b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
            b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            b"Sec-WebSocket-Version: 13\r\n\r\n"
        )
        got = b""
        while b"\r\n\r\n" not in got:
            got += c.recv(65536)
        head, _, got = got.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 101"), head
        for chunk in chunks:
            try:
                c.sendall(chunk)
            except OSError:
                break
            time.sleep(pause)
        c.settimeout(0.5)
        try:
            while data := c.recv(65536):
                got += data
        except (TimeoutError, OSError):
            pass
        return got


def both(chunks: list[bytes], pause: float = 0.05) -> tuple[bytes, list[Any]]:
    """What each protocol sent back and what the app received: the same, or fail."""
    answers = []
    for protocol in (WebSocketsSansIOProtocol, FramedSansIO):
        with served(protocol) as (port, app):
            out = talk(port, chunks, pause)
            time.sleep(0.1)
            answers.append((out, list(app.seen)))
    assert answers[0] == answers[1]
    return answers[0]


def received(seen: list[Any]) -> list[Any]:
    return [m.get("text") or m.get("bytes") for m in seen if m["type"] == "websocket.receive"]


def test_the_product_serves_the_framed_protocol() -> None:
    assert WS_PROTOCOL == "meldtour.web.wsfast:FramedSansIO"


def test_whole_frames_and_one_of_200_bytes_and_a_client_close() -> None:
    out, seen = both([text("a move"), text("x" * 200), text("ü → 한"), frame(0x8, b"\x03\xe8")])
    assert [m.get("text") for m in seen[:3]] == ["a move", "x" * 200, "ü → 한"]
    assert seen[3]["type"] == "websocket.disconnect" and seen[3]["code"] == 1000
    assert b"got: a move" in out and "got: ü → 한".encode() in out


def test_frames_cut_anywhere_and_several_in_one_read() -> None:
    stream = text("one") + text("two" * 50) + frame(0x9, b"ping!") + text("three")
    _out, seen = both([stream[i : i + 1] for i in range(len(stream))], pause=0.002)
    assert received(seen) == ["one", "two" * 50, "three"]
    out, seen = both([stream])
    assert received(seen) == ["one", "two" * 50, "three"]
    assert b"\x8a\x05ping!" in out  # the pong, from the library


def test_binary_and_fragments_go_to_the_library_and_text_goes_on() -> None:
    out, seen = both(
        [
            frame(0x2, b"\x00\x01"),
            text("after binary"),
            frame(0x1, b"frag", fin=False) + frame(0x0, b"mented"),
            text("after"),
        ]
    )
    assert received(seen) == [
        b"\x00\x01",
        "after binary",
        "fragmented",
        "after",
    ]
    assert b"got: \x00\x01" in out


@pytest.mark.parametrize(
    "bad",
    [
        text(b"\xff\xfe not utf-8"),  # 1007
        text("unmasked", mask=False),  # 1002
        text("y" * (MAX + 1)),  # 1009
        bytes((0x81 | 0x40, 0x80 | 3)) + b"\0\0\0\0abc",  # a reserved bit: 1002
        frame(0x0, b"a continuation of nothing"),  # 1002
        frame(0x9, b"p" * 126),  # a control frame too long: 1002
    ],
    ids=["not-utf-8", "unmasked", "too-long", "reserved-bit", "lone-continuation", "long-ping"],
)
def test_bad_frames_are_closed_as_the_library_closes_them(bad: bytes) -> None:
    out, seen = both([text("before"), bad, text("never read")])
    assert seen[0].get("text") == "before"
    assert seen[-1]["type"] == "websocket.disconnect"
    assert "never read" not in [m.get("text") for m in seen]
    assert b"\x88" in out  # a close frame


def test_the_apps_close_then_a_message_is_dropped() -> None:
    out, seen = both([text("close please"), text("late"), frame(0x8, b"\x0f\xa1")])
    assert received(seen) == ["close please"]
    assert b"\x88\x02\x0f\xa1" in out  # the app's close, 4001


class Recorded(FramedSansIO):
    made: ClassVar[list[Recorded]] = []

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        Recorded.made.append(self)


def test_text_frames_are_framed_here_past_a_ping_and_handed_over_at_binary() -> None:
    """The tests above would pass if every frame went to the library: here the framed
    path is seen to be taken (and left only where it must be)."""
    Recorded.made.clear()
    with served(Recorded) as (port, app):
        talk(port, [text("a"), frame(0x9, b"hi") + text("b"), text("c")])
        assert Recorded.made[-1]._framing is True
        talk(port, [text("a"), frame(0x2, b"bin"), text("c")])
        assert Recorded.made[-1]._framing is False
    assert received(app.seen) == ["a", "b", "c", "a", b"bin", "c"]
