"""People across tournaments: a person's registrations and details
(:func:`person`, :func:`people`, :func:`set_person`), the people of the same name a
registration may be, with the evidence (:func:`candidates`, :func:`suggest`: the same
member number or birth year; a name alone never does — two 김민지 stay two people), and
the director's word on who is who: :func:`merge` and :func:`same_person` (one person),
:func:`split` (two). Each is audited and computes the ratings again."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from meldtour.core.refusal import register as register_codes
from meldtour.store import circuit as rows
from meldtour.store.db import Store
from meldtour.store.repository import now
from meldtour.tournament.entries import name_key

from ..errors import UseCaseError

register_codes({
    "circuit.no_person": "there is no person %(person)s",
    "circuit.same_person": "%(person)s and %(other)s are the same person already",
    "circuit.played_together": "%(a)s and %(b)s both played in %(tournament)s: they are two "
                               "people",
    "circuit.needs_why": "say why (the reason is kept in the audit log)",
    "circuit.member_taken": "member number %(number)s belongs to %(person)s already",
    "circuit.birth_year": "the birth year %(year)s is not a year between 1900 and today",
    "circuit.split_nothing": "%(person)s has no registration in %(tournaments)s",
    "circuit.split_all": "a split must leave %(person)s at least one registration",
})


@dataclass(frozen=True, slots=True)
class Entry:
    """One registration of a person: the tournament, its date, the division, the
    number there, and the place when the division has been awarded."""

    tournament: str
    tournament_name: str
    date: str
    division: str
    number: int
    status: str
    place: int | None
    field: int | None


@dataclass(frozen=True, slots=True)
class PersonView:
    person: int
    name: str
    member_number: str | None
    birth_year: int | None
    contact: str | None
    public: bool
    entries: tuple[Entry, ...]


def _person_view(s: Any, pid: int) -> PersonView:
    p = rows.person(s, pid)
    if p is None:
        raise UseCaseError("circuit.no_person", person=f"#{pid}")
    d = rows.details(s, [pid]).get(pid)
    regs = rows.registrations_of(s, pid)
    places = {r[1]: (r[7], r[8]) for r in rows.result_lines(s, {r.division_id for r, *_ in regs})
              if r[6] == pid}
    keys = _division_keys(s, {r.division_id for r, *_ in regs})
    entries = tuple(
        Entry(slug, tname, day, keys.get(r.division_id, ""), r.number, r.status,
              *(places.get(slug) or (None, None)))
        for r, slug, tname, day in regs)
    return PersonView(pid, p.name, d.member_number if d else None,
                      d.birth_year if d else None, d.contact if d else None,
                      d.public if d else True, entries)


def _division_keys(s: Any, ids: Iterable[int]) -> dict[int, str]:
    from meldtour.store.models import DivisionRow
    return {i: row.key for i in ids if (row := s.get(DivisionRow, i)) is not None}


def person(store: Store, pid: int) -> PersonView:
    with store.reading() as s:
        return _person_view(s, pid)


def people(store: Store, name: str | None = None) -> list[PersonView]:
    """Everyone with a registration (of this name, when given), by id."""
    with store.reading() as s:
        found = rows.people_named(s, name) if name else rows.all_people(s)
        out = [_person_view(s, p.id) for p in found]
    return [v for v in out if v.entries]


def set_person(store: Store, pid: int, *, who: str, member_number: str | None = None,
               birth_year: int | None = None, contact: str | None = None,
               public: bool | None = None) -> PersonView:
    """Record what tells the person apart (only what is given changes)."""
    with store.transaction() as s:
        return _set_details(s, pid, who=who, member_number=member_number,
                            birth_year=birth_year, contact=contact, public=public)


def _set_details(s: Any, pid: int, *, who: str, member_number: str | None = None,
                 birth_year: int | None = None, contact: str | None = None,
                 public: bool | None = None) -> PersonView:
    before = _person_view(s, pid)
    values: dict[str, Any] = {}
    if member_number is not None:
        number = member_number.strip()[:40] or None
        if number:
            other = rows.by_member_number(s, number)
            if other is not None and other != pid:
                raise UseCaseError("circuit.member_taken", number=repr(number),
                                   person=f"#{other}")
        values["member_number"] = number
    if birth_year is not None:
        _check_birth_year(birth_year)
        values["birth_year"] = birth_year
    if contact is not None:
        values["contact"] = contact.strip()[:200] or None
    if public is not None:
        values["public"] = public
    rows.set_details(s, pid, **values)
    rows.audit(s, at=now(), who=who, action="person", entity="person", key=f"#{pid}",
               before=_evidence(before), after=_evidence(_person_view(s, pid)), why="")
    return _person_view(s, pid)


def _check_birth_year(year: int) -> None:
    if not 1900 <= year <= datetime.now(UTC).year:
        raise UseCaseError("circuit.birth_year", year=year)


def _evidence(v: PersonView) -> dict[str, Any]:
    # The audit log keeps that a contact was recorded, never the contact itself.
    return {"member_number": v.member_number, "birth_year": v.birth_year,
            "contact": bool(v.contact), "public": v.public}


@dataclass(frozen=True, slots=True)
class Candidate:
    """Someone a registration may be the same person as, with the evidence: the same
    member number or birth year, or a different one, and whether they played in one
    tournament (which makes them two people)."""

    person: PersonView
    same_member: bool
    same_birth_year: bool
    shared_tournament: bool
    other_member: bool = False
    other_birth_year: bool = False


def _name_index(s: Any) -> dict[str, list[int]]:
    """Every person by their name's key (width, case and spaces aside), by id."""
    out: dict[str, list[int]] = {}
    for pid, name in sorted(rows.names(s).items()):
        out.setdefault(name_key(name), []).append(pid)
    return out


