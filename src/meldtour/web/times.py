"""Times as people read them: a tournament's time zone (its template's place, else the
site's), the zone's name in the reader's words, and a stored UTC time as local time.
Shared by the director's pages (the audit log, the vote sources) and the public ones
(a player's games)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from meldtour.tournament.templates import TEMPLATE_ZONES

from .i18n import N_

Gettext = Callable[[str], str]

#: Zones by their names on the page.
ZONE_NAMES: Mapping[str, str] = {
    "Asia/Seoul": N_("Korea time"),
    "Asia/Tokyo": N_("Japan time"),
    "UTC": N_("UTC"),
}
#: The site's zone by its default language, when ``MELDTOUR_TIME_ZONE`` is not set.
LOCALE_ZONES: Mapping[str, str] = {"ko": "Asia/Seoul", "ja": "Asia/Tokyo", "en": "UTC"}


def zone_of(template: str, site_zone: str | None, default_locale: str) -> ZoneInfo:
    """A tournament's time zone: its template's place (Busan: Asia/Seoul; the Japanese
    championship and the club night: Asia/Tokyo), else the site's
    (``MELDTOUR_TIME_ZONE``, else by the site's default language)."""
    name = TEMPLATE_ZONES.get(template) or site_zone or LOCALE_ZONES.get(default_locale, "UTC")
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def zone_name(zone: ZoneInfo, gettext: Gettext) -> str:
    label = ZONE_NAMES.get(zone.key)
    return gettext(label) if label else zone.key


def local_time(
    at: str | None, zone: ZoneInfo, with_date: bool = True, *, seconds: bool = False
) -> str:
    """An ISO time in UTC (the store's) as the zone's local ``YYYY-MM-DD HH:MM``
    (``HH:MM:SS`` with ``seconds``)."""
    if not at:
        return ""
    try:
        when = datetime.fromisoformat(at.replace("Z", "+00:00"))
    except ValueError:
        return at[:16].replace("T", " ")
    if when.tzinfo is None:
        from datetime import UTC

        when = when.replace(tzinfo=UTC)
    clock = "%H:%M:%S" if seconds else "%H:%M"
    return when.astimezone(zone).strftime(f"%Y-%m-%d {clock}" if with_date else clock)


__all__ = ["LOCALE_ZONES", "ZONE_NAMES", "local_time", "zone_name", "zone_of"]
