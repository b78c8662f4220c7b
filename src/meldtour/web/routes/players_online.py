"""Online players: accounts (sign up, sign in, sign out), a player's page, the ratings
shown in the lobby and at the table, and quick play.

Every page is under ``/play``, where the seat cookies are (path ``/play``): signing up
reads them and claims the guest's seats for the new account. The forms carry the
site's CSRF token (the director's pages' :func:`csrf_protect`), sign-in is throttled
per address and per (name, address) as the directors' is, and the player's session is
a signed cookie of its own (``mt_player``) carrying the account's session epoch.

Quick play: the form puts the visitor in the queue (a ticket in the ``mt_quick``
cookie); the waiting page asks ``/play/quick/state`` every second, which runs a tick
of the matching (:mod:`meldtour.live.quickplay`) and, once the visitor is seated,
sets their seat cookie and sends them to the table.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

from fastapi import APIRouter, Depends, Form, HTTPException, Request, WebSocket
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from limits import RateLimitItemPerHour, RateLimitItemPerMinute

from meldtour.application import UseCaseError, moderation
from meldtour.application import accounts as director_use
from meldtour.application import online_rating as ratings
from meldtour.application import players_accounts as players
from meldtour.application import quickplay as queue
from meldtour.application.accounts import MIN_PASSWORD, Account
from meldtour.application.players_accounts import PlayerAccount
from meldtour.core.rules import PRESETS
from meldtour.live.game import seat_of_token
from meldtour.live.log import StoreLog
from meldtour.live.quickplay import QuickPlay
from meldtour.live.table import MAX_TURN_SECONDS, MIN_TURN_SECONDS
from meldtour.store.db import Store

from ..arena_list import listed as listed_arenas
from ..deps import (
    SEAT_COOKIE,
    SESSION_COOKIE,
    client_limiter,
    client_of,
    csrf_protect,
    current_account,
    get_web,
    gettext_of,
    redirect,
    render,
)
from ..moderation_words import REASON_WORDS, hidden_name, public_names
from ..play_words import LEVEL_NAMES
from ..rules_text import PRESET_TITLES
from ..security import PASSWORDS, Signer
from ..times import zone_of
from ..views import refusal_text

PLAYER_COOKIE = "mt_player"
QUICK_COOKIE = "mt_quick"
SESSION_SECONDS = 30 * 24 * 3600
#: What one client address may do in a while: accounts made, and times in the queue.
SIGNUPS_PER_CLIENT = RateLimitItemPerHour(10)
QUEUES_PER_CLIENT = RateLimitItemPerMinute(30, 10)

router = APIRouter(dependencies=[Depends(csrf_protect)])


# ---------------------------------------------------------------- the session


def _signer(request: Request) -> Signer:
    signer: Signer | None = getattr(request.app.state, "player_signer", None)
    if signer is None:
        signer = Signer(request.app.state.settings.secret_key, "player")
        request.app.state.player_signer = signer
    return signer


def _store(request: Request) -> Store:
    return get_web(request).store()


def _in_store(request: Request) -> bool:
    """Whether the games are logged in the site's database (else in memory, as in some
    tests: no seat is an account's, nothing is rated)."""
    return isinstance(request.app.state.live.log, StoreLog)


def player_of(request: Request) -> PlayerAccount | None:
    """The player signed in on this browser, or None (a guest)."""
    if not request.cookies.get(PLAYER_COOKIE):
        return None
    if hasattr(request.state, "player"):
        found: PlayerAccount | None = request.state.player
        return found
    value = _signer(request).unsign(request.cookies.get(PLAYER_COOKIE))
    player = None
    if (
        isinstance(value, dict)
        and isinstance(value.get("p"), int)
        and isinstance(value.get("g"), int)
        and isinstance(value.get("exp"), int)
        and value["exp"] > time.time()
    ):
        player = players.signed_in(_store(request), value["p"], value["g"])
    request.state.player = player
    return player


