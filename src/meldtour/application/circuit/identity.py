"""People across tournaments: a person's registrations and details
(:func:`person`, :func:`people`, :func:`set_person`), the people of the same name a
registration may be, with the evidence (:func:`candidates`, :func:`suggest`: the same
member number or birth year; a name alone never does — two 김민지 stay two people), and
the director's word on who is who: :func:`merge` and :func:`same_person` (one person),
:func:`split` (two). Each is audited and computes the ratings again."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from meldtour.core.refusal import Refusal
from meldtour.core.refusal import register as register_codes
from meldtour.store import circuit as rows
from meldtour.store.db import Store
from meldtour.store.repository import now
from meldtour.tournament.entries import name_key

from ..errors import UseCaseError
from .acting import Acting, Seer, require_directs, require_everything
from .qualifying import _holders

register_codes(
    {
        "circuit.no_person": "there is no person %(person)s",
        "circuit.same_person": "%(person)s and %(other)s are the same person already",
        "circuit.played_together": "%(a)s and %(b)s both played in %(tournament)s: they are two "
        "people",
        "circuit.needs_why": "say why (the reason is kept in the audit log)",
        "circuit.member_taken": "member number %(number)s belongs to %(person)s already",
        "circuit.birth_year": "the birth year %(year)s is not a year between 1900 and today",
        "circuit.split_nothing": "%(person)s has no registration in %(tournaments)s",
        "circuit.split_all": "a split must leave %(person)s at least one registration",
        "circuit.merge_differs": "the %(field)s differs (%(a)s, %(b)s): choose the one that "
        "stands (%(option)s)",
        "circuit.keep_value": "%(value)s is not a %(field)s of the two people (%(values)s)",
        "circuit.keep_field": "%(field)s cannot be chosen (only %(fields)s)",
        "circuit.split_seat": "%(name)s (#%(person)s) is registered in %(tournament)s on a "
        "seat of %(label)s that is now held by #%(holder)s",
    }
)


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
    places = {
        r[1]: (r[7], r[8])
        for r in rows.result_lines(s, {r.division_id for r, *_ in regs})
        if r[6] == pid
    }
    keys = _division_keys(s, {r.division_id for r, *_ in regs})
    entries = tuple(
        Entry(
            slug,
            tname,
            day,
            keys.get(r.division_id, ""),
            r.number,
            r.status,
            *(places.get(slug) or (None, None)),
        )
        for r, slug, tname, day in regs
    )
    return PersonView(
        pid,
        p.name,
        d.member_number if d else None,
        d.birth_year if d else None,
        d.contact if d else None,
        d.public if d else True,
        entries,
    )


def _division_keys(s: Any, ids: Iterable[int]) -> dict[int, str]:
    from meldtour.store.models import DivisionRow

    return {i: row.key for i in ids if (row := s.get(DivisionRow, i)) is not None}


def person(store: Store, pid: int) -> PersonView:
    with store.reading() as s:
        return _person_view(s, pid)


def people(store: Store, name: str | None = None) -> list[PersonView]:
    """Everyone with a registration (of this name, when given: width, case and spaces
    aside, as the registration's preview matches), by id."""
    with store.reading() as s:
        ids = _name_index(s).get(name_key(name), []) if name else [p.id for p in rows.all_people(s)]
        out = [_person_view(s, pid) for pid in ids]
    return [v for v in out if v.entries]


def set_person(
    store: Store,
    pid: int,
    *,
    who: Acting,
    member_number: str | None = None,
    birth_year: int | None = None,
    contact: str | None = None,
    public: bool | None = None,
) -> PersonView:
    """Record what tells the person apart (only what is given changes): the site's
    administrator's (or the command line's)."""
    with store.transaction() as s:
        require_everything(s, who)
        return _set_details(
            s,
            pid,
            who=who.name,
            member_number=member_number,
            birth_year=birth_year,
            contact=contact,
            public=public,
        )


def _set_details(
    s: Any,
    pid: int,
    *,
    who: str,
    member_number: str | None = None,
    birth_year: int | None = None,
    contact: str | None = None,
    public: bool | None = None,
) -> PersonView:
    before = _person_view(s, pid)
    values: dict[str, Any] = {}
    if member_number is not None:
        number = member_number.strip()[:40] or None
        if number:
            other = rows.by_member_number(s, number)
            if other is not None and other != pid:
                raise UseCaseError("circuit.member_taken", number=repr(number), person=f"#{other}")
        values["member_number"] = number
    if birth_year is not None:
        _check_birth_year(birth_year)
        values["birth_year"] = birth_year
    if contact is not None:
        values["contact"] = contact.strip()[:200] or None
    if public is not None:
        values["public"] = public
    rows.set_details(s, pid, **values)
    rows.audit(
        s,
        at=now(),
        who=who,
        action="person",
        entity="person",
        key=f"#{pid}",
        before=_evidence(before),
        after=_evidence(_person_view(s, pid)),
        why="",
    )
    return _person_view(s, pid)


def _check_birth_year(year: int) -> None:
    if not 1900 <= year <= datetime.now(UTC).year:
        raise UseCaseError("circuit.birth_year", year=year)


def _evidence(v: PersonView) -> dict[str, Any]:
    # The audit log keeps that a contact was recorded, never the contact itself.
    return {
        "member_number": v.member_number,
        "birth_year": v.birth_year,
        "contact": bool(v.contact),
        "public": v.public,
    }


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
    #: The member number and birth year are another organiser's to see: the view
    #: carries neither, only the same / different / unknown above.
    hidden: bool = False


def hidden(c: Candidate) -> Candidate:
    """The candidate as a director of other tournaments sees them: the evidence as
    "same / different / unknown", without the member number, birth year or contact."""
    v = replace(c.person, member_number=None, birth_year=None, contact=None)
    return replace(c, person=v, hidden=True)


def _name_index(s: Any) -> dict[str, list[int]]:
    """Every person by their name's key (width, case and spaces aside), by id."""
    out: dict[str, list[int]] = {}
    for pid, name in sorted(rows.names(s).items()):
        out.setdefault(name_key(name), []).append(pid)
    return out


def _candidates(
    s: Any,
    index: Mapping[str, Sequence[int]],
    name: str,
    *,
    member: str | None,
    birth_year: int | None,
    tournaments: set[str],
    besides: int | None = None,
) -> list[Candidate]:
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
        out.append(
            Candidate(
                v,
                bool(member) and member == v.member_number,
                birth_year is not None and birth_year == v.birth_year,
                bool(tournaments & {e.tournament for e in v.entries}),
                bool(member and v.member_number and member != v.member_number),
                birth_year is not None and v.birth_year is not None and birth_year != v.birth_year,
            )
        )
    return out


def candidates(
    store: Store, slug: str, number: int, *, who: Acting
) -> tuple[PersonView, list[Candidate]]:
    """The registration's person and the others of the same name, with the evidence
    for and against (the same member number or birth year; having played in one
    tournament, which makes them two people). For a director of ``slug`` only; the
    member numbers and birth years of people of tournaments ``who`` does not direct
    are "same / different / unknown" only."""
    with store.reading() as s:
        require_directs(s, who, slug)
        _reg, mine, found = _registration_candidates(s, slug, number)
        seer = Seer(s, who)
        return mine, [
            c if seer.sees(e.tournament for e in c.person.entries) else hidden(c) for c in found
        ]


def _registration_candidates(
    s: Any, slug: str, number: int
) -> tuple[Any, PersonView, list[Candidate]]:
    reg = rows.registration(s, slug, number)
    if reg is None:
        raise UseCaseError("circuit.no_registration", tournament=repr(slug), number=f"#{number}")
    mine = _person_view(s, reg.player_id)
    return (
        reg,
        mine,
        _candidates(
            s,
            _name_index(s),
            reg.name,
            member=mine.member_number,
            birth_year=mine.birth_year,
            tournaments={e.tournament for e in mine.entries},
            besides=reg.player_id,
        ),
    )


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
    """The person kept (or made), the registrations moved, and what the director must
    look at (a split that leaves a seat held by the wrong person)."""

    kept: PersonView
    moved: tuple[int, ...]
    warnings: tuple[Refusal, ...] = ()


def _seated(s: Any, pid: int) -> list[tuple[str, int, str, str, str]]:
    """The registrations of ``pid`` on a seat kept for a qualification ``pid`` holds:
    (slug, number, name, key, label)."""
    out = []
    for r, slug, *_ in rows.registrations_of(s, pid):
        for key in rows.quotas(s, r.division_id):
            held = [h for h in _holders(s, key) if h.person == pid and h.status == "holds"]
            if held:
                out.append((slug, r.number, r.name, key, held[0].label))
    return out


def _seat_warnings(
    s: Any, pid: int, before: Sequence[tuple[str, int, str, str, str]]
) -> tuple[Refusal, ...]:
    out = []
    for slug, number, name, key, label in before:
        now_held = [h.person for h in _holders(s, key) if h.status == "holds"]
        if pid not in now_held:
            others = [p for p in now_held if p != pid]
            out.append(
                Refusal(
                    "circuit.split_seat",
                    {
                        "name": name,
                        "person": pid,
                        "tournament": f"{slug} #{number}",
                        "label": label,
                        "holder": ", #".join(str(p) for p in others) or "-",
                    },
                )
            )
    return tuple(out)


def _require_why(why: str) -> str:
    why = " ".join(why.split())
    if not why:
        raise UseCaseError("circuit.needs_why")
    return why


#: The details a merge may find contradicting, by the name ``--keep`` gives them.
KEEP_FIELDS = {"member": "member_number", "birth-year": "birth_year"}


def merge(
    store: Store,
    keep: int,
    gone: int,
    *,
    who: Acting,
    why: str,
    keep_values: Mapping[str, str] | None = None,
) -> MergeOutcome:
    """``gone`` is the same person as ``keep``: every registration of ``gone`` moves to
    ``keep`` (with the details ``keep`` lacks), and the ratings are computed again.
    A member number or birth year that the two have and that differ refuses, unless
    ``keep_values`` (``{"member": "KRF-3001"}``, ``{"birth-year": "1980"}``) says which
    value stands; the dropped value is recorded in the people's log."""
    why = _require_why(why)
    acting = who
    chosen = dict(keep_values or {})
    with store.transaction() as s:
        require_everything(s, acting)
        if keep == gone:
            raise UseCaseError("circuit.same_person", person=f"#{keep}", other=f"#{gone}")
        a, b = _person_view(s, keep), _person_view(s, gone)
        both = {e.tournament for e in a.entries} & {e.tournament for e in b.entries}
        if both:
            raise UseCaseError(
                "circuit.played_together",
                a=f"#{keep} {a.name}",
                b=f"#{gone} {b.name}",
                tournament=", ".join(sorted(both)),
            )
        for option in chosen:
            if option not in KEEP_FIELDS:
                raise UseCaseError(
                    "circuit.keep_field", field=repr(option), fields=", ".join(KEEP_FIELDS)
                )
        values: dict[str, Any] = {}
        dropped: dict[str, Any] = {}
        for option, attr in KEEP_FIELDS.items():
            mine, theirs = getattr(a, attr), getattr(b, attr)
            if mine is None or theirs is None or mine == theirs:
                if option in chosen and str(mine if mine is not None else theirs) != chosen[option]:
                    raise UseCaseError(
                        "circuit.keep_value",
                        field=option,
                        value=repr(chosen[option]),
                        values=" / ".join(str(x) for x in (mine, theirs) if x is not None) or "-",
                    )
                continue
            if option not in chosen:
                raise UseCaseError(
                    "circuit.merge_differs",
                    field=option,
                    a=f"#{keep} {mine}",
                    b=f"#{gone} {theirs}",
                    option=f"--keep {option}=…",
                )
            if chosen[option] == str(mine):
                dropped[attr] = theirs
            elif chosen[option] == str(theirs):
                dropped[attr] = mine
                values[attr] = theirs
            else:
                raise UseCaseError(
                    "circuit.keep_value",
                    field=option,
                    value=repr(chosen[option]),
                    values=f"{mine} / {theirs}",
                )
        moved = [r.id for r, *_ in rows.registrations_of(s, gone)]
        rows.move_registrations(s, moved, keep)
        taken = {
            k: getattr(b, k)
            for k in ("member_number", "birth_year", "contact")
            if getattr(a, k) is None and getattr(b, k) is not None
        }
        taken.update(values)
        if taken:
            rows.set_details(s, gone, member_number=None)
            rows.set_details(s, keep, **taken)
        rows.forget_person(s, gone)
        at = now()
        text = why + "".join(
            f"; dropped {k.replace('_', ' ')} {v}" for k, v in sorted(dropped.items())
        )
        rows.record_merge(
            s,
            kind="merge",
            source=gone,
            target=keep,
            registrations=moved,
            who=acting.name,
            why=text,
            at=at,
        )
        return MergeOutcome(_person_view(s, keep), tuple(moved))


def same_person(
    store: Store, slug: str, number: int, target: int, *, who: Acting, why: str
) -> MergeOutcome:
    """This registration is ``target``'s (registration's "the same person as …"): for
    a director of ``slug``, and only a candidate — someone of the same name (width,
    case and spaces aside) who played before, whose evidence does not contradict
    (another member number or birth year than the registration's person, when this is
    that person's only registration)."""
    why = _require_why(why)
    with store.transaction() as s:
        require_directs(s, who, slug)
        reg, mine, found = _registration_candidates(s, slug, number)
        if rows.person(s, target) is None:
            raise UseCaseError("circuit.no_person", person=f"#{target}")
        if target != reg.player_id:
            c = next((c for c in found if c.person.person == target), None)
            if c is None:
                raise UseCaseError("circuit.not_candidate", person=f"#{target}", name=reg.name)
            seen = Seer(s, who).sees(e.tournament for e in c.person.entries)
            # the person's details are this registration's own when it is their only
            # one (else they may be the other registrations' evidence)
            alone = len(mine.entries) == 1
            if alone and c.other_member:
                raise (
                    UseCaseError(
                        "circuit.member_differs",
                        person=f"#{target} {c.person.name}",
                        theirs=c.person.member_number,
                        yours=mine.member_number,
                    )
                    if seen
                    else UseCaseError(
                        "circuit.member_differs_hidden",
                        person=f"#{target} {c.person.name}",
                        yours=mine.member_number,
                    )
                )
            if alone and c.other_birth_year:
                raise (
                    UseCaseError(
                        "circuit.birth_year_differs",
                        person=f"#{target} {c.person.name}",
                        theirs=c.person.birth_year,
                        yours=mine.birth_year,
                    )
                    if seen
                    else UseCaseError(
                        "circuit.birth_year_differs_hidden",
                        person=f"#{target} {c.person.name}",
                        yours=mine.birth_year,
                    )
                )
        _link(s, reg, slug, target, who=who.name, why=why)
        return MergeOutcome(_person_view(s, target), (reg.id,))


def _link(s: Any, reg: Any, slug: str, target: int, *, who: str, why: str) -> None:
    """Move the registration ``reg`` of ``slug`` to the person ``target`` (recorded as
    a link); refused when it is theirs already or they play in ``slug``."""
    t = _person_view(s, target)
    if reg.player_id == target:
        raise UseCaseError(
            "circuit.same_person", person=f"#{target}", other=f"{slug} #{reg.number}"
        )
    if slug in {e.tournament for e in t.entries}:
        raise UseCaseError(
            "circuit.played_together",
            a=f"#{target} {t.name}",
            b=f"#{reg.number} {reg.name}",
            tournament=slug,
        )
    source = reg.player_id
    rows.move_registrations(s, [reg.id], target)
    rows.record_merge(
        s,
        kind="link",
        source=source,
        target=target,
        registrations=[reg.id],
        who=who,
        why=why,
        at=now(),
    )
    if not rows.registrations_of(s, source):
        rows.forget_person(s, source)


def split(
    store: Store, pid: int, tournaments: Sequence[str], *, who: Acting, why: str
) -> MergeOutcome:
    """The registrations of ``pid`` in ``tournaments`` are someone else (of the same
    name): a new person takes them; the ratings are computed again. A registration of
    ``pid`` on a seat kept for a qualification that ``pid`` no longer holds after it
    comes back as a warning."""
    why = _require_why(why)
    acting = who
    with store.transaction() as s:
        require_everything(s, acting)
        v = _person_view(s, pid)
        chosen = set(tournaments)
        regs = [r for r, slug, *_ in rows.registrations_of(s, pid) if slug in chosen]
        if not regs:
            raise UseCaseError(
                "circuit.split_nothing",
                person=f"#{pid} {v.name}",
                tournaments=", ".join(tournaments) or "-",
            )
        if len(regs) == len(v.entries):
            raise UseCaseError("circuit.split_all", person=f"#{pid} {v.name}")
        at = now()
        seated = _seated(s, pid)
        other = rows.new_person(s, regs[0].name, at=at)
        ids = [r.id for r in regs]
        rows.move_registrations(s, ids, other.id)
        rows.record_merge(
            s,
            kind="split",
            source=pid,
            target=other.id,
            registrations=ids,
            who=acting.name,
            why=why,
            at=at,
        )
        return MergeOutcome(_person_view(s, other.id), tuple(ids), _seat_warnings(s, pid, seated))
