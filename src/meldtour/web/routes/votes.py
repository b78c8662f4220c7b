"""The visitors' winner-guess vote: the vote page (with a vote code where the vote
takes codes), its QR poster for the venue, and the prize draw's result."""

from __future__ import annotations

from dataclasses import dataclass

import segno
from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, Response
from limits import RateLimitItemPerMinute

from meldtour import application as usecases
from meldtour.application.votes import CODE_VOTER, normal_code, shown_code

from ..address import vote_url
from ..deps import (
    StoreDep,
    client_limiter,
    client_of,
    csrf_protect,
    flash,
    get_web,
    gettext_of,
    give_voter_key,
    load_tournament,
    pick_division,
    redirect,
    render,
    source_of,
    voter_key,
)
from ..views import refusal_text

router = APIRouter(dependencies=[Depends(csrf_protect)])

#: Wrong vote codes one client may try: 30 in 10 minutes (typos of a venue behind one
#: address fit; guessing one of 25^10 codes does not).
WRONG_CODES_PER_CLIENT = RateLimitItemPerMinute(30, 10)
#: Any vote posts one client address may send: 600 a minute. A vote without cards
#: counts one vote per browser and refuses no new voter for sharing an address (at a
#: venue every phone shares the Wi-Fi's): a busy source is marked on the director's
#: page, who may void it; a vote with a prize draw takes vote cards.
VOTES_PER_CLIENT = RateLimitItemPerMinute(600)
#: The signed cookie of the vote codes this browser voted with: the page shows a
#: code's vote (and a prize it won) only to the browser that cast it, so the page is
#: no oracle of which codes voted, and for whom.
CODES_COOKIE = "meldtour_vote_codes"
#: Codes kept in it (a family's cards voted from one phone).
CODES_KEPT = 8


def _my_codes(request: Request) -> list[str]:
    value = get_web(request).voter.unsign(request.cookies.get(CODES_COOKIE))
    if not isinstance(value, list):
        return []
    return [c for c in value if isinstance(c, str)][-CODES_KEPT:]


def _keep_code(request: Request, response: Response, code: str) -> None:
    codes = [c for c in _my_codes(request) if c != code] + [code]
    web = get_web(request)
    response.set_cookie(
        CODES_COOKIE,
        web.voter.sign(codes[-CODES_KEPT:]),
        max_age=365 * 24 * 3600,
        httponly=True,
        samesite="lax",
        secure=web.secure_cookies,
        path="/",
    )


@dataclass(frozen=True)
class CardUsed:
    """A vote with a card that already voted on another phone, held for the person
    to confirm: the refusal's sentence and what they chose."""

    text: str
    finalist: int
    name: str


@router.get("/t/{slug}/vote", response_class=HTMLResponse)
def vote_page(
    request: Request, store: StoreDep, slug: str, division: str | None = None, code: str = ""
) -> Response:
    """The winner-guess vote of a division: the finalists while it is open (one vote
    per browser, or per vote code; voting again changes it), the results once the
    director closed it, and the prize draw once it is made."""
    return _vote_page(request, store, slug, division, code)


def _vote_page(
    request: Request,
    store: StoreDep,
    slug: str,
    division: str | None,
    code: str,
    card_used: CardUsed | None = None,
) -> Response:
    t = load_tournament(store, slug)
    polls = usecases.polls(store, slug)
    if division is None and polls:
        division = next((k for k, p in polls.items() if not p.closed), next(iter(polls)))
    key = pick_division(t, division)
    poll = polls.get(key)
    typed = normal_code(code) or ""
    me = voter_key(request)
    # A code's vote only for the browser that cast it (the code stays in the form).
    known = typed if typed in _my_codes(request) else ""
    mine = usecases.my_vote(store, slug, key, me, known) if poll else None
    ranked = sorted(poll.tally.items(), key=lambda kv: (-kv[1], kv[0])) if poll else []
    won = False
    if poll and poll.draw:
        keys = {k for k in (me, CODE_VOTER + known if known else None) if k}
        won = bool(keys & set(poll.draw.drawn_voters))
    return render(
        request,
        "public/vote.html",
        t=t,
        slug=slug,
        key=key,
        poll=poll,
        polls=polls,
        mine=mine,
        ranked=ranked,
        code=shown_code(typed) if typed else "",
        won=won,
        card_used=card_used,
    )


@router.post("/t/{slug}/vote")
def vote_post(
    request: Request,
    store: StoreDep,
    slug: str,
    division: str = Form(""),
    finalist: str = Form(""),
    name: str = Form(""),
    code: str = Form(""),
    confirm: str = Form(""),
) -> Response:
    _ = gettext_of(request)
    t = load_tournament(store, slug)
    key = pick_division(t, division or None)
    typed = normal_code(code)
    back = f"/t/{slug}/vote?division={key}" + (f"&code={typed}" if typed else "")
    if not finalist.isdigit():
        return redirect(request, back, _("Choose a player."), "error")
    client = client_of(request)
    limiter = client_limiter(request)
    if not limiter.hit(VOTES_PER_CLIENT, "meldtour-vote", client):
        return redirect(
            request, back, _("Too many votes from this device: wait a minute."), "error"
        )
    poll = usecases.polls(store, slug).get(key)
    response = redirect(request, back)
    too_many_codes = _("Too many wrong vote codes from this device: wait a few minutes.")
    if (
        poll
        and poll.codes_required
        and not limiter.test(WRONG_CODES_PER_CLIENT, "meldtour-vote-code", client)
    ):
        return redirect(request, back, too_many_codes, "error")
    voter = give_voter_key(request, response)
    try:
        usecases.cast_vote(
            store,
            slug,
            key,
            voter,
            int(finalist),
            name=" ".join(name.split())[:80],
            code=code,
            source=source_of(request, slug),
            confirm=confirm == "yes",
        )
    except usecases.UseCaseError as exc:
        if exc.code == "usecase.vote_card_used":
            # The page again, asking: the card voted on another phone (its vote and
            # prize name stay as they are unless the person confirms).
            held = CardUsed(refusal_text(exc, _), int(finalist), " ".join(name.split())[:80])
            page = _vote_page(request, store, slug, key, typed or "", held)
            page.status_code = 409
            for header, value in response.headers.items():
                if header.lower() == "set-cookie":
                    page.headers.append(header, value)
            return page
        if exc.code == "usecase.vote_code_unknown":
            limiter.hit(WRONG_CODES_PER_CLIENT, "meldtour-vote-code", client)
        return redirect(request, back, refusal_text(exc, _), "error")
    if poll and poll.codes_required and typed:
        _keep_code(request, response, typed)
    return flash(
        request,
        response,
        _("Your vote for %(name)s is counted. You may change it until the vote closes.")
        % {"name": t.name_of(int(finalist))},
    )


@router.get("/t/{slug}/vote/poster", response_class=HTMLResponse)
def vote_poster(
    request: Request, store: StoreDep, slug: str, division: str | None = None
) -> Response:
    """A poster for the venue's wall: what the vote is and a big QR code of its page."""
    t = load_tournament(store, slug)
    key = pick_division(t, division)
    url = vote_url(request, slug, key)
    qr = segno.make(url, error="m").svg_inline(scale=12, border=2)
    return render(
        request,
        "public/vote_poster.html",
        t=t,
        slug=slug,
        key=key,
        url=url,
        qr=qr,
        poll=usecases.polls(store, slug).get(key),
    )