def _start_session(request: Request, response: Response, player: PlayerAccount) -> None:
    value = _signer(request).sign(
        {"p": player.id, "g": player.epoch, "exp": int(time.time()) + SESSION_SECONDS}
    )
    response.set_cookie(
        PLAYER_COOKIE,
        value,
        max_age=SESSION_SECONDS,
        httponly=True,
        samesite="lax",
        secure=get_web(request).secure_cookies,
        path="/",
    )


def _next(target: str) -> str:
    return target if target.startswith("/") and not target.startswith("//") else "/play"


# ---------------------------------------------------------------- ratings in pages


def rating_of(book: ratings.Book, account: int | None, family: str) -> dict[str, Any] | None:
    """``{"shown", "provisional", "games"}`` of an account in a family (a newcomer's
    figure, provisional, without a rated game), or None for a guest."""
    if account is None:
        return None
    line = book.line(account, family)
    if line is None:
        return {"shown": ratings.NEWCOMER, "provisional": True, "games": 0}
    return {"shown": line.shown, "provisional": line.provisional, "games": line.games}


def _family_of_table(table: dict[str, Any]) -> str:
    return ratings.family_of(str(table.get("preset")), table.get("turn_seconds"))


def seat_ratings(request: Request, game_id: str, table: dict[str, Any]) -> list[dict[str, Any]]:
    """Each seat of a table with its rating in the table's family: an account's (and
    a link to its page), a computer's fixed one, nothing for a guest."""
    if not _in_store(request):
        return []
    store = _store(request)
    seats = table.get("seats") or []
    owners = players.seat_accounts(store, game_id, len(seats))
    names = _public_names(request, [a for a in owners if a is not None])
    book, _ = ratings.book(store)
    return _seat_lines(table, owners, names, book)


def _public_names(request: Request, ids: list[int]) -> dict[int, str]:
    """The accounts' names as the public pages show them (a hidden one as "Player #N"
    in the reader's language)."""
    store = _store(request)
    names = players.names(store, ids)
    return public_names(names, moderation.hidden_among(store, names), gettext_of(request))


def hidden_seats(conn: Request | WebSocket, game_id: str, seats: int) -> dict[int, str]:
    """The seats of a game held by an account whose name is hidden, and the placeholder
    each is shown as instead of the name typed at the table (the table page, its socket,
    the score and the replay)."""
    if not isinstance(conn.app.state.live.log, StoreLog) or seats <= 0:
        return {}
    store: Store = conn.app.state.director.store()
    owners = players.seat_accounts(store, game_id, seats)
    hidden = moderation.hidden_among(store, [a for a in owners if a is not None])
    _ = gettext_of(conn)
    return {i: hidden_name(a, _) for i, a in enumerate(owners) if a is not None and a in hidden}


def _seat_lines(
    table: dict[str, Any], owners: list[int | None], names: dict[int, str], book: ratings.Book
) -> list[dict[str, Any]]:
    seats = table.get("seats") or []
    family = _family_of_table(table)
    out = []
    for i, seat in enumerate(seats):
        line: dict[str, Any] = {"seat": i, "name": seat.get("name") or "?", "account": owners[i]}
        if seat.get("kind") == "computer":
            level = str(seat.get("level"))
            line["name"] = level
            line["level"] = level
            line["rating"] = {
                "shown": ratings.COMPUTER_RATINGS.get(level, ratings.NEWCOMER),
                "provisional": False,
                "fixed": True,
            }
        elif owners[i] is not None:
            line["name"] = names.get(owners[i] or 0, line["name"])
            line["rating"] = rating_of(book, owners[i], family)
        out.append(line)
    return out


