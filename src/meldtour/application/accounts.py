"""Director accounts: a name, a role and a password's hash (the web app hashes and
checks passwords: :mod:`meldtour.web.director.accounts`). Each function is one
transaction."""

from __future__ import annotations

from dataclasses import dataclass

from meldtour.store import accounts as rows
from meldtour.store.db import Store
from meldtour.store.repository import now


@dataclass(frozen=True, slots=True)
class Account:
    id: int
    name: str
    role: str


def count(store: Store) -> int:
    with store.transaction() as s:
        return rows.count(s)


def create(store: Store, name: str, password_hash: str, *,
           only_if_none: bool = False) -> Account:
    """A new director; with ``only_if_none``, only while there is no account at all
    (the first start), checked in the same transaction."""
    with store.transaction() as s:
        if only_if_none and rows.count(s):
            raise PermissionError("an account exists already")
        if rows.name_taken(s, name):
            raise ValueError(name)
        new_id = rows.add(s, name=name, password_hash=password_hash, role="director",
                          created_at=now())
        return Account(new_id, name, "director")


def find(store: Store, name: str) -> tuple[Account, str] | None:
    """The account of this name and its password's hash, or None."""
    with store.transaction() as s:
        row = rows.by_name(s, name)
    return None if row is None else (Account(row.id, row.name, row.role), row.password_hash)


def get(store: Store, account_id: int) -> Account | None:
    with store.transaction() as s:
        row = rows.by_id(s, account_id)
    return None if row is None else Account(row.id, row.name, row.role)


__all__ = ["Account", "count", "create", "find", "get"]
