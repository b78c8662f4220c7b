"""The director's route modules' shared helpers: the tournament's time zone, a
division by its key (404 otherwise), a refusal in the reader's words, a form's text and
number fields, a QR code as a data URI."""

from __future__ import annotations

import functools
from zoneinfo import ZoneInfo

import segno
from fastapi import HTTPException, Request
from starlette.datastructures import FormData

from meldtour import application as usecases
from meldtour.store.db import Store
from meldtour.tournament import Tournament, TournamentError

from ...views import refusal_text
from ..audit_words import zone_of
from ..deps import gettext_of


def tournament_zone(request: Request, store: Store, slug: str) -> ZoneInfo:
    """The tournament's time zone: its template's place, else the site's
    (``MELDTOUR_TIME_ZONE``)."""
    settings = request.app.state.settings
    return zone_of(usecases.info(store, slug).template, settings.time_zone, settings.default_locale)


def division_or_404(t: Tournament, key: str) -> str:
    try:
        return t.division(key).key
    except TournamentError as exc:
        raise HTTPException(404, exc.refusal) from None


def refused(request: Request, exc: Exception) -> str:
    return refusal_text(exc, gettext_of(request))


def form_text(form: FormData, name: str, default: str = "", limit: int = 200) -> str:
    value = form.get(name)
    return " ".join(value.split())[:limit] if isinstance(value, str) else default


def form_number(form: FormData, name: str, default: int) -> int:
    value = form_text(form, name)
    return int(value) if value.isdigit() and len(value) < 6 else default


@functools.lru_cache(maxsize=1024)
def qr_data_uri(url: str) -> str:
    """The QR code of ``url`` as an SVG data URI. Made once per address (11 ms each:
    a round page of 24 tables spent a quarter of a second on them at every load, and
    a table's address does not change while its round lasts)."""
    return str(segno.make(url, error="m").svg_data_uri(scale=3, border=1))
