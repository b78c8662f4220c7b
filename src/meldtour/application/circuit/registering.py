"""Who a new registration is — the one rule every path that registers someone goes
through (the web's single add, a pasted or uploaded list, the desk's late entry, the
public form, ``players import`` on the command line, a division with seats kept for
qualifications):

- the people of the same name (width, case and spaces aside) who played before are
  the **candidates**, each with the evidence (member number and birth year: the same,
  different or unknown);
- the registration is a new person, unless the director **chooses** one of the
  candidates or the **evidence** names one (the same member number; else the only one
  with the same birth year) — a name alone never links;
- evidence that contradicts the choice refuses, naming the line: a member number of
  someone else, another birth year, a person who plays here already, a person who is
  not a candidate;
- a seat kept for a qualification is the holder's: claimed by the person so decided,
  or by the holder's claim code (:class:`~.qualifying.SeatBook`), never by a name;
- every link lands in the people's log.

:func:`identify` is the director's preview (nothing written); :func:`decide` and
:func:`record` run inside the registration's unit of work (the person is decided
before the registration is written, so no person row is made and thrown away);
:func:`possible_same` lists the registrations the director may still decide on."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any, Final, Literal, Protocol

from meldtour.core.refusal import Refusal
from meldtour.core.refusal import register as register_codes
from meldtour.store import circuit as rows
from meldtour.store.db import Store
from meldtour.store.repository import Loaded, now
from meldtour.tournament import Notice, Tournament
from meldtour.tournament.entries import name_key

from ..errors import UseCaseError
from .acting import Acting, Seer
from .identity import (
    Candidate,
    _candidates,
    _name_index,
    _person_view,
    _set_details,
    hidden,
    suggest,
)
from .qualifying import SeatBook

register_codes(
    {
        "circuit.member_differs": "the member number of %(person)s is %(theirs)s, not %(yours)s",
        "circuit.birth_year_differs": "%(person)s was born in %(theirs)s, not %(yours)s",
        "circuit.member_differs_hidden": "the member number of %(person)s is another "
        "(not %(yours)s)",
        "circuit.birth_year_differs_hidden": "%(person)s was born in another year (not %(yours)s)",
        "circuit.not_candidate": "%(person)s is not of the name %(name)s: only someone of the "
        "same name who played before can be chosen",
    }
)

#: A new registration's person as chosen: a person's id, :data:`NEW` (a new person,
#: whatever the evidence), or ``None`` (a new person unless the evidence names one
#: who played before: :func:`suggest`).
PersonChoice = int | Literal["new"] | None
NEW: Final = "new"


class Said(Protocol):
    """What a new registration says about who the player is (a line of a list, the
    director's form, the public form): :class:`~meldtour.application.registration.
    PlayerEntry`."""

    @property
    def name(self) -> str: ...
    @property
    def member_number(self) -> str | None: ...
    @property
    def birth_year(self) -> int | None: ...
    @property
    def person(self) -> PersonChoice: ...
    @property
    def line(self) -> int | None: ...
    @property
    def claim(self) -> str | None: ...


@dataclass(frozen=True, slots=True)
class Identity:
    """Who a new registration is: the people of the same name who played before (with
    the evidence), the one the evidence names (``suggested``), the one it will be
    (``chosen``; ``None``: a new person), and what stands in the way, by field
    (``member``, ``birth_year``, ``person``): a member number of someone else,
    evidence that contradicts the person chosen, a person who plays here already, a
    person who is not a candidate."""

    candidates: tuple[Candidate, ...]
    suggested: int | None
    chosen: int | None
    problems: tuple[tuple[str, Refusal], ...] = ()


def _identify(
    s: Any,
    index: Mapping[str, Sequence[int]],
    slug: str,
    said: Said,
    taken: set[int],
    seer: Seer | None = None,
) -> Identity:
    member = (said.member_number or "").strip() or None
    year = said.birth_year
    found = [
        replace(c, shared_tournament=True) if c.person.person in taken else c
        for c in _candidates(
            s, index, said.name, member=member, birth_year=year, tournaments={slug}
        )
    ]
    suggested = suggest(found)
    problems: list[tuple[str, Refusal]] = []
    chosen: int | None
    if said.person is None:
        chosen = suggested
    elif said.person == NEW:
        chosen = None
    else:
        chosen = said.person
        if rows.person(s, chosen) is None or not rows.registrations_of(s, chosen):
            problems.append(("person", Refusal("circuit.no_person", {"person": f"#{chosen}"})))
            chosen = None
        elif chosen not in {c.person.person for c in found}:
            problems.append(
                (
                    "person",
                    Refusal("circuit.not_candidate", {"person": f"#{chosen}", "name": said.name}),
                )
            )
            chosen = None
        else:
            v = _person_view(s, chosen)
            if chosen in taken or slug in {e.tournament for e in v.entries}:
                problems.append(
                    (
                        "person",
                        Refusal(
                            "circuit.played_together",
                            {"a": f"#{chosen} {v.name}", "b": said.name, "tournament": slug},
                        ),
                    )
                )
    if chosen is not None and not problems:
        v = _person_view(s, chosen)
        who = f"#{chosen} {v.name}"
        seen = seer is None or seer.sees(e.tournament for e in v.entries)
        if member and v.member_number and member != v.member_number:
            problems.append(
                (
                    "member",
                    Refusal(
                        "circuit.member_differs",
                        {"person": who, "theirs": v.member_number, "yours": member},
                    )
                    if seen
                    else Refusal("circuit.member_differs_hidden", {"person": who, "yours": member}),
                )
            )
        if year is not None and v.birth_year is not None and year != v.birth_year:
            problems.append(
                (
                    "birth_year",
                    Refusal(
                        "circuit.birth_year_differs",
                        {"person": who, "theirs": v.birth_year, "yours": year},
                    )
                    if seen
                    else Refusal(
                        "circuit.birth_year_differs_hidden", {"person": who, "yours": year}
                    ),
                )
            )
    if member:
        owner = rows.by_member_number(s, member)
        if owner is not None and owner != chosen:
            problems.append(
                (
                    "member",
                    Refusal(
                        "circuit.member_taken",
                        {
                            "number": repr(member),
                            "person": f"#{owner} {_person_view(s, owner).name}",
                        },
                    ),
                )
            )
    if year is not None and not 1900 <= year <= datetime.now(UTC).year:
        problems.append(("birth_year", Refusal("circuit.birth_year", {"year": year})))
    if seer is not None:
        found = [
            c if seer.sees(e.tournament for e in c.person.entries) else hidden(c) for c in found
        ]
    return Identity(tuple(found), suggested, chosen, tuple(problems))


def identify(
    store: Store, slug: str, lines: Sequence[Said], *, who: Acting | None = None
) -> list[Identity]:
    """Who each new registration of a list would be, in order (what the director's
    preview shows; nothing is written): a person an earlier line is counts as playing
    here for the lines after it. For ``who``, the member numbers and birth years of
    people of tournaments they do not direct are hidden ("same / different /
    unknown" only)."""
    with store.reading() as s:
        seer = Seer(s, who) if who is not None else None
        index = _name_index(s)
        taken = {pid for _id, _n, pid, _name in rows.registrations_in(s, slug)}
        out = []
        for said in lines:
            found = _identify(s, index, slug, said, taken, seer)
            if found.chosen is not None:
                taken.add(found.chosen)
            out.append(found)
        return out


@dataclass(frozen=True, slots=True)
class Decided:
    """A new registration's person as decided in its unit of work: ``person`` (``None``:
    a new person), the qualification whose seat it takes, and the people's log's
    reason."""

    number: int
    said: Said
    identity: Identity
    person: int | None
    seat: str | None
    why: str


def _refuse(said: Said, exc: UseCaseError) -> UseCaseError:
    if said.line is None:
        return exc
    return UseCaseError("usecase.row", line=said.line, reason=exc.refusal)


def decide(
    s: Any, loaded: Loaded, t: Tournament, new: Sequence[int], said: Sequence[Said]
) -> list[Decided]:
    """In the registration's unit of work, after the engine registered ``new`` (their
    numbers, in the order of ``said``) and before they are written: who each one is,
    by the one rule, and the seat each takes. All or nothing: the first problem
    refuses the whole unit, naming the line."""
    slug = loaded.row.slug
    index = _name_index(s)
    taken = {r.player_id for r in loaded.registrations.values()}
    book = SeatBook(s, {k: d.id for k, d in loaded.divisions.items()}, t, set())
    out = []
    for number, entry in zip(new, said, strict=True):
        try:
            found = _identify(s, index, slug, entry, taken)
            if found.problems:
                refusal = found.problems[0][1]
                raise UseCaseError(refusal.code, **refusal.params)
            division = t.registration(number).division
            pid, seat, how = book.take(division, found.chosen, entry.name, entry.claim)
            if pid is not None and pid != found.chosen:
                if pid in taken:
                    raise UseCaseError("circuit.registered_already", name=entry.name)
                # the code names the holder: the line's name and evidence must agree
                check = _identify(s, index, slug, replace_person(entry, pid), taken)
                if check.problems:
                    refusal = check.problems[0][1]
                    raise UseCaseError(refusal.code, **refusal.params)
        except UseCaseError as exc:
            raise _refuse(entry, exc) from None
        if pid is not None:
            taken.add(pid)
        out.append(Decided(number, entry, found, pid, seat, _why(entry, found, pid, how, seat)))
    return out


@dataclass(frozen=True, slots=True)
class _Claimed:
    """A line whose person a claim code named (checked against its evidence)."""

    name: str
    member_number: str | None
    birth_year: int | None
    person: PersonChoice
    line: int | None
    claim: str | None


def replace_person(said: Said, pid: int) -> Said:
    return _Claimed(said.name, said.member_number, said.birth_year, pid, said.line, None)


def chosen_people(decided: Sequence[Decided]) -> dict[int, int]:
    """The people who played before that new registrations are (number → person)."""
    return {d.number: d.person for d in decided if d.person is not None}


def record(s: Any, loaded: Loaded, decided: Sequence[Decided], *, who: str) -> list[Notice]:
    """Once the registrations are written: the people's log's line for each link (and
    for the director's "a new person" over people of the same name), and the member
    number and birth year given (what the person lacks)."""
    notices = []
    for d in decided:
        reg = loaded.registrations[d.number]
        pid = reg.player_id
        if d.person is not None:
            rows.record_merge(
                s,
                kind="link",
                source=pid,
                target=pid,
                registrations=[reg.id],
                who=who,
                why=d.why,
                at=now(),
            )
            notices.append(
                Notice(
                    "person",
                    f"#{reg.number} {reg.name} is person #{pid}, who played before",
                    player=reg.number,
                )
            )
        elif d.said.person == NEW and any(not c.shared_tournament for c in d.identity.candidates):
            rows.record_merge(
                s,
                kind="new",
                source=pid,
                target=pid,
                registrations=[reg.id],
                who=who,
                why="registration: a new person, chosen",
                at=now(),
            )
        v = _person_view(s, pid)
        member = (d.said.member_number or "").strip() or None
        values: dict[str, Any] = {}
        if member and not v.member_number:
            values["member_number"] = member
        if d.said.birth_year is not None and v.birth_year is None:
            values["birth_year"] = d.said.birth_year
        if values:
            try:
                _set_details(s, pid, who=who, **values)
            except UseCaseError as exc:
                raise _refuse(d.said, exc) from None
    return notices


def _why(said: Said, found: Identity, pid: int | None, how: str, seat: str | None) -> str:
    """The link's reason in the people's log (the app's own words)."""
    if pid is None:
        return ""
    if how == "claim":
        return f"registration: the claim code of {seat}"
    c = next((c for c in found.candidates if c.person.person == pid), None)
    evidence = (
        ""
        if c is None
        else f"the same member number {c.person.member_number}"
        if c.same_member
        else f"the same birth year {c.person.birth_year}"
        if c.same_birth_year
        else ""
    )
    if said.person is None:
        return f"registration: {evidence}"
    return "registration: the same person, chosen" + (f" ({evidence})" if evidence else "")


def possible_same(store: Store, slug: str) -> set[int]:
    """The registrations of ``slug`` that may be someone who played before: a person
    new in this tournament, with people of the same name who played elsewhere, and no
    choice recorded (registered on the public form, or from a list without evidence).
    The director decides on the registration's "the same person as …" page."""
    with store.reading() as s:
        here = rows.registrations_in(s, slug)
        elsewhere = rows.people_elsewhere(s, slug)
        decided = rows.chosen_new(s, [pid for _id, _n, pid, _name in here])
    playing = {pid for _id, _n, pid, _name in here}
    keys = {name_key(name) for pid, name in elsewhere.items() if pid not in playing}
    return {
        number
        for rid, number, pid, name in here
        if pid not in elsewhere and rid not in decided and name_key(name) in keys
    }


__all__ = [
    "NEW",
    "Decided",
    "Identity",
    "PersonChoice",
    "Said",
    "chosen_people",
    "decide",
    "identify",
    "possible_same",
    "record",
]
