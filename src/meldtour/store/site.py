"""The installation's own settings (migration 0013): a key and a text value each.

Two settings so far: ``public_address``, the address that phones at the venue open
(the score sheets' QR codes, the vote poster, the players' links), and
``network_opened``, when a director first signed in on the computer that runs the app
(from then on the director's pages answer the venue's network). They belong to the
installation rather than to a tournament: the laptop that serves the day has one
address on the venue's network, whichever tournaments it runs.

Plain values in and out; :func:`get`, :func:`entry` and :func:`put` take a
:class:`~meldtour.store.db.Store` and run one transaction; :func:`read` and
:func:`write` are the same in a unit of work the caller runs (the application layer,
to write the audit line in the same transaction).
"""

from __future__ import annotations

from typing import Any

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
        return read(s, key)


def entry(store: Store, key: str) -> tuple[str, str, str] | None:
    """The setting ``key`` with when and by whom it was set: (value, at, who)."""
    with store.reading() as s:
        row = s.get(SiteSettingRow, key)
        return None if row is None else (row.value, row.updated_at, row.updated_by)


def put(store: Store, key: str, value: str | None, *, at: str, who: str) -> None:
    """Set ``key`` to ``value``; None clears it."""
    with store.transaction() as s:
        write(s, key, value, at=at, who=who)


def read(s: Any, key: str) -> str | None:
    """:func:`get` in the caller's unit of work."""
    value: str | None = s.scalar(select(SiteSettingRow.value).where(SiteSettingRow.key == key))
    return value


def write(s: Any, key: str, value: str | None, *, at: str, who: str) -> None:
    """:func:`put` in the caller's unit of work."""
    row = s.get(SiteSettingRow, key)
    if value is None:
        if row is not None:
            s.delete(row)
        return
    if row is None:
        s.add(SiteSettingRow(key=key, value=value, updated_at=at, updated_by=who[:80]))
    else:
        row.value, row.updated_at, row.updated_by = value, at, who[:80]


__all__ = ["SiteSettingRow", "entry", "get", "put", "read", "write"]
