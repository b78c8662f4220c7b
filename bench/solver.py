"""Solver speed: the exact DP against an exact ILP (HiGHS) on the same states, one run.

    .venv/bin/python bench/solver.py [--states N] [--seed S] [--full]
    .venv/bin/python bench/solver.py --compare OLD_DIR [--previous PREV_DIR] [--empty E]
        [--repeat R] [--states N] [--seed S]

States are realistic (``tests/solver/solver_reference.random_state``: a board of real
melds dealt from one tile set, 0-80 tiles, jokers on the board and the rack, a rack of
5-20). Both methods solve every state in turn; their optima (tiles placed, value
added) must be identical. The table gives, per board-size bucket, the median, p99 and
max milliseconds of each method and the ratio of the medians. The ILP is the full
meld list with runs of at most 5 tiles (the same optimum, much faster for HiGHS);
``--full`` uses every run up to 13 tiles.

``--compare OLD_DIR`` times implementations instead of the ILP, in the same run, on the
same states, each state ``--repeat`` times in turn (the median per state): the solver
package in OLD_DIR (a copy of ``src/meldtour/solver`` at another commit, e.g. ``git
archive main src/meldtour/solver | tar -x -C /tmp/old``), this tree's Python modules,
and its compiled core when built (``make install``). Their optima must be identical.
``--previous PREV_DIR`` adds another copy of the package (e.g. the commit before a
change), compiled for the run with mypyc (``tools/build_solver.py``, about 10 s) as the
column ``previous``. ``--empty E`` adds E states with an empty board (a rack alone,
before and after the initial meld) to the bucket of 0 board tiles, drawn apart so that
the other states stay as they are.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "solver"))

from solver_reference import ilp_solve, random_state

from meldtour.solver import solve_tiles
from meldtour.solver.native import implementations

BUCKETS = ((0, 0), (1, 20), (21, 40), (41, 60), (61, 70), (71, 84))


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _load_old(folder: str) -> Callable[..., Any]:
    """``solve_tiles`` of the solver package copied into ``folder``."""
    init = Path(folder) / "__init__.py"
    spec = importlib.util.spec_from_file_location(
        "_old_solver", init, submodule_search_locations=[str(init.parent)]
    )
    assert spec is not None and spec.loader is not None, folder
    module = importlib.util.module_from_spec(spec)
    sys.modules["_old_solver"] = module
    spec.loader.exec_module(module)
    solve: Callable[..., Any] = module.solve_tiles
    return solve


def _load_previous(folder: str, dest: Path) -> Callable[..., Any]:
    """``solve_tiles`` of the solver package copied into ``folder``, compiled."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
    from build_solver import build_copy

    build_copy(Path(folder), "_previous_solver", dest)
    sys.path.insert(0, str(dest))
    solve: Callable[..., Any] = importlib.import_module("_previous_solver.exact").solve_tiles
    return solve


