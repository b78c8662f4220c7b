"""The solver's tables: run states, the dominance between them, groups (their doctests
run with every other module's: ``--doctest-modules`` over ``src/meldtour``)."""

from __future__ import annotations

import random
from itertools import combinations, product

import pytest

from meldtour.core.melds import Meld
from meldtour.core.tiles import JOKER, TILES
from meldtour.solver.dp import _CAP_MASK, _CAP_SHIFT, _JSHIFT, _prune
from meldtour.solver.tables import (
    COVERED,
    COVERS,
    GROUP_JOKERS,
    GROUP_SPLIT,
    RUN_CLOSED,
    RUN_NEXT,
    RUN_STATES,
    VIABLE,
)


def _ends_closed(state: int, ms: tuple[int, ...]) -> bool:
    for m in ms:
        state = RUN_NEXT[state][m]
        if state < 0:
            return False
    return RUN_CLOSED[state]


def test_covers_means_every_completion_carries_over() -> None:
    """If ``a`` covers ``b``, whatever tiles complete ``b``'s runs complete ``a``'s."""
    futures = [ms for k in range(5) for ms in product(range(5), repeat=k)]
    for a, b in product(range(len(RUN_STATES)), repeat=2):
        if COVERS[a][b]:
            for ms in futures:
                if _ends_closed(b, ms):
                    assert _ends_closed(a, ms), (RUN_STATES[a], RUN_STATES[b], ms)


def test_covers_is_a_partial_order() -> None:
    n = len(RUN_STATES)
    for a in range(n):
        assert COVERS[a][a]
        for b in range(n):
            if a != b and COVERS[a][b]:
                assert not COVERS[b][a]


def test_group_splits_are_groups() -> None:
    for g, splits in GROUP_SPLIT.items():
        for jokers, split in enumerate(splits):
            if split is None:
                continue
            used = [0, 0, 0, 0]
            used_jokers = 0
            for group in split:
                tiles = [JOKER if c < 0 else TILES[c * 13 + 6] for c in group]
                assert Meld(tuple(tiles)).is_valid()
                for c in group:
                    if c < 0:
                        used_jokers += 1
                    else:
                        used[c] += 1
            assert tuple(used) == g and used_jokers == jokers


def test_group_feasibility_by_shape() -> None:
    """Any split found by brute force over colour subsets agrees with the table."""
    groups = [
        (cols, j)
        for size in range(1, 5)
        for cols in combinations(range(4), size)
        for j in range(3)
        if 3 <= size + j <= 4
    ]

    def feasible(g: tuple[int, ...], jokers: int, depth: int = 0) -> bool:
        if not any(g):
            return jokers == 0
        for cols, j in groups:
            if j <= jokers and all(g[c] > 0 for c in cols):
                rest = tuple(x - (c in cols) for c, x in enumerate(g))
                if feasible(rest, jokers - j, depth + 1):
                    return True
        return False

    for g in GROUP_SPLIT:
        for jokers in range(3):
            assert (GROUP_SPLIT[g][jokers] is not None) == feasible(g, jokers)
            shape = (g.count(1), g.count(2))
            assert (jokers in GROUP_JOKERS[shape]) == feasible(g, jokers)


def test_viable_shapes_at_the_last_colour() -> None:
    for caps, per_colour in VIABLE.items():
        masks = per_colour[3]
        for shape in range(25):
            n1, n2 = shape % 5, shape // 5
            for k in range(3):
                want = n1 + n2 <= 4 and any(j <= k for j in GROUP_JOKERS.get((n1, n2), ()))
                assert bool(masks[k] >> shape & 1) == want, (caps, shape, k)


def test_run_states_follow_the_states_they_cover() -> None:
    """The dominance prune relies on this order (a state after all that cover it)."""
    n = len(RUN_STATES)
    for a in range(n):
        assert COVERED[a] == tuple(b for b in range(n) if COVERS[a][b])
        for b in range(n):
            if a != b and COVERS[a][b]:
                assert a > b, (RUN_STATES[a], RUN_STATES[b])


def _dominates(a: int, b: int, need_jokers: int) -> bool:
    ja, jb = (a >> _JSHIFT) & 3, (b >> _JSHIFT) & 3
    cap_a, cap_b = (a >> _CAP_SHIFT) & _CAP_MASK, (b >> _CAP_SHIFT) & _CAP_MASK
    rest = ~((1 << _CAP_SHIFT + 11) - 1)
    if (a & rest) != (b & rest) or cap_a < cap_b:
        return False
    if not (ja == jb or need_jokers <= ja < jb):
        return False
    return all(COVERS[(a >> 6 * c) & 63][(b >> 6 * c) & 63] for c in range(4))


@pytest.mark.parametrize("plain", [False, True])
@pytest.mark.parametrize("seed", range(30))
def test_prune_keeps_an_undominated_state_for_every_state(seed: int, plain: bool) -> None:
    """Every state dropped is dominated by a kept state scoring as much (brute force on
    random layers); ``plain``: keys without a value so far, the fast path."""
    rng = random.Random(seed)
    need_jokers = rng.randrange(3)
    cap_max = 0 if plain else 30
    vs = 48
    layer: dict[int, int] = {}
    states = rng.sample(range(len(RUN_STATES)), 6)
    for _ in range(rng.randint(8, 120)):
        key = sum(rng.choice(states) << 6 * c for c in range(4))
        key |= rng.randrange(3) << _JSHIFT
        if not plain:
            key |= rng.choice((0, 10, 30)) << _CAP_SHIFT
        layer[key] = (rng.randint(0, 3) << vs) | rng.randrange(1 << 20)
    kept = _prune(layer, vs, need_jokers, cap_max, plain)
    assert set(kept) <= set(layer)
    for key, v in layer.items():
        if key in kept:
            assert kept[key] == v
            continue
        assert any(
            _dominates(k, key, need_jokers) and kv >> vs >= v >> vs for k, kv in kept.items()
        ), key
