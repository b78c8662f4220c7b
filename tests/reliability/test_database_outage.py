"""PostgreSQL unavailable for a while, under the real server: a PRIVATE PostgreSQL
instance (initdb into a temporary folder, pg_ctl on a free port — the machine's own
PostgreSQL is never touched) is stopped while the app is in use.

Meanwhile every request that needs the database fails with a clear message — a 503 with
words in the reader's language and a Retry-After, never a traceback — and the pages that
do not need it still answer; nothing that was saved before is lost; and when the database
is back the service comes back by itself (the same server process, no restart), within
seconds."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx2 as httpx
import pytest

from meldtour import application as usecases

from .servers import Server, free_port
from .test_faults import DIV, SLUG, Setup, prepare, sheet_body, store_of, stored_k

PG_BIN = Path(os.environ.get("MELDTOUR_PG_BIN", "/usr/lib/postgresql/15/bin"))


class PrivatePostgres:
    """initdb + pg_ctl in a folder of its own, as the ``postgres`` user when run as root
    (PostgreSQL refuses to run as root)."""

    def __init__(self, where: Path) -> None:
        if not (PG_BIN / "initdb").exists():
            pytest.fail(f"no initdb in {PG_BIN} (set MELDTOUR_PG_BIN): this test needs it")
        self.dir = where / "pgdata"
        self.sock = where / "pgsock"
        self.port = free_port()
        self.user: list[str] = []
        if os.geteuid() == 0:
            self.user = ["runuser", "-u", "postgres", "--"]
            for d in (where, self.sock):
                d.mkdir(exist_ok=True)
                shutil.chown(d, "postgres")
        else:
            self.sock.mkdir(exist_ok=True)
        self.run(
            "initdb",
            "-D",
            str(self.dir),
            "-A",
            "trust",
            "-U",
            "postgres",
            "--no-sync",
            "-E",
            "UTF8",
            "--locale",
            "C.UTF-8",
        )

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def run(self, tool: str, *args: str) -> None:
        done = subprocess.run(
            [*self.user, str(PG_BIN / tool), *args], capture_output=True, timeout=120, text=True
        )
        assert done.returncode == 0, f"{tool}: {done.stdout}{done.stderr}"

    def start(self) -> None:
        self.run(
            "pg_ctl",
            "-D",
            str(self.dir),
            "-w",
            "-t",
            "60",
            "-l",
            str(self.dir.parent / "pg.log"),
            "-o",
            f"-p {self.port} -k {self.sock} -c listen_addresses=127.0.0.1 -c fsync=off",
            "start",
        )

    def stop(self) -> None:
        self.run("pg_ctl", "-D", str(self.dir), "-w", "-m", "fast", "stop")


@pytest.fixture()
def private_pg() -> Iterator[PrivatePostgres]:
    # Under /tmp itself: pytest's own temporary folders are closed to other users.
    where = Path(tempfile.mkdtemp(prefix="meldtour-pg-"))
    os.chmod(where, 0o755)
    try:
        pg = PrivatePostgres(where)
        pg.start()
        try:
            yield pg
        finally:
            subprocess.run(
                [*pg.user, str(PG_BIN / "pg_ctl"), "-D", str(pg.dir), "-m", "immediate", "stop"],
                capture_output=True,
            )
    finally:
        shutil.rmtree(where, ignore_errors=True)


def test_postgresql_away_for_a_while(private_pg: PrivatePostgres, tmp_path: Path) -> None:
    setup: Setup = prepare(private_pg.url, tmp_path)
    server = Server(private_pg.url, tmp_path).start()
    try:
        with setup.client(server) as http:
            for table in (1, 2):
                assert (
                    http.post(f"/score/{setup.tokens[table]}", json=sheet_body(table)).status_code
                    == 200
                )
            assert http.get(f"/t/{SLUG}/standings").status_code == 200

            private_pg.stop()
            down = time.monotonic()
            # Pages that need the database: 503 with words, in the reader's language.
            for lang, words in (
                ("en", "The database is not answering"),
                ("ko", "데이터베이스가 응답하지 않습니다"),
                ("ja", "データベースが今、応答していません"),
            ):
                r = http.get(f"/t/{SLUG}/standings?lang={lang}")
                assert r.status_code == 503, r.text[:300]
                assert words in r.text and "Traceback" not in r.text
                assert r.headers["retry-after"] == "5"
            r = http.post(f"/score/{setup.tokens[3]}", json=sheet_body(3))
            assert r.status_code == 503 and "데이터베이스" in r.json()["error"]  # default: ko
            r = http.post(f"/director/t/{SLUG}/d/{DIV}/close")
            assert r.status_code == 503 and "Traceback" not in r.text
            for path in (f"/t/{SLUG}", "/tournaments", f"/director/t/{SLUG}"):
                r = http.get(path)
                assert r.status_code == 503, (path, r.status_code, r.text[:200])
            # What does not need the database still answers.
            assert http.get("/healthz").status_code == 200
            assert http.get("/rules/japan").status_code == 200
            time.sleep(2.0)  # away for a while
            assert server.proc is not None and server.proc.poll() is None

            private_pg.start()
            back = time.monotonic()
            while True:  # the same server process: no restart
                try:
                    r = http.get(f"/t/{SLUG}/standings")
                except httpx.HTTPError:
                    r = None
                if r is not None and r.status_code == 200:
                    break
                assert time.monotonic() - back < 15, "the service did not come back"
                time.sleep(0.2)
            recovered = time.monotonic() - back
            print(
                f"\ndatabase away {back - down:.1f} s; service back {recovered:.2f} s "
                "after the database"
            )
            assert http.post(f"/score/{setup.tokens[3]}", json=sheet_body(3)).status_code == 200
        store = store_of(private_pg.url)
        try:  # nothing lost, nothing of the refused requests half-done
            assert [stored_k(store, n) for n in (1, 2, 3, 4)] == [1, 2, 3, None]
            assert not usecases.read(store, SLUG).division(DIV).stages[0].rounds[0].closed
        finally:
            store.close()
        assert "Traceback" not in "".join(
            line for line in server.output().splitlines() if "HTTP/1.1" in line
        )
    finally:
        server.stop()
