"""The databases the store's tests run on: SQLite always, PostgreSQL whenever it
answers (127.0.0.1:5432, database ``test``; ``MELDTOUR_TEST_PG`` overrides). Each test
gets its own SQLite file or its own PostgreSQL schema, dropped afterwards, so parallel
runs and reruns never meet."""

from __future__ import annotations

import functools
import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from meldtour.store.db import Store, make_engine, open_store, upgrade

PG_URL = os.environ.get("MELDTOUR_TEST_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
BACKENDS = ("sqlite", "postgresql")


@functools.cache
def pg_available() -> bool:
    try:
        engine = create_engine(PG_URL, connect_args={"connect_timeout": 3})
        with engine.connect() as conn:
            conn.execute(text("select 1"))
        engine.dispose()
        return True
    except Exception:
        return False


@contextmanager
def database(kind: str, tmp: Path) -> Iterator[str]:
    """A fresh, empty database of ``kind``; yields its URL."""
    if kind == "sqlite":
        yield f"sqlite:///{tmp / f'meldtour-{uuid.uuid4().hex[:8]}.db'}"
        return
    if not pg_available():
        pytest.skip(f"PostgreSQL does not answer at {PG_URL}")
    schema = f"mt_{uuid.uuid4().hex[:16]}"
    admin = create_engine(PG_URL)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield f"{PG_URL}?options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@contextmanager
def upgraded(url: str) -> Iterator[Store]:
    """A store on the database at ``url``, migrated to the current schema; closed
    afterwards."""
    engine = make_engine(url)
    upgrade(engine)
    engine.dispose()
    store = open_store(url)
    try:
        yield store
    finally:
        store.close()
