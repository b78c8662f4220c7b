"""What the director's routes depend on: the store, the signed-in director, CSRF
checks, the flash message and the scorer's table link; the reader's language, rendering
and loading a tournament are :mod:`meldtour.web.deps` (re-exported here).

``WebDep``, ``StoreDep`` and ``DirectorDep`` are FastAPI dependencies in the manner of
full-stack-fastapi-template's ``api/deps.py``.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from dataclasses import dataclass
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import Depends, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from meldtour import application as usecases
from meldtour.store import owners, sessions
from meldtour.store.config import database_url
from meldtour.store.db import Store

from .. import deps
from ..config import Settings
from ..database import open_web_store
from ..deps import gettext_of, locale_of
from . import accounts
from .accounts import Account
from .security import LoginThrottle, Signer
from .watch import Watchers

SESSION_COOKIE = "mt_session"
CSRF_COOKIE = "mt_csrf"
FLASH_COOKIE = "mt_flash"
VOTER_COOKIE = "mt_voter"
SESSION_SECONDS = 12 * 3600


class LoginRequired(Exception):
    """The page is for directors: sign in first."""

    def __init__(self, next_path: str) -> None:
        super().__init__(next_path)
        self.next_path = next_path


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
                    self._store = open_web_store(database_url(self._url))
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
        and not sessions.is_revoked(web.store(), value["n"])
    ):
        # refused once the account is disabled or its sessions were ended (its epoch)
        account = accounts.signed_in(web.store(), value["a"], value.get("g", 0))
    request.state.account = account
    return account


def require_director(request: Request) -> Account:
    account = current_account(request)
    if account is None or account.role != "director":
        raise LoginRequired(back_after_sign_in(request))
    return account


def back_after_sign_in(request: Request) -> str:
    """Where signing in leads back to: the page asked for, or — for a form sent when
    the session had expired — the page of the form (its page keeps what was typed:
    director.js), never the form's POST address."""
    if request.method in ("GET", "HEAD"):
        return request.url.path
    referer = urlsplit(request.headers.get("referer", ""))
    same_site = referer.netloc in ("", request.url.netloc)
    path = referer.path
    if same_site and path.startswith("/director") and not path.startswith("//"):
        return path
    return "/director"


DirectorDep = Annotated[Account, Depends(require_director)]


def require_tournament_director(request: Request, director: DirectorDep, slug: str) -> Account:
    """The signed-in director, if they may direct the tournament of the path's
    ``{slug}``: one of its directors (its creator, a co-director) or the site's
    administrator (the first account). Anyone else signed in is refused (403), before
    the route reads or changes anything; no one signed in is sent to sign in."""
    if not owners.may_direct(get_web(request).store(), slug, director.id):
        _ = gettext_of(request)
        raise HTTPException(
            403,
            _("You are not a director of this tournament: ask one of its directors to add you."),
        )
    return director


#: The director of the tournament named by the route's ``{slug}``.
TournamentDirectorDep = Annotated[Account, Depends(require_tournament_director)]


def start_session(web: Web, response: Response, account: Account) -> None:
    value = web.session.sign(
        {
            "a": account.id,
            "exp": int(time.time()) + SESSION_SECONDS,
            "n": secrets.token_urlsafe(8),
            "g": account.epoch,
        }
    )
    response.set_cookie(
        SESSION_COOKIE,
        value,
        max_age=SESSION_SECONDS,
        httponly=True,
        samesite="lax",
        secure=web.secure_cookies,
        path="/",
    )


def end_session(web: Web, response: Response, request: Request | None = None) -> None:
    """Sign out: the cookie is deleted and, with the request, its session is recorded as
    signed out, so that a copy of the cookie is refused too."""
    value = web.session.unsign(request.cookies.get(SESSION_COOKIE)) if request else None
    if (
        isinstance(value, dict)
        and isinstance(value.get("n"), str)
        and isinstance(value.get("exp"), int)
    ):
        sessions.revoke(web.store(), value["n"], value["exp"], int(time.time()))
    response.delete_cookie(
        SESSION_COOKIE, path="/", httponly=True, samesite="lax", secure=web.secure_cookies
    )


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
    """:func:`meldtour.web.deps.render` with the director's pieces: the CSRF token (and
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
    response = deps.render(
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
    "SESSION_COOKIE",
    "VOTER_COOKIE",
    "DirectorDep",
    "LoginRequired",
    "Scope",
    "StoreDep",
    "TournamentDirectorDep",
    "Web",
    "WebDep",
    "csrf_protect",
    "current_account",
    "end_session",
    "flash",
    "get_store",
    "get_web",
    "gettext_of",
    "give_voter_key",
    "locale_of",
    "open_web_store",
    "redirect",
    "render",
    "require_director",
    "require_tournament_director",
    "start_session",
    "voter_key",
]
