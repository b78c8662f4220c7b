"""Seeding a first stage by rating or by ranking points (the seating methods
``by-rating`` and ``by-ranking``): the division's registrations in seed order."""

from __future__ import annotations

from typing import Final

from meldtour.store.db import Store
from meldtour.store.repository import load
from meldtour.tournament import TournamentError

from ..errors import UseCaseError
from .ranking import ranking_key, ranking_table
from .rating import division_pool, ordinals

#: The seating methods that seed a first stage, and what they seed by.
SEEDED: Final = {"by-rating": "rating", "by-ranking": "ranking"}


def seed_order(store: Store, slug: str | None, division: str | None) -> list[int] | None:
    """The registration numbers of the division in seed order — best rating (mu − 3σ,
    in the pool the division counts in)
    or most points of the stage's ranking (its ``seed_ranking``, none: the first
    defined) first, the others after in registration order — when its first stage is
    yet to start and is seated by rating or ranking; else ``None``."""
    from ..cache import read
    from ..divisions import resolve_division

    t = read(store, slug)
    try:
        key = resolve_division(t, division)
    except (TournamentError, UseCaseError):
        return None
    div = t.division(key)
    if div.stages or not div.formats or div.formats[0].method not in SEEDED:
        return None
    first = div.formats[0]
    with store.reading() as s:
        loaded = load(s, slug)
        person_of = {
            n: r.player_id
            for n, r in loaded.registrations.items()
            if r.division_id == loaded.divisions[key].id
        }
    value: dict[int, float]
    if SEEDED[first.method] == "rating":
        value = dict(ordinals(store, division_pool(store, loaded.row.slug, key)))
    else:
        try:
            table = ranking_table(store, ranking_key(store, first.seed_ranking or None))
            value = {x.person: x.points for x in table.lines}
        except UseCaseError:  # the ranking named is not there: registration order
            value = {}
    numbers = sorted(person_of)
    return sorted(
        numbers, key=lambda n: (person_of[n] not in value, -value.get(person_of[n], 0.0), n)
    )
