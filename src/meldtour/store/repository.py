"""The tournament repository: load a tournament's rows as the engine's value, and
write back what an action changed, with an audit line for every change.

The engine's values are immutable and an action replaces only the parts it changes,
so :func:`save` finds the changes by identity first (an untouched sheet is the same
object) and by comparing the encoded data after that. Each changed part is one row
(a sheet is its row, its games and its corrections) and one audit line with the
value before and after.

Concurrency: a unit of work locks the tournament row, ``share`` for a score-sheet
save (several tables are entered at once) and ``update`` for everything that changes
the tournament's structure (seating, closing a round, a new stage), which therefore
waits for the sheet saves under way and they for it. A sheet's row carries a
``version``: a save over a version other than the one the device read is refused
with :class:`SheetConflict`.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal

from sqlalchemy import select
from sqlalchemy.orm import Session
from sqlalchemy.orm.exc import StaleDataError

from meldtour.tournament import Division, Registration, Round, ScoreSheet, Stage, Table, Tournament

from . import codec
from .db import StoreError
from .models import (
    AuditRow,
    CorrectionRow,
    DivisionRow,
    GameRow,
    Player,
    RegistrationRow,
    RoundRow,
    ScoreSheetRow,
    StageRow,
    TournamentRow,
)

Lock = Literal["none", "share", "update"]
SheetKey = tuple[str, int, int, int]  # division, stage (from 0), round, table


def now() -> str:
    """The time now, UTC, ISO 8601 to the microsecond."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


class NotFound(StoreError):
    """No such tournament (or part of one)."""


class SheetConflict(StoreError):
    """Another device saved the sheet since this one read it. ``yours`` is what this
    device sent (nothing typed is lost), ``theirs`` the sheet as saved now."""

    def __init__(
        self,
        key: SheetKey,
        expected: int,
        current: int | None,
        yours: Any = None,
        theirs: ScoreSheet | None = None,
    ) -> None:
        division, stage, rnd, table = key
        super().__init__(
            "sheet.conflict",
            round=rnd,
            table=table,
            division=division,
            stage=stage + 1,
            expected=expected,
            current=current if current is not None else "unknown",
        )
        self.key = key
        self.expected = expected
        self.current = current
        self.yours = yours
        self.theirs = theirs


def sheet_key_text(key: SheetKey) -> str:
    division, stage, rnd, table = key
    return f"{division}/stage {stage + 1}/round {rnd}/table {table}"


@dataclass
class Loaded:
    """A tournament as read in this unit of work: the value and its rows."""

    row: TournamentRow
    value: Tournament
    divisions: dict[str, DivisionRow] = field(default_factory=dict)
    registrations: dict[int, RegistrationRow] = field(default_factory=dict)
    stages: dict[tuple[str, int], StageRow] = field(default_factory=dict)
    rounds: dict[tuple[str, int, int], RoundRow] = field(default_factory=dict)
    sheets: dict[SheetKey, ScoreSheetRow] = field(default_factory=dict)
    games: dict[int, dict[int, GameRow]] = field(default_factory=dict)
    corrections: dict[int, int] = field(default_factory=dict)

    def version(self, key: SheetKey) -> int:
        return self.sheets[key].version


def tournament_slugs(session: Session) -> list[str]:
    return list(session.scalars(select(TournamentRow.slug).order_by(TournamentRow.id)))


def find_tournament(session: Session, slug: str | None) -> TournamentRow:
    """The tournament named ``slug``; without a slug, the only one there is."""
    if slug is None:
        rows = list(session.scalars(select(TournamentRow).order_by(TournamentRow.id).limit(2)))
        if not rows:
            raise NotFound("store.no_tournament_yet")
        if len(rows) > 1:
            raise NotFound("store.several_tournaments", slugs=", ".join(tournament_slugs(session)))
        return rows[0]
    # A Korean or Japanese slug typed on another device may come decomposed (NFD).
    slug = unicodedata.normalize("NFC", slug)
    row = session.scalars(select(TournamentRow).where(TournamentRow.slug == slug)).first()
    if row is None:
        known = tournament_slugs(session)
        if known:
            raise NotFound("store.no_tournament_known", slug=repr(slug), slugs=", ".join(known))
        raise NotFound("store.no_tournament", slug=repr(slug))
    return row


