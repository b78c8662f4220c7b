"""Director accounts: a name and an argon2 hash, in the store's ``account`` table
(its migrations and backups cover it). The web app hashes and checks the passwords
(:data:`PASSWORDS`); the accounts themselves, and who may change them, are the
application's (:mod:`meldtour.application.accounts`)."""

from __future__ import annotations

from meldtour.application import accounts as use
from meldtour.application.accounts import Account
from meldtour.store.db import Store

from ..security import PASSWORDS, hash_password


def count(store: Store) -> int:
    return use.count(store)


def create(store: Store, name: str, password: str, *, only_if_none: bool = False) -> Account:
    """A new director; with ``only_if_none``, only while there is no account at all
    (the first start), checked in the same transaction."""
    digest = hash_password(password)
    return use.create(store, name, digest, only_if_none=only_if_none)


def authenticate(store: Store, name: str, password: str) -> Account | None:
    """The account of this name and password, or None; a disabled account is refused
    (:class:`~meldtour.application.UseCaseError` ``account.disabled``)."""
    return use.sign_in(store, name, password, PASSWORDS)


def get(store: Store, account_id: int) -> Account | None:
    return use.get(store, account_id)


def signed_in(store: Store, account_id: int, epoch: int) -> Account | None:
    return use.signed_in(store, account_id, epoch)


__all__ = ["PASSWORDS", "Account", "authenticate", "count", "create", "get", "signed_in"]
