"""The circuit: people across tournaments, the organisations' rankings, the ratings
and the qualifications.

- **People.** A new registration is a new person unless the director chooses who it
  is or the evidence names someone who played before (:func:`identify`,
  :func:`settle_people`, :func:`suggest`: the same member number or birth year; a name
  alone never does — two 김민지 stay two people); the director says later which
  registrations are one person (:func:`merge`, :func:`same_person`) or not
  (:func:`split`). Each is audited and recomputes the ratings (the rankings are
  computed from the places on every reading).
- **Rankings.** An organisation's ranking (:func:`define_ranking`; as typed in a form
  or on the command line, :func:`save_ranking`) counts every
  awarded division or those it names (:func:`count_division`), with its numbers; the
  table is :func:`ranking_table`, the pure
  :func:`~meldtour.tournament.ranking.national_ranking` over the stored places.
  With no ranking defined the default one (:data:`DEFAULT_RANKING`) counts every
  awarded division at the ``national`` level with the pure function's defaults.
- **Ratings** (openskill, updated at every award) are :func:`ratings`; a merge or a
  split replays every awarded division in the order it was awarded.
- **Qualifications.** An award grants one (:func:`grant_qualification`: places 1 to
  N, passing down past whoever declines, :func:`decline`); a division with quotas
  (:func:`set_quota`) is by qualification only: :func:`register_qualified` accepts a
  holder and refuses everyone else with the reason.

The defaults and what each number means: docs/circuit.md, "Rankings".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime
from functools import partial
from typing import Any, Final, Literal, Protocol

from meldtour.core.jsontext import is_control
from meldtour.core.refusal import Refusal, Refused
from meldtour.core.refusal import register as register_codes
from meldtour.store import circuit as rows
from meldtour.store.db import Store
from meldtour.store.models import Rating as RatingRow
from meldtour.store.repository import Loaded, load, now, save, touch
from meldtour.tournament import Notice, Tournament, TournamentError, final_ranking
from meldtour.tournament import register as engine_register
from meldtour.tournament.entries import name_key
from meldtour.tournament.ranking import (
    DEFAULT_WEIGHTS,
    RankingConfig,
    Rating,
    RatingConfig,
    TournamentResult,
    in_season,
    national_ranking,
    rate_games,
)

from .errors import UseCaseError
from .unit import Outcome

register_codes({
    "circuit.no_person": "there is no person %(person)s",
    "circuit.same_person": "%(person)s and %(other)s are the same person already",
    "circuit.played_together": "%(a)s and %(b)s both played in %(tournament)s: they are two "
                               "people",
    "circuit.needs_why": "say why (the reason is kept in the audit log)",
    "circuit.member_taken": "member number %(number)s belongs to %(person)s already",
    "circuit.member_differs": "the member number of %(person)s is %(theirs)s, not %(yours)s",
    "circuit.birth_year_differs": "%(person)s was born in %(theirs)s, not %(yours)s",
    "circuit.birth_year": "the birth year %(year)s is not a year between 1900 and today",
    "circuit.no_registration": "%(tournament)s has no player number %(number)s",
    "circuit.split_nothing": "%(person)s has no registration in %(tournaments)s",
    "circuit.split_all": "a split must leave %(person)s at least one registration",
    "circuit.no_ranking": "there is no ranking %(key)s: %(keys)s",
    "circuit.several_rankings": "there are several rankings: choose one of %(keys)s",
    "circuit.ranking_key": "a ranking's key is letters, digits and - (not %(key)s)",
    "circuit.no_division": "%(tournament)s has no division %(division)s",
    "circuit.bad_number": "%(what)s must be a number (not %(value)s)",
    "circuit.bad_date": "%(what)s must be a date YYYY-MM-DD (not %(value)s)",
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
    "circuit.ranking_field": "%(field)s: %(reason)s",
    "circuit.ranking_exists": "there is a ranking %(key)s already: change it on its own page",
    "circuit.ranking_key_reserved": "%(key)s names a page of its own: choose another key",
    "circuit.ranking_method": "the points are by percentile or by a table (not %(method)s)",
    "circuit.not_a_number": "%(value)s is not a number",
    "circuit.not_whole": "%(value)s is not a whole number",
    "circuit.too_small": "%(value)s is less than %(least)s",
    "circuit.too_big": "%(value)s is more than %(most)s",
    "circuit.control_character": "the text holds a control character (%(char)s)",
    "circuit.table_empty": "give the points of each place from the first, such as 100, 60, 40",
    "circuit.too_many_places": "a points table has at most %(most)s places (not %(n)s)",
    "circuit.level_name": "a level's name is letters, digits, - and _ (not %(level)s)",
    "circuit.level_twice": "the level %(level)s is given twice",
    "circuit.not_a_date": "%(value)s is not a date YYYY-MM-DD",
    "circuit.season_order": "the season ends (%(end)s) before it starts (%(start)s)",
    "circuit.weight_item": "give a level's weight as LEVEL=W, such as national=1 (not "
                           "%(item)s)",
})

DEFAULT_RANKING: Final = "national"
DEFAULT_LEVEL: Final = "national"
RATING: Final = RatingConfig()


# ---------------------------------------------------------------------------
# Results (the stored final places)


def record_results(s: Any, loaded: Loaded, division: str) -> None:
    """Store the division's final places (at the awards), each against its
    registration, so that the rankings follow a merge."""
    placings = final_ranking(loaded.value, division)
    regs = loaded.registrations
    rows.store_results(s, loaded.divisions[division].id,
                       [(regs[p.player].id, p.place) for p in placings], len(placings))


def backfill(store: Store) -> int:
    """Store the places of divisions awarded before the places were kept; how many."""
    with store.reading() as s:
        missing = rows.awarded_without_results(s)
    for slug, key in missing:
        with store.transaction() as s:
            record_results(s, load(s, slug), key)
    return len(missing)


# ---------------------------------------------------------------------------
# People


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
        recompute_ratings(s)
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
        recompute_ratings(s)
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
        recompute_ratings(s)
        return MergeOutcome(_person_view(s, other.id), tuple(ids))


# ---------------------------------------------------------------------------
# Who a new registration is

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


# ---------------------------------------------------------------------------
# Ratings


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


# ---------------------------------------------------------------------------
# Rankings


@dataclass(frozen=True, slots=True)
class RankingInfo:
    key: str
    name: str
    organisation: str
    config: RankingConfig
    counts_all: bool
    default_level: str
    events: Mapping[int, str]


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
        season_end=day(data.get("season_end")))


def config_data(c: RankingConfig) -> dict[str, Any]:
    return {"base": c.base, "weights": dict(c.weights), "half_life_days": c.half_life_days,
            "best": c.best, "table": list(c.table),
            "season_start": c.season_start.isoformat() if c.season_start else None,
            "season_end": c.season_end.isoformat() if c.season_end else None}


def _ranking_info(s: Any, key: str | None) -> RankingInfo:
    defined = rows.rankings(s)
    if key is None:
        if len(defined) > 1:
            raise UseCaseError("circuit.several_rankings",
                               keys=", ".join(r.key for r in defined))
        if not defined:
            return RankingInfo(DEFAULT_RANKING, "National ranking", "", RankingConfig(),
                               True, DEFAULT_LEVEL, {})
        row = defined[0]
    else:
        found = rows.ranking_by_key(s, key)
        if found is None:
            if key == DEFAULT_RANKING and not defined:
                return _ranking_info(s, None)
            raise UseCaseError("circuit.no_ranking", key=repr(key),
                               keys=", ".join(r.key for r in defined) or DEFAULT_RANKING)
        row = found
    return RankingInfo(row.key, row.name, row.organisation, config_of(row.config),
                       row.counts_all, row.default_level, rows.ranking_events(s, row.id))


def rankings(store: Store, *, stored: bool = False) -> list[RankingInfo]:
    """The rankings defined, oldest first; none defined: the default one (or nothing,
    ``stored``)."""
    with store.reading() as s:
        defined = rows.rankings(s)
        if not defined:
            return [] if stored else [_ranking_info(s, None)]
        return [_ranking_info(s, r.key) for r in defined]


def define_ranking(store: Store, key: str, *, who: str, name: str = "",
                   organisation: str = "", config: Mapping[str, Any] | None = None,
                   counts_all: bool = True, default_level: str = DEFAULT_LEVEL) -> RankingInfo:
    """Create an organisation's ranking or change its numbers (audited)."""
    if not re.fullmatch(r"[a-z0-9][a-z0-9-]{0,99}", key):
        raise UseCaseError("circuit.ranking_key", key=repr(key))
    cfg = config_of(config or {})  # refuses a bad best or half-life
    if default_level not in cfg.weights:
        raise UseCaseError("ranking.unknown_level", level=repr(default_level),
                           levels=", ".join(cfg.weights))
    with store.transaction() as s:
        _define(s, key, who=who, name=name, organisation=organisation, cfg=cfg,
                counts_all=counts_all, default_level=default_level)
        return _ranking_info(s, key)