def lobby_context(request: Request, playing: list[Any]) -> dict[str, Any]:
    """What the lobby shows of online players: who is signed in (and their ratings),
    the computers' fixed ratings, and the rated players at the games in play."""
    out: dict[str, Any] = {
        "player": None,
        "my_ratings": [],
        "computer_ratings": ratings.COMPUTER_RATINGS,
        "at_tables": [],
        "arenas": [],
        "director": False,
        "hidden_seats": {},
    }
    if not _in_store(request):
        return out
    out["arenas"] = listed_arenas(request)
    out["director"] = (
        bool(request.cookies.get(SESSION_COOKIE)) and current_account(request) is not None
    )
    store = _store(request)
    player = player_of(request)
    mine: list[ratings.Line] = []
    if player is not None:
        book, _ = ratings.book(store)
        mine = book.of(player.id)
    at_tables = []
    tables = []
    for g in playing[:40]:
        table = g.table_json() if hasattr(g, "table_json") else None
        if table is None:
            table = {
                "preset": g.config.rules.name,
                "turn_seconds": g.config.rules.turn_seconds,
                "seats": [
                    {"kind": s.kind, "level": s.level, "name": g.names[i]}
                    for i, s in enumerate(g.config.seats)
                ],
            }
        tables.append((g.id, table))
    owners = players.seat_accounts_of(store, {gid: len(t.get("seats") or []) for gid, t in tables})
    names = _public_names(request, [a for o in owners.values() for a in o if a is not None])
    hidden = moderation.hidden_among(store, names)
    book, _games = ratings.book(store)
    masks: dict[str, dict[int, str]] = {}
    for gid, table in tables:
        rated = [s for s in _seat_lines(table, owners[gid], names, book) if s.get("account")]
        if rated:
            at_tables.append({"id": gid, "seats": rated})
        masked = {i: names[a] for i, a in enumerate(owners[gid]) if a is not None and a in hidden}
        if masked:
            masks[gid] = masked
    return {
        **out,
        "player": player,
        "my_ratings": mine,
        "at_tables": at_tables,
        "hidden_seats": masks,
    }


def after_join(request: Request, game_id: str, seat: int) -> None:
    """A seat just taken by a signed-in player is their account's."""
    player = player_of(request) if _in_store(request) else None
    if player is not None:
        players.take_seat(_store(request), player, game_id, seat, "joined")


# ---------------------------------------------------------------- sign up, in, out


def _account_page(request: Request, template: str, status: int = 200, **context: Any) -> Response:
    return render(
        request,
        template,
        status_code=status,
        min_password=MIN_PASSWORD,
        max_name=players.MAX_NAME,
        player=player_of(request),
        **context,
    )


@router.get("/play/signup", response_class=HTMLResponse)
def signup_form(request: Request, next: str = "/play") -> Response:
    return _account_page(request, "play/signup.html", next=_next(next), typed="")


async def _guest_seats(request: Request) -> list[tuple[str, int]]:
    """The seats this browser's seat cookies prove (each token checked against its
    game: the live one, or the log's header once the game is over)."""
    live = request.app.state.live
    out = []
    for cookie, token in list(request.cookies.items())[:200]:
        if not cookie.startswith(SEAT_COOKIE):
            continue
        gid = cookie[len(SEAT_COOKIE) :]
        if not gid or len(gid) > 40:
            continue
        seat = None
        logged = await live.log.load(gid)
        if logged is not None:
            table = logged.header.get("table") or {}
            seat = seat_of_token(list(table.get("keys") or []), token)
        if seat is None:
            game = live.get(gid)
            if game is not None:
                seat = game.seat_of(token)
        if seat is not None:
            out.append((gid, seat))
    return out


@router.post("/play/signup")
async def signup(
    request: Request,
    name: str = Form(""),
    password: str = Form(""),
    again: str = Form(""),
    next: str = Form("/play"),
) -> Response:
    _ = gettext_of(request)
    store = _store(request)
    if not client_limiter(request).hit(SIGNUPS_PER_CLIENT, "meldtour-signup", client_of(request)):
        raise HTTPException(
            429, _("Many accounts were made from this address lately: try again later.")
        )
    try:
        player = await asyncio.to_thread(
            players.sign_up, store, name[:200], password[:1000], again[:1000], PASSWORDS
        )
    except UseCaseError as exc:
        return _account_page(
            request,
            "play/signup.html",
            400,
            next=_next(next),
            typed=name[:200],
            error=refusal_text(exc, _),
        )
    seats = await _guest_seats(request)
    claimed = await asyncio.to_thread(players.claim, store, player, seats)
    text = _("Welcome, %(name)s: your account is ready.") % {"name": player.name}
    if claimed:
        text += " " + _("Your games as a guest on this browser are yours now: %(n)d.") % {
            "n": claimed
        }
    response = redirect(request, f"/play/p/{player.id}", text)
    _start_session(request, response, player)
    return response


