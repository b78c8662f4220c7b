"""A round's rows: dropping a seated round (to seat it again), dropping a stage (to
undo an advancement), and the sheets a device's save was refused on.

Functions of a session (a unit of work the caller runs).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, select

from .models import AuditRow, CorrectionRow, GameRow
from .repository import Loaded


def drop_round(s: Any, loaded: Loaded, key: tuple[str, int, int]) -> None:
    """Delete the round's rows — its sheets, their games and corrections, the round —
    from the database and from ``loaded``, so that it is written again as new."""
    row = loaded.rounds.pop(key)
    for skey in [k for k in loaded.sheets if k[:3] == key]:
        sheet_row = loaded.sheets.pop(skey)
        s.execute(delete(GameRow).where(GameRow.sheet_id == sheet_row.id))
        s.execute(delete(CorrectionRow).where(CorrectionRow.sheet_id == sheet_row.id))
        loaded.games.pop(sheet_row.id, None)
        loaded.corrections.pop(sheet_row.id, None)
        s.delete(sheet_row)
    s.flush()
    s.delete(row)
    s.flush()


def drop_stage(s: Any, loaded: Loaded, key: tuple[str, int]) -> None:
    """Delete a stage's rows — its rounds (as :func:`drop_round`), the stage — from the
    database and from ``loaded``."""
    for rkey in sorted(k for k in loaded.rounds if k[:2] == key):
        drop_round(s, loaded, rkey)
    row = loaded.stages.pop(key)
    s.delete(row)
    s.flush()


def refused_saves(s: Any, tournament_id: int, prefix: str) -> dict[str, str]:
    """The sheets (by audit key, under ``prefix`` such as ``general/stage 1/round 2/``)
    whose save a device was refused, with the time of the latest refusal."""
    q = (
        select(AuditRow.key, AuditRow.at)
        .where(
            AuditRow.tournament_id == tournament_id,
            AuditRow.entity == "sheet",
            AuditRow.action.like("%_conflict"),
            AuditRow.key.startswith(prefix),
        )
        .order_by(AuditRow.id)
    )
    return {key: at for key, at in s.execute(q)}


#: The audit action of a director who set a refused save aside (the sheet stands).
DISMISSED = "refused_dismissed"


def refusals(s: Any, tournament_id: int, prefix: str) -> dict[str, dict[str, Any]]:
    """Per sheet (audit key under ``prefix``) the latest refused save or its dismissal
    (:data:`DISMISSED`): its id, time, who, action and what the device sent."""
    q = (
        select(
            AuditRow.id, AuditRow.key, AuditRow.at, AuditRow.who, AuditRow.action, AuditRow.after
        )
        .where(
            AuditRow.tournament_id == tournament_id,
            AuditRow.entity == "sheet",
            AuditRow.action.like("%_conflict") | (AuditRow.action == DISMISSED),
            AuditRow.key.startswith(prefix),
        )
        .order_by(AuditRow.id)
    )
    return {
        key: {"id": id_, "at": at, "who": who, "action": action, "after": after}
        for id_, key, at, who, action, after in s.execute(q)
    }


def seated_at(s: Any, tournament_id: int, round_key: str) -> str | None:
    """When the round (its audit key, ``general/stage 1/round 2``) was last seated."""
    q = (
        select(AuditRow.at)
        .where(
            AuditRow.tournament_id == tournament_id,
            AuditRow.entity == "round",
            AuditRow.key == round_key,
            AuditRow.action.in_(("seat", "reseat")),
        )
        .order_by(AuditRow.id.desc())
        .limit(1)
    )
    return s.execute(q).scalar_one_or_none()  # type: ignore[no-any-return]


__all__ = ["DISMISSED", "drop_round", "drop_stage", "refusals", "refused_saves", "seated_at"]
