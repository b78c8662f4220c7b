"""The table clock's use cases: keep the record a table's phone sends (replayed and
checked by the pure clock, :mod:`meldtour.tournament.clock`; sent again and again
without harm), put the time-out penalties the scorer confirmed onto the table's
score sheet, and list a round's clocks for the director."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from meldtour.core.refusal import Refused, register
from meldtour.store import clocks
from meldtour.store.clocks import ClockRecord
from meldtour.store.db import Store
from meldtour.store.repository import SheetConflict, now
from meldtour.tournament import ScoreSheet, TournamentError
from meldtour.tournament.clock import (
    ClockSettings,
    ClockState,
    GameClock,
    check_penalties,
    offered_penalties,
    replay,
)
from meldtour.tournament.stages import table_sheet

from .acting import Who
from .cache import snapshot
from .errors import UseCaseError
from .sheets import GameEntry, SheetOutcome, enter_sheet, get_sheet

register(
    {
        "clock.other_device": "another device keeps the clock of game %(game)s at this table",
        "clock.no_game": "this table's sheet has no game %(game)s",
        "clock.no_record": "no clock of game %(game)s has reached the server yet",
        "clock.not_over": "the clock of game %(game)s is still running",
    }
)


@dataclass(frozen=True, slots=True)
class TableAt:
    """One table of one round: what a scorer's link opens."""

    slug: str
    division: str
    stage: int  # from 0
    round: int
    table: int


def _table(store: Store, at: TableAt) -> tuple[ScoreSheet, ClockSettings]:
    t = snapshot(store, at.slug).tournament
    try:
        sheet = table_sheet(t, at.division, at.round, at.table, at.stage)
        rules = t.division(at.division).rules
    except TournamentError as exc:
        raise UseCaseError.of(exc) from None
    return sheet, ClockSettings.of(rules)


def _clock(
    settings: ClockSettings,
    sheet: ScoreSheet,
    game: int,
    order: Sequence[int],
    taps: Sequence[Sequence[object]],
) -> tuple[GameClock, ClockState]:
    if not 1 <= game <= len(sheet.games):
        raise UseCaseError("clock.no_game", game=game)
    try:
        clock = GameClock.of(game, order, taps)
        return clock, replay(settings, clock, seats=len(sheet.players))
    except Refused as exc:
        raise UseCaseError.of(exc) from None


def record_clock(
    store: Store,
    at: TableAt,
    game: int,
    order: Sequence[int],
    taps: Sequence[Sequence[object]],
    *,
    device: str,
    clock_now: int,
) -> tuple[ClockRecord, bool]:
    """Keep a game's clock record as the phone sent it, if it is a possible game: the
    record stored afterwards, and whether this one was news. A record the server holds
    already, or an older copy of it, changes nothing (a phone sends again until it is
    sure); a different game from another device is refused (two phones keeping one
    table's time); a reseated table's old record is replaced."""
    sheet, settings = _table(store, at)
    clock, state = _clock(settings, sheet, game, order, taps)
    record = ClockRecord(
        at.division,
        at.stage,
        at.round,
        at.table,
        game,
        sheet.players,
        device[:40],
        clock.order,
        clock.taps,
        state.phase,
        state.timeouts,
        max(0, min(clock_now, 2**31 - 1)),
        now(),
    )

    def keep(old: ClockRecord) -> bool:
        if old.players != sheet.players:
            return False
        stored = GameClock(game, old.order, old.taps)
        if clock.extends(stored):
            return False
        if stored.extends(clock):
            return True
        if old.device != record.device:
            raise UseCaseError("clock.other_device", game=game)
        return False

    return clocks.put(store, at.slug, record, keep)


