"""The audit log's rows: a line for every change, and a tournament's audit mark.

Functions of a session (a unit of work the caller runs); the application layer
(:mod:`meldtour.application`) writes and reads the log through them.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select

from .models import AuditRow


def mark(s: Any, tournament_id: int) -> int:
    """The tournament's audit mark: the number of its audit lines."""
    # Every change writes at least one line and none is ever deleted, so it goes up
    # with every commit that changes the tournament — unlike the newest line's id,
    # which on PostgreSQL a slower transaction can commit *below* (ids are handed out
    # before commit), so that it would not move.
    return int(
        s.scalar(
            select(func.count())
            .select_from(AuditRow)
            .where(AuditRow.tournament_id == tournament_id)
        )
        or 0
    )


def record(
    s: Any,
    *,
    at: str,
    who: str,
    action: str,
    tournament_id: int | None,
    entity: str,
    key: str,
    before: Any,
    after: Any,
    why: str,
) -> None:
    """Add an audit line (``tournament_id`` None: a line of the site's, such as its
    public address)."""
    s.add(
        AuditRow(
            at=at,
            who=who,
            action=action,
            tournament_id=tournament_id,
            entity=entity,
            key=key,
            before=before,
            after=after,
            why=why,
        )
    )


def lines(s: Any, tournament_id: int) -> list[dict[str, Any]]:
    """The tournament's audit lines, oldest first."""
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
        for a in s.scalars(
            select(AuditRow).where(AuditRow.tournament_id == tournament_id).order_by(AuditRow.id)
        )
    ]


def site_lines(s: Any, action: str, limit: int = 20) -> list[dict[str, Any]]:
    """The site's own audit lines of ``action`` (no tournament's), newest first."""
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
        for a in s.scalars(
            select(AuditRow)
            .where(AuditRow.tournament_id.is_(None), AuditRow.action == action)
            .order_by(AuditRow.id.desc())
            .limit(limit)
        )
    ]


def registered_from(s: Any, tournament_id: int, prefix: str) -> list[tuple[str, str]]:
    """The registrations the web's form made: (who, registration number) for each
    registration line whose ``who`` starts with ``prefix``, oldest first."""
    return [
        (who, key)
        for who, key in s.execute(
            select(AuditRow.who, AuditRow.key)
            .where(
                AuditRow.tournament_id == tournament_id,
                AuditRow.action == "register",
                AuditRow.entity == "registration",
                AuditRow.who.startswith(prefix),
            )
            .order_by(AuditRow.id)
        )
    ]


__all__ = ["lines", "mark", "record", "registered_from", "site_lines"]
