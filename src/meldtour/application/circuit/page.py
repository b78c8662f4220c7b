"""What the public page of a person shows: the tournaments played (games and
points), the person's line in each ranking they appear in, their rating in each pool
with its history, and the qualifications held."""

from __future__ import annotations

from dataclasses import dataclass, replace

from meldtour.store.db import Store
from meldtour.tournament import TournamentError

from .identity import Entry, PersonView, person
from .qualifying import Holder, holders
from .ranking import RankingEntry, RankingInfo, ranking_table, rankings
from .rating import PersonRating, person_ratings


@dataclass(frozen=True, slots=True)
class Played:
    entry: Entry
    division_name: str
    games: int
    points: int


@dataclass(frozen=True, slots=True)
class RankedIn:
    """The person's line in one ranking (rank, points, the tournaments behind them)."""

    info: RankingInfo
    line: RankingEntry


@dataclass(frozen=True, slots=True)
class PersonPage:
    person: PersonView
    played: tuple[Played, ...]
    rankings: tuple[RankedIn, ...]  # every ranking the person is in, in ranking order
    ratings: tuple[PersonRating, ...]  # one per pool the person is rated in
    qualifications: tuple[Holder, ...]


def person_page(store: Store, pid: int) -> PersonPage | None:
    """What the public page of a person shows (``None`` when the person is not public)."""
    from ..cache import read

    v = person(store, pid)
    if not v.public or not v.entries:
        return None
    played = []
    for e in v.entries:
        t = read(store, e.tournament)
        try:
            div = t.division(e.division)
        except TournamentError:
            continue
        games = [g for st in div.stages for g in st.results() if e.number in g.players]
        played.append(
            Played(replace(e), div.name, len(games), sum(g.total(e.number) for g in games))
        )
    ranked = []
    for info in rankings(store):
        line = next((x for x in ranking_table(store, info.key).lines if x.person == pid), None)
        if line is not None:
            ranked.append(RankedIn(info, line))
    rated = tuple(person_ratings(store, pid))
    quals = tuple(h for h in holders(store) if h.person == pid and h.status == "holds")
    return PersonPage(v, tuple(played), tuple(ranked), rated, quals)
