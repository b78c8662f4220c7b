"""The use cases the web app and the command line share.

Each runs in one transaction: it reads the tournament, asks the pure engine
(:mod:`meldtour.tournament`) to act — the engine alone knows the rules of seating,
sheets and standings — writes what changed with an audit line each, and commits. An
error anywhere rolls the whole unit back: nothing is half-written. A score sheet that
fails a check is the exception that proves the rule: it is *kept* as a draft (never
lost, never counted) and the problems come back.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError

from meldtour.core.refusal import Refused
from meldtour.core.rules import PRESETS, RuleSet, find_rules
from meldtour.tournament import (
    Division,
    Notice,
    Problem,
    Progress,
    ScoreSheet,
    StageFormat,
    Standings,
    Tournament,
    TournamentError,
    awards,
    check_in,
    close_round,
    correct_table,
    drop,
    enter_table_game,
    final_ranking,
    late_entry,
    register,
    seat_round,
    set_cap,
    stage_standings,
    start_division,
    start_stage,
    submit_table,
    withdraw,
)
from meldtour.tournament.ranking import Rating, rate_games
from meldtour.tournament.side import PollError, WinnerPoll, open_poll
from meldtour.tournament.side import cast_vote as side_cast_vote
from meldtour.tournament.stages import Placing, table_sheet, unseat_round

from . import codec
from .db import Store, StoreError
from .models import (
    AuditRow,
    AwardRow,
    CorrectionRow,
    GameRow,
    RegistrationRow,
    TournamentRow,
    WinnerPollRow,
    WinnerVoteRow,
)
from .models import Rating as RatingRow
from .repository import (
    Change,
    Loaded,
    Lock,
    NotFound,
    SheetConflict,
    SheetKey,
    find_tournament,
    load,
    now,
    save,
    sheet_key_text,
    touch,
)
from .templates import from_template


class UseCaseError(StoreError):
    """A use case refused, with the reason (from the engine or the store)."""


class CountedSheet(UseCaseError):
    """A scorer's save over a sheet that is counted: only the director corrects it."""


def _engine(refused: Refused) -> TournamentError:
    """A store refusal inside an engine step, raised as the engine's (same code)."""
    return TournamentError(refused.code, **refused.params)


@dataclass(frozen=True)
class Outcome:
    """What a use case did: the tournament after it, the notices, the problems of a
    sheet kept as a draft, and the changes written."""

    tournament: Tournament
    notices: tuple[Notice, ...] = ()
    problems: tuple[Problem, ...] = ()
    changes: tuple[Change, ...] = ()


def _act(
    store: Store, slug: str | None, who: str, action: str,
    step: Callable[[Tournament], Progress], *, lock: Lock = "update", why: str = "",
    expected: Mapping[SheetKey, int] | None = None,
) -> Outcome:
    with store.transaction() as s:
        loaded = load(s, slug, lock)
        try:
            progress = step(loaded.value)
        except TournamentError as exc:
            raise UseCaseError.of(exc) from None
        changes = save(s, loaded, progress.tournament, who=who, action=action, why=why,
                       expected=expected)
        if lock == "update" and changes:
            touch(loaded)
    return Outcome(progress.tournament, progress.notices, progress.problems, tuple(changes))


def read(store: Store, slug: str | None) -> Tournament:
    """The tournament as it is now (no lock, no write): the process's snapshot of it
    when the tournament has not changed since (see :func:`snapshot`)."""
    return snapshot(store, slug).tournament


def slug_of(store: Store, slug: str | None) -> str:
    with store.reading() as s:
        return find_tournament(s, slug).slug


@dataclass(frozen=True)
class Snapshot:
    """A tournament as read at one audit mark, with its sheets' versions."""

    slug: str
    mark: int
    tournament: Tournament
    versions: Mapping[SheetKey, int]


SNAPSHOTS_KEPT = 16


def _mark(s: Any, tournament_id: int) -> int:
    # The number of the tournament's audit lines. Every change writes at least one and
    # none is ever deleted, so it goes up with every commit that changes the tournament
    # — unlike the newest line's id, which on PostgreSQL a slower transaction can commit
    # *below* (ids are handed out before commit), so that it would not move.
    return int(s.scalar(select(func.count()).select_from(AuditRow).where(
        AuditRow.tournament_id == tournament_id)) or 0)


def _remember(store: Store, key: Any, snap: Snapshot) -> Snapshot:
    """Keep ``snap`` unless a newer one is kept already; returns the newest."""
    with store.snapshot_lock:
        kept: Snapshot | None = store.snapshots.get(key)
        if kept is not None and kept.mark >= snap.mark:
            return kept
        store.snapshots.pop(key, None)
        store.snapshots[key] = snap
        while len(store.snapshots) > SNAPSHOTS_KEPT:
            store.snapshots.pop(next(iter(store.snapshots)))
        return snap


def snapshot(store: Store, slug: str | None) -> Snapshot:
    """The tournament as it is now, from the process's cache when its audit mark has
    not moved since it was read (three hundred phones after one change: one load).

    The mark is read first; a snapshot kept at that mark or a later one is current.
    Otherwise one thread per tournament loads it (the others wait for it), reading the
    mark again in the same read-only transaction, so the value and its mark are one
    consistent state."""
    with store.reading() as s:
        row = find_tournament(s, slug)
        key = (row.id, row.created_at)
        mark = _mark(s, row.id)
        real = row.slug
    with store.snapshot_lock:
        kept: Snapshot | None = store.snapshots.get(key)
        gate = store.computing.setdefault(key, threading.Lock())
    if kept is not None and kept.mark >= mark:
        return kept
    with gate:
        with store.snapshot_lock:
            again: Snapshot | None = store.snapshots.get(key)
        if again is not None and again.mark >= mark:
            return again
        with store.reading() as s:
            now_mark = _mark(s, row.id)
            loaded = load(s, real)
            snap = Snapshot(real, now_mark, loaded.value,
                            {k: r.version for k, r in loaded.sheets.items()})
        return _remember(store, key, snap)


