"""The venue: the public address that phones open (the address page, its test QR code
and the page that code opens), the print page (every printable and export of a
tournament, with a warning while the QR codes would carry a loopback address), and the
projector's seat lists (by table or by name), which page through by themselves.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, Response

from meldtour.application import UseCaseError
from meldtour.application.venue import is_loopback, set_public_address
from meldtour.tournament.collation import seats_by_name
from meldtour.tournament.side import family_prizes

from ...address import network_addresses, public_base, public_url
from ...deps import load_tournament
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
from ..views import division_view, refusal_text
from .director import qr_data_uri

router = APIRouter(dependencies=[Depends(csrf_protect)])


def address_source(request: Request) -> str:
    """Where the public address comes from: ``page``, ``environment`` or ``request``."""
    from meldtour.application.venue import public_address

    if public_address(request.app.state.director.store()):
        return "page"
    return "environment" if request.app.state.settings.public_url else "request"


@router.get("/director/address", response_class=HTMLResponse)
def address_page(request: Request, director: DirectorDep) -> Response:
    """The laptop's network addresses, the public address the QR codes carry, and a
    test QR code to scan with a phone."""
    base = public_base(request)
    port = request.url.port
    scheme = request.url.scheme
    found = [(a, a.url(scheme, port)) for a in network_addresses()]
    check = public_url(request, f"/address/check?n={secrets.token_hex(4)}")
    return render(request, "director/address.html", account=director, base=base,
                  loopback=is_loopback(base), source=address_source(request), found=found,
                  check=check, check_qr=qr_data_uri(check), seen=str(request.base_url))


@router.post("/director/address")
def address_set(request: Request, store: StoreDep, director: DirectorDep,
                address: str = Form("")) -> Response:
    _ = gettext_of(request)
    try:
        kept = set_public_address(store, address, who=director.name)
    except UseCaseError as exc:
        return redirect(request, "/director/address", refusal_text(exc, _), "error")
    if kept is None:
        return redirect(request, "/director/address",
                        _("The public address is cleared: the QR codes carry the address "
                          "this page was opened at."))
    return redirect(request, "/director/address",
                    _("The QR codes now carry %(address)s: scan the test code with a phone.")
                    % {"address": kept})


@router.get("/address/check", response_class=HTMLResponse)
def address_check(request: Request) -> Response:
    """What the test QR code opens: proof that a phone reaches this computer."""
    at = datetime.now(UTC).strftime("%H:%M:%S")
    return render(request, "public/address_check.html", seen=str(request.base_url).rstrip("/"),
                  at=at)


@router.get("/director/t/{slug}/print", response_class=HTMLResponse)
def print_page(request: Request, store: StoreDep, director: TournamentDirectorDep,
               slug: str) -> Response:
    """Every printable of the tournament, division by division, and the exports."""
    t = load_tournament(store, slug)
    base = public_base(request)
    views = [division_view(t, d.key) for d in t.divisions]
    return render(request, "director/print.html", account=director, t=t, slug=slug,
                  views=views, base=base, loopback=is_loopback(base),
                  families=len(family_prizes(t)))


#: How long the projector shows a page of its list, in seconds.
PAGE_SECONDS = 12


@router.get("/t/{slug}/seats/names", response_class=HTMLResponse)
def seats_by_name_page(request: Request, store: StoreDep, slug: str,
                       division: str | None = None) -> Response:
    """The projector's seat list by name (가나다순, Japanese order, alphabetical):
    64 players look for their name, not their table."""
    from ...routes.public import pick_division

    t = load_tournament(store, slug)
    key = pick_division(t, division)
    view = division_view(t, key)
    lines = seats_by_name(t, view.round, locale_of(request)) if view.round else ()
    return render(request, "public/seat_names.html", t=t, slug=slug, view=view, lines=lines,
                  seconds=PAGE_SECONDS)
