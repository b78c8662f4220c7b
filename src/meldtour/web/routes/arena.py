"""Arenas on the web (docs/online.md, "Arenas"): a director (or the site's administrator) opens one
from ``/play/arenas/new`` (a preset, a clock, a duration); anyone joins from its page
``/play/arena/{id}`` (an account or a guest, whose browser keeps an arena ticket: the
same player from game to game), waits, is seated as soon as four are free, and comes
back to the page for the next game; the page shows the live leaderboard, the games in
play and, at the end, the winner. The matching is :mod:`meldtour.live.arena`'s (quick
play's queue and lock), run by the waiting pages' asks, on any process.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from typing import Any

from fastapi import APIRouter, Depends, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from meldtour.application import UseCaseError, moderation
from meldtour.application import arena as arenas
from meldtour.application import online_rating as ratings
from meldtour.application import quickplay as queue
from meldtour.application.acting import Acting
from meldtour.core.rules import PRESETS
from meldtour.live.arena import ArenaPlay
from meldtour.live.table import MAX_TURN_SECONDS, MIN_TURN_SECONDS
from meldtour.store.db import Store

from ..arena_list import listed, when
from ..deps import (
    SEAT_COOKIE,
    csrf_protect,
    current_account,
    get_web,
    gettext_of,
    redirect,
    render,
)
from ..moderation_words import hidden_name
from ..rules_text import PRESET_TITLES
from ..views import refusal_text
from .players_online import player_of

ARENA_COOKIE = "mt_arena_"

router = APIRouter(dependencies=[Depends(csrf_protect)])


def _store(request: Request) -> Store:
    return get_web(request).store()


def arena_play(request: Request) -> ArenaPlay:
    play: ArenaPlay | None = getattr(request.app.state, "arenaplay", None)
    if play is None:
        play = ArenaPlay(
            request.app.state.live,
            lambda: _store(request),
            bot_delay=request.app.state.settings.bot_seconds,
        )
        request.app.state.arenaplay = play
    return play


# ---------------------------------------------------------------- opening one


@router.get("/play/arenas/new", response_class=HTMLResponse)
def new_arena(request: Request) -> Response:
    _ = gettext_of(request)
    director = current_account(request)
    if director is None:
        return RedirectResponse("/director/login?next=/play/arenas/new", status_code=303)
    return render(
        request,
        "play/arena_new.html",
        presets=PRESET_TITLES,
        min_seconds=MIN_TURN_SECONDS,
        max_seconds=MAX_TURN_SECONDS,
        minutes=arenas.DEFAULT_MINUTES,
        most_minutes=arenas.MAX_SECONDS // 60,
    )


@router.post("/play/arenas")
def open_arena(
    request: Request,
    name: str = Form(""),
    preset: str = Form("krc-2015"),
    turn_seconds: str = Form(""),
    minutes: str = Form(""),
    starts_in: str = Form("0"),
) -> Response:
    _ = gettext_of(request)
    director = current_account(request)
    if director is None:
        raise HTTPException(403, _("Only a director or the site's administrator opens an arena."))
    if preset not in PRESETS:
        raise HTTPException(400, _("Choose one of the presets."))
    try:
        seconds = int(turn_seconds) if turn_seconds.strip() else PRESETS[preset].turn_seconds
        length = float(minutes) * 60 if minutes.strip() else arenas.DEFAULT_MINUTES * 60.0
        delay = float(starts_in) * 60 if starts_in.strip() else 0.0
    except ValueError:
        return redirect(
            request,
            "/play/arenas/new",
            _("The time per turn, the duration and the start are numbers."),
            "error",
        )
    if seconds is None or not MIN_TURN_SECONDS <= seconds <= MAX_TURN_SECONDS:
        return redirect(
            request,
            "/play/arenas/new",
            _("The time per turn is %(least)d to %(most)d seconds.")
            % {"least": MIN_TURN_SECONDS, "most": MAX_TURN_SECONDS},
            "error",
        )
    now = time.time()
    try:
        arena = arenas.open_arena(
            _store(request),
            Acting(director.name, director.id),
            name=name,
            preset=preset,
            turn_seconds=seconds,
            seconds=length,
            starts_at=now + max(0.0, delay),
            at=now,
        )
    except UseCaseError as exc:
        return redirect(request, "/play/arenas/new", refusal_text(exc, _), "error")
    return redirect(request, f"/play/arena/{arena.id}", _("The arena is open."))


# ---------------------------------------------------------------- its page


def _board(request: Request, arena_id: str) -> arenas.Board:
    _ = gettext_of(request)
    try:
        return arenas.board(_store(request), arena_id, time.time())
    except UseCaseError:
        raise HTTPException(404, _("There is no such arena.")) from None


def _page_context(request: Request, board: arenas.Board) -> dict[str, Any]:
    arena = board.arena
    now = time.time()
    ticket = request.cookies.get(ARENA_COOKIE + arena.id)
    me = None if not ticket else arenas.player_of_ticket(_store(request), arena.id, ticket)
    player = player_of(request)
    if player is not None:
        me = arenas.player_id("", player.id)
    entry = None if not ticket else queue.look(_store(request), ticket, now)
    if entry is not None and entry.family != arenas.family(arena.id):
        entry = None
    playing_mine = next((g for g in board.playing if me is not None and me in g.players), None)
    names = _shown_names(request, board)
    return {
        "board": board,
        "arena": arena,
        "me": me,
        "player": player,
        "waiting": entry is not None,
        "my_game": None if playing_mine is None else playing_mine.game_id,
        "is_open": arena.open_at(now),
        "left": max(0, round(arena.ends_at - now)),
        "to_start": max(0, round(arena.starts_at - now)),
        "ends": when(request, arena.ends_at),
        "preset_title": PRESET_TITLES.get(arena.preset),
        "names": names,
        "winner_names": ", ".join(names.get(w.id, w.name) for w in board.winners),
    }


def _shown_names(request: Request, board: arenas.Board) -> dict[str, str]:
    """The leaderboard's names by player, a hidden account's as its placeholder."""
    names = {line.id: line.name for line in board.lines}
    accounts = {p: int(p[1:]) for p in names if p.startswith("a") and p[1:].isdigit()}
    hidden = moderation.hidden_among(_store(request), accounts.values())
    _ = gettext_of(request)
    for p, account in accounts.items():
        if account in hidden:
            names[p] = hidden_name(account, _)
    return names


@router.get("/play/arena/{arena_id}", response_class=HTMLResponse)
def arena_page(request: Request, arena_id: str) -> Response:
    board = _board(request, arena_id)
    return render(request, "play/arena.html", **_page_context(request, board))


@router.get("/play/arena/{arena_id}/board", response_class=HTMLResponse)
def arena_board(request: Request, arena_id: str) -> Response:
    """The leaderboard alone (the page asks for it every few seconds)."""
    board = _board(request, arena_id)
    return render(request, "play/_arena_board.html", **_page_context(request, board))


@router.post("/play/arena/{arena_id}/join")
async def arena_join(request: Request, arena_id: str, name: str = Form("")) -> Response:
    _ = gettext_of(request)
    store = _store(request)
    player = await asyncio.to_thread(player_of, request)
    ticket = request.cookies.get(ARENA_COOKIE + arena_id) or secrets.token_urlsafe(18)
    try:
        arena = await asyncio.to_thread(arenas.find, store, arena_id)
        figure: float = ratings.NEWCOMER
        if player is not None:
            book, _games = await asyncio.to_thread(ratings.book, store)
            figure = book.figure(player.id, ratings.family_of(arena.preset, arena.turn_seconds))
        await asyncio.to_thread(
            lambda: arenas.join(
                store,
                arena_id,
                ticket,
                name=player.name if player is not None else name,
                account_id=None if player is None else player.id,
                rating=float(figure),
                at=time.time(),
            )
        )
    except UseCaseError as exc:
        if exc.code == "arena.unknown":
            raise HTTPException(404, _("There is no such arena.")) from None
        return redirect(request, f"/play/arena/{arena_id}", refusal_text(exc, _), "error")
    response = RedirectResponse(f"/play/arena/{arena_id}", status_code=303)
    response.set_cookie(
        ARENA_COOKIE + arena_id,
        ticket,
        max_age=arenas.MAX_SECONDS + 24 * 3600,
        httponly=True,
        samesite="lax",
        path="/play",
        secure=get_web(request).secure_cookies,
    )
    return response


@router.get("/play/arena/{arena_id}/state")
async def arena_state(request: Request, arena_id: str) -> Response:
    """How the wait goes (and a tick of the arena's matching): ``waiting`` (how many
    wait, ``found`` once seats are offered: the seat cookie is set then), ``seated``
    (the table is open: its address), ``over`` (time is up before a seat came) or
    ``gone`` (not waiting)."""
    ticket = request.cookies.get(ARENA_COOKIE + arena_id)
    store = _store(request)
    fam = arenas.family(arena_id)
    if not ticket:
        return JSONResponse({"state": "gone"})
    entry = await asyncio.to_thread(queue.look, store, ticket, time.time())
    if entry is None or entry.family != fam:
        return JSONResponse({"state": "gone"})
    play = arena_play(request)
    if entry.game_id is None:
        arena = await asyncio.to_thread(arenas.find, store, arena_id)
        if arena.over_at(time.time()):
            # Time is up and no seat was offered: the wait ends (the board has the rest).
            await asyncio.to_thread(queue.leave, store, ticket)
            return JSONResponse({"state": "over"})
    if entry.opened_at is None:
        await play.tick(fam)
        entry = await asyncio.to_thread(queue.look, store, ticket, time.time())
        if entry is not None and entry.game_id is not None and entry.accepted_at is None:
            if await asyncio.to_thread(queue.accept, store, ticket, time.time()):
                await play.tick(fam)  # the last page of the group to take its seat opens it
            entry = await asyncio.to_thread(queue.look, store, ticket, time.time())
        if entry is None:
            return JSONResponse({"state": "gone"})
    response: JSONResponse
    if entry.opened_at is not None and entry.game_id is not None and entry.seat is not None:
        # This page's own seat in the arena's games (the opening process wrote it too).
        await asyncio.to_thread(
            arenas.record_game,
            store,
            arena_id,
            entry.game_id,
            [(entry.seat, entry.id)],
            time.time(),
        )
        await asyncio.to_thread(queue.seated, store, ticket)
        response = JSONResponse({"state": "seated", "url": f"/play/t/{entry.game_id}"})
    else:
        size = await asyncio.to_thread(queue.queue_size, store, fam)
        response = JSONResponse(
            {"state": "waiting", "waiting": size, "found": entry.game_id is not None}
        )
    if entry.game_id is not None and entry.token is not None:
        response.set_cookie(
            SEAT_COOKIE + entry.game_id,
            entry.token,
            max_age=7 * 24 * 3600,
            httponly=True,
            samesite="lax",
            path="/play",
            secure=get_web(request).secure_cookies,
        )
    return response


@router.post("/play/arena/{arena_id}/leave")
def arena_leave(request: Request, arena_id: str) -> Response:
    """Stop waiting (the arena ticket stays: the player's points are kept)."""
    ticket = request.cookies.get(ARENA_COOKIE + arena_id)
    if ticket:
        entry = queue.look(_store(request), ticket, time.time())
        if entry is not None and entry.family == arenas.family(arena_id):
            queue.leave(_store(request), ticket)
    return RedirectResponse(f"/play/arena/{arena_id}", status_code=303)


__all__ = ["ARENA_COOKIE", "arena_play", "listed", "router"]
