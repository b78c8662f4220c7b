"""Alembic's environment, configured in code by :func:`meldtour.store.db.alembic_config`.

The caller passes an open connection in ``config.attributes["connection"]``.
"""

from __future__ import annotations

from alembic import context

from meldtour.store.db import make_engine
from meldtour.store.models import Base

config = context.config
target_metadata = Base.metadata


def run() -> None:
    connection = config.attributes.get("connection")
    if connection is None:
        url = config.get_main_option("sqlalchemy.url")
        if not url:
            raise RuntimeError("pass a connection (meldtour.store.db.upgrade) or a URL")
        with make_engine(url).begin() as conn:
            context.configure(connection=conn, target_metadata=target_metadata,
                              render_as_batch=True)
            with context.begin_transaction():
                context.run_migrations()
        return
    context.configure(connection=connection, target_metadata=target_metadata,
                      render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    raise RuntimeError("meldtour runs its migrations online: `meldtour db upgrade`")
run()
