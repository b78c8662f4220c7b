"""Online play: the lobby, the table page and the game's WebSocket.

The live games run in :mod:`meldtour.live` (``app.state.live``); this module turns a
socket into a subscriber, translates the engine's reasons for a refused move into the
reader's language, and serves the pages. A seat is held by a secret token in a cookie
set when the player sits down; everyone else watches.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Depends, Form, HTTPException, Request, WebSocket
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from limits import RateLimitItemPerMinute
from starlette.websockets import WebSocketDisconnect

from meldtour.core.refusal import TEMPLATES, Refusal
from meldtour.core.refusal import render as render_refusal
from meldtour.core.rules import PRESETS
from meldtour.core.tiles import TILES, format_tiles
from meldtour.live import LiveServer, SeatConfig, TableConfig, TableError
from meldtour.live.game import HINTS_PER_TURN, PHRASES, TABLE_CODES, LiveGame, text_of
from meldtour.live.handle import GameHandle
from meldtour.live.server import MAX_WAITING
from meldtour.live.table import MATCH_GAMES, MAX_TURN_SECONDS, MIN_TURN_SECONDS, secret_seed
from meldtour.players.levels import LEVELS

from ..arena_list import arena_of_game
from ..deps import SEAT_COOKIE, client_limiter, client_of, locale_of
from ..deps import render as render_page
from ..deps import render_template as render
from ..i18n import N_, translations
from ..limits import TooLarge, parse_json
from ..match import match_json
from ..play_words import (
    HINT_TEXTS,
    KEYS_HINT,
    LEVEL_NAMES,
    LEVEL_TEXTS,
    PHRASE_WORDS,
    PLURAL_TEXTS,
    TABLE_TEXTS,
    TEXTS,
    TILE_WORDS,
    TO_THE_PLAYER,
)
from ..rules_text import PRESET_TITLES
from . import players_online

log = logging.getLogger(__name__)
HERE = Path(__file__).parent
COOKIE = SEAT_COOKIE

# ---------------------------------------------------------------- refusals in words

# A refusal is translated by its code: the catalogs' message ids are the codes' English
# templates (core.refusal), and the English catalog holds the words the page uses.
# Arguments that hold tiles in notation are said in words.
TILE_PARAMS = frozenset({"meld", "tile", "tiles"})
#: For a refusal whose code this process does not know (a newer node of the cluster).
FALLBACK = N_("The move was refused: %(why)s")
_TO_THE_PLAYER = {TEMPLATES[code]: words for code, words in TO_THE_PLAYER.items()}

_TILE_TEXTS = frozenset(format_tiles(TILES))


def _tile_word(text: str, gettext: Callable[[str], str]) -> str:
    if text not in _TILE_TEXTS:
        return text
    if text == "J":
        return gettext(TILE_WORDS["J"])
    return gettext(TILE_WORDS[text[0]]) % {"n": text[1:]}


def tiles_in_words(text: str, gettext: Callable[[str], str]) -> str:
    """Tiles in notation (a meld, a tile, tiles one after another) as the reader says
    them; other words are left as they are.

    >>> tiles_in_words("[r10,J,b1] and k13", lambda s: s)
    '[red 10, the joker, blue 1] and black 13'
    """
    out = []
    for part in text.split(" "):
        if part.startswith("[") and part.endswith("]"):
            inner = [p.strip() for p in part[1:-1].split(",") if p.strip()]
            out.append("[" + ", ".join(_tile_word(t, gettext) for t in inner) + "]")
        else:
            bare = part.rstrip(",")
            out.append(_tile_word(bare, gettext) + part[len(bare) :])
    return " ".join(out)


def _in_words(refusal: Refusal, gettext: Callable[[str], str]) -> Refusal:
    params: dict[str, Any] = {}
    for name, value in refusal.params.items():
        if isinstance(value, Refusal):
            value = _in_words(value, gettext)
        elif name in TILE_PARAMS and isinstance(value, str):
            value = tiles_in_words(value, gettext)
        params[name] = value
    return Refusal(refusal.code, params)


def explain(refusal: Refusal, gettext: Callable[[str], str]) -> str:
    """A refusal in the reader's language, by its code, its tiles in words.

    >>> too_short = Refusal("meld.too_short", {"meld": "[r4,r5]", "n": 2})
    >>> explain(Refusal("board.meld", {"i": 2, "why": too_short}), translations("en").gettext)
    'Meld 2: [red 4, red 5] has fewer than 3 tiles: a meld needs at least 3'
    """
    return render_refusal(_in_words(refusal, gettext), lambda s: gettext(_TO_THE_PLAYER.get(s, s)))


def refusal_of(data: Mapping[str, Any]) -> Refusal | None:
    """The refusal a message carries (``code`` and ``params``, nested refusals as
    objects of their own), or None when it carries none this process knows."""
    code, params = data.get("code"), data.get("params", {})
    if not isinstance(code, str) or code not in TEMPLATES or not isinstance(params, dict):
        return None
    return Refusal(
        code, {k: (refusal_of(v) or v) if isinstance(v, dict) else v for k, v in params.items()}
    )


def _explained_events(frame: dict[str, Any], gettext: Callable[[str], str]) -> dict[str, Any]:
    """A frame whose events carry a refusal for their reader alone (an illegal end of
    turn: the player is told why) with that refusal in the reader's language."""
    events = frame.get("events")
    if not isinstance(events, list):
        return frame
    for e in events:  # a plain loop: every frame to every socket asks this (no generator)
        if isinstance(e, dict):
            private = e.get("private")
            if isinstance(private, dict) and "code" in private:
                break
    else:
        return frame
    out = []
    for e in events:
        private = e.get("private") if isinstance(e, dict) else None
        if isinstance(private, dict) and "code" in private:
            refusal = refusal_of(private)
            if refusal is not None:
                e = {**e, "private": {**private, "reason": explain(refusal, gettext)}}
        out.append(e)
    return {**frame, "events": out}


