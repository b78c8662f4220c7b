"""The ratings (openskill): each awarded division's counted games rate its players'
people; a merge or a split replays every awarded division in the order it was
awarded (:func:`recompute_ratings`); :func:`ratings` is the list, best first."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from meldtour.store import circuit as rows
from meldtour.store.db import Store
from meldtour.store.models import Rating as RatingRow
from meldtour.store.repository import Loaded, load, now
from meldtour.tournament import Tournament
from meldtour.tournament.ranking import Rating, RatingConfig, rate_games

RATING: Final = RatingConfig()


@dataclass(frozen=True, slots=True)
class RatingLine:
    person: int
    name: str
    mu: float
    sigma: float
    ordinal: float
    games: int
    provisional: bool

    def as_json(self) -> dict[str, Any]:
        return {"person": self.person, "name": self.name, "mu": round(self.mu, 4),
                "sigma": round(self.sigma, 4), "ordinal": round(self.ordinal, 4),
                "games": self.games, "provisional": self.provisional}


def recompute_ratings(s: Any) -> int:
    """Every rating again from nothing: each awarded division's counted games, in the
    order they were awarded (as the awards rated them), to each registration's person
    as it is now. How many people are rated."""
    rows.clear_ratings(s)
    book: dict[int, Rating] = {}
    cache: dict[str, Loaded] = {}
    for slug, key, _day, _at in sorted(rows.awarded_divisions(s), key=lambda r: r[3]):
        loaded = cache.get(slug) or load(s, slug)
        cache[slug] = loaded
        book = rate_division(book, loaded.value, key,
                             {n: r.player_id for n, r in loaded.registrations.items()})
    at = now()
    for pid, r in book.items():
        s.add(RatingRow(player_id=pid, mu=r.mu, sigma=r.sigma, games=r.games, updated_at=at))
    s.flush()
    return len(book)


def rate_division(book: Mapping[int, Rating], t: Tournament, division: str,
                  person_of: Mapping[int, int]) -> dict[int, Rating]:
    """The book of ratings (by person) after the division's counted games."""
    games = [g for st in t.division(division).stages for g in st.results()]
    numbers = {p for g in games for p in g.players}
    before = {n: book[person_of[n]] for n in numbers if person_of[n] in book}
    after = rate_games(before, games, RATING)
    out = dict(book)
    for n in numbers:
        out[person_of[n]] = after[n]
    return out


def ratings(store: Store, *, public_only: bool = False) -> list[RatingLine]:
    """Everyone rated, best first (by the ordinal ``mu − 3σ``)."""
    with store.reading() as s:
        found = rows.all_ratings(s)
        hidden = {pid for pid, d in rows.details(s, [r.player_id for r, _ in found]).items()
                  if not d.public} if public_only else set()
    lines = [RatingLine(r.player_id, name, r.mu, r.sigma, r.mu - 3 * r.sigma, r.games,
                        r.games < RATING.provisional_games)
             for r, name in found if r.player_id not in hidden]
    lines.sort(key=lambda x: (-x.ordinal, x.person))
    return lines
