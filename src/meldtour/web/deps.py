"""The web's one shared base: what every page depends on — the web state (settings, the
store opened on first use, the signers), the store dependency, the reader's language,
rendering a page (with the CSRF token, the signed-in account and the flash message),
CSRF checks, flash messages and redirects, the voter key, loading a tournament, reading
a form off the event loop, the client's address.

Public and director routes build on this module; the director's own dependencies (who
is signed in as a director, who directs the tournament of the path) are
:mod:`meldtour.web.director.deps`. ``WebDep`` and ``StoreDep`` are FastAPI dependencies
in the manner of full-stack-fastapi-template's ``api/deps.py``.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, HTTPException, Request, WebSocket
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from limits.strategies import MovingWindowRateLimiter
from starlette.datastructures import FormData

from meldtour import application as usecases
from meldtour.application import accounts
from meldtour.application.accounts import Account
from meldtour.store.db import Store
from meldtour.store.errors import NotFound
from meldtour.tournament import Tournament, TournamentError

from .config import Settings
from .counters import counter_storage
from .database import open_web_store
from .i18n import LOCALE_NAMES, LOCALES, choose_locale, environment, translations
from .security import LoginThrottle, Signer
from .watch import Watchers

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


def render_template(
    request: Request, name: str, status_code: int = 200, **context: Any
) -> HTMLResponse:
    """The template ``name`` in the reader's language, nothing else (the game pages,
    the error pages). A language chosen with
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


def pick_division(t: Tournament, key: str | None) -> str:
    """The division ``key`` of the tournament (404 if none), else its first started one,
    else its first."""
    if key:
        try:
            return t.division(key).key
        except TournamentError as exc:
            raise HTTPException(404, exc.refusal) from None
    started = [d.key for d in t.divisions if d.stages]
    return (started or [t.divisions[0].key])[0]


def load_tournament(store: Store, slug: str) -> Tournament:
    """The tournament ``slug``, or 404."""
    try:
        return usecases.read(store, slug)
    except NotFound as exc:
        # Said by its code on the error page (web/errors.py), in the reader's language.
        raise HTTPException(404, exc.refusal) from None


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


#: The cookie of a seat at an online table (followed by the game's id).
SEAT_COOKIE = "meldtour_seat_"

SESSION_COOKIE = "mt_session"


CSRF_COOKIE = "mt_csrf"


FLASH_COOKIE = "mt_flash"


VOTER_COOKIE = "mt_voter"


@dataclass
class Scope:
    """What a scorer's link opens: one table of one round."""

    slug: str
    division: str
    stage: int
    round: int
    table: int


class Web:
    """The director app's state: settings, the store (opened on first use), signers,
    the login throttle and the standings watchers."""

    def __init__(
        self, settings: Settings, store: Store | None = None, url: str | None = None
    ) -> None:
        self.settings = settings
        self._store = store
        self._url = url if url is not None else settings.database_url
        self._lock = threading.Lock()
        self.session = Signer(settings.secret_key, "session")
        self.scorer = Signer(settings.secret_key, "scorer")
        self.csrf = Signer(settings.secret_key, "csrf")
        self.flash = Signer(settings.secret_key, "flash")
        self.voter = Signer(settings.secret_key, "voter")
        self.throttle = LoginThrottle(
            storage=settings.redis_url or "memory://", prefix=settings.redis_prefix
        )
        # The live standings streams share one database watcher per tournament.
        self.watchers = Watchers(lambda slug: usecases.audit_mark(self.store(), slug))

    @property
    def secure_cookies(self) -> bool:
        return not self.settings.is_development

    def store(self) -> Store:
        if self._store is None:
            with self._lock:
                if self._store is None:
                    self._store = open_web_store(self._url)
        return self._store

    def csrf_token(self, cookie: str) -> str:
        return self.csrf.mac(cookie)

    def scorer_token(self, scope: Scope) -> str:
        return self.scorer.sign([scope.slug, scope.division, scope.stage, scope.round, scope.table])

    def scope_of(self, token: str) -> Scope | None:
        value = self.scorer.unsign(token)
        if not (isinstance(value, list) and len(value) == 5):
            return None
        slug, division, stage, rnd, table = value
        if not (
            isinstance(slug, str)
            and isinstance(division, str)
            and all(isinstance(x, int) for x in (stage, rnd, table))
        ):
            return None
        return Scope(slug, division, stage, rnd, table)


def get_web(request: Request) -> Web:
    web: Web = request.app.state.director
    return web


WebDep = Annotated[Web, Depends(get_web)]


def get_store(web: WebDep) -> Store:
    return web.store()


StoreDep = Annotated[Store, Depends(get_store)]


