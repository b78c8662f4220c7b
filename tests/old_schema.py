"""Rows written into a database at an old schema revision (the migration tests): with
the SQL toolkit's insert and only the columns given, since the ORM's models have the
newest schema's columns."""

from __future__ import annotations

from typing import Any

from sqlalchemy import insert

from meldtour.store.models import TournamentRow


def old_row(s: Any, model: Any, **values: Any) -> int:
    """A row of ``model``'s table of only these columns; its id."""
    result = s.execute(insert(model.__table__).values(**values))
    return int(result.inserted_primary_key[0])


def old_tournament(s: Any, **values: Any) -> int:
    """A tournament row of only these columns; its id."""
    return old_row(s, TournamentRow, **values)
