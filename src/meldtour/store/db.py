"""Engines, transactions and the schema check.

:func:`open_store` connects and refuses a database whose schema is not the one this
meldtour was built for, naming the command that fixes it. SQLite runs in WAL mode
with a busy timeout, and every writing transaction starts with ``BEGIN IMMEDIATE`` so
that two writers queue instead of failing half-way; PostgreSQL runs at READ COMMITTED,
with the row locks and version checks of :mod:`.repository`. A unit of work that only
reads (:meth:`Store.reading`) starts with a plain (deferred) ``BEGIN`` on SQLite, so it
reads WAL's last committed state without waiting for the write lock, and runs at
REPEATABLE READ, read only, on PostgreSQL, so all its statements see one snapshot.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self

from sqlalchemy import Connection, Engine, create_engine, event, inspect
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError, InterfaceError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

from meldtour.core.refusal import Refused

from . import refusals as _refusals  # noqa: F401  (the codes below)
from .config import database_url


class StoreError(Refused):
    """A store operation that cannot be done: a code and its arguments
    (:mod:`.refusals`); ``str()`` is the reason in English."""

    @classmethod
    def of(cls, refused: Refused) -> Self:
        """The same refusal (code and arguments) raised as this class: a use case
        that refuses because the engine did."""
        return cls(refused.code, **refused.params)


class Busy(Exception):
    """:meth:`Store.passing` with ``now``: the write lock is another writer's just now
    (nothing was done; write it off the event loop instead)."""


#: How long a passing write off the loop retries while another process writes (the
#: other connections' ``busy_timeout``).
BUSY_SECONDS = 30.0


class SchemaError(StoreError):
    """The database's schema is missing, old or newer than this meldtour."""


#: The execution option that marks a reading unit of work's connection.
READING = "meldtour_reading"

#: The database's errors that the layers above tell apart, named here so that no
#: module outside the store imports the SQL toolkit: a row whose unique key another
#: unit of work has just taken (two starts of one online round, two votes of one
#: voter at once) ...
RowExists = IntegrityError
#: ... and the database not answering (stopped, restarting, unreachable).
DATABASE_DOWN: tuple[type[Exception], ...] = (OperationalError, InterfaceError)


def make_engine(url: str) -> Engine:
    """An engine for ``url``; an SQLite file's folder is created, WAL mode set."""
    u = make_url(url)
    if u.get_backend_name() == "sqlite":
        db = u.database or ""
        if db and db != ":memory:" and not db.startswith("file:"):
            Path(db).parent.mkdir(parents=True, exist_ok=True)
        # Readers never wait for the write lock (WAL), so they should not wait for a
        # pooled connection either: a larger pool than the default five.
        # Any thread may use a connection (one at a time: the pool, and the writers'
        # queue, see to it); the live log's writes run on a thread of its own.
        engine = create_engine(
            url,
            connect_args={"timeout": 30, "check_same_thread": False},
            pool_size=10,
            max_overflow=30,
        )

        @event.listens_for(engine, "connect")
        def _connect(dbapi_conn: Any, _record: Any) -> None:
            dbapi_conn.isolation_level = None  # we issue BEGIN ourselves
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.close()

        @event.listens_for(engine, "begin")
        def _begin(conn: Any) -> None:
            # A reading unit of work (Store.reading) takes no write lock.
            reading = conn.get_execution_options().get(READING, False)
            conn.exec_driver_sql("BEGIN" if reading else "BEGIN IMMEDIATE")

        return engine
    return create_engine(url, pool_pre_ping=True)


def alembic_config(connection: Any = None) -> Any:
    """Alembic's configuration, built in code: the scripts live in this package, so
    it works from an installed meldtour and from a fresh clone alike."""
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    cfg.attributes["connection"] = connection
    return cfg


