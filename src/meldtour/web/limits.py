"""Bounded input: how much a client may send in one request or one WebSocket message,
how long it may take to send a request's header, and how many live-standings streams
one client address may hold.

The server (``python -m meldtour.web``, :mod:`meldtour.web.__main__`) refuses a
WebSocket message over :data:`WS_MAX_BYTES` before it is read whole (uvicorn's
``ws_max_size``, counted after decompression), and :class:`BodyLimit` refuses a request
body over its limit with 413 as soon as the header or the bytes read say so, without
reading the rest — also when the app runs under another server. A page's forms and
JSON are small; only the director's imports (CSV/XLSX of players) are allowed more.

A connection must bring a complete request header within :data:`HEADER_SECONDS` of
opening (or of its previous response): :class:`TimelyH11` closes it otherwise, so a
client that opens connections and sends nothing, or half a header, holds none of them
for long (plain uvicorn closes only an idle connection *after* a response). And one
client address holds at most :data:`STREAMS_PER_CLIENT` live-standings streams at a
time (:class:`ClientSlots`): a browser opens at most six connections to a site, so
only a script meets the limit; the page then polls instead.
"""

from __future__ import annotations

import asyncio
import threading
from collections import Counter
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qsl

import h11
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

from meldtour.core import jsontext
from meldtour.core.refusal import Refused

from .deps import locale_of
from .errors import error_page, field_label, wants_page
from .i18n import N_, translations

#: A request body that is not an upload: forms, a score sheet's JSON.
BODY_MAX_BYTES = 256 * 1024
#: A multipart upload (a players' CSV/XLSX): 10 MB.
UPLOAD_MAX_BYTES = 10 * 1024 * 1024
#: One WebSocket message from a client (a move is a few hundred bytes).
WS_MAX_BYTES = 64 * 1024
#: uvicorn's WebSocket protocol for ``python -m meldtour.web``: the websockets
#: library's Sans-I/O connection, which writes a frame to the transport itself, rather
#: than the legacy protocol's task and lock per connection — 10–20 % less server CPU a
#: move at 400 games (BENCHMARKS.md, "Server", "The WebSocket protocol") — with a
#: client's text frames read, and text frames written, in ``wsfast`` rather than through
#: the library's parser and ``Frame`` objects (the rest still the library's).
WS_PROTOCOL = "meldtour.web.wsfast:FramedSansIO"
#: How deep a client's JSON may nest (a board is a list of lists of tiles: 3).
JSON_MAX_DEPTH = 32
#: How long a connection may take to bring a complete request header, in seconds, from
#: its opening or from its previous response (a phone's header is one packet).
HEADER_SECONDS = 10.0
#: How many live-standings streams one client address may hold at once.
STREAMS_PER_CLIENT = 8


class TooLarge(ValueError):
    """A client's input over its limit."""


