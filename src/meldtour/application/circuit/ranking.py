"""The organisations' rankings: their definitions (:func:`define_ranking`, the
divisions each counts, :func:`count_division`) and the table on a day
(:func:`ranking_table`: the pure
:func:`~meldtour.tournament.ranking.national_ranking` over the stored places, computed
on every reading). With no ranking defined the default one (:data:`DEFAULT_RANKING`)
counts every awarded division at the ``national`` level with the pure function's
defaults. The defaults and what each number means: docs/circuit.md, "Rankings"."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any, Final

from meldtour.core.refusal import register as register_codes
from meldtour.store import circuit as rows
from meldtour.store.db import Store
from meldtour.store.repository import now
from meldtour.tournament.ranking import (
    DEFAULT_WEIGHTS,
    DISCRIMINATORS,
    RankingConfig,
    TournamentResult,
    in_season,
    national_ranking,
    tell_apart,
)
from meldtour.tournament.templates import CIRCUITS, default_circuit

from ..errors import UseCaseError
from .common import _division

register_codes(
    {
        "circuit.no_ranking": "there is no ranking %(key)s: %(keys)s",
        "circuit.several_rankings": "there are several rankings: choose one of %(keys)s",
        "circuit.ranking_key": "a ranking's key is letters, digits and - (not %(key)s)",
        "circuit.bad_date": "%(what)s must be a date YYYY-MM-DD (not %(value)s)",
        "circuit.discriminator": "namesakes are told apart by one of %(choices)s (not %(choice)s)",
    }
)

DEFAULT_RANKING: Final = "national"
DEFAULT_LEVEL: Final = "national"


@dataclass(frozen=True, slots=True)
class RankingInfo:
    key: str
    name: str
    organisation: str
    config: RankingConfig
    counts_all: bool
    default_level: str
    events: Mapping[int, str]
    #: The circuit whose divisions count when every awarded division does
    #: (``counts_all``): ``korea``, ``japan``, … ("": every circuit's). A division
    #: counts by its template's word (:func:`~meldtour.tournament.templates.default_circuit`:
    #: never the children's), or when the ranking lists it.
    circuit: str = ""


def config_of(data: Mapping[str, Any]) -> RankingConfig:
    """A ranking's numbers from their stored form (missing numbers: the defaults)."""
    base = RankingConfig()

    def day(x: Any) -> date | None:
        return date.fromisoformat(x) if x else None

    return RankingConfig(
        base=float(data.get("base", base.base)),
        weights=dict(data.get("weights") or DEFAULT_WEIGHTS),
        half_life_days=float(data.get("half_life_days", base.half_life_days)),
        best=int(data.get("best", base.best)),
        table=tuple(float(x) for x in data.get("table") or ()),
        season_start=day(data.get("season_start")),
        season_end=day(data.get("season_end")),
    )


def config_data(c: RankingConfig) -> dict[str, Any]:
    return {
        "base": c.base,
        "weights": dict(c.weights),
        "half_life_days": c.half_life_days,
        "best": c.best,
        "table": list(c.table),
        "season_start": c.season_start.isoformat() if c.season_start else None,
        "season_end": c.season_end.isoformat() if c.season_end else None,
    }


#: The default rankings' names (one per circuit with an awarded division that counts).
CIRCUIT_NAMES: Final = {
    "korea": "Korean ranking",
    "japan": "Japanese ranking",
    "club": "Club nights ranking",
    "open": "Open ranking",
}


def _defaults(s: Any) -> list[RankingInfo]:
    """With no ranking defined: one per circuit that has an awarded division counting
    for it (none yet: the national one), in :data:`CIRCUITS` order."""
    present = {c[0] for c in _circuits(s, rows.awarded_division_ids(s)).values() if c is not None}
    out = [
        RankingInfo(c, CIRCUIT_NAMES[c], "", RankingConfig(), True, DEFAULT_LEVEL, {}, c)
        for c in CIRCUITS
        if c in present
    ]
    return out or [
        RankingInfo(
            DEFAULT_RANKING, "National ranking", "", RankingConfig(), True, DEFAULT_LEVEL, {}
        )
    ]


def _circuits(s: Any, division_ids: Any) -> dict[int, tuple[str, str] | None]:
    return {
        did: default_circuit(*origin)
        for did, origin in rows.division_origins(s, division_ids).items()
    }


