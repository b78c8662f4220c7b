"""Who a new registration is: the people of the same name who played before, the one
the evidence names or the director chooses (:func:`identify`: the director's preview,
nothing written), linking each new registration to that person in the registration's
unit of work (:func:`settle_people`), and the registrations the director may still
have to decide on (:func:`possible_same`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any, Final, Literal, Protocol

from meldtour.core.refusal import Refusal
from meldtour.core.refusal import register as register_codes
from meldtour.store import circuit as rows
from meldtour.store.db import Store
from meldtour.store.repository import now
from meldtour.tournament import Notice
from meldtour.tournament.entries import name_key

from ..errors import UseCaseError
from .identity import (
    Candidate,
    _candidates,
    _link,
    _name_index,
    _person_view,
    _set_details,
    suggest,
)

register_codes({
    "circuit.member_differs": "the member number of %(person)s is %(theirs)s, not %(yours)s",
    "circuit.birth_year_differs": "%(person)s was born in %(theirs)s, not %(yours)s",
})

#: A new registration's person as chosen: a person's id, :data:`NEW` (a new person,
#: whatever the evidence), or ``None`` (a new person unless the evidence names one
#: who played before: :func:`suggest`).
PersonChoice = int | Literal["new"] | None
NEW: Final = "new"


class Said(Protocol):
    """What a new registration says about who the player is (a line of a list, the
    director's form): :class:`~meldtour.application.registration.PlayerEntry`."""

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


@dataclass(frozen=True, slots=True)
class Identity:
    """Who a new registration is: the people of the same name who played before (with
    the evidence), the one the evidence names (``suggested``), the one it will be
    (``chosen``; ``None``: a new person), and what stands in the way, by field
    (``member``, ``birth_year``, ``person``): a member number of someone else,
    evidence that contradicts the person chosen, a person who plays here already."""

    candidates: tuple[Candidate, ...]
    suggested: int | None
    chosen: int | None
    problems: tuple[tuple[str, Refusal], ...] = ()


def _identify(s: Any, index: Mapping[str, Sequence[int]], slug: str, said: Said,
              taken: set[int], besides: int | None = None) -> Identity:
    member = (said.member_number or "").strip() or None
    year = said.birth_year
    found = [replace(c, shared_tournament=True) if c.person.person in taken else c
             for c in _candidates(s, index, said.name, member=member, birth_year=year,
                                  tournaments={slug}, besides=besides)]
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
        else:
            v = _person_view(s, chosen)
            if chosen in taken or slug in {e.tournament for e in v.entries}:
                problems.append(("person", Refusal("circuit.played_together", {
                    "a": f"#{chosen} {v.name}", "b": said.name, "tournament": slug})))
    if chosen is not None and not problems:
        v = _person_view(s, chosen)
        who = f"#{chosen} {v.name}"
        if member and v.member_number and member != v.member_number:
            problems.append(("member", Refusal("circuit.member_differs", {
                "person": who, "theirs": v.member_number, "yours": member})))
        if year is not None and v.birth_year is not None and year != v.birth_year:
            problems.append(("birth_year", Refusal("circuit.birth_year_differs", {
                "person": who, "theirs": v.birth_year, "yours": year})))
    if member:
        owner = rows.by_member_number(s, member)
        if owner is not None and owner != chosen and owner != besides:
            problems.append(("member", Refusal("circuit.member_taken", {
                "number": repr(member), "person": f"#{owner} {_person_view(s, owner).name}"})))
    if year is not None and not 1900 <= year <= datetime.now(UTC).year:
        problems.append(("birth_year", Refusal("circuit.birth_year", {"year": year})))
    return Identity(tuple(found), suggested, chosen, tuple(problems))


def identify(store: Store, slug: str, lines: Sequence[Said]) -> list[Identity]:
    """Who each new registration of a list would be, in order (what the director's
    preview shows; nothing is written): a person an earlier line is counts as playing
    here for the lines after it."""
    with store.reading() as s:
        index = _name_index(s)
        taken: set[int] = set()
        out = []
        for said in lines:
            found = _identify(s, index, slug, said, taken)
            if found.chosen is not None:
                taken.add(found.chosen)
            out.append(found)
        return out


def settle_people(s: Any, slug: str, placed: Sequence[tuple[Any, Said]], *,
                  who: str) -> list[Notice]:
    """In the registration's unit of work, once its new registrations are written (each
    a new person): link each to the person chosen, or named by the evidence (a link,
    as :func:`same_person` records it), record the director's "a new person" over
    people of the same name, and record the member number and birth year given (what
    the person lacks). All or nothing: the first problem refuses the whole unit,
    naming the line."""
    index = _name_index(s)
    notices = []
    for reg, said in placed:
        try:
            found = _identify(s, index, slug, said, set(), besides=reg.player_id)
            if found.problems:
                refusal = found.problems[0][1]
                raise UseCaseError(refusal.code, **refusal.params)
            pid = reg.player_id
            if found.chosen is not None:
                _link(s, reg, slug, found.chosen, who=who, why=_why(said, found))
                pid = found.chosen
                notices.append(Notice("person", f"#{reg.number} {reg.name} is person #{pid}, "
                                      "who played before", player=reg.number))
            elif said.person == NEW and any(not c.shared_tournament for c in found.candidates):
                rows.record_merge(s, kind="new", source=pid, target=pid,
                                  registrations=[reg.id], who=who,
                                  why="registration: a new person, chosen", at=now())
            v = _person_view(s, pid)
            member = (said.member_number or "").strip() or None
            values: dict[str, Any] = {}
            if member and not v.member_number:
                values["member_number"] = member
            if said.birth_year is not None and v.birth_year is None:
                values["birth_year"] = said.birth_year
            if values:
                _set_details(s, pid, who=who, **values)
        except UseCaseError as exc:
            if said.line is None:
                raise
            raise UseCaseError("usecase.row", line=said.line, reason=exc.refusal) from None
    return notices


def _why(said: Said, found: Identity) -> str:
    """The link's reason in the people's log (the app's own words)."""
    c = next((c for c in found.candidates if c.person.person == found.chosen), None)
    evidence = "" if c is None else \
        f"the same member number {c.person.member_number}" if c.same_member else \
        f"the same birth year {c.person.birth_year}" if c.same_birth_year else ""
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
    return {number for rid, number, pid, name in here
            if pid not in elsewhere and rid not in decided and name_key(name) in keys}
