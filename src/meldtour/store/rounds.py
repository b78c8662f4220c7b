"""A round's rows: dropping a seated round (to seat it again).

Functions of a session (a unit of work the caller runs).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete

from .models import CorrectionRow, GameRow
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


__all__ = ["drop_round"]
