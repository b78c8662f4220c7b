"""The live games' log in the database: ``live_game`` and ``live_move``.

What :mod:`meldtour.live` writes before it tells anyone: a game's header once at its
start, each accepted move in its own transaction (refused unless it is the next one,
so two writers can never interleave a game's moves), the current turn's draft
(overwritten), the process's heartbeat, the clock's resumptions after a restart, and
the result. Plain values in and out (JSON-ready dicts); the asynchronous
``GameLog`` adapter is :class:`meldtour.live.log.StoreLog`.

Every function takes a :class:`~meldtour.store.db.Store` and runs one transaction.
"""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import CursorResult, bindparam, select
from sqlalchemy.exc import OperationalError

from . import jsontext, online
from .db import Store, StoreError
from .models import LiveGameRow, LiveMoveRow, LiveNodeRow


class GameLogError(StoreError):
    """A write the log refuses: an unknown game, a game started twice, a move out of order."""


@dataclass
class StoredGame:
    """Everything written for a game (the live games' log reads it back as it is)."""

    #: ``{"rules", "players", "seed", "deal"?, "started_at", "table"}``
    header: dict[str, Any]
    #: Moves in order: ``core.record.move_to_json(move)`` plus ``"at"`` (server seconds).
    moves: list[dict[str, Any]] = field(default_factory=list)
    #: The latest draft: ``{"version", "seat", "board", "at"}``; only the one whose
    #: version equals ``len(moves)`` still counts.
    draft: dict[str, Any] | None = None
    #: Set when the game is over: ``{"end", "winner", "scores"}``.
    result: dict[str, Any] | None = None
    #: When a process running the game was last known alive (the latest heartbeat
    #: that listed it).
    alive_at: float | None = None
    #: The clock set back after restarts: ``{"version", "turn_started", "at"}`` in order.
    resumes: list[dict[str, Any]] = field(default_factory=list)


def _count(result: Any) -> int:
    assert isinstance(result, CursorResult)
    return int(result.rowcount)


def start_game(store: Store, game_id: str, header: Mapping[str, Any]) -> None:
    """Write the game's header (rules, players, seed, deal, ``started_at``, table)."""
    with store.writing() as conn:
        _start(conn, game_id, header)


def _start(conn: Any, game_id: str, header: Mapping[str, Any]) -> None:
    if conn.execute(_HAS_GAME, {"gid": game_id}).first() is not None:
        raise GameLogError("gamelog.exists", game=game_id)
    conn.execute(
        _ADD_GAME,
        {
            "id": game_id,
            "header": dict(header),
            "started_at": float(header.get("started_at") or 0.0),
            "moves": 0,
            "draft": None,
            "alive_at": None,
            "resumes": [],
            "over": False,
            "result": None,
        },
    )
    conn.execute(_DROP_TABLE, {"gid": game_id})  # no longer waiting for players


def append_move(store: Store, game_id: str, index: int, move: Mapping[str, Any]) -> None:
    """Append move number ``index`` (0-based) in its own transaction; anything but the
    next index is refused and nothing is written."""
    with store.writing() as conn:
        _append(conn, game_id, index, move)


def append_moves(store: Store, moves: Sequence[tuple[str, int, Mapping[str, Any]]]) -> None:
    """Append several games' next moves in one transaction (a group commit): all or
    nothing — one refused append refuses the whole batch, and the caller retries the
    moves one by one."""
    with store.writing() as conn:
        for game_id, index, move in moves:
            _append(conn, game_id, index, move)


_GAME = LiveGameRow.__table__
_MOVE = LiveMoveRow.__table__
# Built once: a move's write is two statements on the session's connection, without
# the ORM (its unit of work cost more than the disk on the hot path).
_BUMP = (
    _GAME.update()  # type: ignore[attr-defined]
    .where(_GAME.c.id == bindparam("gid"), _GAME.c.moves == bindparam("idx"))
    .values(moves=bindparam("nxt"), draft=None)
)
_ADD_MOVE = _MOVE.insert()  # type: ignore[attr-defined]
_COUNT = select(LiveGameRow.moves).where(LiveGameRow.id == bindparam("gid"))
# A game's start and a waiting table's writes (a few per game: once per seat taken).
_TABLE = online.LiveTableRow.__table__
_HAS_GAME = select(_GAME.c.id).where(_GAME.c.id == bindparam("gid"))
_ADD_GAME = _GAME.insert()  # type: ignore[attr-defined]
_SET_TABLE = (
    _TABLE.update()  # type: ignore[attr-defined]
    .where(_TABLE.c.id == bindparam("gid"))
    .values(data=bindparam("data"))
)
_ADD_TABLE = _TABLE.insert()  # type: ignore[attr-defined]
_DROP_TABLE = _TABLE.delete().where(_TABLE.c.id == bindparam("gid"))  # type: ignore[attr-defined]


