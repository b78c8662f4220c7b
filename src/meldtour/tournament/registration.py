"""Registration, waitlist, check-in, no-shows, drops and late entry.

First come, first served up to the division's cap; later entries wait, and move up
in order when a place frees. Check-in closes when the division starts: whoever has
not checked in is a no-show, and nobody enters afterwards unless the division allows
late entry (000: "대회가 시작된 후에는 대회장 출입이 불가").

>>> from meldtour.core.rules import find_rules
>>> from .model import Division, StageFormat, Tournament
>>> div = Division("general", "General", 2, find_rules("krc-2015"), (StageFormat("seatings"),))
>>> t = Tournament("Busan", "2015-12-05", (div,))
>>> for name in ("Kim", "Lee", "Park"):
...     t = register(t, "general", name).tournament
>>> [(r.player, r.status) for r in t.registrations]
[(1, 'registered'), (2, 'registered'), (3, 'waitlisted')]
>>> t, notices, _ = withdraw(t, 1)
>>> [n.text for n in notices]
['Kim withdrew', 'Park moved up from the waitlist']
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from meldtour.core.visible import code_point, first_invisible

from .model import Notice, Progress, Registration, Stage, Status, Tournament, TournamentError
from .refusals import status as _status


def refuse_invisible(name: str) -> None:
    """Refuse a name (a player's, a tournament's, a division's, a voter's) that holds
    a character that shows as nothing or reorders the text (:mod:`meldtour.core.visible`):
    on the projector it could look like someone else's."""
    bad = first_invisible(name)
    if bad is not None:
        raise TournamentError("registration.invisible_character", char=code_point(bad))


def register(
    t: Tournament,
    division: str,
    name: str,
    *,
    tags: Iterable[str] = (),
    generation: int | None = None,
) -> Progress:
    """Register a player; past the cap the player is waitlisted."""
    div = t.division(division)
    if div.started:
        raise TournamentError("division.started_registration_closed", div=div.name)
    if not name.strip():
        raise TournamentError("registration.needs_name")
    refuse_invisible(name)
    number = max((r.player for r in t.registrations), default=0) + 1
    taken = len(t.in_division(division, "registered", "checked_in"))
    status: Status = "registered" if taken < div.cap else "waitlisted"
    reg = Registration(number, name.strip(), division, frozenset(tags), generation, status)
    t = replace(t, registrations=(*t.registrations, reg))
    if status == "waitlisted":
        waiting = len(t.in_division(division, "waitlisted"))
        text = f"{reg.name} is number {waiting} on the waitlist of {div.name} (cap {div.cap})"
    else:
        text = f"{reg.name} registered in {div.name} as number {number}"
    return Progress(t, (Notice(status, text, division, number),))


def withdraw(t: Tournament, player: int) -> Progress:
    """A player withdraws before the start; the first on the waitlist moves up."""
    reg = t.registration(player)
    div = t.division(reg.division)
    if div.started:
        raise TournamentError("division.started_drop_instead", div=div.name)
    if reg.status not in ("registered", "waitlisted", "checked_in"):
        raise TournamentError(
            "registration.not_registered", name=reg.name, status=_status(reg.status)
        )
    was = reg.status
    t = t.with_registration(replace(reg, status="withdrawn"))
    notices = [Notice("withdrawn", f"{reg.name} withdrew", reg.division, player)]
    if was != "waitlisted":
        t, more = _promote(t, reg.division)
        notices.extend(more)
    return Progress(t, tuple(notices))


def set_cap(t: Tournament, division: str, cap: int) -> Progress:
    """Change a division's cap; a larger cap moves players up from the waitlist."""
    div = t.division(division)
    if div.started:
        raise TournamentError("division.started", div=div.name)
    t = t.with_division(replace(div, cap=cap))
    notices = [Notice("cap", f"{div.name} now takes {cap} players", division)]
    while True:
        t, more = _promote(t, division)
        if not more:
            break
        notices.extend(more)
    return Progress(t, tuple(notices))


