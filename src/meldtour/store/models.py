"""The database tables, as SQLAlchemy 2 models.

The rows hold the values of the pure tournament engine (:mod:`meldtour.tournament`):
a tournament, its divisions, registrations (of players, who live across
tournaments), stages, rounds, score sheets with their games and corrections, awards
and the rating pool a division counts in (never the ratings: they are derived);
plus the audit log of every change. Structured values the engine owns
and never queries by (a stage's format, a planned seating, recorded lots) are JSON
columns; everything a screen or a report looks up is a column.

Times are ISO 8601 text in UTC (the engine takes times as text), so a backup
round-trips exactly on SQLite and on PostgreSQL alike.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

Json = JSON(none_as_null=True)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class Account(Base):
    """A director's account: a name and an argon2 hash (never the password).

    Kept with the tournaments so that migrations and backups cover it; a backup file
    therefore holds password hashes and is to be kept as private as the database.
    """

    __tablename__ = "account"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(80), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    role: Mapped[str] = mapped_column(String(20), default="director")
    created_at: Mapped[str] = mapped_column(String(40))
    #: Disabled by the administrator: no sign-in, every session refused (0020).
    # (server defaults only: an older schema's rows are written without these columns)
    disabled: Mapped[bool] = mapped_column(Boolean, server_default=false())
    #: Sessions signed at an older epoch are refused (a password change moves it on).
    session_epoch: Mapped[int] = mapped_column(Integer, server_default="0")


class Player(Base):
    """A person, across tournaments: a new one for each new registration, unless the
    application links the registration to a person who played before."""

    __tablename__ = "player"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200), index=True)
    created_at: Mapped[str] = mapped_column(String(40))


class RatingPoolRow(Base):
    """The federation's choice of the rating pool a division counts in, instead of
    its template's (``none``: not rated). The ratings themselves are never stored:
    they are computed from the counted sheets (:mod:`meldtour.tournament.rating`)."""

    __tablename__ = "rating_pool"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    division_id: Mapped[int] = mapped_column(ForeignKey("division.id"), unique=True)
    pool: Mapped[str] = mapped_column(String(40))
    set_by: Mapped[str] = mapped_column(String(200))
    set_at: Mapped[str] = mapped_column(String(40))


class TournamentRow(Base):
    """The day. ``slug`` names it on the command line."""

    __tablename__ = "tournament"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    slug: Mapped[str] = mapped_column(String(100), unique=True)
    name: Mapped[str] = mapped_column(String(200))
    date: Mapped[str] = mapped_column(String(40))
    #: Where the day is played (shown on the public page); not part of the engine's value.
    venue: Mapped[str] = mapped_column(String(200), default="", server_default="")
    #: The certificates' signer lines (``None``: the director's and the chief referee's).
    # no Python default: an insert leaves it out (NULL), also into a schema before 0023
    signers: Mapped[list[str] | None] = mapped_column(Json, nullable=True)
    seed: Mapped[int] = mapped_column(BigInteger)
    template: Mapped[str] = mapped_column(String(100))
    created_at: Mapped[str] = mapped_column(String(40))
    updated_at: Mapped[str] = mapped_column(String(40))

    divisions: Mapped[list[DivisionRow]] = relationship(
        back_populates="tournament", order_by="DivisionRow.position"
    )


class DivisionRow(Base):
    __tablename__ = "division"
    __table_args__ = (UniqueConstraint("tournament_id", "key"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournament.id"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    key: Mapped[str] = mapped_column(String(100))
    name: Mapped[str] = mapped_column(String(200))
    cap: Mapped[int] = mapped_column(Integer)
    eligibility: Mapped[str] = mapped_column(Text)
    rules: Mapped[dict[str, Any]] = mapped_column(Json)
    formats: Mapped[list[dict[str, Any]]] = mapped_column(Json)
    ranking: Mapped[dict[str, Any] | None] = mapped_column(Json, nullable=True)
    keep_apart: Mapped[list[str]] = mapped_column(Json)
    groups_hard: Mapped[bool] = mapped_column(Boolean)
    late_entry: Mapped[bool] = mapped_column(Boolean)
    prizes: Mapped[int] = mapped_column(Integer)
    started: Mapped[bool] = mapped_column(Boolean)
    #: The prize or award title of each place or range of places (not the engine's):
    #: ``[{"first": 1, "last": 1, "title": "..."}]``.
    prize_titles: Mapped[list[dict[str, Any]] | None] = mapped_column(Json, nullable=True)

    tournament: Mapped[TournamentRow] = relationship(back_populates="divisions")


class RegistrationRow(Base):
    """A player's entry in a division; ``number`` is the player's id in the tournament."""

    __tablename__ = "registration"
    #: One person is registered once in a tournament (migration 0008).
    __table_args__ = (
        UniqueConstraint("tournament_id", "number"),
        UniqueConstraint(
            "tournament_id", "player_id", name="uq_registration_tournament_id_player_id"
        ),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournament.id"), index=True)
    division_id: Mapped[int] = mapped_column(ForeignKey("division.id"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(200))
    tags: Mapped[list[str]] = mapped_column(Json)
    generation: Mapped[int | None] = mapped_column(Integer, nullable=True)
    status: Mapped[str] = mapped_column(String(20))
    late: Mapped[bool] = mapped_column(Boolean)


class StageRow(Base):
    __tablename__ = "stage"
    __table_args__ = (UniqueConstraint("division_id", "position"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    division_id: Mapped[int] = mapped_column(ForeignKey("division.id"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    format: Mapped[dict[str, Any]] = mapped_column(Json)
    entrants: Mapped[list[int]] = mapped_column(Json)
    plan: Mapped[list[list[list[int]]]] = mapped_column(Json)
    dropped: Mapped[list[int]] = mapped_column(Json)
    lots: Mapped[list[list[int]]] = mapped_column(Json)
    finished: Mapped[bool] = mapped_column(Boolean)


class RoundRow(Base):
    __tablename__ = "round"
    __table_args__ = (UniqueConstraint("stage_id", "number"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    stage_id: Mapped[int] = mapped_column(ForeignKey("stage.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    closed: Mapped[bool] = mapped_column(Boolean)
    advanced: Mapped[list[int]] = mapped_column(Json)
    #: The seating is locked (by the director, or by the round's first saved sheet):
    #: the round is never reseated after this. Kept by the store, not the engine.
    locked_at: Mapped[str | None] = mapped_column(String(40), nullable=True, default=None)
    locked_by: Mapped[str | None] = mapped_column(String(200), nullable=True, default=None)


class ScoreSheetRow(Base):
    """One table's sheet in one round. ``version`` goes up by one at every save: a
    device that saves over a version it did not read gets a conflict."""

    __tablename__ = "score_sheet"
    __table_args__ = (UniqueConstraint("round_id", "table_number"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("round.id"), index=True)
    table_number: Mapped[int] = mapped_column(Integer)
    players: Mapped[list[int]] = mapped_column(Json)
    status: Mapped[str] = mapped_column(String(20))
    counted: Mapped[bool] = mapped_column(Boolean)
    entered_by: Mapped[str | None] = mapped_column(String(200), nullable=True)
    entered_at: Mapped[str | None] = mapped_column(String(40), nullable=True)
    submitted_by: Mapped[str | None] = mapped_column(String(200), nullable=True)
    submitted_at: Mapped[str | None] = mapped_column(String(40), nullable=True)
    version: Mapped[int] = mapped_column(Integer)

    __mapper_args__ = {  # noqa: RUF012 (typed by SQLAlchemy's base; read at class creation)
        "version_id_col": version,
        "version_id_generator": False,
    }


class GameRow(Base):
    """One game of a sheet: what was entered (the draft) and what counts."""

    __tablename__ = "game"
    __table_args__ = (UniqueConstraint("sheet_id", "number"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    sheet_id: Mapped[int] = mapped_column(ForeignKey("score_sheet.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    points: Mapped[list[int | None]] = mapped_column(Json)
    penalties: Mapped[list[int]] = mapped_column(Json)
    winner: Mapped[int | None] = mapped_column(Integer, nullable=True)
    counted_points: Mapped[list[int | None] | None] = mapped_column(Json, nullable=True)
    counted_penalties: Mapped[list[int] | None] = mapped_column(Json, nullable=True)
    counted_winner: Mapped[int | None] = mapped_column(Integer, nullable=True)


class CorrectionRow(Base):
    """A change to a counted sheet: the cell, the old and new value, who, why, when."""

    __tablename__ = "correction"
    __table_args__ = (UniqueConstraint("sheet_id", "position"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    sheet_id: Mapped[int] = mapped_column(ForeignKey("score_sheet.id"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    game: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    field: Mapped[str] = mapped_column(String(20))
    player: Mapped[int | None] = mapped_column(Integer, nullable=True)
    old: Mapped[int | None] = mapped_column(Integer, nullable=True)
    new: Mapped[int | None] = mapped_column(Integer, nullable=True)
    who: Mapped[str] = mapped_column(String(200))
    why: Mapped[str] = mapped_column(Text)
    at: Mapped[str] = mapped_column(String(40))


class AwardRow(Base):
    __tablename__ = "award"
    __table_args__ = (UniqueConstraint("division_id", "place"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    division_id: Mapped[int] = mapped_column(ForeignKey("division.id"), index=True)
    place: Mapped[int] = mapped_column(Integer)
    number: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(200))
    awarded_at: Mapped[str] = mapped_column(String(40))


class WinnerPollRow(Base):
    """The winner-guess vote of a division's stage: its finalists (registration
    numbers), opened and closed by the director. The votes are :class:`WinnerVoteRow`."""

    __tablename__ = "winner_poll"
    __table_args__ = (UniqueConstraint("division_id", "stage"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournament.id"), index=True)
    division_id: Mapped[int] = mapped_column(ForeignKey("division.id"))
    stage: Mapped[int] = mapped_column(Integer)
    finalists: Mapped[list[int]] = mapped_column(Json)
    closed: Mapped[bool] = mapped_column(Boolean, default=False)
    opened_by: Mapped[str] = mapped_column(String(200))
    opened_at: Mapped[str] = mapped_column(String(40))
    closed_at: Mapped[str | None] = mapped_column(String(40), nullable=True, default=None)
    #: Only votes with one of the tournament's vote codes count (:class:`VoteCodeRow`).
    codes_required: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: The prize draw among the right guesses: winner, seed, right, drawn, at, by.
    draw: Mapped[dict[str, Any] | None] = mapped_column(Json, nullable=True, default=None)


class WinnerVoteRow(Base):
    """One voter's guess in a poll. ``voter`` is a random key from a signed cookie of
    the visitor's browser (one vote per browser: voting again changes it); ``name``
    is what the voter gave for the prize draw (may be empty)."""

    __tablename__ = "winner_vote"
    __table_args__ = (UniqueConstraint("poll_id", "voter"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    poll_id: Mapped[int] = mapped_column(ForeignKey("winner_poll.id"))
    voter: Mapped[str] = mapped_column(String(64))
    name: Mapped[str] = mapped_column(String(80))
    finalist: Mapped[int] = mapped_column(Integer)
    at: Mapped[str] = mapped_column(String(40))
    #: A short hash of the voter's address (never the address): a burst from one
    #: source is plain to the director, who may void it.
    source: Mapped[str] = mapped_column(String(16), default="", server_default="")
    #: The browser key of the device that cast a card's vote: another device changes
    #: it only with a confirmation that the card already voted.
    device: Mapped[str] = mapped_column(String(64), default="", server_default="")


class VoteCodeRow(Base):
    """A vote code of a tournament, printed on a card for a visitor (or on a badge):
    where a vote needs a code, each code votes once per vote (voting again changes
    it)."""

    __tablename__ = "vote_code"
    __table_args__ = (UniqueConstraint("tournament_id", "code"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournament.id"))
    code: Mapped[str] = mapped_column(String(16))
    made_at: Mapped[str] = mapped_column(String(40))


class AuditRow(Base):
    """Every change: who, when, what (entity and key), the value before and after, why."""

    __tablename__ = "audit_log"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[str] = mapped_column(String(40))
    who: Mapped[str] = mapped_column(String(200))
    action: Mapped[str] = mapped_column(String(50))
    tournament_id: Mapped[int | None] = mapped_column(
        ForeignKey("tournament.id"), nullable=True, index=True
    )
    entity: Mapped[str] = mapped_column(String(50))
    key: Mapped[str] = mapped_column(String(200))
    before: Mapped[Any] = mapped_column(Json, nullable=True)
    after: Mapped[Any] = mapped_column(Json, nullable=True)
    why: Mapped[str] = mapped_column(Text)


class LiveGameRow(Base):
    """A live game's log (``meldtour.live``): written once at its start (the header:
    rules, players, seed, seats with computer levels, table options), then its moves
    (:class:`LiveMoveRow`, one per transaction, before anyone is told), the current
    turn's latest draft (overwritten), when the server was last known alive, the clock's
    resumptions after a restart, and the result when it is over.

    Times are server seconds (floats): the clock of a running game, not dates."""

    __tablename__ = "live_game"
    id: Mapped[str] = mapped_column(String(40), primary_key=True, autoincrement=False)
    header: Mapped[Any] = mapped_column(Json)
    started_at: Mapped[float] = mapped_column(Float)
    #: Moves appended so far: the next append must be number ``moves``.
    moves: Mapped[int] = mapped_column(Integer, default=0)
    draft: Mapped[Any] = mapped_column(Json, nullable=True)
    #: The last heartbeat of the process that ran the game, as written until the
    #: heartbeat was one row a process (:class:`LiveNodeRow`); kept for games logged
    #: before, and read with it.
    alive_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: ``[{"version", "turn_started", "at"}]``: the clock set back after each restart.
    resumes: Mapped[Any] = mapped_column(Json, nullable=True)
    over: Mapped[bool] = mapped_column(Boolean, default=False, index=True)
    result: Mapped[Any] = mapped_column(Json, nullable=True)


class LiveNodeRow(Base):
    """A server process's heartbeat (``meldtour.live``): when it was last known alive
    and the games it was running then (started, not over). One row a process run, its
    ``id`` made when the process's log opens, rewritten every second — one row, where a
    row a game rewrote every game's (header and all) each second. After a crash the
    game's clock restarts from the last beat of a process that listed it."""

    __tablename__ = "live_node"
    id: Mapped[str] = mapped_column(String(40), primary_key=True, autoincrement=False)
    alive_at: Mapped[float] = mapped_column(Float)
    #: The ids of the games it ran at ``alive_at``: a JSON list.
    games: Mapped[Any] = mapped_column(Json)


class LiveMoveRow(Base):
    """One accepted move of a live game: ``core.record.move_to_json`` plus ``"at"``."""

    __tablename__ = "live_move"
    game_id: Mapped[str] = mapped_column(ForeignKey("live_game.id"), primary_key=True)
    index: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    move: Mapped[Any] = mapped_column(Json)
    at: Mapped[float | None] = mapped_column(Float, nullable=True)
