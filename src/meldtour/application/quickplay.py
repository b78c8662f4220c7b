"""The quick-play queue's use cases (the table ``quick_entry``): a player asks for a
preset and a clock, waits, and is seated; the matching itself (who sits with whom, the
computers that fill the free seats) is :mod:`meldtour.live.quickplay`'s.

The queue is in the database, so a restart keeps it and every server process sees the
same one. A player is seated by :func:`seat_group`, which seats every entry of the
group in one transaction only if each is still waiting (a conditional update): two
processes matching at once can never seat anyone twice — the second's transaction
finds an entry taken and writes nothing.

Each function is one transaction.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from meldtour.core.refusal import register
from meldtour.store import players_online as rows
from meldtour.store.db import Store

from .errors import UseCaseError

#: The wait for people a player may set, in seconds (then computers fill the seats).
MIN_WAIT, MAX_WAIT, DEFAULT_WAIT = 5, 300, 30
#: A waiting page that has not asked for this many seconds has gone: it leaves the queue.
QUIET = 12.0
#: Seconds every page of a group has to take its offered seat: a page that does not
#: (disconnected at the start) is replaced — the others wait again, first in line.
ACCEPT = 6.0

register(
    {
        "quick.wait": "the wait is %(least)s to %(most)s seconds, not %(value)s",
        "quick.gone": "you are not in the queue any more: press play again",
    }
)


@dataclass(frozen=True, slots=True)
class Entry:
    id: str
    family: str
    preset: str
    turn_seconds: int
    name: str
    account_id: int | None
    rating: float
    wait: float
    joined_at: float
    seen_at: float
    game_id: str | None = None
    seat: int | None = None
    token: str | None = None
    table: dict[str, Any] | None = None
    offered_at: float | None = None
    accepted_at: float | None = None
    opened_at: float | None = None


def _entry(row: Any) -> Entry:
    return Entry(
        str(row.id),
        str(row.family),
        str(row.preset),
        int(row.turn_seconds),
        str(row.name),
        None if row.account_id is None else int(row.account_id),
        float(row.rating),
        float(row.wait),
        float(row.joined_at),
        float(row.seen_at),
        row.game_id,
        None if row.seat is None else int(row.seat),
        row.token,
        None if row.table is None else dict(row.table),
        row.offered_at,
        row.accepted_at,
        row.opened_at,
    )


def entry_id(ticket: str) -> str:
    """The entry of a ticket (the page's cookie holds the ticket, the queue its hash)."""
    return hashlib.sha256(ticket.encode()).hexdigest()


def check_wait(wait: float) -> float:
    if not MIN_WAIT <= wait <= MAX_WAIT:
        raise UseCaseError("quick.wait", least=MIN_WAIT, most=MAX_WAIT, value=wait)
    return float(wait)


def join(
    store: Store,
    ticket: str,
    *,
    family: str,
    preset: str,
    turn_seconds: int,
    name: str,
    account_id: int | None,
    rating: float,
    wait: float,
    at: float,
) -> Entry:
    """Wait in the queue. An account waits once: its earlier entry still waiting goes."""
    check_wait(wait)
    eid = entry_id(ticket)
    with store.transaction() as s:
        if account_id is not None:
            for row in rows.waiting(s):
                if row.account_id == account_id:
                    rows.drop_entry(s, row.id)
        rows.drop_entry(s, eid)
        rows.add_entry(
            s,
            id=eid,
            family=family,
            preset=preset,
            turn_seconds=turn_seconds,
            name=name,
            account_id=account_id,
            rating=rating,
            wait=wait,
            joined_at=at,
            seen_at=at,
        )
        return _entry(rows.entry(s, eid))


def look(store: Store, ticket: str, at: float) -> Entry | None:
    """The page asks how its wait goes (and so says it is still there)."""
    eid = entry_id(ticket)
    with store.transaction() as s:
        rows.touch_entry(s, eid, at)
        row = rows.entry(s, eid)
        return None if row is None else _entry(row)


def leave(store: Store, ticket: str) -> bool:
    """Leave the queue at once (a seated entry leaves too: its seat is kept)."""
    with store.transaction() as s:
        return rows.drop_entry(s, entry_id(ticket)) == 1


def waiting(store: Store, family: str | None, quiet_before: float) -> list[Entry]:
    """The entries waiting (of one family), oldest first, once the quiet ones are gone."""
    with store.transaction() as s:
        rows.drop_quiet(s, quiet_before)
        return [_entry(r) for r in rows.waiting(s, family)]


def families(store: Store) -> list[str]:
    with store.reading() as s:
        return sorted({str(r.family) for r in rows.waiting(s)})


class _Taken(Exception):
    pass


def seat_group(
    store: Store,
    game_id: str,
    seats: Sequence[tuple[str, int, str]],
    table: dict[str, Any],
    at: float = 0.0,
) -> bool:
    """Seat a group at a new game: each ``(entry id, seat, token)``; all or nothing —
    False, and nothing written, when one of them is no longer waiting."""
    try:
        with store.transaction() as s:
            for eid, seat, token in seats:
                if not rows.seat_entry(s, eid, game_id, seat, token, table, at):
                    raise _Taken(eid)
    except _Taken:
        return False
    return True


def offers(store: Store, family: str) -> dict[str, list[Entry]]:
    """The seats offered and not yet at an open table, by game."""
    out: dict[str, list[Entry]] = {}
    with store.reading() as s:
        for row in rows.offered(s, family):
            out.setdefault(str(row.game_id), []).append(_entry(row))
    return out


def accept(store: Store, ticket: str, at: float) -> bool:
    """The page has taken its offered seat (it has the seat's cookie now)."""
    with store.transaction() as s:
        return rows.accept(s, entry_id(ticket), at)


def opening(store: Store, game_id: str, n: int, at: float) -> bool:
    """Claim the opening of a game whose ``n`` seats are all taken: True for one caller
    only, and only if every page took its seat; otherwise nothing is written."""

    class _Not(Exception):
        pass

    try:
        with store.transaction() as s:
            if not rows.mark_opened(s, game_id, n, at):
                raise _Not
    except _Not:
        return False
    return True


def withdraw(store: Store, game_id: str) -> None:
    """An offer not taken in time by every page: who took theirs waits again, who did
    not has gone."""
    with store.transaction() as s:
        rows.withdraw(s, game_id)


def unseat(store: Store, game_id: str) -> None:
    """The game could not be opened: its players wait again."""
    with store.transaction() as s:
        rows.unseat_game(s, game_id)


def seated(store: Store, ticket: str) -> None:
    """The page is on its way to the open table: the entry goes."""
    with store.transaction() as s:
        rows.drop_entry(s, entry_id(ticket))


def queue_size(store: Store, family: str) -> int:
    with store.reading() as s:
        return len(rows.waiting(s, family))


__all__ = [
    "ACCEPT",
    "DEFAULT_WAIT",
    "MAX_WAIT",
    "MIN_WAIT",
    "QUIET",
    "Entry",
    "accept",
    "check_wait",
    "entry_id",
    "families",
    "join",
    "leave",
    "look",
    "offers",
    "opening",
    "queue_size",
    "seat_group",
    "seated",
    "unseat",
    "waiting",
    "withdraw",
]