def _prime(store: Store, s: Any, loaded: Loaded, value: Tournament) -> Callable[[], None]:
    """After a writing unit of work on SQLite (the only writer while it runs), the value
    it wrote is the tournament at the mark it leaves: what to call after the commit to
    keep it as the snapshot, sparing the next reader a load. (On PostgreSQL sheet saves
    run side by side, so a unit of work does not know the state it commits into.)"""
    if store.dialect != "sqlite":
        return lambda: None
    s.flush()
    row = loaded.row
    snap = Snapshot(row.slug, _mark(s, row.id), value,
                    {k: r.version for k, r in loaded.sheets.items()})
    key = (row.id, row.created_at)

    def keep() -> None:
        _remember(store, key, snap)

    return keep


# ---------------------------------------------------------------------------
# Creating a tournament and registering players


def make_slug(name: str) -> str:
    """A tournament's slug from its name (Latin letters and digits; else ``tournament``).

    >>> make_slug("KRC 2015 Busan!")
    'krc-2015-busan'
    >>> make_slug("부산 오픈")
    'tournament'
    """
    s = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    return s or "tournament"


def create_tournament(
    store: Store, template: str, *, who: str, name: str = "", date: str = "", seed: int = 0,
    slug: str | None = None, venue: str = "",
) -> tuple[str, Tournament]:
    """A new tournament from a template; returns its slug and value."""
    try:
        value = from_template(template, name=name, date=date, seed=seed)
    except Refused as exc:
        raise UseCaseError.of(exc) from None
    return _insert(store, value, template, who=who, name=name, slug=slug, venue=venue)


def _insert(store: Store, value: Tournament, template: str, *, who: str, name: str,
            slug: str | None, venue: str) -> tuple[str, Tournament]:
    chosen = slug is not None
    slug = slug or make_slug(name or value.name)
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]*", slug):
        raise UseCaseError("usecase.bad_slug", slug=repr(slug))
    at = now()
    with store.transaction() as s:
        def taken(candidate: str) -> bool:
            found = select(TournamentRow.id).where(TournamentRow.slug == candidate)
            return s.scalar(found) is not None

        if taken(slug):
            if chosen:
                raise UseCaseError("usecase.slug_taken", slug=repr(slug))
            # A made-up slug (a name in Hangul or kana makes "tournament") gets a number.
            base, n = slug, 2
            while taken(f"{base}-{n}"):
                n += 1
            slug = f"{base}-{n}"
        row = TournamentRow(slug=slug, name=value.name, date=value.date, seed=value.seed,
                            template=template, venue=venue.strip(), created_at=at,
                            updated_at=at)
        s.add(row)
        s.flush()
        loaded = Loaded(row, Tournament(value.name, value.date, (), value.seed))
        s.add(AuditRow(at=at, who=who, action="create_tournament", tournament_id=row.id,
                       entity="tournament", key=slug, before=None,
                       after={"name": value.name, "date": value.date, "seed": value.seed,
                              "template": template, "venue": row.venue}, why=""))
        save(s, loaded, value, who=who, action="create_tournament")
    return slug, value


# ---------------------------------------------------------------------------
# A tournament from scratch, its details, and its divisions


@dataclass(frozen=True, slots=True)
class DivisionSpec:
    """A division as the director describes it: ``rules`` names a rules preset;
    ``formats`` are the stages in order."""

    key: str
    name: str
    cap: int
    rules: str
    formats: tuple[StageFormat, ...]
    eligibility: str = ""
    late_entry: bool = False
    keep_apart: tuple[str, ...] = ()
    groups_hard: bool = True
    prizes: int = 4

    def division(self) -> Division:
        if not re.fullmatch(r"[a-z0-9][a-z0-9_-]{0,39}", self.key):
            raise TournamentError("usecase.bad_division_key", key=repr(self.key))
        if not self.name.strip():
            raise TournamentError("usecase.division_needs_name")
        return Division(self.key, self.name.strip(), self.cap, _rules(self.rules),
                        self.formats, eligibility=self.eligibility.strip(),
                        keep_apart=self.keep_apart, groups_hard=self.groups_hard,
                        late_entry=self.late_entry, prizes=self.prizes)


def _rules(preset: str) -> RuleSet:
    if preset not in PRESETS:
        raise TournamentError("usecase.no_preset", preset=repr(preset),
                              presets=", ".join(PRESETS))
    return find_rules(preset)


def create_blank_tournament(
    store: Store, *, who: str, name: str, date: str = "", venue: str = "",
    divisions: Sequence[DivisionSpec], seed: int = 0, slug: str | None = None,
) -> tuple[str, Tournament]:
    """A new tournament from scratch (no template): its name, date, venue and at
    least one division."""
    if not name.strip():
        raise UseCaseError("usecase.tournament_needs_name")
    if not divisions:
        raise UseCaseError("usecase.needs_division")
    try:
        divs = tuple(d.division() for d in divisions)
    except TournamentError as exc:
        raise UseCaseError.of(exc) from None
    keys = [d.key for d in divs]
    if len(set(keys)) != len(keys):
        raise UseCaseError("usecase.same_division_key")
    value = Tournament(name.strip(), date.strip(), divs, seed=seed)
    return _insert(store, value, "scratch", who=who, name=name, slug=slug, venue=venue)