def _append(conn: Any, game_id: str, index: int, move: Mapping[str, Any]) -> None:
    # The counter's conditional update takes the row lock on PostgreSQL (and SQLite
    # holds the database's write lock): the check and the insert cannot be split.
    result = conn.execute(_BUMP, {"gid": game_id, "idx": index, "nxt": index + 1})
    if _count(result) != 1:
        have = conn.execute(_COUNT, {"gid": game_id}).scalar()
        if have is None:
            raise GameLogError("gamelog.missing", game=game_id)
        raise GameLogError("gamelog.move_order", game=game_id, index=index, have=have)
    at = move.get("at")
    conn.execute(
        _ADD_MOVE,
        {
            "game_id": game_id,
            "index": index,
            "move": dict(move),  # written as JSON at once: nothing keeps it
            "at": None if at is None else float(at),
        },
    )


def _set(conn: Any, game_id: str, **values: Any) -> None:
    result = conn.execute(
        _GAME.update()  # type: ignore[attr-defined]
        .where(_GAME.c.id == game_id)
        .values(**values)
    )
    if _count(result) != 1:
        raise GameLogError("gamelog.missing", game=game_id)


def put_draft(store: Store, game_id: str, draft: Mapping[str, Any] | None) -> None:
    """Replace the game's latest draft (None clears it)."""
    with store.writing() as conn:
        _put_draft(conn, game_id, draft)


def _put_draft(conn: Any, game_id: str, draft: Mapping[str, Any] | None) -> None:
    _set(conn, game_id, draft=None if draft is None else dict(draft))


def finish_game(store: Store, game_id: str, result: Mapping[str, Any]) -> None:
    """Mark the game over with its result (``end``, ``winner``, ``scores``, ``penalties``)."""
    with store.writing() as conn:
        _finish(conn, game_id, result)


def _finish(conn: Any, game_id: str, result: Mapping[str, Any]) -> None:
    _set(conn, game_id, over=True, result=dict(result), draft=None)


def mark_alive(store: Store, node: str, game_ids: Iterable[str], at: float) -> None:
    """The heartbeat: the process ``node`` was alive at ``at``, running these games."""
    with store.writing() as conn:
        _alive(conn, node, game_ids, at)


#: A process's heartbeat is let go once it is this old (seconds; a week), when any
#: process beats: a site down longer than that restarts its games' clocks from their last
#: move or draft instead (docs/rules.md, "The clock and failed turns").
NODE_KEEP = 7 * 86400.0

# The heartbeat is one row a process (``live_node``: when, and the games it runs),
# rewritten in place each second: a row a game, header and all, was two thirds of the
# live games' row writes at 1,000 games (BENCHMARKS.md, "The heartbeat, one row a
# process"). Only its own process writes a node's row, so an update that finds none
# is followed by an insert without a race; no game's row is touched, so the
# heartbeat never waits for a move's lock nor takes part in a deadlock. Statements
# built once (one built per beat left a reference cycle of the SQL toolkit's each
# second, on a connection without the ORM's session).
_NODE = LiveNodeRow.__table__
_SET_NODE = (
    _NODE.update()  # type: ignore[attr-defined]
    .where(_NODE.c.id == bindparam("nid"))
    .values(alive_at=bindparam("at"), games=bindparam("games"))
)
_ADD_NODE = _NODE.insert()  # type: ignore[attr-defined]
_DROP_NODES = _NODE.delete().where(_NODE.c.alive_at < bindparam("before"))  # type: ignore[attr-defined]
_NODES = select(_NODE.c.alive_at, _NODE.c.games)