def confirm_penalties(
    store: Store, at: TableAt, game: int, penalties: Sequence[int], *, who: Who
) -> SheetOutcome:
    """Put the time-out penalties the scorer confirmed (points per seat) onto the
    game's row of the sheet, added to penalties written there for other reasons and
    checked against the stored clock: no more than its time-outs, a whole number of
    failed turns each. The game's points and winner stay as they are; the sheet is
    then counted if every check passes, as a save of the sheet would."""
    sheet, settings = _table(store, at)
    found = clocks.get(store, at.slug, at.division, at.stage, at.round, at.table, game)
    if found is None or found.players != sheet.players:
        raise UseCaseError("clock.no_record", game=game)
    _c, state = _clock(settings, sheet, game, found.order, found.taps)
    if state.phase != "over":
        raise UseCaseError("clock.not_over", game=game)
    if len(penalties) != len(sheet.players):
        raise UseCaseError("clock.no_game", game=game)
    try:
        chosen = check_penalties(settings, state, penalties)
    except Refused as exc:
        raise UseCaseError.of(exc) from None
    for attempt in range(2):  # a save by another device in between: read it again
        sheet, version, _key = _read_sheet(store, at)
        line = sheet.games[game - 1]
        # Penalties written on the sheet for other reasons (an illegal end of turn)
        # stay; what the clock put there before is replaced, so confirming twice
        # counts once.
        before = found.confirmed or (0,) * len(chosen)
        row = tuple(
            max(0, have - old) + new
            for have, old, new in zip(line.penalties, before, chosen, strict=True)
        )
        entry = GameEntry(game, line.points, row, line.winner)
        try:
            out = enter_sheet(
                store,
                at.slug,
                at.division,
                at.round,
                at.table,
                [entry],
                who=who,
                version=version,
                stage=at.stage + 1,
                may_correct=False,
            )
        except SheetConflict:
            if attempt:
                raise
            continue
        clocks.confirm(store, at.slug, at.division, at.stage, at.round, at.table, game, chosen)
        return out
    raise AssertionError("unreachable")


def _read_sheet(store: Store, at: TableAt) -> tuple[ScoreSheet, int, str]:
    return get_sheet(store, at.slug, at.division, at.round, at.table, stage=at.stage + 1)


@dataclass(frozen=True, slots=True)
class TableClock:
    """What the director sees of one table's clock: the game it is on, its phase, how
    long the game has run (ms, now), whose turn it is, the time-outs, when last heard."""

    table: int
    game: int
    phase: str
    elapsed: int
    seat: int | None
    timeouts: int
    heard_seconds: int
    offered: bool
    confirmed: bool


def round_clocks(
    store: Store, at: TableAt, *, at_time: datetime | None = None
) -> dict[int, TableClock]:
    """The latest game's clock of each table of the round that has one (by table)."""
    t = snapshot(store, at.slug).tournament
    try:
        div = t.division(at.division)
        tables = {x.number: x.sheet for x in div.stages[at.stage].rounds[at.round - 1].tables}
    except (TournamentError, IndexError):
        return {}
    settings = ClockSettings.of(div.rules)
    moment = at_time or datetime.now(UTC)
    out: dict[int, TableClock] = {}
    for rec in clocks.of_round(store, at.slug, at.division, at.stage, at.round):
        sheet = tables.get(rec.table)
        if sheet is None or rec.players != sheet.players:
            continue
        try:
            state = replay(settings, GameClock(rec.game, rec.order, rec.taps))
        except Refused:
            continue
        heard = max(
            0, int((moment - datetime.fromisoformat(rec.received_at)).total_seconds() * 1000)
        )
        clock_now = rec.clock_now + (heard if state.phase != "over" else 0)
        later = (
            replay(settings, GameClock(rec.game, rec.order, rec.taps), now=clock_now)
            if state.phase in ("running", "paused", "expired")
            else state
        )
        offered = offered_penalties(settings, state, seats=len(sheet.players))
        out[rec.table] = TableClock(
            rec.table,
            rec.game,
            later.phase,
            later.elapsed(clock_now),
            later.seat,
            len(state.timeouts),
            heard // 1000,
            bool(offered and any(offered)),
            rec.confirmed is not None,
        )
    return out


__all__ = [
    "TableAt",
    "TableClock",
    "confirm_penalties",
    "record_clock",
    "round_clocks",
    "stored_clock",
]


def stored_clock(
    store: Store, slug: str, division: str, stage: int, rnd: int, table: int, game: int
) -> ClockRecord | None:
    """The clock a phone last sent for one game of a table, if any."""
    return clocks.get(store, slug, division, stage, rnd, table, game)
