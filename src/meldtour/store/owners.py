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

from sqlalchemy import ForeignKey, String, exists, func, select
from sqlalchemy.orm import Mapped, mapped_column

from .db import Store, StoreError
from .models import Account, AuditRow, Base, TournamentRow
from .repository import now


class TournamentDirectorRow(Base):
    """One director of one tournament."""

    __tablename__ = "tournament_director"
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournament.id"), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("account.id"), primary_key=True,
                                            index=True)
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
        return bool(s.scalar(select(exists().where(
            TournamentDirectorRow.tournament_id == TournamentRow.id,
            TournamentRow.slug == slug,
            TournamentDirectorRow.account_id == account_id))))


def tournaments_of(store: Store, account_id: int) -> list[tuple[str, str, str]]:
    """(slug, name, date) of the tournaments the account may open, newest first: all
    of them for the administrator."""
    with store.reading() as s:
        query = select(TournamentRow.slug, TournamentRow.name, TournamentRow.date)
        admin = s.scalar(select(func.min(Account.id)))
        if admin is None or int(admin) != account_id:
            query = query.join(TournamentDirectorRow,
                               TournamentDirectorRow.tournament_id == TournamentRow.id
                               ).where(TournamentDirectorRow.account_id == account_id)
        return [(r.slug, r.name, r.date)
                for r in s.execute(query.order_by(TournamentRow.id.desc()))]


def directors(store: Store, slug: str) -> list[str]:
    """The names of the tournament's recorded directors, in the order they were added."""
    with store.reading() as s:
        return list(s.scalars(
            select(Account.name)
            .join(TournamentDirectorRow, TournamentDirectorRow.account_id == Account.id)
            .join(TournamentRow, TournamentRow.id == TournamentDirectorRow.tournament_id)
            .where(TournamentRow.slug == slug)
            .order_by(TournamentDirectorRow.created_at, Account.id)))


def record_creator(store: Store, slug: str, account_id: int) -> None:
    """The account that created ``slug`` is its director (called right after the
    creating use case returns). Recording it twice is harmless."""
    with store.transaction() as s:
        tid = s.scalar(select(TournamentRow.id).where(TournamentRow.slug == slug))
        if tid is None:
            raise OwnerError("store.no_tournament", slug=repr(slug))
        if s.get(TournamentDirectorRow, (tid, account_id)) is None:
            s.add(TournamentDirectorRow(tournament_id=tid, account_id=account_id,
                                        added_by="", created_at=now()))


def add_director(store: Store, slug: str, name: str, *, who: str) -> bool:
    """Make the existing account ``name`` a co-director of ``slug`` (written to the
    tournament's audit log). ``False`` if it already was one; :class:`OwnerError` if
    there is no such account or tournament."""
    with store.transaction() as s:
        tid = s.scalar(select(TournamentRow.id).where(TournamentRow.slug == slug))
        if tid is None:
            raise OwnerError("store.no_tournament", slug=repr(slug))
        aid = s.scalar(select(Account.id).where(Account.name == name))
        if aid is None:
            raise OwnerError("owner.no_account", name=repr(name))
        if s.get(TournamentDirectorRow, (tid, aid)) is not None:
            return False
        at = now()
        s.add(TournamentDirectorRow(tournament_id=tid, account_id=aid, added_by=who,
                                    created_at=at))
        s.add(AuditRow(at=at, who=who, action="add director", tournament_id=tid,
                       entity="director", key=name, before=None, after=name, why=""))
        return True