def _ranking_info(s: Any, key: str | None) -> RankingInfo:
    defined = rows.rankings(s)
    if key is None:
        if len(defined) > 1:
            raise UseCaseError("circuit.several_rankings", keys=", ".join(r.key for r in defined))
        if not defined:
            return _defaults(s)[0]
        row = defined[0]
    else:
        found = rows.ranking_by_key(s, key)
        if found is None:
            if not defined:
                defaults = _defaults(s)
                chosen = next((d for d in defaults if d.key == key), None)
                if chosen is None and key == DEFAULT_RANKING:
                    chosen = defaults[0]
                if chosen is not None:
                    return chosen
            raise UseCaseError(
                "circuit.no_ranking",
                key=repr(key),
                keys=", ".join(r.key for r in defined) or ", ".join(d.key for d in _defaults(s)),
            )
        row = found
    return RankingInfo(
        row.key,
        row.name,
        row.organisation,
        config_of(row.config),
        row.counts_all,
        row.default_level,
        rows.ranking_events(s, row.id),
        str(row.config.get("circuit") or ""),
    )


def rankings(store: Store, *, stored: bool = False) -> list[RankingInfo]:
    """The rankings defined, oldest first; none defined: the default ones, one per
    circuit (or nothing, ``stored``)."""
    with store.reading() as s:
        defined = rows.rankings(s)
        if not defined:
            return [] if stored else _defaults(s)
        return [_ranking_info(s, r.key) for r in defined]


def ranking_key(store: Store, key: str | None = None) -> str:
    """The ranking meant by ``key``: ``key`` itself, or none given the first one
    defined (the oldest; none defined: the default one) — what the ranking page shows,
    a ``by-ranking`` seating seeds by, and a person's page lists first."""
    return key or rankings(store)[0].key


def define_ranking(
    store: Store,
    key: str,
    *,
    who: str,
    name: str = "",
    organisation: str = "",
    config: Mapping[str, Any] | None = None,
    counts_all: bool = True,
    default_level: str = DEFAULT_LEVEL,
) -> RankingInfo:
    """Create an organisation's ranking or change its numbers (audited)."""
    if not re.fullmatch(r"[a-z0-9][a-z0-9-]{0,99}", key):
        raise UseCaseError("circuit.ranking_key", key=repr(key))
    cfg = config_of(config or {})  # refuses a bad best or half-life
    if default_level not in cfg.weights:
        raise UseCaseError(
            "ranking.unknown_level", level=repr(default_level), levels=", ".join(cfg.weights)
        )
    with store.transaction() as s:
        _define(
            s,
            key,
            who=who,
            name=name,
            organisation=organisation,
            cfg=cfg,
            counts_all=counts_all,
            default_level=default_level,
        )
        return _ranking_info(s, key)


def _define(
    s: Any,
    key: str,
    *,
    who: str,
    name: str,
    organisation: str,
    cfg: RankingConfig,
    counts_all: bool,
    default_level: str,
) -> Any:
    row = rows.ranking_by_key(s, key)
    before = None
    if row is None:
        row = rows.add_ranking(
            s,
            key=key,
            name=name or key,
            organisation=organisation,
            config=config_data(cfg),
            counts_all=counts_all,
            default_level=default_level,
            created_at=now(),
        )
    else:
        before = {
            "config": row.config,
            "counts_all": row.counts_all,
            "default_level": row.default_level,
        }
        row.name = name or row.name
        row.organisation = organisation or row.organisation
        row.config, row.counts_all = config_data(cfg), counts_all
        row.default_level = default_level
    rows.audit(
        s,
        at=now(),
        who=who,
        action="ranking",
        entity="ranking",
        key=key,
        before=before,
        after={"config": row.config, "counts_all": counts_all, "default_level": default_level},
        why="",
    )
    s.flush()
    return row


def count_division(
    store: Store, key: str, slug: str, division: str, *, who: str, level: str | None = None
) -> RankingInfo:
    """The division counts for the ranking, at ``level`` (default: the ranking's)."""
    with store.transaction() as s:
        info = _ranking_info(s, key)
        row = rows.ranking_by_key(s, info.key)
        if row is None:
            raise UseCaseError("circuit.no_ranking", key=repr(key), keys=DEFAULT_RANKING)
        lvl = level or info.default_level
        if lvl not in info.config.weights:
            raise UseCaseError(
                "ranking.unknown_level", level=repr(lvl), levels=", ".join(info.config.weights)
            )
        _count(s, row.id, key, slug, _division(s, slug, division), division, lvl, who=who)
        return _ranking_info(s, key)


