"""The installation's own settings (migration 0013): a key and a text value each.

One setting so far, ``public_address``: the address that phones at the venue open
(the score sheets' QR codes, the vote poster, the players' links). It belongs to the
installation rather than to a tournament: the laptop that serves the day has one
address on the venue's network, whichever tournaments it runs.

Plain values in and out; every function takes a :class:`~meldtour.store.db.Store`
and runs one transaction.
"""

from __future__ import annotations

from sqlalchemy import String, Text, select
from sqlalchemy.orm import Mapped, mapped_column

from .db import Store
from .models import Base


class SiteSettingRow(Base):
    """One setting of the installation."""

    __tablename__ = "site_setting"
    key: Mapped[str] = mapped_column(String(64), primary_key=True, autoincrement=False)
    value: Mapped[str] = mapped_column(Text)
    updated_at: Mapped[str] = mapped_column(String(40))
    updated_by: Mapped[str] = mapped_column(String(80))


def get(store: Store, key: str) -> str | None:
    """The setting ``key``, or None when it was never set (or was cleared)."""
    with store.reading() as s:
        return s.scalar(select(SiteSettingRow.value).where(SiteSettingRow.key == key))


def put(store: Store, key: str, value: str | None, *, at: str, who: str) -> None:
    """Set ``key`` to ``value``; None clears it."""
    with store.transaction() as s:
        row = s.get(SiteSettingRow, key)
        if value is None:
            if row is not None:
                s.delete(row)
            return
        if row is None:
            s.add(SiteSettingRow(key=key, value=value, updated_at=at, updated_by=who[:80]))
        else:
            row.value, row.updated_at, row.updated_by = value, at, who[:80]


__all__ = ["SiteSettingRow", "get", "put"]
