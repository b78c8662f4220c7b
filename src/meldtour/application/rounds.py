"""Rounds and seating: seat a round (starting the division and its first stage, and
closing the round before, when they are due), close it, advance to the next stage,
lock the seating, seat a round again — and the steps back: reopen a closed round,
undo an advancement while the next stage has no result."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from meldtour.store import audit
from meldtour.store import rounds as round_rows
from meldtour.store.db import Store
from meldtour.store.repository import Loaded, load, now, save, touch
from meldtour.tournament import (
    Notice,
    Progress,
    Tournament,
    TournamentError,
    close_round,
    seat_round,
    start_division,
    start_stage,
)
from meldtour.tournament.board import RoundBoard, round_board
from meldtour.tournament.undo import reopen_round, reseat_round, undo_stage

from .acting import Who, name_of, require_tournament
from .circuit import seed_order
from .divisions import division_key, resolve_division
from .errors import UseCaseError
from .unit import Outcome, act


def current_round(t: Tournament, division: str) -> tuple[int, int, bool]:
    """(stage index, last round number (0 for none), whether that round is closed)."""
    div = t.division(division)
    if not div.stages:
        return -1, 0, True
    stage = div.stages[-1]
    if not stage.rounds:
        return len(div.stages) - 1, 0, True
    return len(div.stages) - 1, stage.rounds[-1].number, stage.rounds[-1].closed


def seat(
    store: Store, slug: str | None, division: str | None, round_number: int | None, *, who: Who
) -> Outcome:
    """Seat round ``round_number`` of the current stage. Closes check-in and starts
    the first stage when they are not yet, and closes the round before if all its
    sheets are counted. A first stage seated by rating or ranking is seeded so."""
    seeding = seed_order(store, slug, division)

    def step(t: Tournament) -> Progress:
        key = division_key(t, division)
        notices: list[Notice] = []
        div = t.division(key)
        if not div.started:
            t, more, _ = start_division(t, key)
            notices.extend(more)
            div = t.division(key)
        if not div.stages:
            t, more, _ = start_stage(t, key, seeding=seeding)
            notices.extend(more)
        index, last, closed = current_round(t, key)
        stage = t.division(key).stages[index]
        if stage.finished:
            raise TournamentError("usecase.stage_finished", stage=stage.format.title)
        wanted = last + 1
        if round_number is not None and round_number != wanted:
            if round_number == last:
                raise TournamentError("usecase.round_seated", n=last, stage=stage.format.title)
            raise TournamentError(
                "usecase.next_round", stage=stage.format.title, wanted=wanted, n=round_number
            )
        if last and not closed:
            t, more, _ = close_round(t, key)
            notices.extend(more)
            if t.division(key).stages[index].finished:
                raise TournamentError("usecase.stage_finished", stage=stage.format.title)
        t, more, _ = seat_round(t, key)
        notices.extend(more)
        return Progress(t, tuple(notices))

    return act(store, slug, who, "seat", step)


def close(store: Store, slug: str | None, division: str | None, *, who: Who) -> Outcome:
    """Close the current round (all its sheets counted)."""

    def step(t: Tournament) -> Progress:
        return close_round(t, division_key(t, division))

    return act(store, slug, who, "close_round", step)


def advance(store: Store, slug: str | None, division: str | None, *, who: Who) -> Outcome:
    """Start the division's next stage with the players above the cut; the last round
    of the stage before is closed first if all its sheets are counted."""

    def step(t: Tournament) -> Progress:
        key = division_key(t, division)
        notices: list[Notice] = []
        _, last, closed = current_round(t, key)
        if last and not closed:
            t, more, _ = close_round(t, key)
            notices.extend(more)
        t, more, _ = start_stage(t, key)
        notices.extend(more)
        return Progress(t, tuple(notices))

    return act(store, slug, who, "advance", step)


# ---------------------------------------------------------------------------
# The seating lock


@dataclass(frozen=True, slots=True)
class RoundLock:
    at: str
    by: str


RoundKey = tuple[str, int, int]  # division, stage (from 0), round


def round_locks(store: Store, slug: str | None) -> dict[RoundKey, RoundLock]:
    """The rounds whose seating is locked, with when and by whom."""
    with store.transaction() as s:
        loaded = load(s, slug)
        return {
            k: RoundLock(r.locked_at, r.locked_by or "")
            for k, r in loaded.rounds.items()
            if r.locked_at is not None
        }


def lock_row(s: Any, loaded: Loaded, key: RoundKey, *, who: Who, why: str) -> bool:
    """Lock the round's seating in this unit of work (audited); False if it was."""
    row = loaded.rounds[key]
    if row.locked_at is not None:
        return False
    row.locked_at, row.locked_by = now(), name_of(who)
    audit.record(
        s,
        at=row.locked_at,
        who=name_of(who),
        action="lock_seating",
        tournament_id=loaded.row.id,
        entity="round",
        key=f"{key[0]}/stage {key[1] + 1}/round {key[2]}",
        before={"locked": False},
        after={"locked": True},
        why=why,
    )
    return True