def _count(
    s: Any,
    ranking_id: int,
    key: str,
    slug: str,
    did: int,
    division: str,
    level: str | None,
    *,
    who: str,
) -> None:
    """List the division at ``level`` for the ranking (``None``: no longer listed)."""
    if level is None:
        rows.unset_ranking_event(s, ranking_id, did)
    else:
        rows.set_ranking_event(s, ranking_id, did, level)
    rows.audit(
        s,
        at=now(),
        who=who,
        action="ranking_counts",
        entity="ranking",
        key=key,
        before=None,
        after={"tournament": slug, "division": division, "level": level},
        why="",
    )


@dataclass(frozen=True, slots=True)
class EventPoints:
    """One tournament's part of a ranking line (counted or not)."""

    tournament: str
    tournament_name: str
    division: str
    division_name: str
    date: str
    place: int
    field: int
    points: float
    counted: bool

    def as_json(self) -> dict[str, Any]:
        return {
            "tournament": self.tournament,
            "division": self.division,
            "place": self.place,
            "points": round(self.points, 2),
        }


@dataclass(frozen=True, slots=True)
class RankingEntry:
    """A line of the ranking. On a public list ``name`` is told apart from the
    namesakes' (:func:`public_labels`), and a private person keeps the place with the
    name withheld (``withheld``; ``person`` 0, ``name`` empty)."""

    rank: int
    person: int
    name: str
    points: float
    events: tuple[EventPoints, ...]
    withheld: bool = False

    def as_json(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "person": self.person,
            "name": self.name,
            "withheld": self.withheld,
            "points": round(self.points, 2),
            "events": [e.as_json() for e in self.events if e.counted],
        }


@dataclass(frozen=True, slots=True)
class RankingTable:
    info: RankingInfo
    as_of: date
    lines: tuple[RankingEntry, ...]
    results: tuple[TournamentResult, ...]


def parse_day(text: str | None, what: str = "--as-of") -> date | None:
    if not text:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise UseCaseError("circuit.bad_date", what=what, value=repr(text)) from None


def ranking_table(
    store: Store, key: str | None = None, as_of: date | None = None, *, public_only: bool = False
) -> RankingTable:
    """The ranking on ``as_of`` (today by default): each line with the tournaments
    behind its points, computed by :func:`national_ranking` from the stored places."""
    day = as_of or datetime.now(UTC).date()
    with store.reading() as s:
        return _table(s, _ranking_info(s, key), day, public_only=public_only)


def _infos(s: Any) -> list[RankingInfo]:
    """Every ranking (none defined: the default one), in one session."""
    defined = rows.rankings(s)
    if not defined:
        return _defaults(s)
    return [_ranking_info(s, r.key) for r in defined]


def _counted_divisions(s: Any, info: RankingInfo) -> dict[int, str] | None:
    """The divisions the ranking counts, each at its level (``None``: those listed,
    at theirs)."""
    if not info.counts_all:
        return None
    out: dict[int, str] = {}
    for did, c in _circuits(s, rows.awarded_division_ids(s)).items():
        if c is not None and (not info.circuit or c[0] == info.circuit):
            # a default ranking takes the template's level; a defined one its own
            out[did] = c[1] if info.circuit and not rows.rankings(s) else info.default_level
    out.update(info.events)
    return out


