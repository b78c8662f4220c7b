"""The director's web app: public tournament pages, registration, live standings, the
director's pages (accounts, check-in, rounds, awards, audit), score entry per table,
printing and exports.

:func:`include_director` adds the routes to the app; the store is opened from
``MELDTOUR_DATABASE_URL`` (default SQLite ``var/meldtour.db``) on first use.
"""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
)

from meldtour.store.db import DATABASE_DOWN, SchemaError, Store
from meldtour.store.repository import NotFound

from ..config import Settings
from .deps import LoginRequired, Web, gettext_of, render
from .routes import director, online, printing, public, score


def include_director(app: FastAPI, settings: Settings, store: Store | None = None,
                     database_url: str | None = None) -> None:
    app.state.director = Web(settings, store, database_url)

    async def login_required(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, LoginRequired)
        return RedirectResponse(f"/director/login?next={exc.next_path}", status_code=303)

    async def schema_error(request: Request, exc: Exception) -> Response:
        response: HTMLResponse = render(request, "public/schema.html", status_code=503,
                                        message=str(exc))
        return response

    async def not_found(request: Request, exc: Exception) -> Response:
        # A use case asked for a tournament (or a part of one) that is not there.
        return JSONResponse({"detail": str(exc)}, status_code=404)

    app.add_exception_handler(LoginRequired, login_required)
    app.add_exception_handler(SchemaError, schema_error)
    async def database_down(request: Request, exc: Exception) -> Response:
        # The database does not answer (stopped, restarting, unreachable): say so, and
        # let the client try again; the connection pool reconnects once it is back.
        _ = gettext_of(request)
        text = _("The database is not answering just now. Nothing was saved by this "
                 "request: try again in a moment.")
        headers = {"Retry-After": "5"}
        if "json" in request.headers.get("content-type", "") \
                or "json" in request.headers.get("accept", ""):
            return JSONResponse({"error": text}, status_code=503, headers=headers)
        return PlainTextResponse(text, status_code=503, headers=headers)

    app.add_exception_handler(NotFound, not_found)
    for error in DATABASE_DOWN:
        app.add_exception_handler(error, database_down)
    for module in (public, director, score, printing, online):
        app.include_router(module.router)
