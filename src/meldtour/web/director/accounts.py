"""Director accounts: a name and an argon2 hash, in the store's ``account`` table
(its migrations and backups cover it). The web app hashes and checks the passwords;
the accounts themselves are the application's (:mod:`meldtour.application.accounts`)."""

from __future__ import annotations

from meldtour.application import accounts as use
from meldtour.application.accounts import Account
from meldtour.store.db import Store

from .security import hash_password, verify_password, waste_time


def count(store: Store) -> int:
    return use.count(store)


def create(store: Store, name: str, password: str, *, only_if_none: bool = False) -> Account:
    """A new director; with ``only_if_none``, only while there is no account at all
    (the first start), checked in the same transaction."""
    digest = hash_password(password)
    return use.create(store, name, digest, only_if_none=only_if_none)


def authenticate(store: Store, name: str, password: str) -> Account | None:
    found = use.find(store, name)
    if found is None:
        waste_time(password)
        return None
    account, digest = found
    if not verify_password(digest, password):
        return None
    return account


def get(store: Store, account_id: int) -> Account | None:
    return use.get(store, account_id)


__all__ = ["Account", "authenticate", "count", "create", "get"]