def load(session: Session, slug: str | None, lock: Lock = "none") -> Loaded:
    """Read a tournament (locking its row as asked) and build the engine's value."""
    row = find_tournament(session, slug)
    if lock != "none" and session.get_bind().dialect.name != "sqlite":
        q = select(TournamentRow).where(TournamentRow.id == row.id)
        q = q.with_for_update(read=lock == "share")
        session.execute(q)
        session.refresh(row)
    out = Loaded(row, Tournament(row.name, row.date, ()))
    tid = row.id
    drows = list(
        session.scalars(
            select(DivisionRow)
            .where(DivisionRow.tournament_id == tid)
            .order_by(DivisionRow.position)
        )
    )
    key_of = {d.id: d.key for d in drows}
    out.divisions = {d.key: d for d in drows}
    regs = list(
        session.scalars(
            select(RegistrationRow)
            .where(RegistrationRow.tournament_id == tid)
            .order_by(RegistrationRow.number)
        )
    )
    out.registrations = {r.number: r for r in regs}
    div_ids = list(key_of)
    srows = list(
        session.scalars(
            select(StageRow)
            .where(StageRow.division_id.in_(div_ids))
            .order_by(StageRow.division_id, StageRow.position)
        )
    )
    stage_of = {s.id: (key_of[s.division_id], s.position) for s in srows}
    out.stages = {stage_of[s.id]: s for s in srows}
    rrows = list(
        session.scalars(
            select(RoundRow)
            .join(StageRow)
            .where(StageRow.division_id.in_(div_ids))
            .order_by(RoundRow.stage_id, RoundRow.number)
        )
    )
    round_of = {r.id: (*stage_of[r.stage_id], r.number) for r in rrows}
    out.rounds = {round_of[r.id]: r for r in rrows}
    sheet_rows = list(
        session.scalars(
            select(ScoreSheetRow)
            .join(RoundRow)
            .join(StageRow)
            .where(StageRow.division_id.in_(div_ids))
            .order_by(ScoreSheetRow.round_id, ScoreSheetRow.table_number)
        )
    )
    sheet_ids = [s.id for s in sheet_rows]
    games: dict[int, dict[int, GameRow]] = {i: {} for i in sheet_ids}
    corrections: dict[int, list[CorrectionRow]] = {i: [] for i in sheet_ids}
    if sheet_ids:
        for g in session.scalars(
            select(GameRow)
            .join(ScoreSheetRow)
            .join(RoundRow)
            .join(StageRow)
            .where(StageRow.division_id.in_(div_ids))
            .order_by(GameRow.sheet_id, GameRow.number)
        ):
            games[g.sheet_id][g.number] = g
        for c in session.scalars(
            select(CorrectionRow)
            .join(ScoreSheetRow)
            .join(RoundRow)
            .join(StageRow)
            .where(StageRow.division_id.in_(div_ids))
            .order_by(CorrectionRow.sheet_id, CorrectionRow.position)
        ):
            corrections[c.sheet_id].append(c)
    out.games = games
    out.corrections = {i: len(c) for i, c in corrections.items()}

    tables: dict[tuple[str, int, int], list[Table]] = {k: [] for k in out.rounds}
    for s in sheet_rows:
        rkey = round_of[s.round_id]
        sheet = codec.sheet_value(_sheet_data(s, rkey[2], games[s.id], corrections[s.id]))
        out.sheets[(*rkey, s.table_number)] = s
        tables[rkey].append(Table(s.table_number, sheet))
    rounds: dict[tuple[str, int], list[Round]] = {k: [] for k in out.stages}
    for rkey, r in out.rounds.items():
        rounds[rkey[:2]].append(codec.round_value(_round_data(r), tuple(tables[rkey])))
    stages: dict[str, list[Stage]] = {k: [] for k in out.divisions}
    for skey, st in out.stages.items():
        stages[skey[0]].append(codec.stage_value(_stage_data(st), tuple(rounds[skey])))
    divisions = tuple(codec.division_value(_division_data(d), tuple(stages[d.key])) for d in drows)
    registrations = tuple(codec.registration_value(_registration_data(r, key_of)) for r in regs)
    out.value = Tournament(row.name, row.date, divisions, row.seed, registrations)
    return out