@router.get("/play/signin", response_class=HTMLResponse)
def signin_form(request: Request, next: str = "/play") -> Response:
    return _account_page(request, "play/signin.html", next=_next(next), typed="")


@router.post("/play/signin")
def signin(
    request: Request, name: str = Form(""), password: str = Form(""), next: str = Form("/play")
) -> Response:
    _ = gettext_of(request)
    web = get_web(request)
    client = "player-ip:" + client_of(request)
    keys = (client, f"player:{' '.join(name.split()).casefold()[:200]}|{client}")
    if web.throttle.blocked(*keys):
        response = _account_page(
            request,
            "play/signin.html",
            429,
            next=_next(next),
            typed=name[:200],
            error=_("Too many failed sign-ins: wait a few minutes and try again."),
        )
        response.headers["Retry-After"] = str(int(web.throttle.window))
        return response
    try:
        player = players.sign_in(_store(request), name[:200], password, PASSWORDS)
    except UseCaseError as exc:
        return _account_page(
            request,
            "play/signin.html",
            403,
            next=_next(next),
            typed=name[:200],
            error=refusal_text(exc, _),
        )
    if player is None:
        web.throttle.failed(*keys)
        return _account_page(
            request,
            "play/signin.html",
            401,
            next=_next(next),
            typed=name[:200],
            error=_("That name and password do not match an account."),
        )
    web.throttle.succeeded(*keys)
    response = redirect(request, _next(next))
    _start_session(request, response, player)
    return response


@router.post("/play/signout")
def signout(request: Request) -> Response:
    response = redirect(request, "/play")
    response.delete_cookie(
        PLAYER_COOKIE,
        path="/",
        httponly=True,
        samesite="lax",
        secure=get_web(request).secure_cookies,
    )
    return response


# ---------------------------------------------------------------- a player's page


def _when(at: float, zone: ZoneInfo | None = None) -> str:
    """A game's start, in the site's time zone."""
    return datetime.fromtimestamp(at, zone or UTC).strftime("%Y-%m-%d %H:%M")


def _chart(points: list[ratings.Point]) -> dict[str, Any] | None:
    """A small line of the shown rating after each game (an inline SVG's points)."""
    if not points:
        return None
    values = [p.shown for p in points]
    low, high = float(min(values) - 20), float(max(values) + 20)
    width, height, pad = 320, 100, 12
    n = len(values)
    xs = [pad + (width - 2 * pad) * (i / (n - 1) if n > 1 else 0.5) for i in range(n)]
    ys = [height - pad - (height - 2 * pad) * (v - low) / (high - low) for v in values]
    return {
        "width": width,
        "height": height,
        "points": " ".join(f"{x:.1f},{y:.1f}" for x, y in zip(xs, ys, strict=True)),
        "dots": [
            {"x": round(x, 1), "y": round(y, 1), "shown": v}
            for x, y, v in zip(xs, ys, values, strict=True)
        ],
        "low": low + 20,
        "high": high - 20,
    }


def _administrator(request: Request) -> Account | None:
    """The director signed in on this browser, if they are the site's administrator."""
    if not request.cookies.get(SESSION_COOKIE):
        return None
    director = current_account(request)
    if director is None or not director_use.is_administrator(_store(request), director):
        return None
    return director


