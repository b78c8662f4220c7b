"""Online play in the database beyond the games' log (migration 0005):

- ``live_table``: a table of the lobby waiting for players (its set-up and the seats
  taken so far, as the token hashes), so that a restart — or another server process
  taking it over — keeps it; it is forgotten when its game starts
  (:func:`meldtour.store.games.start_game`);
- ``online_game``: a tournament table's game played online: which tournament,
  division, stage, round, table and game of the table's sheet it is, the seats
  (people, as their seat link's hash, or computer players standing in) and whether its
  result is on the sheet.

Plain values in and out; every function takes a :class:`~meldtour.store.db.Store`
and runs one transaction.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import JSON, Boolean, Float, ForeignKey, Integer, String, UniqueConstraint, select
from sqlalchemy.orm import Mapped, mapped_column

from meldtour.core.refusal import TEMPLATES

from .db import Store, StoreError
from .models import Base, TournamentRow

Json = JSON(none_as_null=True)


class LiveTableRow(Base):
    """A lobby table waiting for players: ``data`` is ``{"config", "names", "keys"}``
    (``meldtour.live.LiveGame.waiting_json``: seat tokens only as their hashes)."""

    __tablename__ = "live_table"
    id: Mapped[str] = mapped_column(String(40), primary_key=True, autoincrement=False)
    data: Mapped[Any] = mapped_column(Json)
    created_at: Mapped[float] = mapped_column(Float)


class OnlineGameRow(Base):
    """One game of a tournament table played online (``game_id`` is its live game)."""

    __tablename__ = "online_game"
    __table_args__ = (
        UniqueConstraint("tournament_id", "division", "stage", "round", "table_number", "game"),
    )
    game_id: Mapped[str] = mapped_column(String(40), primary_key=True, autoincrement=False)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournament.id"), index=True)
    division: Mapped[str] = mapped_column(String(100))
    #: The stage's index (from 0), the round's and the table's numbers, and the game's
    #: number on the table's sheet (from 1) of ``games``.
    stage: Mapped[int] = mapped_column(Integer)
    round: Mapped[int] = mapped_column(Integer)
    table_number: Mapped[int] = mapped_column(Integer)
    game: Mapped[int] = mapped_column(Integer)
    games: Mapped[int] = mapped_column(Integer)
    #: ``[{"player": registration number, "name", "computer": level or null, "key": the
    #: seat link token's SHA-256 in hex, null for a computer player}]`` in seat order: the
    #: token itself is never stored (``meldtour.live.online.seat_tokens``; migration 0007).
    seats: Mapped[Any] = mapped_column(Json)
    #: The game's result is on the sheet.
    filled: Mapped[bool] = mapped_column(Boolean, default=False, index=True)
    created_at: Mapped[float] = mapped_column(Float)


class OnlineError(StoreError):
    """An online table that cannot be: a code and its arguments. A bare sentence
    (``meldtour.live.online.OnlineRefused``'s, until it raises codes of its own) is
    kept as the argument of ``online.refused``."""

    def __init__(self, code: str, /, **params: Any) -> None:
        if code not in TEMPLATES and not params:
            code, params = "online.refused", {"reason": code}
        super().__init__(code, **params)


# ---------------------------------------------------------------- the lobby's tables


def save_live_table(s: Any, game_id: str, data: Mapping[str, Any]) -> None:
    row = s.get(LiveTableRow, game_id)
    if row is None:
        s.add(LiveTableRow(id=game_id, data=copy.deepcopy(dict(data)), created_at=time.time()))
    else:
        row.data = copy.deepcopy(dict(data))


def load_live_table(s: Any, game_id: str) -> dict[str, Any] | None:
    row = s.get(LiveTableRow, game_id)
    return None if row is None else dict(row.data)


def drop_live_table(s: Any, game_id: str) -> None:
    row = s.get(LiveTableRow, game_id)
    if row is not None:
        s.delete(row)


def live_table_ids(s: Any) -> list[str]:
    return list(
        s.scalars(select(LiveTableRow.id).order_by(LiveTableRow.created_at, LiveTableRow.id)).all()
    )


# ---------------------------------------------------------------- tournament tables


@dataclass(frozen=True, slots=True)
class OnlineGame:
    game_id: str
    tournament_id: int
    division: str
    stage: int
    round: int
    table: int
    game: int
    games: int
    seats: list[dict[str, Any]]
    filled: bool


def _value(row: OnlineGameRow) -> OnlineGame:
    return OnlineGame(
        row.game_id,
        row.tournament_id,
        row.division,
        row.stage,
        row.round,
        row.table_number,
        row.game,
        row.games,
        list(row.seats),
        row.filled,
    )


def add_games(store: Store, games: Sequence[OnlineGame]) -> None:
    """Record games about to be played online; a table's game recorded twice is refused."""
    with store.transaction() as s:
        for g in games:
            found = s.scalar(
                select(OnlineGameRow.game_id).where(
                    OnlineGameRow.tournament_id == g.tournament_id,
                    OnlineGameRow.division == g.division,
                    OnlineGameRow.stage == g.stage,
                    OnlineGameRow.round == g.round,
                    OnlineGameRow.table_number == g.table,
                    OnlineGameRow.game == g.game,
                )
            )
            if found is not None:
                raise OnlineError(
                    "online.played", game=g.game, table=g.table, round=g.round, id=found
                )
            s.add(
                OnlineGameRow(
                    game_id=g.game_id,
                    tournament_id=g.tournament_id,
                    division=g.division,
                    stage=g.stage,
                    round=g.round,
                    table_number=g.table,
                    game=g.game,
                    games=g.games,
                    seats=copy.deepcopy(g.seats),
                    filled=False,
                    created_at=time.time(),
                )
            )


def get_game(store: Store, game_id: str) -> OnlineGame | None:
    with store.transaction() as s:
        row = s.get(OnlineGameRow, game_id)
        return None if row is None else _value(row)


def mark_filled(store: Store, game_id: str) -> None:
    with store.transaction() as s:
        row = s.get(OnlineGameRow, game_id, with_for_update=True)
        if row is None:
            raise OnlineError("online.no_game", game=game_id)
        row.filled = True


def round_games(
    store: Store, tournament_id: int, division: str, stage: int, round_number: int
) -> list[OnlineGame]:
    """A round's online games, by table and game."""
    with store.transaction() as s:
        rows = s.scalars(
            select(OnlineGameRow)
            .where(
                OnlineGameRow.tournament_id == tournament_id,
                OnlineGameRow.division == division,
                OnlineGameRow.stage == stage,
                OnlineGameRow.round == round_number,
            )
            .order_by(OnlineGameRow.table_number, OnlineGameRow.game)
        ).all()
        return [_value(r) for r in rows]


def table_games(store: Store, game_id: str) -> list[OnlineGame]:
    """Every online game of the table that ``game_id`` is a game of, by game."""
    with store.transaction() as s:
        row = s.get(OnlineGameRow, game_id)
        if row is None:
            return []
        rows = s.scalars(
            select(OnlineGameRow)
            .where(
                OnlineGameRow.tournament_id == row.tournament_id,
                OnlineGameRow.division == row.division,
                OnlineGameRow.stage == row.stage,
                OnlineGameRow.round == row.round,
                OnlineGameRow.table_number == row.table_number,
            )
            .order_by(OnlineGameRow.game)
        ).all()
        return [_value(r) for r in rows]


def all_games(store: Store) -> list[OnlineGame]:
    with store.transaction() as s:
        return [
            _value(r)
            for r in s.scalars(select(OnlineGameRow).order_by(OnlineGameRow.created_at)).all()
        ]


def tournament_of(store: Store, slug: str | None) -> tuple[int, str, str]:
    """A tournament's id, slug and template (``club-night``, ``busan-2015``, ...)."""
    with store.transaction() as s:
        query = select(TournamentRow)
        if slug is not None:
            query = query.where(TournamentRow.slug == slug)
        rows = s.scalars(query.limit(2)).all()
        if len(rows) != 1:
            if rows == [] or slug:
                raise OnlineError("store.no_tournament", slug=repr(slug))
            raise OnlineError("store.several_tournaments_unnamed")
        return rows[0].id, rows[0].slug, rows[0].template


def slug_of(store: Store, tournament_id: int) -> str:
    with store.transaction() as s:
        row = s.get(TournamentRow, tournament_id)
        if row is None:
            raise OnlineError("store.no_tournament", slug=str(tournament_id))
        return row.slug


def unfilled_games(store: Store) -> list[OnlineGame]:
    """Online games whose result is not on the sheet yet (being played, or finished
    just before a crash), oldest first."""
    with store.transaction() as s:
        rows = s.scalars(
            select(OnlineGameRow)
            .where(OnlineGameRow.filled.is_(False))
            .order_by(OnlineGameRow.created_at)
        ).all()
        return [_value(r) for r in rows]


__all__ = [
    "LiveTableRow",
    "OnlineError",
    "OnlineGame",
    "OnlineGameRow",
    "add_games",
    "all_games",
    "get_game",
    "mark_filled",
    "round_games",
    "slug_of",
    "table_games",
    "tournament_of",
    "unfilled_games",
]