@dataclass(frozen=True, slots=True)
class TournamentInfo:
    """What the store keeps of a tournament beside the engine's value."""

    slug: str
    name: str
    date: str
    venue: str
    template: str


def info(store: Store, slug: str | None) -> TournamentInfo:
    with store.reading() as s:
        row = find_tournament(s, slug)
        return TournamentInfo(row.slug, row.name, row.date, row.venue, row.template)


def edit_tournament(store: Store, slug: str | None, *, who: str, name: str, date: str,
                    venue: str) -> TournamentInfo:
    """Change the tournament's name, date and venue (audited)."""
    if not name.strip():
        raise UseCaseError("usecase.tournament_needs_name")
    with store.transaction() as s:
        loaded = load(s, slug, "update")
        new = replace(loaded.value, name=name.strip(), date=date.strip())
        save(s, loaded, new, who=who, action="edit_tournament")
        row = loaded.row
        if row.venue != venue.strip():
            s.add(AuditRow(at=now(), who=who, action="edit_tournament",
                           tournament_id=row.id, entity="tournament", key=row.slug,
                           before={"venue": row.venue}, after={"venue": venue.strip()},
                           why=""))
            row.venue = venue.strip()
        touch(loaded)
        return TournamentInfo(row.slug, row.name, row.date, row.venue, row.template)


def add_division(store: Store, slug: str | None, spec: DivisionSpec, *, who: str) -> Outcome:
    """Add a division to a tournament."""
    def step(t: Tournament) -> Progress:
        div = spec.division()
        if any(d.key == div.key for d in t.divisions):
            raise TournamentError("usecase.division_exists", key=repr(div.key))
        return Progress(replace(t, divisions=(*t.divisions, div)),
                        (Notice("division", f"{div.name} added", div.key),))

    return _act(store, slug, who, "add_division", step)


@dataclass(frozen=True, slots=True)
class DivisionEdit:
    """The settings of a division the director changes (``None``: unchanged). All but
    the name are fixed once check-in has closed."""

    name: str | None = None
    cap: int | None = None
    rules: str | None = None
    formats: tuple[StageFormat, ...] | None = None
    eligibility: str | None = None
    keep_apart: tuple[str, ...] | None = None
    groups_hard: bool | None = None
    late_entry: bool | None = None


def edit_division(store: Store, slug: str | None, division: str, edit: DivisionEdit, *,
                  who: str) -> Outcome:
    """Change a division's settings: its name at any time; its cap, rules preset,
    stages, eligibility, seating groups and late entry until check-in closes. A larger
    cap moves players up from the waitlist."""
    def step(t: Tournament) -> Progress:
        div = t.division(_division(t, division))
        name = div.name if edit.name is None else edit.name.strip()
        if not name:
            raise TournamentError("usecase.division_needs_name")
        structural = {
            "rules": edit.rules is not None and _rules(edit.rules) != div.rules,
            "formats": edit.formats is not None and edit.formats != div.formats,
            "eligibility": edit.eligibility is not None
            and edit.eligibility.strip() != div.eligibility,
            "keep_apart": edit.keep_apart is not None and edit.keep_apart != div.keep_apart,
            "groups_hard": edit.groups_hard is not None
            and edit.groups_hard != div.groups_hard,
            "late_entry": edit.late_entry is not None and edit.late_entry != div.late_entry,
            "cap": edit.cap is not None and edit.cap != div.cap,
        }
        if div.started and any(structural.values()):
            raise TournamentError("usecase.settings_fixed", div=div.name)
        new = replace(
            div, name=name,
            rules=_rules(edit.rules) if structural["rules"] and edit.rules else div.rules,
            formats=edit.formats if edit.formats is not None else div.formats,
            eligibility=(edit.eligibility.strip()[:200] if edit.eligibility is not None
                         else div.eligibility),
            keep_apart=edit.keep_apart if edit.keep_apart is not None else div.keep_apart,
            groups_hard=edit.groups_hard if edit.groups_hard is not None
            else div.groups_hard,
            late_entry=edit.late_entry if edit.late_entry is not None else div.late_entry)
        t = t.with_division(new)
        if structural["cap"] and edit.cap is not None:
            return set_cap(t, div.key, edit.cap)
        return Progress(t, (Notice("division", f"{name}: settings saved", div.key),))

    return _act(store, slug, who, "edit_division", step)


@dataclass(frozen=True, slots=True)
class PlayerEntry:
    """A player to register; ``line`` names the row of the file it came from."""

    name: str
    division: str | None = None
    tags: tuple[str, ...] = ()
    generation: int | None = None
    line: int | None = None


def register_players(
    store: Store, slug: str | None, entries: Sequence[PlayerEntry], *, who: str,
    tick: Callable[[], Any] | None = None,
) -> Outcome:
    """Register players in order (past a division's cap they are waitlisted). All or
    nothing: an error names the row and nothing is registered."""
    def step(t: Tournament) -> Progress:
        notices: list[Notice] = []
        for e in entries:
            try:
                division = resolve_division(t, e.division, for_import=True)
                t, more, _ = register(t, division, e.name, tags=e.tags,
                                      generation=e.generation)
            except (TournamentError, UseCaseError) as exc:
                if e.line is None:
                    raise _engine(exc) from None
                raise TournamentError("usecase.row", line=e.line, reason=exc.refusal) from None
            notices.extend(more)
            if tick:
                tick()
        return Progress(t, tuple(notices))

    return _act(store, slug, who, "register", step)


