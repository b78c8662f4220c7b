"""A tournament's busiest moment: 100 scorers save their tables' sheets within a minute
while 300 phones watch the live standings.

    .venv/bin/python bench/busiest.py [--scorers 100] [--watchers 300] [--seconds 60]
                                      [--db URL] [--workers 1] [--phone-procs 3]

The server is the real app (``uvicorn meldtour.web.app:create_app --factory``, one
process, or ``--workers`` processes) on a free port of 127.0.0.1, on a temporary SQLite
database (or ``--db``, e.g. PostgreSQL, which must be empty). The tournament has 4 ×
``scorers`` players checked in and round 1 seated (``scorers`` tables of 4, two games
each). Each scorer posts its table's whole sheet once, at a moment drawn uniformly in
``--seconds``, through its table's scorer link (the JSON the score page sends); the
winner is seat 1 of the table in both games, so the save shows in the standings as that
player's 2 wins.

Each phone does what the standings page does: it holds the Server-Sent Events stream
(``/t/{slug}/standings/events?division=…``, reconnecting when a stream ends, with the
``Last-Event-ID`` of the table it has) and reads the standings from its ``standings``
events. With ``--fetch``, the phones do what the page did before: a stream without a
division, and on each ``hello`` or ``change`` event a fetch of
``/t/{slug}/standings/live`` (with the ETag it has). The standings are *current* for a
save and a phone from the first fragment that phone receives showing the save's winner
with 2 wins; the lag is measured from the moment the scorer got the answer to its save.

Figures: saves answered, refused or failed; saves missing from the database at the end
(read through the store); save round trip (median, p99, max); standings lag over every
(save, phone) pair (median, p95, p99, max, share within 2 s, pairs never seen);
fragments fetched; the machine's load average at the start and the end. The scorers
run in this process, the phones in ``--phone-procs`` processes (3) of their own, beside
the server on the same machine: they take CPU from it; phones of one process that
receive the same fragment (same ETag) share one parse of it. Bounded: at most 200
scorers, 1,000 phones, 300 s and 8 workers, traffic only to 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import httpx2 as httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from meldtour.web.director.security import Signer  # noqa: E402

from meldtour import application as usecases  # noqa: E402
from meldtour.tournament import StageFormat  # noqa: E402
from meldtour.web.config import DEV_SECRET  # noqa: E402
from meldtour.web.director.deps import open_web_store  # noqa: E402

SLUG = "busiest"
DIV = "open"
ROW = re.compile(r'data-player="(\d+)"[^>]*><td>[^<]*</td><td>.*?</td><td>(\d+)</td>')


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def prepare(url: str, tables: int) -> dict[int, tuple[str, int]]:
    """The tournament, seated; for each table its scorer link and its seat-1 player."""
    store = open_web_store(url)
    try:
        usecases.create_blank_tournament(
            store,
            who="bench",
            name="The busiest moment",
            slug=SLUG,
            divisions=[
                usecases.DivisionSpec(
                    DIV,
                    "Open",
                    4 * tables,
                    "japan",
                    (StageFormat("seatings", games=2, seatings=2, name="preliminaries"),),
                )
            ],
        )
        usecases.register_players(
            store,
            SLUG,
            [usecases.PlayerEntry(f"선수 {i}", DIV) for i in range(1, 4 * tables + 1)],
            who="bench",
        )
        usecases.check_in_players(
            store, SLUG, [str(i) for i in range(1, 4 * tables + 1)], who="bench"
        )
        t = usecases.seat(store, SLUG, DIV, None, who="bench").tournament
    finally:
        store.close()
    scorer = Signer(DEV_SECRET, "scorer")
    rnd = t.division(DIV).stages[0].rounds[0]
    return {
        table.number: (scorer.sign([SLUG, DIV, 0, rnd.number, table.number]), table.players[0])
        for table in rnd.tables
    }


def sheet() -> dict[str, Any]:
    return {
        "games": [
            {"points": [30, -10, -10, -10], "penalties": [0, 0, 0, 0], "winner": 1}
            for _ in range(2)
        ],
        "version": None,
    }


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def run_phones(
    base: str, csrf: str, ids: list[int], winners: frozenset[int], end: float, fetching: bool
) -> tuple[dict[int, dict[int, float]], int]:
    """Phones ``ids`` until ``end`` (time.monotonic, the same clock in every process):
    for each, when it first received a fragment showing each winner with 2 wins; and
    the number of fragments received (or fetched)."""
    seen: dict[int, dict[int, float]] = {w: {} for w in ids}
    fetched = [0]
    parsed: dict[str, frozenset[int]] = {}

    async def phones() -> None:
        async with httpx.AsyncClient(
            base_url=base,
            timeout=30,
            cookies={"mt_csrf": csrf},
            limits=httpx.Limits(
                max_connections=2 * len(ids) + 10, max_keepalive_connections=2 * len(ids) + 10
            ),
        ) as http:

            def show(w: int, etag: str, text: str) -> None:
                fetched[0] += 1
                now = time.monotonic()
                # Phones receiving the same fragment (same ETag, a hash of its text) share
                # one parse: the bench's own CPU is the machine's too.
                shown = parsed.get(etag) if etag else None
                if shown is None:
                    shown = frozenset(
                        int(p)
                        for p, wins in ROW.findall(text)
                        if int(p) in winners and int(wins) >= 2
                    )
                    if etag:
                        parsed[etag] = shown
                for p in shown - seen[w].keys():
                    seen[w][p] = now

            async def fetch(w: int, etag: list[str]) -> None:
                headers = {"If-None-Match": etag[0]} if etag[0] else {}
                r = await http.get(f"/t/{SLUG}/standings/live", headers=headers)
                if r.status_code != 200:
                    fetched[0] += 1
                    return
                etag[0] = r.headers.get("etag", "")
                show(w, etag[0], r.text)

            async def phone(w: int) -> None:
                etag = [""]
                url = (
                    f"/t/{SLUG}/standings/events"
                    if fetching
                    else f"/t/{SLUG}/standings/events?division={DIV}"
                )
                while time.monotonic() < end:
                    headers = {"Last-Event-ID": etag[0]} if etag[0] and not fetching else {}
                    try:
                        async with http.stream(
                            "GET", url, headers=headers, timeout=httpx.Timeout(60, read=60)
                        ) as r:
                            kind, data, event_id = "", [], ""
                            async for line in r.aiter_lines():
                                if line.startswith("event: "):
                                    kind = line[7:]
                                    if fetching and kind in ("hello", "change"):
                                        await fetch(w, etag)
                                elif kind == "standings" and line.startswith("data: "):
                                    data.append(line[6:])
                                elif kind == "standings" and line.startswith("id: "):
                                    event_id = line[4:]
                                elif line == "" and kind == "standings":
                                    etag[0] = event_id
                                    show(w, event_id, "\n".join(data))
                                    kind, data = "", []
                                if time.monotonic() >= end:
                                    break
                    except httpx.HTTPError:
                        await asyncio.sleep(1.0)

            tasks = [asyncio.create_task(phone(w)) for w in ids]
            await asyncio.sleep(max(0.0, end - time.monotonic()))
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(phones())
    return seen, fetched[0]


async def main(args: argparse.Namespace) -> dict[str, Any]:
    links = prepare(args.db, args.scorers)
    load_start = os.getloadavg()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = open(Path(args.tmp) / "uvicorn.log", "wb")  # noqa: SIM115
    env = {
        **os.environ,
        "MELDTOUR_DATABASE_URL": args.db,
        "MELDTOUR_ENV": "test",
        "PYTHONPATH": str(ROOT / "src"),
    }
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "meldtour.web.app:create_app",
            "--factory",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--log-level",
            "warning",
            "--workers",
            str(args.workers),
        ],
        cwd=args.tmp,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        csrf = "b" * 32  # the score page sends its CSRF cookie's token in a header
        async with httpx.AsyncClient(
            base_url=base,
            timeout=30,
            cookies={"mt_csrf": csrf},
            headers={"X-CSRF-Token": Signer(DEV_SECRET, "csrf").mac(csrf)},
            limits=httpx.Limits(
                max_connections=2 * args.watchers + args.scorers + 10,
                max_keepalive_connections=2 * args.watchers + args.scorers + 10,
            ),
        ) as http:
            for _ in range(300):
                try:
                    if (await http.get("/healthz")).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                await asyncio.sleep(0.1)
            acked: dict[int, float] = {}  # table -> when the scorer heard back
            winners = {p: table for table, (_tok, p) in links.items()}
            seen: list[dict[int, float]] = [{} for _ in range(args.watchers)]
            outcome: dict[str, int] = {"ok": 0, "refused": 0, "failed": 0}
            save_ms: list[float] = []
            fetched = [0]

            async def scorer(
                sender: httpx.AsyncClient, table: int, token: str, at: float, start: float
            ) -> None:
                await asyncio.sleep(max(0.0, start + at - time.monotonic()))
                sent = time.monotonic()
                try:
                    r = await sender.post(f"/score/{token}", json=sheet())
                except httpx.HTTPError:
                    outcome["failed"] += 1
                    return
                done = time.monotonic()
                if r.status_code == 200 and r.json().get("counted"):
                    outcome["ok"] += 1
                    acked[table] = done
                    save_ms.append(1000 * (done - sent))
                else:
                    outcome["refused"] += 1
                    if outcome["refused"] <= 3:
                        print("refused:", r.status_code, r.text[:300], file=sys.stderr)

            # The phones in --phone-procs processes of their own (real phones are other
            # devices): their event loops neither delay the scorers nor starve each other.
            connect = min(10.0, 2 + args.watchers / 50)
            start = time.monotonic() + connect
            end = start + args.seconds + args.settle
            chunks = [
                list(range(args.watchers))[n :: args.phone_procs] for n in range(args.phone_procs)
            ]
            ctx = multiprocessing.get_context("spawn")
            loop = asyncio.get_running_loop()
            with ProcessPoolExecutor(len(chunks), mp_context=ctx) as pool:
                phones = [
                    loop.run_in_executor(
                        pool, run_phones, base, csrf, chunk, frozenset(winners), end, args.fetch
                    )
                    for chunk in chunks
                ]
                rng = random.Random(args.seed)
                await asyncio.gather(
                    *(
                        scorer(http, table, tok, rng.uniform(0, args.seconds), start)
                        for table, (tok, _p) in links.items()
                    )
                )
                for part in await asyncio.gather(*phones):
                    for w, got in part[0].items():
                        seen[w] = got
                    fetched[0] += part[1]

        lags: list[float] = []
        missing_pairs = 0
        for table, at in acked.items():
            player = links[table][1]
            for w in range(args.watchers):
                when = seen[w].get(player)
                if when is None:
                    missing_pairs += 1
                else:
                    lags.append(max(0.0, when - at))
        store = open_web_store(args.db)
        try:
            lost = 0
            for table in acked:
                stored, _version, _key = usecases.get_sheet(store, SLUG, DIV, 1, table, stage=1)
                if stored.counted is None or stored.games[0].points != (30, -10, -10, -10):
                    lost += 1
        finally:
            store.close()
        pairs = len(acked) * args.watchers
        return {
            "scorers": args.scorers,
            "watchers": args.watchers,
            "seconds": args.seconds,
            "db": "sqlite" if args.db.startswith("sqlite") else "postgresql",
            "saves": outcome,
            "lost": lost,
            "save_ms": {
                "median": round(statistics.median(save_ms), 1) if save_ms else None,
                "p99": round(pct(save_ms, 0.99), 1),
                "max": round(max(save_ms), 1) if save_ms else None,
            },
            "lag_s": {
                "median": round(statistics.median(lags), 3) if lags else None,
                "p95": round(pct(lags, 0.95), 3),
                "p99": round(pct(lags, 0.99), 3),
                "max": round(max(lags), 3) if lags else None,
                "within_2s": round(sum(1 for x in lags if x <= 2.0) / pairs, 4) if pairs else None,
            },
            "pairs": pairs,
            "pairs_never_seen": missing_pairs,
            "fragments": fetched[0],
            "workers": args.workers,
            "phones": "fetch" if args.fetch else "push",
            "loadavg_start": [round(x, 2) for x in load_start],
            "loadavg_end": [round(x, 2) for x in os.getloadavg()],
        }
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def run() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scorers", type=int, default=100)
    ap.add_argument("--watchers", type=int, default=300)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--settle", type=float, default=10.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--db", default=None)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--phone-procs", type=int, default=3)
    ap.add_argument(
        "--fetch",
        action="store_true",
        help="phones as before 2026-11-30 03:30: the stream says 'change' and "
        "each phone fetches the standings",
    )
    args = ap.parse_args()
    if not (
        1 <= args.scorers <= 200
        and 1 <= args.watchers <= 1000
        and 1 <= args.seconds <= 300
        and 1 <= args.workers <= 8
        and 1 <= args.phone_procs <= 8
    ):
        ap.error("bounded: at most 200 scorers, 1,000 watchers, 300 s and 8 workers")
    with tempfile.TemporaryDirectory(prefix="busiest-") as tmp:
        args.tmp = tmp
        args.db = args.db or f"sqlite:///{Path(tmp) / 'busiest.db'}"
        result = asyncio.run(main(args))
    lag, ms = result["lag_s"], result["save_ms"]
    print(
        f"| {result['db']} | {args.scorers} scorers / {args.watchers} phones / "
        f"{args.seconds:g} s | {result['saves']['ok']} saved, {result['saves']['refused']} "
        f"refused, {result['saves']['failed']} failed, {result['lost']} lost | "
        f"{ms['median']} / {ms['p99']} / {ms['max']} ms | {lag['median']} / {lag['p95']} / "
        f"{lag['p99']} / {lag['max']} s | {100 * (lag['within_2s'] or 0):.1f} % "
        f"({result['pairs_never_seen']} never) | {result['fragments']} |"
    )
    print(json.dumps(result))


if __name__ == "__main__":
    run()
