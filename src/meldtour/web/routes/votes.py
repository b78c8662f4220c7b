"""The visitors' winner-guess vote: the vote page (with a vote code where the vote
takes codes), its QR poster for the venue, and the prize draw's result."""

from __future__ import annotations

import segno
from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, Response
from limits import RateLimitItemPerMinute

from meldtour import application as usecases
from meldtour.application.votes import CODE_VOTER, normal_code, shown_code

from ..address import public_base
from ..deps import client_limiter, client_of, load_tournament, source_of
from ..director.deps import (
    StoreDep,
    csrf_protect,
    flash,
    gettext_of,
    give_voter_key,
    redirect,
    render,
    voter_key,
)
from ..director.views import refusal_text
from .public import pick_division

router = APIRouter(dependencies=[Depends(csrf_protect)])

#: New voters one client address may start in a vote without codes: 20 in 10 minutes
#: (a family's phones behind one router fit; a script's 200 votes in 4 s do not).
#: Where every phone shares one address (a venue's network to a server on the
#: internet), the director uses vote codes.
NEW_VOTERS_PER_CLIENT = RateLimitItemPerMinute(20, 10)
#: Wrong vote codes one client may try: 30 in 10 minutes (typos of a venue behind one
#: address fit; guessing one of 25^8 codes does not).
WRONG_CODES_PER_CLIENT = RateLimitItemPerMinute(30, 10)
#: Any vote posts one client may send: 120 a minute (changing one's mind is fine).
VOTES_PER_CLIENT = RateLimitItemPerMinute(120)


def vote_url(request: Request, slug: str, key: str | None = None,
             code: str | None = None) -> str:
    """The vote page's address as a phone at the venue opens it (a QR code's): of a
    division, or of whichever vote is open, with a vote code filled in."""
    base = public_base(request)
    query = "&".join(q for q in (f"division={key}" if key else "",
                                 f"code={code}" if code else "") if q)
    return f"{base}/t/{slug}/vote" + (f"?{query}" if query else "")


@router.get("/t/{slug}/vote", response_class=HTMLResponse)
def vote_page(request: Request, store: StoreDep, slug: str, division: str | None = None,
              code: str = "") -> Response:
    """The winner-guess vote of a division: the finalists while it is open (one vote
    per browser, or per vote code; voting again changes it), the results once the
    director closed it, and the prize draw once it is made."""
    t = load_tournament(store, slug)
    polls = usecases.polls(store, slug)
    if division is None and polls:
        division = next((k for k, p in polls.items() if not p.closed), next(iter(polls)))
    key = pick_division(t, division)
    poll = polls.get(key)
    typed = normal_code(code) or ""
    me = voter_key(request)
    mine = usecases.my_vote(store, slug, key, me, typed) if poll else None
    ranked = sorted(poll.tally.items(), key=lambda kv: (-kv[1], kv[0])) if poll else []
    won = False
    if poll and poll.draw:
        keys = {k for k in (me, CODE_VOTER + typed if typed else None) if k}
        won = bool(keys & set(poll.draw.drawn_voters))
    return render(request, "public/vote.html", t=t, slug=slug, key=key, poll=poll,
                  polls=polls, mine=mine, ranked=ranked, code=shown_code(typed) if typed
                  else "", won=won)


@router.post("/t/{slug}/vote")
def vote_post(request: Request, store: StoreDep, slug: str, division: str = Form(""),
              finalist: str = Form(""), name: str = Form(""),
              code: str = Form("")) -> Response:
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
        return redirect(request, back, _("Too many votes from this device: wait a minute."),
                        "error")
    poll = usecases.polls(store, slug).get(key)
    response = redirect(request, back)
    too_many_codes = _("Too many wrong vote codes from this device: wait a few minutes.")
    if poll and poll.codes_required:
        if not limiter.test(WRONG_CODES_PER_CLIENT, "meldtour-vote-code", client):
            return redirect(request, back, too_many_codes, "error")
    elif voter_key(request) is None and not limiter.hit(
            NEW_VOTERS_PER_CLIENT, "meldtour-voter", client):
        return redirect(request, back, _(
            "Many votes came from this network in a short time: wait a few minutes, "
            "or ask the organiser for a vote card."), "error")
    voter = give_voter_key(request, response)
    try:
        usecases.cast_vote(store, slug, key, voter, int(finalist),
                           name=" ".join(name.split())[:80], code=code,
                           source=source_of(request, slug))
    except usecases.UseCaseError as exc:
        if exc.code == "usecase.vote_code_unknown":
            limiter.hit(WRONG_CODES_PER_CLIENT, "meldtour-vote-code", client)
        return redirect(request, back, refusal_text(exc, _), "error")
    return flash(request, response, _("Your vote for %(name)s is counted. You may change "
                                      "it until the vote closes.")
                 % {"name": t.name_of(int(finalist))})


@router.get("/t/{slug}/vote/poster", response_class=HTMLResponse)
def vote_poster(request: Request, store: StoreDep, slug: str,
                division: str | None = None) -> Response:
    """A poster for the venue's wall: what the vote is and a big QR code of its page."""
    t = load_tournament(store, slug)
    key = pick_division(t, division)
    url = vote_url(request, slug, key)
    qr = segno.make(url, error="m").svg_inline(scale=12, border=2)
    return render(request, "public/vote_poster.html", t=t, slug=slug, key=key, url=url,
                  qr=qr, poll=usecases.polls(store, slug).get(key))