def _candidates(s: Any, index: Mapping[str, Sequence[int]], name: str, *,
                member: str | None, birth_year: int | None, tournaments: set[str],
                besides: int | None = None) -> list[Candidate]:
    """The people of the same name who have played (besides ``besides``), each with the
    evidence for and against being the one who has ``member`` and ``birth_year`` and
    plays in ``tournaments``."""
    out = []
    for pid in index.get(name_key(name), ()):
        if pid == besides:
            continue
        v = _person_view(s, pid)
        if not v.entries:
            continue
        out.append(Candidate(
            v, bool(member) and member == v.member_number,
            birth_year is not None and birth_year == v.birth_year,
            bool(tournaments & {e.tournament for e in v.entries}),
            bool(member and v.member_number and member != v.member_number),
            birth_year is not None and v.birth_year is not None and birth_year != v.birth_year))
    return out


def candidates(store: Store, slug: str, number: int) -> tuple[PersonView, list[Candidate]]:
    """The registration's person and the others of the same name, with the evidence
    for and against (the same member number or birth year; having played in one
    tournament, which makes them two people)."""
    with store.reading() as s:
        reg = rows.registration(s, slug, number)
        if reg is None:
            raise UseCaseError("circuit.no_registration", tournament=repr(slug),
                               number=f"#{number}")
        mine = _person_view(s, reg.player_id)
        return mine, _candidates(s, _name_index(s), reg.name, member=mine.member_number,
                                 birth_year=mine.birth_year,
                                 tournaments={e.tournament for e in mine.entries},
                                 besides=reg.player_id)


def suggest(found: Sequence[Candidate], taken: Iterable[int] = ()) -> int | None:
    """The person the evidence names (``None``: a new person): the one with the same
    member number, else the only one with the same birth year and no other member
    number — never one who played in the same tournament or is ``taken``, and never
    by the name alone (two 김민지 stay two people).

    >>> def c(pid, member=False, year=False, other=False, shared=False):
    ...     v = PersonView(pid, "김민지", None, None, None, True, ())
    ...     return Candidate(v, member, year, shared, other)
    >>> suggest([c(1), c(2)]), suggest([c(1), c(2, year=True)])
    (None, 2)
    >>> suggest([c(1, year=True), c(2, year=True)]), suggest([c(1, year=True), c(2, member=True)])
    (None, 2)
    >>> suggest([c(1, year=True, other=True)]), suggest([c(1, member=True, shared=True)])
    (None, None)
    """
    out = set(taken)
    free = [c for c in found if not c.shared_tournament and c.person.person not in out]
    by_member = [c for c in free if c.same_member]
    if by_member:
        return by_member[0].person.person
    by_year = [c for c in free if c.same_birth_year and not c.other_member]
    return by_year[0].person.person if len(by_year) == 1 else None


