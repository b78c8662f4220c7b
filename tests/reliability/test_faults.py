"""SIGKILL of the real server (uvicorn in a subprocess) in the middle of a score-sheet
save, a seating and a round close; restarted on the same database, every committed thing
is there and nothing is half-written — checked through the store.

Two ways into "the middle":

* timing (SQLite and PostgreSQL): four scorers save their tables' sheets as fast as the
  server answers, each save writing one number ``k`` into every cell it sends (and
  ``why = "k"`` into the audit), and the server is killed at a random moment. After the
  restart, every sheet is one save's whole (all its games carry one ``k``), the save the
  scorer was last told about (or the one in flight) is the one stored, the audit holds a
  line for exactly the saves that are stored or were stored before, and the service goes on.
  The same for a round close and a seating, killed after 0 to 150 ms.
* a lock (PostgreSQL): the test locks the ``audit_log`` table, so the server's
  transaction stops at its audit insert — after it has written the sheet (or the round's
  tables); the server is killed there; once the lock goes the transaction is rolled back:
  nothing of it is stored, and the same request succeeds after the restart.
"""

from __future__ import annotations

import contextlib
import os
import random
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from sqlalchemy import create_engine, text

from meldtour import application as usecases
from meldtour.store.db import Store
from meldtour.web.config import DEV_SECRET
from meldtour.web.director import accounts
from meldtour.web.director.deps import CSRF_COOKIE, SESSION_COOKIE, open_web_store
from meldtour.web.security import Signer
from tests.store.backends import BACKENDS, PG_URL, database, pg_available

from .servers import Server

SLUG = "faults"
DIV = "club"
PLAYERS = 16
TABLES = PLAYERS // 4
ATTEMPTS = int(os.environ.get("MELDTOUR_KILLS", "1"))  # kills during the saves


@dataclass
class Setup:
    url: str
    where: Path
    tokens: dict[int, str]
    cookies: dict[str, str]
    headers: dict[str, str]

    def client(self, server: Server) -> httpx.Client:
        return httpx.Client(
            base_url=server.base, cookies=self.cookies, headers=self.headers, timeout=10
        )


def prepare(url: str, where: Path) -> Setup:
    """A club night with 16 players checked in and round 1 seated; a director."""
    store = open_web_store(url)
    try:
        boss = accounts.create(store, "boss", "a long secret 1")
        usecases.create_tournament(store, "club-night", who="boss", name="Faults", slug=SLUG)
        usecases.register_players(
            store,
            SLUG,
            [usecases.PlayerEntry(f"선수 {i}", DIV) for i in range(1, PLAYERS + 1)],
            who="boss",
        )
        usecases.check_in_players(store, SLUG, [str(i) for i in range(1, PLAYERS + 1)], who="boss")
        usecases.seat(store, SLUG, DIV, None, who="boss")
    finally:
        store.close()
    scorer = Signer(DEV_SECRET, "scorer")
    tokens = {n: scorer.sign([SLUG, DIV, 0, 1, n]) for n in range(1, TABLES + 1)}
    cookie = "k" * 32
    cookies = {
        CSRF_COOKIE: cookie,
        SESSION_COOKIE: Signer(DEV_SECRET, "session").sign(
            {"a": boss.id, "exp": int(time.time()) + 3600, "n": "faults"}
        ),
    }
    return Setup(
        url, where, tokens, cookies, {"X-CSRF-Token": Signer(DEV_SECRET, "csrf").mac(cookie)}
    )


def sheet_body(k: int, games: int = 2) -> dict[str, Any]:
    """Every cell of the sheet says ``k`` (points stay under 10,000: k < 3,333)."""
    return {
        "games": [
            {"points": [3 * k, -k, -k, -k], "penalties": [0, 0, 0, 0], "winner": 1}
            for _ in range(games)
        ],
        "version": None,
        "why": f"k{k}",
    }


def store_of(url: str) -> Store:
    return open_web_store(url)


def stored_k(store: Store, table: int) -> int | None:
    """The one ``k`` of the table's stored sheet (None: blank); fails on a mixture."""
    sheet, _version, _key = usecases.get_sheet(store, SLUG, DIV, 1, table, stage=1)
    seen = {g.points for g in sheet.games}
    assert len(seen) == 1, f"table {table}: a sheet half-written: {seen}"
    points = seen.pop()
    if points[0] is None:
        return None
    k = -int(points[1] or 0)
    assert points == (3 * k, -k, -k, -k), points
    return k


@pytest.fixture(params=BACKENDS)
def setup(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Setup]:
    with database(request.param, tmp_path) as url:
        yield prepare(url, tmp_path)


