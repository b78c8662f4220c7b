"""Public pages: the tournament list, a tournament's page, registration, live
standings (and their projector view), the seat list on the projector, a player's page."""

from __future__ import annotations

import asyncio
import hashlib
import threading
import time
from collections import OrderedDict
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, Depends, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, Response
from limits import RateLimitItemPerMinute
from starlette.concurrency import run_in_threadpool

from meldtour import application as usecases
from meldtour.application import accounts, circuit
from meldtour.store.errors import NotFound
from meldtour.tournament import Tournament, TournamentError

from ..deps import (
    StoreDep,
    client_limiter,
    client_of,
    csrf_protect,
    get_web,
    gettext_of,
    load_tournament,
    locale_of,
    pick_division,
    redirect,
    render,
    source_of,
)
from ..i18n import environment
from ..limits import STREAMS_OVER, ClientSlots, HeldStream
from ..standing_words import score_column
from ..views import (
    STATUS,
    TEMPLATE_TITLES,
    division_view,
    final_rows,
    player_day,
    refusal_text,
    standings_rows,
    went_out,
)

router = APIRouter(dependencies=[Depends(csrf_protect)])


@router.get("/tournaments", response_class=HTMLResponse)
def tournaments(request: Request, store: StoreDep) -> Response:
    rows = [
        (slug, name, date)
        for slug, name, date, _template in usecases.all_tournaments(store, newest_first=True)
    ]
    return render(
        request,
        "public/tournaments.html",
        tournaments=rows,
        no_account=accounts.count(store) == 0,
        templates=TEMPLATE_TITLES,
    )


#: Up to this many players, the public page lists them all under "Find your table";
#: beyond, a player searches by name or number (Busan's 128 are too many to scroll).
LISTED_PLAYERS = 30


@router.get("/t/{slug}", response_class=HTMLResponse)
def tournament_page(request: Request, store: StoreDep, slug: str, q: str = "") -> Response:
    t = load_tournament(store, slug)
    views = [division_view(t, d.key) for d in t.divisions]
    finals = {v.div.key: final_rows(t, v.div.key)[: v.div.prizes] for v in views if v.finished}
    q = q.strip()[:80]
    found = usecases.search_players(t.registrations, q) if q else ()
    return render(
        request,
        "public/tournament.html",
        t=t,
        slug=slug,
        views=views,
        finals=finals,
        q=q,
        found=found,
        listed=t.registrations if len(t.registrations) <= LISTED_PLAYERS else (),
        info=usecases.info(store, slug),
        polls=usecases.polls(store, slug),
    )


@router.get("/t/{slug}/register", response_class=HTMLResponse)
def register_form(
    request: Request, store: StoreDep, slug: str, division: str | None = None
) -> Response:
    t = load_tournament(store, slug)
    views = [division_view(t, d.key) for d in t.divisions]
    return render(
        request,
        "public/register.html",
        t=t,
        slug=slug,
        views=views,
        chosen=division,
        kept=circuit.seat_divisions(store, slug),
    )


#: Registrations one client address may send: 60 in 10 minutes (a family from one
#: phone or a kiosk at the venue fits; 1,500 in 50 s filled a division and its waitlist).
REGISTRATIONS_PER_CLIENT = RateLimitItemPerMinute(60, 10)