def _alive(conn: Any, node: str, game_ids: Iterable[str], at: float) -> None:
    ids = list(game_ids)
    conn.execute(_DROP_NODES, {"before": at - NODE_KEEP})
    if _count(conn.execute(_SET_NODE, {"nid": node, "at": at, "games": ids})) == 0:
        conn.execute(_ADD_NODE, {"id": node, "alive_at": at, "games": ids})


def add_resume(store: Store, game_id: str, entry: Mapping[str, Any]) -> None:
    """Record that the clock was set back after a restart (``version``, ``turn_started``,
    ``at``), so that every later replay sets it back the same way."""
    with store.transaction() as s:
        _resume(s, game_id, entry)


def _resume(s: Any, game_id: str, entry: Mapping[str, Any]) -> None:
    row = s.get(LiveGameRow, game_id, with_for_update=True)
    if row is None:
        raise GameLogError("gamelog.missing", game=game_id)
    row.resumes = [*(row.resumes or []), copy.deepcopy(dict(entry))]
    s.flush()


def save_table(store: Store, game_id: str, table: Mapping[str, Any]) -> None:
    """Keep a table waiting for players (``live_table``), replacing what was kept;
    refused once its game has started."""
    with store.writing() as conn:
        _save_table(conn, game_id, table)


def _save_table(conn: Any, game_id: str, table: Mapping[str, Any]) -> None:
    if conn.execute(_HAS_GAME, {"gid": game_id}).first() is not None:
        raise GameLogError("gamelog.started", game=game_id)
    data = dict(table)
    if _count(conn.execute(_SET_TABLE, {"gid": game_id, "data": data})) == 0:
        conn.execute(_ADD_TABLE, {"id": game_id, "data": data, "created_at": time.time()})


def _drop_table(conn: Any, game_id: str) -> None:
    """Forget a table that waited for players in vain (nothing if it is not kept)."""
    conn.execute(_DROP_TABLE, {"gid": game_id})


#: The writes :func:`write` groups, by name: each takes a session (the ORM's) ...
WRITES: dict[str, Callable[..., None]] = {
    "resume": _resume,
}
#: ... or, every other write (a move's, a table's, a start's), a connection: the SQL
#: toolkit's prebuilt statements, no session to open and commit for a batch.
CORE_WRITES: dict[str, Callable[..., None]] = {
    "start": _start,
    "append": _append,
    "draft": _put_draft,
    "finish": _finish,
    "alive": _alive,
    "table": _save_table,
    "drop_table": _drop_table,
}


# On SQLite, a batch of moves in play, drafts and heartbeats only (nearly every batch)
# goes straight to the driver's connection and does not wait for the disk
# (``Store.passing``: what a power cut may take back, RELIABILITY.md). The statements
# are the toolkit's own above, in the driver's words; JSON as its JSON type writes it.
_BUMP_RAW = (
    "UPDATE live_game SET moves=?, draft=NULL WHERE live_game.id = ? AND live_game.moves = ?"
)
_ADD_MOVE_RAW = 'INSERT INTO live_move (game_id, "index", move, at) VALUES (?, ?, ?, ?)'
_COUNT_RAW = "SELECT moves FROM live_game WHERE id = ?"
_DRAFT_RAW = "UPDATE live_game SET draft=? WHERE id = ?"
_ALIVE_RAW = "UPDATE live_node SET alive_at=?, games=? WHERE id = ?"
_ADD_NODE_RAW = "INSERT INTO live_node (id, alive_at, games) VALUES (?, ?, ?)"
_DROP_NODES_RAW = "DELETE FROM live_node WHERE alive_at < ?"


def _append_raw(raw: Any, game_id: str, index: int, move: Mapping[str, Any]) -> None:
    if raw.execute(_BUMP_RAW, (index + 1, game_id, index)).rowcount != 1:
        have = raw.execute(_COUNT_RAW, (game_id,)).fetchone()
        if have is None:
            raise GameLogError("gamelog.missing", game=game_id)
        raise GameLogError("gamelog.move_order", game=game_id, index=index, have=have[0])
    at = move.get("at")
    raw.execute(
        _ADD_MOVE_RAW, (game_id, index, json.dumps(move), None if at is None else float(at))
    )


def _draft_raw(raw: Any, game_id: str, draft: Mapping[str, Any] | None) -> None:
    text = None if draft is None else json.dumps(draft)
    if raw.execute(_DRAFT_RAW, (text, game_id)).rowcount != 1:
        raise GameLogError("gamelog.missing", game=game_id)