def test_sigkill_during_sheet_saves_seating_and_close(setup: Setup) -> None:
    rng = random.Random(9)
    server = Server(setup.url, setup.where).start()
    try:
        for attempt in range(ATTEMPTS):
            sent: dict[int, list[int]] = {n: [] for n in setup.tokens}
            acked: dict[int, list[int]] = {n: [] for n in setup.tokens}
            stop = threading.Event()

            def scorer(
                table: int,
                attempt: int = attempt,
                sent: Any = sent,
                acked: Any = acked,
                stop: threading.Event = stop,
                server: Server = server,
            ) -> None:
                k = 800 * (table - 1) + 400 * attempt  # apart for each table and attempt
                with setup.client(server) as http:
                    while not stop.is_set():
                        k += 1
                        sent[table].append(k)
                        try:
                            r = http.post(f"/score/{setup.tokens[table]}", json=sheet_body(k))
                        except httpx.HTTPError:
                            return
                        assert r.status_code == 200, r.text
                        acked[table].append(k)

            threads = [threading.Thread(target=scorer, args=(n,)) for n in setup.tokens]
            for th in threads:
                th.start()
            deadline = time.monotonic() + 60
            while not all(len(a) >= 2 for a in acked.values()):
                assert time.monotonic() < deadline, acked
                time.sleep(0.02)
            time.sleep(rng.uniform(0.0, 0.3))
            server.kill()
            stop.set()
            for th in threads:
                th.join(20)
            assert all(acked.values()), acked

            store = store_of(setup.url)
            try:
                audit = usecases.audit_log(store, SLUG)
                whys = {line["why"] for line in audit}
                for table in setup.tokens:
                    k = stored_k(store, table)
                    assert k is not None
                    # The last save the scorer was told of, or the one then in flight.
                    assert k in (acked[table][-1], *sent[table][len(acked[table]) :]), (
                        table,
                        k,
                        acked[table][-3:],
                        sent[table][-3:],
                    )
                    for done in acked[table]:
                        assert f"k{done}" in whys, (table, done)
                    for later in sent[table]:
                        if later > k:
                            assert f"k{later}" not in whys, (table, later, k)
            finally:
                store.close()
            server = Server(setup.url, setup.where).start()

        # The round is closed and the next one seated, each killed at a random moment.
        store = store_of(setup.url)
        try:  # every sheet counted (a valid game), so that the round can close
            for table in setup.tokens:
                usecases.enter_sheet(
                    store,
                    SLUG,
                    DIV,
                    1,
                    table,
                    [usecases.GameEntry(g, (30, -10, -10, -10), (0, 0, 0, 0), 1) for g in (1, 2)],
                    who="boss",
                    why="before the close",
                )
        finally:
            store.close()
        for action, done in (("close", closed), ("seat", seated)):
            store = store_of(setup.url)
            try:
                baseline = sum(
                    1
                    for line in usecases.audit_log(store, SLUG)
                    if line["action"] in ("seat", "close_round")
                )
            finally:
                store.close()
            for _attempt in range(2):
                with setup.client(server) as http:

                    def post(http: httpx.Client = http, action: str = action) -> None:
                        with contextlib.suppress(httpx.HTTPError):
                            http.post(f"/director/t/{SLUG}/d/{DIV}/{action}")

                    th = threading.Thread(target=post)
                    th.start()
                    time.sleep(rng.uniform(0.0, 0.15))
                    server.kill()
                    th.join(20)
                store = store_of(setup.url)
                try:
                    finished = done(store, baseline)
                finally:
                    store.close()
                server = Server(setup.url, setup.where).start()
                if finished:
                    break
            else:  # never killed after the commit: do it once more, unharmed
                with setup.client(server) as http:
                    assert http.post(f"/director/t/{SLUG}/d/{DIV}/{action}").status_code == 303
            store = store_of(setup.url)
            try:
                assert done(store, baseline), action
            finally:
                store.close()
        with setup.client(server) as http:
            assert http.get(f"/t/{SLUG}/standings").status_code == 200
    finally:
        server.stop()


def _logged(store: Store) -> int:
    return sum(
        1 for line in usecases.audit_log(store, SLUG) if line["action"] in ("seat", "close_round")
    )


def closed(store: Store, baseline: int) -> bool:
    """Round 1 is closed, or not: and the audit says the same."""
    t = usecases.read(store, SLUG)
    rnd = t.division(DIV).stages[0].rounds[0]
    assert rnd.closed == (_logged(store) > baseline), (rnd.closed, baseline)
    return rnd.closed


def seated(store: Store, baseline: int) -> bool:
    """Round 2 is seated whole — every player at one table, every sheet blank — or not
    at all; and the audit says the same."""
    t = usecases.read(store, SLUG)
    rounds = t.division(DIV).stages[0].rounds
    logged = _logged(store) > baseline
    if len(rounds) == 1:
        assert not logged
        return False
    assert len(rounds) == 2 and logged
    players = [p for table in rounds[1].tables for p in table.players]
    assert sorted(players) == list(range(1, PLAYERS + 1))
    assert all(g.points[0] is None for table in rounds[1].tables for g in table.sheet.games)
    return True


# ---------------------------------------------------------------- PostgreSQL, by a lock


@pytest.fixture()
def pg_setup(tmp_path: Path) -> Iterator[Setup]:
    if not pg_available():
        pytest.fail(f"PostgreSQL does not answer at {PG_URL}: this test needs it")
    with database("postgresql", tmp_path) as url:
        yield prepare(url, tmp_path)


