"""Mending a registration: its name, tags and generation, its division before the
start, a check-in undone, and a no-show reinstated under the number they had.

>>> from meldtour.core.rules import find_rules
>>> from .model import Division, StageFormat, Tournament
>>> from .registration import check_in, register, start_division
>>> rules = find_rules("krc-2015")
>>> divs = (Division("a", "A", 4, rules, (StageFormat("seatings"),)),
...         Division("b", "B", 4, rules, (StageFormat("seatings"),)))
>>> t = Tournament("Busan", "2015-12-05", divs)
>>> for name in ("Kim", "Lee", "Park", "Choi"):
...     t = register(t, "a", name).tournament
>>> t = edit_registration(t, 1, name="Kim Minji", tags=("family:kim",),
...                       generation=None).tournament
>>> t = move_registration(t, 2, "b").tournament
>>> t = check_in(t, 3).tournament
>>> t = undo_check_in(t, 3).tournament
>>> [(r.player, r.name, r.division, r.status) for r in t.registrations][:3]
[(1, 'Kim Minji', 'a', 'registered'), (2, 'Lee', 'b', 'registered'), (3, 'Park', 'a', 'registered')]
>>> t = start_division(t, "a").tournament
>>> t = reinstate(t, 3).tournament
>>> t.registration(3).status
'checked_in'
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import replace

from meldtour.core.refusal import register as register_codes

from .model import Notice, Progress, Stage, Tournament, TournamentError
from .refusals import status as _status
from .registration import _promote, refuse_invisible

register_codes(
    {
        "registration.name_too_long": "a name has at most %(limit)s characters (this one has "
        "%(n)s)",
        "registration.bad_generation": "a generation is a whole number from 1 to 9, not %(value)s",
        "registration.bad_tag": "a tag is a word without spaces (such as family:kim), not %(tag)s",
        "registration.move_started": "%(div)s has started: players move between divisions only "
        "before check-in closes",
        "registration.move_not_entered": "%(name)s is %(status)s: only a registered, waitlisted "
        "or present player moves to another division",
        "registration.undo_not_present": "%(name)s is %(status)s: only a present player's "
        "check-in is undone",
        "registration.undo_started": "%(div)s has started: %(name)s plays now (drop the player "
        "instead)",
        "registration.reinstate_no_show_only": "%(name)s is %(status)s: only a no-show is "
        "reinstated",
    }
)

#: A name on a sheet, a badge and a certificate.
MAX_NAME = 80
#: The eldest generation is 1; three-generation families need 1-3, a few more are fine.
MAX_GENERATION = 9


def name_key(name: str) -> str:
    """How likely duplicates are told: width, case and spaces aside ("김 민지" and
    "김민지", "ＫＩＭ" and "kim").

    >>> name_key(" 김 민지 ") == name_key("김민지")
    True
    >>> name_key("ＫＩＭ Minji") == name_key("kimminji")
    True
    """
    return "".join(unicodedata.normalize("NFKC", name).casefold().split())


def check_name(name: str) -> str:
    """The name as it is kept (spaces folded), or the refusal that says what is wrong."""
    folded = " ".join(name.split())
    if not folded:
        raise TournamentError("registration.needs_name")
    if len(folded) > MAX_NAME:
        raise TournamentError("registration.name_too_long", limit=MAX_NAME, n=len(folded))
    refuse_invisible(folded)
    return folded


def check_tags(tags: Iterable[str]) -> frozenset[str]:
    out = set()
    for tag in tags:
        tag = tag.strip()
        if not tag:
            continue
        if any(c.isspace() for c in tag) or len(tag) > 60:
            raise TournamentError("registration.bad_tag", tag=repr(tag[:60]))
        out.add(tag)
    return frozenset(out)


def check_generation(generation: int | None) -> int | None:
    if generation is not None and not 1 <= generation <= MAX_GENERATION:
        raise TournamentError("registration.bad_generation", value=repr(generation))
    return generation


def edit_registration(
    t: Tournament, player: int, *, name: str, tags: Iterable[str], generation: int | None
) -> Progress:
    """Mend a registration's name, tags (``family:kim``, ``club:busan``) and generation,
    at any time: a typo on the badge is mended mid-day too. The number stays, and with
    it every game played."""
    reg = t.registration(player)
    new = replace(
        reg, name=check_name(name), tags=check_tags(tags), generation=check_generation(generation)
    )
    if new == reg:
        return Progress(t)
    text = f"#{player} {reg.name}: mended" + (f" (now {new.name})" if new.name != reg.name else "")
    return Progress(t.with_registration(new), (Notice("edited", text, reg.division, player),))


def move_registration(t: Tournament, player: int, division: str) -> Progress:
    """Move a player to another division before either has started: present stays
    present while the new division has room, else the player waits on its waitlist;
    the old division's first waiting player moves up."""
    reg = t.registration(player)
    old, new = t.division(reg.division), t.division(division)
    if old.key == new.key:
        return Progress(t)
    for div in (old, new):
        if div.started:
            raise TournamentError("registration.move_started", div=div.name)
    if reg.status not in ("registered", "waitlisted", "checked_in"):
        raise TournamentError(
            "registration.move_not_entered", name=reg.name, status=_status(reg.status)
        )
    taken = len(t.in_division(new.key, "registered", "checked_in"))
    status = reg.status if taken < new.cap else "waitlisted"
    t = t.with_registration(replace(reg, division=new.key, status=status))
    notices = [
        Notice(
            "moved",
            f"{reg.name} moved from {old.name} to {new.name}"
            + (" (waitlist)" if status == "waitlisted" else ""),
            new.key,
            player,
        )
    ]
    if reg.status != "waitlisted":
        t, more = _promote(t, old.key)
        notices.extend(more)
    return Progress(t, tuple(notices))