def _alive_raw(raw: Any, node: str, game_ids: Iterable[str], at: float) -> None:
    text = json.dumps(list(game_ids))
    raw.execute(_DROP_NODES_RAW, (at - NODE_KEEP,))
    if raw.execute(_ALIVE_RAW, (at, text, node)).rowcount != 1:
        raw.execute(_ADD_NODE_RAW, (node, at, text))


PASSING_WRITES: dict[str, Callable[..., None]] = {
    "append": _append_raw,
    "draft": _draft_raw,
    "alive": _alive_raw,
}

#: PostgreSQL's answers that a transaction lost a race and may simply be run again
#: (a deadlock, a serialization failure): nothing of it was committed.
RETRY_STATES = ("40P01", "40001")
RETRIES = 3


def write(store: Store, ops: Sequence[tuple[str, tuple[Any, ...]]]) -> None:
    """Several writes of the log (``(name, args)``, names of :data:`WRITES` and
    :data:`CORE_WRITES`) in one transaction, in order — a group commit, all or
    nothing: one refused write refuses the whole batch, and the caller retries the
    writes one by one. A batch of moves, drafts, results and heartbeats only (the
    usual one) opens no ORM session. A batch the database chose as a deadlock's
    victim is run again (at 1,000 games on two processes some were, and every write
    in them, the joins' among them, failed: ``bench/server.py``)."""
    for attempt in range(RETRIES):
        try:
            _write(store, ops)
            return
        except OperationalError as exc:
            state = getattr(exc.orig, "sqlstate", None)
            if state not in RETRY_STATES or attempt == RETRIES - 1:
                raise
            time.sleep(0.02 * (attempt + 1))


#: The writes :func:`write_now` takes: a move's and a draft's (the heartbeat's goes
#: off the loop, with the checkpoint it brings).
NOW_WRITES = frozenset({"append", "draft"})


def write_now(store: Store, ops: Sequence[tuple[str, tuple[Any, ...]]]) -> None:
    """SQLite: a batch of moves and drafts (:data:`NOW_WRITES`) written at once on the
    caller's thread — the live games' event loop — only if nothing needs waiting for:
    the write lock free this instant, no disk sync, no checkpoint (``Store.passing``
    with ``now``): tens of microseconds, less than handing it to a thread costs.
    Otherwise :class:`~meldtour.store.db.Busy`, with nothing written (write it with
    :func:`write` off the loop). A refused write refuses the batch, as :func:`write`."""
    with store.passing(now=True) as raw:
        for name, args in ops:
            PASSING_WRITES[name](raw, *args)


# On PostgreSQL, a batch of moves in play, drafts and heartbeats (nearly every batch)
# is one statement whatever its size: every game's counter and draft in one update,
# every move in one insert (two JSON texts of records, each one parameter: the driver
# adapts two strings, not eight arrays element by element); a heartbeat is one more. Written
# statement by statement, a batch of k moves was 2k round trips to the server on the
# writer thread — each one waiting for the interpreter's lock, which the event loop
# holds half the time at 1,000 games — so the writer fell behind, its batches grew
# and with them the wait (BENCHMARKS.md, "Cost per move"). The live log sends it from
# the event loop (:mod:`meldtour.store.passing_pg`), on a connection in autocommit:
# the statement alone is the batch's transaction, so it checks itself — unless it
# bumped as many games as its last parameter says, its last line fails
# (``invalid_text_representation``: the text ``refused: N`` cast to a number, the
# only way to make a plain SQL statement raise) and all of it is taken back.
BUMP_AND_ADD_CHECKED_SQL = (
    "WITH v AS (SELECT * FROM json_to_recordset(%s::json)"
    " AS t(id text, expect int, nxt int, draft json)),"
    " bumped AS (UPDATE live_game AS g"
    " SET moves = COALESCE(v.nxt, g.moves), draft = v.draft FROM v"
    " WHERE g.id = v.id AND (v.expect IS NULL OR g.moves = v.expect) RETURNING g.id),"
    ' added AS (INSERT INTO live_move (game_id, "index", move, at)'
    " SELECT m.g, m.i, m.m, m.a"
    " FROM json_to_recordset(%s::json) AS m(g text, i int, m json, a float8)"
    " WHERE m.g IN (SELECT id FROM bumped))"
    " SELECT CASE WHEN count(*) = %s THEN count(*)"
    " ELSE ('refused: ' || count(*))::bigint END FROM bumped"
)
#: The heartbeat (as :func:`_alive`: the process's own row, the week-old ones let go).
ALIVE_SQL = (
    "WITH gone AS (DELETE FROM live_node WHERE alive_at < %s)"
    " INSERT INTO live_node (id, alive_at, games) VALUES (%s, %s, %s::json)"
    " ON CONFLICT (id) DO UPDATE SET alive_at = EXCLUDED.alive_at, games = EXCLUDED.games"
)
#: The writes a batch on PostgreSQL takes in those statements: the live games' usual
#: ones, written hundreds of times a second.
BATCHED_WRITES = frozenset({"append", "draft", "alive"})


