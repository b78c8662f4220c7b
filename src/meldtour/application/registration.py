"""Registration: players in (from a form or a file), check-in and its close, and who
leaves or comes late — withdrawals, drops, late entries."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from meldtour.store.db import Store
from meldtour.store.models import RegistrationRow
from meldtour.store.repository import Loaded, load
from meldtour.tournament import (
    Notice,
    Progress,
    Tournament,
    TournamentError,
    check_in,
    drop,
    late_entry,
    register,
    start_division,
    withdraw,
)

from .acting import Who, name_of
from .circuit import Decided, PersonChoice, chosen_people, decide, record
from .divisions import division_key, resolve_division
from .errors import UseCaseError, engine_error
from .unit import Outcome, act


@dataclass(frozen=True, slots=True)
class PlayerEntry:
    """A player to register; ``line`` names the row of the file it came from.

    Who the player is: ``person`` — a person who played before (by id), ``"new"``, or
    ``None``: a new person unless the evidence given (``member_number``,
    ``birth_year``) names one who played before (:func:`.circuit.suggest`); a name
    alone never does. The member number and birth year are recorded for the person.
    ``claim`` is a holder's claim code, for a seat kept for a qualification.
    """

    name: str
    division: str | None = None
    tags: tuple[str, ...] = ()
    generation: int | None = None
    line: int | None = None
    member_number: str | None = None
    birth_year: int | None = None
    person: PersonChoice = None
    claim: str | None = None


def register_players(
    store: Store,
    slug: str | None,
    entries: Sequence[PlayerEntry],
    *,
    who: Who,
    tick: Callable[[], Any] | None = None,
) -> Outcome:
    """Register players in order (past a division's cap they are waitlisted), each as
    the person chosen or named by the evidence, else a new person — the one identity
    rule (:func:`.circuit.decide`), which also checks each line against the seats a
    division keeps for qualifications. All or nothing: an error names the row and
    nothing is registered."""
    new: list[int] = []

    def step(t: Tournament) -> Progress:
        notices: list[Notice] = []
        known = {r.player for r in t.registrations}
        for e in entries:
            try:
                division = resolve_division(t, e.division, for_import=True)
                t, more, _ = register(t, division, e.name, tags=e.tags, generation=e.generation)
            except (TournamentError, UseCaseError) as exc:
                if e.line is None:
                    raise engine_error(exc) from None
                raise TournamentError("usecase.row", line=e.line, reason=exc.refusal) from None
            notices.extend(more)
            if tick:
                tick()
        new[:] = [r.player for r in t.registrations if r.player not in known]
        return Progress(t, tuple(notices))

    people, then = _people(new, entries, who)
    return act(store, slug, who, "register", step, people=people, then=then)


def _people(
    new: Sequence[int], entries: Sequence[PlayerEntry], who: Who
) -> tuple[
    Callable[[Any, Loaded, Tournament], Mapping[int, int]],
    Callable[[Any, Loaded], Sequence[Notice]],
]:
    """Who each new registration is (by number), decided before they are written, and
    the people's log once they are."""
    decided: list[Decided] = []

    def people(s: Any, loaded: Loaded, t: Tournament) -> Mapping[int, int]:
        decided[:] = decide(s, loaded, t, new, entries)
        return chosen_people(decided)

    def then(s: Any, loaded: Loaded) -> Sequence[Notice]:
        return record(s, loaded, decided, who=name_of(who))

    return people, then


def find_player(t: Tournament, token: str, division: str | None = None) -> int:
    """A registration by number (``12`` or ``#12``) or by name (exact, then ignoring
    case)."""
    s = token.strip()
    if re.fullmatch(r"#?\d+", s):
        number = int(s.lstrip("#"))
        try:
            t.registration(number)
        except TournamentError as exc:
            raise UseCaseError.of(exc) from None
        return number
    regs = [r for r in t.registrations if division is None or r.division == division]
    for fold in (str, str.casefold):  # the exact name, then ignoring case
        found = [r for r in regs if fold(r.name) == fold(s)]
        if len(found) == 1:
            return found[0].player
        if len(found) > 1:
            raise UseCaseError(
                "usecase.same_name",
                n=len(found),
                name=repr(s),
                numbers=", ".join(f"#{r.player}" for r in found),
            )
    raise UseCaseError("usecase.no_player", who=repr(s))


def check_in_players(
    store: Store,
    slug: str | None,
    players: Iterable[str],
    *,
    who: Who,
    everyone_but: bool = False,
    division: str | None = None,
) -> Outcome:
    """Check players in (by name or number); with ``everyone_but``, every registered
    player of the division except those named."""
    tokens = list(players)

    def step(t: Tournament) -> Progress:
        try:
            numbers = [find_player(t, x, division) for x in tokens]
            if everyone_but:
                key = resolve_division(t, division)
                skip = set(numbers)
                numbers = [
                    r.player for r in t.in_division(key, "registered") if r.player not in skip
                ]
        except UseCaseError as exc:
            raise engine_error(exc) from None
        notices: list[Notice] = []
        for n in numbers:
            t, more, _ = check_in(t, n)
            notices.extend(more)
        return Progress(t, tuple(notices))

    return act(store, slug, who, "check_in", step)


def close_check_in(store: Store, slug: str | None, division: str | None, *, who: Who) -> Outcome:
    """Start the division: whoever has not checked in is a no-show."""

    def step(t: Tournament) -> Progress:
        return start_division(t, division_key(t, division))

    return act(store, slug, who, "close_check_in", step)


# ---------------------------------------------------------------------------
# Withdrawals, drops and late entries


def withdraw_player(store: Store, slug: str | None, player: str, *, who: Who) -> Outcome:
    """A player withdraws before the division starts; the first on the waitlist moves
    up."""

    def step(t: Tournament) -> Progress:
        return withdraw(t, _player(t, player))

    return act(store, slug, who, "withdraw", step)


def drop_player(store: Store, slug: str | None, player: str, *, who: Who, why: str = "") -> Outcome:
    """A player leaves during the event: their counted games stay, they are not seated
    again and cannot advance."""

    def step(t: Tournament) -> Progress:
        return drop(t, _player(t, player), why)

    return act(store, slug, who, "drop", step, why=why)


def enter_late(
    store: Store,
    slug: str | None,
    division: str | None,
    name: str,
    *,
    who: Who,
    tags: Sequence[str] = (),
    generation: int | None = None,
    member_number: str | None = None,
    birth_year: int | None = None,
    person: PersonChoice = None,
    claim: str | None = None,
) -> Outcome:
    """Enter a player after the start where the division allows late entry (before
    the start this is an ordinary registration), as the person chosen or named by the
    evidence (as :func:`register_players`)."""
    new: list[int] = []

    def step(t: Tournament) -> Progress:
        if not name.strip():
            raise TournamentError("registration.needs_name")
        known = {r.player for r in t.registrations}
        done = late_entry(t, division_key(t, division), name, tags=tags, generation=generation)
        new[:] = [r.player for r in done.tournament.registrations if r.player not in known]
        return done

    entry = PlayerEntry(
        " ".join(name.split()),
        division,
        tuple(tags),
        generation,
        member_number=member_number,
        birth_year=birth_year,
        person=person,
        claim=claim,
    )
    people, then = _people(new, [entry], who)
    return act(store, slug, who, "late_entry", step, people=people, then=then)


def _player(t: Tournament, token: str) -> int:
    try:
        return find_player(t, token)
    except UseCaseError as exc:
        raise engine_error(exc) from None


def registrations_by_number(store: Store, slug: str | None) -> dict[int, RegistrationRow]:
    with store.reading() as s:
        return dict(load(s, slug).registrations)


__all__ = [
    "PlayerEntry",
    "check_in_players",
    "close_check_in",
    "drop_player",
    "enter_late",
    "find_player",
    "register_players",
    "registrations_by_number",
    "withdraw_player",
]
