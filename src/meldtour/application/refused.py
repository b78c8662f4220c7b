"""What a refused phone entered, for the director: after two phones saved the same
sheet, the second one's save is refused (:class:`~meldtour.store.repository.SheetConflict`)
and what it sent is kept in the audit log. The round page shows it next to the sheet as
counted; the director takes it instead (a correction, audited, with the reason) or sets
it aside (audited too). And the round at a glance: each table's state and how long since
the round was seated or the table last saved (the head table's status screen)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from meldtour.core.refusal import register
from meldtour.store import audit
from meldtour.store import rounds as round_rows
from meldtour.store.db import Store
from meldtour.store.repository import load, now
from meldtour.tournament.board import RoundBoard, round_board

from .acting import Who, name_of, require_tournament
from .divisions import resolve_division
from .errors import UseCaseError
from .rounds import current_round, last_save
from .sheets import GameEntry, SheetOutcome, enter_sheet

register(
    {
        "usecase.no_refused_entry": "table %(table)s has no refused entry to look at "
        "(it was taken or set aside already, or the sheet was saved since)",
    }
)


@dataclass(frozen=True, slots=True)
class RefusedEntry:
    """A device's refused save of a table's sheet, still open: the audit line's id,
    who sent it, when, and the games as sent (points, penalties, winner per game)."""

    table: int
    id: int
    who: str
    at: str
    games: tuple[GameEntry, ...]
    #: The sheet was counted already when it came (not a race between two drafts).
    over_counted: bool


def _games(after: Any) -> tuple[GameEntry, ...] | None:
    """The games a refused save sent (``None``: not a sheet's games, e.g. a
    correction's cells)."""
    sent = after.get("refused") if isinstance(after, dict) else None
    if not isinstance(sent, list) or not sent:
        return None
    out: list[GameEntry] = []
    for g in sent:
        if not (isinstance(g, dict) and isinstance(g.get("points"), list)):
            return None
        pen = g.get("penalties")
        out.append(
            GameEntry(
                int(g.get("game", len(out) + 1)),
                tuple(g["points"]),
                tuple(pen) if isinstance(pen, list) else None,
                g.get("winner") if isinstance(g.get("winner"), int) else None,
            )
        )
    return tuple(out)


def _open(
    store: Store, slug: str | None, division: str | None
) -> tuple[str, int, int, dict[int, RefusedEntry]]:
    with store.reading() as s:
        loaded = load(s, slug)
        t = loaded.value
        key = resolve_division(t, division)
        index, number, _closed = current_round(t, key)
        if number == 0:
            return key, index, number, {}
        rnd = t.division(key).stages[index].rounds[-1]
        prefix = f"{key}/stage {index + 1}/round {number}/table "
        rows = round_rows.refusals(s, loaded.row.id, prefix)
    out = {}
    for x in rnd.tables:
        row = rows.get(f"{prefix}{x.number}")
        if row is None or row["action"] == round_rows.DISMISSED or row["at"] <= last_save(x):
            continue
        games = _games(row["after"])
        if games is None:
            continue
        out[x.number] = RefusedEntry(
            x.number,
            row["id"],
            row["who"],
            row["at"],
            games,
            bool(isinstance(row["after"], dict) and row["after"].get("counted")),
        )
    return key, index, number, out


def refused_entries(
    store: Store, slug: str | None, division: str | None
) -> dict[int, RefusedEntry]:
    """The current round's open refused entries by table: refused after the sheet was
    last saved, neither taken nor set aside."""
    return _open(store, slug, division)[3]


def _entry(
    store: Store, slug: str | None, division: str | None, table: int, entry: int
) -> tuple[str, int, int, RefusedEntry]:
    key, index, number, found = _open(store, slug, division)
    got = found.get(table)
    if got is None or got.id != entry:
        raise UseCaseError("usecase.no_refused_entry", table=table)
    return key, index, number, got


def take_refused(
    store: Store,
    slug: str | None,
    division: str | None,
    table: int,
    entry: int,
    *,
    who: Who,
    why: str,
) -> SheetOutcome:
    """Take the refused entry ``entry`` (its audit id) as the table's sheet: saved as the
    director's entry — a correction with ``why`` on a counted sheet — and checked as any
    sheet (a failing check keeps it a draft, the counted sheet still counts)."""
    _key, index, number, got = _entry(store, slug, division, table, entry)
    return enter_sheet(
        store,
        slug,
        division,
        number,
        table,
        got.games,
        who=who,
        why=why,
        stage=index + 1,
    )


def dismiss_refused(
    store: Store,
    slug: str | None,
    division: str | None,
    table: int,
    entry: int,
    *,
    who: Who,
    why: str = "",
) -> None:
    """Set the refused entry ``entry`` aside: the sheet stands as it is (audited)."""
    key, index, number, got = _entry(store, slug, division, table, entry)
    with store.transaction() as s:
        loaded = load(s, slug)
        require_tournament(s, who, loaded.row.slug)
        audit.record(
            s,
            at=now(),
            who=name_of(who),
            action=round_rows.DISMISSED,
            tournament_id=loaded.row.id,
            entity="sheet",
            key=f"{key}/stage {index + 1}/round {number}/table {table}",
            before={"refused": [g.data() for g in got.games], "from": got.who, "at": got.at},
            after=None,
            why=why,
        )


@dataclass(frozen=True, slots=True)
class TableStatus:
    """One tile of the round's status screen: the table's board line, and when its
    sheet was last saved (``None``: not yet)."""

    number: int
    state: str
    players: tuple[int, ...]
    games: int
    entered: int
    saved_at: str | None


@dataclass(frozen=True, slots=True)
class RoundStatus:
    """The current round of a division at a glance: its stage and number, when it was
    seated (``None``: unknown), each table, and the time now (UTC, ISO 8601)."""

    division: str
    stage: int
    number: int
    closed: bool
    seated_at: str | None
    tables: tuple[TableStatus, ...]
    board: RoundBoard
    at: str


def round_status(store: Store, slug: str | None, division: str | None) -> RoundStatus | None:
    """The division's current round for the head table's screen; ``None`` before its
    first round."""
    with store.reading() as s:
        loaded = load(s, slug)
        t = loaded.value
        key = resolve_division(t, division)
        index, number, closed = current_round(t, key)
        if number == 0:
            return None
        rnd = t.division(key).stages[index].rounds[-1]
        prefix = f"{key}/stage {index + 1}/round {number}"
        seated = round_rows.seated_at(s, loaded.row.id, prefix)
        rows = round_rows.refusals(s, loaded.row.id, prefix + "/table ")
    conflicts = set()
    for x in rnd.tables:
        row = rows.get(f"{prefix}/table {x.number}")
        if row is not None and row["action"] != round_rows.DISMISSED and row["at"] > last_save(x):
            conflicts.add(x.number)
    board = round_board(rnd, conflicts)
    tables = tuple(
        TableStatus(b.number, b.state, b.players, b.games, b.entered, last_save(x) or None)
        for b, x in zip(board.tables, rnd.tables, strict=True)
    )
    return RoundStatus(key, index, number, closed, seated, tables, board, now())


__all__ = [
    "RefusedEntry",
    "RoundStatus",
    "TableStatus",
    "dismiss_refused",
    "refused_entries",
    "round_status",
    "take_refused",
]
