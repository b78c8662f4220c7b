"""Settings of the store: where the database is.

``MELDTOUR_DATABASE_URL`` names the database (an SQLAlchemy URL, for instance
``postgresql+psycopg://meldtour@db.example/meldtour``). Without it, meldtour uses the
embedded SQLite database ``var/meldtour.db`` under the current directory, in WAL mode.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Final

ENV_URL: Final = "MELDTOUR_DATABASE_URL"
DEFAULT_PATH: Final = Path("var") / "meldtour.db"


def database_url(explicit: str | None = None) -> str:
    """The database to use: ``explicit`` (``--db``), else ``MELDTOUR_DATABASE_URL``,
    else ``sqlite:///var/meldtour.db``.

    >>> database_url("sqlite:///x.db")
    'sqlite:///x.db'
    """
    if explicit:
        return normalise_url(explicit)
    env = os.environ.get(ENV_URL, "").strip()
    if env:
        return normalise_url(env)
    return f"sqlite:///{DEFAULT_PATH.as_posix()}"


def normalise_url(url: str) -> str:
    """``postgresql://`` and ``postgres://`` mean the psycopg 3 driver; a bare path
    means an SQLite file.

    >>> normalise_url("postgresql://u@h/db")
    'postgresql+psycopg://u@h/db'
    >>> normalise_url("var/x.db")
    'sqlite:///var/x.db'
    """
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    if "://" not in url:
        return f"sqlite:///{url}"
    return url
