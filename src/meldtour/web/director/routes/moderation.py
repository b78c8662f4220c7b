"""The site's administrator's reports page (``/director/reports``): the players'
open reports by reported player (the count of each reason, the games), and what the
administrator does about one: hide the name (or show it again), disable the account,
dismiss the reports. Each action closes the player's open reports and is written to the
accounts' audit log; who may is the application's (:mod:`meldtour.application.moderation`):
any other director is refused (403).
"""

from __future__ import annotations

import asyncio
import time

from fastapi import APIRouter, Depends, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, Response

from meldtour.application import UseCaseError
from meldtour.application import moderation as use
from meldtour.application import players_accounts as players
from meldtour.application.accounts import Account

from ...moderation_words import REASON_WORDS, hidden_name
from ..deps import DirectorDep, StoreDep, csrf_protect, gettext_of, redirect, render

router = APIRouter(prefix="/director", dependencies=[Depends(csrf_protect)])

PAGE = "/director/reports"


def _refused(exc: UseCaseError) -> HTTPException:
    if exc.code == "account.administrator_only":
        return HTTPException(403, exc.refusal)
    return HTTPException(404, exc.refusal)


def _back(target: str) -> str:
    return target if target.startswith("/") and not target.startswith("//") else PAGE


@router.get("/reports", response_class=HTMLResponse)
def reports_page(request: Request, store: StoreDep, director: DirectorDep) -> Response:
    _ = gettext_of(request)
    try:
        reported = use.open_reports(store, director)
        hidden = use.hidden_accounts(store, director)
    except UseCaseError as exc:
        raise _refused(exc) from None
    return render(
        request,
        "director/reports.html",
        reported=reported,
        hidden=[(a, hidden_name(a.id, _)) for a in hidden],
        reasons=REASON_WORDS,
    )


def _act(
    request: Request, store: StoreDep, director: Account, account: int, action: str, next: str
) -> Response:
    _ = gettext_of(request)
    now = time.time()
    try:
        if action in ("hide", "show"):
            changed = use.set_name_hidden(store, director, account, action == "hide", now)
            text = (
                _("The name %(name)s is hidden: the public pages show %(shown)s.")
                if action == "hide"
                else _("The name %(name)s is shown again.")
            )
            return redirect(
                request,
                _back(next),
                text % {"name": changed.name, "shown": hidden_name(changed.id, _)},
            )
        if action == "disable":
            changed = use.disable(store, director, account, now)
            return redirect(
                request,
                _back(next),
                _("The player account %(name)s is disabled: its sessions are signed out.")
                % {"name": changed.name},
            )
        n = use.dismiss(store, director, account, now)
    except UseCaseError as exc:
        raise _refused(exc) from None
    return redirect(request, _back(next), _("Reports dismissed: %(n)s.") % {"n": n})


async def _on_name(
    request: Request, store: StoreDep, director: Account, account: int, action: str, next: str
) -> Response:
    """Hide the name or show it again; then the sockets of the games in play where the
    account sits are sent their table again, so that a page open there (a spectator's
    too) shows the name as it is now without reconnecting."""
    response = await asyncio.to_thread(_act, request, store, director, account, action, next)
    seats = await asyncio.to_thread(players.seats_of, store, account)
    games = list(dict.fromkeys(game for game, _seat, _how in seats))
    await request.app.state.live.names_changed(games)
    return response


@router.post("/reports/{account}/hide")
async def hide_name(
    request: Request, store: StoreDep, director: DirectorDep, account: int, next: str = Form(PAGE)
) -> Response:
    return await _on_name(request, store, director, account, "hide", next)


@router.post("/reports/{account}/show")
async def show_name(
    request: Request, store: StoreDep, director: DirectorDep, account: int, next: str = Form(PAGE)
) -> Response:
    return await _on_name(request, store, director, account, "show", next)


@router.post("/reports/{account}/disable")
def disable_account(
    request: Request, store: StoreDep, director: DirectorDep, account: int, next: str = Form(PAGE)
) -> Response:
    return _act(request, store, director, account, "disable", next)


@router.post("/reports/{account}/dismiss")
def dismiss_reports(
    request: Request, store: StoreDep, director: DirectorDep, account: int, next: str = Form(PAGE)
) -> Response:
    return _act(request, store, director, account, "dismiss", next)


__all__ = ["router"]
