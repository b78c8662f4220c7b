"""The director's first account, signing in and out, and the accounts the
administrator makes.

Every change goes through a use case of :mod:`meldtour.application`; its refusal
is shown in the reader's language (:func:`..views.refusal_text`)."""

from __future__ import annotations

import re

from fastapi import APIRouter, Depends, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, Response

from meldtour import application as usecases
from meldtour.application.accounts import is_administrator

from ...deps import client_of
from ...security import MIN_PASSWORD
from .. import accounts
from ..deps import (
    DirectorDep,
    StoreDep,
    WebDep,
    csrf_protect,
    end_session,
    gettext_of,
    redirect,
    render,
    start_session,
)
from .common import refused

router = APIRouter(prefix="/director", dependencies=[Depends(csrf_protect)])


@router.get("/setup", response_class=HTMLResponse)
def setup_form(request: Request, store: StoreDep) -> Response:
    if accounts.count(store):
        return redirect(request, "/director/login")
    return render(request, "director/setup.html")


@router.post("/setup")
def setup(
    request: Request,
    web: WebDep,
    store: StoreDep,
    name: str = Form(""),
    password: str = Form(""),
    again: str = Form(""),
) -> Response:
    _ = gettext_of(request)
    name = name.strip()
    if not re.fullmatch(r"[\w.@-]{2,40}", name):
        return redirect(
            request,
            "/director/setup",
            _("A name is 2 to 40 letters, digits, '.', '@', '-' or '_'."),
            "error",
        )
    if len(password) < MIN_PASSWORD or password != again:
        return redirect(
            request,
            "/director/setup",
            _("The password must have at least %(n)s characters, typed twice the same.")
            % {"n": MIN_PASSWORD},
            "error",
        )
    try:
        account = accounts.create(store, name, password, only_if_none=True)
    except (PermissionError, ValueError):
        return redirect(request, "/director/login")
    response = redirect(
        request,
        "/director",
        _("Welcome, %(name)s: your director account is ready.") % {"name": name},
    )
    start_session(web, response, account)
    return response


@router.get("/login", response_class=HTMLResponse)
def login_form(request: Request, store: StoreDep, next: str = "/director") -> Response:
    if not accounts.count(store):
        return redirect(request, "/director/setup")
    return render(request, "director/login.html", next=next)


@router.post("/login")
def login(
    request: Request,
    web: WebDep,
    store: StoreDep,
    name: str = Form(""),
    password: str = Form(""),
    next: str = Form("/director"),
) -> Response:
    _ = gettext_of(request)
    # Per address and per (account, address): never the account alone, so failures
    # from elsewhere cannot lock its owner out (web/security.py).
    client = "ip:" + client_of(request)
    keys = (client, f"name:{name.strip().casefold()}|{client}")
    if web.throttle.blocked(*keys):
        response: Response = render(
            request,
            "director/login.html",
            status_code=429,
            next=next,
            error=_("Too many failed sign-ins: wait a few minutes and try again."),
        )
        response.headers["Retry-After"] = str(int(web.throttle.window))
        return response
    try:
        account = accounts.authenticate(store, name.strip(), password)
    except usecases.UseCaseError as exc:  # disabled by the administrator
        return render(
            request, "director/login.html", status_code=403, next=next, error=refused(request, exc)
        )
    if account is None:
        web.throttle.failed(*keys)
        return render(
            request,
            "director/login.html",
            status_code=401,
            next=next,
            error=_("That name and password do not match an account."),
        )
    web.throttle.succeeded(*keys)
    target = next if next.startswith("/") and not next.startswith("//") else "/director"
    response = redirect(request, target)
    start_session(web, response, account)
    return response


@router.post("/logout")
def logout(request: Request, web: WebDep) -> Response:
    response = redirect(request, "/tournaments")
    end_session(web, response, request)
    return response


@router.post("/accounts")
def add_account(
    request: Request,
    store: StoreDep,
    director: DirectorDep,
    name: str = Form(""),
    password: str = Form(""),
) -> Response:
    _ = gettext_of(request)
    if not is_administrator(store, director):
        raise HTTPException(
            403, _("Only the site's administrator (the first account) creates accounts.")
        )
    if not re.fullmatch(r"[\w.@-]{2,40}", name.strip()) or len(password) < MIN_PASSWORD:
        return redirect(
            request,
            "/director",
            _("A name is 2 to 40 letters, digits, '.', '@', '-' or '_'.")
            + " "
            + _("The password must have at least %(n)s characters, typed twice the same.")
            % {"n": MIN_PASSWORD},
            "error",
        )
    try:
        accounts.create(store, name.strip(), password)
    except ValueError:
        return redirect(
            request,
            "/director",
            _("There is already an account %(name)s.") % {"name": name.strip()},
            "error",
        )
    return redirect(request, "/director", _("Account %(name)s created.") % {"name": name.strip()})