def _explained_check(message: dict[str, Any], gettext: Callable[[str], str]) -> dict[str, Any]:
    """A draft's check (``draft_ok``) with each invalid meld's reason in words."""
    check = message.get("check")
    if not isinstance(check, dict) or not isinstance(check.get("melds"), list):
        return message
    reasons = []
    for m in check["melds"]:
        refusal = refusal_of(m) if isinstance(m, dict) else None
        reasons.append(None if refusal is None else explain(refusal, gettext))
    return {**message, "check": {**check, "reasons": reasons}}


def _for_reader(
    message: dict[str, Any], masks: dict[int, str], gettext: Callable[[str], str]
) -> dict[str, Any]:
    """A message as one socket's reader is sent it: the hidden names masked, refusals in
    the reader's language."""
    message = masked_names(message, masks)
    kind = message.get("type")
    if kind == "refused" and isinstance(message.get("reason"), str):
        return {**message, "reason": explain_message(message, gettext)}
    if kind == "frame":
        return _explained_events(message, gettext)
    if kind == "snapshot" and isinstance(message.get("recent"), list):
        return {
            **message,
            "recent": [_explained_events(r, gettext) for r in message["recent"]],
        }
    if kind == "draft_ok":
        return _explained_check(message, gettext)
    return message


def explain_message(message: Mapping[str, Any], gettext: Callable[[str], str]) -> str:
    """The reason of a "refused" message, in the reader's language."""
    refusal = refusal_of(message)
    if refusal is None:
        return gettext(FALLBACK) % {"why": message.get("reason")}
    return explain(refusal, gettext)


# ---------------------------------------------------------------- pages


#: Tables one client address may open in the lobby: 30 in 10 minutes.
TABLES_PER_CLIENT = RateLimitItemPerMinute(30, 10)


def _live(request: Request | WebSocket) -> LiveServer:
    live: LiveServer = request.app.state.live
    return live


async def _game(request: Request | WebSocket, game_id: str) -> GameHandle:
    # This process's game, or a handle on the process that owns it (scale-out).
    game = await _live(request).find(game_id)
    if game is None:
        raise HTTPException(404, f"no table {game_id!r}")
    return game


router = APIRouter()


@router.get("/play", response_class=HTMLResponse)
async def lobby(request: Request) -> HTMLResponse:
    live = _live(request)
    await live.ensure_recovered()
    # Alone, this process's tables; in a cluster, every process's (from the shared log).
    open_tables, playing = await live.lobby(20)
    online = await asyncio.to_thread(
        players_online.lobby_context, request, [*playing, *open_tables]
    )
    return render(
        request,
        "lobby.html",
        presets=PRESET_TITLES,
        levels=LEVEL_NAMES,
        level_texts=LEVEL_TEXTS,
        open_tables=open_tables,
        playing=playing,
        min_seconds=MIN_TURN_SECONDS,
        max_seconds=MAX_TURN_SECONDS,
        match_games=MATCH_GAMES,
        online=online,
    )


def same_origin(request: Request) -> None:
    """The lobby's forms hold no secret to protect (anyone may open a table or take a
    free seat), but another site must not make a visitor's browser do it: a browser
    names the page a form comes from (``Origin``), and one from another site is refused.
    Clients that are not browsers send no ``Origin`` and are not concerned."""
    if foreign_origin(request.headers.get("origin"), request.headers.get("host", "")):
        raise HTTPException(403, "a form from another site is refused")


