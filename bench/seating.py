"""Seating quality and speed: the figures of issue 4.

    .venv/bin/python bench/seating.py [--seeds 3]

For each case: repeated meetings (beyond the first, over all pairs) of balanced
seating, the lower bound, random seating for comparison, the spread of first seats
per player, and the time (median over the seeds).
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
    table_sizes,
)

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
    args = parser.parse_args()
    print(f"{'players':>7} {'seatings':>8} {'tables':>12} {'balanced':>8} {'bound':>5} "
          f"{'target':>6} {'random':>6} {'firsts':>6} {'time s':>7}")
    ok = True
    for n, rounds, target in CASES:
        reps, rand, secs, spread = [], [], [], []
        for seed in range(args.seeds):
            start = time.perf_counter()
            plan = plan_seatings(range(1, n + 1), rounds, seed=seed)
            secs.append(time.perf_counter() - start)
            reps.append(repeats(plan))
            rand.append(repeats(plan_seatings(range(1, n + 1), rounds, seed=seed,
                                              method="random")))
            firsts = Counter(t[0] for s in plan for t in s.tables)
            counts = [firsts[p] for p in range(1, n + 1)]
            spread.append(max(counts) - min(counts))
        sizes = Counter(table_sizes(n))
        tables = " + ".join(f"{c}×{k}" for k, c in sorted(sizes.items(), reverse=True))
        worst = max(reps)
        print(f"{n:>7} {rounds:>8} {tables:>12} {worst:>8} "
              f"{repeat_lower_bound(n, rounds):>5} "
              f"{'' if target is None else target:>6} {statistics.median(rand):>6.0f} "
              f"{max(spread):>6} {statistics.median(secs):>7.2f}")
        if target is not None and worst > target:
            ok = False
        if n == 1000 and max(secs) > 10:
            ok = False
    print("all targets met" if ok else "A TARGET WAS MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
