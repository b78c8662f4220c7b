"""A whole database as one JSON document, and back.

``dump`` writes every table of :mod:`.models`, rows ordered by primary key, with the
schema revision; ``restore`` loads such a document into an empty database at the
same schema. Dump → restore → dump gives the same text, on SQLite and PostgreSQL
alike (every value is an integer, text, a boolean, a float or JSON).
"""

from __future__ import annotations

import json
from typing import Any, Final

from sqlalchemy import func, insert, select, text

from .db import Store, StoreError, current_revision, head_revision, upgrade
from .models import Base

FORMAT: Final = "meldtour-backup"
FORMAT_VERSION: Final = 1


def dump(store: Store) -> dict[str, Any]:
    """The database as a JSON-able dict."""
    tables: dict[str, Any] = {}
    with store.transaction() as s:
        for table in Base.metadata.sorted_tables:
            cols = [c.name for c in table.columns]
            order = [c for c in table.primary_key.columns]
            rows = s.execute(select(*table.columns).order_by(*order)).all()
            tables[table.name] = {"columns": cols, "rows": [list(r) for r in rows]}
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "schema": current_revision(store.engine),
        "tables": tables,
    }


def dumps(store: Store) -> str:
    return json.dumps(dump(store), ensure_ascii=False, indent=1) + "\n"


def is_empty(store: Store) -> bool:
    with store.transaction() as s:
        for table in Base.metadata.sorted_tables:
            if s.scalar(select(func.count()).select_from(table)):
                return False
    return True


def restore(store: Store, data: dict[str, Any], *, tick: Any = None) -> dict[str, int]:
    """Load a dump into an empty database (its schema brought to the dump's first).
    All or nothing. Returns the rows restored per table."""
    if data.get("format") != FORMAT:
        raise StoreError("store.not_a_backup")
    if data.get("version") != FORMAT_VERSION:
        raise StoreError("store.backup_format", version=str(data.get("version")))
    if data.get("schema") != head_revision():
        raise StoreError(
            "store.backup_schema", schema=str(data.get("schema")), head=head_revision()
        )
    if current_revision(store.engine) != head_revision():
        upgrade(store.engine)
    if not is_empty(store):
        raise StoreError("store.restore_not_empty")
    counts: dict[str, int] = {}
    tables = data["tables"]
    with store.transaction() as s:
        for table in Base.metadata.sorted_tables:
            part = tables.get(table.name, {"columns": [], "rows": []})
            cols = part["columns"]
            known = {c.name for c in table.columns}
            if set(cols) - known:
                raise StoreError(
                    "store.backup_columns",
                    table=table.name,
                    columns=", ".join(sorted(set(cols) - known)),
                )
            rows = [dict(zip(cols, r, strict=True)) for r in part["rows"]]
            for i in range(0, len(rows), 1000):
                s.execute(insert(table), rows[i : i + 1000])
            counts[table.name] = len(rows)
            if tick:
                tick()
        if store.dialect == "postgresql":
            for table in Base.metadata.sorted_tables:
                pk = list(table.primary_key.columns)
                if len(pk) == 1 and pk[0].autoincrement is not False and table.name != "rating":
                    name, col = table.name, pk[0].name
                    s.execute(
                        text(
                            f"SELECT setval(pg_get_serial_sequence('\"{name}\"', '{col}'), "
                            f'COALESCE((SELECT MAX({col}) FROM "{name}"), 0) + 1, false)'
                        )
                    )
    return counts
