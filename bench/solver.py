"""Solver speed: the exact DP against an exact ILP (HiGHS) on the same states, one run.

    .venv/bin/python bench/solver.py [--states N] [--seed S] [--full]

States are realistic (``tests/solver/solver_reference.random_state``: a board of real
melds dealt from one tile set, 0-80 tiles, jokers on the board and the rack, a rack of
5-20). Both methods solve every state in turn; their optima (tiles placed, value
added) must be identical. The table gives, per board-size bucket, the median, p99 and
max milliseconds of each method and the ratio of the medians. The ILP is the full
meld list with runs of at most 5 tiles (the same optimum, much faster for HiGHS);
``--full`` uses every run up to 13 tiles.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "solver"))

from solver_reference import ilp_solve, random_state

from meldtour.solver import solve_tiles

BUCKETS = ((0, 0), (1, 20), (21, 40), (41, 60), (61, 70), (71, 84))


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--states", type=int, default=400)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--full", action="store_true", help="ILP with runs up to 13 tiles")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    max_run = 13 if args.full else 5
    rows: list[tuple[int, float, float]] = []
    mismatches = 0
    solve_tiles((), (), False, False, 30)  # load the tables once
    for i in range(args.states):
        # Half the states drawn over 0-80 board tiles, half dense (60-80): dense
        # boards are where the work is.
        state = random_state(rng, None if i % 2 == 0 else rng.randint(60, 80))
        t0 = time.perf_counter()
        s = solve_tiles(state.board, state.rack, state.melded, False, 30)
        t1 = time.perf_counter()
        r = ilp_solve(state.board, state.rack, state.melded, 30, max_run=max_run)
        t2 = time.perf_counter()
        got = (s.placed, s.value) if s.placed else (0, 0)
        want = (r.placed, r.value) if r else (0, 0)
        if got != want:
            mismatches += 1
            print(f"MISMATCH state {i}: solver {got}, ILP {want}", file=sys.stderr)
        size = sum(len(m) for m in state.board)
        rows.append((size, (t1 - t0) * 1000, (t2 - t1) * 1000))

    print(f"{len(rows)} states, seed {args.seed}, ILP runs up to {max_run} tiles; "
          f"identical optima on {len(rows) - mismatches} of {len(rows)}")
    print()
    print("| board tiles | states | solver median | p99 | max | ILP median | p99 | max "
          "| median ratio |")
    print("|---|---|---|---|---|---|---|---|---|")
    for lo, hi in (*BUCKETS, (0, 84)):
        sel = [r for r in rows if lo <= r[0] <= hi]
        if not sel:
            continue
        dp = [r[1] for r in sel]
        ilp = [r[2] for r in sel]
        label = "all" if (lo, hi) == (0, 84) else (f"{lo}" if lo == hi else f"{lo}-{hi}")
        print(f"| {label} | {len(sel)} | {statistics.median(dp):.1f} | {_pct(dp, 0.99):.1f} "
              f"| {max(dp):.1f} | {statistics.median(ilp):.1f} | {_pct(ilp, 0.99):.1f} "
              f"| {max(ilp):.1f} | {statistics.median(ilp) / statistics.median(dp):.1f}× |")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
