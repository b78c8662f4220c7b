"""The circuit's figures: the ranking over 5,000 people and 200 tournaments, and the
rating update after a 128-player event.

    .venv/bin/python bench/ranking.py [--runs 5] [--pg URL]

- Ranking, pure: :func:`national_ranking` over 200 tournaments of 50–150 players drawn
  from 5,000 people (about 20,000 results), default numbers (best 4, half-life 365).
- Ranking, from the database: the same places stored as the awards store them (a
  registration and a final place each), then ``application.circuit.ranking_table``:
  the query, the pure function and the lines with their events, as the ranking page
  and ``meldtour ranking --json`` call it.
- Rating: a 128-player division (4 seatings × 2 games at 32 tables: 256 games) played
  by the engine, stored, then awarded — the use case that rates its games (one
  transaction: load, rate, write 128 ratings, store the places); and the pure rating
  of the same games alone.

Medians of ``--runs`` runs each, wall time and this process's CPU time (on a shared
machine the wall time also holds the waits for a core; PostgreSQL's own CPU is not
in the CPU figure).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
import uuid
from datetime import date, timedelta
from pathlib import Path

from sqlalchemy import create_engine, text

from meldtour import application as uc
from meldtour.application import circuit
from meldtour.store import circuit as circuit_rows
from meldtour.store.db import Store, open_or_create
from meldtour.store.models import AwardRow, DivisionRow, Player, RegistrationRow, TournamentRow
from meldtour.tournament import Division, StageFormat, Tournament
from meldtour.tournament.ranking import TournamentResult, national_ranking
from meldtour.tournament.rating import RatedEvent, TableGames, rate_pool

PG = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
PEOPLE, EVENTS = 5000, 200
AS_OF = date(2026, 6, 1)


def events(seed: int = 1) -> list[tuple[str, date, list[int]]]:
    """200 tournaments over two years: (key, date, people in place order)."""
    rng = random.Random(seed)
    out = []
    for i in range(EVENTS):
        field = rng.randint(50, 150)
        out.append(
            (
                f"t{i:03d}",
                AS_OF - timedelta(days=rng.randrange(730)),
                rng.sample(range(1, PEOPLE + 1), field),
            )
        )
    return out


def pure_ranking(evs: list[tuple[str, date, list[int]]], runs: int) -> tuple[float, float, int]:
    results = [
        TournamentResult(k, d, "national", {p: i for i, p in enumerate(order, 1)})
        for k, d, order in evs
    ]
    times, cpu, n = [], [], 0
    for _ in range(runs):
        start, c0 = time.perf_counter(), time.process_time()
        n = len(national_ranking(results, AS_OF))
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - c0)
    return statistics.median(times), statistics.median(cpu), n


def store_events(store: Store, evs: list[tuple[str, date, list[int]]]) -> None:
    """The places as the awards leave them (rows written directly: the bench times the
    reading, not 200 tournaments' play)."""
    with store.transaction() as s:
        people = [Player(name=f"P{i:04d}", created_at="") for i in range(1, PEOPLE + 1)]
        s.add_all(people)
        s.flush()
        pid = {i: p.id for i, p in enumerate(people, 1)}
        for k, d, order in evs:
            t = TournamentRow(
                slug=k,
                name=k,
                date=d.isoformat(),
                seed=0,
                template="bench",
                created_at="",
                updated_at="",
            )
            s.add(t)
            s.flush()
            div = DivisionRow(
                tournament_id=t.id,
                position=0,
                key="open",
                name="Open",
                cap=len(order),
                eligibility="",
                rules={},
                formats=[],
                ranking=None,
                keep_apart=[],
                groups_hard=False,
                late_entry=False,
                prizes=1,
                started=True,
            )
            s.add(div)
            s.flush()
            regs = [
                RegistrationRow(
                    tournament_id=t.id,
                    division_id=div.id,
                    player_id=pid[p],
                    number=n,
                    name=f"P{p:04d}",
                    tags=[],
                    generation=None,
                    status="checked_in",
                    late=False,
                )
                for n, p in enumerate(order, 1)
            ]
            s.add_all(regs)
            s.flush()
            s.add(
                AwardRow(
                    division_id=div.id,
                    place=1,
                    number=1,
                    name=regs[0].name,
                    awarded_at=d.isoformat(),
                )
            )
            circuit_rows.store_results(s, div.id, [(r.id, r.number) for r in regs], len(regs))


def stored_ranking(store: Store, runs: int) -> tuple[float, float, int]:
    """(wall seconds, this process's CPU seconds, lines), medians."""
    times, cpu, n = [], [], 0
    for _ in range(runs):
        start, c0 = time.perf_counter(), time.process_time()
        n = len(circuit.ranking_table(store, None, AS_OF).lines)
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - c0)
    return statistics.median(times), statistics.median(cpu), n


