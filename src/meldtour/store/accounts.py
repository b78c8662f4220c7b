"""Director accounts, as rows of the ``account`` table: a name and an argon2 hash (its
migrations and backups cover it).

Functions of a session (a unit of work the caller runs); the application layer
(:mod:`meldtour.application.accounts`) runs them.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import CursorResult, func, insert, select

from .models import Account as AccountRow

accounts = AccountRow.__table__


def count(s: Any) -> int:
    return int(s.scalar(select(func.count()).select_from(accounts)) or 0)


def name_taken(s: Any, name: str) -> bool:
    return s.scalar(select(accounts.c.id).where(accounts.c.name == name)) is not None


def add(s: Any, *, name: str, password_hash: str, role: str, created_at: str) -> int:
    """A new account's row; returns its id."""
    result = s.execute(insert(AccountRow).values(
        name=name, password_hash=password_hash, role=role, created_at=created_at))
    assert isinstance(result, CursorResult)
    new_id = result.inserted_primary_key
    assert new_id is not None
    return int(new_id[0])


def by_name(s: Any, name: str) -> Any:
    """The account's row (id, name, role, password_hash), or None."""
    return s.execute(select(accounts).where(accounts.c.name == name)).first()


def by_id(s: Any, account_id: int) -> Any:
    return s.execute(select(accounts).where(accounts.c.id == account_id)).first()


__all__ = ["add", "by_id", "by_name", "count", "name_taken"]
