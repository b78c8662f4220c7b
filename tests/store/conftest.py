from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from meldtour.store.db import Store

from .backends import BACKENDS, database, upgraded


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database's URL, on each backend."""
    with database(request.param, tmp_path) as url:
        yield url


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    """A store at the current schema."""
    with upgraded(db_url) as s:
        yield s
