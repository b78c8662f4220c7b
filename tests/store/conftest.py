from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from meldtour.store.db import Store, make_engine, open_store, upgrade

from .backends import BACKENDS, database


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database's URL, on each backend."""
    with database(request.param, tmp_path) as url:
        yield url


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    """A store at the current schema."""
    engine = make_engine(db_url)
    upgrade(engine)
    engine.dispose()
    s = open_store(db_url)
    yield s
    s.close()
