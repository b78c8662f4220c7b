"""Test helpers for the solver: realistic random states, and an independent exact ILP.

The ILP knows nothing of the programme: one integer variable per meld of the full
list of legal melds (every run of 3-13 with up to two jokers anywhere, including runs
that start or end with a joker; every group of 3-4 with up to two jokers), a
constraint per tile kind, and the same objective (most tiles, then most value), solved
by HiGHS through ``scipy.optimize.milp``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from types import ModuleType

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp
from scipy.sparse import csc_array

from meldtour.core.melds import Meld
from meldtour.core.tiles import JOKER, JOKER_CODE, KINDS, TILES, Tile, full_set

BIG = 1024


@cache
def full_meld_list(max_run: int = 13) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Every legal meld as a sorted tuple of tile codes, with its best value (no wrap).

    ``max_run = 5`` leaves out runs of 6 or more: the same optimum, since such a run is
    two runs of 3-5 with the same tiles, each joker keeping its number (and each part,
    with at most two jokers in all, keeps a numbered tile). HiGHS is much faster then.
    """
    best: dict[tuple[int, ...], int] = {}

    def add(tiles: list[int], value: int) -> None:
        key = tuple(sorted(tiles))
        if best.get(key, -1) < value:
            best[key] = value

    for c in range(4):
        for start in range(1, 14):
            for end in range(start + 2, min(14, start + max_run)):
                numbers = list(range(start, end + 1))
                for k in range(3):
                    for jokers in combinations(range(len(numbers)), k):
                        tiles = [
                            JOKER_CODE if i in jokers else c * 13 + n - 1
                            for i, n in enumerate(numbers)
                        ]
                        add(tiles, sum(numbers))
    for n in range(1, 14):
        for size in range(1, 5):
            for colours in combinations(range(4), size):
                for jokers in range(3):
                    if 3 <= size + jokers <= 4:
                        add(
                            [c * 13 + n - 1 for c in colours] + [JOKER_CODE] * jokers,
                            n * (size + jokers),
                        )
    keys = tuple(best)
    return keys, tuple(best[k] for k in keys)


@dataclass(frozen=True)
class IlpResult:
    placed: int
    value: int
    melds: int


def ilp_solve(
    board: Sequence[Meld],
    rack: Sequence[Tile],
    melded: bool,
    threshold: int = 30,
    max_run: int = 13,
) -> IlpResult | None:
    """The optimum by ILP: (tiles placed, value added); None when nothing can be played."""
    need = [0] * KINDS
    for m in board:
        for t in m.tiles:
            need[t] += 1
    have = [0] * KINDS
    for t in rack:
        have[t] += 1
    if melded:
        avail = [a + b for a, b in zip(need, have, strict=True)]
        low = need
    else:
        avail, low = have, [0] * KINDS
    keys, values = full_meld_list(max_run)
    cols = []
    for i, key in enumerate(keys):
        counts: dict[int, int] = {}
        for t in key:
            counts[t] = counts.get(t, 0) + 1
        if all(avail[t] >= k for t, k in counts.items()):
            cols.append(i)
    if not cols:
        return None
    rows, colidx, data = [], [], []
    for j, i in enumerate(cols):
        counts = {}
        for t in keys[i]:
            counts[t] = counts.get(t, 0) + 1
        for t, k in counts.items():
            rows.append(t)
            colidx.append(j)
            data.append(k)
    a = csc_array((data, (rows, colidx)), shape=(KINDS, len(cols)))
    constraints = [LinearConstraint(a, low, avail)]
    sizes = np.array([len(keys[i]) for i in cols], dtype=float)
    vals = np.array([values[i] for i in cols], dtype=float)
    if not melded:
        constraints.append(LinearConstraint(vals.reshape(1, -1), [max(threshold, 1)], [np.inf]))
    cost = -(BIG * sizes + vals)
    res = milp(
        cost,
        integrality=np.ones(len(cols)),
        bounds=Bounds(0, 2),
        constraints=constraints,
        options={"mip_rel_gap": 0.0, "presolve": True},
    )
    if res.status == 2:  # infeasible
        return None
    assert res.status == 0, res.message
    x = np.round(res.x).astype(int)
    tiles = int(sizes @ x)
    value = int(vals @ x)
    if melded:
        old_value = sum(m.value() for m in board)
        placed = tiles - sum(need)
        if placed == 0:
            return None
        return IlpResult(placed, value - old_value, int(x.sum()))
    return IlpResult(tiles, value, int(x.sum()))