@router.post("/t/{slug}/register")
def register_post(
    request: Request,
    store: StoreDep,
    slug: str,
    name: str = Form(""),
    division: str = Form(""),
    family: str = Form(""),
    generation: str = Form(""),
    claim: str = Form(""),
) -> Response:
    _ = gettext_of(request)
    name = " ".join(name.split())[:80]
    if not name:
        return redirect(request, f"/t/{slug}/register", _("Please give a name."), "error")
    tags = (f"family:{' '.join(family.split())[:40]}",) if family.strip() else ()
    gen = int(generation) if generation.isdigit() and 1 <= int(generation) <= 5 else None
    client = client_of(request)
    if not client_limiter(request).hit(REGISTRATIONS_PER_CLIENT, "meldtour-register", client):
        return redirect(
            request,
            f"/t/{slug}/register",
            _(
                "Many registrations came from this device in a short time: wait a few minutes, "
                "or ask the organiser."
            ),
            "error",
        )
    # The audit log names where each registration came from (a short hash of the
    # address, never the address): a flood from one source is plain to the director.
    source = source_of(request, slug)
    try:
        out = usecases.register_players(
            store,
            slug,
            [
                usecases.PlayerEntry(
                    name, division[:80] or None, tags, gen, claim=claim.strip()[:40] or None
                )
            ],
            who=f"web:registration@{source}",
        )
    except usecases.UseCaseError as exc:
        return redirect(
            request,
            f"/t/{slug}/register",
            _("Registration refused: %(why)s") % {"why": refusal_text(exc, _)},
            "error",
        )
    notice = out.notices[-1]
    t = out.tournament
    reg = t.registration(notice.player or 0)
    div = t.division(reg.division)
    if reg.status == "waitlisted":
        place = [r.player for r in t.in_division(div.key, "waitlisted")].index(reg.player) + 1
        text = _("%(division)s is full: %(name)s is number %(n)s on the waitlist.") % {
            "division": div.name,
            "name": reg.name,
            "n": place,
        }
        kind = "warn"
    else:
        text = _("%(name)s is registered in %(division)s as number %(n)s.") % {
            "name": reg.name,
            "division": div.name,
            "n": reg.player,
        }
        kind = "ok"
    return redirect(request, f"/t/{slug}/p/{reg.player}", text, kind)


@router.get("/t/{slug}/p/{player}", response_class=HTMLResponse)
def player_page(request: Request, store: StoreDep, slug: str, player: int) -> Response:
    t = load_tournament(store, slug)
    try:
        reg = t.registration(player)
    except TournamentError as exc:
        raise HTTPException(404, exc.refusal) from None
    seats = player_day(t, player)
    view = division_view(t, reg.division)
    now = (
        seats[0]
        if seats
        and view.round is not None
        and not view.round_closed
        and seats[0].round == view.round.number
        else None
    )
    line = None
    if view.stage is not None:
        rows, _cut, _title = standings_rows(t, reg.division, gettext_of(request))
        line = next((r for r in rows if r.player == player), None)
    return render(
        request,
        "public/player.html",
        t=t,
        slug=slug,
        reg=reg,
        seats=seats,
        now=now,
        line=line,
        view=view,
        status=STATUS,
    )


def _standings_fragment(request: Request, t: Tournament, key: str, projector: bool) -> str:
    _ = gettext_of(request)
    view = division_view(t, key)
    rows, cut, title = standings_rows(t, key, _)
    finals = final_rows(t, key) if view.finished else []
    return str(
        environment(locale_of(request))
        .get_template("public/_standings.html")
        .render(
            rows=rows,
            cut=cut,
            title=title,
            view=view,
            finals=finals,
            projector=projector,
            out=went_out(t, key) if finals else {},
            score_label=score_column(t.division(key).standing_rules, _),
            scaled=any("." in r.score for r in rows),
            win_points=view.div.standing_rules.win_points
            if view.div.standing_rules.mode == "league"
            else None,
        )
    )


def etag_of(html: str) -> str:
    return '"' + hashlib.sha256(html.encode()).hexdigest()[:20] + '"'


@router.get("/t/{slug}/standings", response_class=HTMLResponse)
def standings_page(
    request: Request,
    store: StoreDep,
    slug: str,
    division: str | None = None,
    view: str = "",
    seconds: str = "",
) -> Response:
    """The standings, live; with ``view=projector`` the projector's page (the whole
    screen, big type, a page of rows every ``seconds``, 12 by default, 3 to 60)."""
    t = load_tournament(store, slug)
    key = pick_division(t, division)
    projector = view == "projector"
    fragment = _standings_fragment(request, t, key, projector)
    query = {
        "division": key,
        **({"view": "projector"} if projector else {}),
        "has": etag_of(fragment),
    }
    return render(
        request,
        "public/standings_projector.html" if projector else "public/standings.html",
        t=t,
        slug=slug,
        key=key,
        projector=projector,
        fragment=fragment,
        events=f"/t/{slug}/standings/events?{urlencode(query)}",
        seconds=min(60, max(3, int(seconds))) if seconds.isdigit() and len(seconds) < 4 else 12,
    )


