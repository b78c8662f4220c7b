"""The web app's database: opened once, given the schema if it is new, refused if old.

Below both the game pages (:mod:`meldtour.web.play`) and the director's app
(:mod:`meldtour.web.director`), which open their store here.
"""

from __future__ import annotations

from sqlalchemy import inspect

from meldtour.store.db import Store, check_schema, current_revision, make_engine, upgrade


def open_web_store(url: str) -> Store:
    """Open the store at ``url``. A new, empty database gets the schema (first start);
    any other database must already have this meldtour's schema: an old one is refused
    with the message naming ``meldtour db upgrade`` (:class:`SchemaError`)."""
    engine = make_engine(url)
    try:
        if current_revision(engine) is None and not inspect(engine).get_table_names():
            upgrade(engine)
        check_schema(engine)
    except Exception:
        engine.dispose()
        raise
    return Store(engine)


__all__ = ["open_web_store"]