def lock_seating(store: Store, slug: str | None, division: str | None, *, who: Who) -> RoundLock:
    """Lock the seating of the division's current round: it is never reseated after
    this. (The first score sheet saved in a round locks it too.)"""
    with store.transaction() as s:
        loaded = load(s, slug, "update")
        require_tournament(s, who, loaded.row.slug)
        t = loaded.value
        key = resolve_division(t, division)
        index, number, _closed = current_round(t, key)
        if number == 0:
            raise UseCaseError("usecase.no_round_seated", div=t.division(key).name)
        lock_row(s, loaded, (key, index, number), who=who, why="")
        row = loaded.rounds[(key, index, number)]
        return RoundLock(row.locked_at or "", row.locked_by or "")


def reseat(store: Store, slug: str | None, division: str | None, *, who: Who) -> Outcome:
    """Seat the current round again with a new draw (after a drop or a late entry, or
    to mix the tables), while its seating is not locked and nothing is entered on its
    sheets. The new seating differs from the old one, or the step is refused; the
    draw's seed text is in the audit line, so it is repeatable."""
    with store.transaction() as s:
        loaded = load(s, slug, "update")
        require_tournament(s, who, loaded.row.slug)
        t = loaded.value
        try:
            key = resolve_division(t, division)
            index, number, closed = current_round(t, key)
            if number == 0 or closed:
                raise TournamentError("division.no_round_open", div=t.division(key).name)
            rkey = (key, index, number)
            if loaded.rounds[rkey].locked_at is not None:
                raise TournamentError("usecase.seating_locked", div=t.division(key).name, n=number)
            progress, seed = reseat_round(t, key)
        except TournamentError as exc:
            raise UseCaseError.of(exc) from None
        # The old round's rows go; the round is written again as new.
        round_rows.drop_round(s, loaded, rkey)
        new = progress.tournament.division(key).stages[index].rounds[-1]
        audit.record(
            s,
            at=now(),
            who=name_of(who),
            action="reseat",
            tournament_id=loaded.row.id,
            entity="round",
            key=f"{key}/stage {index + 1}/round {number}",
            before=[list(x.players) for x in t.division(key).stages[index].rounds[-1].tables],
            after={"tables": [list(x.players) for x in new.tables], "draw": seed},
            why="",
        )
        div = t.division(key)
        back = div.stages[index]
        loaded.value = t.with_division(
            replace(div, stages=(*div.stages[:index], replace(back, rounds=back.rounds[:-1])))
        )
        changes = save(s, loaded, progress.tournament, who=name_of(who), action="reseat")
        touch(loaded)
    return Outcome(progress.tournament, progress.notices, (), tuple(changes))


def reopen(store: Store, slug: str | None, division: str | None, *, who: Who) -> Outcome:
    """Reopen the current stage's last round, closed (to correct a sheet before the
    next round): refused once a later round or stage is seated."""

    def step(t: Tournament) -> Progress:
        return reopen_round(t, division_key(t, division))

    return act(store, slug, who, "reopen_round", step)


def undo_advance(store: Store, slug: str | None, division: str | None, *, who: Who) -> Outcome:
    """Undo the start of the division's current stage (an advancement), with its seated
    rounds, while none of its sheets has anything entered. The round closed before it
    stays closed (reopen it next, if that is what is wanted)."""
    with store.transaction() as s:
        loaded = load(s, slug, "update")
        require_tournament(s, who, loaded.row.slug)
        t = loaded.value
        try:
            key = resolve_division(t, division)
            progress = undo_stage(t, key)
        except TournamentError as exc:
            raise UseCaseError.of(exc) from None
        index = len(t.division(key).stages) - 1
        stage = t.division(key).stages[index]
        round_rows.drop_stage(s, loaded, (key, index))
        audit.record(
            s,
            at=now(),
            who=name_of(who),
            action="undo_advance",
            tournament_id=loaded.row.id,
            entity="stage",
            key=f"{key}/stage {index + 1}",
            before={
                "entrants": list(stage.entrants),
                "rounds": [[list(x.players) for x in r.tables] for r in stage.rounds],
            },
            after=None,
            why="",
        )
        loaded.value = progress.tournament  # the stage's rows are gone already
        touch(loaded)
    return Outcome(progress.tournament, progress.notices, (), ())


def round_state(store: Store, slug: str | None, division: str) -> RoundBoard | None:
    """The division's current round as the director watches it: each table's state
    (a device's refused save since the sheet was last saved is a conflict), its totals
    and what is missing; ``None`` before the first round."""
    with store.reading() as s:
        loaded = load(s, slug)
        t = loaded.value
        key = resolve_division(t, division)
        index, number, _closed = current_round(t, key)
        if number == 0:
            return None
        rnd = t.division(key).stages[index].rounds[-1]
        prefix = f"{key}/stage {index + 1}/round {number}/table "
        refused = round_rows.refusals(s, loaded.row.id, prefix)
    conflicts = set()
    for x in rnd.tables:
        row = refused.get(f"{prefix}{x.number}")
        if row is not None and row["action"] != round_rows.DISMISSED and row["at"] > last_save(x):
            conflicts.add(x.number)
    return round_board(rnd, conflicts)


def last_save(x: Any) -> str:
    """When a table's sheet was last saved (typed, counted or corrected); ``""``: never."""
    return str(
        max(
            x.sheet.entered_at or "",
            x.sheet.submitted_at or "",
            *(c.at for c in x.sheet.corrections),
        )
    )


__all__ = [
    "RoundKey",
    "RoundLock",
    "advance",
    "close",
    "current_round",
    "lock_row",
    "lock_seating",
    "reopen",
    "reseat",
    "round_locks",
    "round_state",
    "seat",
    "undo_advance",
]
