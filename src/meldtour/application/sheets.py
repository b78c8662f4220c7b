"""Score sheets: read one (with its version), enter a table's games, correct a counted
sheet. A sheet that fails a check is *kept* as a draft (never lost, never counted)
and the problems come back; a save over a version another device has saved since is
refused (:class:`SheetConflict`), what was typed kept in the audit log."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from meldtour.core.refusal import Refused
from meldtour.store import audit, codec
from meldtour.store.db import Store
from meldtour.store.repository import (
    Change,
    SheetConflict,
    SheetKey,
    load,
    now,
    save,
    sheet_key_text,
)
from meldtour.tournament import (
    Notice,
    Problem,
    Progress,
    ScoreSheet,
    Tournament,
    TournamentError,
    correct_table,
    enter_table_game,
    submit_table,
)
from meldtour.tournament.stages import table_sheet

from .acting import Who, name_of, require_tournament
from .cache import prime, snapshot
from .circuit.results import reaward as reaward_gate
from .divisions import division_key, resolve_division
from .errors import CountedSheet, UseCaseError, engine_error
from .rounds import lock_row


@dataclass(frozen=True, slots=True)
class GameEntry:
    """One game's row as typed: points per seat, penalty points per seat, the winning
    seat (``None``: the one seat with the most points)."""

    game: int
    points: tuple[int | None, ...]
    penalties: tuple[int, ...] | None = None
    winner: int | None = None

    def data(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "points": list(self.points),
            "penalties": None if self.penalties is None else list(self.penalties),
            "winner": self.winner,
        }


@dataclass(frozen=True)
class SheetOutcome:
    """A saved sheet: the sheet, its version now, the problems (a draft) or none
    (counted), and the notices."""

    sheet: ScoreSheet
    version: int
    problems: tuple[Problem, ...]
    notices: tuple[Notice, ...] = ()
    changes: tuple[Change, ...] = field(default=())
    #: What a confirmed correction to an awarded division changed (awarded again).
    reawards: tuple[Any, ...] = ()

    @property
    def counted(self) -> bool:
        return not self.problems and self.sheet.counted is not None


def get_sheet(
    store: Store,
    slug: str | None,
    division: str | None,
    round_number: int,
    table: int,
    *,
    stage: int | None = None,
) -> tuple[ScoreSheet, int, str]:
    """A sheet, its version (what a device sends back when it saves) and division."""
    snap = snapshot(store, slug)
    t = snap.tournament
    try:
        key = resolve_division(t, division)
        index = stage_index(t, key, stage)
        sheet = table_sheet(t, key, round_number, table, index)
    except TournamentError as exc:
        raise UseCaseError.of(exc) from None
    return sheet, snap.versions[(key, index, round_number, table)], key


def stage_index(t: Tournament, division: str, stage: int | None) -> int:
    """A stage number from 1 (``None``: the current stage) as an index from 0."""
    n = len(t.division(division).stages)
    if stage is None:
        if not n:
            raise TournamentError("usecase.no_stage_started")
        return n - 1
    if not 1 <= stage <= n:
        raise TournamentError("usecase.no_stage", n=stage, started=n)
    return stage - 1


def enter_sheet(
    store: Store,
    slug: str | None,
    division: str | None,
    round_number: int,
    table: int,
    games: Sequence[GameEntry],
    *,
    who: Who,
    why: str = "",
    version: int | None = None,
    stage: int | None = None,
    submit: bool = True,
    may_correct: bool = True,
    reaward: bool = False,
) -> SheetOutcome:
    """Enter a table's games and count the sheet if every check passes.

    A sheet that fails a check is saved as a draft and the problems come back. On a
    counted sheet this is a correction, and ``why`` is required. ``version`` is the
    version the device read (see :func:`get_sheet`): if another device saved since,
    :class:`SheetConflict` is raised, nothing is saved, what was typed is in the
    exception and in the audit log. ``may_correct=False`` (a scorer's link) refuses a
    counted sheet with :class:`CountedSheet`, judged in the saving transaction itself.
    A change to an awarded division is refused with what it would change
    (:class:`~.circuit.results.AwardsWouldChange`) unless ``reaward`` confirms it."""
    at = now()
    found: dict[str, Any] = {}

    def step(t: Tournament) -> Progress:
        key = division_key(t, division)
        index = stage_index(t, key, stage)
        found["key"] = (key, index, round_number, table)
        if not may_correct and table_sheet(t, key, round_number, table, index).counted is not None:
            raise CountedSheet("sheet.counted", round=round_number, table=table)
        problems: list[Problem] = []
        for g in games:
            try:
                t, _, more = enter_table_game(
                    t,
                    key,
                    round_number,
                    table,
                    g.game,
                    g.points,
                    winner=g.winner,
                    penalties=g.penalties,
                    who=name_of(who),
                    at=at,
                    stage=index,
                )
            except Refused as exc:  # a row of the wrong size, a game out of range
                raise engine_error(exc) from None
            problems.extend(more)
        notices: tuple[Notice, ...] = ()
        if submit:
            t, notices, more = submit_table(
                t, key, round_number, table, who=name_of(who), at=at, why=why, stage=index
            )
            problems = list(more) or problems
        return Progress(t, notices, tuple(dict.fromkeys(problems)))

    yours = [g.data() for g in games]

    def same(theirs: ScoreSheet) -> bool:
        # A resubmission of what is saved already (a double tap on "save", a phone that
        # sends again after a lost answer): the sheet as it stands holds every game as
        # typed.
        return bool(yours) and not _differs(theirs, yours)

    return _sheet_action(
        store,
        slug,
        division,
        round_number,
        table,
        stage,
        step,
        who=who,
        why=why,
        version=version,
        action="enter_sheet",
        yours=yours,
        found=found,
        reaward=reaward,
        same=same,
    )


def correct_sheet(
    store: Store,
    slug: str | None,
    division: str | None,
    round_number: int,
    table: int,
    changes: Mapping[tuple[int, int, str], int | None],
    *,
    who: Who,
    why: str,
    version: int | None = None,
    stage: int | None = None,
    reaward: bool = False,
) -> SheetOutcome:
    """Correct cells ``(game, seat, field)`` of a counted sheet, with the reason. A
    correction that fails a check stays a draft and the old sheet still counts."""
    found: dict[str, Any] = {}

    def step(t: Tournament) -> Progress:
        key = division_key(t, division)
        index = stage_index(t, key, stage)
        found["key"] = (key, index, round_number, table)
        sheet = table_sheet(t, key, round_number, table, index)
        cells = {}
        for (game, seat, fld), value in changes.items():
            if not 0 <= seat <= len(sheet.players):
                raise TournamentError("usecase.table_seats", table=table, seats=len(sheet.players))
            cells[sheet.cell(game, seat, fld)] = value  # type: ignore[arg-type]
        try:
            return correct_table(
                t, key, round_number, table, cells, who=name_of(who), why=why, at=now(), stage=index
            )
        except Refused as exc:
            raise engine_error(exc) from None

    yours = [{"game": g, "seat": s, "field": f, "value": v} for (g, s, f), v in changes.items()]
    return _sheet_action(
        store,
        slug,
        division,
        round_number,
        table,
        stage,
        step,
        who=who,
        why=why,
        version=version,
        action="correct_sheet",
        yours=yours,
        found=found,
        reaward=reaward,
    )


def _sheet_action(
    store: Store,
    slug: str | None,
    division: str | None,
    round_number: int,
    table: int,
    stage: int | None,
    step: Callable[[Tournament], Progress],
    *,
    who: Who,
    why: str,
    version: int | None,
    action: str,
    yours: Any,
    found: dict[str, Any],
    reaward: bool = False,
    same: Callable[[ScoreSheet], bool] | None = None,
) -> SheetOutcome:
    """Run ``step`` in one transaction and save it. Refused because another device
    saved first (:class:`SheetConflict`) or the sheet is counted (:class:`CountedSheet`):
    what was typed goes to the audit log — unless ``same`` says the sheet as it stands
    holds what was typed: then a counted sheet answers as saved (nothing changes), and
    a draft is saved again over the version it now has (nothing typed is lost: it is
    the same)."""
    try:
        with store.transaction() as s:
            loaded = load(s, slug, "share")
            require_tournament(s, who, loaded.row.slug)
            try:
                progress = step(loaded.value)
            except TournamentError as exc:
                raise UseCaseError.of(exc) from None
            key: SheetKey = found["key"]
            expected = {key: version} if version is not None else None
            changes = save(
                s,
                loaded,
                progress.tournament,
                who=name_of(who),
                action=action,
                why=why,
                expected=expected,
            )
            if changes:  # a saved sheet means play has begun: the seating is locked
                lock_row(s, loaded, key[:3], who=who, why="a score sheet was saved")
            # an awarded division: its published results again, or the refusal
            again = reaward_gate(
                s, loaded, progress.tournament, confirmed=reaward, who=name_of(who), why=why
            )
            sheet = table_sheet(progress.tournament, key[0], round_number, table, key[1])
            out = SheetOutcome(
                sheet,
                loaded.version(key),
                progress.problems,
                progress.notices,
                tuple(changes),
                tuple(again),
            )
            keep = prime(store, s, loaded, progress.tournament)
        keep()
        return out
    except SheetConflict as conflict:
        already = _record_conflict(
            store, slug, conflict, who=who, action=action, why=why, yours=yours, same=same
        )
        if already is None:
            raise
        if already.counted:
            return already
        return _sheet_action(
            store,
            slug,
            division,
            round_number,
            table,
            stage,
            step,
            who=who,
            why=why,
            version=already.version,
            action=action,
            yours=yours,
            found=found,
            reaward=reaward,
        )
    except CountedSheet as counted:
        already = _record_counted(
            store, slug, found["key"], counted, who=who, action=action, yours=yours, same=same
        )
        if already is not None:
            return already
        raise


def _differs(sheet: ScoreSheet, yours: Any) -> bool:
    lines = sheet.counted or sheet.games
    for g in yours if isinstance(yours, list) else ():
        n = g.get("game", 0) if isinstance(g, dict) else 0
        if not 1 <= n <= len(lines):
            return True
        line = lines[n - 1]
        if list(line.points) != list(g.get("points") or []):
            return True
        if g.get("winner") not in (None, line.winner):
            return True
        if g.get("penalties") is not None and list(g["penalties"]) != list(line.penalties):
            return True
    return False


def _record_counted(
    store: Store,
    slug: str | None,
    key: SheetKey,
    counted: CountedSheet,
    *,
    who: Who,
    action: str,
    yours: Any,
    same: Callable[[ScoreSheet], bool] | None,
) -> SheetOutcome | None:
    """A scorer's save over a counted sheet: the sheet as counted goes back with the
    refusal; what was typed, when it differs, is kept in the audit log (and the round
    page shows the table as a conflict for the director to look at). The same sheet
    again: the outcome of the save that counted it."""
    division, index, rnd, table = key
    with store.transaction() as s:
        loaded = load(s, slug)
        theirs = table_sheet(loaded.value, division, rnd, table, index)
        counted.theirs = theirs
        if same is not None and same(theirs):
            return SheetOutcome(theirs, loaded.version(key), ())
        if _differs(theirs, yours):
            audit.record(
                s,
                at=now(),
                who=name_of(who),
                action=f"{action}_conflict",
                tournament_id=loaded.row.id,
                entity="sheet",
                key=sheet_key_text(key),
                before=codec.sheet_data(theirs),
                after={"refused": yours, "counted": True},
                why="",
            )
    return None


def _record_conflict(
    store: Store,
    slug: str | None,
    conflict: SheetConflict,
    *,
    who: Who,
    action: str,
    why: str,
    yours: Any,
    same: Callable[[ScoreSheet], bool] | None,
) -> SheetOutcome | None:
    """Keep what the refused device typed (audit log), and fill in the sheet as it is.
    The same sheet again: the sheet as it is and its version, nothing recorded."""
    division, index, rnd, table = conflict.key
    with store.transaction() as s:
        loaded = load(s, slug)
        conflict.current = loaded.version(conflict.key)
        conflict.theirs = table_sheet(loaded.value, division, rnd, table, index)
        if same is not None and same(conflict.theirs):
            return SheetOutcome(conflict.theirs, conflict.current, ())
        conflict.yours = yours
        audit.record(
            s,
            at=now(),
            who=name_of(who),
            action=f"{action}_conflict",
            tournament_id=loaded.row.id,
            entity="sheet",
            key=sheet_key_text(conflict.key),
            before=codec.sheet_data(conflict.theirs),
            after={"refused": yours, "read_version": conflict.expected},
            why=why,
        )
    fresh = SheetConflict(conflict.key, conflict.expected, conflict.current)
    conflict.refusal, conflict.args = fresh.refusal, fresh.args
    return None


__all__ = [
    "GameEntry",
    "SheetConflict",
    "SheetOutcome",
    "correct_sheet",
    "enter_sheet",
    "get_sheet",
    "stage_index",
]
