"""The venue: the public address that phones open (the address page, its check that
the address answers, its test QR code and the page that code opens), the print page
(every printable and export of a tournament, with a warning while the QR codes would
carry a loopback address), and the projector's seat lists (by table or by name), which
page through by themselves.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime

from fastapi import APIRouter, Depends, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, Response

from meldtour.application import UseCaseError, accounts
from meldtour.application.venue import (
    AdministratorOnly,
    address_changes,
    is_loopback,
    public_address,
    set_public_address,
)
from meldtour.tournament.collation import seats_by_name
from meldtour.tournament.side import family_prizes

from ...address import REACH_SECONDS, Reach, network_addresses, public_base, public_url, reach
from ...deps import load_tournament, pick_division
from ...i18n import N_
from ...views import Gettext, division_view, family_event, refusal_text
from ..deps import (
    DirectorDep,
    StoreDep,
    TournamentDirectorDep,
    csrf_protect,
    gettext_of,
    locale_of,
    redirect,
    render,
)
from .common import qr_data_uri

router = APIRouter(dependencies=[Depends(csrf_protect)])


def address_source(request: Request) -> str:
    """Where the public address comes from: ``page``, ``environment`` or ``request``."""
    if public_address(request.app.state.director.store()):
        return "page"
    return "environment" if request.app.state.settings.public_url else "request"


#: What the check of an address found, said to the director: each says what to do.
REACH_WORDS: dict[str, str] = {
    "answers": N_(
        "This computer reached meldtour at %(address)s. Now scan the test code "
        "with a phone on the venue's Wi-Fi. If the phone cannot open it, the "
        "phone is on another network (a guest Wi-Fi, mobile data), or a firewall "
        "on this computer blocks port %(port)s: allow it."
    ),
    "refused": N_(
        "Nothing answers at %(address)s: meldtour listens only to this computer "
        "(127.0.0.1), or on another port. Stop the server and start it again "
        "with make run (it then listens on the venue's network too)."
    ),
    "timeout": N_(
        "%(address)s did not answer within %(seconds)s seconds: this computer is "
        "probably on another network now (another Wi-Fi), or a firewall drops the "
        "connections. Choose an address from the list below, or allow port "
        "%(port)s in the firewall."
    ),
    "unreachable": N_(
        "%(address)s cannot be reached from this computer: it is not on that "
        "network. Connect to the venue's Wi-Fi, then choose its address from "
        "the list below."
    ),
    "no_name": N_(
        "The name in %(address)s is not known: check how it is written, or "
        "choose this computer's address from the list below."
    ),
    "certificate": N_(
        "%(address)s answers, but with a certificate this computer does not "
        "trust: phones will refuse it too. Use the http:// address, or give "
        "the server a valid certificate."
    ),
    "not_meldtour": N_(
        "Something answers at %(address)s, but it is not meldtour: check the address and its port."
    ),
}


def reach_text(found: Reach, _: Gettext) -> str:
    return _(REACH_WORDS[found.code]) % {
        "address": found.address,
        "port": found.port,
        "seconds": f"{REACH_SECONDS:g}",
    }


def _checks(request: Request) -> dict[str, tuple[Reach, str]]:
    """The last check of each address in this process: what it found, and when."""
    found: dict[str, tuple[Reach, str]] | None = getattr(request.app.state, "reach", None)
    if found is None:
        found = request.app.state.reach = {}
    return found


def _check(request: Request, address: str) -> Reach:
    """Check ``address`` now (this route runs in a worker thread, never on the loop)."""
    found = reach(address)
    _checks(request)[address] = (found, datetime.now(UTC).isoformat(timespec="seconds"))
    return found


def _is_admin(store: StoreDep, director: DirectorDep) -> bool:
    return accounts.is_administrator(store, director)


@router.get("/director/address", response_class=HTMLResponse)
def address_page(request: Request, store: StoreDep, director: DirectorDep) -> Response:
    """The laptop's network addresses, the public address the QR codes carry, the last
    check that it answers, its changes, and a test QR code to scan with a phone."""
    _ = gettext_of(request)
    base = public_base(request)
    port = request.url.port
    scheme = request.url.scheme
    found = [(a, a.url(scheme, port)) for a in network_addresses()]
    check = public_url(request, f"/address/check?n={secrets.token_hex(4)}")
    last = _checks(request).get(base)
    checked = (
        None
        if last is None
        else {"ok": last[0].ok, "text": reach_text(last[0], _), "at": last[1][11:19]}
    )
    changes = [
        {
            "at": str(c["at"])[:16].replace("T", " "),
            "who": c["who"],
            "before": c["before"] or "—",
            "after": c["after"] or "—",
        }
        for c in address_changes(store)
    ]
    return render(
        request,
        "director/address.html",
        account=director,
        base=base,
        loopback=is_loopback(base),
        source=address_source(request),
        found=found,
        check=check,
        check_qr=qr_data_uri(check),
        seen=str(request.base_url),
        admin=_is_admin(store, director),
        checked=checked,
        changes=changes,
    )


@router.post("/director/address")
def address_set(
    request: Request, store: StoreDep, director: DirectorDep, address: str = Form("")
) -> Response:
    """The administrator sets the public address (the use case decides who may), and
    the page checks at once that it answers (shown on the page: what to do if not)."""
    _ = gettext_of(request)
    try:
        kept = set_public_address(store, address, actor=director)
    except AdministratorOnly as exc:
        raise HTTPException(403, exc.refusal) from None
    except UseCaseError as exc:
        return redirect(request, "/director/address", refusal_text(exc, _), "error")
    if kept is None:
        return redirect(
            request,
            "/director/address",
            _(
                "The public address is cleared: the QR codes carry the address "
                "this page was opened at."
            ),
        )
    _check(request, kept)  # what it found is on the page (#reach)
    return redirect(
        request, "/director/address", _("The QR codes now carry %(address)s.") % {"address": kept}
    )


@router.post("/director/address/check")
def address_check_again(request: Request, store: StoreDep, director: DirectorDep) -> Response:
    """Check again that the address the QR codes carry answers (any director): the one
    set on this page or in the settings; the address the page was opened at needs no
    check (it is the one this browser uses)."""
    _ = gettext_of(request)
    address = public_address(store) or request.app.state.settings.public_url
    if not address:
        return redirect(
            request,
            "/director/address",
            _("No public address is set yet: choose one of this computer's addresses below."),
            "error",
        )
    _check(request, address)  # what it found is on the page (#reach)
    return redirect(request, "/director/address")


@router.get("/address/check", response_class=HTMLResponse)
def address_check(request: Request) -> Response:
    """What the test QR code opens: proof that a phone reaches this computer."""
    at = datetime.now(UTC).strftime("%H:%M:%S")
    return render(
        request, "public/address_check.html", seen=str(request.base_url).rstrip("/"), at=at
    )


@router.get("/director/t/{slug}/print", response_class=HTMLResponse)
def print_page(
    request: Request, store: StoreDep, director: TournamentDirectorDep, slug: str
) -> Response:
    """Every printable of the tournament, division by division, and the exports."""
    t = load_tournament(store, slug)
    base = public_base(request)
    views = [division_view(t, d.key) for d in t.divisions]
    return render(
        request,
        "director/print.html",
        account=director,
        t=t,
        slug=slug,
        views=views,
        base=base,
        loopback=is_loopback(base),
        families=len(family_prizes(t)),
        family_event=family_event(t),
    )


#: How long the projector shows a page of its list, in seconds.
PAGE_SECONDS = 12


@router.get("/t/{slug}/seats/names", response_class=HTMLResponse)
def seats_by_name_page(
    request: Request, store: StoreDep, slug: str, division: str | None = None
) -> Response:
    """The projector's seat list by name (가나다순, Japanese order, alphabetical):
    64 players look for their name, not their table."""

    t = load_tournament(store, slug)
    key = pick_division(t, division)
    view = division_view(t, key)
    lines = seats_by_name(t, view.round, locale_of(request)) if view.round else ()
    return render(
        request,
        "public/seat_names.html",
        t=t,
        slug=slug,
        view=view,
        lines=lines,
        seconds=PAGE_SECONDS,
    )