def head_revision() -> str:
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def current_revision(engine: Engine) -> str | None:
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def upgrade(engine: Engine, revision: str = "head") -> tuple[str | None, str]:
    """Apply the migrations up to ``revision``; returns (before, after)."""
    from alembic import command

    before = current_revision(engine)
    with engine.begin() as conn:
        command.upgrade(alembic_config(conn), revision)
    after = current_revision(engine)
    assert after is not None
    return before, after


def check_schema(engine: Engine) -> None:
    """Refuse a database whose schema is not this meldtour's, saying what to run."""
    current = current_revision(engine)
    head = head_revision()
    if current == head:
        return
    where = engine.url.render_as_string(hide_password=True)
    if current is None:
        tables = inspect(engine).get_table_names()
        raise SchemaError(
            "store.not_meldtour_database" if tables else "store.no_schema", where=where
        )
    from alembic.script import ScriptDirectory

    known = {s.revision for s in ScriptDirectory.from_config(alembic_config()).walk_revisions()}
    if current not in known:
        raise SchemaError("store.schema_newer", where=where, current=current, head=head)
    raise SchemaError("store.schema_old", where=where, current=current, head=head)


@dataclass
class Store:
    """A database: its engine and its sessions. Use :meth:`transaction` for every
    unit of work that writes: it commits at the end, and rolls everything back on an
    error; :meth:`reading` for one that only reads.

    ``snapshots`` is the process's cache of tournaments as last read, keyed by the
    tournament, each with the audit mark it was read at (see
    :func:`meldtour.application.snapshot.snapshot`); ``snapshot_lock`` guards it."""

    engine: Engine

    def __post_init__(self) -> None:
        self._sessions = sessionmaker(self.engine, expire_on_commit=False, autoflush=False)
        if self.engine.dialect.name == "sqlite":
            reader = self.engine.execution_options(**{READING: True})
        else:
            reader = self.engine.execution_options(
                isolation_level="REPEATABLE READ", postgresql_readonly=True
            )
        self._readers = sessionmaker(reader, expire_on_commit=False, autoflush=False)
        # SQLite has one writer at a time: this process's writers queue here, before
        # taking a pooled connection, rather than each holding one while it waits for
        # the lock (other processes still queue on BEGIN IMMEDIATE and the busy timeout).
        self._writer: threading.RLock | None = (
            threading.RLock() if self.engine.dialect.name == "sqlite" else None
        )
        #: The connection of :meth:`passing` (the pool's proxy, the driver's), once used.
        self._passing: tuple[Any, Any] | None = None
        self.snapshots: dict[Any, Any] = {}
        self.snapshot_lock = threading.Lock()
        self.computing: dict[Any, threading.Lock] = {}

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        if self._writer is None:
            with self._sessions() as session, session.begin():
                yield session
            return
        with self._writer, self._sessions() as session, session.begin():
            yield session

    @contextmanager
    def writing(self) -> Iterator[Connection]:
        """A writing unit of work on a connection, without the ORM's session (for
        prebuilt statements on a hot path: the live games' log): the same ``BEGIN
        IMMEDIATE``, the same queue of this process's SQLite writers, commit at the
        end and rollback on an error as :meth:`transaction`."""
        if self._writer is None:
            with self.engine.begin() as conn:
                yield conn
            return
        with self._writer, self.engine.begin() as conn:
            yield conn

    @contextmanager
    def passing(self, now: bool = False) -> Iterator[Any]:
        """SQLite only: a writing unit of work straight on the driver's connection
        (``sqlite3``: ``?`` parameters), committed without waiting for the disk — for
        the live games' moves in play, their drafts and the heartbeat, the writes the
        log makes hundreds of times a second (:func:`meldtour.store.games.write`).

        What it commits survives the process's crash or restart, as every commit does,
        and the database is never corrupted; but a power cut or a crash of the machine
        itself may take back the last moments' commits, up to the next commit that
        waits for the disk (any other, which makes every earlier one last too: the
        write-ahead log is synced as a whole). RELIABILITY.md, "What a power cut takes
        back". The wait for the disk was most of a move's cost, and the SQL toolkit's
        connection and transaction most of the rest (BENCHMARKS.md, "Cost per move").

        One connection of its own, kept for the store's life (``synchronous=NORMAL``),
        used under the same queue of this process's SQLite writers, ``BEGIN
        IMMEDIATE`` and commit, rollback on an error. ``now``: only if the write lock
        is free this instant, else :class:`Busy` and nothing done — for a write made on
        the event loop itself, which must never wait (:mod:`meldtour.live.log`)."""
        if self._writer is None:
            raise RuntimeError("Store.passing is for SQLite only")
        if now:
            if not self._writer.acquire(blocking=False):
                raise Busy("another writer of this process holds the lock")
        else:
            self._writer.acquire()
        try:
            raw = self._passing_connection()
            self._begin(raw, now)
            try:
                yield raw
            except BaseException:
                with contextlib.suppress(Exception):
                    raw.execute("ROLLBACK")
                raise
            raw.execute("COMMIT")
        finally:
            self._writer.release()

    def _begin(self, raw: Any, now: bool) -> None:
        """``BEGIN IMMEDIATE`` on the passing connection, which never waits itself
        (``busy_timeout=0``): at once or :class:`Busy` (``now``), else retried while
        another process writes, for as long as the other connections' busy timeout."""
        waited = 0.0
        while True:
            try:
                raw.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) and "busy" not in str(exc):
                    raise
                if now:
                    raise Busy("another process holds the database's write lock") from None
                if waited >= BUSY_SECONDS:
                    raise
            time.sleep(0.005)
            waited += 0.005

    def checkpoint(self) -> None:
        """SQLite: copy the write-ahead log into the database, as far as no reader holds
        it back (``PASSIVE``): the passing connection leaves that to this (it runs no
        automatic checkpoint, so that a write on the event loop never waits on the
        disk); the live log asks for it with every heartbeat, off the loop."""
        if self._writer is None:
            return
        with self._writer:
            self._passing_connection().execute("PRAGMA wal_checkpoint(PASSIVE)")

    def _passing_connection(self) -> Any:
        if self._passing is None:
            fairy = self.engine.raw_connection()  # kept out of the pool: ours alone
            raw = fairy.driver_connection
            assert raw is not None
            raw.execute("PRAGMA synchronous=NORMAL")
            raw.execute("PRAGMA busy_timeout=0")
            raw.execute("PRAGMA wal_autocheckpoint=0")
            self._passing = (fairy, raw)
        return self._passing[1]

    @contextmanager
    def reading(self) -> Iterator[Session]:
        """A unit of work that only reads: one consistent snapshot, no write lock
        (writing in it is an error on PostgreSQL and may fail on SQLite)."""
        with self._readers() as session, session.begin():
            yield session

    def close(self) -> None:
        if self._passing is not None:
            with contextlib.suppress(Exception):
                self._passing[0].close()
            self._passing = None
        self.engine.dispose()


def open_store(url: str | None = None, *, check: bool = True) -> Store:
    """The store at ``url`` (``--db``), ``MELDTOUR_DATABASE_URL`` or the default
    SQLite file, with its schema checked."""
    engine = make_engine(database_url(url))
    if check:
        try:
            check_schema(engine)
        except Exception:
            engine.dispose()
            raise
    return Store(engine)


def open_or_create(url: str) -> Store:
    """Open the store at ``url``. A new, empty database gets the schema (first start);
    any other database must already have this meldtour's schema: an old one is refused
    with the message naming ``meldtour db upgrade`` (:class:`SchemaError`)."""
    engine = make_engine(url)
    try:
        if current_revision(engine) is None and not inspect(engine).get_table_names():
            upgrade(engine)
        check_schema(engine)
    except Exception:
        engine.dispose()
        raise
    return Store(engine)