def _define(s: Any, key: str, *, who: str, name: str, organisation: str,
            cfg: RankingConfig, counts_all: bool, default_level: str) -> Any:
    row = rows.ranking_by_key(s, key)
    before = None
    if row is None:
        row = rows.add_ranking(s, key=key, name=name or key, organisation=organisation,
                               config=config_data(cfg), counts_all=counts_all,
                               default_level=default_level, created_at=now())
    else:
        before = {"config": row.config, "counts_all": row.counts_all,
                  "default_level": row.default_level}
        row.name = name or row.name
        row.organisation = organisation or row.organisation
        row.config, row.counts_all = config_data(cfg), counts_all
        row.default_level = default_level
    rows.audit(s, at=now(), who=who, action="ranking", entity="ranking", key=key,
               before=before, after={"config": row.config, "counts_all": counts_all,
                                     "default_level": default_level}, why="")
    s.flush()
    return row


def count_division(store: Store, key: str, slug: str, division: str, *, who: str,
                   level: str | None = None) -> RankingInfo:
    """The division counts for the ranking, at ``level`` (default: the ranking's)."""
    with store.transaction() as s:
        info = _ranking_info(s, key)
        row = rows.ranking_by_key(s, info.key)
        if row is None:
            raise UseCaseError("circuit.no_ranking", key=repr(key), keys=DEFAULT_RANKING)
        lvl = level or info.default_level
        if lvl not in info.config.weights:
            raise UseCaseError("ranking.unknown_level", level=repr(lvl),
                               levels=", ".join(info.config.weights))
        _count(s, row.id, key, slug, _division(s, slug, division), division, lvl, who=who)
        return _ranking_info(s, key)


