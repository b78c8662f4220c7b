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
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import delete, select

from meldtour.tournament import (
    Notice,
    Problem,
    Progress,
    ScoreSheet,
    Standings,
    Tournament,
    TournamentError,
    awards,
    check_in,
    close_round,
    correct_table,
    enter_table_game,
    final_ranking,
    register,
    seat_round,
    stage_standings,
    start_division,
    start_stage,
    submit_table,
)
from meldtour.tournament.ranking import Rating, rate_games
from meldtour.tournament.stages import Placing, table_sheet

from . import codec
from .db import Store, StoreError
from .models import AuditRow, AwardRow, RegistrationRow, TournamentRow
from .models import Rating as RatingRow
from .repository import (
    Change,
    Loaded,
    Lock,
    NotFound,
    SheetConflict,
    SheetKey,
    load,
    now,
    save,
    sheet_key_text,
    touch,
)
from .templates import from_template


class UseCaseError(StoreError):
    """A use case refused, with the reason (from the engine or the store)."""


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
            raise UseCaseError(str(exc)) from None
        changes = save(s, loaded, progress.tournament, who=who, action=action, why=why,
                       expected=expected)
        if lock == "update" and changes:
            touch(loaded)
    return Outcome(progress.tournament, progress.notices, progress.problems, tuple(changes))


def read(store: Store, slug: str | None) -> Tournament:
    """The tournament as it is now (no lock, no write)."""
    with store.transaction() as s:
        return load(s, slug).value


def slug_of(store: Store, slug: str | None) -> str:
    with store.transaction() as s:
        return load(s, slug).row.slug


# ---------------------------------------------------------------------------
# Creating a tournament and registering players


def make_slug(name: str) -> str:
    """>>> make_slug("KRC 2015 Busan!")
    'krc-2015-busan'
    """
    s = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    return s or "tournament"


def create_tournament(
    store: Store, template: str, *, who: str, name: str = "", date: str = "", seed: int = 0,
    slug: str | None = None,
) -> tuple[str, Tournament]:
    """A new tournament from a template; returns its slug and value."""
    try:
        value = from_template(template, name=name, date=date, seed=seed)
    except ValueError as exc:
        raise UseCaseError(str(exc)) from None
    chosen = slug is not None
    slug = slug or make_slug(name or value.name)
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]*", slug):
        raise UseCaseError(f"a slug is letters, digits, '-', '_' and '.', not {slug!r}")
    at = now()
    with store.transaction() as s:
        def taken(candidate: str) -> bool:
            found = select(TournamentRow.id).where(TournamentRow.slug == candidate)
            return s.scalar(found) is not None

        if taken(slug):
            if chosen:
                raise UseCaseError(
                    f"there is already a tournament {slug!r}: choose another --slug")
            # A made-up slug (a name in Hangul or kana makes "tournament") gets a number.
            base, n = slug, 2
            while taken(f"{base}-{n}"):
                n += 1
            slug = f"{base}-{n}"
        row = TournamentRow(slug=slug, name=value.name, date=value.date, seed=value.seed,
                            template=template, created_at=at, updated_at=at)
        s.add(row)
        s.flush()
        loaded = Loaded(row, Tournament(value.name, value.date, (), value.seed))
        s.add(AuditRow(at=at, who=who, action="create_tournament", tournament_id=row.id,
                       entity="tournament", key=slug, before=None,
                       after={"name": value.name, "date": value.date, "seed": value.seed,
                              "template": template}, why=""))
        save(s, loaded, value, who=who, action="create_tournament")
    return slug, value


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
            where = f"row {e.line}: " if e.line is not None else ""
            try:
                division = resolve_division(t, e.division, for_import=True)
                t, more, _ = register(t, division, e.name, tags=e.tags,
                                      generation=e.generation)
            except (TournamentError, UseCaseError) as exc:
                raise TournamentError(f"{where}{exc}") from None
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
        raise UseCaseError(f"no division {key!r}: the divisions are "
                           f"{', '.join(d.key for d in t.divisions)}")
    if len(t.divisions) == 1:
        return t.divisions[0].key
    used = list(dict.fromkeys(r.division for r in t.registrations))
    if len(used) == 1 and not for_import:
        return used[0]
    raise UseCaseError("name the division (one of "
                       f"{', '.join(d.key for d in t.divisions)})")


