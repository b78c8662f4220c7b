"""The site's own pages: the health check, the home page and the rules of each preset."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from meldtour import __version__
from meldtour.core.rules import PRESETS

from ..deps import gettext_of
from ..deps import render_template as render
from ..i18n import N_
from ..rules_text import PRESET_TITLES, describe

router = APIRouter()


@router.get("/healthz")
def healthz() -> Response:
    return JSONResponse({"ok": True, "version": __version__})


@router.get("/", response_class=HTMLResponse)
def home(request: Request) -> HTMLResponse:
    return render(request, "home.html", presets=PRESET_TITLES)


@router.get("/rules", response_class=HTMLResponse)
def rules_index(request: Request) -> HTMLResponse:
    return render(request, "rules_index.html", presets=PRESET_TITLES)


@router.get("/rules/{preset}", response_class=HTMLResponse)
def rules_page(request: Request, preset: str) -> HTMLResponse:
    if preset not in PRESETS:
        raise HTTPException(404, N_("There are no rules of that name."))
    rows = describe(PRESETS[preset], gettext_of(request))
    return render(
        request, "rules.html", preset=preset, title=PRESET_TITLES.get(preset, preset), rows=rows
    )