def _count(s: Any, ranking_id: int, key: str, slug: str, did: int, division: str,
           level: str | None, *, who: str) -> None:
    """List the division at ``level`` for the ranking (``None``: no longer listed)."""
    if level is None:
        rows.unset_ranking_event(s, ranking_id, did)
    else:
        rows.set_ranking_event(s, ranking_id, did, level)
    rows.audit(s, at=now(), who=who, action="ranking_counts", entity="ranking",
               key=key, before=None, after={"tournament": slug, "division": division,
                                            "level": level}, why="")


# ---------------------------------------------------------------------------
# A ranking's definition as typed (the director's form, ``meldtour ranking define``)

#: How a tournament's points are given: ``base × weight × percentile``, or a points
#: table by place (times the weight).
RANKING_METHODS: Final = ("percentile", "table")
#: The largest number a ranking takes (points, weights, days) and the most places of a
#: points table or results that count.
MAX_NUMBER: Final = 1_000_000_000
MAX_PLACES: Final = 1000
#: Keys the director's pages use for a page of their own (``/director/rankings/new``).
RESERVED_KEYS: Final = frozenset({"new"})


@dataclass(frozen=True, slots=True)
class RankingForm:
    """A ranking's definition as typed, every number as text; an empty one is the
    default (docs/circuit.md, "Rankings"). ``weights``: (level, weight) pairs, none
    for the defaults; ``counts``: the divisions listed (tournament, division, level —
    ``""``: not listed), ``None`` to leave them as they are; ``new``: refused when the
    key is taken."""

    key: str
    name: str = ""
    organisation: str = ""
    method: str = "percentile"
    base: str = ""
    table: str = ""
    weights: tuple[tuple[str, str], ...] = ()
    half_life: str = ""
    best: str = ""
    season_start: str = ""
    season_end: str = ""
    only_listed: bool = False
    level: str = ""
    counts: tuple[tuple[str, str, str], ...] | None = None
    new: bool = False

    @classmethod
    def blank(cls) -> RankingForm:
        """A new ranking's form: every number its default."""
        return replace(cls.of(RankingInfo("", "", "", RankingConfig(), True, DEFAULT_LEVEL,
                                           {})), new=True, counts=None)

    @classmethod
    def of(cls, info: RankingInfo, counts: Sequence[tuple[str, str, str]] = ()) -> RankingForm:
        """The form of a ranking as it is (to edit it)."""
        c = info.config
        return cls(info.key, info.name, info.organisation,
                   "table" if c.table else "percentile", f"{c.base:g}",
                   ", ".join(f"{x:g}" for x in c.table),
                   tuple((k, f"{w:g}") for k, w in c.weights.items()),
                   f"{c.half_life_days:g}", str(c.best),
                   c.season_start.isoformat() if c.season_start else "",
                   c.season_end.isoformat() if c.season_end else "",
                   not info.counts_all, info.default_level, tuple(counts))


