"""The published results are derived: an awarded division's final places (what the
rankings, the qualifications and the person pages read) are kept equal to
:func:`~meldtour.tournament.final_ranking` of its counted sheets.

- :func:`record_results` writes them at the awards;
- :func:`rederive` writes them again after any change to an awarded division (every
  unit of work that saves a tournament calls it), with the award rows and the ratings,
  so that no correction leaves a published figure behind; the stored places are a
  cache keyed on the division as it is saved, never a copy;
- :func:`reaward` is a correction's gate: the figures before and after (places, prizes,
  qualification seats, ranking points, and the certificates printed that no longer
  hold), refused as :class:`AwardsWouldChange` until the director confirms; confirmed,
  it is audited and a seat whose holder changed is flagged to the director of the
  event the seat leads to (an audit line there).
- :func:`backfill`: the places of divisions awarded before the places were kept."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from meldtour.core.refusal import register as register_codes
from meldtour.store import audit
from meldtour.store import awards as award_rows
from meldtour.store import circuit as rows
from meldtour.store.db import Store
from meldtour.store.repository import Loaded, load, now
from meldtour.tournament import Tournament, TournamentError, awards, final_ranking
from meldtour.tournament.rating import rate_pool

from ..acting import Who, name_of, require_tournament
from ..errors import UseCaseError
from ..unit import AFTER_SAVE
from .qualifying import _holders
from .ranking import _infos, _table
from .rating import RATING, pool_events

register_codes(
    {
        "awards.would_change": "%(division)s is awarded: this correction changes "
        "%(places)s places, %(prizes)s prizes, %(seats)s qualification "
        "seats, %(points)s ranking lines and %(certificates)s printed "
        "certificates; confirm it to award again",
    }
)


def _places(t: Tournament, division: str, loaded: Loaded) -> dict[int, int]:
    regs = loaded.registrations
    return {regs[p.player].id: p.place for p in final_ranking(t, division) if p.player in regs}


def record_results(s: Any, loaded: Loaded, division: str, value: Tournament | None = None) -> None:
    """Store the division's final places (at the awards), each against its
    registration, so that the rankings follow a merge."""
    places = _places(value or loaded.value, division, loaded)
    rows.store_results(s, loaded.divisions[division].id, sorted(places.items()), len(places))


def _awarded(s: Any, loaded: Loaded) -> dict[str, str]:
    """The tournament's awarded divisions: key -> first award time."""
    by_id = {row.id: key for key, row in loaded.divisions.items()}
    return {by_id[did]: at for did, at in award_rows.awarded_in(s, by_id).items()}


def changed_awarded(s: Any, loaded: Loaded, new: Tournament) -> list[str]:
    """The awarded divisions of the tournament that ``new`` changes."""
    awarded = _awarded(s, loaded)
    if not awarded:
        return []
    old = {d.key: d for d in loaded.value.divisions}
    return [d.key for d in new.divisions if d.key in awarded and old.get(d.key) is not d]


def rederive(s: Any, loaded: Loaded, new: Tournament) -> list[str]:
    """After ``new`` was saved: every awarded division it changed gets its places and
    award rows from its counted sheets again, and the ratings are computed again;
    returns the divisions whose places moved."""
    keys = changed_awarded(s, loaded, new)
    if not keys:
        return []
    awarded = _awarded(s, loaded)
    moved = []
    for key in keys:
        did = loaded.divisions[key].id
        places = _places(new, key, loaded)
        if places != rows.stored_places(s, did):
            rows.store_results(s, did, sorted(places.items()), len(places))
            moved.append(key)
        try:
            prizes = awards(new, key)
        except TournamentError:
            continue  # no longer finished (a round reopened): the rows stay until it is
        lines = [(a.place, a.player, a.name) for a in prizes]
        if [(a.place, a.number, a.name) for a in award_rows.recorded(s, did)] != lines:
            award_rows.replace(s, did, lines, at=awarded[key])
    s.flush()
    return moved


AFTER_SAVE.append(rederive)


# ---------------------------------------------------------------------------
# What a correction changes


@dataclass(frozen=True, slots=True)
class PlaceChange:
    number: int
    name: str
    before: int | None
    after: int | None


@dataclass(frozen=True, slots=True)
class PrizeChange:
    place: int
    before: str  # the name (with the number) that had the prize
    after: str


@dataclass(frozen=True, slots=True)
class SeatChange:
    key: str
    label: str
    lost: tuple[str, ...]
    gained: tuple[str, ...]
    leads_to: tuple[str, ...]  # "slug/division" of the divisions the seat is for


@dataclass(frozen=True, slots=True)
class PointsChange:
    ranking: str
    person: int
    name: str
    before: float
    after: float


