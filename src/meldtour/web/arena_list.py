"""The arenas the lobby lists (open, to come, or over within the hour), for the lobby
and the arenas' pages alike (:mod:`meldtour.web.routes.arena`)."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any

from fastapi import Request

from meldtour.application import arena as arenas

from .deps import get_web
from .times import zone_of


def when(request: Request, at: float) -> str:
    settings = request.app.state.settings
    zone = zone_of("", settings.time_zone, settings.default_locale)
    return datetime.fromtimestamp(at, UTC).astimezone(zone).strftime("%Y-%m-%d %H:%M")


def listed(request: Request) -> list[dict[str, Any]]:
    """The arenas the lobby lists: open, to come, or over within the hour."""
    now = time.time()
    return [
        {
            "id": a.id,
            "name": a.name,
            "preset": a.preset,
            "turn_seconds": a.turn_seconds,
            "open": a.open_at(now),
            "over": a.over_at(now),
            "ends": when(request, a.ends_at),
            "starts": when(request, a.starts_at),
        }
        for a in arenas.listed(get_web(request).store(), now)
    ]


__all__ = ["listed", "when"]
