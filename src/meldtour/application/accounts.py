"""Director accounts: a name, a role and a password's hash, and who may change them.
Each function is one transaction.

The web hashes and checks passwords (argon2: :mod:`meldtour.web.security`)
and hands the use cases a :class:`Passwords`; the use cases decide who may do what,
with who acts (an :class:`Account`) as their first argument:

- a director changes their **own** password (knowing the current one), and ends
  their own other sessions;
- only the site's **administrator** (the first account) disables or enables an
  account, never their own.

A session cookie carries its account's *session epoch* (migration 0020): a changed
password, a disabled account and "end my other sessions" move the epoch on, so every
copy of an older cookie is refused from the next request on (:func:`signed_in`). Each
change is written to the site's audit log (entity ``account``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from meldtour.store import accounts as rows
from meldtour.store import owners as owner_rows
from meldtour.store import sessions as session_rows
from meldtour.store.db import Store
from meldtour.store.repository import now

from .errors import UseCaseError

#: The shortest password accepted.
MIN_PASSWORD = 10


@dataclass(frozen=True, slots=True)
class Account:
    id: int
    name: str
    role: str
    disabled: bool = False
    #: The session epoch: a session signed at another epoch is refused.
    epoch: int = 0


@dataclass(frozen=True, slots=True)
class AccountLine:
    """An account as the administrator's list shows it."""

    id: int
    name: str
    created_at: str
    disabled: bool
    administrator: bool


class Passwords(Protocol):
    """Hashing and checking passwords (the web's argon2)."""

    def hash(self, password: str) -> str: ...

    def verify(self, stored: str, password: str) -> bool: ...

    def waste_time(self, password: str) -> None:
        """As long as :meth:`verify` takes (a wrong name takes as long as a wrong
        password)."""


def _account(row: Any) -> Account:
    return Account(row.id, row.name, row.role, bool(row.disabled), int(row.session_epoch))


def count(store: Store) -> int:
    with store.transaction() as s:
        return rows.count(s)


def create(store: Store, name: str, password_hash: str, *, only_if_none: bool = False) -> Account:
    """A new director; with ``only_if_none``, only while there is no account at all
    (the first start), checked in the same transaction."""
    with store.transaction() as s:
        if only_if_none and rows.count(s):
            raise PermissionError("an account exists already")
        if rows.name_taken(s, name):
            raise ValueError(name)
        new_id = rows.add(
            s, name=name, password_hash=password_hash, role="director", created_at=now()
        )
        return Account(new_id, name, "director")


def find(store: Store, name: str) -> tuple[Account, str] | None:
    """The account of this name and its password's hash, or None."""
    with store.transaction() as s:
        row = rows.by_name(s, name)
    return None if row is None else (_account(row), row.password_hash)


def sign_in(store: Store, name: str, password: str, passwords: Passwords) -> Account | None:
    """The account of this name and password, or None; a disabled account is refused
    (``account.disabled``) once its password is right."""
    found = find(store, name)
    if found is None:
        passwords.waste_time(password)
        return None
    account, digest = found
    if not passwords.verify(digest, password):
        return None
    if account.disabled:
        raise UseCaseError("account.disabled", name=account.name)
    return account


def get(store: Store, account_id: int) -> Account | None:
    with store.transaction() as s:
        row = rows.by_id(s, account_id)
    return None if row is None else _account(row)


def signed_in(store: Store, account_id: int, epoch: int) -> Account | None:
    """The account of a session signed at ``epoch``, if that session still holds: the
    account exists, is not disabled, and its sessions were not ended since."""
    account = get(store, account_id)
    if account is None or account.disabled or account.epoch != epoch:
        return None
    return account


def _check_new(password: str, again: str) -> None:
    if len(password) < MIN_PASSWORD or password != again:
        raise UseCaseError("account.new_password", n=MIN_PASSWORD)


def change_password(
    store: Store, who: Account, current: str, password: str, again: str, passwords: Passwords
) -> Account:
    """``who`` changes their own password (knowing the current one); every other
    session of theirs ends. Returns the account at its new epoch (the caller signs the
    session it keeps again)."""
    _check_new(password, again)
    new_hash = passwords.hash(password)
    with store.transaction() as s:
        row = rows.by_id(s, who.id)
        if row is None or row.disabled:
            raise UseCaseError("account.disabled", name=who.name)
        if not passwords.verify(row.password_hash, current):
            raise UseCaseError("account.wrong_password")
        rows.set_password(s, who.id, new_hash)
        rows.next_epoch(s, who.id)
        rows.audit(s, at=now(), who=who.name, action="change_password", name=who.name)
        return _account(rows.by_id(s, who.id))


