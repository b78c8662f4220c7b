"""Quick play on real server processes (uvicorn) sharing PostgreSQL and Redis (issue
29): three guests wait through process A; A is killed (SIGKILL) and started again, a
second process B runs beside it; a fourth guest comes through B. Their pages' asks,
answered by either process, seat the four at one table — each once, each with a seat
of their own that both processes recognise."""

from __future__ import annotations

import re
import threading
import time
import uuid
from pathlib import Path

import httpx2 as httpx

from .test_cluster import REDIS
from .test_durable import App


def csrf(client: httpx.Client, base: str) -> str:
    page = client.get(f"{base}/play/quick?lang=en")
    found = re.search(r'name="csrf" value="([^"]+)"', page.text)
    assert found, page.text[:500]
    return found.group(1)


def join(client: httpx.Client, base: str, name: str) -> None:
    r = client.post(
        f"{base}/play/quick",
        data={
            "csrf": csrf(client, base),
            "preset": "standard",
            "turn_seconds": "30",
            "wait": "300",
            "name": name,
        },
    )
    assert r.status_code == 303 and r.headers["location"] == "/play/quick/wait", r.text


def test_the_queue_survives_a_killed_process_and_is_shared_with_another(
    pg_url: str, tmp_path: Path
) -> None:
    env = {"MELDTOUR_REDIS_URL": REDIS, "MELDTOUR_REDIS_PREFIX": f"q{uuid.uuid4().hex[:10]}"}
    a, b = App(pg_url, tmp_path, **env), App(pg_url, tmp_path, **env)
    guests = [httpx.Client(timeout=10) for _ in range(4)]
    again: App | None = None
    try:
        for i in range(3):
            join(guests[i], a.base, f"G{i}")
        state = guests[0].get(f"{a.base}/play/quick/state").json()
        assert state["state"] == "waiting" and state["waiting"] == 3 and not state["found"]
        a.kill()
        # A starts again (the same site: its database, its Redis prefix) beside B; the
        # waiting pages ask B meanwhile (a page that stops asking leaves the queue).
        started: list[App] = []
        starting = threading.Thread(target=lambda: started.append(App(pg_url, tmp_path, **env)))
        starting.start()
        while starting.is_alive():
            for g in guests[:3]:
                s = g.get(f"{b.base}/play/quick/state").json()
                assert s["state"] == "waiting" and not s["found"], s
            time.sleep(1)
        again = started[0]
        join(guests[3], b.base, "G3")
        seated: dict[int, dict[str, object]] = {}
        deadline = time.monotonic() + 30
        while len(seated) < 4:
            assert time.monotonic() < deadline, seated
            for i, g in enumerate(guests):
                if i in seated:
                    continue
                base = (again.base, b.base)[(i + len(seated)) % 2]
                s = g.get(f"{base}/play/quick/state").json()
                assert s["state"] in ("waiting", "seated"), s  # offered: still waiting
                if s["state"] == "seated":
                    seated[i] = s
            time.sleep(0.3)
        urls = {str(s["url"]) for s in seated.values()}
        assert len(urls) == 1, urls
        gid = urls.pop().rsplit("/", 1)[1]
        tokens = [g.cookies.get(f"meldtour_seat_{gid}") for g in guests]
        assert len(set(tokens)) == 4 and None not in tokens
        # Both processes show the table, and each guest their own seat on it.
        for i, g in enumerate(guests):
            for base in (again.base, b.base):
                page = g.get(f"{base}/play/t/{gid}?lang=en")
                assert page.status_code == 200, page.text[:300]
                assert re.search(r'data-seat="(\d)"', page.text), i
        seats = set()
        for g in guests:
            page = g.get(f"{b.base}/play/t/{gid}?lang=en")
            found = re.search(r'id="app" data-seat="(\d)"', page.text)
            assert found
            seats.add(found.group(1))
        assert seats == {"0", "1", "2", "3"}
        # Nobody waits any more.
        assert guests[0].get(f"{b.base}/play/quick/state").json() == {"state": "gone"}
    finally:
        for g in guests:
            g.close()
        for app in (a, b, again):
            if app is not None:
                app.stop()
