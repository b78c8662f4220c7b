"""The web app's database: opened once, given the schema if it is new, refused if old.

Below the game pages (:mod:`meldtour.web.routes.play`) and the director's app
(:mod:`meldtour.web.director`), which open their store here; the opening itself is the
application's (:func:`meldtour.application.maintenance.open_or_create_site`).
"""

from __future__ import annotations

from meldtour.application.maintenance import open_or_create_site
from meldtour.store.db import Store


def open_web_store(url: str | None) -> Store:
    """Open the store at ``url``. A new, empty database gets the schema (first start);
    any other database must already have this meldtour's schema: an old one is refused
    with the message naming ``meldtour db upgrade`` (:class:`SchemaError`)."""
    return open_or_create_site(url)


__all__ = ["open_web_store"]