# ---------------------------------------------------------------- random states


@dataclass(frozen=True)
class State:
    board: tuple[Meld, ...]
    rack: tuple[Tile, ...]
    melded: bool


def _take(pool: list[int], tiles: list[int]) -> bool:
    need: dict[int, int] = {}
    for t in tiles:
        need[t] = need.get(t, 0) + 1
    if any(pool[t] < k for t, k in need.items()):
        return False
    for t, k in need.items():
        pool[t] -= k
    return True


def random_meld(rng: random.Random, pool: list[int]) -> Meld | None:
    """One valid meld without jokers dealt from ``pool`` (counts by code)."""
    if rng.random() < 0.55:
        c = rng.randrange(4)
        length = rng.choice((3, 3, 3, 4, 4, 5, 6, 7))
        start = rng.randint(1, 14 - length)
        tiles = [c * 13 + start + i - 1 for i in range(length)]
    else:
        n = rng.randrange(13)
        colours = rng.sample(range(4), rng.choice((3, 3, 4)))
        tiles = [c * 13 + n for c in colours]
    if not _take(pool, tiles):
        return None
    return Meld(tuple(TILES[t] for t in tiles))


def _with_joker(rng: random.Random, meld: Meld) -> Meld:
    """The meld with a joker in it: in place of a tile (which goes back), or added."""
    tiles = list(meld.tiles)
    if rng.random() < 0.5:
        tiles[rng.randrange(len(tiles))] = JOKER
    else:
        tiles.insert(rng.choice((0, len(tiles))), JOKER)
    out = Meld(tuple(tiles))
    return out if out.is_valid() else meld


def random_state(rng: random.Random, board_size: int | None = None) -> State:
    """A realistic state: a board of real melds dealt from one tile set, then a rack.

    Each joker goes to the board (into a meld: in place of a tile, or at an end), to
    the rack, or stays in the pool.
    """
    pool = [0] * KINDS
    for t in full_set():
        pool[t] += 1
    pool[JOKER_CODE] = 0
    target = rng.randint(0, 80) if board_size is None else board_size
    board: list[Meld] = []
    size = 0
    for _ in range(4000):
        if size >= target:
            break
        meld = random_meld(rng, pool)
        if meld is not None:
            if size + len(meld) > target + 2:
                for t in meld.tiles:
                    pool[t] += 1
                continue
            board.append(meld)
            size += len(meld)
    rack_jokers = 0
    for _ in range(2):
        where = rng.random()
        if where < 0.4 and board:
            i = rng.randrange(len(board))
            before = board[i]
            board[i] = _with_joker(rng, before)
            for t in before.tiles:  # a replaced tile goes back to the pool
                if t != JOKER_CODE:
                    pool[t] += 1
            for t in board[i].tiles:
                if t != JOKER_CODE:
                    pool[t] -= 1
        elif where < 0.7:
            rack_jokers += 1
        else:
            pool[JOKER_CODE] += 1
    rest = [TILES[t] for t in range(KINDS) for _ in range(pool[t])]
    rack = rng.sample(rest, rng.randint(5, 20) - rack_jokers) + [JOKER] * rack_jokers
    melded = bool(board) or rng.random() < 0.5
    if rng.random() < 0.2:
        melded = not melded
    return State(tuple(board), tuple(sorted(rack)), melded)


__all__ = ["JOKER", "IlpResult", "State", "full_meld_list", "ilp_solve", "random_state"]


def implementations() -> dict[str, ModuleType]:
    """The solver's implementations that run here (the compiled one once built)."""
    from meldtour.solver.native import implementations as found

    return found()
