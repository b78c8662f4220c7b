"""The FastAPI application: ``create_app()``; ``uvicorn meldtour.web.app:app``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from meldtour import __version__
from meldtour.core.rules import PRESETS
from meldtour.live.online import seat_tokens

from . import redact
from .config import Settings
from .director import include_director
from .i18n import LOCALE_NAMES, LOCALES, choose_locale, environment, translations
from .limits import BodyLimit
from .play import include_play
from .review import router as review_router
from .rules_text import PRESET_TITLES, describe

HERE = Path(__file__).parent



def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()
    redact.install()  # no scorer or seat link in the access log
    app = FastAPI(title="meldtour", version=__version__)
    app.add_middleware(BodyLimit)  # bounded input: 413 / close 1009 (web/limits.py)
    app.state.settings = settings
    envs = {loc: environment(loc) for loc in LOCALES}
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")

    def render(request: Request, name: str, **context: Any) -> HTMLResponse:
        locale = choose_locale(request.query_params.get("lang"), request.cookies.get("lang"),
                               request.headers.get("accept-language"), settings.default_locale)
        html = envs[locale].get_template(name).render(
            locale=locale, locales=LOCALE_NAMES, path=request.url.path, **context)
        response = HTMLResponse(html)
        if request.query_params.get("lang") in LOCALES:
            response.set_cookie("lang", locale, max_age=365 * 24 * 3600, samesite="lax")
        response.headers["Content-Language"] = locale
        return response

    @app.get("/healthz")
    def healthz() -> Response:
        return JSONResponse({"ok": True, "version": __version__})

    @app.get("/", response_class=HTMLResponse)
    def home(request: Request) -> HTMLResponse:
        return render(request, "home.html", presets=PRESET_TITLES)

    @app.get("/rules", response_class=HTMLResponse)
    def rules_index(request: Request) -> HTMLResponse:
        return render(request, "rules_index.html", presets=PRESET_TITLES)

    @app.get("/rules/{preset}", response_class=HTMLResponse)
    def rules_page(request: Request, preset: str) -> HTMLResponse:
        if preset not in PRESETS:
            raise HTTPException(404, f"unknown rules preset {preset!r}")
        locale = choose_locale(request.query_params.get("lang"), request.cookies.get("lang"),
                               request.headers.get("accept-language"), settings.default_locale)
        rows = describe(PRESETS[preset], translations(locale).gettext)
        return render(request, "rules.html", preset=preset, title=PRESET_TITLES.get(preset, preset),
                      rows=rows)

    include_play(app)
    app.include_router(review_router)  # a game's score and replay, after its table pages
    if app.state.live.online is not None:  # seat links derive from the secret, never stored
        app.state.live.online.seat_token = seat_tokens(settings.secret_key)
    include_director(app, settings)  # tournaments: the store opens on first use

    return app


def __getattr__(name: str) -> Any:
    # ``uvicorn meldtour.web.app:app`` builds the app on first use, from the environment.
    if name == "app":
        return create_app()
    raise AttributeError(name)
