"""Moderation of the online players (migration 0029):

- ``player_report``: a player account's report of another seat's player of a game they
  both sat in, for one of the fixed reasons (a code: no free text, so nothing abusive
  can be written), once per reporter, reported player and game; open until the site's
  administrator acts on it (``outcome``: ``hidden``, ``disabled`` or ``dismissed``);
- ``player_account.name_hidden`` (:mod:`.players_online`): the display name hidden by
  the administrator (the public pages show a placeholder instead).

Functions of a session; :mod:`meldtour.application.moderation` runs them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import (
    CursorResult,
    Float,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.orm import Mapped, mapped_column

from .models import Base
from .players_online import PlayerAccountRow


class PlayerReportRow(Base):
    """One report of a player by another player of the same game."""

    __tablename__ = "player_report"
    __table_args__ = (UniqueConstraint("reporter_id", "reported_id", "game_id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    reporter_id: Mapped[int] = mapped_column(ForeignKey("player_account.id"), index=True)
    reported_id: Mapped[int] = mapped_column(ForeignKey("player_account.id"), index=True)
    game_id: Mapped[str] = mapped_column(String(40))
    #: One of the fixed reasons' codes (``application.moderation.REASONS``).
    reason: Mapped[str] = mapped_column(String(20))
    at: Mapped[float] = mapped_column(Float)
    #: What the administrator did (None: open): ``hidden``, ``disabled``, ``dismissed``.
    outcome: Mapped[str | None] = mapped_column(String(20), nullable=True)
    closed_by: Mapped[str | None] = mapped_column(String(120), nullable=True)
    closed_at: Mapped[float | None] = mapped_column(Float, nullable=True)


_REPORTS = PlayerReportRow.__table__


def add_report(
    s: Any, *, reporter_id: int, reported_id: int, game_id: str, reason: str, at: float
) -> None:
    s.execute(
        insert(PlayerReportRow).values(
            reporter_id=reporter_id, reported_id=reported_id, game_id=game_id, reason=reason, at=at
        )
    )


def has_report(s: Any, reporter_id: int, reported_id: int, game_id: str) -> bool:
    found = s.scalar(
        select(_REPORTS.c.id).where(
            _REPORTS.c.reporter_id == reporter_id,
            _REPORTS.c.reported_id == reported_id,
            _REPORTS.c.game_id == game_id,
        )
    )
    return found is not None


def reports_since(s: Any, reporter_id: int, since: float) -> int:
    """How many reports the account has made since ``since``."""
    return int(
        s.scalar(
            select(func.count())
            .select_from(_REPORTS)
            .where(_REPORTS.c.reporter_id == reporter_id, _REPORTS.c.at >= since)
        )
        or 0
    )


def open_reports(s: Any) -> list[Any]:
    """The open reports, oldest first."""
    return list(
        s.execute(
            select(_REPORTS)
            .where(_REPORTS.c.outcome.is_(None))
            .order_by(_REPORTS.c.at, _REPORTS.c.id)
        ).all()
    )


def reported_by(s: Any, reporter_id: int) -> list[tuple[int, str]]:
    """``(reported_id, game_id)`` of every report the account has made."""
    found = s.execute(
        select(_REPORTS.c.reported_id, _REPORTS.c.game_id).where(
            _REPORTS.c.reporter_id == reporter_id
        )
    ).all()
    return [(int(r), str(g)) for r, g in found]


def close_reports(s: Any, reported_id: int, outcome: str, by: str, at: float) -> int:
    """Close the open reports of a player; how many were closed."""
    result = s.execute(
        update(PlayerReportRow)
        .where(PlayerReportRow.reported_id == reported_id, PlayerReportRow.outcome.is_(None))
        .values(outcome=outcome, closed_by=by, closed_at=at)
    )
    assert isinstance(result, CursorResult)
    return int(result.rowcount)


def set_name_hidden(s: Any, account_id: int, hidden: bool) -> None:
    s.execute(
        update(PlayerAccountRow).where(PlayerAccountRow.id == account_id).values(name_hidden=hidden)
    )


def hidden_among(s: Any, ids: Sequence[int]) -> set[int]:
    """The accounts among ``ids`` whose name is hidden."""
    if not ids:
        return set()
    found = s.scalars(
        select(PlayerAccountRow.id).where(
            PlayerAccountRow.id.in_(list(ids)), PlayerAccountRow.name_hidden.is_(True)
        )
    ).all()
    return {int(i) for i in found}


def hidden_accounts(s: Any) -> list[Any]:
    """The accounts whose name is hidden, by id."""
    return list(
        s.execute(
            select(PlayerAccountRow.__table__)
            .where(PlayerAccountRow.name_hidden.is_(True))
            .order_by(PlayerAccountRow.id)
        ).all()
    )


__all__ = [
    "PlayerReportRow",
    "add_report",
    "close_reports",
    "has_report",
    "hidden_accounts",
    "hidden_among",
    "open_reports",
    "reported_by",
    "reports_since",
    "set_name_hidden",
]