def resolve_division(t: Tournament, key: str | None, *, for_import: bool = False) -> str:
    """The division ``key`` names (by key or name); without one, the only division,
    or the only one with players."""
    if key:
        for d in t.divisions:
            if key in (d.key, d.name):
                return d.key
        raise UseCaseError("usecase.no_division", key=repr(key),
                           keys=", ".join(d.key for d in t.divisions))
    if len(t.divisions) == 1:
        return t.divisions[0].key
    used = list(dict.fromkeys(r.division for r in t.registrations))
    if len(used) == 1 and not for_import:
        return used[0]
    raise UseCaseError("usecase.name_division", keys=", ".join(d.key for d in t.divisions))


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
            raise UseCaseError("usecase.same_name", n=len(found), name=repr(s),
                               numbers=", ".join(f"#{r.player}" for r in found))
    raise UseCaseError("usecase.no_player", who=repr(s))


def check_in_players(
    store: Store, slug: str | None, players: Iterable[str], *, who: str,
    everyone_but: bool = False, division: str | None = None,
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
                numbers = [r.player for r in t.in_division(key, "registered")
                           if r.player not in skip]
        except UseCaseError as exc:
            raise _engine(exc) from None
        notices: list[Notice] = []
        for n in numbers:
            t, more, _ = check_in(t, n)
            notices.extend(more)
        return Progress(t, tuple(notices))

    return _act(store, slug, who, "check_in", step)


def close_check_in(store: Store, slug: str | None, division: str | None, *, who: str) -> Outcome:
    """Start the division: whoever has not checked in is a no-show."""
    def step(t: Tournament) -> Progress:
        return start_division(t, _division(t, division))

    return _act(store, slug, who, "close_check_in", step)


def _division(t: Tournament, key: str | None) -> str:
    try:
        return resolve_division(t, key)
    except UseCaseError as exc:
        raise _engine(exc) from None


# ---------------------------------------------------------------------------
# Withdrawals, drops and late entries


def withdraw_player(store: Store, slug: str | None, player: str, *, who: str) -> Outcome:
    """A player withdraws before the division starts; the first on the waitlist moves
    up."""
    def step(t: Tournament) -> Progress:
        return withdraw(t, _player(t, player))

    return _act(store, slug, who, "withdraw", step)


def drop_player(store: Store, slug: str | None, player: str, *, who: str,
                why: str = "") -> Outcome:
    """A player leaves during the event: their counted games stay, they are not seated
    again and cannot advance."""
    def step(t: Tournament) -> Progress:
        return drop(t, _player(t, player), why)

    return _act(store, slug, who, "drop", step, why=why)


def enter_late(store: Store, slug: str | None, division: str | None, name: str, *,
               who: str, tags: Sequence[str] = (), generation: int | None = None) -> Outcome:
    """Enter a player after the start where the division allows late entry (before
    the start this is an ordinary registration)."""
    def step(t: Tournament) -> Progress:
        if not name.strip():
            raise TournamentError("registration.needs_name")
        return late_entry(t, _division(t, division), name, tags=tags, generation=generation)

    return _act(store, slug, who, "late_entry", step)


def _player(t: Tournament, token: str) -> int:
    try:
        return find_player(t, token)
    except UseCaseError as exc:
        raise _engine(exc) from None


# ---------------------------------------------------------------------------
# Rounds


def current_round(t: Tournament, division: str) -> tuple[int, int, bool]:
    """(stage index, last round number (0 for none), whether that round is closed)."""
    div = t.division(division)
    if not div.stages:
        return -1, 0, True
    stage = div.stages[-1]
    if not stage.rounds:
        return len(div.stages) - 1, 0, True
    return len(div.stages) - 1, stage.rounds[-1].number, stage.rounds[-1].closed


def seat(store: Store, slug: str | None, division: str | None, round_number: int | None, *,
         who: str) -> Outcome:
    """Seat round ``round_number`` of the current stage. Closes check-in and starts
    the first stage when they are not yet, and closes the round before if all its
    sheets are counted."""
    def step(t: Tournament) -> Progress:
        key = _division(t, division)
        notices: list[Notice] = []
        div = t.division(key)
        if not div.started:
            t, more, _ = start_division(t, key)
            notices.extend(more)
            div = t.division(key)
        if not div.stages:
            t, more, _ = start_stage(t, key)
            notices.extend(more)
        index, last, closed = current_round(t, key)
        stage = t.division(key).stages[index]
        if stage.finished:
            raise TournamentError("usecase.stage_finished", stage=stage.format.title)
        wanted = last + 1
        if round_number is not None and round_number != wanted:
            if round_number == last:
                raise TournamentError("usecase.round_seated", n=last,
                                      stage=stage.format.title)
            raise TournamentError("usecase.next_round", stage=stage.format.title,
                                  wanted=wanted, n=round_number)
        if last and not closed:
            t, more, _ = close_round(t, key)
            notices.extend(more)
            if t.division(key).stages[index].finished:
                raise TournamentError("usecase.stage_finished", stage=stage.format.title)
        t, more, _ = seat_round(t, key)
        notices.extend(more)
        return Progress(t, tuple(notices))

    return _act(store, slug, who, "seat", step)


def close(store: Store, slug: str | None, division: str | None, *, who: str) -> Outcome:
    """Close the current round (all its sheets counted)."""
    def step(t: Tournament) -> Progress:
        return close_round(t, _division(t, division))

    return _act(store, slug, who, "close_round", step)


def advance(store: Store, slug: str | None, division: str | None, *, who: str) -> Outcome:
    """Start the division's next stage with the players above the cut; the last round
    of the stage before is closed first if all its sheets are counted."""
    def step(t: Tournament) -> Progress:
        key = _division(t, division)
        notices: list[Notice] = []
        _, last, closed = current_round(t, key)
        if last and not closed:
            t, more, _ = close_round(t, key)
            notices.extend(more)
        t, more, _ = start_stage(t, key)
        notices.extend(more)
        return Progress(t, tuple(notices))

    return _act(store, slug, who, "advance", step)


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
        return {k: RoundLock(r.locked_at, r.locked_by or "")
                for k, r in loaded.rounds.items() if r.locked_at is not None}


def _lock_row(s: Any, loaded: Loaded, key: RoundKey, *, who: str, why: str) -> bool:
    row = loaded.rounds[key]
    if row.locked_at is not None:
        return False
    row.locked_at, row.locked_by = now(), who
    s.add(AuditRow(at=row.locked_at, who=who, action="lock_seating",
                   tournament_id=loaded.row.id, entity="round",
                   key=f"{key[0]}/stage {key[1] + 1}/round {key[2]}",
                   before={"locked": False}, after={"locked": True}, why=why))
    return True


def lock_seating(store: Store, slug: str | None, division: str | None, *,
                 who: str) -> RoundLock:
    """Lock the seating of the division's current round: it is never reseated after
    this. (The first score sheet saved in a round locks it too.)"""
    with store.transaction() as s:
        loaded = load(s, slug, "update")
        t = loaded.value
        key = resolve_division(t, division)
        index, number, _closed = current_round(t, key)
        if number == 0:
            raise UseCaseError("usecase.no_round_seated", div=t.division(key).name)
        _lock_row(s, loaded, (key, index, number), who=who, why="")
        row = loaded.rounds[(key, index, number)]
        return RoundLock(row.locked_at or "", row.locked_by or "")


def reseat(store: Store, slug: str | None, division: str | None, *, who: str) -> Outcome:
    """Seat the current round again (after a drop or a late entry), while its seating
    is not locked and nothing is entered on its sheets."""
    with store.transaction() as s:
        loaded = load(s, slug, "update")
        t = loaded.value
        try:
            key = resolve_division(t, division)
            index, number, closed = current_round(t, key)
            if number == 0 or closed:
                raise TournamentError("division.no_round_open", div=t.division(key).name)
            rkey = (key, index, number)
            if loaded.rounds[rkey].locked_at is not None:
                raise TournamentError("usecase.seating_locked", div=t.division(key).name,
                                      n=number)
            back = unseat_round(t, key)
            progress = seat_round(back.tournament, key)
        except TournamentError as exc:
            raise UseCaseError.of(exc) from None
        # The old round's rows go; the round is written again as new.
        row = loaded.rounds.pop(rkey)
        for skey in [k for k in loaded.sheets if k[:3] == rkey]:
            sheet_row = loaded.sheets.pop(skey)
            s.execute(delete(GameRow).where(GameRow.sheet_id == sheet_row.id))
            s.execute(delete(CorrectionRow).where(CorrectionRow.sheet_id == sheet_row.id))
            loaded.games.pop(sheet_row.id, None)
            loaded.corrections.pop(sheet_row.id, None)
            s.delete(sheet_row)
        s.flush()
        s.delete(row)
        s.flush()
        s.add(AuditRow(at=now(), who=who, action="reseat", tournament_id=loaded.row.id,
                       entity="round", key=f"{key}/stage {index + 1}/round {number}",
                       before=[list(x.players) for x in
                               t.division(key).stages[index].rounds[-1].tables],
                       after=None, why=""))
        loaded.value = back.tournament
        changes = save(s, loaded, progress.tournament, who=who, action="reseat")
        touch(loaded)
    return Outcome(progress.tournament, back.notices + progress.notices, (), tuple(changes))


# ---------------------------------------------------------------------------
# Score sheets


@dataclass(frozen=True, slots=True)
class GameEntry:
    """One game's row as typed: points per seat, penalty points per seat, the winning
    seat (``None``: the one seat with the most points)."""

    game: int
    points: tuple[int | None, ...]
    penalties: tuple[int, ...] | None = None
    winner: int | None = None

    def data(self) -> dict[str, Any]:
        return {"game": self.game, "points": list(self.points),
                "penalties": None if self.penalties is None else list(self.penalties),
                "winner": self.winner}


@dataclass(frozen=True)
class SheetOutcome:
    """A saved sheet: the sheet, its version now, the problems (a draft) or none
    (counted), and the notices."""

    sheet: ScoreSheet
    version: int
    problems: tuple[Problem, ...]
    notices: tuple[Notice, ...] = ()
    changes: tuple[Change, ...] = field(default=())

    @property
    def counted(self) -> bool:
        return not self.problems and self.sheet.counted is not None


def get_sheet(store: Store, slug: str | None, division: str | None, round_number: int,
              table: int, *, stage: int | None = None) -> tuple[ScoreSheet, int, str]:
    """A sheet, its version (what a device sends back when it saves) and division."""
    snap = snapshot(store, slug)
    t = snap.tournament
    try:
        key = resolve_division(t, division)
        index = _stage_index(t, key, stage)
        sheet = table_sheet(t, key, round_number, table, index)
    except TournamentError as exc:
        raise UseCaseError.of(exc) from None
    return sheet, snap.versions[(key, index, round_number, table)], key


def _stage_index(t: Tournament, division: str, stage: int | None) -> int:
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
    store: Store, slug: str | None, division: str | None, round_number: int, table: int,
    games: Sequence[GameEntry], *, who: str, why: str = "", version: int | None = None,
    stage: int | None = None, submit: bool = True, may_correct: bool = True,
) -> SheetOutcome:
    """Enter a table's games and count the sheet if every check passes.

    A sheet that fails a check is saved as a draft and the problems come back. On a
    counted sheet this is a correction, and ``why`` is required. ``version`` is the
    version the device read (see :func:`get_sheet`): if another device saved since,
    :class:`SheetConflict` is raised, nothing is saved, what was typed is in the
    exception and in the audit log. ``may_correct=False`` (a scorer's link) refuses a
    counted sheet with :class:`CountedSheet`, judged in the saving transaction itself."""
    at = now()
    found: dict[str, Any] = {}

    def step(t: Tournament) -> Progress:
        key = _division(t, division)
        index = _stage_index(t, key, stage)
        found["key"] = (key, index, round_number, table)
        if not may_correct and table_sheet(t, key, round_number, table,
                                           index).counted is not None:
            raise CountedSheet("sheet.counted", round=round_number, table=table)
        problems: list[Problem] = []
        for g in games:
            try:
                t, _, more = enter_table_game(
                    t, key, round_number, table, g.game, g.points, winner=g.winner,
                    penalties=g.penalties, who=who, at=at, stage=index)
            except Refused as exc:  # a row of the wrong size, a game out of range
                raise _engine(exc) from None
            problems.extend(more)
        notices: tuple[Notice, ...] = ()
        if submit:
            t, notices, more = submit_table(t, key, round_number, table, who=who, at=at,
                                            why=why, stage=index)
            problems = list(more) or problems
        return Progress(t, notices, tuple(dict.fromkeys(problems)))

    return _sheet_action(store, slug, division, round_number, table, stage, step, who=who,
                         why=why, version=version, action="enter_sheet",
                         yours=[g.data() for g in games], found=found)


