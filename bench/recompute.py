"""A full recompute of what is published (issue 25): 100 events × 64 players.

    .venv/bin/python bench/recompute.py [--events 100] [--runs 3] [--pg URL] [--sqlite-only]
        [--keep DIR] [--postgresql-only]

Builds a season of ``--events`` Busan-style general divisions of 64 players (2 seatings
× 4 games at 16 tables, then the final of 4; every sheet entered through the use case
with computer players' scores, every division awarded), on SQLite (a temporary file)
and on PostgreSQL (a schema of its own). Then times, medians of ``--runs``:

- ``recompute``: :func:`meldtour.application.circuit.results.recompute_all` — every
  awarded division loaded, its final ranking computed from its sheets and compared
  with (or written over) the stored places, then every rating from nothing;
- ``places``: the same without the ratings;
- ``ranking``: the default ranking's table from the stored places;
- ``correction``: one sheet of the last event corrected after its awards and awarded
  again (the gate: figures before and after, the places, the awards, the ratings).

The build (the sheets) takes far longer than the figures and is not timed. With
``--keep DIR`` the season is built once and kept (SQLite in ``DIR``, PostgreSQL in the
schema ``bench_recompute_<events>``): a later run with the same ``--keep`` only
measures, e.g. on a quiet machine. Each figure is the wall time and, in brackets, this
process's CPU time (the database server's is not in it).
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from datetime import date
from pathlib import Path

from sqlalchemy import create_engine, text

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from meldtour import application as uc
from meldtour.application import circuit
from meldtour.application.circuit.results import recompute_all
from meldtour.store.db import Store, make_engine, open_store, upgrade
from tests.circuit_play import play_out

PG = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
NAMES = [f"선수{i:03d}" for i in range(400)]


def fresh(url: str) -> Store:
    engine = make_engine(url)
    upgrade(engine)
    engine.dispose()
    return open_store(url)


def build(store: Store, events: int) -> None:
    for e in range(events):
        slug = f"e{e:03d}"
        uc.create_tournament(
            store,
            "busan-2015",
            who="d",
            seed=e,
            slug=slug,
            date=f"{2025 + e // 60}-{1 + (e // 5) % 12:02d}-{1 + e % 5:02d}",
        )
        players = [NAMES[(e * 37 + i * 7) % len(NAMES)] for i in range(64)]
        uc.register_players(
            store,
            slug,
            [uc.PlayerEntry(n, "general", member_number=f"M{n}") for n in dict.fromkeys(players)],
            who="d",
        )
        uc.check_in_players(store, slug, [], who="d", everyone_but=True, division="general")
        play_out(store, slug, "general", seed=e)
        print(f"\r  built {e + 1}/{events}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)


def correct_last(store: Store, events: int, n: int) -> None:
    slug = f"e{events - 1:03d}"
    t = uc.read(store, slug)
    rnd = t.division("general").stages[0].rounds[-1]
    x = rnd.tables[0]
    lines = x.sheet.counted or x.sheet.games
    games = []
    for i, line in enumerate(lines, 1):
        p = list(line.points)
        p[0], p[1] = (p[1], p[0]) if n % 2 == 0 else (p[0], p[1])
        games.append(
            uc.GameEntry(
                i,
                tuple(p),
                tuple(line.penalties),
                {1: 2, 2: 1}.get(line.winner or 0, line.winner) if n % 2 == 0 else line.winner,
            )
        )
    with contextlib.suppress(uc.UseCaseError):
        uc.enter_sheet(
            store,
            slug,
            "general",
            rnd.number,
            x.number,
            games,
            who="d",
            why="bench",
            reaward=True,
            stage=1,
        )


def measure(store: Store, events: int, runs: int) -> dict[str, tuple[float, float]]:
    """Each figure's median wall time and this process's CPU time over ``runs``."""
    steps: dict[str, Callable[[int], object]] = {
        "places": lambda n: recompute_all(store, ratings=False),
        "recompute": lambda n: recompute_all(store),
        "ranking": lambda n: circuit.ranking_table(store, None, date(2027, 1, 1)),
        "correction": lambda n: correct_last(store, events, n),
    }
    out: dict[str, list[tuple[float, float]]] = {k: [] for k in steps}
    for n in range(runs):
        for key, step in steps.items():
            t0, c0 = time.perf_counter(), time.process_time()
            step(n)
            out[key].append((time.perf_counter() - t0, time.process_time() - c0))
    return {
        k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v))
        for k, v in out.items()
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--events", type=int, default=100)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--pg", default=PG)
    ap.add_argument("--sqlite-only", action="store_true")
    ap.add_argument("--postgresql-only", action="store_true")
    ap.add_argument("--keep", metavar="DIR", help="build once into DIR (and a kept schema)")
    args = ap.parse_args()
    with contextlib.ExitStack() as stack:
        where = args.keep or stack.enter_context(tempfile.TemporaryDirectory())
        Path(where).mkdir(parents=True, exist_ok=True)
        schema = f"bench_recompute_{args.events}" if args.keep else f"bench_{uuid.uuid4().hex[:10]}"
        backends = []
        if not args.postgresql_only:
            backends.append(("sqlite", f"sqlite:///{where}/recompute-{args.events}.db"))
        admin = None
        if not args.sqlite_only:
            backends.append(("postgresql", f"{args.pg}?options=-csearch_path%3D{schema}"))
            admin = create_engine(args.pg)
            with admin.begin() as conn:
                conn.execute(text(f'CREATE SCHEMA IF NOT EXISTS "{schema}"'))
        try:
            for kind, url in backends:
                store = fresh(url)
                built = "kept"
                if not uc.all_tournaments(store):
                    t0 = time.perf_counter()
                    build(store, args.events)
                    built = f"built in {time.perf_counter() - t0:.0f} s"
                figures = measure(store, args.events, args.runs)
                print(
                    f"{kind}: {args.events} events × 64 players ({built}): "
                    + ", ".join(f"{k} {w:.2f} s ({c:.2f} CPU)" for k, (w, c) in figures.items()),
                    flush=True,
                )
                store.close()
        finally:
            if admin is not None:
                if not args.keep:
                    with admin.begin() as conn:
                        conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
                admin.dispose()


if __name__ == "__main__":
    main()
