"""The laptop's gate: the director's pages answer only the computer that runs meldtour
until a director has signed in there.

``python -m meldtour.web`` (``make run``) listens on every interface, so that the
phones on the venue's Wi-Fi reach the score sheets, the vote and the standings. Every
spectator shares that network, so the director's pages (``/director`` and everything
under it) hold a rule of their own:

- **The first-start page** (``/director/setup``, the site's first account, its
  administrator) answers only this computer, always: nobody on the Wi-Fi can claim the
  site before the director has.
- **Every other director page** — the sign-in page included — answers only this
  computer until a director has signed in *on this computer* once (recorded in the
  store, :func:`meldtour.application.venue.open_to_network`, with an audit line of the
  site's). From then on a director may sign in from a tablet at the head table; each
  page still needs a signed-in director, as before, and sign-in failures are throttled
  per address.

"This computer" is a client at the loopback address a browser on this computer uses
(``127.0.0.1`` — for ``localhost`` too — or ``::1``), or a connection with no network
address at all: a Unix socket, or an in-process client (Starlette's ``TestClient``,
whose peer is named ``testclient``). Nothing on a laptop uses the other addresses of
127.0.0.0/8 unless told to, so they count as another device (the tests' phone is a
client on 127.0.0.2); so does this computer's own address on the Wi-Fi
(``http://192.168.0.12:8000`` opened on the laptop). Behind a
reverse proxy the address is the forwarded one, believed only from
``MELDTOUR_TRUSTED_PROXIES``; without that setting every client of a proxy on this
computer looks like this computer (as before the gate). A site on a server far away
is opened the same way: the first account is made, and its first sign-in done,
through ``ssh -L 8000:127.0.0.1:8000`` (the tunnel arrives on loopback).

The gate sees a sign-in by the session cookie the answer sets (``mt_session``), so
any route that starts a session on this computer opens the gate; it reads the store
in a worker thread (never on the event loop), only for a client that is not this
computer, and only until it has seen the gate open.
"""

from __future__ import annotations

import ipaddress
import logging
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from meldtour.application import venue

from ..deps import locale_of
from ..errors import error_page
from ..i18n import N_, translations
from . import accounts

log = logging.getLogger(__name__)

SESSION_COOKIE = b"mt_session="
#: The addresses a browser on this computer connects from.
LAPTOP = (ipaddress.ip_address("127.0.0.1"), ipaddress.ip_address("::1"))
#: The peer of Starlette's in-process TestClient: a connection with no network address.
IN_PROCESS = "testclient"

SETUP_ONLY_HERE = N_(
    "The first director account is made on the computer that runs "
    "meldtour: open %(url)s on that computer."
)
DIRECTOR_ONLY_HERE = N_(
    "The director's pages open only on the computer that runs "
    "meldtour until a director has signed in there: open %(url)s on "
    "that computer and sign in; then this device can sign in too."
)


def is_this_computer(host: str | None) -> bool:
    """Whether a client of this address is the computer that runs the app.

    >>> [is_this_computer(h) for h in ("127.0.0.1", "::1", "::ffff:127.0.0.1", None,
    ...                                "testclient", "127.0.0.2", "192.168.0.20", "0.0.0.0",
    ...                                "unknown")]
    [True, True, True, True, True, False, False, False, False]
    """
    if host is None or host == IN_PROCESS:
        return True
    try:
        ip = ipaddress.ip_address(host.split("%")[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip in LAPTOP


def _director_path(path: str) -> bool:
    return path == "/director" or path.startswith("/director/")


class LaptopGate:
    """ASGI middleware: the rule above."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self._open = False  # seen open once: stays open (the store never closes it)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or not _director_path(scope["path"]):
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        host = client[0] if client else None
        if is_this_computer(host):
            await self.app(scope, receive, self._watch(scope, send))
            return
        setup = scope["path"].rstrip("/") == "/director/setup"
        if not setup and (self._open or await self._opened(scope)):
            await self.app(scope, receive, send)
            return
        await self._refuse(scope, receive, send, setup)

    async def _opened(self, scope: Scope) -> bool:
        web = scope["app"].state.director
        try:
            self._open = await run_in_threadpool(venue.network_opened, web.store())
        except Exception:  # the database away: stay shut (the laptop still answers)
            log.warning("the gate could not read the store", exc_info=True)
            return False
        return self._open

    def _watch(self, scope: Scope, send: Send) -> Send:
        """``send``, noting a session started on this computer: the gate opens."""
        if self._open or scope["type"] != "http":
            return send

        async def watched(message: Message) -> None:
            if message["type"] == "http.response.start" and not self._open:
                for name, value in message.get("headers", []):
                    if (
                        name.lower() == b"set-cookie"
                        and value.startswith(SESSION_COOKIE)
                        and value[len(SESSION_COOKIE) :][:1] not in (b";", b'"', b"")
                    ):
                        await self._open_now(scope, value)
                        break
            await send(message)

        return watched

    async def _open_now(self, scope: Scope, cookie: bytes) -> None:
        web = scope["app"].state.director
        token = cookie[len(SESSION_COOKIE) :].split(b";", 1)[0].decode("latin-1")
        value = web.session.unsign(token)
        who = "?"

        def record() -> None:
            nonlocal who
            if isinstance(value, dict) and isinstance(value.get("a"), int):
                account = accounts.get(web.store(), value["a"])
                who = account.name if account is not None else who
            venue.open_to_network(web.store(), who=who)

        try:
            await run_in_threadpool(record)
        except Exception:  # not recorded: the next sign-in here tries again
            log.warning("the gate could not record the sign-in", exc_info=True)
            return
        self._open = True

    async def _refuse(self, scope: Scope, receive: Receive, send: Send, setup: bool) -> None:
        request = Request(scope)
        port = (scope.get("server") or ("", 8000))[1]
        url = f"http://127.0.0.1:{port}{'/director/setup' if setup else '/director'}"
        gettext = translations(locale_of(request)).gettext
        text = gettext(SETUP_ONLY_HERE if setup else DIRECTOR_ONLY_HERE) % {"url": url}
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": "this computer only"})
            return
        response: Any = error_page(request, 403, text)
        await response(scope, receive, send)


__all__ = ["DIRECTOR_ONLY_HERE", "SETUP_ONLY_HERE", "LaptopGate", "is_this_computer"]
