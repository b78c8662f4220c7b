"""The table clock: a table's phone keeps the turn time of a game with real tiles,
opened from the scorer's link (``/score/<link>/clock``: the same signed link, so the
clock is the scorer's and opens that table only). The page runs the clock by itself
(``static/clock.js``) and keeps its record on the phone; it sends the record whenever
it can, the server replays and keeps it (:mod:`meldtour.application.clock`), and at
the end of a game the scorer confirms the time-out penalties onto the sheet. The
director's page lists the round's clocks."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from meldtour import application as usecases
from meldtour.application import clock as clock_uc
from meldtour.store.errors import SheetConflict
from meldtour.tournament.clock import ClockSettings
from meldtour.web.limits import TooLarge, parse_json

from ...deps import load_tournament
from ...views import division_view, refusal_text
from ..deps import (
    Scope,
    StoreDep,
    TournamentDirectorDep,
    WebDep,
    csrf_protect,
    gettext_of,
    render,
)
from .score import _director, _scope, _sheet

router = APIRouter(dependencies=[Depends(csrf_protect)])
STATIC = Path(__file__).resolve().parents[2] / "static"


def _at(scope: Scope) -> clock_uc.TableAt:
    return clock_uc.TableAt(scope.slug, scope.division, scope.stage, scope.round, scope.table)


@router.get("/score/{token}/clock", response_class=HTMLResponse)
def clock_page(request: Request, web: WebDep, store: StoreDep, token: str) -> Response:
    scope = _scope(web, token)
    t, sheet, _version = _sheet(store, scope)
    div = t.division(scope.division)
    rules = div.rules
    settings = ClockSettings.of(rules)
    stored = {}
    for g in range(1, len(sheet.games) + 1):
        rec = clock_uc.stored_clock(
            store, scope.slug, scope.division, scope.stage, scope.round, scope.table, g
        )
        if rec is not None and rec.players == sheet.players:
            # The clock's time now, as near as the server knows it: the phone's time
            # when it last sent, plus the time since (another phone opening the table
            # carries the clock on from there).
            since = datetime.now(UTC) - datetime.fromisoformat(rec.received_at)
            stored[g] = {
                "order": list(rec.order),
                "taps": [list(x) for x in rec.taps],
                "device": rec.device,
                "confirmed": rec.confirmed,
                "now": rec.clock_now + max(0, int(since.total_seconds() * 1000)),
            }
    config = {
        "token": token,
        "url": f"/score/{token}",
        "seats": len(sheet.players),
        "names": [t.name_of(p) for p in sheet.players],
        "games": len(sheet.games),
        "turn_ms": settings.turn_ms,
        "warning_ms": settings.warning_ms,
        "restart_ms": settings.restart_ms,
        "penalty_points": settings.penalty_points,
        # The points of a seat's 1st, 2nd, … time-out (core/penalties.py), for the offers.
        "penalty_schedule": list(settings.schedule),
        "seat_draw": rules.seat_draw,
        "stored": stored,
        "penalties": [list(g.penalties) for g in sheet.games],
        "counted": sheet.counted is not None,
    }
    response = render(
        request,
        "public/clock.html",
        t=t,
        div=div,
        scope=scope,
        token=token,
        rules=rules,
        config=config,
        stage=div.stages[scope.stage],
        director=_director(request, store, scope.slug) is not None,
    )
    # The page works offline from the phone's cache once loaded (static/clock-sw.js).
    response.headers["Cache-Control"] = "no-cache"
    return response


async def _body(request: Request) -> Any:
    raw = await request.body()
    try:
        body = await run_in_threadpool(parse_json, raw)
    except TooLarge as exc:
        raise HTTPException(413, str(exc)) from None
    except (ValueError, RecursionError):
        raise HTTPException(400, "the clock is sent as a JSON object") from None
    if not isinstance(body, dict):
        raise HTTPException(400, "the clock is sent as a JSON object")
    return body


def _int(value: Any, name: str, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise HTTPException(400, f"{name}: a whole number from {low} to {high}")
    return value


def _list(value: Any, name: str, most: int) -> list[Any]:
    if not isinstance(value, list) or len(value) > most:
        raise HTTPException(400, f"{name}: a list of at most {most}")
    return value


@router.post("/score/{token}/clock")
async def clock_upload(request: Request, web: WebDep, store: StoreDep, token: str) -> Response:
    """A game's clock record: ``{"game", "order", "taps": [[kind, ms], ...], "device",
    "now"}``. Sending the same record again (or an older copy) changes nothing."""
    scope = _scope(web, token)
    body = await _body(request)
    return await run_in_threadpool(_upload, request, store, scope, body)


def _upload(request: Request, store: StoreDep, scope: Scope, body: dict[str, Any]) -> Response:
    _ = gettext_of(request)
    game = _int(body.get("game"), "game", 1, 99)
    order = [_int(s, "order", 1, 4) for s in _list(body.get("order"), "order", 4)]
    taps = _list(body.get("taps"), "taps", 2000)
    if not all(isinstance(x, list) and len(x) == 2 and isinstance(x[0], str) for x in taps):
        raise HTTPException(400, "taps: pairs [kind, ms]")
    device = body.get("device")
    if not isinstance(device, str) or not 8 <= len(device) <= 40 or not device.isalnum():
        raise HTTPException(400, "device: 8 to 40 letters and digits")
    clock_now = _int(body.get("now"), "now", 0, 12 * 3600 * 1000)
    try:
        rec, news = clock_uc.record_clock(
            store, _at(scope), game, order, taps, device=device, clock_now=clock_now
        )
    except usecases.UseCaseError as exc:
        status = 409 if exc.code == "clock.other_device" else 400
        return JSONResponse({"error": refusal_text(exc, _), "code": exc.code}, status_code=status)
    return JSONResponse(
        {"kept": len(rec.taps), "news": news, "phase": rec.phase, "timeouts": list(rec.timeouts)}
    )


@router.post("/score/{token}/clock/penalties")
async def clock_penalties(request: Request, web: WebDep, store: StoreDep, token: str) -> Response:
    """The penalties the scorer confirmed: ``{"game", "penalties": [points per seat]}``."""
    scope = _scope(web, token)
    body = await _body(request)
    return await run_in_threadpool(_penalties, request, store, scope, body)


def _penalties(request: Request, store: StoreDep, scope: Scope, body: dict[str, Any]) -> Response:
    _ = gettext_of(request)
    game = _int(body.get("game"), "game", 1, 99)
    points = [_int(p, "penalties", 0, 9999) for p in _list(body.get("penalties"), "penalties", 4)]
    director = _director(request, store, scope.slug)
    who = director.name if director else f"scorer:table {scope.table} (clock)"
    try:
        out = clock_uc.confirm_penalties(store, _at(scope), game, points, who=who)
    except usecases.CountedSheet:
        return JSONResponse(
            {"error": _("This sheet is counted: only the director can correct it.")},
            status_code=403,
        )
    except SheetConflict:
        return JSONResponse(
            {"error": _("Another device is saving this sheet: try again.")}, status_code=409
        )
    except usecases.UseCaseError as exc:
        return JSONResponse({"error": refusal_text(exc, _), "code": exc.code}, status_code=400)
    line = out.sheet.games[game - 1]
    return JSONResponse(
        {
            "penalties": list(line.penalties),
            "counted": out.counted,
            "message": _("The penalties are on the score sheet."),
        }
    )


@router.get("/score-clock-sw.js")
def clock_worker() -> Response:
    """The clock's service worker, allowed to look after the scorer's pages (its file
    is static; this route adds the scope header a worker outside ``/score/`` needs)."""
    return Response(
        (STATIC / "clock-sw.js").read_text(encoding="utf-8"),
        media_type="text/javascript",
        headers={"Service-Worker-Allowed": "/score/", "Cache-Control": "no-cache"},
    )


@router.get("/director/t/{slug}/d/{key}/clocks", response_class=HTMLResponse)
def round_clocks(
    request: Request, store: StoreDep, director: TournamentDirectorDep, slug: str, key: str
) -> Response:
    """Which tables of the round are playing, and how long each game has run."""
    t = load_tournament(store, slug)
    try:
        key = t.division(key).key
    except Exception:
        raise HTTPException(404, f"no division {key!r}") from None
    view = division_view(t, key)
    found = {}
    if view.round is not None:
        found = clock_uc.round_clocks(
            store, clock_uc.TableAt(slug, key, view.stage_index, view.round.number, 0)
        )
    return render(
        request, "director/clocks.html", account=director, t=t, slug=slug, view=view, clocks=found
    )