@dataclass(frozen=True, slots=True)
class Reaward:
    """What a correction to an awarded division changes in what is published."""

    tournament: str
    division: str
    division_name: str
    places: tuple[PlaceChange, ...]
    prizes: tuple[PrizeChange, ...]
    seats: tuple[SeatChange, ...]
    points: tuple[PointsChange, ...]
    superseded: tuple[tuple[int, str], ...]  # certificates printed: (place, name)

    @property
    def empty(self) -> bool:
        return not (self.places or self.prizes or self.seats or self.points or self.superseded)

    def as_json(self) -> dict[str, Any]:
        return {
            "tournament": self.tournament,
            "division": self.division,
            "places": [[p.number, p.name, p.before, p.after] for p in self.places],
            "prizes": [[p.place, p.before, p.after] for p in self.prizes],
            "seats": [
                {
                    "key": x.key,
                    "lost": list(x.lost),
                    "gained": list(x.gained),
                    "leads_to": list(x.leads_to),
                }
                for x in self.seats
            ],
            "points": [
                [p.ranking, p.person, p.name, round(p.before, 2), round(p.after, 2)]
                for p in self.points
            ],
            "superseded": [list(c) for c in self.superseded],
        }


class AwardsWouldChange(UseCaseError):
    """A correction to an awarded division, refused until confirmed: ``reaward`` is
    what it would change."""

    reaward: Reaward | None = None


@dataclass(frozen=True, slots=True)
class _Figures:
    places: dict[int, tuple[int, str]]  # number -> (place, name)
    prizes: dict[int, str]
    holders: dict[str, set[str]]
    labels: dict[str, str]
    points: dict[tuple[str, int], tuple[str, float]]


def _figures(s: Any, t: Tournament, division: str) -> _Figures:
    did_places = {p.player: (p.place, p.name) for p in final_ranking(t, division)}
    try:
        prizes = {a.place: f"{a.name} (#{a.player})" for a in awards(t, division)}
    except TournamentError:
        prizes = {}
    held: dict[str, set[str]] = {}
    labels: dict[str, str] = {}
    for h in _holders(s):
        if h.status == "holds":
            held.setdefault(h.key, set()).add(f"{h.name} (#{h.number}, {h.tournament})")
            labels[h.key] = h.label
    day = datetime.now(UTC).date()
    points = {
        (info.key, line.person): (line.name, line.points)
        for info in _infos(s)
        for line in _table(s, info, day).lines
    }
    return _Figures(did_places, prizes, held, labels, points)


def _printed(s: Any, tournament_id: int, division: str) -> list[tuple[int, str]]:
    """The certificates last printed for the division: (place, name)."""
    last = None
    for a in audit.lines(s, tournament_id):
        if a["action"] == "print_certificates" and a["key"] == division:
            last = a["after"]
    return [(int(p), str(n)) for p, n in (last or [])]


def reaward(
    s: Any, loaded: Loaded, new: Tournament, *, confirmed: bool, who: str, why: str
) -> list[Reaward]:
    """The gate of a change to awarded divisions, in the saving transaction, after
    ``new`` is saved: the figures before and after. Unconfirmed and something
    published changes: :class:`AwardsWouldChange` (the caller's transaction rolls
    back). Confirmed: the division is awarded again (:func:`rederive`), audited, and
    each seat whose holder changed is flagged to the events it leads to."""
    keys = changed_awarded(s, loaded, new)
    if not keys:
        return []
    before = {k: _figures(s, loaded.value, k) for k in keys}
    rederive(s, loaded, new)
    out = []
    for key in keys:
        b, a = before[key], _figures(s, new, key)
        out.append(_difference(s, loaded, new, key, b, a))
    changes = [r for r in out if not r.empty]
    if not changes and not confirmed:
        return out
    if not confirmed:
        r = changes[0]
        exc = AwardsWouldChange(
            "awards.would_change",
            division=r.division_name,
            places=len(r.places),
            prizes=len(r.prizes),
            seats=len(r.seats),
            points=len(r.points),
            certificates=len(r.superseded),
        )
        exc.reaward = r
        raise exc
    at = now()
    for r in out:
        audit.record(
            s,
            at=at,
            who=who,
            action="reaward",
            tournament_id=loaded.row.id,
            entity="award",
            key=r.division,
            before=None,
            after=r.as_json(),
            why=why,
        )
        for seat in r.seats:
            for tid, slug, dkey in rows.quota_tournaments(s, seat.key):
                audit.record(
                    s,
                    at=at,
                    who=who,
                    action="seat_holder_changed",
                    tournament_id=tid,
                    entity="quota",
                    key=f"{slug}/{dkey}/{seat.key}",
                    before={"holders": list(seat.lost)},
                    after={"holders": list(seat.gained), "by": f"{loaded.row.slug}/{r.division}"},
                    why=why,
                )
    return out


