"""A round played online: the director starts the current round of a division online
(each table not yet counted becomes a live game; computer players may stand in for
absent players at a club night only), follows the games, and hands each player the
link to their seat. Each finished game fills its table's score sheet by itself
(:mod:`meldtour.live.online`)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from meldtour import application as usecases
from meldtour.application import online
from meldtour.core.refusal import Refusal
from meldtour.core.refusal import render as render_refusal
from meldtour.live import LiveServer
from meldtour.live.online import CLUB_TEMPLATES, OnlineRefused, OnlineRounds
from meldtour.players.levels import LEVELS
from meldtour.store.db import Store
from meldtour.tournament import TournamentError

from ...deps import SEAT_COOKIE, load_tournament
from ...play_words import LEVEL_NAMES
from ...views import division_view, refusal_text
from ..deps import (
    StoreDep,
    TournamentDirectorDep,
    csrf_protect,
    gettext_of,
    redirect,
    render,
)

router = APIRouter(dependencies=[Depends(csrf_protect)])


def _refusal(request: Request, exc: Exception) -> str:
    """A refusal in the director's language, by its code (live.online's refusals; a
    store's reason that is no refusal yet goes to the director's pages' words)."""
    _ = gettext_of(request)
    refusal = getattr(exc, "refusal", None)
    if isinstance(refusal, Refusal) and refusal.code == "live.online.cannot":
        refusal = refusal.params.get("why")
    if isinstance(refusal, Refusal):
        return render_refusal(refusal, _)
    return refusal_text(str(refusal if isinstance(refusal, str) else exc), _)


def _rounds(request: Request) -> tuple[LiveServer, OnlineRounds]:
    live: LiveServer = request.app.state.live
    if live.online is None:
        raise HTTPException(503, "online play is not logged in the database")
    return live, live.online


@dataclass(frozen=True)
class GameLine:
    game: online.OnlineGame
    status: str  # "playing", "over", "filled"
    moves: int


def _lines(store: Store, live: LiveServer, games: list[online.OnlineGame]) -> list[GameLine]:
    out = []
    for g in games:
        here = live.games.get(g.game_id)
        if here is not None:
            moves, over = here.version, here.over
        else:
            moves, over = online.logged_progress(store, g.game_id)
        out.append(GameLine(g, "filled" if g.filled else "over" if over else "playing", moves))
    return out


@router.get("/director/t/{slug}/d/{key}/online", response_class=HTMLResponse)
async def online_page(
    request: Request, store: StoreDep, director: TournamentDirectorDep, slug: str, key: str
) -> Response:
    live, rounds = _rounds(request)
    await live.ensure_recovered()
    await rounds.settle()
    t = await asyncio.to_thread(load_tournament, store, slug)
    try:
        key = t.division(key).key
    except TournamentError as exc:
        raise HTTPException(404, exc.refusal) from None
    view = division_view(t, key)
    template, games = await asyncio.to_thread(
        online.round_games,
        store,
        slug,
        key,
        view.stage_index,
        view.round.number if view.round is not None else 0,
    )
    tables: dict[int, list[GameLine]] = {}
    if view.round is not None:
        for line in await asyncio.to_thread(_lines, store, live, games):
            tables.setdefault(line.game.table, []).append(line)
    # Each seat's link, derived again (only its hash is stored); None where it cannot be.
    links = {n: rounds.seat_links(lines[0].game) for n, lines in tables.items()}
    return render(
        request,
        "director/online.html",
        account=director,
        t=t,
        slug=slug,
        view=view,
        tables=tables,
        links=links,
        club=template in CLUB_TEMPLATES,
        levels=LEVEL_NAMES,
    )


@router.post("/director/t/{slug}/d/{key}/online/start")
async def start_online(
    request: Request, store: StoreDep, director: TournamentDirectorDep, slug: str, key: str
) -> Response:
    _ = gettext_of(request)
    _live, rounds = _rounds(request)
    back = f"/director/t/{slug}/d/{key}/online"
    form = await request.form()
    level = form.get("level")
    computers: dict[int, str] = {}
    if isinstance(level, str) and level:
        if level not in LEVELS:
            raise HTTPException(400, f"a computer player is one of {', '.join(LEVELS)}")
        for value in form.getlist("computer"):
            if isinstance(value, str) and value.isdigit():
                computers[int(value)] = level
    try:
        await rounds.start_round(slug, key, computers=computers, who=director.name)
    except (OnlineRefused, online.OnlineError, usecases.UseCaseError) as exc:
        return redirect(request, back, _refusal(request, exc), "error")
    return redirect(
        request,
        back,
        _("The round is being played online: each finished game fills its score sheet."),
    )


@router.get("/online/seat/{game_id}/{token}")
async def seat_link(request: Request, game_id: str, token: str) -> Response:
    """A player's link to their seat at an online table: sits them down at the table's
    current game (the seat's secret in a cookie, as when joining a lobby table)."""
    _live, rounds = _rounds(request)
    gid = await asyncio.to_thread(rounds.seat_game, game_id, token)
    if gid is None:
        raise HTTPException(404, "no such seat")
    response = RedirectResponse(f"/play/t/{gid}", status_code=303)
    # Secure outside development, as the lobby's seat cookie (routes/play.py).
    response.set_cookie(
        SEAT_COOKIE + gid,
        token,
        max_age=7 * 24 * 3600,
        httponly=True,
        samesite="lax",
        path="/play",
        secure=not request.app.state.settings.is_development,
    )
    return response