def foreign_origin(origin: str | None, host: str) -> bool:
    """Whether a browser says the request comes from a page of another site (no
    ``Origin``: not a browser, or the same site's own navigation)."""
    if origin is None:
        return False
    return origin == "null" or urlsplit(origin).netloc.lower() != host.lower()


@router.post("/play/tables", dependencies=[Depends(same_origin)])
async def create_table(
    request: Request,
    preset: str = Form("krc-2015"),
    turn_seconds: str = Form(""),
    seat_count: int = Form(4),
    seat0: str = Form("human"),
    seat1: str = Form("greedy"),
    seat2: str = Form("greedy"),
    seat3: str = Form("greedy"),
    watch_drafts: bool = Form(False),
    hints: bool = Form(False),
    match_games: int = Form(1),
    name: str = Form(""),
) -> RedirectResponse:
    if preset not in PRESETS:
        raise HTTPException(400, f"unknown rules preset {preset!r}")
    if not 2 <= seat_count <= 4:
        raise HTTPException(400, "a table has 2 to 4 seats")
    seats = []
    for choice in (seat0, seat1, seat2, seat3)[:seat_count]:
        if choice == "human":
            seats.append(SeatConfig("human"))
        elif choice in LEVELS:
            seats.append(SeatConfig("computer", choice))
        else:
            raise HTTPException(400, f"a seat is human or one of {', '.join(LEVELS)}")
    try:
        seconds = int(turn_seconds) if turn_seconds.strip() else None
        config = TableConfig.make(
            preset,
            seats,
            turn_seconds=seconds,
            seed=secret_seed(),
            watch_drafts=watch_drafts,
            hints=hints,
            match_games=match_games,
            bot_delay=request.app.state.settings.bot_seconds,
        )
    except ValueError as exc:
        raise HTTPException(400, str(exc)) from None
    _ = translations(locale_of(request)).gettext
    live = _live(request)
    if live.waiting_in_lobby() >= MAX_WAITING:
        raise HTTPException(
            503,
            _(
                "Too many tables are waiting for players just now: join "
                "one of them, or try again in a few minutes."
            ),
        )
    if not client_limiter(request).hit(TABLES_PER_CLIENT, "meldtour-tables", client_of(request)):
        raise HTTPException(
            429,
            _(
                "You have opened many tables in a short time: join one "
                "of them, or wait a few minutes."
            ),
        )
    game = await live.open_table(config, lobby=True)
    response = RedirectResponse(f"/play/t/{game.id}", status_code=303)
    if name.strip() and config.seats[0].kind == "human":
        # The creator who gave a name sits at the first seat at once (one step: no
        # second screen to sit down); a bad name leaves the seat free, and says why.
        try:
            token = await game.join(0, name)
        except TableError as exc:
            return RedirectResponse(f"/play/t/{game.id}?error={exc.key}", status_code=303)
        _seat_cookie(request, response, game.id, token)
    return response


def _seat_cookie(request: Request, response: Response, game_id: str, token: str) -> None:
    """The seat's secret token, kept by the player's browser for a week."""
    settings = request.app.state.settings
    response.set_cookie(
        COOKIE + game_id,
        token,
        max_age=7 * 24 * 3600,
        httponly=True,
        samesite="lax",
        path="/play",
        secure=not settings.is_development,
    )