def correct_sheet(
    store: Store, slug: str | None, division: str | None, round_number: int, table: int,
    changes: Mapping[tuple[int, int, str], int | None], *, who: str, why: str,
    version: int | None = None, stage: int | None = None,
) -> SheetOutcome:
    """Correct cells ``(game, seat, field)`` of a counted sheet, with the reason. A
    correction that fails a check stays a draft and the old sheet still counts."""
    found: dict[str, Any] = {}

    def step(t: Tournament) -> Progress:
        key = _division(t, division)
        index = _stage_index(t, key, stage)
        found["key"] = (key, index, round_number, table)
        sheet = table_sheet(t, key, round_number, table, index)
        cells = {}
        for (game, seat, fld), value in changes.items():
            if not 0 <= seat <= len(sheet.players):
                raise TournamentError("usecase.table_seats", table=table, seats=len(sheet.players))
            cells[sheet.cell(game, seat, fld)] = value  # type: ignore[arg-type]
        try:
            return correct_table(t, key, round_number, table, cells, who=who, why=why,
                                 at=now(), stage=index)
        except Refused as exc:
            raise _engine(exc) from None

    yours = [{"game": g, "seat": s, "field": f, "value": v} for (g, s, f), v in changes.items()]
    return _sheet_action(store, slug, division, round_number, table, stage, step, who=who,
                         why=why, version=version, action="correct_sheet", yours=yours,
                         found=found)


