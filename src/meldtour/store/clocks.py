"""The table clocks' records (migration 0012): one row per game of a table's sheet,
holding the turn order and the taps the table's phone sent, with what the server
made of them (the phase, the time-outs), when it was last heard from and by which
device. Plain values in and out; every function takes a
:class:`~meldtour.store.db.Store` and runs one transaction.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import JSON, ForeignKey, Integer, String, UniqueConstraint, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from .db import Store
from .models import Base, TournamentRow

Json = JSON(none_as_null=True)


class TableClockRow(Base):
    """A game's clock at one table of a round."""

    __tablename__ = "table_clock"
    __table_args__ = (
        UniqueConstraint("tournament_id", "division", "stage", "round", "table_number", "game"),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournament.id"), index=True)
    division: Mapped[str] = mapped_column(String(100))
    stage: Mapped[int] = mapped_column(Integer)
    round: Mapped[int] = mapped_column(Integer)
    table_number: Mapped[int] = mapped_column(Integer)
    game: Mapped[int] = mapped_column(Integer)
    #: The sheet's players when the record came (a reseated table's old clock is stale).
    players: Mapped[list[int]] = mapped_column(Json)
    device: Mapped[str] = mapped_column(String(40))
    turn_order: Mapped[list[int]] = mapped_column(Json)
    taps: Mapped[list[list[Any]]] = mapped_column(Json)
    phase: Mapped[str] = mapped_column(String(20))
    timeouts: Mapped[list[int]] = mapped_column(Json)
    #: The clock's own time (ms from its origin) when the phone sent the record.
    clock_now: Mapped[int] = mapped_column(Integer)
    received_at: Mapped[str] = mapped_column(String(40))
    #: Penalty points per seat the scorer confirmed onto the sheet, if any.
    confirmed: Mapped[list[int] | None] = mapped_column(Json, nullable=True)


@dataclass(frozen=True, slots=True)
class ClockRecord:
    division: str
    stage: int
    round: int
    table: int
    game: int
    players: tuple[int, ...]
    device: str
    order: tuple[int, ...]
    taps: tuple[tuple[str, int], ...]
    phase: str
    timeouts: tuple[int, ...]
    clock_now: int
    received_at: str
    confirmed: tuple[int, ...] | None = None


def _record(row: TableClockRow) -> ClockRecord:
    return ClockRecord(
        row.division,
        row.stage,
        row.round,
        row.table_number,
        row.game,
        tuple(row.players),
        row.device,
        tuple(row.turn_order),
        tuple((str(k), int(t)) for k, t in row.taps),
        row.phase,
        tuple(row.timeouts),
        row.clock_now,
        row.received_at,
        None if row.confirmed is None else tuple(row.confirmed),
    )


def _tournament_id(s: Any, slug: str) -> int | None:
    found: int | None = s.scalar(select(TournamentRow.id).where(TournamentRow.slug == slug))
    return found


def _row(
    s: Any, tid: int, division: str, stage: int, rnd: int, table: int, game: int
) -> TableClockRow | None:
    found: TableClockRow | None = s.scalars(
        select(TableClockRow).where(
            TableClockRow.tournament_id == tid,
            TableClockRow.division == division,
            TableClockRow.stage == stage,
            TableClockRow.round == rnd,
            TableClockRow.table_number == table,
            TableClockRow.game == game,
        )
    ).first()
    return found


def get(
    store: Store, slug: str, division: str, stage: int, rnd: int, table: int, game: int
) -> ClockRecord | None:
    with store.reading() as s:
        tid = _tournament_id(s, slug)
        row = None if tid is None else _row(s, tid, division, stage, rnd, table, game)
        return None if row is None else _record(row)


def put(store: Store, slug: str, record: ClockRecord, keep: Any = None) -> tuple[ClockRecord, bool]:
    """Write the record unless ``keep(old)`` says the stored one stands; the record
    stored afterwards and whether it was written. The row is read and written under
    the transaction (a unique key: of two phones inserting at once, the second reads
    the first one's row and is judged against it)."""
    try:
        return _put(store, slug, record, keep)
    except IntegrityError:
        return _put(store, slug, record, keep)


def _put(store: Store, slug: str, record: ClockRecord, keep: Any) -> tuple[ClockRecord, bool]:
    with store.transaction() as s:
        tid = _tournament_id(s, slug)
        if tid is None:
            raise LookupError(slug)
        row = _row(s, tid, record.division, record.stage, record.round, record.table, record.game)
        if row is not None and keep is not None and keep(_record(row)):
            return _record(row), False
        if row is None:
            row = TableClockRow(
                tournament_id=tid,
                division=record.division,
                stage=record.stage,
                round=record.round,
                table_number=record.table,
                game=record.game,
            )
            s.add(row)
        row.players = list(record.players)
        row.device = record.device
        row.turn_order = list(record.order)
        row.taps = [[k, t] for k, t in record.taps]
        row.phase = record.phase
        row.timeouts = list(record.timeouts)
        row.clock_now = record.clock_now
        row.received_at = record.received_at
        if record.confirmed is not None:
            row.confirmed = list(record.confirmed)
        s.flush()
        return _record(row), True


def confirm(
    store: Store,
    slug: str,
    division: str,
    stage: int,
    rnd: int,
    table: int,
    game: int,
    penalties: tuple[int, ...],
) -> None:
    with store.transaction() as s:
        tid = _tournament_id(s, slug)
        row = None if tid is None else _row(s, tid, division, stage, rnd, table, game)
        if row is not None:
            row.confirmed = list(penalties)


def of_round(store: Store, slug: str, division: str, stage: int, rnd: int) -> list[ClockRecord]:
    """Every clock record of a round, by table and game."""
    with store.reading() as s:
        tid = _tournament_id(s, slug)
        if tid is None:
            return []
        rows = s.scalars(
            select(TableClockRow)
            .where(
                TableClockRow.tournament_id == tid,
                TableClockRow.division == division,
                TableClockRow.stage == stage,
                TableClockRow.round == rnd,
            )
            .order_by(TableClockRow.table_number, TableClockRow.game)
        )
        return [_record(r) for r in rows]


__all__ = ["ClockRecord", "TableClockRow", "confirm", "get", "of_round", "put"]
