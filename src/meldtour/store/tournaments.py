"""The tournaments' own rows: slugs taken, a new tournament's row, the list of them.

Functions of a session (a unit of work the caller runs).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select

from .models import TournamentRow


def slug_taken(s: Any, slug: str) -> bool:
    return s.scalar(select(TournamentRow.id).where(TournamentRow.slug == slug)) is not None


def slugs(s: Any) -> set[str]:
    """Every tournament's slug."""
    return set(s.scalars(select(TournamentRow.slug)))


def any_tournament(s: Any) -> bool:
    """Whether there is a tournament at all."""
    return bool(s.scalar(select(func.count()).select_from(TournamentRow)))


def add(
    s: Any, *, slug: str, name: str, date: str, seed: int, template: str, venue: str, at: str
) -> TournamentRow:
    """A new tournament's row (flushed: it has its id)."""
    row = TournamentRow(
        slug=slug,
        name=name,
        date=date,
        seed=seed,
        template=template,
        venue=venue,
        created_at=at,
        updated_at=at,
    )
    s.add(row)
    s.flush()
    return row


def listing(s: Any, *, newest_first: bool = False) -> list[tuple[str, str, str, str]]:
    """Every tournament's slug, name, date and template, in the order they were made
    (or the newest first)."""
    order = TournamentRow.id.desc() if newest_first else TournamentRow.id
    return [
        (r.slug, r.name, r.date, r.template)
        for r in s.scalars(select(TournamentRow).order_by(order))
    ]


__all__ = ["add", "any_tournament", "listing", "slug_taken", "slugs"]
