"""Director accounts, as rows of the ``account`` table: a name and an argon2 hash (its
migrations and backups cover it).

Functions of a session (a unit of work the caller runs); the application layer
(:mod:`meldtour.application.accounts`) runs them.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import CursorResult, func, insert, select, update

from .models import Account as AccountRow
from .models import AuditRow

accounts = AccountRow.__table__


def count(s: Any) -> int:
    return int(s.scalar(select(func.count()).select_from(accounts)) or 0)


def name_taken(s: Any, name: str) -> bool:
    return s.scalar(select(accounts.c.id).where(accounts.c.name == name)) is not None


def add(s: Any, *, name: str, password_hash: str, role: str, created_at: str) -> int:
    """A new account's row; returns its id."""
    result = s.execute(
        insert(AccountRow).values(
            name=name, password_hash=password_hash, role=role, created_at=created_at
        )
    )
    assert isinstance(result, CursorResult)
    new_id = result.inserted_primary_key
    assert new_id is not None
    return int(new_id[0])


def by_name(s: Any, name: str) -> Any:
    """The account's row (id, name, role, password_hash), or None."""
    return s.execute(select(accounts).where(accounts.c.name == name)).first()


def by_id(s: Any, account_id: int) -> Any:
    return s.execute(select(accounts).where(accounts.c.id == account_id)).first()


def every(s: Any) -> list[Any]:
    """Every account's row, oldest first (the first is the administrator)."""
    return list(s.execute(select(accounts).order_by(accounts.c.id)))


def first_id(s: Any) -> int | None:
    """The administrator's id: the first account's."""
    found = s.scalar(select(func.min(accounts.c.id)))
    return None if found is None else int(found)


def set_password(s: Any, account_id: int, password_hash: str) -> None:
    s.execute(
        update(AccountRow).where(AccountRow.id == account_id).values(password_hash=password_hash)
    )


def set_disabled(s: Any, account_id: int, disabled: bool) -> None:
    s.execute(update(AccountRow).where(AccountRow.id == account_id).values(disabled=disabled))


def next_epoch(s: Any, account_id: int) -> int:
    """Move the account's session epoch on (every session signed before is refused);
    returns the new epoch."""
    s.execute(
        update(AccountRow)
        .where(AccountRow.id == account_id)
        .values(session_epoch=AccountRow.session_epoch + 1)
    )
    return int(s.scalar(select(accounts.c.session_epoch).where(accounts.c.id == account_id)))


def audit(
    s: Any, *, at: str, who: str, action: str, name: str, before: Any = None, after: Any = None
) -> None:
    """An audit line of the site's accounts (no tournament's): ``name`` is the account
    changed."""
    s.add(
        AuditRow(
            at=at,
            who=who,
            action=action,
            tournament_id=None,
            entity="account",
            key=name,
            before=before,
            after=after,
            why="",
        )
    )


def audit_lines(s: Any, limit: int = 100) -> list[dict[str, Any]]:
    """The newest audit lines of the accounts, oldest first."""
    found = s.scalars(
        select(AuditRow)
        .where(AuditRow.tournament_id.is_(None), AuditRow.entity == "account")
        .order_by(AuditRow.id.desc())
        .limit(limit)
    )
    return [
        {
            "id": a.id,
            "at": a.at,
            "who": a.who,
            "action": a.action,
            "entity": a.entity,
            "key": a.key,
            "before": a.before,
            "after": a.after,
            "why": a.why,
        }
        for a in reversed(list(found))
    ]


__all__ = [
    "add",
    "audit",
    "audit_lines",
    "by_id",
    "by_name",
    "count",
    "every",
    "first_id",
    "name_taken",
    "next_epoch",
    "set_disabled",
    "set_password",
]