class BodyLimit:
    """ASGI middleware: a request whose body is over its limit gets 413 and is not read
    further; a WebSocket message over :data:`WS_MAX_BYTES` closes the socket (1009)."""

    def __init__(
        self,
        app: ASGIApp,
        body_max: int = BODY_MAX_BYTES,
        upload_max: int = UPLOAD_MAX_BYTES,
        ws_max: int = WS_MAX_BYTES,
    ) -> None:
        self.app = app
        self.body_max, self.upload_max, self.ws_max = body_max, upload_max, ws_max

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            await self.app(scope, self._ws_receive(receive, send), send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        kind = headers.get(b"content-type", b"").split(b";")[0].strip().lower()
        limit = self.upload_max if kind == b"multipart/form-data" else self.body_max
        declared = headers.get(b"content-length")
        if declared is not None:
            try:
                size = int(declared)
            except ValueError:
                await _refuse(scope, send, 400, BAD_LENGTH)
                return
            if size > limit:
                await _refuse(scope, send, 413, BODY_SIZE, size=size, limit=limit)
                return
        bad = _control_in_address(scope)
        if bad is not None:
            await _refuse(scope, send, 400, bad[0], **bad[1])
            return
        if kind == b"application/x-www-form-urlencoded":
            # A form is small (its limit is checked as it is read): read it whole, check
            # every field for control characters, then hand it on as it came.
            chunks: list[bytes] = []
            size = 0
            while True:
                message = await receive()
                if message["type"] != "http.request":
                    return
                chunks.append(message.get("body", b""))
                size += len(chunks[-1])
                if size > limit:
                    await _refuse(scope, send, 413, BODY_OVER, limit=limit)
                    return
                if not message.get("more_body", False):
                    break
            form = b"".join(chunks)
            bad = _control_in_form(form)
            if bad is not None:
                await _refuse(scope, send, 400, bad[0], **bad[1])
                return
            replayed = False

            async def replay() -> Message:
                nonlocal replayed
                if not replayed:
                    replayed = True
                    return {"type": "http.request", "body": form, "more_body": False}
                return await receive()

            await self.app(scope, replay, send)
            return
        seen = 0
        started = False

        async def bounded() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise TooLarge(BODY_OVER % {"limit": limit})
            return message

        async def tracked(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, bounded, tracked)
        except TooLarge:
            if not started:
                await _refuse(scope, send, 413, BODY_OVER, limit=limit)

    def _ws_receive(self, receive: Receive, send: Send) -> Receive:
        async def bounded() -> Message:
            message = await receive()
            if message["type"] == "websocket.receive":
                data = message.get("text") or message.get("bytes") or ""
                if len(data) > self.ws_max:
                    await send(
                        {
                            "type": "websocket.close",
                            "code": 1009,
                            "reason": f"a message is at most {self.ws_max} bytes",
                        }
                    )
                    return {"type": "websocket.disconnect", "code": 1009}
            return message

        return bounded


#: What the edge refuses, as message ids (the page says them in the reader's language).
BAD_LENGTH = N_("the Content-Length header is not a number")
BODY_SIZE = N_("the request body is %(size)s bytes: at most %(limit)s")
BODY_OVER = N_("the request body is over %(limit)s bytes")
ADDRESS_CONTROL = N_("the address holds a control character (such as NUL): it is not a page")
QUERY_CONTROL = N_("the address's field %(field)s holds a control character (such as NUL)")
FORM_NOT_UTF8 = N_("the form is not UTF-8 text")
FORM_CONTROL = N_(
    "the field %(field)s holds a control character (such as NUL): type it again without it"
)

Refusal = tuple[str, dict[str, Any]]


def _control_in_address(scope: Scope) -> Refusal | None:
    path = scope.get("path", "")
    if any(jsontext.is_control(ch) for ch in path):
        return ADDRESS_CONTROL, {}
    query = scope.get("query_string", b"").decode("latin-1")
    for key, value in parse_qsl(query, keep_blank_values=True):
        if any(jsontext.is_control(ch) for ch in key + value):
            return QUERY_CONTROL, {"field": key[:40]}
    return None


def _control_in_form(body: bytes) -> Refusal | None:
    try:
        fields = parse_qsl(body.decode("utf-8"), keep_blank_values=True, errors="strict")
    except (UnicodeDecodeError, ValueError):
        return FORM_NOT_UTF8, {}
    for key, value in fields:
        if any(jsontext.is_control(ch) for ch in key + value):
            return FORM_CONTROL, {"field": key[:40]}
    return None


async def _refuse(scope: Scope, send: Send, status: int, message: str, **params: Any) -> None:
    """The refusal: a page in the reader's language for a page request (naming the
    field by its label), else JSON with the English sentence (a field as ``'name'``)."""
    headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope.get("headers") or []}
    if "app" in scope and wants_page(headers):
        request = Request({**scope, "type": "http", "path": _printable(scope.get("path", ""))})
        locale = locale_of(request)
        gettext = translations(locale).gettext
        # The field by its label; the translations quote it as their language does.
        said = {k: (field_label(v, gettext) if k == "field" else v) for k, v in params.items()}
        if locale == "en" and "field" in said:
            said["field"] = f"“{said['field']}”"
        response: Response = error_page(request, status, gettext(message) % said)
        response.headers["connection"] = "close"
    else:
        said = {k: (repr(v) if k == "field" else v) for k, v in params.items()}
        response = JSONResponse(
            {"detail": message % said}, status_code=status, headers={"connection": "close"}
        )

    async def nothing() -> Message:
        return {"type": "http.disconnect"}

    await response(scope, nothing, send)


