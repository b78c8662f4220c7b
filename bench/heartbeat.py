"""The live games' heartbeat in the database: one row a process (``live_node``, as now)
against one row a game (``live_game.alive_at``, as until migration 0030).

    .venv/bin/python bench/heartbeat.py [--games 500] [--seconds 120] [--moves 250]
                                        [--pg URL] [--seed 1]

Two fresh databases of the same kind (a temporary SQLite file each, or two schemas of
the PostgreSQL at ``--pg``) each start ``games`` games in the live log, with real
headers (a table of four seats, the standard preset, a secret seed, the seats' key
hashes). Then, for each simulated second, in both databases in turn: ``moves`` moves
of random games in batches of one to three (``games.write``, the live log's own
writes: on SQLite its passing connection), then the heartbeat — in one database the
product's (``games.write`` of ``("alive", …)``: the process's row), in the other the
former statement over every game's row (on SQLite through the same passing
connection, and the checkpoint after it, as ``games.write`` did; on PostgreSQL the
former ``ALIVE_SQL`` with its ``FOR UPDATE SKIP LOCKED``). Timed: the heartbeat alone
and the second's writes in all (the moves included: a row a game also bloats the
table the moves update), wall time — on PostgreSQL most of the work is the server's,
which the wall time includes. Prints the medians and 90th percentiles and the ratio.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import text

from meldtour.live.table import SeatConfig, TableConfig, secret_seed
from meldtour.store import games
from meldtour.store.db import Store, make_engine, open_or_create

PG = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
#: The former heartbeat (a row a game), as it was written until migration 0030.
FORMER_SQLITE = "UPDATE live_game SET alive_at=? WHERE id IN (SELECT value FROM json_each(?))"
FORMER_PG = (
    "UPDATE live_game SET alive_at = :at WHERE id IN (SELECT id FROM live_game"
    " WHERE id = ANY(:ids) FOR UPDATE SKIP LOCKED)"
)
MAX_GAMES = 2000
MAX_SECONDS = 600


def header(rng: random.Random, now: float) -> dict[str, Any]:
    config = TableConfig.make("standard", [SeatConfig()] * 4, seed=secret_seed())
    names = [f"player {rng.randrange(10**6)}" for _ in range(4)]
    table = config.to_json()
    table["names"] = names
    table["keys"] = [hashlib.sha256(rng.randbytes(32)).hexdigest() for _ in range(4)]
    return {
        "rules": config.rules_json(),
        "players": names,
        "seed": config.seed,
        "started_at": now,
        "table": table,
    }


def former(store: Store, ids: list[str], at: float) -> None:
    if store.dialect == "sqlite":
        with store.passing() as raw:
            raw.execute(FORMER_SQLITE, (at, json.dumps(ids)))
        store.checkpoint()
    else:
        with store.writing() as conn:
            conn.execute(text(FORMER_PG), {"at": at, "ids": ids})


def product(node: str) -> Callable[[Store, list[str], float], None]:
    def beat(store: Store, ids: list[str], at: float) -> None:
        games.write(store, [("alive", (node, ids, at))])

    return beat


def run(a: argparse.Namespace, urls: list[str]) -> None:
    rng = random.Random(a.seed)
    now = 1_000_000.0
    stores = [open_or_create(u) for u in urls]
    ids = [f"g{i:05d}" for i in range(a.games)]
    headers = [header(rng, now) for _ in ids]
    size = len(json.dumps(headers[0]))
    for store in stores:
        for gid, h in zip(ids, headers, strict=True):
            games.start_game(store, gid, h)
    beats: list[Callable[[Store, list[str], float], None]] = [product(uuid.uuid4().hex), former]
    names = ["a row a process (now)", "a row a game (before)"]
    counts = dict.fromkeys(ids, 0)
    beat_ms: list[list[float]] = [[], []]
    second_ms: list[list[float]] = [[], []]
    for s in range(a.seconds):
        batches: list[list[tuple[str, tuple[Any, ...]]]] = []
        left = a.moves
        while left > 0:
            k = min(left, rng.randint(1, 3))
            chosen = rng.sample(ids, k)
            batch: list[tuple[str, tuple[Any, ...]]] = []
            for gid in chosen:
                move = {"seat": counts[gid] % 4, "action": "draw", "at": now + s}
                batch.append(("append", (gid, counts[gid], move)))
                counts[gid] += 1
            batches.append(batch)
            left -= k
        order = [0, 1] if s % 2 == 0 else [1, 0]
        for i in order:
            store = stores[i]
            t0 = time.perf_counter()
            for batch in batches:
                games.write(store, batch)
            t1 = time.perf_counter()
            beats[i](store, ids, now + s)
            t2 = time.perf_counter()
            beat_ms[i].append(1000 * (t2 - t1))
            second_ms[i].append(1000 * (t2 - t0))
    print(
        f"{stores[0].dialect}, {a.games} games (a header of {size} bytes), "
        f"{a.moves} moves a second, {a.seconds} seconds"
    )
    print("| heartbeat | beat median ms | p90 | a second's writes median ms | p90 |")
    print("|---|---:|---:|---:|---:|")
    for i in (0, 1):
        b, w = sorted(beat_ms[i]), sorted(second_ms[i])
        print(
            f"| {names[i]} | {statistics.median(b):.2f} | {b[int(0.9 * len(b))]:.2f} | "
            f"{statistics.median(w):.1f} | {w[int(0.9 * len(w))]:.1f} |"
        )
    med = statistics.median
    beat_ratio = med(beat_ms[1]) / med(beat_ms[0])
    second_ratio = med(second_ms[1]) / med(second_ms[0])
    print(f"ratio (before / now): beat {beat_ratio:.1f}×, a second's writes {second_ratio:.2f}×")
    for store in stores:
        store.engine.dispose()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--seconds", type=int, default=120)
    ap.add_argument("--moves", type=int, default=250, help="moves a simulated second")
    ap.add_argument("--pg", default=None, help="PostgreSQL URL (default: SQLite files)")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    if not 1 <= a.games <= MAX_GAMES or not 1 <= a.seconds <= MAX_SECONDS or a.moves < 0:
        sys.exit(f"--games is 1 to {MAX_GAMES}, --seconds 1 to {MAX_SECONDS}")
    if a.pg is None:
        with tempfile.TemporaryDirectory(prefix="meldtour-beat-") as tmp:
            run(a, [f"sqlite:///{Path(tmp) / n}.db" for n in ("now", "before")])
        return
    schemas = [f"beat_{uuid.uuid4().hex[:8]}" for _ in range(2)]
    admin = make_engine(a.pg)
    with admin.begin() as conn:
        for s in schemas:
            conn.execute(text(f"CREATE SCHEMA {s}"))
    try:
        sep = "&" if "?" in a.pg else "?"
        run(a, [f"{a.pg}{sep}options=-csearch_path%3D{s}" for s in schemas])
    finally:
        with admin.begin() as conn:
            for s in schemas:
                conn.execute(text(f"DROP SCHEMA {s} CASCADE"))
        admin.dispose()


if __name__ == "__main__":
    main()