@router.post("/play/p/{account_id}/disable")
def disable_player(request: Request, account_id: int, disabled: str = Form("1")) -> Response:
    """The site's administrator disables (or enables again) a player account."""
    _ = gettext_of(request)
    director = _administrator(request)
    if director is None:
        raise HTTPException(403, _("Only the site's administrator may do this."))
    try:
        changed = players.set_disabled(_store(request), director, account_id, disabled == "1")
    except UseCaseError as exc:
        raise HTTPException(404, refusal_text(exc, _)) from None
    text = (
        _("The player account %(name)s is disabled: its sessions are signed out.")
        if changed.disabled
        else _("The player account %(name)s is enabled again.")
    )
    return redirect(request, f"/play/p/{account_id}", text % {"name": changed.name})


@router.get("/play/p/{account_id}", response_class=HTMLResponse)
def player_page(request: Request, account_id: int) -> Response:
    store = _store(request)
    who = players.get(store, account_id)
    _ = gettext_of(request)
    admin = _administrator(request)
    if who is None or (who.disabled and admin is None):
        raise HTTPException(404, _("There is no such player."))
    book, games = ratings.book(store)
    by_id = {g.game_id: g for g in games}
    settings = request.app.state.settings
    zone = zone_of("", settings.time_zone, settings.default_locale)
    seats = players.seats_of(store, account_id)
    rows: list[dict[str, Any]] = []
    for game_id, seat, how in seats:
        g = by_id.get(game_id)
        if g is None:
            rows.append({"id": game_id, "over": False, "how": how})
            continue
        order = sorted(set(g.scores), reverse=True)
        rows.append(
            {
                "id": game_id,
                "over": True,
                "how": how,
                "family": g.family,
                "at": _when(g.at, zone),
                "sort": g.at,
                "place": order.index(g.scores[seat]) + 1,
                "seats": len(g.scores),
                "score": g.scores[seat],
                "rated": g.rated,
            }
        )
    rows.sort(key=lambda r: -float(r.get("sort", 9e18)))
    lines = book.of(account_id)
    histories = []
    for line in lines:
        points = book.history.get((account_id, line.family), [])
        histories.append(
            {
                "line": line,
                "chart": _chart(points),
                "points": [
                    {"game": p.game_id, "at": _when(p.at, zone), "shown": p.shown} for p in points
                ],
            }
        )
    viewer = player_of(request)
    mine = viewer is not None and viewer.id == who.id
    shown = who.name if (admin is not None or mine or not who.hidden) else hidden_name(who.id, _)
    return render(
        request,
        "play/player.html",
        who=who,
        shown_name=shown,
        hidden_as=hidden_name(who.id, _),
        mine=mine,
        report=_report_from_page(request, viewer, who),
        player=viewer,
        games=rows,
        histories=histories,
        wins=sum(1 for r in rows if r.get("place") == 1),
        finished=sum(1 for r in rows if r.get("over")),
        provisional_games=ratings.PROVISIONAL_GAMES,
        admin=admin is not None,
    )


# ---------------------------------------------------------------- reports


def _report_from_page(
    request: Request, viewer: PlayerAccount | None, who: PlayerAccount
) -> dict[str, Any] | None:
    """The report form of a player's page: the games the viewer sat in with them (not
    reported yet), or None on one's own page; ``guest`` when nobody is signed in."""
    if viewer is not None and viewer.id == who.id:
        return None
    if viewer is None:
        return {"guest": True, "games": [], "reasons": REASON_WORDS}
    store = _store(request)
    done = moderation.reported_by(store, viewer)
    games = [g for g in moderation.shared_games(store, viewer, who.id) if (who.id, g) not in done]
    return {"guest": False, "games": games[:20], "reasons": REASON_WORDS}


