"""Online players in the database (migration 0024), apart from the directors' accounts:

- ``player_account``: a player's display name (``name_key``: the name folded — width,
  case and spaces aside — unique), an argon2 hash, disabled, the session epoch;
- ``player_seat``: which account sat at which seat of which live game (a seat taken
  signed in, a quick-play seat, or a guest's seat claimed by its cookie at sign-up).
  The game itself, its players and its result are the game log's (``live_game``): a
  rating is computed from these two, never stored;
- ``quick_entry``: the quick-play queue: who waits for which preset and clock, since
  when, how long they agreed to wait for people before computers fill the seats, the
  last time their page asked (a page gone quiet is dropped), and once seated the game
  and seat (and the seat's token, handed to the page once and then forgotten).

Functions of a session (a unit of work the caller runs); the application layer
(:mod:`meldtour.application.players_accounts`, :mod:`meldtour.application.quickplay`)
runs them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import (
    Boolean,
    CursorResult,
    Float,
    ForeignKey,
    Integer,
    String,
    delete,
    false,
    insert,
    select,
    update,
)
from sqlalchemy.orm import Mapped, mapped_column

from .models import Base
from .online import Json


class PlayerAccountRow(Base):
    """A player's account (not a director's): a display name and an argon2 hash."""

    __tablename__ = "player_account"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    #: The name folded (NFKC, casefolded, no spaces): unique, so that "Kim" and "ＫＩＭ"
    #: cannot both be taken.
    name_key: Mapped[str] = mapped_column(String(200), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[str] = mapped_column(String(40))
    disabled: Mapped[bool] = mapped_column(Boolean, server_default=false())
    session_epoch: Mapped[int] = mapped_column(Integer, server_default="0")
    #: The name hidden by the site's administrator (migration 0029): the public pages
    #: show a placeholder instead (:mod:`.moderation`).
    name_hidden: Mapped[bool] = mapped_column(Boolean, server_default=false())


class PlayerSeatRow(Base):
    """An account's seat at a live game (``live_game.id``, or a table not started)."""

    __tablename__ = "player_seat"
    game_id: Mapped[str] = mapped_column(String(40), primary_key=True, autoincrement=False)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    account_id: Mapped[int] = mapped_column(ForeignKey("player_account.id"), index=True)
    #: How the seat became the account's: ``joined``, ``quick`` or ``claimed``.
    how: Mapped[str] = mapped_column(String(20))
    at: Mapped[float] = mapped_column(Float)