def _sheet_action(
    store: Store, slug: str | None, division: str | None, round_number: int, table: int,
    stage: int | None, step: Callable[[Tournament], Progress], *, who: str, why: str,
    version: int | None, action: str, yours: Any, found: dict[str, Any],
) -> SheetOutcome:
    try:
        with store.transaction() as s:
            loaded = load(s, slug, "share")
            try:
                progress = step(loaded.value)
            except TournamentError as exc:
                raise UseCaseError.of(exc) from None
            key: SheetKey = found["key"]
            expected = {key: version} if version is not None else None
            changes = save(s, loaded, progress.tournament, who=who, action=action, why=why,
                           expected=expected)
            if changes:  # a saved sheet means play has begun: the seating is locked
                _lock_row(s, loaded, key[:3], who=who, why="a score sheet was saved")
            sheet = table_sheet(progress.tournament, key[0], round_number, table, key[1])
            out = SheetOutcome(sheet, loaded.version(key), progress.problems,
                               progress.notices, tuple(changes))
            keep = _prime(store, s, loaded, progress.tournament)
        keep()
        return out
    except SheetConflict as conflict:
        _record_conflict(store, slug, conflict, who=who, action=action, why=why, yours=yours)
        raise


def _record_conflict(store: Store, slug: str | None, conflict: SheetConflict, *, who: str,
                     action: str, why: str, yours: Any) -> None:
    """Keep what the refused device typed (audit log), and fill in the sheet as it is."""
    division, index, rnd, table = conflict.key
    with store.transaction() as s:
        loaded = load(s, slug)
        conflict.current = loaded.version(conflict.key)
        conflict.theirs = table_sheet(loaded.value, division, rnd, table, index)
        conflict.yours = yours
        s.add(AuditRow(at=now(), who=who, action=f"{action}_conflict",
                       tournament_id=loaded.row.id, entity="sheet",
                       key=sheet_key_text(conflict.key),
                       before=codec.sheet_data(conflict.theirs),
                       after={"refused": yours, "read_version": conflict.expected}, why=why))
    fresh = SheetConflict(conflict.key, conflict.expected, conflict.current)
    conflict.refusal, conflict.args = fresh.refusal, fresh.args


# ---------------------------------------------------------------------------
# Standings and awards


