"""The rating's full recompute: 100 events × 64 players, from the store's records.

    .venv/bin/python bench/rating.py [--runs 5] [--events 100] [--pg URL]

Each event is a Busan-style general division (64 players: 2 seatings × 4 games at 16
tables, then a 3-game final of 4: 131 games, 33 rated tables), its players drawn from
400 people, dated over two years, awarded; the rows are written directly (the bench
times the rating, not the play). Then, on SQLite and PostgreSQL:

- **read**: :func:`~meldtour.application.circuit.pool_events` — every awarded division's
  counted games, who each registration is, the pools (the queries and the events built);
- **rate**: the pure :func:`~meldtour.tournament.rating.rate_pool` over them;
- **full**: :func:`~meldtour.application.circuit.rating_book` with its cache emptied —
  what a first reading after a correction costs (read + rate);
- **cached**: the same again, nothing changed (the read, and the cache keyed on it).

Medians of ``--runs`` runs (wall seconds, and this process's CPU seconds for the full
recompute: on a shared machine the wall time also holds the waits for a core).
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

from meldtour.application import circuit
from meldtour.application.circuit import rating as rating_module
from meldtour.core.rules import find_rules
from meldtour.store import codec
from meldtour.store.db import Store, open_or_create
from meldtour.store.models import (
    AwardRow,
    DivisionRow,
    GameRow,
    Player,
    RegistrationRow,
    RoundRow,
    ScoreSheetRow,
    StageRow,
    TournamentRow,
)
from meldtour.tournament.rating import rate_pool
from meldtour.tournament.simulate import plausible_game

PG = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
PEOPLE, FIELD = 400, 64
AS_OF = date(2027, 1, 1)
RULES = find_rules("krc-2015")


def _sheet(
    s: object,
    round_id: int,
    table: int,
    players: list[int],
    ngames: int,
    rng: random.Random,
    power: dict[int, float],
) -> None:
    sheet = ScoreSheetRow(
        round_id=round_id,
        table_number=table,
        players=players,
        status="counted",
        counted=True,
        version=1,
    )
    s.add(sheet)  # type: ignore[attr-defined]
    s.flush()  # type: ignore[attr-defined]
    for g in range(1, ngames + 1):
        pg = plausible_game(rng, len(players), RULES, [power[p] for p in players])
        s.add(
            GameRow(
                sheet_id=sheet.id,
                number=g,
                points=list(pg.points),  # type: ignore[attr-defined]
                penalties=list(pg.penalties),
                winner=pg.winner,
                counted_points=list(pg.points),
                counted_penalties=list(pg.penalties),
                counted_winner=pg.winner,
            )
        )


def store_season(store: Store, events: int, seed: int = 1) -> int:
    """``events`` awarded divisions; how many counted games."""
    rng = random.Random(seed)
    rules = codec.rules_data(RULES)
    formats = [{"kind": "seatings"}, {"kind": "final"}]
    games = 0
    with store.transaction() as s:
        people = [Player(name=f"P{i:04d}", created_at="") for i in range(PEOPLE)]
        s.add_all(people)
        s.flush()
        power = {i: rng.lognormvariate(0, 0.8) for i in range(1, FIELD + 1)}
        for e in range(events):
            day = date(2025, 1, 1) + timedelta(days=rng.randrange(730))
            t = TournamentRow(
                slug=f"e{e:03d}",
                name=f"E{e}",
                date=day.isoformat(),
                seed=e,
                template="busan-2015",
                created_at="",
                updated_at="",
            )
            s.add(t)
            s.flush()
            div = DivisionRow(
                tournament_id=t.id,
                position=0,
                key="general",
                name="G",
                cap=FIELD,
                eligibility="",
                rules=rules,
                formats=formats,
                ranking=None,
                keep_apart=[],
                groups_hard=False,
                late_entry=False,
                prizes=4,
                started=True,
            )
            s.add(div)
            s.flush()
            chosen = rng.sample(people, FIELD)
            s.add_all(
                [
                    RegistrationRow(
                        tournament_id=t.id,
                        division_id=div.id,
                        player_id=p.id,
                        number=n,
                        name=p.name,
                        tags=[],
                        generation=None,
                        status="checked_in",
                        late=False,
                    )
                    for n, p in enumerate(chosen, 1)
                ]
            )
            numbers = list(range(1, FIELD + 1))
            prelim = StageRow(
                division_id=div.id,
                position=0,
                format={},
                entrants=numbers,
                plan=[],
                dropped=[],
                lots=[],
                finished=True,
            )
            final = StageRow(
                division_id=div.id,
                position=1,
                format={},
                entrants=numbers[:4],
                plan=[],
                dropped=[],
                lots=[],
                finished=True,
            )
            s.add_all([prelim, final])
            s.flush()
            for r in (1, 2):
                rnd = RoundRow(stage_id=prelim.id, number=r, closed=True, advanced=[])
                s.add(rnd)
                s.flush()
                rng.shuffle(numbers)
                for tb in range(16):
                    _sheet(s, rnd.id, tb + 1, numbers[4 * tb : 4 * tb + 4], 4, rng, power)
                    games += 4
            rnd = RoundRow(stage_id=final.id, number=1, closed=True, advanced=[])
            s.add(rnd)
            s.flush()
            _sheet(s, rnd.id, 1, numbers[:4], 3, rng, power)
            games += 3
            s.add(
                AwardRow(
                    division_id=div.id, place=1, number=1, name="x", awarded_at=day.isoformat()
                )
            )
    return games


def measure(store: Store, runs: int) -> tuple[float, float, float, float, float, int]:
    read, rate, full, cached, full_cpu = [], [], [], [], []
    n = 0
    for _ in range(runs):
        start = time.perf_counter()
        with store.reading() as s:
            events = circuit.pool_events(s)["korea"]
        read.append(time.perf_counter() - start)
        start = time.perf_counter()
        book = rate_pool(events, AS_OF)
        rate.append(time.perf_counter() - start)
        n = len(book.lines) + len(book.provisional)
        rating_module._rated.cache_clear()
        start, cpu = time.perf_counter(), time.process_time()
        circuit.rating_book(store, "korea", AS_OF)
        full.append(time.perf_counter() - start)
        full_cpu.append(time.process_time() - cpu)
        start = time.perf_counter()
        again = circuit.rating_book(store, "korea", AS_OF)
        cached.append(time.perf_counter() - start)
        assert again.lines == book.lines
    return (
        statistics.median(read),
        statistics.median(rate),
        statistics.median(full),
        statistics.median(full_cpu),
        statistics.median(cached),
        n,
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--events", type=int, default=100)
    ap.add_argument("--pg", default=PG)
    args = ap.parse_args()
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
        f"{args.events} events × {FIELD} players (Busan general: 131 games, 33 rated "
        f"tables each); medians of {args.runs}"
    )
    print(
        "| database | games | people rated | read, s | rate, s | full recompute, s "
        "(this process's CPU) | cached, s |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    try:
        for name, url in backends:
            store = open_or_create(url)
            games = store_season(store, args.events)
            read, rate, full, cpu, cached, n = measure(store, args.runs)
            store.close()
            print(
                f"| {name} | {games:,} | {n} | {read:.3f} | {rate:.3f} | {full:.3f} "
                f"({cpu:.3f}) | {cached:.3f} |",
                flush=True,
            )
    finally:
        if admin is not None and len(backends) > 1:
            with admin.begin() as conn:
                conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
    return 0


if __name__ == "__main__":
    sys.exit(main())