@router.get("/play/t/{game_id}", response_class=HTMLResponse)
async def table_page(request: Request, game_id: str) -> Response:
    live = _live(request)
    await live.ensure_recovered()
    found = await live.find(game_id)
    if found is None:
        # A game over and no longer held by any process: its log still has the score.
        logged = await live.log.load(game_id)
        if logged is not None and logged.result is not None:
            return RedirectResponse(f"/play/t/{game_id}/score", status_code=303)
    game = await _game(request, game_id)
    locale = locale_of(request)
    _ = translations(locale).gettext
    seat = game.seat_of(request.cookies.get(COOKIE + game_id))
    rules = game.config.rules
    seats = len(game.config.seats)
    masks = await asyncio.to_thread(players_online.hidden_seats, request, game.id, seats)
    boot = {
        "id": game.id,
        "seat": seat,
        "lang": locale,
        "table": masked_names({"table": game.table_json()}, masks)["table"],
        "levels": {k: _(v) for k, v in LEVEL_NAMES.items()},
        "tile_words": {k: _(v) for k, v in TILE_WORDS.items()},
        "plurals": {k: [_(one), _(many)] for k, (one, many) in PLURAL_TEXTS.items()},
        "phrases": [[k, _(PHRASE_WORDS[k])] for k in PHRASES],  # in this order
        "can_rematch": await _can_rematch(request, game),
        "initial_meld": rules.initial_meld,
        "match": await match_json(live, game),
        "hints_per_turn": HINTS_PER_TURN,
        # How a rack counts at the end, for the result's words.
        "counts": {
            "joker": rules.joker_penalty,
            "no_meld": rules.no_meld_penalty,
            "could_meld": rules.could_meld_penalty,
        },
        # The rule set's penalty policy (core/penalties.py): the points of a player's
        # 1st, 2nd, … failed turn and the sentence that says one.
        "penalty": {
            "schedule": list(rules.penalty_policy.schedule(rules.failed_turn_points)),
            "sentence": _(rules.penalty_policy.sentence),
            "illegal_end": rules.illegal_end,
        },
        # What the page needs to offer a redeal only when the engine would grant it.
        "rules": {
            "redeal": rules.redeal,
            "redeal_doubles": rules.redeal_doubles,
            "hand_size": rules.hand_size,
            "turn_seconds": rules.turn_seconds,
            "given_deal": game.config.deal is not None,
        },
    }
    error = f"table.{request.query_params.get('error')}"  # a refusal to sit down
    report = await asyncio.to_thread(players_online.report_at_table, request, game.id, seats)
    # With a report form, the page with the site's pieces (its CSRF token, the message
    # of the report just sent).
    return await _rendered(
        request,
        bool(report),
        "table.html",
        game=game,
        seat=seat,
        boot=boot,
        texts={k: _(v) for k, v in (TEXTS | TABLE_TEXTS).items()},
        hint_texts={k: _(v) for k, v in HINT_TEXTS.items()},
        error=TEMPLATES[error] if error in TABLE_CODES else None,
        levels=LEVEL_NAMES,
        keys_hint=KEYS_HINT,
        preset_title=PRESET_TITLES.get(game.config.rules.name),
        seat_ratings=await asyncio.to_thread(
            players_online.seat_ratings, request, game.id, game.table_json()
        ),
        arena=await asyncio.to_thread(arena_of_game, request, game.id),
        report=report,
    )


async def _rendered(request: Request, site: bool, name: str, **context: Any) -> Response:
    """The game's page; with the site's pieces (the CSRF token of a form, the message of
    the last post) when ``site``, off the event loop (the session's check reads the
    store)."""
    if site:
        return await asyncio.to_thread(lambda: render_page(request, name, **context))
    return render(request, name, **context)


def masked_names(message: dict[str, Any], masks: dict[int, str]) -> dict[str, Any]:
    """A message (or a page's boot) with the hidden names of ``masks`` (``{seat:
    placeholder}``) in place of the names typed at the table: a view's players and a
    table's seats. The message itself is left as it was (a frame may be shared)."""
    if not masks:
        return message
    out = dict(message)
    view = out.get("view")
    if isinstance(view, dict) and isinstance(view.get("players"), list):
        names = list(view["players"])
        for i, name in masks.items():
            if i < len(names):
                names[i] = name
        out["view"] = {**view, "players": names}
    table = out.get("table")
    if isinstance(table, dict) and isinstance(table.get("seats"), list):
        seats = [dict(s) if isinstance(s, dict) else s for s in table["seats"]]
        for i, name in masks.items():
            if i < len(seats) and isinstance(seats[i], dict):
                seats[i]["name"] = name
        out["table"] = {**table, "seats": seats}
    return out


@router.post("/play/t/{game_id}/join", dependencies=[Depends(same_origin)])
async def join(
    request: Request, game_id: str, seat: int = Form(...), name: str = Form("")
) -> RedirectResponse:
    game = await _game(request, game_id)
    try:
        token = await game.join(seat, name)
    except TableError as exc:
        return RedirectResponse(f"/play/t/{game_id}?error={exc.key}", status_code=303)
    await asyncio.to_thread(players_online.after_join, request, game_id, seat)
    response = RedirectResponse(f"/play/t/{game_id}", status_code=303)
    _seat_cookie(request, response, game_id, token)
    return response


async def _can_rematch(request: Request, game: GameHandle) -> bool:
    """A table of this process that is not a tournament's may play again."""
    live = _live(request)
    if not isinstance(game, LiveGame):
        return False
    if live.online is None:
        return True
    return not await asyncio.to_thread(live.online.holds, game.id)