# ---------------------------------------------------------------------------
# rows -> data


def _division_data(d: DivisionRow) -> codec.Data:
    return {
        "key": d.key,
        "name": d.name,
        "cap": d.cap,
        "eligibility": d.eligibility,
        "rules": d.rules,
        "formats": d.formats,
        "ranking": d.ranking,
        "keep_apart": d.keep_apart,
        "groups_hard": d.groups_hard,
        "late_entry": d.late_entry,
        "prizes": d.prizes,
        "started": d.started,
    }


def _registration_data(r: RegistrationRow, key_of: Mapping[int, str]) -> codec.Data:
    return {
        "number": r.number,
        "name": r.name,
        "division": key_of[r.division_id],
        "tags": r.tags,
        "generation": r.generation,
        "status": r.status,
        "late": r.late,
    }


def _stage_data(s: StageRow) -> codec.Data:
    return {
        "format": s.format,
        "entrants": s.entrants,
        "plan": s.plan,
        "dropped": s.dropped,
        "lots": s.lots,
        "finished": s.finished,
    }


def _round_data(r: RoundRow) -> codec.Data:
    return {"number": r.number, "closed": r.closed, "advanced": r.advanced}


def _sheet_data(
    s: ScoreSheetRow, rnd: int, games: Mapping[int, GameRow], corrections: Iterable[CorrectionRow]
) -> codec.Data:
    lines = [games[n] for n in sorted(games)]
    return {
        "round": rnd,
        "table": s.table_number,
        "players": s.players,
        "games": [
            {"points": g.points, "penalties": g.penalties, "winner": g.winner} for g in lines
        ],
        "counted": [
            {
                "points": g.counted_points,
                "penalties": g.counted_penalties,
                "winner": g.counted_winner,
            }
            for g in lines
        ]
        if s.counted
        else None,
        "status": s.status,
        "entered_by": s.entered_by,
        "entered_at": s.entered_at,
        "submitted_by": s.submitted_by,
        "submitted_at": s.submitted_at,
        "corrections": [
            {
                "game": c.game,
                "seat": c.seat,
                "field": c.field,
                "player": c.player,
                "old": c.old,
                "new": c.new,
                "who": c.who,
                "why": c.why,
                "at": c.at,
            }
            for c in corrections
        ],
    }


# ---------------------------------------------------------------------------
# value -> rows


@dataclass(frozen=True, slots=True)
class Change:
    """One changed part, as written to the audit log."""

    entity: str
    key: str
    before: Any
    after: Any


@dataclass
class Writer:
    """Writes one unit of work's changes and their audit lines."""

    session: Session
    loaded: Loaded
    who: str
    action: str
    why: str = ""
    at: str = field(default_factory=now)
    changes: list[Change] = field(default_factory=list)
    bumped: list[tuple[SheetKey, int]] = field(default_factory=list)
    #: The person each new registration is (by its number), when one who played before.
    people: Mapping[int, int] = field(default_factory=dict)

    def audit(self, entity: str, key: str, before: Any, after: Any) -> None:
        self.changes.append(Change(entity, key, before, after))
        self.session.add(
            AuditRow(
                at=self.at,
                who=self.who,
                action=self.action,
                tournament_id=self.loaded.row.id,
                entity=entity,
                key=key,
                before=before,
                after=after,
                why=self.why,
            )
        )


