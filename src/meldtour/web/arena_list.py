"""The arenas the lobby lists (open, to come, or over within the hour), for the lobby
and the arenas' pages alike (:mod:`meldtour.web.routes.arena`)."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any

from fastapi import Request

from meldtour.application import arena as arenas
from meldtour.live.log import StoreLog

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


def arena_of_game(request: Request, game_id: str) -> dict[str, str] | None:
    """The arena a table's game counts in, for a link back to its page (None too when
    the games are not logged in the site's database: no arena then)."""
    if not isinstance(request.app.state.live.log, StoreLog):
        return None
    found = arenas.of_game(get_web(request).store(), game_id)
    return None if found is None else {"id": found.id, "name": found.name}


__all__ = ["arena_of_game", "listed", "when"]