@router.post("/play/t/{game_id}/rematch", dependencies=[Depends(same_origin)])
async def rematch(request: Request, game_id: str) -> Response:
    """A player of a game over asks for the next game at the same table: they sit at
    the same seat (under the same name) of the rematch, which starts once every person
    has come back; the others' pages offer to join it."""
    game = await _game(request, game_id)
    seat = game.seat_of(request.cookies.get(COOKIE + game_id))
    _ = translations(locale_of(request)).gettext
    if (
        seat is None
        or not isinstance(game, LiveGame)
        or not game.over
        or not await _can_rematch(request, game)
    ):
        raise HTTPException(
            409, _("Only a player of a game over at this table can ask for a rematch")
        )
    new = await _live(request).rematch(game)
    response = RedirectResponse(f"/play/t/{new.id}", status_code=303)
    if new.seat_of(request.cookies.get(COOKIE + new.id)) == seat:
        return response  # already seated there (a second tap)
    try:
        token = await new.join(seat, game.names[seat] or "?")
    except TableError:
        return response  # taken meanwhile: the page shows the seats
    await asyncio.to_thread(players_online.after_join, request, new.id, seat)
    _seat_cookie(request, response, new.id, token)
    return response


@router.get("/play/t/{game_id}/match")
async def match(request: Request, game_id: str) -> dict[str, Any]:
    """The table's match: the standing after the games over so far (the page asks
    again when a game ends)."""
    game = await _game(request, game_id)
    return {"match": await match_json(_live(request), game)}


# ---------------------------------------------------------------- the socket


@router.websocket("/play/t/{game_id}/ws")
async def game_socket(websocket: WebSocket, game_id: str) -> None:
    if foreign_origin(websocket.headers.get("origin"), websocket.headers.get("host", "")):
        # A page of another site may not play with the visitor's seat cookie.
        await websocket.close(code=4403)
        return
    await _live(websocket).ensure_recovered()
    game = await _live(websocket).find(game_id)
    if game is None:
        # Accepted first, so that the page is told (a close before the handshake reaches
        # it as a failed connection, which it would retry for ever).
        await websocket.accept()
        await websocket.close(code=4404)
        return
    gettext = translations(locale_of(websocket)).gettext
    await websocket.accept()
    await game.open()
    sub = await game.subscribe(game.seat_of(websocket.cookies.get(COOKIE + game_id)))
    seats = len(game.config.seats)
    masks = await asyncio.to_thread(players_online.hidden_seats, websocket, game_id, seats)

    async def deliver(message: dict[str, Any]) -> bool:
        """One message to this socket's reader; False once the client is gone (the
        receiving loop ends too)."""
        nonlocal masks
        if message.get("type") == "table":  # someone sat down: whose seat it is now
            masks = await asyncio.to_thread(players_online.hidden_seats, websocket, game_id, seats)
        text = text_of(_for_reader(message, masks, gettext))
        closing = message.get("type") == "closing"
        # Not kept while the text is sent: a move's frame (its board's lists) is let go
        # as soon as it is written.
        del message
        try:
            await websocket.send_text(text)
            if closing:
                await websocket.close(code=4408)
                return False
        except Exception:
            return False
        return True

    sub.deliver_to(deliver)
    try:
        while True:
            data = _message_of(await websocket.receive())
            if isinstance(data, str):  # not a message: say why, and go on listening
                sub.send({"type": "error", "reason": data})
                continue
            try:
                await game.receive(sub, data)
            except Exception as exc:  # a failed write to the log: the client may resend
                log.warning("game %s: a message failed: %s", game_id, exc)
                sub.send({"type": "error", "id": data.get("id"), "reason": "server"})
            del data  # not kept while waiting for the next (as the pump's message)
    except (WebSocketDisconnect, RuntimeError, ValueError):
        pass
    finally:
        game.unsubscribe(sub)
        await sub.stop_delivery()


def _message_of(raw: Any) -> dict[str, Any] | str:
    """A client's frame as a message (a JSON object sent as text), or why it is not one.
    A disconnect raises :class:`WebSocketDisconnect`."""
    if raw.get("type") == "websocket.disconnect":
        raise WebSocketDisconnect(raw.get("code", 1000))
    text = raw.get("text")
    if not isinstance(text, str):
        return "a message is a JSON object sent as text, not binary"
    try:
        data = parse_json(text)
    except TooLarge as exc:
        return f"a message is a JSON object: {exc}"
    except (ValueError, RecursionError):
        return "a message is a JSON object: this is not JSON"
    if not isinstance(data, dict):
        return "a message is a JSON object, not " + type(data).__name__
    return data
