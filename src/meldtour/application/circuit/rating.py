"""The ratings, derived: read from the store what they are computed from — every
awarded division's counted games, who each registration is now (after merges and
splits), the tournament's date, how its stages rank, the division's pool — and rate each
pool with the pure :func:`~meldtour.tournament.rating.rate_pool`. Nothing is stored: a
correction, a merge or a split shows at the next reading.

- :func:`rating_book` is the whole rating of one pool on a date from the store's
  records (the entry point a recomputation from scratch is compared with);
- :func:`rating_table` is the same with names, for the list pages, the exports and
  ``meldtour rating``; :func:`person_ratings` a person's line and history in each pool;
- :func:`set_pool` records the federation's choice of a division's pool (audited).

The computation is cached keyed on its inputs (the events as read, the date and the
model), never on anything a change could leave behind. The model and what it measures:
docs/circuit.md, "Ratings".
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from functools import lru_cache
from typing import Any, Final

from meldtour.core.refusal import register as register_codes
from meldtour.store import circuit as rows
from meldtour.store import codec
from meldtour.store import rating as rating_rows
from meldtour.store.db import Store
from meldtour.store.repository import find_tournament, load, now
from meldtour.tournament.rating import (
    KNOWN_POOLS,
    MODEL,
    NO_POOL,
    HistoryPoint,
    RatedEvent,
    RatingBook,
    RatingModel,
    TableGames,
    default_pool,
    rate_pool,
)

from ..errors import UseCaseError
from .acting import Acting, require_directs
from .common import _division

register_codes(
    {
        "rating.pool_key": "a rating pool's key is letters, digits and - (at most 40; not %(key)s)",
        "rating.no_pool": "there is no rating pool %(pool)s: %(pools)s",
    }
)

#: The model the site rates with (docs/circuit.md, "Ratings").
RATING: Final = MODEL


@dataclass(frozen=True, slots=True)
class RatingLine:
    """A line of a rating list: the person (name withheld for a private person on a
    public list), μ, σ on the as-of date, ``μ − 3σ``, games and events rated."""

    person: int
    name: str
    mu: float
    sigma: float
    ordinal: float
    games: int
    events: int
    last: date
    provisional: bool
    withheld: bool = False

    def as_json(self) -> dict[str, Any]:
        return {
            "person": None if self.withheld else self.person,
            "name": None if self.withheld else self.name,
            "mu": round(self.mu, 4),
            "sigma": round(self.sigma, 4),
            "ordinal": round(self.ordinal, 4),
            "games": self.games,
            "events": self.events,
            "last": self.last.isoformat(),
            "provisional": self.provisional,
        }


@dataclass(frozen=True, slots=True)
class RatingTable:
    """One pool's list on a date: the established players and, apart, the
    provisional ones; the pools there are; how many events were rated."""

    pool: str
    as_of: date
    lines: tuple[RatingLine, ...]
    provisional: tuple[RatingLine, ...]
    pools: tuple[str, ...]
    events: int


@dataclass(frozen=True, slots=True)
class PersonRating:
    """A person's rating in one pool: the line on the date and every event's point."""

    pool: str
    line: RatingLine
    history: tuple[HistoryPoint, ...]


def _day(text: str | None) -> date | None:
    try:
        return date.fromisoformat((text or "")[:10])
    except ValueError:
        return None


def _mode(rules: Any, ranking: Any) -> tuple[str, int]:
    standing = codec.ranking_value(ranking)
    if standing is not None:
        return standing.mode, standing.win_points
    r = codec.rules_value(rules)
    return r.match_ranking, r.league_win_points


def pool_events(s: Any) -> dict[str, tuple[RatedEvent, ...]]:
    """Every pool's events, as the store's records say now: each awarded division
    (in the pool its federation chose, else its template's), dated by its tournament
    (or its first award, for a tournament with no date), its counted games by person."""
    divisions = rating_rows.awarded(s)
    chosen = rating_rows.pools(s)
    pool_of: dict[int, str] = {}
    meta: dict[int, tuple[str, date, str, int, int, frozenset[int]]] = {}
    for (
        did,
        tid,
        slug,
        _tname,
        template,
        tday,
        at,
        key,
        _dname,
        rules,
        ranking,
        formats,
    ) in divisions:
        pool = chosen.get(did) or default_pool(template, key, codec.rules_value(rules).name)
        day = _day(tday) or _day(at)
        if pool == NO_POOL or day is None:
            continue
        mode, win_points = _mode(rules, ranking)
        pool_of[did] = pool
        seatings = frozenset(i for i, f in enumerate(formats or ()) if f.get("kind") == "seatings")
        meta[did] = (f"{slug}/{key}", day, mode, win_points, tid, seatings)
    person = rating_rows.people(s, sorted({m[4] for m in meta.values()}))
    tables: dict[int, dict[tuple[int, int, int], list[Any]]] = {d: {} for d in meta}
    for did, stage, rnd, table, players, number, points, penalties, winner in rating_rows.games(
        s, list(meta)
    ):
        tables[did].setdefault((stage, rnd, table), [players]).append(
            (number, points, penalties, winner)
        )
    out: dict[str, list[RatedEvent]] = {}
    for did, (key, day, mode, win_points, tid, seatings) in meta.items():
        made = []
        for (stage, rnd, table), (players, *lines) in tables[did].items():
            who = tuple(person[(tid, n)] for n in players)
            games = []
            for number, points, penalties, winner in lines:
                if winner is None:
                    continue
                totals = tuple(
                    (p or 0) - (x or 0)
                    for p, x in zip(
                        points or [0] * len(who), penalties or [0] * len(who), strict=True
                    )
                )
                games.append((number, totals, who[winner - 1]))
            made.append(TableGames(stage, rnd, table, who, tuple(sorted(games))))
        out.setdefault(pool_of[did], []).append(
            RatedEvent(
                key,
                day,
                mode,  # type: ignore[arg-type]
                win_points,
                tuple(sorted(made)),
                seatings,
            )
        )
    return {p: tuple(sorted(evs, key=lambda e: (e.day, e.key))) for p, evs in out.items()}


def pool_names(pools: Sequence[str]) -> tuple[str, ...]:
    """The pools in the order the pages list them: meldtour's own first, then the
    federation's by key."""
    known = [p for p in KNOWN_POOLS if p in pools]
    return (*known, *sorted(p for p in pools if p not in KNOWN_POOLS))


@lru_cache(maxsize=32)
def _rated(events: tuple[RatedEvent, ...], as_of: date, model: RatingModel) -> RatingBook:
    return rate_pool(events, as_of, model)


def _today() -> date:
    return datetime.now(UTC).date()


def rating_book(
    store: Store, pool: str, as_of: date | None = None, model: RatingModel = RATING
) -> RatingBook:
    """The whole rating of ``pool`` on ``as_of`` (today by default), computed from the
    store's records: :func:`pool_events` rated by
    :func:`~meldtour.tournament.rating.rate_pool` (cached on exactly those inputs)."""
    with store.reading() as s:
        events = pool_events(s).get(pool, ())
    return _rated(events, as_of or _today(), model)


def rating_table(
    store: Store, pool: str | None = None, as_of: date | None = None, *, public_only: bool = False
) -> RatingTable:
    """One pool's list (none named: the first pool with events) on ``as_of``, with
    names; a private person's line keeps its place with the name withheld on a public
    list."""
    day = as_of or _today()
    with store.reading() as s:
        every = pool_events(s)
        pools = pool_names(list(every))
        if pool is None:
            pool = pools[0] if pools else KNOWN_POOLS[0]
        elif pool not in every:
            raise UseCaseError("rating.no_pool", pool=repr(pool), pools=", ".join(pools) or "-")
        book = _rated(every.get(pool, ()), day, RATING)
        ids = [r.person for r in (*book.lines, *book.provisional)]
        names = rows.names(s) if ids else {}
        hidden = (
            {pid for pid, d in rows.details(s, ids).items() if not d.public}
            if public_only
            else set()
        )

    def line(r: Any) -> RatingLine:
        return RatingLine(
            r.person,
            names.get(r.person, "?"),
            r.mu,
            r.sigma,
            r.ordinal,
            r.games,
            r.events,
            r.last,
            r.provisional,
            r.person in hidden,
        )

    return RatingTable(
        pool,
        day,
        tuple(line(r) for r in book.lines),
        tuple(line(r) for r in book.provisional),
        pools,
        len(book.events),
    )


def person_ratings(store: Store, person: int, as_of: date | None = None) -> list[PersonRating]:
    """The person's rating in every pool they were rated in, with its history."""
    day = as_of or _today()
    with store.reading() as s:
        every = pool_events(s)
        name = rows.names(s).get(person, "?")
    out = []
    for pool in pool_names(list(every)):
        book = _rated(every[pool], day, RATING)
        r = book.line(person)
        if r is None:
            continue
        out.append(
            PersonRating(
                pool,
                RatingLine(
                    r.person,
                    name,
                    r.mu,
                    r.sigma,
                    r.ordinal,
                    r.games,
                    r.events,
                    r.last,
                    r.provisional,
                ),
                book.history.get(person, ()),
            )
        )
    return out


def ordinals(store: Store, pool: str) -> Mapping[int, float]:
    """Every rated person's ``μ − 3σ`` in the pool today (what a ``by-rating`` seating
    seeds by)."""
    book = rating_book(store, pool)
    return {r.person: r.ordinal for r in (*book.lines, *book.provisional)}


def division_pool(store: Store, slug: str, division: str) -> str:
    """The pool a division counts in: the federation's choice, else its template's."""
    with store.reading() as s:
        did = _division(s, slug, division)
        chosen = rating_rows.pools(s).get(did)
        row = find_tournament(s, slug)
        template = str(row.template)
        rules = load(s, slug).value.division(division).rules.name
    return chosen or default_pool(template, division, rules)


POOL_KEY: Final = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")


def set_pool(
    store: Store, slug: str, division: str, pool: str | None, *, who: Acting, why: str = ""
) -> str:
    """The division counts in ``pool`` from now on (``None``: its template's pool
    again; ``none``: it is not rated); audited. The pool it counts in now. Only the
    tournament's directors (or the site's administrator, or the command line) choose."""
    if pool is not None and not POOL_KEY.fullmatch(pool):
        raise UseCaseError("rating.pool_key", key=repr(pool[:60]))
    with store.transaction() as s:
        require_directs(s, who, slug)
        did = _division(s, slug, division)
        before = rating_rows.set_pool(s, did, pool, who=who.name, at=now())
        rows.audit(
            s,
            at=now(),
            who=who.name,
            action="rating_pool",
            entity="division",
            key=f"{slug}/{division}",
            before=before,
            after=pool,
            why=why,
        )
    return division_pool(store, slug, division)


@dataclass(frozen=True, slots=True)
class DivisionPool:
    """An awarded division and the rating pool it counts in."""

    slug: str
    tournament: str
    division: str
    division_name: str
    date: str
    pool: str
    chosen: bool  # the federation's choice (else the template's or the rules')


def division_pools(store: Store) -> list[DivisionPool]:
    """Every awarded division with its pool, newest tournament first."""
    with store.reading() as s:
        chosen = rating_rows.pools(s)
        out = []
        for (
            did,
            _tid,
            slug,
            tname,
            template,
            tday,
            _at,
            key,
            dname,
            rules,
            *_,
        ) in rating_rows.awarded(s):
            default = default_pool(template, key, codec.rules_value(rules).name)
            out.append(
                DivisionPool(
                    slug,
                    tname,
                    key,
                    dname,
                    tday or "",
                    chosen.get(did) or default,
                    did in chosen,
                )
            )
    return sorted(out, key=lambda d: (d.date, d.slug, d.division), reverse=True)


__all__ = [
    "RATING",
    "DivisionPool",
    "PersonRating",
    "RatingLine",
    "RatingTable",
    "division_pool",
    "division_pools",
    "ordinals",
    "person_ratings",
    "pool_events",
    "pool_names",
    "rating_book",
    "rating_table",
    "set_pool",
]
