"""Standings, the final ranking and the awards (the ratings are derived from the
awarded divisions: :mod:`.circuit.rating`); the
visitors' winner-guess vote is :mod:`.votes`."""

from __future__ import annotations

from dataclasses import dataclass

from meldtour.store import audit
from meldtour.store import awards as award_rows
from meldtour.store.db import Store
from meldtour.store.repository import load, now, touch
from meldtour.tournament import (
    Standings,
    Tournament,
    TournamentError,
    awards,
    final_ranking,
    stage_standings,
)
from meldtour.tournament.stages import Placing

from .acting import Who, name_of, require_tournament
from .cache import read, slug_of
from .circuit import record_results
from .divisions import resolve_division
from .errors import UseCaseError
from .sheets import stage_index


def standings(
    store: Store, slug: str | None, division: str | None, stage: int | None = None
) -> tuple[Tournament, str, Standings]:
    t = read(store, slug)
    try:
        key = resolve_division(t, division)
        index = stage_index(t, key, stage)
        return t, key, stage_standings(t, key, index)
    except TournamentError as exc:
        raise UseCaseError.of(exc) from None


def ranking(
    store: Store, slug: str | None, division: str | None
) -> tuple[Tournament, str, tuple[Placing, ...]]:
    t = read(store, slug)
    try:
        key = resolve_division(t, division)
        return t, key, final_ranking(t, key)
    except TournamentError as exc:
        raise UseCaseError.of(exc) from None


@dataclass(frozen=True, slots=True)
class AwardLine:
    place: int
    number: int
    name: str
    division: str


def award(
    store: Store, slug: str | None, division: str | None, *, who: Who
) -> tuple[AwardLine, ...]:
    """Record the division's awards (once it is finished); its games count for the
    ratings from then on (:mod:`.circuit.rating`).

    The awards are derived: awarding again gives the awards of the sheets as they are
    now (a correction after the awards has awarded again, :mod:`.circuit.results`)."""
    at = now()
    with store.transaction() as s:
        loaded = load(s, slug, "update")
        require_tournament(s, who, loaded.row.slug)
        t = loaded.value
        try:
            key = resolve_division(t, division)
            prizes = awards(t, key)
        except TournamentError as exc:
            raise UseCaseError.of(exc) from None
        div_row = loaded.divisions[key]
        recorded = award_rows.recorded(s, div_row.id)
        lines = tuple(AwardLine(a.place, a.player, a.name, key) for a in prizes)
        if recorded:
            return lines
        award_rows.replace(s, div_row.id, [(a.place, a.number, a.name) for a in lines], at=at)
        audit.record(
            s,
            at=at,
            who=name_of(who),
            action="award",
            tournament_id=loaded.row.id,
            entity="award",
            key=key,
            before=None,
            after=[{"place": a.place, "number": a.number, "name": a.name} for a in lines],
            why="",
        )
        record_results(s, loaded, key)  # the places the rankings read (the circuit)
        touch(loaded)
    return lines


def awarded(store: Store, slug: str | None) -> list[tuple[str, int, int, str]]:
    """Every award of the tournament's awarded divisions, from the sheets as they are
    now: division key, place, number, name."""
    real = slug_of(store, slug)
    with store.reading() as s:
        keys = {k for k, *_ in award_rows.of_tournament(s, real)}
    t = read(store, real)
    out: list[tuple[str, int, int, str]] = []
    for d in t.divisions:
        if d.key in keys:
            try:
                out.extend((d.key, a.place, a.player, a.name) for a in awards(t, d.key))
            except TournamentError:
                continue
    return out


__all__ = ["AwardLine", "award", "awarded", "ranking", "standings"]