def _table(s: Any, info: RankingInfo, day: date, *, public_only: bool = False) -> RankingTable:
    """:func:`ranking_table` in the caller's session (the figures a correction would
    change are compared in the correcting transaction)."""
    chosen = _counted_divisions(s, info)
    levels = info.events if chosen is None else chosen
    lines = rows.result_lines(s, list(levels))
    ids = {line[6] for line in lines}
    names = rows.names(s) if ids else {}
    hidden = (
        {pid for pid, d in rows.details(s, ids).items() if not d.public} if public_only else set()
    )
    by_event: dict[str, dict[int, int]] = {}
    meta: dict[str, tuple[str, str, str, str, str]] = {}
    level: dict[str, str] = {}
    for did, slug, tname, tday, dkey, dname, pid, place, _field, at in lines:
        ek = f"{slug}/{dkey}"
        places = by_event.get(ek)
        if places is None:
            places = by_event[ek] = {}
            meta[ek] = (slug, tname, tday or (at or "")[:10], dkey, dname)
            level[ek] = levels.get(did, info.default_level)
        places[pid] = place
    results = []
    for ek, places in by_event.items():
        held = _held(meta[ek][2])
        if held is not None:
            results.append(TournamentResult(ek, held, level[ek], places))
    table = national_ranking(results, day, info.config)
    place_of = {r.key: r.places for r in results}
    played: dict[int, list[TournamentResult]] = {}
    for r in in_season(results, info.config):
        for pid in r.places:
            played.setdefault(pid, []).append(r)
    shown = (
        _labels(
            s,
            [
                (line.player, names.get(line.player, "?"))
                for line in table
                if line.player not in hidden
            ],
        )
        if public_only
        else names
    )
    out = []
    for line in table:
        counted = {k for k, _ in line.counted}
        evs = []
        for k, pts in line.counted:
            slug, tname, tday, dkey, dname = meta[k]
            evs.append(
                EventPoints(
                    slug,
                    tname,
                    dkey,
                    dname,
                    tday,
                    place_of[k][line.player],
                    len(place_of[k]),
                    pts,
                    True,
                )
            )
        for r in played.get(line.player, ()):
            if r.key not in counted:
                slug, tname, tday, dkey, dname = meta[r.key]
                evs.append(
                    EventPoints(
                        slug,
                        tname,
                        dkey,
                        dname,
                        tday,
                        r.places[line.player],
                        r.field_size,
                        0.0,
                        False,
                    )
                )
        if line.player in hidden:  # the place kept, the name withheld
            out.append(RankingEntry(line.rank, 0, "", line.points, tuple(evs), True))
            continue
        out.append(
            RankingEntry(
                line.rank, line.player, shown.get(line.player, "?"), line.points, tuple(evs)
            )
        )
    return RankingTable(info, day, tuple(out), tuple(results))


#: The installation's setting that says what tells namesakes apart in public.
DISCRIMINATOR_SETTING: Final = "public_discriminator"


def discriminator(store: Store) -> str:
    """What tells namesakes apart on the public lists (default: a letter)."""
    with store.reading() as s:
        return _discriminator(s)


def _discriminator(s: Any) -> str:
    value = rows.site_value(s, DISCRIMINATOR_SETTING)
    return value if value in DISCRIMINATORS else "letter"


def set_discriminator(store: Store, choice: str, *, who: str) -> None:
    """The federation's choice of what tells namesakes apart in public (audited)."""
    if choice not in DISCRIMINATORS:
        raise UseCaseError(
            "circuit.discriminator", choice=repr(choice[:40]), choices=", ".join(DISCRIMINATORS)
        )
    from meldtour.store import site

    site.put(store, DISCRIMINATOR_SETTING, choice, at=now(), who=who)
    with store.transaction() as s:
        rows.audit(
            s,
            at=now(),
            who=who,
            action="discriminator",
            entity="site",
            key=DISCRIMINATOR_SETTING,
            before=None,
            after={"choice": choice},
            why="",
        )


def _labels(s: Any, people: list[tuple[int, str]]) -> dict[int, str]:
    choice = _discriminator(s)
    names = {pid: name for pid, name in people}
    counts: dict[str, int] = {}
    for name in names.values():
        counts[name] = counts.get(name, 0) + 1
    twice = [pid for pid, name in names.items() if counts[name] > 1]
    detail: dict[int, str] = {}
    if twice and choice == "club":
        detail = rows.clubs(s, twice)
    elif twice and choice in ("birth_year", "member_number"):
        detail = {
            pid: str(getattr(d, choice))
            for pid, d in rows.details(s, twice).items()
            if getattr(d, choice) is not None
        }
    return tell_apart([(pid, name, detail.get(pid)) for pid, name in people])


def public_labels(store: Store, people: list[tuple[int, str]]) -> dict[int, str]:
    """The names of a public list (person, name), each told apart from the namesakes
    on it by the federation's choice (:func:`discriminator`)."""
    with store.reading() as s:
        return _labels(s, people)


def _held(text: str) -> date | None:
    try:
        return date.fromisoformat(text[:10])
    except ValueError:
        return None