@dataclass(frozen=True, slots=True)
class MergeOutcome:
    kept: PersonView
    moved: tuple[int, ...]


def _require_why(why: str) -> str:
    why = " ".join(why.split())
    if not why:
        raise UseCaseError("circuit.needs_why")
    return why


def merge(store: Store, keep: int, gone: int, *, who: str, why: str) -> MergeOutcome:
    """``gone`` is the same person as ``keep``: every registration of ``gone`` moves to
    ``keep`` (with the details ``keep`` lacks), and the ratings are computed again."""
    why = _require_why(why)
    with store.transaction() as s:
        if keep == gone:
            raise UseCaseError("circuit.same_person", person=f"#{keep}", other=f"#{gone}")
        a, b = _person_view(s, keep), _person_view(s, gone)
        both = {e.tournament for e in a.entries} & {e.tournament for e in b.entries}
        if both:
            raise UseCaseError("circuit.played_together", a=f"#{keep} {a.name}",
                               b=f"#{gone} {b.name}", tournament=", ".join(sorted(both)))
        moved = [r.id for r, *_ in rows.registrations_of(s, gone)]
        rows.move_registrations(s, moved, keep)
        taken = {k: getattr(b, k) for k in ("member_number", "birth_year", "contact")
                 if getattr(a, k) is None and getattr(b, k) is not None}
        if taken:
            rows.set_details(s, gone, member_number=None)
            rows.set_details(s, keep, **taken)
        rows.forget_person(s, gone)
        at = now()
        rows.record_merge(s, kind="merge", source=gone, target=keep, registrations=moved,
                          who=who, why=why, at=at)
        return MergeOutcome(_person_view(s, keep), tuple(moved))


def same_person(store: Store, slug: str, number: int, target: int, *, who: str,
                why: str) -> MergeOutcome:
    """This registration is ``target``'s (registration's "the same person as …")."""
    why = _require_why(why)
    with store.transaction() as s:
        reg = rows.registration(s, slug, number)
        if reg is None:
            raise UseCaseError("circuit.no_registration", tournament=repr(slug),
                               number=f"#{number}")
        _link(s, reg, slug, target, who=who, why=why)
        return MergeOutcome(_person_view(s, target), (reg.id,))


def _link(s: Any, reg: Any, slug: str, target: int, *, who: str, why: str) -> None:
    """Move the registration ``reg`` of ``slug`` to the person ``target`` (recorded as
    a link); refused when it is theirs already or they play in ``slug``."""
    t = _person_view(s, target)
    if reg.player_id == target:
        raise UseCaseError("circuit.same_person", person=f"#{target}",
                           other=f"{slug} #{reg.number}")
    if slug in {e.tournament for e in t.entries}:
        raise UseCaseError("circuit.played_together", a=f"#{target} {t.name}",
                           b=f"#{reg.number} {reg.name}", tournament=slug)
    source = reg.player_id
    rows.move_registrations(s, [reg.id], target)
    rows.record_merge(s, kind="link", source=source, target=target,
                      registrations=[reg.id], who=who, why=why, at=now())
    if not rows.registrations_of(s, source):
        rows.forget_person(s, source)


def split(store: Store, pid: int, tournaments: Sequence[str], *, who: str,
          why: str) -> MergeOutcome:
    """The registrations of ``pid`` in ``tournaments`` are someone else (of the same
    name): a new person takes them; the ratings are computed again."""
    why = _require_why(why)
    with store.transaction() as s:
        v = _person_view(s, pid)
        chosen = set(tournaments)
        regs = [r for r, slug, *_ in rows.registrations_of(s, pid) if slug in chosen]
        if not regs:
            raise UseCaseError("circuit.split_nothing", person=f"#{pid} {v.name}",
                               tournaments=", ".join(tournaments) or "-")
        if len(regs) == len(v.entries):
            raise UseCaseError("circuit.split_all", person=f"#{pid} {v.name}")
        at = now()
        other = rows.new_person(s, regs[0].name, at=at)
        ids = [r.id for r in regs]
        rows.move_registrations(s, ids, other.id)
        rows.record_merge(s, kind="split", source=pid, target=other.id, registrations=ids,
                          who=who, why=why, at=at)
        return MergeOutcome(_person_view(s, other.id), tuple(ids))