class RankingRefused(UseCaseError):
    """A ranking's definition refused, with each field's refusal (``fields``, by the
    field's name: ``key``, ``base``, ``table``, ``weights``, ``half_life``, ``best``,
    ``season_start``, ``season_end``, ``level``, ``count:SLUG/DIVISION``); its message
    is the first one's."""

    def __init__(self, fields: Mapping[str, Refusal]) -> None:
        field, first = next(iter(fields.items()))
        super().__init__("circuit.ranking_field", field=field, reason=first)
        self.fields = dict(fields)


def _number(text: str, *, whole: bool = False, least: float = 0) -> float:
    t = text.strip()
    try:
        x = int(t) if whole else float(t)
    except ValueError:
        raise UseCaseError("circuit.not_whole" if whole else "circuit.not_a_number",
                           value=repr(text.strip()[:40])) from None
    if x != x or x in (float("inf"), float("-inf")):
        raise UseCaseError("circuit.not_a_number", value=repr(text.strip()[:40]))
    if x < least:
        raise UseCaseError("circuit.too_small", value=f"{x:g}", least=f"{least:g}")
    if x > MAX_NUMBER:
        raise UseCaseError("circuit.too_big", value=f"{x:g}", most=f"{MAX_NUMBER:,}")
    return x


def _text(text: str, limit: int) -> str:
    bad = next((c for c in text if is_control(c)), None)
    if bad is not None:
        raise UseCaseError("circuit.control_character", char=repr(bad))
    return " ".join(text.split())[:limit]