def _promote(t: Tournament, division: str) -> tuple[Tournament, list[Notice]]:
    div = t.division(division)
    taken = len(t.in_division(division, "registered", "checked_in"))
    waiting = t.in_division(division, "waitlisted")
    if taken >= div.cap or not waiting:
        return t, []
    first = waiting[0]
    t = t.with_registration(replace(first, status="registered"))
    return t, [
        Notice("registered", f"{first.name} moved up from the waitlist", division, first.player)
    ]


def check_in(t: Tournament, player: int) -> Progress:
    """The player confirms attendance (000: an hour before the start; badges)."""
    reg = t.registration(player)
    div = t.division(reg.division)
    if div.started:
        raise TournamentError("division.started_nobody_enters", div=div.name)
    if reg.status == "checked_in":
        return Progress(t)
    if reg.status != "registered":
        raise TournamentError(
            "registration.check_in_registered_only", name=reg.name, status=_status(reg.status)
        )
    t = t.with_registration(replace(reg, status="checked_in"))
    return Progress(t, (Notice("checked_in", f"{reg.name} checked in", reg.division, player),))


def start_division(t: Tournament, division: str) -> Progress:
    """Close check-in: registered players who did not check in are no-shows, dropped
    before seating; waitlisted players are told there is no place."""
    div = t.division(division)
    if div.started:
        raise TournamentError("division.already_started", div=div.name)
    notices = []
    for reg in t.in_division(division, "registered"):
        t = t.with_registration(replace(reg, status="no_show"))
        notices.append(Notice("no_show", f"{reg.name} did not check in", division, reg.player))
    playing = len(t.in_division(division, "checked_in"))
    t = t.with_division(replace(div, started=True))
    notices.append(Notice("started", f"{div.name} starts with {playing} players", division))
    return Progress(t, tuple(notices))


def drop(t: Tournament, player: int, why: str = "") -> Progress:
    """A player leaves during the event: their games so far stay counted, they are
    seated no more and cannot advance. The stage's seatings to come are re-planned."""
    reg = t.registration(player)
    if reg.status != "checked_in":
        raise TournamentError("registration.not_playing", name=reg.name, status=_status(reg.status))
    t = t.with_registration(replace(reg, status="dropped"))
    div = t.division(reg.division)
    if div.stages and not div.stages[-1].finished:
        stage = div.stages[-1]
        stage = replace(stage, dropped=stage.dropped | {player}, plan=())
        t = t.with_division(replace(div, stages=(*div.stages[:-1], stage)))
    text = f"{reg.name} dropped" + (f": {why}" if why else "")
    return Progress(t, (Notice("dropped", text, reg.division, player),))


def late_entry(
    t: Tournament,
    division: str,
    name: str,
    *,
    tags: Iterable[str] = (),
    generation: int | None = None,
) -> Progress:
    """Enter a player after the start, where the division allows it. In a first stage
    of seatings that is under way, the player joins from the next seating."""
    div = t.division(division)
    if not div.started:
        return register(t, division, name, tags=tags, generation=generation)
    if not div.late_entry:
        raise TournamentError("division.no_late_entries", div=div.name)
    if len(div.stages) > 1 or (div.stages and div.stages[0].format.kind != "seatings"):
        raise TournamentError("division.past_first_stage", div=div.name)
    refuse_invisible(name)
    number = max((r.player for r in t.registrations), default=0) + 1
    reg = Registration(
        number, name.strip(), division, frozenset(tags), generation, "checked_in", late=True
    )
    t = replace(t, registrations=(*t.registrations, reg))
    if div.stages:
        stage: Stage = div.stages[0]
        stage = replace(stage, entrants=(*stage.entrants, number), plan=())
        t = t.with_division(replace(div, stages=(stage,)))
    return Progress(
        t, (Notice("late_entry", f"{reg.name} entered late as number {number}", division, number),)
    )
