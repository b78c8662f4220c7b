"""A director's own account (change the password, end the other sessions) and, for the
site's administrator, every account (disable, enable) with the accounts' audit log.

Who may do what is the application's (:mod:`meldtour.application.accounts`): the
routes pass who acts and show the refusal in the reader's language. A changed password
and "end my other sessions" sign this browser's session again at the account's new
epoch, so it stays signed in while every other copy of the cookie is refused.
"""

from __future__ import annotations

from fastapi import APIRouter, Depends, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, Response

from meldtour.application import UseCaseError
from meldtour.application import accounts as use

from ...views import refusal_text
from ..accounts import PASSWORDS
from ..audit_words import audit_lines, zone_name, zone_of
from ..deps import (
    DirectorDep,
    StoreDep,
    WebDep,
    csrf_protect,
    gettext_of,
    redirect,
    render,
    start_session,
)

router = APIRouter(prefix="/director", dependencies=[Depends(csrf_protect)])

PAGE = "/director/account"


@router.get("/account", response_class=HTMLResponse)
def account_page(request: Request, store: StoreDep, director: DirectorDep) -> Response:
    _ = gettext_of(request)
    admin = use.is_administrator(store, director)
    settings = request.app.state.settings
    zone = zone_of("", settings.time_zone, settings.default_locale)
    lines = audit_lines(use.account_log(store, director), None, zone, _)[::-1]
    return render(
        request,
        "director/account.html",
        account=director,
        admin=admin,
        accounts=use.account_list(store, director) if admin else [],
        lines=lines,
        zone=zone_name(zone, _),
        min_password=use.MIN_PASSWORD,
    )


@router.post("/account/password")
def change_password(
    request: Request,
    web: WebDep,
    store: StoreDep,
    director: DirectorDep,
    current: str = Form(""),
    password: str = Form(""),
    again: str = Form(""),
) -> Response:
    _ = gettext_of(request)
    try:
        account = use.change_password(
            store, director, current[:1000], password[:1000], again[:1000], PASSWORDS
        )
    except UseCaseError as exc:
        return redirect(request, PAGE + "#password", refusal_text(exc, _), "error")
    response = redirect(request, PAGE, _("Password changed: your other sessions are signed out."))
    start_session(web, response, account)
    return response


@router.post("/account/sessions")
def end_sessions(request: Request, web: WebDep, store: StoreDep, director: DirectorDep) -> Response:
    _ = gettext_of(request)
    try:
        account = use.end_other_sessions(store, director)
    except UseCaseError as exc:
        return redirect(request, PAGE, refusal_text(exc, _), "error")
    response = redirect(request, PAGE, _("Your other sessions are signed out."))
    start_session(web, response, account)
    return response


def _set_disabled(
    request: Request, store: StoreDep, director: DirectorDep, account: int, disabled: bool
) -> Response:
    _ = gettext_of(request)
    try:
        changed = use.set_disabled(store, director, account, disabled)
    except UseCaseError as exc:
        if exc.code == "account.administrator_only":
            raise HTTPException(403, exc.refusal) from None
        return redirect(request, PAGE + "#accounts", refusal_text(exc, _), "error")
    text = (
        _("Account %(name)s disabled: its sessions are signed out.")
        if disabled
        else _("Account %(name)s enabled.")
    )
    return redirect(request, PAGE + "#accounts", text % {"name": changed.name})


@router.post("/accounts/{account}/disable")
def disable(request: Request, store: StoreDep, director: DirectorDep, account: int) -> Response:
    return _set_disabled(request, store, director, account, True)


@router.post("/accounts/{account}/enable")
def enable(request: Request, store: StoreDep, director: DirectorDep, account: int) -> Response:
    return _set_disabled(request, store, director, account, False)
