"""A flood of the public registration form, seen and removed by the director.

Each registration sent through the public form is audited with its source (a short
hash of the client's address, never the address: ``web:registration@1a2b3c4d``). The
director sees the registrations per source, the busiest first, and withdraws a
source's registrations in one step (audited): those waitlisted first, so that no
entry of the flood moves up, then those registered; a registration already checked
in (someone came to the desk) is kept.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from meldtour.store import audit
from meldtour.store.db import Store
from meldtour.store.repository import load
from meldtour.tournament import Notice, Progress, Tournament
from meldtour.tournament.registration import withdraw

from .acting import Who
from .errors import UseCaseError
from .unit import Outcome, act

#: ``who`` of a registration sent through the public form, before its source.
WEB_REGISTRATION = "web:registration@"


@dataclass(frozen=True)
class RegistrationSource:
    """The registrations that came from one source: their numbers, and how many are
    still registered or waitlisted (what a withdrawal would remove)."""

    source: str
    players: tuple[int, ...]
    removable: int


def _by_source(store: Store, slug: str | None) -> tuple[Tournament, dict[str, list[int]]]:
    with store.reading() as s:
        loaded = load(s, slug)
        found: dict[str, list[int]] = {}
        for who, key in audit.registered_from(s, loaded.row.id, WEB_REGISTRATION):
            number = re.match(r"#(\d+) ", key)  # a registration's key: "#12 김민지"
            if number:
                found.setdefault(who[len(WEB_REGISTRATION) :], []).append(int(number[1]))
        return loaded.value, found


def registration_sources(store: Store, slug: str | None) -> list[RegistrationSource]:
    """The public form's registrations by source, the busiest first."""
    t, found = _by_source(store, slug)
    status = {r.player: r.status for r in t.registrations}
    out = [
        RegistrationSource(
            src, tuple(ps), sum(status.get(p) in ("registered", "waitlisted") for p in ps)
        )
        for src, ps in found.items()
    ]
    return sorted(out, key=lambda r: (-len(r.players), r.source))


def withdraw_source(
    store: Store, slug: str | None, source: str, *, who: Who, why: str = ""
) -> Outcome:
    """Withdraw every registration from ``source`` that is still registered or
    waitlisted (checked-in players stay); refused when there is none."""
    _t, found = _by_source(store, slug)
    players = found.get(source, [])

    def step(t: Tournament) -> Progress:
        status = {r.player: r for r in t.registrations}
        todo = [
            p
            for p in players
            if status[p].status in ("registered", "waitlisted")
            and not t.division(status[p].division).started
        ]
        if not todo:
            raise UseCaseError("usecase.no_source_registrations", source=source[:16])
        todo.sort(key=lambda p: status[p].status != "waitlisted")
        notices: list[Notice] = []
        for p in todo:
            if t.registration(p).status not in ("registered", "waitlisted"):
                continue
            progress = withdraw(t, p)
            t = progress.tournament
            notices.extend(progress.notices)
        return Progress(t, tuple(notices))

    return act(store, slug, who, "withdraw_source", step, why=why or f"source {source}")


__all__ = [
    "WEB_REGISTRATION",
    "RegistrationSource",
    "registration_sources",
    "withdraw_source",
]