class QuickEntryRow(Base):
    """One player waiting in the quick-play queue (``id``: their ticket's hash)."""

    __tablename__ = "quick_entry"
    id: Mapped[str] = mapped_column(String(80), primary_key=True, autoincrement=False)
    #: The preset and the turn's seconds: ``krc-2015/60``.
    family: Mapped[str] = mapped_column(String(120), index=True)
    preset: Mapped[str] = mapped_column(String(60))
    turn_seconds: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(80))
    account_id: Mapped[int | None] = mapped_column(
        ForeignKey("player_account.id"), nullable=True, index=True
    )
    #: The rating the queue matches on (the shown figure; a guest's is a newcomer's).
    rating: Mapped[float] = mapped_column(Float)
    #: Seconds the player waits for people before computers fill the free seats.
    wait: Mapped[float] = mapped_column(Float)
    joined_at: Mapped[float] = mapped_column(Float)
    seen_at: Mapped[float] = mapped_column(Float)
    game_id: Mapped[str | None] = mapped_column(String(40), nullable=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: The seat's token until the page has taken it (then the entry goes).
    token: Mapped[str | None] = mapped_column(String(80), nullable=True)
    #: What was seated with it (``{"names", "levels", "preset", "turn_seconds"}``).
    table: Mapped[Any] = mapped_column(Json, nullable=True)
    #: When the seat was offered, when the page took it (its seat cookie), and when the
    #: table was opened (every page of the group had taken its seat).
    offered_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    accepted_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    opened_at: Mapped[float | None] = mapped_column(Float, nullable=True)


_ACCOUNTS = PlayerAccountRow.__table__
_SEATS = PlayerSeatRow.__table__
_QUEUE = QuickEntryRow.__table__


def _count(result: Any) -> int:
    assert isinstance(result, CursorResult)
    return int(result.rowcount)


# ---------------------------------------------------------------- accounts


def add_account(s: Any, *, name: str, name_key: str, password_hash: str, created_at: str) -> int:
    result = s.execute(
        insert(PlayerAccountRow).values(
            name=name, name_key=name_key, password_hash=password_hash, created_at=created_at
        )
    )
    assert isinstance(result, CursorResult)
    new_id = result.inserted_primary_key
    assert new_id is not None
    return int(new_id[0])


def account_by_key(s: Any, name_key: str) -> Any:
    return s.execute(select(_ACCOUNTS).where(_ACCOUNTS.c.name_key == name_key)).first()


def account_by_id(s: Any, account_id: int) -> Any:
    return s.execute(select(_ACCOUNTS).where(_ACCOUNTS.c.id == account_id)).first()


def account_names(s: Any, ids: Sequence[int]) -> dict[int, str]:
    if not ids:
        return {}
    found = s.execute(
        select(_ACCOUNTS.c.id, _ACCOUNTS.c.name).where(_ACCOUNTS.c.id.in_(list(ids)))
    ).all()
    return {int(i): str(n) for i, n in found}


def set_disabled(s: Any, account_id: int, disabled: bool) -> None:
    s.execute(
        update(PlayerAccountRow)
        .where(PlayerAccountRow.id == account_id)
        .values(disabled=disabled, session_epoch=PlayerAccountRow.session_epoch + 1)
    )


# ---------------------------------------------------------------- seats


def seat_owner(s: Any, game_id: str, seat: int) -> int | None:
    found = s.scalar(
        select(_SEATS.c.account_id).where(_SEATS.c.game_id == game_id, _SEATS.c.seat == seat)
    )
    return None if found is None else int(found)


def add_seat(s: Any, game_id: str, seat: int, account_id: int, how: str, at: float) -> bool:
    """The seat is the account's; False (nothing written) when it is someone's already."""
    if seat_owner(s, game_id, seat) is not None:
        return False
    s.execute(
        insert(PlayerSeatRow).values(
            game_id=game_id, seat=seat, account_id=account_id, how=how, at=at
        )
    )
    return True


def owners_of(s: Any, game_ids: Sequence[str]) -> dict[tuple[str, int], int]:
    """The accounts at the seats of these games: ``{(game_id, seat): account_id}``."""
    if not game_ids:
        return {}
    rows = s.execute(
        select(_SEATS.c.game_id, _SEATS.c.seat, _SEATS.c.account_id).where(
            _SEATS.c.game_id.in_(list(game_ids))
        )
    ).all()
    return {(str(g), int(n)): int(a) for g, n, a in rows}


def lock_account(s: Any, account_id: int) -> None:
    """Lock the account's row until the transaction ends (PostgreSQL; SQLite's writer
    holds the whole database already)."""
    s.execute(select(_ACCOUNTS.c.id).where(_ACCOUNTS.c.id == account_id).with_for_update())


def seats_of(s: Any, account_id: int) -> list[tuple[str, int, str]]:
    """The account's seats: ``(game_id, seat, how)``."""
    rows = s.execute(
        select(_SEATS.c.game_id, _SEATS.c.seat, _SEATS.c.how).where(
            _SEATS.c.account_id == account_id
        )
    ).all()
    return [(str(g), int(n), str(h)) for g, n, h in rows]


def every_seat(s: Any) -> list[tuple[str, int, int]]:
    """Every account's seat: ``(game_id, seat, account_id)``."""
    rows = s.execute(select(_SEATS.c.game_id, _SEATS.c.seat, _SEATS.c.account_id)).all()
    return [(str(g), int(n), int(a)) for g, n, a in rows]


def seat_count(s: Any) -> int:
    from sqlalchemy import func

    return int(s.scalar(select(func.count()).select_from(_SEATS)) or 0)


def finished_games(s: Any) -> list[tuple[str, dict[str, Any], dict[str, Any], float]]:
    """The finished live games an account sat in: ``(id, header, result, started_at)``,
    in the order they started."""
    from .models import LiveGameRow

    ids = select(_SEATS.c.game_id).distinct()
    found = s.execute(
        select(LiveGameRow.id, LiveGameRow.header, LiveGameRow.result, LiveGameRow.started_at)
        .where(LiveGameRow.over.is_(True), LiveGameRow.id.in_(ids))
        .order_by(LiveGameRow.started_at, LiveGameRow.id)
    ).all()
    return [(str(g), dict(h or {}), dict(r or {}), float(t or 0)) for g, h, r, t in found]


def finished_mark(s: Any) -> tuple[int, int]:
    """What the ratings are computed from has changed when this has: the seats held by
    accounts, and how many of their games are over."""
    from sqlalchemy import func

    from .models import LiveGameRow

    ids = select(_SEATS.c.game_id).distinct()
    over = s.scalar(
        select(func.count())
        .select_from(LiveGameRow)
        .where(LiveGameRow.over.is_(True), LiveGameRow.id.in_(ids))
    )
    return seat_count(s), int(over or 0)


# ---------------------------------------------------------------- the queue


def add_entry(s: Any, **values: Any) -> None:
    s.execute(insert(QuickEntryRow).values(**values))


def entry(s: Any, entry_id: str) -> Any:
    return s.execute(select(_QUEUE).where(_QUEUE.c.id == entry_id)).first()


def touch_entry(s: Any, entry_id: str, at: float) -> None:
    s.execute(update(QuickEntryRow).where(QuickEntryRow.id == entry_id).values(seen_at=at))


def drop_entry(s: Any, entry_id: str) -> int:
    return _count(s.execute(delete(QuickEntryRow).where(QuickEntryRow.id == entry_id)))


def waiting(s: Any, family: str | None = None) -> list[Any]:
    """The entries not yet seated (of one family), oldest first."""
    q = select(_QUEUE).where(_QUEUE.c.game_id.is_(None))
    if family is not None:
        q = q.where(_QUEUE.c.family == family)
    return list(s.execute(q.order_by(_QUEUE.c.joined_at, _QUEUE.c.id)).all())


def drop_quiet(s: Any, before: float) -> int:
    """Forget the entries not seated whose page has not asked since ``before``, and
    those at a table opened before then whose page never came to take it (the seat
    is theirs by its cookie all the same)."""
    quiet = delete(QuickEntryRow).where(
        QuickEntryRow.game_id.is_(None), QuickEntryRow.seen_at < before
    )
    stale = delete(QuickEntryRow).where(
        QuickEntryRow.opened_at.is_not(None), QuickEntryRow.opened_at < before
    )
    return _count(s.execute(quiet)) + _count(s.execute(stale))


def seat_entry(
    s: Any,
    entry_id: str,
    game_id: str,
    seat: int,
    token: str,
    table: dict[str, Any],
    at: float = 0.0,
) -> bool:
    """Seat a waiting entry; False when it is not waiting any more (taken by another
    process's match, or gone): the caller's match is then given up."""
    result = s.execute(
        update(QuickEntryRow)
        .where(QuickEntryRow.id == entry_id, QuickEntryRow.game_id.is_(None))
        .values(game_id=game_id, seat=seat, token=token, table=table, offered_at=at)
    )
    return _count(result) == 1


def offered(s: Any, family: str) -> list[Any]:
    """The entries offered a seat and not yet at an open table."""
    return list(
        s.execute(
            select(_QUEUE)
            .where(
                _QUEUE.c.family == family,
                _QUEUE.c.game_id.is_not(None),
                _QUEUE.c.opened_at.is_(None),
            )
            .order_by(_QUEUE.c.game_id, _QUEUE.c.seat)
        ).all()
    )


def accept(s: Any, entry_id: str, at: float) -> bool:
    """The page has taken its offered seat (its cookie)."""
    result = s.execute(
        update(QuickEntryRow)
        .where(
            QuickEntryRow.id == entry_id,
            QuickEntryRow.game_id.is_not(None),
            QuickEntryRow.accepted_at.is_(None),
        )
        .values(accepted_at=at)
    )
    return _count(result) == 1


def mark_opened(s: Any, game_id: str, n: int, at: float) -> bool:
    """Claim the opening of the game: True only for the one caller that marks all its
    ``n`` entries (each accepted, none opened yet)."""
    result = s.execute(
        update(QuickEntryRow)
        .where(
            QuickEntryRow.game_id == game_id,
            QuickEntryRow.accepted_at.is_not(None),
            QuickEntryRow.opened_at.is_(None),
        )
        .values(opened_at=at)
    )
    return _count(result) == n


def withdraw(s: Any, game_id: str) -> None:
    """An offer not taken by every page in time: the pages that took theirs wait again
    (as they were), the others have gone and leave the queue."""
    s.execute(
        delete(QuickEntryRow).where(
            QuickEntryRow.game_id == game_id, QuickEntryRow.accepted_at.is_(None)
        )
    )
    _unseat(s, game_id)


def _unseat(s: Any, game_id: str) -> None:
    s.execute(
        update(QuickEntryRow)
        .where(QuickEntryRow.game_id == game_id)
        .values(
            game_id=None,
            seat=None,
            token=None,
            table=None,
            offered_at=None,
            accepted_at=None,
            opened_at=None,
        )
    )


def unseat_game(s: Any, game_id: str) -> None:
    """The game could not be opened: its entries wait again."""
    _unseat(s, game_id)


__all__ = [
    "PlayerAccountRow",
    "PlayerSeatRow",
    "QuickEntryRow",
    "accept",
    "account_by_id",
    "account_by_key",
    "account_names",
    "add_account",
    "add_entry",
    "add_seat",
    "drop_entry",
    "drop_quiet",
    "entry",
    "every_seat",
    "finished_games",
    "finished_mark",
    "mark_opened",
    "offered",
    "owners_of",
    "seat_count",
    "seat_entry",
    "seat_owner",
    "seats_of",
    "set_disabled",
    "touch_entry",
    "unseat_game",
    "waiting",
    "withdraw",
]
