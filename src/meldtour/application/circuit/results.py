"""The stored final places: each awarded division's places, kept against the
registrations (so that the rankings follow a merge), and those of divisions awarded
before the places were kept."""

from __future__ import annotations

from typing import Any

from meldtour.store import circuit as rows
from meldtour.store.db import Store
from meldtour.store.repository import Loaded, load
from meldtour.tournament import final_ranking


def record_results(s: Any, loaded: Loaded, division: str) -> None:
    """Store the division's final places (at the awards), each against its
    registration, so that the rankings follow a merge."""
    placings = final_ranking(loaded.value, division)
    regs = loaded.registrations
    rows.store_results(s, loaded.divisions[division].id,
                       [(regs[p.player].id, p.place) for p in placings], len(placings))


def backfill(store: Store) -> int:
    """Store the places of divisions awarded before the places were kept; how many."""
    with store.reading() as s:
        missing = rows.awarded_without_results(s)
    for slug, key in missing:
        with store.transaction() as s:
            record_results(s, load(s, slug), key)
    return len(missing)