def compare(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory(prefix="meldtour-bench-") as tmp:
        return _compare(args, Path(tmp))


def _compare(args: argparse.Namespace, tmp: Path) -> int:
    rng = random.Random(args.seed)
    impls: dict[str, Callable[..., Any]] = {"old": _load_old(args.compare)}
    if args.previous:
        impls["previous"] = _load_previous(args.previous, tmp)
    impls.update(
        (name, m.solve_tiles) for name, m in sorted(implementations().items(), reverse=True)
    )
    for solve in impls.values():
        solve((), (), False, False, 30)  # load the tables once
    rows: list[tuple[int, dict[str, float]]] = []
    mismatches = 0
    states = [
        random_state(rng, None if i % 2 == 0 else rng.randint(60, 80)) for i in range(args.states)
    ]
    empty = random.Random(args.seed + 1)
    states += [random_state(empty, 0) for _ in range(args.empty)]
    for i, state in enumerate(states):
        times: dict[str, list[float]] = {name: [] for name in impls}
        answers = set()
        for _ in range(args.repeat):
            for name, solve in impls.items():
                t0 = time.perf_counter()
                s = solve(state.board, state.rack, state.melded, False, 30)
                times[name].append((time.perf_counter() - t0) * 1000)
                answers.add((s.placed, s.value))
        if len(answers) > 1:
            mismatches += 1
            print(f"MISMATCH state {i}: {sorted(answers)}", file=sys.stderr)
        # The added empty boards are a bucket of their own (-1), apart from "all".
        size = sum(len(m) for m in state.board) if i < args.states else -1
        rows.append((size, {name: statistics.median(t) for name, t in times.items()}))
    names = list(impls)
    ratios = [("old", n) for n in names[1:]]
    if "previous" in impls and "compiled" in impls:
        ratios.append(("previous", "compiled"))
    extra = f" and {args.empty} more with an empty board" if args.empty else ""
    print(
        f"{args.states} states{extra}, seed {args.seed}, each solved {args.repeat}× by "
        f"{', '.join(names)} (median per state); identical optima on "
        f"{len(rows) - mismatches} of {len(rows)}"
    )
    print()
    print(
        "| board tiles | states | "
        + " | ".join(f"{n} median | p99" for n in names)
        + " | "
        + " | ".join(f"{a}/{b} median" for a, b in ratios)
        + " |"
    )
    print("|---|---|" + "---|---|" * len(names) + "---|" * len(ratios))
    for lo, hi in (*BUCKETS, (0, 84), (-1, -1)):
        sel = [r[1] for r in rows if lo <= r[0] <= hi]
        if not sel:
            continue
        label = {(0, 84): "all", (-1, -1): "0, more"}.get((lo, hi)) or (
            f"{lo}" if lo == hi else f"{lo}-{hi}"
        )
        med = {n: statistics.median(r[n] for r in sel) for n in names}
        cells = [f"{med[n]:.2f} | {_pct([r[n] for r in sel], 0.99):.1f}" for n in names]
        quotients = [f"{med[a] / med[b]:.1f}×" for a, b in ratios]
        print(
            f"| {label} | {len(sel)} | " + " | ".join(cells) + " | " + " | ".join(quotients) + " |"
        )
    return 1 if mismatches else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--states", type=int, default=400)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--full", action="store_true", help="ILP with runs up to 13 tiles")
    parser.add_argument(
        "--compare",
        metavar="OLD_DIR",
        help="time an old copy of the solver package against this one",
    )
    parser.add_argument(
        "--previous",
        metavar="PREV_DIR",
        help="with --compare: another copy of the package, compiled for the run",
    )
    parser.add_argument(
        "--empty", type=int, default=0, help="with --compare: states with an empty board added"
    )
    parser.add_argument("--repeat", type=int, default=3, help="with --compare: runs per state")
    args = parser.parse_args()
    if args.compare:
        return compare(args)
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

    print(
        f"{len(rows)} states, seed {args.seed}, ILP runs up to {max_run} tiles; "
        f"identical optima on {len(rows) - mismatches} of {len(rows)}"
    )
    print()
    print(
        "| board tiles | states | solver median | p99 | max | ILP median | p99 | max "
        "| median ratio |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for lo, hi in (*BUCKETS, (0, 84)):
        sel = [r for r in rows if lo <= r[0] <= hi]
        if not sel:
            continue
        dp = [r[1] for r in sel]
        ilp = [r[2] for r in sel]
        label = "all" if (lo, hi) == (0, 84) else (f"{lo}" if lo == hi else f"{lo}-{hi}")
        print(
            f"| {label} | {len(sel)} | {statistics.median(dp):.1f} | {_pct(dp, 0.99):.1f} "
            f"| {max(dp):.1f} | {statistics.median(ilp):.1f} | {_pct(ilp, 0.99):.1f} "
            f"| {max(ilp):.1f} | {statistics.median(ilp) / statistics.median(dp):.1f}× |"
        )
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
