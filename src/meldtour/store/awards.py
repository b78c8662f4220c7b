"""A division's awards, as rows.

Functions of a session (a unit of work the caller runs).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import delete, func, select

from .models import AwardRow, DivisionRow, TournamentRow


def recorded(s: Any, division_id: int) -> list[AwardRow]:
    """The division's recorded awards, by place."""
    return list(
        s.scalars(
            select(AwardRow).where(AwardRow.division_id == division_id).order_by(AwardRow.place)
        )
    )


def replace(s: Any, division_id: int, lines: Iterable[tuple[int, int, str]], *, at: str) -> None:
    """Record the division's awards (place, number, name), instead of any before."""
    s.execute(delete(AwardRow).where(AwardRow.division_id == division_id))
    for place, number, name in lines:
        s.add(
            AwardRow(division_id=division_id, place=place, number=number, name=name, awarded_at=at)
        )


def awarded_in(s: Any, division_ids: Iterable[int]) -> dict[int, str]:
    """Which of these divisions are awarded: division id -> the first award's time."""
    ids = list(division_ids)
    if not ids:
        return {}
    return dict(
        s.execute(
            select(AwardRow.division_id, func.min(AwardRow.awarded_at))
            .where(AwardRow.division_id.in_(ids))
            .group_by(AwardRow.division_id)
        ).all()
    )


def of_tournament(s: Any, slug: str) -> list[tuple[str, int, int, str]]:
    """Every recorded award of the tournament: division key, place, number, name (by
    division, then place)."""
    return [
        tuple(a)
        for a in s.execute(
            select(DivisionRow.key, AwardRow.place, AwardRow.number, AwardRow.name)
            .join(DivisionRow, AwardRow.division_id == DivisionRow.id)
            .join(TournamentRow, DivisionRow.tournament_id == TournamentRow.id)
            .where(TournamentRow.slug == slug)
            .order_by(DivisionRow.position, AwardRow.place)
        ).all()
    ]


__all__ = ["awarded_in", "of_tournament", "recorded", "replace"]
