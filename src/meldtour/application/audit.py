"""The audit log: a tournament's lines, and its mark (how a screen tells it has to
reload)."""

from __future__ import annotations

from typing import Any

from meldtour.store import audit
from meldtour.store.db import Store
from meldtour.store.repository import find_tournament, load


def audit_mark(store: Store, slug: str | None) -> int:
    """The tournament's audit mark: the number of its audit lines. It moves on with
    every change (a sheet saved, a round seated or closed), so a screen can tell it has
    to reload."""
    with store.reading() as s:
        return audit.mark(s, find_tournament(s, slug).id)


def audit_log(store: Store, slug: str | None) -> list[dict[str, Any]]:
    """The tournament's audit lines, oldest first."""
    with store.reading() as s:
        row = load(s, slug).row
        return audit.lines(s, row.id)


__all__ = ["audit_log", "audit_mark"]
