"""What visitors send, for the director: the winner-guess vote of each division
(open with or without vote codes, close, the votes by source with a void, the prize
draw), the vote cards to print and the venue's QR poster, and the public
registrations by source, with a withdrawal of a flood."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, Response

from meldtour import application as usecases
from meldtour.application.votes import shown_code

from ... import vote_cards
from ...address import is_loopback, public_base, vote_url
from ...deps import load_tournament
from ...views import refusal_text
from ..audit_words import local_time, zone_name
from ..deps import (
    StoreDep,
    TournamentDirectorDep,
    acting,
    csrf_protect,
    gettext_of,
    locale_of,
    redirect,
    render,
)
from .common import tournament_zone

router = APIRouter(prefix="/director", dependencies=[Depends(csrf_protect)])

#: A source with this many votes in one vote is marked for the director to look at.
BURST = 10


def _page(slug: str, key: str | None = None) -> str:
    return f"/director/t/{slug}/visitors" + (f"#vote-{key}" if key else "")


@router.get("/t/{slug}/visitors", response_class=HTMLResponse)
def visitors(
    request: Request, store: StoreDep, director: TournamentDirectorDep, slug: str
) -> Response:
    t = load_tournament(store, slug)
    polls = usecases.polls(store, slug)
    sources = {k: usecases.vote_sources(store, slug, k) for k in polls}
    base = public_base(request)
    zone = tournament_zone(request, store, slug)
    return render(
        request,
        "director/visitors.html",
        # the tournament's clock, as the audit log's (not the server's UTC)
        clock=lambda at: local_time(at, zone, with_date=False, seconds=True),
        zone=zone_name(zone, gettext_of(request)),
        account=director,
        t=t,
        slug=slug,
        polls=polls,
        sources=sources,
        burst=BURST,
        base=base,
        loopback=is_loopback(base),
        codes=len(usecases.vote_codes(store, slug)),
        registrations=usecases.registration_sources(store, slug),
    )


def _int(text: str, default: int = 0) -> int:
    text = text.strip()
    return int(text) if text.isdigit() and len(text) <= 6 else default


@router.post("/t/{slug}/d/{key}/vote/void")
def void(
    request: Request,
    store: StoreDep,
    director: TournamentDirectorDep,
    slug: str,
    key: str,
    source: str = Form(""),
) -> Response:
    _ = gettext_of(request)
    try:
        n = usecases.void_source(store, slug, key, source.strip()[:16], who=acting(director))
    except usecases.UseCaseError as exc:
        return redirect(request, _page(slug, key), refusal_text(exc, _), "error")
    return redirect(
        request,
        _page(slug, key),
        _("%(n)s votes from source %(source)s are void.") % {"n": n, "source": source.strip()[:16]},
    )


@router.post("/t/{slug}/d/{key}/vote/draw")
def draw(
    request: Request,
    store: StoreDep,
    director: TournamentDirectorDep,
    slug: str,
    key: str,
    prizes: str = Form(""),
) -> Response:
    _ = gettext_of(request)
    try:
        view = usecases.draw_vote_prizes(store, slug, key, _int(prizes), who=acting(director))
    except usecases.UseCaseError as exc:
        return redirect(request, _page(slug, key), refusal_text(exc, _), "error")
    assert view.draw is not None
    return redirect(
        request,
        _page(slug, key),
        _("The prizes are drawn: %(n)s of %(right)s right guesses.")
        % {"n": len(view.draw.drawn), "right": view.draw.right},
    )


@router.post("/t/{slug}/d/{key}/vote/{what}")
def vote(
    request: Request,
    store: StoreDep,
    director: TournamentDirectorDep,
    slug: str,
    key: str,
    what: str,
    codes: str = Form(""),
    back: str = Form(""),
) -> Response:
    """Open (with vote codes or without) or close the division's winner-guess vote."""
    _ = gettext_of(request)
    if what not in ("open", "close"):
        raise HTTPException(404)
    page = f"/director/t/{slug}#{key}" if back == "tournament" else _page(slug, key)
    try:
        if what == "open":
            usecases.open_vote(store, slug, key, who=acting(director), codes=codes == "1")
        else:
            usecases.close_vote(store, slug, key, who=acting(director))
    except usecases.UseCaseError as exc:
        return redirect(request, page, refusal_text(exc, _), "error")
    return redirect(
        request,
        page,
        _("The vote is open.")
        if what == "open"
        else _("The vote is closed: its results are public."),
    )


@router.post("/t/{slug}/vote-codes")
def make_codes(
    request: Request,
    store: StoreDep,
    director: TournamentDirectorDep,
    slug: str,
    count: str = Form(""),
) -> Response:
    _ = gettext_of(request)
    try:
        codes = usecases.make_vote_codes(store, slug, _int(count), who=acting(director))
    except usecases.UseCaseError as exc:
        return redirect(request, _page(slug) + "#codes", refusal_text(exc, _), "error")
    return redirect(
        request,
        _page(slug) + "#codes",
        _("The tournament has %(n)s vote codes: print the cards.") % {"n": len(codes)},
    )


@router.get("/t/{slug}/vote-codes.pdf")
def codes_pdf(
    request: Request, store: StoreDep, director: TournamentDirectorDep, slug: str
) -> Response:
    t = load_tournament(store, slug)
    codes = usecases.vote_codes(store, slug)
    data = vote_cards.vote_cards(
        t.name, codes, locale_of(request), lambda c: vote_url(request, slug, None, c), shown_code
    )
    return Response(
        data,
        media_type="application/pdf",
        headers={"Content-Disposition": 'inline; filename="vote-cards.pdf"'},
    )


@router.post("/t/{slug}/sources/withdraw")
def withdraw_source(
    request: Request,
    store: StoreDep,
    director: TournamentDirectorDep,
    slug: str,
    source: str = Form(""),
) -> Response:
    _ = gettext_of(request)
    page = _page(slug) + "#registrations"
    try:
        out = usecases.withdraw_source(store, slug, source.strip()[:16], who=acting(director))
    except usecases.UseCaseError as exc:
        return redirect(request, page, refusal_text(exc, _), "error")
    n = sum(1 for notice in out.notices if notice.what == "withdrawn")
    return redirect(
        request,
        page,
        _("%(n)s registrations from source %(source)s are withdrawn.")
        % {"n": n, "source": source.strip()[:16]},
    )