FRAGMENTS_KEPT = 64
_FRAGMENTS_LOCK = threading.Lock()


def _fragment_cache(request: Request) -> OrderedDict[Any, tuple[str, str]]:
    """The app's last standings fragments (one cache per app, so per database)."""
    state = request.app.state
    with _FRAGMENTS_LOCK:
        cache: OrderedDict[Any, tuple[str, str]] | None = getattr(state, "standings_cache", None)
        if cache is None:
            cache = state.standings_cache = OrderedDict()
    return cache


_RENDERING: dict[Any, threading.Lock] = {}
_PENDING: dict[Any, asyncio.Future[tuple[str, str]]] = {}


def _kept_fragment(request: Request, key: Any) -> tuple[str, str] | None:
    cache = _fragment_cache(request)
    with _FRAGMENTS_LOCK:
        return cache.get(key)


def _live_fragment(
    request: Request,
    store: StoreDep,
    slug: str,
    division: str | None,
    projector: bool,
    lang: str,
    seen: int | None,
) -> tuple[str, str]:
    """The fragment at the tournament's mark now (rendered by one thread per mark and
    language, the others waiting for it), kept under that mark and under ``seen``, the
    mark the live streams' watcher read (an older one: the fragment is at least as new)."""
    try:
        snap = usecases.snapshot(store, slug)
    except NotFound as exc:
        raise HTTPException(404, exc.refusal) from None
    key = (slug, division, projector, lang, snap.mark)
    cache = _fragment_cache(request)
    with _FRAGMENTS_LOCK:
        gate = _RENDERING.setdefault(key, threading.Lock())
    with gate:
        with _FRAGMENTS_LOCK:
            found = cache.get(key)
        if found is None:
            t = snap.tournament
            html = _standings_fragment(request, t, pick_division(t, division), projector)
            found = (html, etag_of(html))
        with _FRAGMENTS_LOCK:
            cache[key] = found
            if seen is not None and seen < snap.mark:
                cache[(*key[:4], seen)] = found
            while len(cache) > FRAGMENTS_KEPT:
                cache.popitem(last=False)
            _RENDERING.pop(key, None)
    return found


async def _current_fragment(
    request: Request, slug: str, division: str | None, projector: bool, lang: str
) -> tuple[str, str]:
    """The standings fragment now and its ETag, as :func:`standings_live` and the
    streams send it. While live streams watch the tournament, the mark is their
    watcher's (read at most two watcher periods ago, and every later change is
    announced to them), so a fragment already rendered costs no database query and no
    worker thread; the callers that miss after one change wait for one worker thread
    together, instead of taking every thread of the pool (the saves need them)."""
    web = get_web(request)  # not a dependency: a sync one costs a worker thread hop
    seen = web.watchers.current(slug)
    key = (slug, division, projector, lang, seen)
    found = _kept_fragment(request, key) if seen is not None else None
    if found is not None:
        return found
    if seen is None:
        return await run_in_threadpool(
            _live_fragment, request, web.store(), slug, division, projector, lang, seen
        )
    pending = _PENDING.get(key)
    if pending is None:
        pending = asyncio.ensure_future(
            run_in_threadpool(
                _live_fragment, request, web.store(), slug, division, projector, lang, seen
            )
        )
        _PENDING[key] = pending
        pending.add_done_callback(lambda _f: _PENDING.pop(key, None))
    return await asyncio.shield(pending)


@router.get("/t/{slug}/standings/live", response_class=HTMLResponse)
async def standings_live(
    request: Request, slug: str, division: str | None = None, view: str = ""
) -> Response:
    """The standings table alone, for the page's poll (an ETag makes an unchanged
    table a 304). Rendered once per change of the tournament (its audit mark) and
    language: the phones that fetch after one change share one rendering."""
    html, etag = await _current_fragment(
        request, slug, division, view == "projector", locale_of(request)
    )
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers={"ETag": etag})
    return HTMLResponse(html, headers={"ETag": etag, "Cache-Control": "no-cache"})


#: How often a standings stream looks for a change, and how long one stream lasts:
#: the browser's EventSource then reconnects by itself (and the page fetches the
#: standings on each ``hello``), and a server stopping waits for no stream longer.
KEEPALIVE_SECONDS = 5.0
STREAM_SECONDS = 30.0

