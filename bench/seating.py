"""Seating quality and speed: the figures of issue 4, and the seating methods compared
on a simulated event.

    .venv/bin/python bench/seating.py [--seeds 3] [--event-only]

For each case: repeated meetings (beyond the first, over all pairs) of balanced
seating, the lower bound, random seating for comparison, the spread of first seats
per player, and the time (median over the seeds).

Then every method of a seatings stage on a 24-player, 10-seating event whose results
are plausible games (2 at each table per seating, players of unequal strength): the
mean standings gap at a table (over the tables of seatings 2-10, the rank of the
table's lowest-placed player minus its best's, ranks by points before the seating)
and the repeats, each the mean over the seeds.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter

from meldtour.tournament.seating import (
    plan_seatings,
    repeat_lower_bound,
    repeats,
    seaters_for,
    table_sizes,
)
from meldtour.tournament.simulate import simulate_seatings

#: (players, seatings, the issue's target for balanced seating's repeats)
CASES = [
    (64, 8, 0),
    (24, 5, 0),
    (64, 2, 0),
    (24, 10, 100),
    (1000, 10, None),
    (14, 8, None),
    (45, 8, None),
    (64, 21, 0),
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument(
        "--event-only", action="store_true", help="only the methods compared on a simulated event"
    )
    args = parser.parse_args()
    if args.event_only:
        event(args.seeds)
        return 0
    print(
        f"{'players':>7} {'seatings':>8} {'tables':>12} {'balanced':>8} {'bound':>5} "
        f"{'target':>6} {'random':>6} {'firsts':>6} {'time s':>7}"
    )
    ok = True
    for n, rounds, target in CASES:
        reps, rand, secs, spread = [], [], [], []
        for seed in range(args.seeds):
            start = time.perf_counter()
            plan = plan_seatings(range(1, n + 1), rounds, seed=seed)
            secs.append(time.perf_counter() - start)
            reps.append(repeats(plan))
            rand.append(repeats(plan_seatings(range(1, n + 1), rounds, seed=seed, method="random")))
            firsts = Counter(t[0] for s in plan for t in s.tables)
            counts = [firsts[p] for p in range(1, n + 1)]
            spread.append(max(counts) - min(counts))
        sizes = Counter(table_sizes(n))
        tables = " + ".join(f"{c}×{k}" for k, c in sorted(sizes.items(), reverse=True))
        worst = max(reps)
        print(
            f"{n:>7} {rounds:>8} {tables:>12} {worst:>8} "
            f"{repeat_lower_bound(n, rounds):>5} "
            f"{'' if target is None else target:>6} {statistics.median(rand):>6.0f} "
            f"{max(spread):>6} {statistics.median(secs):>7.2f}"
        )
        if target is not None and worst > target:
            ok = False
        if n == 1000 and max(secs) > 10:
            ok = False
    print("all targets met" if ok else "A TARGET WAS MISSED")
    print()
    event(args.seeds)
    return 0 if ok else 1


def event(seeds: int, players: int = 24, seatings: int = 10) -> None:
    """The methods on one simulated event, each figure the mean over the seeds."""
    print(
        f"{players} players, {seatings} seatings, 2 plausible games a table per seating "
        f"(mean over {seeds} seeds)"
    )
    print(f"{'method':>9} {'gap':>6} {'repeats':>7} {'time s':>7}")
    for seater in seaters_for("seatings"):
        gaps, reps, secs = [], [], []
        for seed in range(seeds):
            start = time.perf_counter()
            ev = simulate_seatings(players, seatings, seater.name, seed=seed)
            secs.append(time.perf_counter() - start)
            gaps.append(ev.gap())
            reps.append(repeats(ev.seatings))
        print(
            f"{seater.name:>9} {statistics.mean(gaps):>6.2f} {statistics.mean(reps):>7.1f} "
            f"{statistics.median(secs):>7.2f}"
        )


if __name__ == "__main__":
    sys.exit(main())
