"""Director accounts: a name and an argon2 hash, in the store's ``account`` table
(its migrations and backups cover it)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import CursorResult, func, insert, select

from meldtour.store.db import Store
from meldtour.store.models import Account as AccountRow
from meldtour.store.repository import now

from .security import hash_password, verify_password, waste_time

accounts = AccountRow.__table__


@dataclass(frozen=True, slots=True)
class Account:
    id: int
    name: str
    role: str


def count(store: Store) -> int:
    with store.transaction() as s:
        return int(s.scalar(select(func.count()).select_from(accounts)) or 0)


def create(store: Store, name: str, password: str, *, only_if_none: bool = False) -> Account:
    """A new director; with ``only_if_none``, only while there is no account at all
    (the first start), checked in the same transaction."""
    digest = hash_password(password)
    with store.transaction() as s:
        if only_if_none and s.scalar(select(func.count()).select_from(accounts)):
            raise PermissionError("an account exists already")
        if s.scalar(select(accounts.c.id).where(accounts.c.name == name)) is not None:
            raise ValueError(name)
        result = s.execute(insert(AccountRow).values(
            name=name, password_hash=digest, role="director", created_at=now()))
        assert isinstance(result, CursorResult)
        new_id = result.inserted_primary_key
        assert new_id is not None
        return Account(int(new_id[0]), name, "director")


def authenticate(store: Store, name: str, password: str) -> Account | None:
    with store.transaction() as s:
        row = s.execute(select(accounts).where(accounts.c.name == name)).first()
    if row is None:
        waste_time(password)
        return None
    if not verify_password(row.password_hash, password):
        return None
    return Account(row.id, row.name, row.role)


def get(store: Store, account_id: int) -> Account | None:
    with store.transaction() as s:
        row = s.execute(select(accounts).where(accounts.c.id == account_id)).first()
    return None if row is None else Account(row.id, row.name, row.role)
