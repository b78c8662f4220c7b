"""The process's cache of tournaments as last read, in one place.

A tournament is read once per change, not once per request: :func:`snapshot` keeps
it with its audit mark (the number of its audit lines, which every change moves on),
and gives it back while the mark has not moved. The cache itself is the store's
``snapshots`` (guarded by ``snapshot_lock``): one per open store.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from meldtour.store import audit
from meldtour.store.db import Store
from meldtour.store.repository import Loaded, SheetKey, find_tournament, load
from meldtour.tournament import Tournament


@dataclass(frozen=True)
class Snapshot:
    """A tournament as read at one audit mark, with its sheets' versions."""

    slug: str
    mark: int
    tournament: Tournament
    versions: Mapping[SheetKey, int]


SNAPSHOTS_KEPT = 16


def remember(store: Store, key: Any, snap: Snapshot) -> Snapshot:
    """Keep ``snap`` unless a newer one is kept already; returns the newest."""
    with store.snapshot_lock:
        kept: Snapshot | None = store.snapshots.get(key)
        if kept is not None and kept.mark >= snap.mark:
            return kept
        store.snapshots.pop(key, None)
        store.snapshots[key] = snap
        while len(store.snapshots) > SNAPSHOTS_KEPT:
            store.snapshots.pop(next(iter(store.snapshots)))
        return snap


def snapshot(store: Store, slug: str | None) -> Snapshot:
    """The tournament as it is now, from the process's cache when its audit mark has
    not moved since it was read (three hundred phones after one change: one load).

    The mark is read first; a snapshot kept at that mark or a later one is current.
    Otherwise one thread per tournament loads it (the others wait for it), reading the
    mark again in the same read-only transaction, so the value and its mark are one
    consistent state."""
    with store.reading() as s:
        row = find_tournament(s, slug)
        key = (row.id, row.created_at)
        mark = audit.mark(s, row.id)
        real = row.slug
    with store.snapshot_lock:
        kept: Snapshot | None = store.snapshots.get(key)
        gate = store.computing.setdefault(key, threading.Lock())
    if kept is not None and kept.mark >= mark:
        return kept
    with gate:
        with store.snapshot_lock:
            again: Snapshot | None = store.snapshots.get(key)
        if again is not None and again.mark >= mark:
            return again
        with store.reading() as s:
            now_mark = audit.mark(s, row.id)
            loaded = load(s, real)
            snap = Snapshot(
                real, now_mark, loaded.value, {k: r.version for k, r in loaded.sheets.items()}
            )
        return remember(store, key, snap)


def prime(store: Store, s: Any, loaded: Loaded, value: Tournament) -> Callable[[], None]:
    """After a writing unit of work on SQLite (the only writer while it runs), the value
    it wrote is the tournament at the mark it leaves: what to call after the commit to
    keep it as the snapshot, sparing the next reader a load. (On PostgreSQL sheet saves
    run side by side, so a unit of work does not know the state it commits into.)"""
    if store.dialect != "sqlite":
        return lambda: None
    s.flush()
    row = loaded.row
    snap = Snapshot(
        row.slug, audit.mark(s, row.id), value, {k: r.version for k, r in loaded.sheets.items()}
    )
    key = (row.id, row.created_at)

    def keep() -> None:
        remember(store, key, snap)

    return keep


def read(store: Store, slug: str | None) -> Tournament:
    """The tournament as it is now (no lock, no write): the process's snapshot of it
    when the tournament has not changed since (see :func:`snapshot`)."""
    return snapshot(store, slug).tournament


def slug_of(store: Store, slug: str | None) -> str:
    with store.reading() as s:
        return find_tournament(s, slug).slug


__all__ = ["SNAPSHOTS_KEPT", "Snapshot", "prime", "read", "remember", "slug_of", "snapshot"]