def batch_params(
    ops: Sequence[tuple[str, tuple[Any, ...]]],
) -> tuple[tuple[str, str], int, list[tuple[float, str, float, str]]] | None:
    """A batch of :data:`BATCHED_WRITES` as :data:`BUMP_AND_ADD_CHECKED_SQL`'s
    parameters but the last (the games' records and the moves', each one JSON text),
    the number of games it must bump (the last one), and :data:`ALIVE_SQL`'s
    parameters per heartbeat: each game's moves follow its counter, its draft is what
    the last of its writes left (a move clears it). None when a game's moves of the
    batch do not follow one another (refused: the writes one by one say why)."""
    per_game: dict[str, list[tuple[str, tuple[Any, ...]]]] = {}
    beats: list[tuple[float, str, float, str]] = []
    for name, args in sorted(ops, key=_in_order):  # the rows locked in the games' order
        if name == "alive":
            node, ids, at = str(args[0]), [str(g) for g in args[1]], float(args[2])
            beats.append((at - NODE_KEEP, node, at, jsontext.dumps(ids)))
        else:
            per_game.setdefault(args[0], []).append((name, args))
    bumps: list[dict[str, Any]] = []
    moves: list[dict[str, Any]] = []
    for gid, writes in per_game.items():
        first: int | None = None
        n = 0
        draft: Any = None
        for name, args in writes:
            if name == "append":
                index, move = args[1], args[2]
                if first is None:
                    first = index
                elif index != first + n:
                    return None
                n += 1
                draft = None
                at = move.get("at")
                moves.append(
                    {"g": gid, "i": index, "m": move, "a": None if at is None else float(at)}
                )
            else:
                draft = args[1]
        bumps.append(
            {
                "id": gid,
                "expect": first,
                "nxt": None if first is None else first + n,
                "draft": draft,
            }
        )
    return (jsontext.dumps(bumps), jsontext.dumps(moves)), len(bumps), beats


def _in_order(op: tuple[str, tuple[Any, ...]]) -> tuple[bool, str]:
    """A batch's writes game by game in the games' order, the heartbeat's last."""
    return (op[0] == "alive", _game_of(op))


def _game_of(op: tuple[str, tuple[Any, ...]]) -> str:
    """The game a write is for ("" for the heartbeat's, which names many)."""
    if op[0] == "alive":
        return ""
    first = op[1][0] if op[1] else ""
    return first if isinstance(first, str) else ""


def _write(store: Store, ops: Sequence[tuple[str, tuple[Any, ...]]]) -> None:
    if store.dialect == "sqlite" and all(name in PASSING_WRITES for name, _ in ops):
        with store.passing() as raw:
            for name, args in ops:
                PASSING_WRITES[name](raw, *args)
        if any(name == "alive" for name, _ in ops):
            store.checkpoint()  # once a second: what the passing writes leave undone
        return
    if store.dialect != "sqlite":
        # Game by game, in the games' order (each game's own in the order given): two
        # processes' batches lock the rows they share in one order, so neither waits
        # for the other while holding what the other waits for (SQLite: one writer).
        # The heartbeat last (its own process's row: it takes no part in the order).
        ops = sorted(ops, key=_in_order)
    if all(name in CORE_WRITES for name, _ in ops):
        with store.writing() as conn:
            for name, args in ops:
                CORE_WRITES[name](conn, *args)
        return
    with store.transaction() as s:
        for name, args in ops:
            if name in CORE_WRITES:
                CORE_WRITES[name](s.connection(), *args)
            else:
                WRITES[name](s, *args)


