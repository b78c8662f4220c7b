"""Alembic's environment, configured in code by :func:`meldtour.store.db.alembic_config`.

The caller passes an open connection in ``config.attributes["connection"]``.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, text

from meldtour.store.db import make_engine
from meldtour.store.models import Base

config = context.config
target_metadata = Base.metadata


#: The PostgreSQL advisory lock the migrations hold (an arbitrary number of meldtour's).
MIGRATION_LOCK = 0x6D656C64  # "meld"


def _one_at_a_time(conn: Connection) -> None:
    """Two processes started at once on one new database must not both create its
    tables (the second failed on a duplicate type): on PostgreSQL the migrations hold
    an advisory lock until their transaction ends, so the second waits, then finds the
    schema current. SQLite's writers queue by themselves."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})


def run() -> None:
    connection = config.attributes.get("connection")
    if connection is None:
        url = config.get_main_option("sqlalchemy.url")
        if not url:
            raise RuntimeError("pass a connection (meldtour.store.db.upgrade) or a URL")
        with make_engine(url).begin() as conn:
            _one_at_a_time(conn)
            context.configure(
                connection=conn, target_metadata=target_metadata, render_as_batch=True
            )
            with context.begin_transaction():
                context.run_migrations()
        return
    _one_at_a_time(connection)
    context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    raise RuntimeError("meldtour runs its migrations online: `meldtour db upgrade`")
run()
