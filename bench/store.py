"""The store's figures: score-sheet saves per second on SQLite and PostgreSQL, and
the time to compute standings for 1,000 players × 10 games.

    .venv/bin/python bench/store.py [--saves 200] [--pg URL]

A save is the use case a tablet calls: one transaction that reads the tournament
(a 64-player division, 16 tables), enters a table's 4 games, checks and counts the
sheet, and writes it with its audit line. Standings: a 1,000-player division with 10
seatings of one game each, stored, then read back from the database and ranked.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

from sqlalchemy import create_engine, text

from meldtour import application as uc
from meldtour.store.db import Store, open_or_create
from meldtour.tournament import Division, StageFormat, Tournament, stage_standings
from meldtour.tournament.simulate import plausible_game

PG = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


def saves(store: Store, n: int) -> float:
    slug, _ = uc.create_tournament(store, "busan-2015", who="bench", slug="bench", seed=1)
    uc.register_players(
        store, slug, [uc.PlayerEntry(f"G{i}", "general") for i in range(64)], who="bench"
    )
    uc.check_in_players(store, slug, [], who="bench", everyone_but=True, division="general")
    t = uc.seat(store, slug, "general", 1, who="bench").tournament
    tables = t.division("general").stages[0].rounds[0].tables
    rules = t.division("general").rules
    rng = random.Random(1)
    sheets = []
    for _ in range(n):
        x = tables[rng.randrange(len(tables))]
        games = []
        for g in range(1, 5):
            pg = plausible_game(rng, len(x.players), rules)
            games.append(uc.GameEntry(g, pg.points, pg.penalties, pg.winner))
        sheets.append((x.number, games))
    start = time.perf_counter()
    for k, (number, games) in enumerate(sheets):
        uc.enter_sheet(store, slug, "general", 1, number, games, who="bench", why=f"save {k}")
    return n / (time.perf_counter() - start)


def big(players: int = 1000, seatings: int = 10) -> Tournament:
    from meldtour.core.rules import find_rules
    from meldtour.tournament import check_in, register, start_division, start_stage
    from meldtour.tournament.simulate import play_round

    div = Division(
        "open",
        "Open",
        players,
        find_rules("krc-2015"),
        (StageFormat("seatings", games=1, seatings=seatings),),
    )
    t = Tournament("Big", "2025-01-01", (div,), seed=1)
    for i in range(1, players + 1):
        t = register(t, "open", f"P{i}").tournament
    for i in range(1, players + 1):
        t = check_in(t, i).tournament
    t = start_division(t, "open").tournament
    t = start_stage(t, "open").tournament
    for _ in range(seatings):
        t = play_round(t, "open", 1).tournament
    return t


def standings_time(store: Store, t: Tournament) -> tuple[float, float]:
    """(seconds to rank in memory, seconds to read from the database and rank)."""
    from meldtour.store.models import TournamentRow
    from meldtour.store.repository import Loaded, save

    with store.transaction() as s:
        row = TournamentRow(
            slug="big",
            name=t.name,
            date=t.date,
            seed=t.seed,
            template="bench",
            created_at="",
            updated_at="",
        )
        s.add(row)
        s.flush()
        save(s, Loaded(row, Tournament(t.name, t.date, (), t.seed)), t, who="bench", action="bench")
    mem, full = [], []
    for _ in range(3):
        start = time.perf_counter()
        stage_standings(t, "open", 0)
        mem.append(time.perf_counter() - start)
        start = time.perf_counter()
        _, _, table = uc.standings(store, "big", "open")
        full.append(time.perf_counter() - start)
        assert len(table) == 1000 and all(x.games == 10 for x in table)
    return statistics.median(mem), statistics.median(full)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--saves", type=int, default=200)
    ap.add_argument("--pg", default=PG)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp())
    backends = [("sqlite (WAL)", f"sqlite:///{tmp / 'bench.db'}", None)]
    schema = f"bench_{uuid.uuid4().hex[:8]}"
    admin = None
    try:
        admin = create_engine(args.pg)
        with admin.begin() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
        backends.append(("postgresql", f"{args.pg}?options=-csearch_path%3D{schema}", schema))
    except Exception as exc:
        print(f"PostgreSQL skipped: {exc}", file=sys.stderr)
    t = big()
    print(
        "| database | sheet saves / s | standings 1,000 × 10, in memory s "
        "| standings 1,000 × 10, from the database s |"
    )
    print("|---|---:|---:|---:|")
    try:
        for name, url, _ in backends:
            store = open_or_create(url)
            rate = saves(store, args.saves)
            mem, full = standings_time(store, t)
            store.close()
            print(f"| {name} | {rate:.0f} | {mem:.3f} | {full:.3f} |", flush=True)
    finally:
        if admin is not None and len(backends) > 1:
            with admin.begin() as conn:
                conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
    return 0


if __name__ == "__main__":
    sys.exit(main())
