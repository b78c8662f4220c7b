"""The director's own dependencies, on the shared base :mod:`meldtour.web.deps`: the
signed-in director, the director of the tournament of the path, signing in and out.
The base's names the director's routes use are re-exported here."""

from __future__ import annotations

import secrets
import time
from typing import Annotated
from urllib.parse import urlsplit

from fastapi import Depends, HTTPException, Request
from fastapi.responses import Response

from meldtour.application import accounts
from meldtour.application.accounts import Account
from meldtour.application.acting import Acting

from ..deps import (
    CSRF_COOKIE,
    FLASH_COOKIE,
    SESSION_COOKIE,
    VOTER_COOKIE,
    Scope,
    StoreDep,
    Web,
    WebDep,
    csrf_protect,
    current_account,
    flash,
    get_store,
    get_web,
    gettext_of,
    give_voter_key,
    locale_of,
    open_web_store,
    redirect,
    render,
    voter_key,
)

SESSION_SECONDS = 12 * 3600


class LoginRequired(Exception):
    """The page is for directors: sign in first."""

    def __init__(self, next_path: str) -> None:
        super().__init__(next_path)
        self.next_path = next_path


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
    if not accounts.may_direct(get_web(request).store(), slug, director.id):
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
        accounts.end_session(web.store(), value["n"], value["exp"], int(time.time()))
    response.delete_cookie(
        SESSION_COOKIE, path="/", httponly=True, samesite="lax", secure=web.secure_cookies
    )


def acting(account: Account) -> Acting:
    """The signed-in director as the use cases take who acts: the name for the audit
    log and the account, which the use case checks against the tournament."""
    return Acting(account.name, account.id)


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
    "acting",
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
