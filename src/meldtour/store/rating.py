"""What the rating is computed from, as rows: the awarded divisions (with their
tournament's date and template, and how their stages rank), every counted game of them,
who each registration is, and the federation's choice of a division's pool.

Functions of a session (a unit of work the caller runs). Plain rows through the
connection: a season of 100 events is some 13,000 games.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import String, delete, func, select, type_coerce

from .models import (
    AwardRow,
    DivisionRow,
    GameRow,
    RatingPoolRow,
    RegistrationRow,
    RoundRow,
    ScoreSheetRow,
    StageRow,
    TournamentRow,
)

#: division id, tournament id, slug, tournament name, template, date, first award
#: time, division key, division name, rules (JSON), standing rules (JSON or None),
#: stage formats (JSON).
DivisionLine = tuple[int, int, str, str, str, str, str, str, str, Any, Any, Any]
#: division id, stage position, round, table, the sheet's players (registration
#: numbers), game number, counted points, counted penalties, winning seat (from 1).
GameLine = tuple[int, int, int, int, Any, int, Any, Any, int | None]


def awarded(s: Any) -> list[DivisionLine]:
    """Every awarded division, by id."""
    first = (
        select(AwardRow.division_id, func.min(AwardRow.awarded_at).label("at"))
        .group_by(AwardRow.division_id)
        .subquery()
    )
    q = (
        select(
            DivisionRow.id,
            TournamentRow.id,
            TournamentRow.slug,
            TournamentRow.name,
            TournamentRow.template,
            TournamentRow.date,
            first.c.at,
            DivisionRow.key,
            DivisionRow.name,
            DivisionRow.rules,
            DivisionRow.ranking,
            DivisionRow.formats,
        )
        .join(TournamentRow, DivisionRow.tournament_id == TournamentRow.id)
        .join(first, first.c.division_id == DivisionRow.id)
        .order_by(DivisionRow.id)
    )
    return [tuple(r) for r in s.execute(q).all()]


def _json(value: Any) -> Any:
    """A JSON column read as it comes (SQLite: text; PostgreSQL's driver: parsed)."""
    return json.loads(value) if isinstance(value, str) else value


def games(s: Any, division_ids: list[int]) -> list[GameLine]:
    """Every counted game of these divisions. The JSON columns are read raw and parsed
    here (the ORM's JSON type costs 50 µs a row: 13,000 rows in a season), and each
    sheet's players once, not once a game."""
    if not division_ids:
        return []
    conn = s.connection()
    sheets = (
        select(
            ScoreSheetRow.id,
            StageRow.division_id,
            StageRow.position,
            RoundRow.number,
            ScoreSheetRow.table_number,
            type_coerce(ScoreSheetRow.players, String),
        )
        .join(RoundRow, ScoreSheetRow.round_id == RoundRow.id)
        .join(StageRow, RoundRow.stage_id == StageRow.id)
        .where(StageRow.division_id.in_(division_ids), ScoreSheetRow.counted.is_(True))
    )
    sheet = {
        sid: (did, stage, rnd, table, _json(players))
        for sid, did, stage, rnd, table, players in conn.execute(sheets).all()
    }
    q = (
        select(
            GameRow.sheet_id,
            GameRow.number,
            type_coerce(GameRow.counted_points, String),
            type_coerce(GameRow.counted_penalties, String),
            GameRow.counted_winner,
        )
        .join(ScoreSheetRow, GameRow.sheet_id == ScoreSheetRow.id)
        .join(RoundRow, ScoreSheetRow.round_id == RoundRow.id)
        .join(StageRow, RoundRow.stage_id == StageRow.id)
        .where(StageRow.division_id.in_(division_ids), ScoreSheetRow.counted.is_(True))
    )
    out: list[GameLine] = []
    for sid, number, points, penalties, winner in conn.execute(q).all():
        did, stage, rnd, table, players = sheet[sid]
        out.append(
            (did, stage, rnd, table, players, number, _json(points), _json(penalties), winner)
        )
    return out


def people(s: Any, tournament_ids: list[int]) -> dict[tuple[int, int], int]:
    """(tournament id, registration number) → person, for these tournaments."""
    if not tournament_ids:
        return {}
    q = select(
        RegistrationRow.tournament_id, RegistrationRow.number, RegistrationRow.player_id
    ).where(RegistrationRow.tournament_id.in_(tournament_ids))
    return {(t, n): p for t, n, p in s.connection().execute(q).all()}


def pools(s: Any) -> dict[int, str]:
    """The federation's pool of a division, by division id (where it chose one)."""
    return dict(s.execute(select(RatingPoolRow.division_id, RatingPoolRow.pool)).all())


def set_pool(s: Any, division_id: int, pool: str | None, *, who: str, at: str) -> str | None:
    """Record the division's pool (``None``: the template's again); the one before."""
    row = s.scalars(select(RatingPoolRow).where(RatingPoolRow.division_id == division_id)).first()
    before = row.pool if row is not None else None
    if pool is None:
        s.execute(delete(RatingPoolRow).where(RatingPoolRow.division_id == division_id))
    elif row is None:
        s.add(RatingPoolRow(division_id=division_id, pool=pool, set_by=who, set_at=at))
    else:
        row.pool, row.set_by, row.set_at = pool, who, at
    s.flush()
    return before


__all__ = ["DivisionLine", "GameLine", "awarded", "games", "people", "pools", "set_pool"]