def standings(store: Store, slug: str | None, division: str | None,
              stage: int | None = None) -> tuple[Tournament, str, Standings]:
    t = read(store, slug)
    try:
        key = resolve_division(t, division)
        index = _stage_index(t, key, stage)
        return t, key, stage_standings(t, key, index)
    except TournamentError as exc:
        raise UseCaseError.of(exc) from None


def ranking(store: Store, slug: str | None,
            division: str | None) -> tuple[Tournament, str, tuple[Placing, ...]]:
    t = read(store, slug)
    try:
        key = resolve_division(t, division)
        return t, key, final_ranking(t, key)
    except TournamentError as exc:
        raise UseCaseError.of(exc) from None


@dataclass(frozen=True, slots=True)
class AwardLine:
    place: int
    number: int
    name: str
    division: str


def award(store: Store, slug: str | None, division: str | None, *,
          who: str) -> tuple[AwardLine, ...]:
    """Record the division's awards (once it is finished) and rate its games.

    Awarding again gives the recorded awards back and changes nothing."""
    at = now()
    with store.transaction() as s:
        loaded = load(s, slug, "update")
        t = loaded.value
        try:
            key = resolve_division(t, division)
            prizes = awards(t, key)
        except TournamentError as exc:
            raise UseCaseError.of(exc) from None
        div_row = loaded.divisions[key]
        recorded = list(s.scalars(select(AwardRow).where(AwardRow.division_id == div_row.id)
                                  .order_by(AwardRow.place)))
        if recorded:
            return tuple(AwardLine(a.place, a.number, a.name, key) for a in recorded)
        lines = tuple(AwardLine(a.place, a.player, a.name, key) for a in prizes)
        s.execute(delete(AwardRow).where(AwardRow.division_id == div_row.id))
        for a in lines:
            s.add(AwardRow(division_id=div_row.id, place=a.place, number=a.number,
                           name=a.name, awarded_at=at))
        s.add(AuditRow(at=at, who=who, action="award", tournament_id=loaded.row.id,
                       entity="award", key=key, before=None,
                       after=[{"place": a.place, "number": a.number, "name": a.name}
                              for a in lines], why=""))
        _rate(s, loaded, key, who=who, at=at)
        touch(loaded)
    return lines


def _rate(s: Any, loaded: Loaded, division: str, *, who: str, at: str) -> None:
    """Update the players' ratings from every counted game of the division."""
    games = [g for st in loaded.value.division(division).stages for g in st.results()]
    player_of = {n: r.player_id for n, r in loaded.registrations.items()}
    involved = sorted({p for g in games for p in g.players})
    rows = {r.player_id: r for r in s.scalars(select(RatingRow).where(
        RatingRow.player_id.in_([player_of[p] for p in involved])))}
    before = {p: Rating(rows[player_of[p]].mu, rows[player_of[p]].sigma,
                        rows[player_of[p]].games)
              for p in involved if player_of[p] in rows}
    after = rate_games(before, games)
    for p in involved:
        r = after[p]
        row = rows.get(player_of[p])
        if row is None:
            s.add(RatingRow(player_id=player_of[p], mu=r.mu, sigma=r.sigma, games=r.games,
                            updated_at=at))
        else:
            row.mu, row.sigma, row.games, row.updated_at = r.mu, r.sigma, r.games, at
    s.add(AuditRow(at=at, who=who, action="rate", tournament_id=loaded.row.id,
                   entity="rating", key=division,
                   before={str(p): [x.mu, x.sigma, x.games] for p, x in before.items()},
                   after={str(p): [after[p].mu, after[p].sigma, after[p].games]
                          for p in involved}, why=""))


# ---------------------------------------------------------------------------
# The winner-guess vote


@dataclass(frozen=True)
class PollView:
    """A division's winner-guess vote: its finalists, whether it is closed, the votes
    per finalist and in all."""

    division: str
    stage: int
    finalists: tuple[int, ...]
    closed: bool
    tally: dict[int, int]
    votes: int
    opened_at: str
    closed_at: str | None


def _poll_view(s: Any, division: str, row: WinnerPollRow) -> PollView:
    tally = dict.fromkeys(row.finalists, 0)
    for finalist, n in s.execute(
            select(WinnerVoteRow.finalist, func.count()).where(
                WinnerVoteRow.poll_id == row.id).group_by(WinnerVoteRow.finalist)):
        tally[finalist] = tally.get(finalist, 0) + n
    return PollView(division, row.stage, tuple(row.finalists), row.closed, tally,
                    sum(tally.values()), row.opened_at, row.closed_at)


def _latest_poll(s: Any, loaded: Loaded, division: str) -> WinnerPollRow | None:
    div_row = loaded.divisions[division]
    found: WinnerPollRow | None = s.scalars(
        select(WinnerPollRow).where(WinnerPollRow.division_id == div_row.id)
        .order_by(WinnerPollRow.stage.desc()).limit(1)).first()
    return found


def polls(store: Store, slug: str | None) -> dict[str, PollView]:
    """Each division's latest winner-guess vote (divisions without one are left out)."""
    with store.reading() as s:
        loaded = load(s, slug)
        out = {}
        for key in loaded.divisions:
            row = _latest_poll(s, loaded, key)
            if row is not None:
                out[key] = _poll_view(s, key, row)
        return out


