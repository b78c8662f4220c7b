"""The one place the web app is put together: settings → store → game log → cluster →
live server → online rounds, then the routes in the order they answer.

The database opens on first use (the app starts while it is down, and says so on each
request: :func:`database_down`); the live games resume at start-up and stop at shutdown.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
)
from fastapi.staticfiles import StaticFiles

from meldtour import __version__
from meldtour.live import LiveServer
from meldtour.live.cluster import Cluster
from meldtour.live.log import StoreLog
from meldtour.live.online import seat_tokens
from meldtour.store.db import Store
from meldtour.store.errors import DATABASE_DOWN, SchemaError

from . import errors, redact
from .config import Settings
from .deps import gettext_of
from .director.deps import LoginRequired, Web, render
from .director.gate import LaptopGate
from .director.routes import (
    account,
    clock,
    desk,
    flow,
    moderation,
    online,
    players,
    printing,
    rounds,
    score,
    signin,
    tournaments,
    venue,
    visitors,
)
from .director.routes import (
    circuit as director_circuit,
)
from .limits import BodyLimit, ClientSlots
from .routes import arena, circuit, play, players_online, public, review, site, votes

log = logging.getLogger(__name__)
HERE = Path(__file__).parent


def assemble(settings: Settings) -> FastAPI:
    """The app: its state (``app.state.settings``, ``.director`` with the store,
    ``.live`` with the game log, the cluster and the online rounds) and its routes."""
    redact.install()  # no scorer or seat link in the access log
    app = FastAPI(title="meldtour", version=__version__)
    app.add_middleware(BodyLimit)  # bounded input: 413 / close 1009 (web/limits.py)
    # The director's pages answer only this computer until a director signed in here.
    app.add_middleware(LaptopGate)
    app.state.settings = settings
    app.state.streams = ClientSlots()  # live-standings streams per client address
    # The store, opened on first use; a test may put a Web of its own on the app.
    app.state.director = Web(settings)
    app.state.live = live_server(app, settings)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    add_handlers(app)
    app.include_router(site.router)
    app.include_router(players_online.router)  # before play's /play/t/{id}: its own paths
    app.include_router(arena.router)
    app.include_router(play.router)
    app.include_router(review.router)  # a game's score and replay, after its table pages
    for module in (
        rounds,  # before the director's: it answers some of the same paths
        public,
        votes,
        visitors,
        signin,
        tournaments,
        desk,
        flow,
        score,
        printing,
        online,
        venue,
        clock,
        account,
        moderation,
        players,
        circuit,
        director_circuit,
    ):
        app.include_router(module.router)
    keep_games(app)
    return app


def app_store(app: FastAPI) -> Store:
    """The app's database (``MELDTOUR_DATABASE_URL``, by default SQLite
    ``var/meldtour.db``), opened on first use."""
    store: Store = app.state.director.store()
    return store


def live_server(app: FastAPI, settings: Settings) -> LiveServer:
    """The games of this process, logged in the app's database, shared with the other
    processes through Redis when ``MELDTOUR_REDIS_URL`` is set; their seat links derive
    from the secret key, never stored."""
    cluster = Cluster(settings.redis_url, settings.redis_prefix) if settings.redis_url else None
    live = LiveServer(StoreLog(lambda: app_store(app)), cluster=cluster)
    if live.online is not None:
        live.online.seat_token = seat_tokens(settings.secret_key)
        live.online.bot_delay = settings.bot_seconds
    return live


def add_handlers(app: FastAPI) -> None:
    """What a refusal of the store or the session looks like on the web."""

    async def login_required(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, LoginRequired)
        return RedirectResponse(f"/director/login?next={exc.next_path}", status_code=303)

    async def schema_error(request: Request, exc: Exception) -> Response:
        response: HTMLResponse = render(
            request, "public/schema.html", status_code=503, message=str(exc)
        )
        return response

    async def database_down(request: Request, exc: Exception) -> Response:
        # The database does not answer (stopped, restarting, unreachable): say so, and
        # let the client try again; the connection pool reconnects once it is back.
        _ = gettext_of(request)
        text = _(
            "The database is not answering just now. Nothing was saved by this "
            "request: try again in a moment."
        )
        headers = {"Retry-After": "5"}
        if "json" in request.headers.get("content-type", "") or "json" in request.headers.get(
            "accept", ""
        ):
            return JSONResponse({"error": text}, status_code=503, headers=headers)
        if errors.wants_page(request.headers):
            return errors.error_page(request, 503, text, headers)
        return PlainTextResponse(text, status_code=503, headers=headers)

    app.add_exception_handler(LoginRequired, login_required)
    app.add_exception_handler(SchemaError, schema_error)
    # Errors as pages in the reader's language (a refusal no route caught, such as a
    # tournament that is not there, included); JSON for the APIs: web/errors.py.
    errors.install(app)
    for error in DATABASE_DOWN:
        app.add_exception_handler(error, database_down)


def keep_games(app: FastAPI) -> None:
    """At start-up every unfinished game in the log is resumed; at shutdown the games
    stop (their log stays)."""
    inner = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(a: Any) -> AsyncIterator[Any]:
        async with inner(a) as state:
            current: LiveServer = a.state.live  # a test may have put its own
            # Which event loop serves (uvloop where it is installed, else asyncio's).
            log.debug("the event loop: %s", type(asyncio.get_running_loop()).__module__)
            try:
                await current.ensure_recovered()
            except SchemaError as exc:
                log.error("online play cannot resume its games: %s", exc)
            except Exception:
                log.exception("online play cannot resume its games")
            try:
                yield state
            finally:
                await current.close()
                if isinstance(current.log, StoreLog):
                    current.log.close()

    app.router.lifespan_context = lifespan


__all__ = ["app_store", "assemble", "live_server"]
