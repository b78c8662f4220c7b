"""Who directs which tournament (migration 0006).

``tournament_director`` holds one row per (tournament, account): the account that
created the tournament (from a template, from scratch, the demo) and every
co-director a director of it added. The site's **administrator** is the first account
(the one made at the first start: the lowest account id); it may open every
tournament, including those with no director recorded (made before this table, or on
the command line, which is a local operator's tool and stays unrestricted).

Plain values in and out; every function takes a :class:`~meldtour.store.db.Store`
and runs one transaction.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import ForeignKey, String, exists, func, select
from sqlalchemy.orm import Mapped, mapped_column

from .db import Store, StoreError
from .models import Account, Base, TournamentRow
from .repository import now


class TournamentDirectorRow(Base):
    """One director of one tournament."""

    __tablename__ = "tournament_director"
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournament.id"), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("account.id"), primary_key=True, index=True)
    #: The name of the account that added it ("" for the creator).
    added_by: Mapped[str] = mapped_column(String(80), default="")
    created_at: Mapped[str] = mapped_column(String(40))


class OwnerError(StoreError):
    """A co-director that cannot be added, with the reason."""


def administrator_id(store: Store) -> int | None:
    """The site's administrator: the first account (``None`` while there is none)."""
    with store.reading() as s:
        found = s.scalar(select(func.min(Account.id)))
        return None if found is None else int(found)


def may_direct(store: Store, slug: str, account_id: int) -> bool:
    """Whether the account may direct the tournament ``slug``: one of its directors,
    or the administrator (who may open any, even one that does not exist: the route
    then answers 404)."""
    with store.reading() as s:
        admin = s.scalar(select(func.min(Account.id)))
        if admin is not None and int(admin) == account_id:
            return True
        return bool(
            s.scalar(
                select(
                    exists().where(
                        TournamentDirectorRow.tournament_id == TournamentRow.id,
                        TournamentRow.slug == slug,
                        TournamentDirectorRow.account_id == account_id,
                    )
                )
            )
        )


def tournaments_of(store: Store, account_id: int) -> list[tuple[str, str, str]]:
    """(slug, name, date) of the tournaments the account may open, newest first: all
    of them for the administrator."""
    with store.reading() as s:
        query = select(TournamentRow.slug, TournamentRow.name, TournamentRow.date)
        admin = s.scalar(select(func.min(Account.id)))
        if admin is None or int(admin) != account_id:
            query = query.join(
                TournamentDirectorRow, TournamentDirectorRow.tournament_id == TournamentRow.id
            ).where(TournamentDirectorRow.account_id == account_id)
        return [
            (r.slug, r.name, r.date) for r in s.execute(query.order_by(TournamentRow.id.desc()))
        ]


def directors(store: Store, slug: str) -> list[str]:
    """The names of the tournament's recorded directors, in the order they were added."""
    with store.reading() as s:
        return list(
            s.scalars(
                select(Account.name)
                .join(TournamentDirectorRow, TournamentDirectorRow.account_id == Account.id)
                .join(TournamentRow, TournamentRow.id == TournamentDirectorRow.tournament_id)
                .where(TournamentRow.slug == slug)
                .order_by(TournamentDirectorRow.created_at, Account.id)
            )
        )


def tournament_id(s: Any, slug: str) -> int | None:
    """The id of the tournament ``slug`` (in the caller's session), or None."""
    found = s.scalar(select(TournamentRow.id).where(TournamentRow.slug == slug))
    return None if found is None else int(found)


def account_id(s: Any, name: str) -> int | None:
    """The id of the account ``name`` (in the caller's session), or None."""
    found = s.scalar(select(Account.id).where(Account.name == name))
    return None if found is None else int(found)


def account_exists(s: Any, account: int) -> bool:
    return s.get(Account, account) is not None


def add(s: Any, tournament: int, account: int, *, added_by: str, at: str) -> bool:
    """The account directs the tournament (in the caller's session: the application's
    use case writes its audit line in the same transaction); ``False`` if it already
    did."""
    if s.get(TournamentDirectorRow, (tournament, account)) is not None:
        return False
    s.add(
        TournamentDirectorRow(
            tournament_id=tournament, account_id=account, added_by=added_by, created_at=at
        )
    )
    s.flush()
    return True


def record_creator(store: Store, slug: str, account_id: int) -> None:
    """The account that created ``slug`` is its director (for a tournament made
    without one: the command line's, a test's; the web's are recorded by the creating
    use case, in its transaction). Recording it twice is harmless."""
    with store.transaction() as s:
        tid = tournament_id(s, slug)
        if tid is None:
            raise OwnerError("store.no_tournament", slug=repr(slug))
        add(s, tid, account_id, added_by="", at=now())