def event_128(seed: int) -> Tournament:
    from meldtour.core.rules import find_rules
    from meldtour.tournament import check_in, register, start_division, start_stage
    from meldtour.tournament.simulate import play_round

    div = Division(
        "open",
        "Open",
        128,
        find_rules("krc-2015"),
        (StageFormat("seatings", games=2, seatings=4),),
        prizes=4,
    )
    t = Tournament("Big", "2026-05-01", (div,), seed=seed)
    for i in range(1, 129):
        t = register(t, "open", f"R{seed}-{i}").tournament
        t = check_in(t, i).tournament
    t = start_division(t, "open").tournament
    t = start_stage(t, "open").tournament
    for _ in range(4):
        t = play_round(t, "open", seed).tournament
    return t


def _rated(t: Tournament) -> RatedEvent:
    """The division's counted tables as the rating reads them (registration numbers
    for people)."""
    tables = []
    for i, st in enumerate(t.division("open").stages):
        for rnd in st.rounds:
            for tb in rnd.tables:
                games = tuple(
                    (g.game, tuple(g.total(p) for p in g.players), g.winner)
                    for g in rnd.results()
                    if g.table == tb.number
                )
                tables.append(TableGames(i, rnd.number, tb.number, tb.players, games))
    return RatedEvent("big/open", date(2026, 5, 1), "wins", 100, tuple(tables), frozenset({0}))


def rating_times(store: Store, runs: int) -> tuple[float, float, float]:
    """(wall and CPU seconds for the awards use case of a 128-player event — the
    rating is derived, no longer written there —, seconds to rate its games in memory),
    medians."""
    from meldtour.store.repository import Loaded, save

    full, cpu, pure = [], [], []
    for k in range(runs):
        t = event_128(k + 1)
        slug = f"big{k}"
        with store.transaction() as s:
            row = TournamentRow(
                slug=slug,
                name=t.name,
                date=t.date,
                seed=t.seed,
                template="bench",
                created_at="",
                updated_at="",
            )
            s.add(row)
            s.flush()
            save(
                s,
                Loaded(row, Tournament(t.name, t.date, (), t.seed)),
                t,
                who="bench",
                action="bench",
            )
        start = time.perf_counter()
        rate_pool([_rated(t)], date(2026, 5, 1))
        pure.append(time.perf_counter() - start)
        start, c0 = time.perf_counter(), time.process_time()
        uc.award(store, slug, "open", who="bench")
        full.append(time.perf_counter() - start)
        cpu.append(time.process_time() - c0)
    return statistics.median(full), statistics.median(cpu), statistics.median(pure)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--pg", default=PG)
    args = ap.parse_args()
    evs = events()
    results = sum(len(o) for _, _, o in evs)
    mem, mem_cpu, n = pure_ranking(evs, args.runs)
    print(
        f"ranking, pure: {PEOPLE:,} people, {EVENTS} tournaments, {results:,} results, "
        f"{n:,} lines: {mem:.3f} s ({mem_cpu:.3f} s CPU; medians of {args.runs})"
    )
    tmp = Path(tempfile.mkdtemp())
    backends = [("sqlite (WAL)", f"sqlite:///{tmp / 'bench.db'}")]
    schema = f"bench_{uuid.uuid4().hex[:8]}"
    admin = None
    try:
        admin = create_engine(args.pg)
        with admin.begin() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
        backends.append(("postgresql", f"{args.pg}?options=-csearch_path%3D{schema}"))
    except Exception as exc:
        print(f"PostgreSQL skipped: {exc}", file=sys.stderr)
    print(
        "| database | ranking 5,000 people × 200 tournaments, s (CPU) "
        "| awards of a 128-player event (rating update), s (CPU) | rating its 256 games "
        "in memory, s |"
    )
    print("|---|---:|---:|---:|")
    try:
        for name, url in backends:
            store = open_or_create(url)
            store_events(store, evs)
            rank_s, rank_cpu, lines = stored_ranking(store, args.runs)
            assert lines == n, (lines, n)
            award_s, award_cpu, rate_s = rating_times(store, args.runs)
            store.close()
            print(
                f"| {name} | {rank_s:.3f} ({rank_cpu:.3f}) | {award_s:.3f} ({award_cpu:.3f})"
                f" | {rate_s:.3f} |",
                flush=True,
            )
    finally:
        if admin is not None and len(backends) > 1:
            with admin.begin() as conn:
                conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
    return 0


if __name__ == "__main__":
    sys.exit(main())
