"""The director's players: mend a registration (name, tags, generation, division
before the start), undo a check-in, reinstate a no-show, and find players by number
(``#5``) or by a part of the name. Each change is one transaction with its audit line;
a list of players is read by :mod:`.roster` and registered by
:func:`~.registration.register_players`."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from meldtour.store.db import Store
from meldtour.tournament import Progress, Registration, Tournament
from meldtour.tournament.entries import (
    edit_registration,
    move_registration,
    reinstate,
    undo_check_in,
)

from .acting import Who
from .divisions import division_key
from .roster import name_key
from .unit import Outcome, act


@dataclass(frozen=True, slots=True)
class PlayerEdit:
    """A registration as the director mends it: every field is given (the form shows
    them all); ``division`` is a key or a name, moved to only before the start."""

    name: str
    tags: tuple[str, ...] = ()
    generation: int | None = None
    division: str | None = None


def edit_player(
    store: Store, slug: str | None, player: int, edit: PlayerEdit, *, who: Who
) -> Outcome:
    """Mend a player's name, tags and generation, and move them to ``edit.division``
    (refused once either division has started)."""

    def step(t: Tournament) -> Progress:
        reg = t.registration(player)
        done = edit_registration(
            t, player, name=edit.name, tags=edit.tags, generation=edit.generation
        )
        notices = done.notices
        t = done.tournament
        if edit.division is not None:
            key = division_key(t, edit.division)
            if key != reg.division:
                moved = move_registration(t, player, key)
                t, notices = moved.tournament, notices + moved.notices
        return Progress(t, notices)

    return act(store, slug, who, "edit_player", step)


def undo_check_in_player(store: Store, slug: str | None, player: int, *, who: Who) -> Outcome:
    """A check-in made by mistake, undone while check-in is open."""
    return act(store, slug, who, "undo_check_in", lambda t: undo_check_in(t, player))


def reinstate_player(store: Store, slug: str | None, player: int, *, who: Who) -> Outcome:
    """A no-show who arrived late plays under their own number."""
    return act(store, slug, who, "reinstate", lambda t: reinstate(t, player))


_NUMBER = re.compile(r"#?\s*(\d{1,6})")


def search_players(regs: Iterable[Registration], query: str) -> tuple[Registration, ...]:
    """The registrations a search box finds: ``#5`` or ``5`` is number 5, anything
    else a part of the name, width, case and spaces aside.

    >>> regs = [Registration(5, "김민지", "a"), Registration(15, "Kim Min-ji", "a")]
    >>> def found(q): return [r.player for r in search_players(regs, q)]
    >>> found("#5"), found("5"), found("민 지"), found("KIM")
    ([5], [5], [5], [15])
    """
    regs = tuple(regs)
    q = query.strip()
    if not q:
        return regs
    number = _NUMBER.fullmatch(q)
    if number:
        n = int(number.group(1))
        return tuple(r for r in regs if r.player == n)
    needle = name_key(q)
    return tuple(r for r in regs if needle in name_key(r.name))


def same_name(t: Tournament, name: str, *, besides: int | None = None) -> list[Registration]:
    """The other registrations with a name like ``name`` (likely the same person)."""
    key = name_key(name)
    return [
        r
        for r in t.registrations
        if r.player != besides and r.status != "withdrawn" and name_key(r.name) == key
    ]


def tags_of(family: str, club: str, others: Sequence[str]) -> tuple[str, ...]:
    """The tags of a registration from the edit form's fields: ``family:…`` and
    ``club:…`` from theirs (spaces become ``_``), the other tags as they are."""
    out = [t for t in others if t.split(":", 1)[0] not in ("family", "club")]
    for kind, value in (("family", family), ("club", club)):
        if value.strip():
            out.insert(0, f"{kind}:{'_'.join(value.split())}")
    return tuple(out)


__all__ = [
    "PlayerEdit",
    "edit_player",
    "reinstate_player",
    "same_name",
    "search_players",
    "tags_of",
    "undo_check_in_player",
]
