"""The database's upkeep, for the adapters: opening the site's store (the command
line's ``--db``, ``MELDTOUR_DATABASE_URL`` or the default SQLite file), its schema's
revision and migrations, a backup to JSON and a restore into an empty database.

The web and the command line take nothing of the store but its :class:`Store` type
and its errors (:mod:`meldtour.store.errors`); what they need of the database as a
whole is here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from meldtour.store import backup as backups
from meldtour.store.config import database_url
from meldtour.store.db import (
    Store,
    current_revision,
    head_revision,
    make_engine,
    open_or_create,
    open_store,
    upgrade,
)


def open_site(url: str | None = None, *, check: bool = True) -> Store:
    """The store at ``url`` (else ``MELDTOUR_DATABASE_URL``, else the default file),
    its schema checked unless ``check`` is false (a restore into an empty database)."""
    return open_store(url, check=check)


def open_or_create_site(url: str | None = None) -> Store:
    """The store at ``url``; a new, empty database gets the schema (the web's first
    start); any other must already have this meldtour's schema (:class:`SchemaError`)."""
    return open_or_create(database_url(url))


def backup(store: Store) -> str:
    """The whole database as JSON text (:mod:`meldtour.store.backup`)."""
    return backups.dumps(store)


def restore(store: Store, data: Any) -> dict[str, int]:
    """Load a backup into an empty database; the rows written per table."""
    return backups.restore(store, data)


@dataclass(frozen=True, slots=True)
class Schema:
    """A database's schema: where (the URL, without its password), the revision it
    has and the one this meldtour needs; ``before`` after an upgrade."""

    where: str
    current: str | None
    head: str
    before: str | None = None

    @property
    def is_current(self) -> bool:
        return self.current == self.head


def _where(url: str | None) -> tuple[Any, str]:
    engine = make_engine(database_url(url))
    return engine, engine.url.render_as_string(hide_password=True)


def where(url: str | None = None) -> str:
    """The database's URL as it may be shown (without its password)."""
    engine, shown = _where(url)
    engine.dispose()
    return shown


def schema_status(url: str | None = None) -> Schema:
    """The database's schema revision and the one this meldtour needs."""
    engine, shown = _where(url)
    try:
        return Schema(shown, current_revision(engine), head_revision())
    finally:
        engine.dispose()


def upgrade_schema(url: str | None = None) -> Schema:
    """Apply the schema's migrations; ``before`` is the revision it had."""
    engine, shown = _where(url)
    try:
        before, after = upgrade(engine)
        return Schema(shown, after, head_revision(), before)
    finally:
        engine.dispose()


__all__ = [
    "Schema",
    "backup",
    "database_url",
    "open_or_create_site",
    "open_site",
    "restore",
    "schema_status",
    "upgrade_schema",
    "where",
]