def report_at_table(request: Request, game_id: str, seats: int) -> dict[str, Any] | None:
    """The report form of a table (and its score page): the other accounts at it the
    signed-in player may report (each with its seat and shown name, and whether it is
    reported already), ``guest`` for a visitor; None when nobody at the table has an
    account, or the game is not logged in the store."""
    if not _in_store(request) or seats <= 0:
        return None
    store = _store(request)
    owners = players.seat_accounts(store, game_id, seats)
    accounts = [a for a in owners if a is not None]
    if not accounts:
        return None
    viewer = player_of(request)
    if viewer is None:
        return {"guest": True, "targets": [], "reasons": REASON_WORDS, "game": game_id}
    if viewer.id not in accounts:
        return None
    names = _public_names(request, accounts)
    done = moderation.reported_by(store, viewer)
    targets = [
        {"account": a, "seat": i, "name": names.get(a, "?"), "done": (a, game_id) in done}
        for i, a in enumerate(owners)
        if a is not None and a != viewer.id
    ]
    if not targets:
        return None
    return {"guest": False, "targets": targets, "reasons": REASON_WORDS, "game": game_id}


@router.post("/play/report")
def report_player(
    request: Request,
    game: str = Form(""),
    account: str = Form(""),
    reason: str = Form(""),
    next: str = Form("/play"),
) -> Response:
    """A signed-in player reports another player of a game they sat in, for one of the
    fixed reasons; the answer (done, or why not) is a message on the page they came
    from."""
    _ = gettext_of(request)
    back = _next(next)
    player = player_of(request) if _in_store(request) else None
    try:
        reported = int(account)
    except ValueError:
        reported = -1
    try:
        moderation.report(_store(request), player, game[:40], reported, reason[:20], time.time())
    except UseCaseError as exc:
        return redirect(request, back, refusal_text(exc, _), "error")
    return redirect(
        request,
        back,
        _("Your report is sent to the site's administrator. Thank you for keeping games fair."),
    )


# ---------------------------------------------------------------- quick play


def quickplay(request: Request) -> QuickPlay:
    quick: QuickPlay | None = getattr(request.app.state, "quickplay", None)
    if quick is None:
        quick = QuickPlay(
            request.app.state.live,
            lambda: _store(request),
            bot_delay=request.app.state.settings.bot_seconds,
        )
        request.app.state.quickplay = quick
    return quick


@router.get("/play/quick", response_class=HTMLResponse)
def quick_form(request: Request) -> Response:
    player = player_of(request)
    return render(
        request,
        "play/quick.html",
        player=player,
        presets=PRESET_TITLES,
        default_seconds={k: PRESETS[k].turn_seconds for k in PRESET_TITLES if k in PRESETS},
        min_seconds=MIN_TURN_SECONDS,
        max_seconds=MAX_TURN_SECONDS,
        wait=queue.DEFAULT_WAIT,
        min_wait=queue.MIN_WAIT,
        max_wait=queue.MAX_WAIT,
        computer_ratings=ratings.COMPUTER_RATINGS,
        levels=LEVEL_NAMES,
    )


@router.post("/play/quick")
async def quick_join(
    request: Request,
    preset: str = Form("krc-2015"),
    turn_seconds: str = Form(""),
    wait: str = Form(""),
    name: str = Form(""),
) -> Response:
    _ = gettext_of(request)
    if preset not in PRESETS:
        raise HTTPException(400, _("Choose one of the presets."))
    try:
        seconds = int(turn_seconds) if turn_seconds.strip() else PRESETS[preset].turn_seconds
        waited = float(wait) if wait.strip() else float(queue.DEFAULT_WAIT)
    except ValueError:
        raise HTTPException(
            400, _("The time per turn and the wait are numbers of seconds.")
        ) from None
    if not MIN_TURN_SECONDS <= seconds <= MAX_TURN_SECONDS:
        raise HTTPException(
            400,
            _("The time per turn is %(least)d to %(most)d seconds.")
            % {"least": MIN_TURN_SECONDS, "most": MAX_TURN_SECONDS},
        )
    if not client_limiter(request).hit(QUEUES_PER_CLIENT, "meldtour-quick", client_of(request)):
        raise HTTPException(
            429, _("You have pressed play many times in a short time: wait a few minutes.")
        )
    store = _store(request)
    player = await asyncio.to_thread(player_of, request)
    try:
        shown = player.name if player is not None else players.check_name(name[:200])
        family = ratings.family_of(preset, seconds)
        figure: float = ratings.NEWCOMER
        if player is not None:
            book, _games = await asyncio.to_thread(ratings.book, store)
            figure = book.figure(player.id, family)
        ticket = secrets.token_urlsafe(18)
        await asyncio.to_thread(
            lambda: queue.join(
                store,
                ticket,
                family=family,
                preset=preset,
                turn_seconds=seconds,
                name=shown,
                account_id=None if player is None else player.id,
                rating=float(figure),
                wait=waited,
                at=time.time(),
            )
        )
    except UseCaseError as exc:
        return redirect(request, "/play/quick", refusal_text(exc, _), "error")
    response = RedirectResponse("/play/quick/wait", status_code=303)
    response.set_cookie(
        QUICK_COOKIE,
        ticket,
        max_age=3600,
        httponly=True,
        samesite="lax",
        path="/play",
        secure=get_web(request).secure_cookies,
    )
    return response