def undo_check_in(t: Tournament, player: int) -> Progress:
    """A check-in made by mistake is undone while check-in is open: registered again."""
    reg = t.registration(player)
    div = t.division(reg.division)
    if div.started:
        raise TournamentError("registration.undo_started", div=div.name, name=reg.name)
    if reg.status != "checked_in":
        raise TournamentError(
            "registration.undo_not_present", name=reg.name, status=_status(reg.status)
        )
    t = t.with_registration(replace(reg, status="registered"))
    return Progress(
        t, (Notice("check_in_undone", f"{reg.name}: check-in undone", reg.division, player),)
    )


def reinstate(t: Tournament, player: int) -> Progress:
    """A no-show who arrives after check-in closed plays under their own number: at
    once while no stage has started; after that as a late entry (where the division
    takes them, in a first stage of seatings), seated from the next seating."""
    reg = t.registration(player)
    div = t.division(reg.division)
    if reg.status != "no_show":
        raise TournamentError(
            "registration.reinstate_no_show_only", name=reg.name, status=_status(reg.status)
        )
    late = bool(div.stages)
    if late:
        if not div.late_entry:
            raise TournamentError("division.no_late_entries", div=div.name)
        if len(div.stages) > 1 or div.stages[0].format.kind != "seatings":
            raise TournamentError("division.past_first_stage", div=div.name)
    t = t.with_registration(replace(reg, status="checked_in", late=late or reg.late))
    if late:
        stage: Stage = div.stages[0]
        stage = replace(stage, entrants=(*stage.entrants, player), plan=())
        t = t.with_division(replace(t.division(div.key), stages=(stage,)))
    return Progress(
        t,
        (
            Notice(
                "reinstated", f"{reg.name} is reinstated as number {player}", reg.division, player
            ),
        ),
    )


__all__ = [
    "MAX_GENERATION",
    "MAX_NAME",
    "check_generation",
    "check_name",
    "check_tags",
    "edit_registration",
    "move_registration",
    "name_key",
    "reinstate",
    "undo_check_in",
]
