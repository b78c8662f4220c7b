"""Signed-out sessions (migration 0009).

A director's session is a signed cookie holding the account, an expiry and a random
nonce; signing out records the nonce here until the cookie would have expired, so a
copy of the cookie taken before is refused from then on. Rows past their expiry are
removed as new ones are written.

Plain values in and out; every function takes a :class:`~meldtour.store.db.Store`
and runs one transaction.
"""

from __future__ import annotations

from sqlalchemy import Integer, String, delete, select
from sqlalchemy.orm import Mapped, mapped_column

from .db import Store
from .models import Base


class RevokedSessionRow(Base):
    """A session signed out before its expiry."""

    __tablename__ = "revoked_session"
    nonce: Mapped[str] = mapped_column(String(64), primary_key=True, autoincrement=False)
    #: When the cookie expires (Unix seconds): the row may go after that.
    expires_at: Mapped[int] = mapped_column(Integer, index=True)


def revoke(store: Store, nonce: str, expires_at: int, now: int) -> None:
    """Refuse the session ``nonce`` from now on (until ``expires_at``)."""
    with store.transaction() as s:
        s.execute(delete(RevokedSessionRow).where(RevokedSessionRow.expires_at < now))
        if s.get(RevokedSessionRow, nonce[:64]) is None:
            s.add(RevokedSessionRow(nonce=nonce[:64], expires_at=expires_at))


def is_revoked(store: Store, nonce: str) -> bool:
    with store.reading() as s:
        return (
            s.scalar(select(RevokedSessionRow.nonce).where(RevokedSessionRow.nonce == nonce[:64]))
            is not None
        )


__all__ = ["RevokedSessionRow", "is_revoked", "revoke"]