def check_ranking(form: RankingForm) -> tuple[dict[str, Any], dict[str, Refusal]]:
    """The ranking's stored numbers from the form, and every field's refusal (none:
    it may be saved). Nothing is read or written."""
    errors: dict[str, Refusal] = {}
    config: dict[str, Any] = {}

    def field(name: str, f: Callable[[], Any]) -> Any:
        try:
            return f()
        except Refused as exc:
            errors.setdefault(name, exc.refusal)
            return None

    if not re.fullmatch(r"[a-z0-9][a-z0-9-]{0,99}", form.key):
        errors["key"] = Refusal("circuit.ranking_key", {"key": repr(form.key[:100])})
    elif form.new and form.key in RESERVED_KEYS:
        errors["key"] = Refusal("circuit.ranking_key_reserved", {"key": repr(form.key)})
    field("name", lambda: _text(form.name, 200))
    field("organisation", lambda: _text(form.organisation, 200))
    if form.method not in RANKING_METHODS:
        errors["method"] = Refusal("circuit.ranking_method", {"method": repr(form.method[:20])})
    if form.base.strip():
        config["base"] = field("base", lambda: _number(form.base))
    if form.method == "table":
        def table() -> list[float]:
            items = [x for x in re.split(r"[\s,;]+", form.table.strip()) if x]
            if not items:
                raise UseCaseError("circuit.table_empty")
            if len(items) > MAX_PLACES:
                raise UseCaseError("circuit.too_many_places", n=len(items), most=MAX_PLACES)
            return [_number(x) for x in items]
        config["table"] = field("table", table)
    weights: dict[str, float] = {}
    for level, w in form.weights:
        level = level.strip()
        if not level and not w.strip():
            continue
        if not re.fullmatch(r"[\w-]{1,40}", level):
            errors.setdefault("weights", Refusal("circuit.level_name",
                                                 {"level": repr(level[:40])}))
        elif level in weights:
            errors.setdefault("weights", Refusal("circuit.level_twice",
                                                 {"level": repr(level)}))
        elif w.strip():
            value = field("weights", partial(_number, w))
            if value is not None:
                weights[level] = value
    if weights:
        config["weights"] = weights
    if form.half_life.strip():
        half = field("half_life", lambda: _number(form.half_life, least=-MAX_NUMBER))
        if half is not None and half < 0:
            errors["half_life"] = Refusal("ranking.half_life")
        config["half_life_days"] = half
    if form.best.strip():
        best = field("best", lambda: _number(form.best, whole=True, least=-MAX_NUMBER))
        if best is not None and best < 1:
            errors["best"] = Refusal("ranking.best")
        elif best is not None and best > MAX_PLACES:
            errors["best"] = Refusal("circuit.too_big", {"value": str(best),
                                                         "most": str(MAX_PLACES)})
        config["best"] = best
    days: dict[str, date | None] = {}
    for name in ("season_start", "season_end"):
        text = getattr(form, name).strip()
        days[name] = None
        if text:
            try:
                days[name] = date.fromisoformat(text)
            except ValueError:
                errors[name] = Refusal("circuit.not_a_date", {"value": repr(text[:40])})
            config[name] = text
    start, end = days["season_start"], days["season_end"]
    if start and end and end < start:
        errors["season_end"] = Refusal("circuit.season_order", {"start": start.isoformat(),
                                                               "end": end.isoformat()})
    levels = weights or dict(DEFAULT_WEIGHTS)
    level = form.level.strip() or DEFAULT_LEVEL
    if level not in levels:
        errors["level"] = Refusal("ranking.unknown_level", {"level": repr(level[:40]),
                                                            "levels": ", ".join(levels)})
    for slug, division, lvl in form.counts or ():
        if lvl and lvl not in levels:
            errors[f"count:{slug}/{division}"] = Refusal("ranking.unknown_level", {
                "level": repr(lvl[:40]), "levels": ", ".join(levels)})
    return config, errors


def save_ranking(store: Store, form: RankingForm, *, who: str) -> RankingInfo:
    """Create or change a ranking from what was typed, with the divisions it lists, in
    one transaction (audited); every field's refusal at once
    (:class:`RankingRefused`), and then nothing is changed."""
    config, errors = check_ranking(form)
    if errors:
        raise RankingRefused(errors)
    cfg = config_of(config)
    level = form.level.strip() or DEFAULT_LEVEL
    with store.transaction() as s:
        row = rows.ranking_by_key(s, form.key)
        if row is not None and form.new:
            raise RankingRefused({"key": Refusal("circuit.ranking_exists",
                                                 {"key": repr(form.key)})})
        listed: dict[int, str] = rows.ranking_events(s, row.id) if row is not None else {}
        changes: list[tuple[str, str, int, str | None]] = []
        for slug, division, lvl in form.counts or ():
            did = rows.division_id(s, slug, division)
            if did is None:
                errors[f"count:{slug}/{division}"] = Refusal("circuit.no_division", {
                    "tournament": repr(slug), "division": repr(division)})
            elif listed.get(did) != (lvl or None):
                changes.append((slug, division, did, lvl or None))
        after = dict(listed)
        for _slug, _div, did, now_at in changes:
            if now_at is None:
                after.pop(did, None)
            else:
                after[did] = now_at
        lost = sorted({x for x in after.values() if x not in cfg.weights})
        if lost:  # a division listed at a level the weights no longer have
            errors["weights"] = Refusal("ranking.unknown_level", {
                "level": ", ".join(map(repr, lost)), "levels": ", ".join(cfg.weights)})
        if errors:
            raise RankingRefused(errors)
        row = _define(s, form.key, who=who, name=_text(form.name, 200),
                      organisation=_text(form.organisation, 200), cfg=cfg,
                      counts_all=not form.only_listed, default_level=level)
        for slug, division, did, now_at in changes:
            _count(s, row.id, form.key, slug, did, division, now_at, who=who)
        return _ranking_info(s, form.key)