def save(
    session: Session,
    loaded: Loaded,
    new: Tournament,
    *,
    who: str,
    action: str,
    why: str = "",
    expected: Mapping[SheetKey, int] | None = None,
    people: Mapping[int, int] | None = None,
) -> list[Change]:
    """Write what changed between ``loaded.value`` and ``new``, with audit lines.

    ``people`` gives, for new registrations (by number), the person who played before
    that each one is; every other new registration is a new person.

    ``expected`` gives, for sheets a device read earlier, the version it read: a
    sheet whose version moved on since is refused with :class:`SheetConflict`, as is
    a sheet another transaction saved between this one's read and write."""
    w = Writer(session, loaded, who, action, why, people=people or {})
    old = loaded.value
    for key, version in (expected or {}).items():
        row = loaded.sheets.get(key)
        if row is None:
            raise NotFound("store.no_sheet", key=sheet_key_text(key))
        if row.version != version:
            raise SheetConflict(key, version, row.version)
    if (old.name, old.date, old.seed) != (new.name, new.date, new.seed):
        before = {"name": old.name, "date": old.date, "seed": old.seed}
        after = {"name": new.name, "date": new.date, "seed": new.seed}
        loaded.row.name, loaded.row.date, loaded.row.seed = new.name, new.date, new.seed
        w.audit("tournament", loaded.row.slug, before, after)
    old_divs = {d.key: d for d in old.divisions}
    for position, div in enumerate(new.divisions):
        _save_division(w, position, old_divs.get(div.key), div)
    old_regs = {r.player: r for r in old.registrations}
    for reg in new.registrations:
        _save_registration(w, old_regs.get(reg.player), reg)
    try:
        session.flush()
    except StaleDataError:
        # another transaction saved one of these sheets between our read and our write
        key, version = w.bumped[0] if w.bumped else (next(iter(loaded.sheets)), -1)
        raise SheetConflict(key, version, None) from None
    return w.changes


def touch(loaded: Loaded) -> None:
    loaded.row.updated_at = now()


def _save_division(w: Writer, position: int, old: Division | None, new: Division) -> None:
    if old is new:
        return
    loaded = w.loaded
    data = codec.division_data(new)
    row = loaded.divisions.get(new.key)
    before = codec.division_data(old) if old is not None else None
    if row is None:
        row = DivisionRow(
            tournament_id=loaded.row.id,
            position=position,
            key=new.key,
            **{k: v for k, v in data.items() if k != "key"},
        )
        w.session.add(row)
        w.session.flush()
        loaded.divisions[new.key] = row
        w.audit("division", new.key, None, data)
    elif before != data:
        for k, v in data.items():
            setattr(row, k, v)
        w.audit("division", new.key, before, data)
    old_stages = old.stages if old is not None else ()
    for i, stage in enumerate(new.stages):
        _save_stage(w, new.key, i, old_stages[i] if i < len(old_stages) else None, stage)


def _save_stage(w: Writer, div: str, index: int, old: Stage | None, new: Stage) -> None:
    if old is new:
        return
    loaded = w.loaded
    data = codec.stage_data(new)
    before = codec.stage_data(old) if old is not None else None
    row = loaded.stages.get((div, index))
    name = f"{div}/stage {index + 1}"
    if row is None:
        row = StageRow(division_id=loaded.divisions[div].id, position=index, **data)
        w.session.add(row)
        w.session.flush()
        loaded.stages[(div, index)] = row
        w.audit("stage", name, None, data)
    elif before != data:
        for k, v in data.items():
            setattr(row, k, v)
        w.audit("stage", name, before, data)
    old_rounds = old.rounds if old is not None else ()
    for i, rnd in enumerate(new.rounds):
        _save_round(w, div, index, old_rounds[i] if i < len(old_rounds) else None, rnd)


def _save_round(w: Writer, div: str, stage: int, old: Round | None, new: Round) -> None:
    if old is new:
        return
    loaded = w.loaded
    data = codec.round_data(new)
    before = codec.round_data(old) if old is not None else None
    key = (div, stage, new.number)
    row = loaded.rounds.get(key)
    name = f"{div}/stage {stage + 1}/round {new.number}"
    if row is None:
        row = RoundRow(stage_id=loaded.stages[(div, stage)].id, **data)
        w.session.add(row)
        w.session.flush()
        loaded.rounds[key] = row
        w.audit("round", name, None, data)
    elif before != data:
        for k, v in data.items():
            setattr(row, k, v)
        w.audit("round", name, before, data)
    old_tables = {t.number: t for t in old.tables} if old is not None else {}
    for table in new.tables:
        was = old_tables.get(table.number)
        if was is not None and was.sheet is table.sheet:
            continue
        _save_sheet(w, (*key, table.number), was.sheet if was else None, table.sheet)


