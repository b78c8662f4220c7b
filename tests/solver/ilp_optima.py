"""The ILP's optima of the cross-check's 1,000 states, recorded once (``ilp_optima.json``):
HiGHS takes about 90 ms a state, so the suite solves a tenth of them live each run — and
checks that the record still says what the ILP says there — and compares the solver with
the record on all of them.

    .venv/bin/python tests/solver/ilp_optima.py     # writes ilp_optima.json again
"""

from __future__ import annotations

import functools
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from solver_reference import State, ilp_solve, random_state

RECORD = Path(__file__).with_name("ilp_optima.json")
CHUNKS = 10
PER_CHUNK = 100
INITIAL_MELD = 30
MAX_RUN = 5


def states(chunk: int) -> list[State]:
    """Chunk ``chunk``'s states, the same on every machine (a seeded generator)."""
    rng = random.Random(2015 * 1000 + chunk)
    return [random_state(rng) for _ in range(PER_CHUNK)]


def optimum(state: State) -> tuple[int, int]:
    """(tiles placed, value added) by the ILP; (0, 0) when nothing can be played."""
    r = ilp_solve(state.board, state.rack, state.melded, INITIAL_MELD, max_run=MAX_RUN)
    return (r.placed, r.value) if r else (0, 0)


@functools.cache
def recorded() -> list[list[tuple[int, int]]]:
    """The record, read once; it must have been made with this file's settings."""
    data = json.loads(RECORD.read_text())
    made = (data["initial_meld"], data["max_run"])
    assert made == (INITIAL_MELD, MAX_RUN), f"{RECORD} was made for {made}: write it again"
    return [[(p, v) for p, v in chunk] for chunk in data["optima"]]


def main() -> None:
    optima = [[list(optimum(s)) for s in states(c)] for c in range(CHUNKS)]
    RECORD.write_text(
        json.dumps({"initial_meld": INITIAL_MELD, "max_run": MAX_RUN, "optima": optima}) + "\n"
    )
    print(f"{RECORD}: {CHUNKS * PER_CHUNK} optima")


if __name__ == "__main__":
    main()