@dataclass(frozen=True, slots=True)
class DivisionChoice:
    """A division a ranking may list: its tournament, and whether it is awarded."""

    tournament: str
    tournament_name: str
    date: str
    division: str
    division_name: str
    awarded: bool
    id: int


def ranking_divisions(store: Store) -> list[DivisionChoice]:
    """Every division of every tournament, newest tournament first (the ranking form's
    list)."""
    with store.reading() as s:
        return [DivisionChoice(*r) for r in rows.every_division(s)]


def _division(s: Any, slug: str, division: str) -> int:
    did = rows.division_id(s, slug, division)
    if did is None:
        raise UseCaseError("circuit.no_division", tournament=repr(slug),
                           division=repr(division))
    return did


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
        return {"tournament": self.tournament, "division": self.division,
                "place": self.place, "points": round(self.points, 2)}


@dataclass(frozen=True, slots=True)
class RankingEntry:
    rank: int
    person: int
    name: str
    points: float
    events: tuple[EventPoints, ...]

    def as_json(self) -> dict[str, Any]:
        return {"rank": self.rank, "person": self.person, "name": self.name,
                "points": round(self.points, 2),
                "events": [e.as_json() for e in self.events if e.counted]}


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


def ranking_table(store: Store, key: str | None = None, as_of: date | None = None, *,
                  public_only: bool = False) -> RankingTable:
    """The ranking on ``as_of`` (today by default): each line with the tournaments
    behind its points, computed by :func:`national_ranking` from the stored places."""
    day = as_of or datetime.now(UTC).date()
    with store.reading() as s:
        info = _ranking_info(s, key)
        lines = rows.result_lines(s, None if info.counts_all else list(info.events))
        ids = {line[6] for line in lines}
        names = rows.names(s) if ids else {}
        hidden = {pid for pid, d in rows.details(s, ids).items() if not d.public} \
            if public_only else set()
    by_event: dict[str, dict[int, int]] = {}
    meta: dict[str, tuple[str, str, str, str, str]] = {}
    level: dict[str, str] = {}
    for did, slug, tname, tday, dkey, dname, pid, place, _field, at in lines:
        ek = f"{slug}/{dkey}"
        places = by_event.get(ek)
        if places is None:
            places = by_event[ek] = {}
            meta[ek] = (slug, tname, tday or (at or "")[:10], dkey, dname)
            level[ek] = info.events.get(did, info.default_level)
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
    out = []
    for line in table:
        if line.player in hidden:
            continue
        counted = {k for k, _ in line.counted}
        evs = []
        for k, pts in line.counted:
            slug, tname, tday, dkey, dname = meta[k]
            evs.append(EventPoints(slug, tname, dkey, dname, tday, place_of[k][line.player],
                                   len(place_of[k]), pts, True))
        for r in played.get(line.player, ()):
            if r.key not in counted:
                slug, tname, tday, dkey, dname = meta[r.key]
                evs.append(EventPoints(slug, tname, dkey, dname, tday, r.places[line.player],
                                       r.field_size, 0.0, False))
        out.append(RankingEntry(line.rank, line.player, names.get(line.player, "?"),
                                line.points, tuple(evs)))
    return RankingTable(info, day, tuple(out), tuple(results))