def open_vote(store: Store, slug: str | None, division: str | None, *,
              who: str) -> PollView:
    """Open the winner-guess vote of the division's current stage: the finalists are
    the stage's players still in it. A closed vote of the same stage opens again."""
    with store.transaction() as s:
        loaded = load(s, slug, "update")
        t = loaded.value
        key = resolve_division(t, division)
        div = t.division(key)
        if not div.stages:
            raise UseCaseError("usecase.vote_before_start", div=div.name)
        index = len(div.stages) - 1
        stage = div.stages[index]
        if stage.finished and index + 1 == len(div.formats):
            raise UseCaseError("usecase.vote_too_late", div=div.name)
        try:
            open_poll(stage.active)
        except PollError as exc:
            raise UseCaseError.of(exc) from None
        div_row = loaded.divisions[key]
        row = s.scalars(select(WinnerPollRow).where(
            WinnerPollRow.division_id == div_row.id, WinnerPollRow.stage == index)).first()
        at = now()
        if row is None:
            row = WinnerPollRow(tournament_id=loaded.row.id, division_id=div_row.id,
                                stage=index, finalists=list(stage.active), closed=False,
                                opened_by=who, opened_at=at)
            s.add(row)
        elif not row.closed:
            raise UseCaseError("usecase.vote_open", div=div.name)
        else:
            row.closed, row.closed_at = False, None
        s.add(AuditRow(at=at, who=who, action="open_vote", tournament_id=loaded.row.id,
                       entity="vote", key=f"{key}/stage {index + 1}", before=None,
                       after={"finalists": list(row.finalists)}, why=""))
        s.flush()
        return _poll_view(s, key, row)


def close_vote(store: Store, slug: str | None, division: str | None, *,
               who: str) -> PollView:
    """Close the division's open vote; its results are public from now on."""
    with store.transaction() as s:
        loaded = load(s, slug, "update")
        key = resolve_division(loaded.value, division)
        row = _latest_poll(s, loaded, key)
        if row is None or row.closed:
            raise UseCaseError("usecase.no_vote_open", div=loaded.value.division(key).name)
        row.closed, row.closed_at = True, now()
        view = _poll_view(s, key, row)
        s.add(AuditRow(at=row.closed_at, who=who, action="close_vote",
                       tournament_id=loaded.row.id, entity="vote",
                       key=f"{key}/stage {row.stage + 1}", before=None,
                       after={str(k): v for k, v in view.tally.items()}, why=""))
        return view


def cast_vote(store: Store, slug: str | None, division: str | None, voter: str,
              finalist: int, *, name: str = "") -> PollView:
    """A visitor's guess: one vote per voter key; voting again, while the vote is
    open, changes the vote. (Two votes of one voter at once: the second finds the
    first's row on its retry and changes it.)"""
    if not re.fullmatch(r"[A-Za-z0-9_-]{8,64}", voter):
        raise UseCaseError("usecase.voter_key")
    try:
        return _cast_vote(store, slug, division, voter, finalist, name)
    except IntegrityError:
        return _cast_vote(store, slug, division, voter, finalist, name)


def _cast_vote(store: Store, slug: str | None, division: str | None, voter: str,
               finalist: int, name: str) -> PollView:
    with store.transaction() as s:
        loaded = load(s, slug)
        key = resolve_division(loaded.value, division)
        row = _latest_poll(s, loaded, key)
        if row is None:
            raise UseCaseError("usecase.vote_not_open")
        poll = WinnerPoll(tuple(row.finalists), closed=row.closed)
        try:
            side_cast_vote(poll, voter, finalist)
        except PollError as exc:
            raise UseCaseError.of(exc) from None
        vote = s.scalars(select(WinnerVoteRow).where(
            WinnerVoteRow.poll_id == row.id, WinnerVoteRow.voter == voter)).first()
        if vote is None:
            s.add(WinnerVoteRow(poll_id=row.id, voter=voter, name=name.strip()[:80],
                                finalist=finalist, at=now()))
        else:
            vote.finalist, vote.at = finalist, now()
            if name.strip():
                vote.name = name.strip()[:80]
        s.flush()
        return _poll_view(s, key, row)


def my_vote(store: Store, slug: str | None, division: str, voter: str | None) -> int | None:
    """The finalist this voter chose in the division's latest vote, if any."""
    if not voter:
        return None
    with store.reading() as s:
        loaded = load(s, slug)
        row = _latest_poll(s, loaded, division)
        if row is None:
            return None
        found: int | None = s.scalar(select(WinnerVoteRow.finalist).where(
            WinnerVoteRow.poll_id == row.id, WinnerVoteRow.voter == voter))
        return found


def audit_mark(store: Store, slug: str | None) -> int:
    """The tournament's audit mark: the number of its audit lines. It moves on with
    every change (a sheet saved, a round seated or closed), so a screen can tell it has
    to reload."""
    with store.reading() as s:
        return _mark(s, find_tournament(s, slug).id)


def audit_log(store: Store, slug: str | None) -> list[dict[str, Any]]:
    """The tournament's audit lines, oldest first."""
    with store.reading() as s:
        row = load(s, slug).row
        return [{"id": a.id, "at": a.at, "who": a.who, "action": a.action,
                 "entity": a.entity, "key": a.key, "before": a.before, "after": a.after,
                 "why": a.why}
                for a in s.scalars(select(AuditRow).where(AuditRow.tournament_id == row.id)
                                   .order_by(AuditRow.id))]


def registrations_by_number(store: Store, slug: str | None) -> dict[int, RegistrationRow]:
    with store.reading() as s:
        return dict(load(s, slug).registrations)


__all__ = [
    "AwardLine", "CountedSheet", "DivisionEdit", "DivisionSpec", "GameEntry", "NotFound",
    "Outcome", "PlayerEntry", "PollView", "RoundLock", "SheetConflict", "SheetOutcome",
    "Snapshot", "TournamentInfo", "UseCaseError",
]