def load_table(store: Store, game_id: str) -> dict[str, Any] | None:
    """A table waiting for players, or None."""
    with store.transaction() as s:
        return online.load_live_table(s, game_id)


def waiting_tables(store: Store) -> list[str]:
    """The tables waiting for players, oldest first."""
    with store.transaction() as s:
        return online.live_table_ids(s)


@dataclass(frozen=True, slots=True)
class ListedTable:
    """A lobby table as the database has it: waiting for players (``live_table``) or
    its game in play (``live_game``, started and not over). ``config`` is
    ``TableConfig.to_json``; ``keys`` are the seats' token hashes (None: free)."""

    id: str
    config: dict[str, Any]
    names: list[str | None]
    keys: list[str | None]
    started: bool
    #: When the table was opened (seconds since the epoch) or its game started (the
    #: game's clock): to order the lobby, newest first.
    at: float


def lobby(store: Store, limit: int = 20) -> tuple[list[ListedTable], list[ListedTable]]:
    """The lobby of every server process: the tables waiting for players and the games
    in play (started, not over), newest first, at most ``limit`` each — one transaction.
    A row that does not describe a table (a header without its ``table``) is left out."""
    with store.transaction() as s:
        tables = s.execute(
            select(online.LiveTableRow.id, online.LiveTableRow.data, online.LiveTableRow.created_at)
            .order_by(online.LiveTableRow.created_at.desc(), online.LiveTableRow.id.desc())
            .limit(limit)
        ).all()
        rows = s.execute(
            select(LiveGameRow.id, LiveGameRow.header, LiveGameRow.started_at)
            .where(LiveGameRow.over.is_(False))
            .order_by(LiveGameRow.started_at.desc(), LiveGameRow.id.desc())
            .limit(limit)
        ).all()
    waiting = []
    for gid, data, created in tables:
        if isinstance(data, dict) and isinstance(data.get("config"), dict):
            waiting.append(
                ListedTable(
                    gid,
                    dict(data["config"]),
                    list(data.get("names") or []),
                    list(data.get("keys") or []),
                    False,
                    float(created or 0),
                )
            )
    playing = []
    for gid, header, started in rows:
        table = header.get("table") if isinstance(header, dict) else None
        if isinstance(table, dict) and "seats" in table:
            playing.append(
                ListedTable(
                    gid,
                    table,
                    list(table.get("names") or []),
                    list(table.get("keys") or []),
                    True,
                    float(started or 0),
                )
            )
    return waiting, playing


def load_game(store: Store, game_id: str) -> StoredGame | None:
    """Everything written for the game, or None."""
    with store.transaction() as s:
        row = s.get(LiveGameRow, game_id)
        if row is None:
            return None
        moves = s.scalars(
            select(LiveMoveRow.move)
            .where(LiveMoveRow.game_id == game_id)
            .order_by(LiveMoveRow.index)
        ).all()
        beats = [
            float(at)
            for at, ids in s.execute(_NODES).all()
            if isinstance(ids, list) and game_id in ids
        ]
        if row.alive_at is not None:  # a game logged before the heartbeat's own rows
            beats.append(row.alive_at)
        return StoredGame(
            header=dict(row.header),
            moves=[dict(m) for m in moves],
            draft=None if row.draft is None else dict(row.draft),
            result=None if row.result is None else dict(row.result),
            alive_at=max(beats, default=None),
            resumes=list(row.resumes or []),
        )


def unfinished_games(store: Store) -> list[str]:
    """The games started and not over, oldest first."""
    with store.transaction() as s:
        return list(
            s.scalars(
                select(LiveGameRow.id)
                .where(LiveGameRow.over.is_(False))
                .order_by(LiveGameRow.started_at, LiveGameRow.id)
            ).all()
        )


__all__ = [
    "GameLogError",
    "ListedTable",
    "StoredGame",
    "add_resume",
    "append_move",
    "finish_game",
    "load_game",
    "load_table",
    "lobby",
    "mark_alive",
    "put_draft",
    "save_table",
    "start_game",
    "unfinished_games",
    "waiting_tables",
    "write",
]