def _held(text: str) -> date | None:
    try:
        return date.fromisoformat(text[:10])
    except ValueError:
        return None


# ---------------------------------------------------------------------------
# Qualifications


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
    from .divisions import resolve_division

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
    from .divisions import resolve_division

    with store.reading() as s:
        loaded_row = _tournament_row(s, slug)
        quota = rows.quota_divisions(s, loaded_row)
    if not quota:
        return None
    from .cache import read
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


# ---------------------------------------------------------------------------
# Seeding


#: The seating methods that seed a first stage, and what they seed by.
SEEDED: Final = {"by-rating": "rating", "by-ranking": "ranking"}


def seed_order(store: Store, slug: str | None, division: str | None) -> list[int] | None:
    """The registration numbers of the division in seed order — best rating (mu − 3σ)
    or most ranking points first, the others after in registration order — when its
    first stage is yet to start and is seated by rating or ranking; else ``None``."""
    from .cache import read
    from .divisions import resolve_division

    t = read(store, slug)
    try:
        key = resolve_division(t, division)
    except (TournamentError, UseCaseError):
        return None
    div = t.division(key)
    if div.stages or not div.formats or div.formats[0].method not in SEEDED:
        return None
    with store.reading() as s:
        loaded = load(s, slug)
        person_of = {n: r.player_id for n, r in loaded.registrations.items()
                     if r.division_id == loaded.divisions[key].id}
    value: dict[int, float]
    if SEEDED[div.formats[0].method] == "rating":
        value = {r.person: r.ordinal for r in ratings(store)}
    else:
        try:
            value = {x.person: x.points for x in ranking_table(store).lines}
        except UseCaseError:  # several rankings and none chosen: registration order
            value = {}
    numbers = sorted(person_of)
    return sorted(numbers, key=lambda n: (person_of[n] not in value,
                                          -value.get(person_of[n], 0.0), n))


# ---------------------------------------------------------------------------
# A person's page


@dataclass(frozen=True, slots=True)
class Played:
    entry: Entry
    division_name: str
    games: int
    points: int


@dataclass(frozen=True, slots=True)
class PersonPage:
    person: PersonView
    played: tuple[Played, ...]
    ranking: RankingEntry | None
    ranking_info: RankingInfo | None
    rating: RatingLine | None
    qualifications: tuple[Holder, ...]


def person_page(store: Store, pid: int) -> PersonPage | None:
    """What the public page of a person shows (``None`` when the person is not public)."""
    from .cache import read

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
        played.append(Played(replace(e), div.name, len(games),
                             sum(g.total(e.number) for g in games)))
    line = info = None
    try:
        table = ranking_table(store, None)
        info = table.info
        line = next((x for x in table.lines if x.person == pid), None)
    except UseCaseError:
        pass
    rating = next((r for r in ratings(store) if r.person == pid), None)
    quals = tuple(h for h in holders(store) if h.person == pid and h.status == "holds")
    return PersonPage(v, tuple(played), line, info, rating, quals)


__all__ = [
    "DEFAULT_RANKING", "MAX_NUMBER", "MAX_PLACES", "NEW", "RANKING_METHODS", "Candidate",
    "DivisionChoice", "Entry", "EventPoints", "Holder", "Identity", "MergeOutcome",
    "PersonChoice", "PersonPage", "PersonView", "Played", "RankingEntry", "RankingForm",
    "RankingInfo", "RankingRefused", "RankingTable", "RatingLine", "Said", "SeatView",
    "backfill", "by_qualification", "candidates", "check_ranking", "config_data",
    "config_of", "count_division", "decline", "define_ranking", "grant_qualification",
    "holders", "identify", "merge", "parse_day", "people", "person", "person_page",
    "possible_same", "qualifications", "ranking_divisions", "rankings", "rate_division",
    "ratings", "recompute_ratings", "record_results", "register_qualified", "same_person",
    "save_ranking", "seats", "seed_order", "set_person", "set_quota", "settle_people",
    "split", "suggest",
]