def _difference(
    s: Any, loaded: Loaded, new: Tournament, key: str, b: _Figures, a: _Figures
) -> Reaward:
    places = tuple(
        PlaceChange(
            n,
            (a.places.get(n) or b.places[n])[1],
            b.places[n][0] if n in b.places else None,
            a.places[n][0] if n in a.places else None,
        )
        for n in sorted(set(b.places) | set(a.places))
        if (b.places.get(n) or (None,))[0] != (a.places.get(n) or (None,))[0]
    )
    prizes = tuple(
        PrizeChange(p, b.prizes.get(p, ""), a.prizes.get(p, ""))
        for p in sorted(set(b.prizes) | set(a.prizes))
        if b.prizes.get(p) != a.prizes.get(p)
    )
    seats = []
    for k in sorted(set(b.holders) | set(a.holders)):
        lost = tuple(sorted(b.holders.get(k, set()) - a.holders.get(k, set())))
        gained = tuple(sorted(a.holders.get(k, set()) - b.holders.get(k, set())))
        if lost or gained:
            seats.append(
                SeatChange(
                    k,
                    a.labels.get(k) or b.labels.get(k, k),
                    lost,
                    gained,
                    tuple(f"{sl}/{dk}" for _, sl, dk in rows.quota_tournaments(s, k)),
                )
            )
    points = tuple(
        PointsChange(
            r,
            pid,
            (a.points.get((r, pid)) or b.points[(r, pid)])[0],
            (b.points.get((r, pid)) or ("", 0.0))[1],
            (a.points.get((r, pid)) or ("", 0.0))[1],
        )
        for r, pid in sorted(set(b.points) | set(a.points))
        if abs((b.points.get((r, pid)) or ("", 0.0))[1] - (a.points.get((r, pid)) or ("", 0.0))[1])
        > 1e-9
    )
    now_prizes = {(p, n) for p, n in ((a_.place, a_.name) for a_ in _safe_awards(new, key))}
    superseded = tuple(c for c in _printed(s, loaded.row.id, key) if c not in now_prizes)
    return Reaward(
        loaded.row.slug,
        key,
        new.division(key).name,
        places,
        prizes,
        tuple(seats),
        points,
        superseded,
    )


def _safe_awards(t: Tournament, key: str) -> Sequence[Any]:
    try:
        return awards(t, key)
    except TournamentError:
        return ()


def record_printed(s: Any, loaded: Loaded, division: str, *, who: str) -> None:
    """The certificates of the division were printed (the places and names on them),
    so that a later correction lists those it supersedes."""
    lines = [[a.place, a.name] for a in _safe_awards(loaded.value, division)]
    audit.record(
        s,
        at=now(),
        who=who,
        action="print_certificates",
        tournament_id=loaded.row.id,
        entity="award",
        key=division,
        before=None,
        after=lines,
        why="",
    )


def certificates_printed(store: Store, slug: str, division: str, *, who: Who) -> None:
    """Record that the division's certificates were printed (see :func:`record_printed`)."""
    with store.transaction() as s:
        loaded = load(s, slug)
        require_tournament(s, who, loaded.row.slug)
        if division in _awarded(s, loaded):
            record_printed(s, loaded, division, who=name_of(who))


def now_day() -> date:
    return datetime.now(UTC).date()


def recompute_all(store: Store, *, ratings: bool = True) -> int:
    """Every published figure from the records, in one transaction: each awarded
    division's places and award rows from its sheets, then the ratings from nothing
    (what a fresh database would hold). How many divisions."""
    with store.transaction() as s:
        done: dict[str, Loaded] = {}
        count = 0
        for slug, key in [(a, b) for a, b, *_ in rows.awarded_divisions(s)]:
            loaded = done.get(slug) or load(s, slug)
            done[slug] = loaded
            did = loaded.divisions[key].id
            places = _places(loaded.value, key, loaded)
            if places != rows.stored_places(s, did):
                rows.store_results(s, did, sorted(places.items()), len(places))
            count += 1
        if ratings:  # derived on reading; here every pool rated from nothing, uncached
            for events in pool_events(s).values():
                rate_pool(events, now_day(), RATING)
    return count


def backfill(store: Store) -> int:
    """Store the places of divisions awarded before the places were kept; how many."""
    with store.reading() as s:
        missing = rows.awarded_without_results(s)
    for slug, key in missing:
        with store.transaction() as s:
            record_results(s, load(s, slug), key)
    return len(missing)