_SSE_KEPT = 16
_SSE_TEXT: OrderedDict[str, str] = OrderedDict()


def _standings_event(html: str, etag: str) -> str:
    """A ``standings`` event carrying the fragment (its id is the ETag, so a browser
    reconnecting says which table it has), formatted once per fragment for every
    stream. Carriage returns become newlines first: in an event stream a lone CR ends
    a line, and a name holding one must not end the data early."""
    text = _SSE_TEXT.get(etag)
    if text is None:
        lines = html.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        text = (
            f"event: standings\nid: {etag}\n" + "".join(f"data: {line}\n" for line in lines) + "\n"
        )
        _SSE_TEXT[etag] = text
        while len(_SSE_TEXT) > _SSE_KEPT:
            _SSE_TEXT.popitem(last=False)
    return text


@router.get("/t/{slug}/standings/events")
async def standings_events(
    request: Request, slug: str, division: str | None = None, view: str = "", has: str = ""
) -> Response:
    """Server-Sent Events: a ``change`` event whenever the tournament changes (a sheet
    saved, a round seated or closed), so the page fetches its standings at once. One
    watcher per tournament (:mod:`..watch`) reads the newest audit line for all the
    streams, so changes made by any process (another worker, the command line) are
    seen within ``WATCH_SECONDS``, however many screens watch.

    With ``division`` (and ``view=projector`` for the projector's table), the stream
    carries the standings themselves instead: a ``standings`` event with the fragment
    the live route would answer, on connecting and whenever it changes, each with the
    fragment's ETag as its id; a browser reconnecting sends that id back
    (``Last-Event-ID``) and is sent nothing until the table differs. Three hundred
    phones then cost one rendering and three hundred writes per change, not three
    hundred requests. ``has`` is the ETag of the table the page was served with (the
    ``Last-Event-ID`` of a reconnecting browser wins over it)."""
    web = get_web(request)  # not a dependency: a sync one costs a worker thread hop
    push = division is not None
    projector, lang = view == "projector", locale_of(request)
    # At most limits.STREAMS_PER_CLIENT streams per client address (429 beyond: the
    # page polls instead); the slot is given back when the stream ends.
    slots: ClientSlots = request.app.state.streams
    client = client_of(request)
    if not slots.take(client):
        raise HTTPException(429, STREAMS_OVER, headers={"Retry-After": "30"})

    def opening() -> int:
        mark = usecases.audit_mark(web.store(), slug)
        if push:
            pick_division(usecases.snapshot(web.store(), slug).tournament, division)
        return mark

    try:
        mark = await run_in_threadpool(opening)
    except NotFound as exc:
        slots.give(client)
        raise HTTPException(404, exc.refusal) from None
    except BaseException:
        slots.give(client)
        raise
    has = request.headers.get("last-event-id") or has

    async def stream() -> AsyncIterator[str]:
        nonlocal has
        last, started = mark, time.monotonic()
        yield f"retry: 1000\nevent: hello\ndata: {last}\n\n"
        async with web.watchers.subscribe(slug, mark) as watch:
            changed = push
            while (left := STREAM_SECONDS - (time.monotonic() - started)) > 0:
                if changed:
                    changed = False
                    try:
                        html, etag = await _current_fragment(
                            request, slug, division, projector, lang
                        )
                    except Exception:  # the database away: the next change tries again
                        yield ": not now\n\n"
                    else:
                        if etag != has:
                            has = etag
                            yield _standings_event(html, etag)
                if await request.is_disconnected():
                    return
                now = await web.watchers.wait_change(watch, last, min(KEEPALIVE_SECONDS, left))
                if now != last:
                    last = now
                    if push:
                        changed = True
                    else:
                        yield f"event: change\ndata: {now}\n\n"
                else:
                    yield ": still here\n\n"

    return HeldStream(
        stream(),
        release=lambda: slots.give(client),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


@router.get("/t/{slug}/seats", response_class=HTMLResponse)
def seats_projector(
    request: Request, store: StoreDep, slug: str, division: str | None = None
) -> Response:
    t = load_tournament(store, slug)
    key = pick_division(t, division)
    return render(request, "public/seats.html", t=t, slug=slug, view=division_view(t, key))
