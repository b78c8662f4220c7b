from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.store.backends import database

from .test_cluster import REDIS, redis_available


@pytest.fixture
def pg_url(tmp_path: Path) -> Iterator[str]:
    """An empty PostgreSQL database for server processes sharing games through Redis
    (skipped when either does not answer)."""
    if not redis_available():
        pytest.skip(f"Redis does not answer at {REDIS}")
    with database("postgresql", tmp_path) as url:
        yield url