def test_sigkill_in_mid_transaction_rolls_back_whole_postgresql(pg_setup: Setup) -> None:
    setup = pg_setup
    engine = create_engine(setup.url)
    schema = setup.url.rsplit("%3D", 1)[1]
    server = Server(setup.url, setup.where).start()
    try:
        with setup.client(server) as http:  # a first save, committed
            assert http.post(f"/score/{setup.tokens[1]}", json=sheet_body(7)).status_code == 200
        for action, locked, path, body in (
            ("sheet", "score_sheet", f"/score/{setup.tokens[2]}", sheet_body(8)),
            ("close", "round", f"/director/t/{SLUG}/d/{DIV}/close", None),
            ("seat", "game", f"/director/t/{SLUG}/d/{DIV}/seat", None),
        ):
            if action == "close":
                store = store_of(setup.url)
                try:
                    for table in setup.tokens:
                        usecases.enter_sheet(
                            store,
                            SLUG,
                            DIV,
                            1,
                            table,
                            [
                                usecases.GameEntry(g, (30, -10, -10, -10), (0, 0, 0, 0), 1)
                                for g in (1, 2)
                            ],
                            who="boss",
                            why="before the close",
                        )
                finally:
                    store.close()
            audit_before = count_audit(setup.url)
            with engine.connect() as locker:
                tx = locker.begin()
                # Reads go on; the server's first write to this table waits.
                locker.execute(text(f'LOCK TABLE "{schema}".{locked} IN EXCLUSIVE MODE'))
                th = threading.Thread(target=_post, args=(setup, server, path, body))
                th.start()
                pid = _wait_blocked_writer(engine, locker, locked)
                server.kill()
                tx.rollback()
            th.join(20)
            _wait_gone(engine, pid)
            # Nothing of the killed transaction is there.
            store = store_of(setup.url)
            try:
                assert count_audit(setup.url) == audit_before, action
                assert stored_k(store, 1) == (7 if action == "sheet" else 10)
                rounds = usecases.read(store, SLUG).division(DIV).stages[0].rounds
                if action == "sheet":
                    assert stored_k(store, 2) is None
                elif action == "close":
                    assert not rounds[0].closed
                else:
                    assert rounds[0].closed and len(rounds) == 1
            finally:
                store.close()
            # Restarted, the same request goes through.
            server = Server(setup.url, setup.where).start()
            with setup.client(server) as http:
                r = http.post(path, json=body) if body else http.post(path)
                assert r.status_code in (200, 303), r.text
        store = store_of(setup.url)
        try:
            assert stored_k(store, 2) == 10  # the close's sheets, saved before it
            rounds = usecases.read(store, SLUG).division(DIV).stages[0].rounds
            assert rounds[0].closed and len(rounds) == 2
        finally:
            store.close()
    finally:
        server.stop()
        engine.dispose()


def _post(setup: Setup, server: Server, path: str, body: Any) -> None:
    try:
        with setup.client(server) as http:
            if body is None:
                http.post(path)
            else:
                http.post(path, json=body)
    except httpx.HTTPError:
        pass


def count_audit(url: str) -> int:
    store = store_of(url)
    try:
        return len(usecases.audit_log(store, SLUG))
    finally:
        store.close()


def _wait_blocked_writer(engine: Any, locker: Any, locked: str) -> int:
    """The server's backend, waiting for the lock at its first write to ``locked`` —
    inside a transaction that has written to other tables already."""
    deadline = time.monotonic() + 40
    me = locker.connection.dbapi_connection.info.backend_pid
    with engine.connect() as probe:
        while True:
            row = probe.execute(
                text(
                    "select pid from pg_stat_activity where wait_event_type = 'Lock' "
                    "and pid <> :me and (query ilike :update or query ilike :insert)"
                ),
                {"me": me, "update": f"UPDATE {locked} %", "insert": f"INSERT INTO {locked} %"},
            ).first()
            if row is not None:
                written = {
                    r[0]
                    for r in probe.execute(
                        text(
                            "select relation::regclass::text from pg_locks where pid = :p "
                            "and mode = 'RowExclusiveLock' and relation is not null"
                        ),
                        {"p": row.pid},
                    )
                }
                assert written - {locked}, f"blocked before writing: {written}"
                return int(row.pid)
            assert time.monotonic() < deadline, f"the server never reached {locked}"
            time.sleep(0.05)
            probe.rollback()  # the statistics views are a snapshot per transaction


def _wait_gone(engine: Any, pid: int) -> None:
    """The killed server's transaction ends (rolled back: its COMMIT never came)."""
    deadline = time.monotonic() + 20
    with engine.connect() as probe:
        while probe.execute(
            text("select 1 from pg_stat_activity where pid = :p and backend_xid is not null"),
            {"p": pid},
        ).first():
            assert time.monotonic() < deadline, "the dead server's transaction lingers"
            time.sleep(0.05)
            probe.rollback()