def end_other_sessions(store: Store, who: Account) -> Account:
    """End every session of ``who`` (copies of their cookie included); returns the
    account at its new epoch, for the caller to sign the session it keeps again."""
    with store.transaction() as s:
        if rows.by_id(s, who.id) is None:
            raise UseCaseError("account.no_account", name=who.name)
        rows.next_epoch(s, who.id)
        rows.audit(s, at=now(), who=who.name, action="end_sessions", name=who.name)
        return _account(rows.by_id(s, who.id))


def is_administrator(store: Store, who: Account) -> bool:
    with store.reading() as s:
        return rows.first_id(s) == who.id


def _administrator(s: Any, who: Account) -> None:
    if rows.first_id(s) != who.id:
        raise UseCaseError("account.administrator_only")


def set_disabled(store: Store, who: Account, account_id: int, disabled: bool) -> Account:
    """The administrator disables (``disabled``) or enables an account. Disabling
    ends its sessions at once; enabling does not bring them back."""
    with store.transaction() as s:
        _administrator(s, who)
        row = rows.by_id(s, account_id)
        if row is None:
            raise UseCaseError("account.no_account", name=f"#{account_id}")
        if account_id == who.id:
            raise UseCaseError("account.not_yourself")
        if bool(row.disabled) != disabled:
            rows.set_disabled(s, account_id, disabled)
            rows.next_epoch(s, account_id)
            rows.audit(
                s,
                at=now(),
                who=who.name,
                action="disable_account" if disabled else "enable_account",
                name=row.name,
                before={"disabled": bool(row.disabled)},
                after={"disabled": disabled},
            )
        return _account(rows.by_id(s, account_id))


def account_list(store: Store, who: Account) -> list[AccountLine]:
    """Every account, for the administrator."""
    with store.reading() as s:
        _administrator(s, who)
        first = rows.first_id(s)
        return [
            AccountLine(r.id, r.name, r.created_at, bool(r.disabled), r.id == first)
            for r in rows.every(s)
        ]


def account_log(store: Store, who: Account, limit: int = 100) -> list[dict[str, Any]]:
    """The site's audit lines of the accounts (the newest ``limit``), for the
    administrator; a director sees the lines of their own account."""
    with store.reading() as s:
        lines = rows.audit_lines(s, limit if rows.first_id(s) == who.id else 10 * limit)
        if rows.first_id(s) != who.id:
            lines = [x for x in lines if x["key"] == who.name][-limit:]
        return lines


# ---------------------------------------------------------------------------
# Sessions signed out (a copy of the cookie is refused after)


def session_ended(store: Store, nonce: str) -> bool:
    """Whether the session of this nonce was signed out."""
    return session_rows.is_revoked(store, nonce)


def end_session(store: Store, nonce: str, expires_at: int, at: int) -> None:
    """Record the session of this nonce as signed out (kept until it would expire)."""
    session_rows.revoke(store, nonce, expires_at, at)


# ---------------------------------------------------------------------------
# Who directs what


def may_direct(store: Store, slug: str, account_id: int) -> bool:
    """Whether the account may direct the tournament ``slug``: one of its directors or
    the site's administrator (who may open any, even one that does not exist: the page
    then answers 404)."""
    return owner_rows.may_direct(store, slug, account_id)


def tournaments_directed(store: Store, account_id: int) -> list[tuple[str, str, str]]:
    """(slug, name, date) of the tournaments the account may open, newest first."""
    return owner_rows.tournaments_of(store, account_id)


def directors_of(store: Store, slug: str) -> list[str]:
    """The names of the tournament's directors."""
    return owner_rows.directors(store, slug)


__all__ = [
    "MIN_PASSWORD",
    "Account",
    "AccountLine",
    "Passwords",
    "account_list",
    "account_log",
    "change_password",
    "count",
    "create",
    "directors_of",
    "end_other_sessions",
    "end_session",
    "find",
    "get",
    "is_administrator",
    "may_direct",
    "session_ended",
    "set_disabled",
    "sign_in",
    "signed_in",
    "tournaments_directed",
]