@router.get("/play/quick/wait", response_class=HTMLResponse)
def quick_wait(request: Request) -> Response:
    ticket = request.cookies.get(QUICK_COOKIE)
    entry = None if not ticket else queue.look(_store(request), ticket, time.time())
    if entry is None:
        return RedirectResponse("/play/quick", status_code=303)
    return render(
        request,
        "play/quick_wait.html",
        entry=entry,
        player=player_of(request),
        preset_title=PRESET_TITLES.get(entry.preset),
    )


@router.get("/play/quick/state")
async def quick_state(request: Request) -> Response:
    """How the wait goes (and a tick of the matching): ``waiting`` (with how many wait,
    the seconds left before computers fill, and ``found`` once a table is offered: the
    seat cookie is set then), ``seated`` (the table is open: its address) or ``gone``."""
    ticket = request.cookies.get(QUICK_COOKIE)
    store = _store(request)
    if not ticket:
        return JSONResponse({"state": "gone"})
    entry = await asyncio.to_thread(queue.look, store, ticket, time.time())
    if entry is None:
        return JSONResponse({"state": "gone"})
    quick = quickplay(request)
    took = False
    if entry.opened_at is None:
        await quick.tick(entry.family)
        entry = await asyncio.to_thread(queue.look, store, ticket, time.time())
        if entry is not None and entry.game_id is not None and entry.accepted_at is None:
            took = await asyncio.to_thread(queue.accept, store, ticket, time.time())
            if took:  # the last page of the group to take its seat opens the table
                await quick.tick(entry.family)
            entry = await asyncio.to_thread(queue.look, store, ticket, time.time())
        if entry is None:
            return JSONResponse({"state": "gone"})
    response: JSONResponse
    if entry.opened_at is not None and entry.game_id is not None:
        await asyncio.to_thread(queue.seated, store, ticket)
        response = JSONResponse(
            {"state": "seated", "url": f"/play/t/{entry.game_id}", "table": entry.table}
        )
        response.delete_cookie(QUICK_COOKIE, path="/play")
    else:
        size = await asyncio.to_thread(queue.queue_size, store, entry.family)
        left = max(0, round(entry.joined_at + entry.wait - time.time()))
        response = JSONResponse(
            {
                "state": "waiting",
                "waiting": size,
                "left": left,
                "found": entry.game_id is not None,
            }
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


@router.post("/play/quick/leave")
def quick_leave(request: Request) -> Response:
    ticket = request.cookies.get(QUICK_COOKIE)
    if ticket:
        queue.leave(_store(request), ticket)
    response = RedirectResponse("/play", status_code=303)
    response.delete_cookie(QUICK_COOKIE, path="/play")
    return response


__all__ = [
    "after_join",
    "hidden_seats",
    "lobby_context",
    "player_of",
    "report_at_table",
    "router",
    "seat_ratings",
]
