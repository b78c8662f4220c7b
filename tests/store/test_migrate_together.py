"""Two server processes started at once on a new PostgreSQL database both migrate it
(bench/server.py --servers 2 met this: one failed with a duplicate alembic_version
type): the migrations take a lock, so the others wait and find nothing to do."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from meldtour.store.db import current_revision, head_revision, make_engine

from .backends import database

MIGRATE = (
    "import sys; from meldtour.store.db import make_engine, upgrade; "
    "upgrade(make_engine(sys.argv[1]))"
)


def test_processes_migrating_one_new_database_at_once_all_succeed(tmp_path: Path) -> None:
    with database("postgresql", tmp_path) as url:
        runs = [
            subprocess.Popen(
                [sys.executable, "-c", MIGRATE, url], stderr=subprocess.PIPE, text=True
            )
            for _ in range(3)
        ]
        errors = [r.communicate(timeout=120)[1] for r in runs]
        assert [r.returncode for r in runs] == [0, 0, 0], errors
        engine = make_engine(url)
        try:
            assert current_revision(engine) == head_revision()
        finally:
            engine.dispose()