def current_account(request: Request) -> Account | None:
    if hasattr(request.state, "account"):
        found: Account | None = request.state.account
        return found
    web = get_web(request)
    value = web.session.unsign(request.cookies.get(SESSION_COOKIE))
    account = None
    if (
        isinstance(value, dict)
        and isinstance(value.get("a"), int)
        and isinstance(value.get("exp"), int | float)
        and value["exp"] > time.time()
        and isinstance(value.get("n"), str)
        and isinstance(value.get("g", 0), int)
        and not accounts.session_ended(web.store(), value["n"])
    ):
        # refused once the account is disabled or its sessions were ended (its epoch)
        account = accounts.signed_in(web.store(), value["a"], value.get("g", 0))
    request.state.account = account
    return account


def _csrf_cookie(request: Request) -> tuple[str, bool]:
    cookie = request.cookies.get(CSRF_COOKIE)
    if cookie and len(cookie) >= 20:
        return cookie, False
    if not hasattr(request.state, "csrf_cookie"):
        request.state.csrf_cookie = secrets.token_urlsafe(24)
    return str(request.state.csrf_cookie), True


async def csrf_protect(request: Request) -> None:
    """Every state-changing request carries the token of the visitor's CSRF cookie, in
    the form field ``csrf`` or the header ``X-CSRF-Token``."""
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return
    web = get_web(request)
    cookie = request.cookies.get(CSRF_COOKIE)
    token = request.headers.get("x-csrf-token")
    if token is None and request.headers.get("content-type", "").startswith(
        ("application/x-www-form-urlencoded", "multipart/form-data")
    ):
        field = (await request.form()).get("csrf")
        token = field if isinstance(field, str) else None
    if not cookie or not token or not hmac.compare_digest(token, web.csrf_token(cookie)):
        _ = gettext_of(request)
        raise HTTPException(
            403,
            _(
                "This form has expired or did not come from this site: "
                "reload the page and try again."
            ),
        )


def voter_key(request: Request) -> str | None:
    """The visitor's voter key for the winner-guess vote (a signed cookie), if any."""
    value = get_web(request).voter.unsign(request.cookies.get(VOTER_COOKIE))
    return value if isinstance(value, str) else None


def give_voter_key(request: Request, response: Response) -> str:
    """The visitor's voter key, made and set in a signed cookie on the first vote: one
    vote per browser (voting again changes it)."""
    key = voter_key(request)
    if key is None:
        key = secrets.token_urlsafe(16)
        web = get_web(request)
        response.set_cookie(
            VOTER_COOKIE,
            web.voter.sign(key),
            max_age=365 * 24 * 3600,
            httponly=True,
            samesite="lax",
            secure=web.secure_cookies,
            path="/",
        )
    return key


def flash(request: Request, response: Response, text: str, kind: str = "ok") -> Response:
    """A message shown once on the next page."""
    web = get_web(request)
    response.set_cookie(
        FLASH_COOKIE,
        web.flash.sign([kind, text]),
        max_age=60,
        httponly=True,
        samesite="lax",
        secure=web.secure_cookies,
        path="/",
    )
    return response


def redirect(request: Request, url: str, text: str | None = None, kind: str = "ok") -> Response:
    response = RedirectResponse(url, status_code=303)
    if text:
        flash(request, response, text, kind)
    return response


def render(request: Request, name: str, status_code: int = 200, **context: Any) -> HTMLResponse:
    """:func:`render_template` with the site's pieces: the CSRF token (and
    its cookie the first time), the signed-in account, the flash message; never cached."""
    web = get_web(request)
    cookie, new = _csrf_cookie(request)
    message = web.flash.unsign(request.cookies.get(FLASH_COOKIE))
    account = context.pop("account", None)
    if account is None and request.cookies.get(SESSION_COOKIE):
        try:
            account = current_account(request)
        except Exception:
            account = None
    response = render_template(
        request,
        name,
        status_code,
        csrf=web.csrf_token(cookie),
        account=account,
        flash=message if isinstance(message, list) else None,
        **context,
    )
    if new:
        response.set_cookie(
            CSRF_COOKIE, cookie, httponly=True, samesite="lax", secure=web.secure_cookies, path="/"
        )
    if message is not None:
        response.delete_cookie(FLASH_COOKIE, path="/")
    response.headers["Cache-Control"] = "no-store"
    return response


__all__ = [
    "CSRF_COOKIE",
    "FLASH_COOKIE",
    "LANG_SECONDS",
    "SEAT_COOKIE",
    "SESSION_COOKIE",
    "VOTER_COOKIE",
    "FormDep",
    "Scope",
    "StoreDep",
    "Web",
    "WebDep",
    "client_limiter",
    "client_of",
    "csrf_protect",
    "current_account",
    "flash",
    "get_store",
    "get_web",
    "gettext_of",
    "give_voter_key",
    "load_tournament",
    "locale_of",
    "open_web_store",
    "pick_division",
    "read_form",
    "redirect",
    "render",
    "render_template",
    "source_of",
    "voter_key",
]
