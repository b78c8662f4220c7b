"""Qualifications and quotas: an award grants a qualification
(:func:`grant_qualification`: places 1 to N, passing down past whoever declines,
:func:`decline`; the lists are :func:`holders`); a division with quotas
(:func:`set_quota`, :func:`seats`) is by qualification only: :func:`register_qualified`
accepts a holder and refuses everyone else with the reason, and
:func:`by_qualification` sends the ordinary registration there."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from meldtour.core.refusal import register as register_codes
from meldtour.store import circuit as rows
from meldtour.store.db import Store
from meldtour.store.repository import Loaded, load, now, save, touch
from meldtour.tournament import TournamentError
from meldtour.tournament import register as engine_register

from ..errors import UseCaseError
from ..unit import Outcome
from .common import _division

register_codes({
    "circuit.seats": "the number of seats must be 1 or more (not %(seats)s)",
    "circuit.no_qualification": "no award qualifies for %(key)s",
    "circuit.not_holder": "%(name)s does not hold %(label)s",
    "circuit.not_qualified": "%(division)s is by qualification only, and %(name)s holds "
                             "none of its seats (%(sources)s)",
    "circuit.quota_full": "the seats of %(label)s in %(division)s are all taken (%(seats)s)",
    "circuit.holder_ambiguous": "several holders are called %(name)s: the director "
                                "registers the right one",
    "circuit.registered_already": "%(name)s is registered in this tournament already",
    "circuit.one_at_a_time": "a division by qualification takes one registration at a time",
})


@dataclass(frozen=True, slots=True)
class Holder:
    """A place on a qualification's list: who, from which award, and whether they hold
    it, declined it, or wait below the seats."""

    key: str
    label: str
    person: int
    name: str
    tournament: str
    division: str
    place: int
    status: str  # "holds", "declined", "next"
    number: int = 0  # the registration's number in the awarding tournament
    tournament_name: str = ""


def grant_qualification(store: Store, slug: str, division: str, key: str, *, label: str,
                        seats: int, who: str) -> None:
    """Places 1 to ``seats`` of the division qualify for ``key`` (shown as ``label``)."""
    if seats < 1:
        raise UseCaseError("circuit.seats", seats=seats)
    with store.transaction() as s:
        did = _division(s, slug, division)
        rows.set_grant(s, did, key, label or key, seats)
        rows.audit(s, at=now(), who=who, action="qualification", entity="qualification",
                   key=key, before=None, after={"tournament": slug, "division": division,
                                                "seats": seats, "label": label}, why="")


def qualifications(store: Store) -> list[tuple[str, str]]:
    """Every qualification an award grants: (key, label), by key."""
    with store.reading() as s:
        return sorted({g.key: g.label for g, *_ in rows.grants(s)}.items())


def _holders(s: Any, key: str | None = None) -> list[Holder]:
    out = []
    for g, slug, dkey, _dname, tname in rows.grants(s, key):
        declined = rows.declines(s, g.id)
        left = g.seats
        for place, reg_id, pid, name, number in rows.results_of_division(s, g.division_id):
            if reg_id in declined:
                status = "declined"
            elif left > 0:
                status, left = "holds", left - 1
            else:
                status = "next"
            out.append(Holder(g.key, g.label, pid, name, slug, dkey, place, status, number,
                              tname))
            if status == "next":
                break
    return out


def holders(store: Store, key: str | None = None) -> list[Holder]:
    """Every qualification's list (or ``key``'s): holders, declines and who is next."""
    with store.reading() as s:
        return _holders(s, key)


def decline(store: Store, key: str, slug: str, number: int, *, who: str,
            why: str = "") -> list[Holder]:
    """The holder (registration ``number`` of the awarding tournament) declines: the
    qualification passes to the next place."""
    with store.transaction() as s:
        reg = rows.registration(s, slug, number)
        if reg is None:
            raise UseCaseError("circuit.no_registration", tournament=repr(slug),
                               number=f"#{number}")
        found = [g for g, gslug, *_ in rows.grants(s, key) if gslug == slug]
        if not rows.grants(s, key):
            raise UseCaseError("circuit.no_qualification", key=repr(key))
        grant = next((g for g in found if any(
            h.person == reg.player_id and h.status == "holds" for h in _holders(s, key))), None)
        if grant is None:
            raise UseCaseError("circuit.not_holder", name=reg.name,
                               label=found[0].label if found else key)
        rows.add_decline(s, grant.id, reg.id, who=who, why=why, at=now())
        rows.audit(s, at=now(), who=who, action="decline", entity="qualification", key=key,
                   before={"holder": reg.player_id}, after=None, why=why)
        return _holders(s, key)


def set_quota(store: Store, slug: str, division: str, key: str, seats: int, *,
              who: str) -> None:
    """Keep ``seats`` of the division for the holders of ``key`` (0 removes it); a
    division with any quota is by qualification only."""
    if seats < 0:
        raise UseCaseError("circuit.seats", seats=seats)
    with store.transaction() as s:
        did = _division(s, slug, division)
        rows.set_quota(s, did, key, seats)
        rows.audit(s, at=now(), who=who, action="quota", entity="quota",
                   key=f"{slug}/{division}/{key}", before=None, after={"seats": seats},
                   why="")


@dataclass(frozen=True, slots=True)
class SeatView:
    """A quota of a division: its seats and, for each holder, whether registered."""

    key: str
    label: str
    seats: int
    holders: tuple[tuple[Holder, int | None], ...]
    taken: int


def seats(store: Store, slug: str, division: str) -> list[SeatView]:
    """Who holds which seat of a division by qualification (the director's view)."""
    with store.reading() as s:
        return _seats(s, _division(s, slug, division))


def _seats(s: Any, did: int) -> list[SeatView]:
    regs = {r.player_id: r for r in rows.division_registrations(s, did)
            if r.status not in ("withdrawn",)}
    out = []
    for key, n in rows.quotas(s, did).items():
        hs = [h for h in _holders(s, key) if h.status == "holds"]
        label = hs[0].label if hs else next((g.label for g, *_ in rows.grants(s, key)), key)
        lines = tuple((h, regs[h.person].number if h.person in regs else None) for h in hs)
        out.append(SeatView(key, label, n, lines, sum(1 for _, x in lines if x is not None)))
    return out


def _qualified(s: Any, loaded: Loaded, division: str, name: str) -> tuple[int, str]:
    """The holder this registration is, and the qualification it takes a seat of."""
    did = loaded.divisions[division].id
    views = _seats(s, did)
    div = loaded.value.division(division)
    mine = [(v, h) for v in views for h, _ in v.holders if h.name == name]
    people = {h.person for _, h in mine}
    if not mine:
        raise UseCaseError("circuit.not_qualified", division=div.name, name=name,
                           sources=", ".join(f"{v.label}: {v.seats}" for v in views))
    if len(people) > 1:
        raise UseCaseError("circuit.holder_ambiguous", name=name)
    pid = people.pop()
    taken = {r.player_id for r in loaded.registrations.values()}
    free = [(v, h) for v, h in mine if v.taken < v.seats]
    if not free:
        v = mine[0][0]
        raise UseCaseError("circuit.quota_full", label=v.label, division=div.name,
                           seats=v.seats)
    if pid in taken:
        raise UseCaseError("circuit.registered_already", name=name)
    return pid, free[0][0].key


def register_qualified(store: Store, slug: str | None, division: str | None, name: str, *,
                       who: str) -> Outcome:
    """Register a holder in a division by qualification (as that person), or refuse
    with the reason."""
    from ..divisions import resolve_division

    name = " ".join(name.split())
    with store.transaction() as s:
        loaded = load(s, slug, "update")
        try:
            key = resolve_division(loaded.value, division)
            pid, qual = _qualified(s, loaded, key, name)
            progress = engine_register(loaded.value, key, name)
        except TournamentError as exc:
            raise UseCaseError.of(exc) from None
        changes = save(s, loaded, progress.tournament, who=who, action="register",
                       why=f"qualified: {qual}")
        number = progress.notices[-1].player or 0
        row = loaded.registrations[number]
        made = row.player_id
        if made != pid:
            row.player_id = pid
            s.flush()
            if not rows.registrations_of(s, made):
                from meldtour.store.models import Player
                gone = s.get(Player, made)
                if gone is not None:
                    s.delete(gone)
        touch(loaded)
    return Outcome(progress.tournament, progress.notices, (), tuple(changes))


def by_qualification(store: Store, slug: str | None, entries: Sequence[Any], *,
                     who: str) -> Outcome | None:
    """For the ordinary registration: ``None`` when no entry is for a division by
    qualification; otherwise the qualified registration (one entry at a time)."""
    from ..divisions import resolve_division

    with store.reading() as s:
        loaded_row = _tournament_row(s, slug)
        quota = rows.quota_divisions(s, loaded_row)
    if not quota:
        return None
    from ..cache import read
    t = read(store, slug)
    targets: list[str | None] = []
    for e in entries:
        try:
            targets.append(resolve_division(t, e.division, for_import=True))
        except (TournamentError, UseCaseError):
            targets.append(None)
    if not any(k in quota for k in targets):
        return None
    if len(entries) != 1:
        raise UseCaseError("circuit.one_at_a_time")
    return register_qualified(store, slug, targets[0], entries[0].name, who=who)


def _tournament_row(s: Any, slug: str | None) -> int:
    from meldtour.store.repository import find_tournament
    return find_tournament(s, slug).id