def _printable(path: str) -> str:
    return "".join(ch for ch in path if not jsontext.is_control(ch))


class TimelyH11(H11Protocol):
    """uvicorn's HTTP/1.1 protocol (h11) with a deadline for the request header: a
    connection that has not sent a whole header :data:`HEADER_SECONDS` after it opened,
    or after its previous response, is closed. Once a header is in, the request runs
    as long as it needs (a body is bounded by :class:`BodyLimit`, a WebSocket by its
    pings)."""

    header_seconds: float = HEADER_SECONDS
    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def handle_events(self) -> None:
        cycle = self.cycle
        super().handle_events()
        if self.cycle is not cycle:  # a whole header came in: its request runs
            self._disarm()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._disarm()
        super().handle_websocket_upgrade(event)

    def on_response_complete(self) -> None:
        self._arm()  # the next request's header, if the client keeps the connection
        super().on_response_complete()

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.header_seconds, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if self.cycle is not None and not self.cycle.response_complete:
            return  # a request is running (pipelined): its response rearms
        if not self.transport.is_closing():
            self.transport.close()


class ClientSlots:
    """At most ``most`` things at once per client address (the live-standings streams):
    :meth:`take` says whether one more may start, :meth:`give` ends one. In this
    process's memory: each server process counts its own."""

    def __init__(self, most: int = STREAMS_PER_CLIENT) -> None:
        self.most = most
        self._held: Counter[str] = Counter()
        self._lock = threading.Lock()

    def take(self, client: str) -> bool:
        with self._lock:
            if self._held[client] >= self.most:
                return False
            self._held[client] += 1
            return True

    def give(self, client: str) -> None:
        with self._lock:
            self._held[client] -= 1
            if self._held[client] <= 0:
                del self._held[client]

    def held(self, client: str) -> int:
        return self._held.get(client, 0)


class HeldStream(StreamingResponse):
    """A streaming response that gives its client's slot back when it ends, however it
    ends (finished, the client gone, the server stopping): ``release`` runs once."""

    def __init__(self, content: Any, *, release: Callable[[], None], **kwargs: Any) -> None:
        super().__init__(content, **kwargs)
        self._release: Callable[[], None] | None = release

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            release, self._release = self._release, None
            if release is not None:
                release()


#: The refusal of one stream too many (the page then polls).
STREAMS_OVER = N_(
    "Too many live standings are open from your address: this page updates "
    "itself every second instead."
)


def parse_json(data: bytes | str, limit: int = JSON_MAX_DEPTH) -> Any:
    """``json.loads`` that refuses nesting past ``limit`` before parsing (so a body nested
    100,000 deep never reaches the recursive parser) and numbers too long to convert
    (``meldtour.core.jsontext``), as :class:`TooLarge`.

    >>> parse_json('{"a": [1, [2]]}')
    {'a': [1, [2]]}
    >>> parse_json("[" * 40 + "]" * 40)
    Traceback (most recent call last):
    ...
    meldtour.web.limits.TooLarge: the JSON nests deeper than 32 levels
    """
    try:
        return jsontext.loads(data, limit)
    except Refused as exc:
        raise TooLarge(str(exc)) from None


__all__ = [
    "BODY_MAX_BYTES",
    "HEADER_SECONDS",
    "JSON_MAX_DEPTH",
    "STREAMS_OVER",
    "STREAMS_PER_CLIENT",
    "UPLOAD_MAX_BYTES",
    "WS_MAX_BYTES",
    "BodyLimit",
    "ClientSlots",
    "HeldStream",
    "TimelyH11",
    "TooLarge",
    "parse_json",
]