def find_player(t: Tournament, token: str, division: str | None = None) -> int:
    """A registration by number (``12`` or ``#12``) or by name (exact, then ignoring
    case)."""
    s = token.strip()
    if re.fullmatch(r"#?\d+", s):
        number = int(s.lstrip("#"))
        try:
            t.registration(number)
        except TournamentError as exc:
            raise UseCaseError(str(exc)) from None
        return number
    regs = [r for r in t.registrations if division is None or r.division == division]
    for match in (lambda r: r.name == s, lambda r: r.name.casefold() == s.casefold()):
        found = [r for r in regs if match(r)]
        if len(found) == 1:
            return found[0].player
        if len(found) > 1:
            raise UseCaseError(f"{len(found)} players are called {s!r}: use their numbers ("
                               + ", ".join(f"#{r.player}" for r in found) + ")")
    raise UseCaseError(f"no player {s!r}")


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
            raise TournamentError(str(exc)) from None
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
        raise TournamentError(str(exc)) from None


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
            raise TournamentError(f"the {stage.format.title} is finished: "
                                  f"`meldtour tournament advance` starts the next stage")
        wanted = last + 1
        if round_number is not None and round_number != wanted:
            if round_number == last:
                raise TournamentError(f"round {last} of the {stage.format.title} is already "
                                      f"seated")
            raise TournamentError(f"the next round of the {stage.format.title} is {wanted}, "
                                  f"not {round_number}")
        if last and not closed:
            t, more, _ = close_round(t, key)
            notices.extend(more)
            if t.division(key).stages[index].finished:
                raise TournamentError(f"the {stage.format.title} is finished: "
                                      f"`meldtour tournament advance` starts the next stage")
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
    with store.transaction() as s:
        loaded = load(s, slug)
        t = loaded.value
        try:
            key = resolve_division(t, division)
            index = _stage_index(t, key, stage)
            sheet = table_sheet(t, key, round_number, table, index)
        except TournamentError as exc:
            raise UseCaseError(str(exc)) from None
        return sheet, loaded.version((key, index, round_number, table)), key


def _stage_index(t: Tournament, division: str, stage: int | None) -> int:
    """A stage number from 1 (``None``: the current stage) as an index from 0."""
    n = len(t.division(division).stages)
    if stage is None:
        if not n:
            raise TournamentError("no stage has started: `meldtour tournament seat 1`")
        return n - 1
    if not 1 <= stage <= n:
        raise TournamentError(f"there is no stage {stage} (stages 1-{n} have started)")
    return stage - 1


def enter_sheet(
    store: Store, slug: str | None, division: str | None, round_number: int, table: int,
    games: Sequence[GameEntry], *, who: str, why: str = "", version: int | None = None,
    stage: int | None = None, submit: bool = True,
) -> SheetOutcome:
    """Enter a table's games and count the sheet if every check passes.

    A sheet that fails a check is saved as a draft and the problems come back. On a
    counted sheet this is a correction, and ``why`` is required. ``version`` is the
    version the device read (see :func:`get_sheet`): if another device saved since,
    :class:`SheetConflict` is raised, nothing is saved, what was typed is in the
    exception and in the audit log."""
    at = now()
    found: dict[str, Any] = {}

    def step(t: Tournament) -> Progress:
        key = _division(t, division)
        index = _stage_index(t, key, stage)
        found["key"] = (key, index, round_number, table)
        problems: list[Problem] = []
        for g in games:
            try:
                t, _, more = enter_table_game(
                    t, key, round_number, table, g.game, g.points, winner=g.winner,
                    penalties=g.penalties, who=who, at=at, stage=index)
            except ValueError as exc:  # a row of the wrong size, a game out of range
                raise TournamentError(str(exc)) from None
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
                raise TournamentError(f"table {table} has seats 1-{len(sheet.players)}")
            cells[sheet.cell(game, seat, fld)] = value  # type: ignore[arg-type]
        try:
            return correct_table(t, key, round_number, table, cells, who=who, why=why,
                                 at=now(), stage=index)
        except ValueError as exc:
            raise TournamentError(str(exc)) from None

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
                raise UseCaseError(str(exc)) from None
            key: SheetKey = found["key"]
            expected = {key: version} if version is not None else None
            changes = save(s, loaded, progress.tournament, who=who, action=action, why=why,
                           expected=expected)
            sheet = table_sheet(progress.tournament, key[0], round_number, table, key[1])
            return SheetOutcome(sheet, loaded.version(key), progress.problems,
                                progress.notices, tuple(changes))
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
    conflict.args = (str(SheetConflict(conflict.key, conflict.expected, conflict.current)),)


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
        raise UseCaseError(str(exc)) from None


def ranking(store: Store, slug: str | None,
            division: str | None) -> tuple[Tournament, str, tuple[Placing, ...]]:
    t = read(store, slug)
    try:
        key = resolve_division(t, division)
        return t, key, final_ranking(t, key)
    except TournamentError as exc:
        raise UseCaseError(str(exc)) from None


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
            raise UseCaseError(str(exc)) from None
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


def audit_log(store: Store, slug: str | None) -> list[dict[str, Any]]:
    """The tournament's audit lines, oldest first."""
    with store.transaction() as s:
        row = load(s, slug).row
        return [{"id": a.id, "at": a.at, "who": a.who, "action": a.action,
                 "entity": a.entity, "key": a.key, "before": a.before, "after": a.after,
                 "why": a.why}
                for a in s.scalars(select(AuditRow).where(AuditRow.tournament_id == row.id)
                                   .order_by(AuditRow.id))]


def registrations_by_number(store: Store, slug: str | None) -> dict[int, RegistrationRow]:
    with store.transaction() as s:
        return dict(load(s, slug).registrations)


__all__ = [
    "AwardLine", "GameEntry", "NotFound", "Outcome", "PlayerEntry", "SheetConflict",
    "SheetOutcome", "UseCaseError",
]