def _save_sheet(w: Writer, key: SheetKey, old: ScoreSheet | None, new: ScoreSheet) -> None:
    loaded = w.loaded
    data = codec.sheet_data(new)
    before = codec.sheet_data(old) if old is not None else None
    if before == data:
        return
    row = loaded.sheets.get(key)
    if row is None:
        row = ScoreSheetRow(
            round_id=loaded.rounds[key[:3]].id,
            table_number=new.table,
            players=data["players"],
            version=1,
        )
        _sheet_fields(row, data)
        w.session.add(row)
        w.session.flush()
        loaded.sheets[key] = row
        loaded.games[row.id] = {}
        loaded.corrections[row.id] = 0
    else:
        w.bumped.append((key, row.version))
        row.version = row.version + 1  # checked against the version read (optimistic)
        row.players = data["players"]
        _sheet_fields(row, data)
    games = loaded.games[row.id]
    counted = data["counted"]
    for n, line in enumerate(data["games"], 1):
        c = counted[n - 1] if counted is not None else None
        values = {
            "points": line["points"],
            "penalties": line["penalties"],
            "winner": line["winner"],
            "counted_points": c["points"] if c else None,
            "counted_penalties": c["penalties"] if c else None,
            "counted_winner": c["winner"] if c else None,
        }
        g = games.get(n)
        if g is None:
            g = GameRow(sheet_id=row.id, number=n, **values)
            w.session.add(g)
            games[n] = g
        else:
            for k, v in values.items():
                if getattr(g, k) != v:
                    setattr(g, k, v)
    have = loaded.corrections[row.id]
    for pos, c in enumerate(data["corrections"][have:], have + 1):
        w.session.add(CorrectionRow(sheet_id=row.id, position=pos, **c))
    loaded.corrections[row.id] = len(data["corrections"])
    w.audit("sheet", sheet_key_text(key), before, data)


def _sheet_fields(row: ScoreSheetRow, data: codec.Data) -> None:
    row.status = data["status"]
    row.counted = data["counted"] is not None
    row.entered_by = data["entered_by"]
    row.entered_at = data["entered_at"]
    row.submitted_by = data["submitted_by"]
    row.submitted_at = data["submitted_at"]


def _save_registration(w: Writer, old: Registration | None, new: Registration) -> None:
    if old is new:
        return
    data = codec.registration_data(new)
    before = codec.registration_data(old) if old is not None else None
    if before == data:
        return
    loaded = w.loaded
    row = loaded.registrations.get(new.player)
    division_id = loaded.divisions[new.division].id
    if row is None:
        # Each new registration is a new person: a name alone never makes two
        # registrations one person (two 김민지 are two people), unless the application
        # says it is a person who played before (``people``: the director chose so, the
        # evidence or a claim code says so: docs/circuit.md, "People"). No row is made
        # and thrown away, so person numbers are the same on every backend.
        pid = w.people.get(new.player)
        if pid is None:
            player = Player(name=new.name, created_at=w.at)
            w.session.add(player)
            w.session.flush()
            pid = player.id
        row = RegistrationRow(
            tournament_id=loaded.row.id,
            division_id=division_id,
            player_id=pid,
            number=new.player,
            name=new.name,
            tags=data["tags"],
            generation=new.generation,
            status=new.status,
            late=new.late,
        )
        w.session.add(row)
        loaded.registrations[new.player] = row
    else:
        row.division_id = division_id
        row.name, row.tags, row.generation = new.name, data["tags"], new.generation
        row.status, row.late = new.status, new.late
    w.audit("registration", f"#{new.player} {new.name}", before, data)
