"""Arenas' use cases: the site's administrator (or a director) opens one (a preset, a
clock, a duration); anyone joins while it is open (an account or a guest) and waits to
be seated; the leaderboard is computed from the arena's games and the game log.

The arena's waiting players are entries of the quick-play queue
(:mod:`meldtour.application.quickplay`) under the family :func:`family` (so the
queue's restart-proof, all-or-nothing seating is the arena's); who sits with whom is
:func:`meldtour.application.arena_rules.tables`' (by standing, then rating), run by
:mod:`meldtour.live.arena`.

Each function is one transaction.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

from meldtour.core.refusal import register
from meldtour.core.rules import PRESETS
from meldtour.store import arena as rows
from meldtour.store.db import Store

from . import arena_rules as rules
from . import players_accounts as players
from . import quickplay as queue
from .acting import Acting
from .errors import UseCaseError

#: An arena lasts this many minutes at most (and a minute at least, the tests' half).
MIN_SECONDS, MAX_SECONDS = 30, 8 * 3600
DEFAULT_MINUTES = 60
#: How long before its start an arena may be opened (a week).
AHEAD = 7 * 24 * 3600

register(
    {
        "arena.unknown": "no arena %(arena)s",
        "arena.preset": "unknown preset %(preset)s",
        "arena.duration": "an arena lasts %(least)s to %(most)s minutes",
        "arena.start": "an arena starts within a week",
        "arena.not_open": "the arena is not open now",
        "arena.playing": "you are playing a game of the arena: finish it first",
        "arena.not_director": "only a director or the site's administrator opens an arena",
    }
)

PREFIX = "arena:"


def family(arena_id: str) -> str:
    """The quick-play queue's family of the arena's waiting players."""
    return PREFIX + arena_id


def arena_of_family(name: str) -> str | None:
    return name[len(PREFIX) :] if name.startswith(PREFIX) else None


@dataclass(frozen=True, slots=True)
class Arena:
    id: str
    name: str
    preset: str
    turn_seconds: int
    starts_at: float
    ends_at: float
    opened_by: str

    def open_at(self, at: float) -> bool:
        return self.starts_at <= at < self.ends_at

    def over_at(self, at: float) -> bool:
        return at >= self.ends_at

    @property
    def ranking(self) -> rules.Ranking:
        preset = PRESETS.get(self.preset)
        return "points" if preset is not None and preset.match_ranking == "points" else "wins"


def _arena(row: Any) -> Arena:
    return Arena(
        str(row.id),
        str(row.name),
        str(row.preset),
        int(row.turn_seconds),
        float(row.starts_at),
        float(row.ends_at),
        str(row.opened_by),
    )


def open_arena(
    store: Store,
    who: Acting,
    *,
    name: str,
    preset: str,
    turn_seconds: int,
    seconds: float,
    starts_at: float,
    at: float,
) -> Arena:
    """Open an arena (``who``: a director; the web lets only a signed-in director call)."""
    if preset not in PRESETS:
        raise UseCaseError("arena.preset", preset=repr(preset))
    if not MIN_SECONDS <= seconds <= MAX_SECONDS:
        raise UseCaseError("arena.duration", least=1, most=MAX_SECONDS // 60)
    if not at - 60 <= starts_at <= at + AHEAD:
        raise UseCaseError("arena.start")
    shown = players.check_name(name[:200])
    aid = secrets.token_urlsafe(6)
    with store.transaction() as s:
        rows.add_arena(
            s,
            id=aid,
            name=shown,
            preset=preset,
            turn_seconds=int(turn_seconds),
            starts_at=float(starts_at),
            ends_at=float(starts_at) + float(seconds),
            opened_by=who.name,
        )
        return _arena(rows.arena(s, aid))


def find(store: Store, arena_id: str) -> Arena:
    with store.reading() as s:
        row = rows.arena(s, arena_id)
    if row is None:
        raise UseCaseError("arena.unknown", arena=repr(arena_id))
    return _arena(row)


def of_game(store: Store, game_id: str) -> Arena | None:
    """The arena a live game is played in (None: not an arena's)."""
    with store.reading() as s:
        aid = rows.arena_of_game(s, game_id)
        row = None if aid is None else rows.arena(s, aid)
    return None if row is None else _arena(row)


def listed(store: Store, at: float, kept: float = 3600.0) -> list[Arena]:
    """The arenas open or to come, and those over within ``kept`` seconds."""
    with store.reading() as s:
        return [_arena(r) for r in rows.arenas(s, at - kept)]


def player_id(ticket: str, account_id: int | None) -> str:
    """An arena player: their account, else their ticket (a guest's browser)."""
    return f"a{account_id}" if account_id is not None else queue.entry_id(ticket)


@dataclass(frozen=True, slots=True)
class Played:
    """A game of the arena: its players by seat, whether it is over, its result."""

    game_id: str
    players: tuple[str, ...]
    over: bool
    result: dict[str, Any] | None


def _games(s: Any, arena_id: str) -> list[Played]:
    by: dict[str, tuple[dict[int, str], bool, Any]] = {}
    for gid, seat, pid, over, result in rows.games(s, arena_id):
        seats, _o, _r = by.setdefault(gid, ({}, over, result))
        seats[seat] = pid
    return [
        Played(gid, tuple(seats[k] for k in sorted(seats)), over, None if r is None else dict(r))
        for gid, (seats, over, r) in by.items()
    ]


def join(
    store: Store,
    arena_id: str,
    ticket: str,
    *,
    name: str,
    account_id: int | None,
    rating: float,
    at: float,
) -> str:
    """Wait to be seated at the arena's next table (a player joins any time it is open,
    and again after each game); the player's id. Refused when the arena is not open,
    or when the player is still at one of its games."""
    shown = players.check_name(name[:200])
    pid = player_id(ticket, account_id)
    eid = queue.entry_id(ticket)
    with store.transaction() as s:
        row = rows.arena(s, arena_id)
        if row is None:
            raise UseCaseError("arena.unknown", arena=repr(arena_id))
        arena = _arena(row)
        if not arena.open_at(at):
            raise UseCaseError("arena.not_open")
        if any(pid in g.players and not g.over for g in _games(s, arena_id)):
            raise UseCaseError("arena.playing")
        if rows.player(s, arena_id, pid) is None:
            rows.add_player(
                s,
                arena_id=arena_id,
                id=pid,
                name=shown,
                account_id=account_id,
                rating=rating,
                joined_at=at,
                entry=eid,
            )
        else:
            rows.set_entry(s, arena_id, pid, eid, rating)
    queue.join(
        store,
        ticket,
        family=family(arena_id),
        preset=arena.preset,
        turn_seconds=arena.turn_seconds,
        name=shown,
        account_id=account_id,
        rating=rating,
        wait=queue.MAX_WAIT,
        at=at,
    )
    return pid


@dataclass(frozen=True, slots=True)
class Board:
    """An arena as its page shows it: the leaderboard, the games in play, the winners."""

    arena: Arena
    lines: list[rules.Line]
    playing: list[Played]
    played: int
    over: bool
    winners: list[rules.Line] = field(default_factory=list)


def board(store: Store, arena_id: str, at: float) -> Board:
    """The leaderboard now (from the log: a restart or another process changes nothing).
    Over once the clock has run out and its last game has ended."""
    with store.reading() as s:
        row = rows.arena(s, arena_id)
        if row is None:
            raise UseCaseError("arena.unknown", arena=repr(arena_id))
        arena = _arena(row)
        names = {str(p.id): str(p.name) for p in rows.players(s, arena_id)}
        games = _games(s, arena_id)
    done = [
        rules.Played(g.game_id, g.players, g.result)
        for g in games
        if g.over and g.result and g.result.get("scores")
    ]
    lines = rules.leaderboard(names, done, arena.ranking)
    playing = [g for g in games if not g.over]
    over = arena.over_at(at) and not playing
    return Board(arena, lines, playing, len(done), over, rules.winners(lines) if over else [])


def waiting_keys(
    store: Store, arena_id: str, entries: list[str]
) -> tuple[Arena, dict[str, tuple[int, int]]]:
    """The arena and each waiting entry's standing key (for the pairing)."""
    b = board(store, arena_id, 0.0)
    keys = rules.standing_keys(b.lines, b.arena.ranking)
    with store.reading() as s:
        found = rows.by_entry(s, arena_id, entries)
    return b.arena, {e: keys.get(str(r.id), (0, 0)) for e, r in found.items()}


def record_game(
    store: Store, arena_id: str, game_id: str, seats: list[tuple[int, str]], at: float
) -> int:
    """An arena game opened: ``(seat, entry id)`` of its people (idempotent: the
    process that opened it, then each page on its way to the table, say so)."""
    with store.transaction() as s:
        found = rows.by_entry(s, arena_id, [e for _n, e in seats])
        mine = [(n, str(found[e].id)) for n, e in seats if e in found]
        return rows.add_game(s, arena_id, game_id, mine, at)


def player_of_ticket(store: Store, arena_id: str, ticket: str) -> str | None:
    """The arena player whose entry is this ticket's (None: not joined here)."""
    with store.reading() as s:
        found = rows.by_entry(s, arena_id, [queue.entry_id(ticket)])
    row = found.get(queue.entry_id(ticket))
    return None if row is None else str(row.id)


__all__ = [
    "DEFAULT_MINUTES",
    "MAX_SECONDS",
    "MIN_SECONDS",
    "Arena",
    "Board",
    "Played",
    "arena_of_family",
    "board",
    "family",
    "find",
    "join",
    "listed",
    "of_game",
    "open_arena",
    "player_id",
    "player_of_ticket",
    "record_game",
    "waiting_keys",
]
