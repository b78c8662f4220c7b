"""What every page depends on: the reader's language, rendering a template, loading a
tournament.

The one copy of each, for the site's pages, the game pages and the director's (whose
:func:`meldtour.web.director.deps.render` adds the session, CSRF and flash on top).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import Depends, HTTPException, Request, WebSocket
from fastapi.responses import HTMLResponse
from limits.strategies import MovingWindowRateLimiter
from starlette.datastructures import FormData

from meldtour import application as usecases
from meldtour.store.db import Store
from meldtour.store.repository import NotFound
from meldtour.tournament import Tournament

from .counters import counter_storage
from .i18n import LOCALE_NAMES, LOCALES, choose_locale, environment, translations

#: How long the ``lang`` cookie keeps a language chosen with ``?lang=``.
LANG_SECONDS = 365 * 24 * 3600


def locale_of(request: Request | WebSocket) -> str:
    """The reader's language: ``?lang=``, else the ``lang`` cookie, else the browser's
    ``Accept-Language``, else the site's default (``MELDTOUR_DEFAULT_LOCALE``)."""
    settings = request.app.state.settings
    return choose_locale(
        request.query_params.get("lang"),
        request.cookies.get("lang"),
        request.headers.get("accept-language"),
        settings.default_locale,
    )


def gettext_of(request: Request | WebSocket) -> Callable[[str], str]:
    """The reader's ``gettext``."""
    return translations(locale_of(request)).gettext


def render(request: Request, name: str, status_code: int = 200, **context: Any) -> HTMLResponse:
    """The template ``name`` in the reader's language. A language chosen with
    ``?lang=`` is kept in a cookie; the response says its language."""
    locale = locale_of(request)
    html = (
        environment(locale)
        .get_template(name)
        .render(locale=locale, locales=LOCALE_NAMES, path=request.url.path, **context)
    )
    response = HTMLResponse(html, status_code=status_code)
    if request.query_params.get("lang") in LOCALES:
        response.set_cookie("lang", locale, max_age=LANG_SECONDS, samesite="lax")
    response.headers["Content-Language"] = locale
    return response


def load_tournament(store: Store, slug: str) -> Tournament:
    """The tournament ``slug``, or 404."""
    try:
        return usecases.read(store, slug)
    except NotFound as exc:
        # Said by its code on the error page (web/errors.py), in the reader's language.
        raise HTTPException(404, exc.refusal) from None


__all__ = ["gettext_of", "load_tournament", "locale_of", "render"]


async def read_form(request: Request) -> FormData:
    """The request's form, read on the event loop (reading waits for the body) so that
    the route itself can be a ``def`` route, which FastAPI runs in a worker thread: no
    route does the store's work on the loop. A form a dependency has read already (the
    CSRF check, a list's bounded reading) is the one given; a body that a bounded
    reading refused and left unread gives no fields (the route says why)."""
    try:
        return await request.form()
    except RuntimeError:  # "Stream consumed": refused before, e.g. a list over its bound
        return FormData()


#: A ``def`` route's form: ``form: FormDep``.
FormDep = Annotated[FormData, Depends(read_form)]


def client_limiter(request: Request) -> MovingWindowRateLimiter:
    """The app's limiter of what one client may do in a while (new lobby tables,
    registrations): a moving window per client address, shared through Redis with the
    other processes when the cluster is on."""
    limiter: MovingWindowRateLimiter | None = getattr(request.app.state, "client_limiter", None)
    if limiter is None:
        limiter = MovingWindowRateLimiter(
            counter_storage(
                request.app.state.settings.redis_url, request.app.state.settings.redis_prefix
            )
        )
        request.app.state.client_limiter = limiter
    return limiter


def client_of(request: Request) -> str:
    """The client's address (the peer's, or a trusted proxy's forwarded one)."""
    return request.client.host if request.client else "?"


def source_of(request: Request, slug: str) -> str:
    """Where a public form's post came from, as the director may see it: a short HMAC
    of the tournament and the client's address under the site's secret key (never the
    address, and not a plain hash: one would give the address back to a search of
    every address in an hour)."""
    key = hashlib.sha256(b"meldtour/source/" + request.app.state.settings.secret_key.encode())
    mac = hmac.new(key.digest(), f"{slug}:{client_of(request)}".encode(), hashlib.sha256)
    return mac.hexdigest()[:8]
