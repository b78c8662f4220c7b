"""The web app's database: opened once, given the schema if it is new, refused if old.

Below the game pages (:mod:`meldtour.web.routes.play`) and the director's app
(:mod:`meldtour.web.director`), which open their store here; the opening itself is the
store's (:func:`meldtour.store.db.open_or_create`).
"""

from __future__ import annotations

from meldtour.store.db import Store, open_or_create


def open_web_store(url: str) -> Store:
    """Open the store at ``url``. A new, empty database gets the schema (first start);
    any other database must already have this meldtour's schema: an old one is refused
    with the message naming ``meldtour db upgrade`` (:class:`SchemaError`)."""
    return open_or_create(url)


__all__ = ["open_web_store"]
