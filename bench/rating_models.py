"""Which rating predicts held-out results best: what is rated (a table of a round by the
stage's rule, each game by its points, the whole stage as one order) and with which
model (Glicko-2 over each table's pairs, one period per event; openskill's Plackett–Luce
or Bradley–Terry, table after table).

    .venv/bin/python bench/rating_models.py [--seasons 3] [--events 40] [--people 150]

Each season is a pool of ``--people`` players of a hidden strength (z ~ N(0, 1), a seat's
weight ``exp(0.8 z)``) who play ``--events`` events over two years: Japanese-
championship style (24 players, 5 seatings × 2 games at tables of 4) and Busan style
(32 players, 2 seatings × 4 games), regulars more often than the others. Every game is
:func:`~meldtour.tournament.simulate.plausible_game` (real tiles, the core's scoring; a
stronger seat wins more often and keeps fewer tiles when it loses). From the 16th event
on, each event is predicted from the ratings of the events before it only:

- **table pairs**: at each table of each round, the pairs the table's own order (wins,
  then points) separates, predicted right by the higher μ (the rating's job at the next
  seating);
- **event ρ**: Spearman's ρ between μ before the event and the event's final standing
  (its players ranked by wins, then points, over all its games: what the federation
  publishes);
- **strength ρ**: at the end, Spearman's ρ between μ and the hidden strength (players
  with 10 games or more).

Medians over the seasons; the same seasons for every variant.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import date, timedelta

from meldtour.core.rules import find_rules
from meldtour.tournament.rating import (
    MODEL,
    RatedEvent,
    RatingModel,
    TableGames,
    rate_pool,
    table_order,
)
from meldtour.tournament.simulate import plausible_game

START = date(2025, 1, 1)
RULES = find_rules("japan")
BURN_IN = 15


def season(seed: int, people: int, events: int) -> tuple[list[RatedEvent], dict[int, float]]:
    rng = random.Random(seed)
    z = {p: rng.gauss(0, 1) for p in range(1, people + 1)}
    activity = {p: rng.choice((1.0, 1.0, 3.0)) for p in z}
    days = sorted(START + timedelta(days=rng.randrange(730)) for _ in range(events))
    out = []
    for i, day in enumerate(days):
        busan = rng.random() < 0.4
        field, seatings, games = (32, 2, 4) if busan else (24, 5, 2)
        chosen: list[int] = []
        pool = list(z)
        while len(chosen) < field:
            p = rng.choices(pool, weights=[activity[q] for q in pool])[0]
            pool.remove(p)
            chosen.append(p)
        tables = []
        for r in range(1, seatings + 1):
            rng.shuffle(chosen)
            for t in range(field // 4):
                seat = tuple(chosen[4 * t : 4 * t + 4])
                played = []
                for g in range(1, games + 1):
                    pg = plausible_game(rng, 4, RULES, [math.exp(0.8 * z[p]) for p in seat])
                    totals = tuple(a - b for a, b in zip(pg.points, pg.penalties, strict=True))
                    played.append((g, totals, seat[pg.winner - 1]))
                tables.append(TableGames(1, r, t + 1, seat, tuple(played)))
        out.append(RatedEvent(f"e{i:03d}", day, "wins", 100, tuple(tables), frozenset({1})))
    return out, z


def as_stage(ev: RatedEvent) -> RatedEvent:
    """The whole event as one order (every player's wins and points over all games)."""
    players = tuple(sorted({p for t in ev.tables for p in t.players}))
    index = {p: i for i, p in enumerate(players)}
    games: list[tuple[int, tuple[int, ...], int]] = []
    for t in ev.tables:
        for _n, totals, winner in t.games:
            row = [0] * len(players)
            for p, x in zip(t.players, totals, strict=True):
                row[index[p]] = x
            games.append((len(games) + 1, tuple(row), winner))
    return replace(ev, tables=(TableGames(1, 1, 1, players, tuple(games)),))


def spearman(a: Sequence[float], b: Sequence[float]) -> float:
    def ranks(xs: Sequence[float]) -> list[float]:
        order = sorted(range(len(xs)), key=lambda i: xs[i])
        r = [0.0] * len(xs)
        for k, i in enumerate(order):
            r[i] = float(k)
        return r

    ra, rb = ranks(a), ranks(b)
    ma, mb = statistics.fmean(ra), statistics.fmean(rb)
    num = sum((x - ma) * (y - mb) for x, y in zip(ra, rb, strict=True))
    den = math.sqrt(sum((x - ma) ** 2 for x in ra) * sum((y - mb) ** 2 for y in rb))
    return num / den if den else 0.0


# --------------------------------------------------------------------------

Rater = Callable[[Sequence[RatedEvent], date], dict[int, float]]


def openskill(model: RatingModel) -> Rater:
    def rate(events: Sequence[RatedEvent], day: date) -> dict[int, float]:
        book = rate_pool(events, day, model)
        return {r.person: r.mu for r in (*book.lines, *book.provisional)}

    return rate


PL = replace(MODEL, family="plackett-luce")
G2 = replace(MODEL, family="glicko-2")
#: Each variant and the μ of a player it has not rated yet.
VARIANTS: dict[str, tuple[Rater, float]] = {
    "table, Plackett-Luce (meldtour)": (openskill(PL), MODEL.mu),
    "table, Plackett-Luce, no idle growth": (openskill(replace(PL, idle_sigma=0.0)), MODEL.mu),
    "table pairs, Glicko-2": (openskill(G2), MODEL.mu),
    "table pairs, Glicko-2, no idle growth": (openskill(replace(G2, idle_sigma=0.0)), MODEL.mu),
    "game by points, Glicko-2": (openskill(replace(G2, unit="game")), MODEL.mu),
    "stage standing, Glicko-2": (openskill(replace(G2, unit="stage")), MODEL.mu),
    "game by points, Plackett-Luce (before)": (openskill(replace(PL, unit="game")), MODEL.mu),
    "table, Plackett-Luce, β × 2": (openskill(replace(PL, beta=2 * MODEL.beta)), MODEL.mu),
    "stage standing as one order, Plackett-Luce": (openskill(replace(PL, unit="stage")), MODEL.mu),
    "table, Bradley-Terry": (openskill(replace(MODEL, family="bradley-terry")), MODEL.mu),
}


def score(
    rater: Rater, default: float, events: list[RatedEvent], z: dict[int, float]
) -> tuple[float, ...]:
    right, total = 0.0, 0
    rhos = []
    for k in range(BURN_IN, len(events)):
        ev = events[k]
        mu = rater(events[:k], ev.day - timedelta(days=1))
        for t in ev.tables:
            order = table_order(t, ev.mode, ev.win_points)
            place = {p: i for i, g in enumerate(order) for p in g}
            for i, a in enumerate(t.players):
                for b in t.players[i + 1 :]:
                    if place[a] == place[b]:
                        continue
                    total += 1
                    ma, mb = mu.get(a, default), mu.get(b, default)
                    if ma == mb:
                        right += 0.5
                    elif (ma > mb) == (place[a] < place[b]):
                        right += 1
        standing = table_order(as_stage(ev).tables[0], "wins")
        final = {p: -i for i, g in enumerate(standing) for p in g}
        players = sorted(final)
        rhos.append(spearman([mu.get(p, default) for p in players], [final[p] for p in players]))
    end = rater(events, events[-1].day)
    games: dict[int, int] = {}
    for ev in events:
        for t in ev.tables:
            for p in t.players:
                games[p] = games.get(p, 0) + len(t.games)
    known = [p for p in end if games.get(p, 0) >= 10]
    strength = spearman([end[p] for p in known], [z[p] for p in known])
    return right / total, statistics.fmean(rhos), strength


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seasons", type=int, default=3)
    ap.add_argument("--events", type=int, default=40)
    ap.add_argument("--people", type=int, default=150)
    ap.add_argument("--first-season", type=int, default=1, help="the first season's seed")
    ap.add_argument("--only", default="", help="the variants whose name has this text")
    args = ap.parse_args()
    seasons = [
        season(s, args.people, args.events)
        for s in range(args.first_season, args.first_season + args.seasons)
    ]
    print(
        f"{args.seasons} seasons × {args.events} events, {args.people} people; "
        f"predicted from event {BURN_IN + 1} on from the events before"
    )
    print(f"{'variant':42} {'table pairs':>11} {'event ρ':>8} {'strength ρ':>10} {'s':>6}")
    for name, (rater, default) in VARIANTS.items():
        if not any(x.strip() in name for x in args.only.split("|")):
            continue
        start = time.perf_counter()
        got = [score(rater, default, evs, z) for evs, z in seasons]
        took = time.perf_counter() - start
        pairs, rho, strength = (statistics.median(x) for x in zip(*got, strict=True))
        print(f"{name:42} {pairs:11.4f} {rho:8.4f} {strength:10.4f} {took:6.1f}")


if __name__ == "__main__":
    main()
