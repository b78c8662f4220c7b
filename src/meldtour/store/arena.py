"""Arenas in the database (migration 0028): an online event open to everyone for a
set time (:mod:`meldtour.application.arena_rules`).

- ``arena``: its name, preset and turn's seconds, when it opens and closes, who opened it;
- ``arena_player``: who joined (``id``: their arena ticket's hash, which is also their
  entry's in the quick-play queue while they wait), their name, account and rating;
- ``arena_game``: which player sat at which seat of which live game. The games' results
  are the game log's (``live_game``): the leaderboard is computed from these rows and the
  log, never stored, so a restart or a second process loses no game.

Functions of a session (a unit of work the caller runs); :mod:`meldtour.application.arena`
runs them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Float, ForeignKey, Integer, String, insert, select, update
from sqlalchemy.orm import Mapped, mapped_column

from .models import Base, LiveGameRow


class ArenaRow(Base):
    __tablename__ = "arena"
    id: Mapped[str] = mapped_column(String(40), primary_key=True, autoincrement=False)
    name: Mapped[str] = mapped_column(String(120))
    preset: Mapped[str] = mapped_column(String(60))
    turn_seconds: Mapped[int] = mapped_column(Integer)
    starts_at: Mapped[float] = mapped_column(Float)
    ends_at: Mapped[float] = mapped_column(Float, index=True)
    opened_by: Mapped[str] = mapped_column(String(120))


class ArenaPlayerRow(Base):
    __tablename__ = "arena_player"
    arena_id: Mapped[str] = mapped_column(
        ForeignKey("arena.id"), primary_key=True, autoincrement=False
    )
    id: Mapped[str] = mapped_column(String(80), primary_key=True, autoincrement=False)
    name: Mapped[str] = mapped_column(String(80))
    account_id: Mapped[int | None] = mapped_column(
        ForeignKey("player_account.id"), nullable=True, index=True
    )
    rating: Mapped[float] = mapped_column(Float)
    joined_at: Mapped[float] = mapped_column(Float)
    #: Their entry in the quick-play queue now (their arena ticket's hash).
    entry: Mapped[str] = mapped_column(String(80), index=True)


class ArenaGameRow(Base):
    __tablename__ = "arena_game"
    game_id: Mapped[str] = mapped_column(String(40), primary_key=True, autoincrement=False)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    arena_id: Mapped[str] = mapped_column(ForeignKey("arena.id"), index=True)
    player_id: Mapped[str] = mapped_column(String(80))
    at: Mapped[float] = mapped_column(Float)


_ARENA = ArenaRow.__table__
_PLAYER = ArenaPlayerRow.__table__
_GAME = ArenaGameRow.__table__


def add_arena(
    s: Any,
    *,
    id: str,
    name: str,
    preset: str,
    turn_seconds: int,
    starts_at: float,
    ends_at: float,
    opened_by: str,
) -> None:
    s.execute(
        insert(ArenaRow).values(
            id=id,
            name=name,
            preset=preset,
            turn_seconds=turn_seconds,
            starts_at=starts_at,
            ends_at=ends_at,
            opened_by=opened_by,
        )
    )


def arena(s: Any, arena_id: str) -> Any:
    return s.execute(select(_ARENA).where(_ARENA.c.id == arena_id)).first()


def arenas(s: Any, ended_after: float) -> list[Any]:
    """The arenas not over before ``ended_after``, the soonest to close first."""
    return list(
        s.execute(
            select(_ARENA).where(_ARENA.c.ends_at >= ended_after).order_by(_ARENA.c.ends_at)
        ).all()
    )


def player(s: Any, arena_id: str, player_id: str) -> Any:
    return s.execute(
        select(_PLAYER).where(_PLAYER.c.arena_id == arena_id, _PLAYER.c.id == player_id)
    ).first()


def add_player(
    s: Any,
    *,
    arena_id: str,
    id: str,
    name: str,
    account_id: int | None,
    rating: float,
    joined_at: float,
    entry: str,
) -> None:
    s.execute(
        insert(ArenaPlayerRow).values(
            arena_id=arena_id,
            id=id,
            name=name,
            account_id=account_id,
            rating=rating,
            joined_at=joined_at,
            entry=entry,
        )
    )


def set_entry(s: Any, arena_id: str, player_id: str, entry: str, rating: float) -> None:
    s.execute(
        update(ArenaPlayerRow)
        .where(_PLAYER.c.arena_id == arena_id, _PLAYER.c.id == player_id)
        .values(entry=entry, rating=rating)
    )


def by_entry(s: Any, arena_id: str, entries: Sequence[str]) -> dict[str, Any]:
    """The arena's players waiting under these entries, by entry."""
    if not entries:
        return {}
    found = s.execute(
        select(_PLAYER).where(_PLAYER.c.arena_id == arena_id, _PLAYER.c.entry.in_(list(entries)))
    ).all()
    return {str(r.entry): r for r in found}


def players(s: Any, arena_id: str) -> list[Any]:
    return list(
        s.execute(
            select(_PLAYER).where(_PLAYER.c.arena_id == arena_id).order_by(_PLAYER.c.joined_at)
        ).all()
    )


def add_game(
    s: Any, arena_id: str, game_id: str, seats: Sequence[tuple[int, str]], at: float
) -> int:
    """The seats of an arena game (those already kept are left: a second writer, or a
    page telling its own seat after the process that opened the table did, adds none)."""
    known = {
        int(n) for (n,) in s.execute(select(_GAME.c.seat).where(_GAME.c.game_id == game_id)).all()
    }
    added = 0
    for seat, pid in seats:
        if seat in known:
            continue
        added += 1
        s.execute(
            insert(ArenaGameRow).values(
                arena_id=arena_id, game_id=game_id, seat=seat, player_id=pid, at=at
            )
        )
    return added


def arena_of_game(s: Any, game_id: str) -> str | None:
    found = s.execute(select(_GAME.c.arena_id).where(_GAME.c.game_id == game_id).limit(1)).first()
    return None if found is None else str(found[0])


def games(s: Any, arena_id: str) -> list[tuple[str, int, str, bool, Any]]:
    """Every seat of the arena's games: ``(game_id, seat, player_id, over, result)``,
    in the order they were seated (a game not yet in the log: not over, no result)."""
    found = s.execute(
        select(
            _GAME.c.game_id, _GAME.c.seat, _GAME.c.player_id, LiveGameRow.over, LiveGameRow.result
        )
        .select_from(_GAME.outerjoin(LiveGameRow, LiveGameRow.id == _GAME.c.game_id))
        .where(_GAME.c.arena_id == arena_id)
        .order_by(_GAME.c.at, _GAME.c.game_id, _GAME.c.seat)
    ).all()
    return [(str(g), int(n), str(p), bool(o), r) for g, n, p, o, r in found]


__all__ = [
    "ArenaGameRow",
    "ArenaPlayerRow",
    "ArenaRow",
    "add_arena",
    "add_game",
    "add_player",
    "arena",
    "arena_of_game",
    "arenas",
    "by_entry",
    "games",
    "player",
    "players",
    "set_entry",
]
