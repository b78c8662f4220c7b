"""Precomputed tables of the solver: open-run states of one colour, and groups.

Open runs of one colour are kept as a multiset of lengths capped at 3 (``3`` means
"three or more": the run may close at any time). A colour state is ``(x1, x2, x3)``,
the number of open runs of each capped length; with two copies of a tile and two
jokers, at most four runs of one colour can pass through one number.

Given ``m`` tiles of this colour and number put into runs (real tiles or jokers, all
alike for the structure), the next colour state is forced:

* every run of length 1 or 2 must take one (else it would end too short);
* then as many length-3+ runs as possible take one — extending a 3+ run dominates
  closing it and starting a new run of length 1 with the same tile, since a 3+ run can
  do everything a 1-run can and may also stop;
* the rest start new runs.

>>> RUN_STATES[RUN_NEXT[state_index((1, 0, 1))][3]]   # the 1-run grows, the 3+ run goes on, one new
(1, 1, 1)
>>> RUN_NEXT[state_index((2, 0, 0))][1]                # two 1-runs need two tiles
-1
>>> GROUP_SPLIT[(2, 2, 1, 1)][0]                # two k, two r, one o, one b: k r o + k r b
((0, 1, 2), (0, 1, 3))
>>> GROUP_SPLIT[(2, 2, 1, 1)][2]                # with two jokers (-1): k r o b + k r J J
((0, 1, 2, 3), (0, 1, -1, -1))
>>> GROUP_SPLIT[(1, 1, 0, 0)][0] is None        # k r alone is no group
True
"""

from __future__ import annotations

from itertools import combinations, product
from typing import Final

MAX_RUNS: Final = 4
MAX_M: Final = 4  # two copies and two jokers


def _run_states() -> tuple[tuple[int, int, int], ...]:
    """Ordered so that a state comes after every state it covers (:func:`_covers`):
    fewer runs first, then more short runs first."""
    states = [
        (x1, x2, total - x1 - x2)
        for total in range(MAX_RUNS + 1)
        for x1 in range(total, -1, -1)
        for x2 in range(total - x1, -1, -1)
    ]
    return tuple(states)


#: Every colour state ``(x1, x2, x3)``, the empty one first.
RUN_STATES: Final = _run_states()
_INDEX: Final = {s: i for i, s in enumerate(RUN_STATES)}


def state_index(state: tuple[int, int, int]) -> int:
    return _INDEX[state]


def _next(state: tuple[int, int, int], m: int) -> int:
    x1, x2, x3 = state
    forced = x1 + x2
    if m < forced:
        return -1
    e3 = min(x3, m - forced)
    return _INDEX[(m - forced - e3, x1, x2 + e3)]


#: ``RUN_NEXT[s][m]``: the colour state after putting ``m`` tiles into runs, or -1.
RUN_NEXT: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(_next(s, m) for m in range(MAX_M + 1)) for s in RUN_STATES
)
#: Colour states with no run shorter than 3: the states a game may end in.
RUN_CLOSED: Final[tuple[bool, ...]] = tuple(s[0] == 0 and s[1] == 0 for s in RUN_STATES)
#: Tiles this colour must have at the next number (the runs of length 1 and 2).
RUN_FORCED: Final[tuple[int, ...]] = tuple(s[0] + s[1] for s in RUN_STATES)


def _split(g: list[int], jokers: int) -> tuple[tuple[int, ...], ...] | None:
    """Groups holding ``g[c]`` tiles of colour ``c`` and ``jokers`` jokers, or None.

    Each group is a tuple of colours, with -1 for each joker.
    """
    if not any(g):
        return () if jokers == 0 else None
    first = next(c for c in range(4) if g[c])
    others = [c for c in range(first + 1, 4) if g[c]]
    for size in range(len(others), -1, -1):
        for chosen in combinations(others, size):
            for j in range(min(jokers, 2), -1, -1):
                if not 3 <= 1 + size + j <= 4:
                    continue
                for c in (first, *chosen):
                    g[c] -= 1
                rest = _split(g, jokers - j)
                for c in (first, *chosen):
                    g[c] += 1
                if rest is not None:
                    return ((first, *chosen, *([-1] * j)), *rest)
    return None


#: ``GROUP_SPLIT[g][jokers]``: groups of one number using ``g[c]`` copies of each
#: colour and exactly ``jokers`` jokers, or None when they cannot all go in groups.
GROUP_SPLIT: Final[dict[tuple[int, ...], tuple[tuple[tuple[int, ...], ...] | None, ...]]] = {
    g: tuple(_split(list(g), j) for j in range(3)) for g in product(range(3), repeat=4)
}


def _by_shape() -> dict[tuple[int, int], tuple[int, ...]]:
    """Feasible joker counts by (colours with one group tile, colours with two)."""
    out: dict[tuple[int, int], tuple[int, ...]] = {}
    for g, splits in GROUP_SPLIT.items():
        shape = (g.count(1), g.count(2))
        ok = tuple(j for j in range(3) if splits[j] is not None)
        assert out.setdefault(shape, ok) == ok, "group feasibility is symmetric in colours"
    return out


#: Joker counts that make groups feasible, by shape (n1, n2): colours symmetric.
GROUP_JOKERS: Final = _by_shape()


def _covers(a: tuple[int, int, int], b: tuple[int, int, int]) -> bool:
    """Can open runs ``a`` do all that open runs ``b`` can, whatever comes next?

    Yes when the runs of ``b`` can be matched to distinct runs of ``a`` at least as
    long (capped), and the runs of ``a`` left over are 3 or more long (they may stop).
    By Hall's theorem: ``a`` has no more 1-runs than ``b``, no more runs shorter than
    3, and at least as many runs in all.

    The same test joins wrapping runs: the runs open after 13 (``a``) must carry on
    into the runs that entered 1 counted as already ``k`` long (``b``).
    """
    a1, a2, a3 = a
    b1, b2, b3 = b
    return a1 <= b1 and a1 + a2 <= b1 + b2 and b1 + b2 + b3 <= a1 + a2 + a3


#: ``COVERS[a][b]``: colour state ``a`` dominates ``b`` (see :func:`_covers`).
COVERS: Final[tuple[tuple[bool, ...], ...]] = tuple(
    tuple(_covers(a, b) for b in RUN_STATES) for a in RUN_STATES
)
#: ``COVERED[a]``: the colour states that ``a`` covers, ``a`` itself included.
COVERED: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(b for b in range(len(RUN_STATES)) if COVERS[a][b]) for a in range(len(RUN_STATES))
)
#: ``BETTER[b]``: the colour states other than ``b`` that dominate it.
BETTER: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(a for a in range(len(RUN_STATES)) if a != b and COVERS[a][b])
    for b in range(len(RUN_STATES))
)


def _viable() -> dict[tuple[int, ...], tuple[tuple[int, int, int], ...]]:
    """``VIABLE[caps][c][k]``: bit mask of the group shapes (n1 + 5 * n2) that, after
    colour ``c``, the colours after it (colour ``c2`` giving at most ``caps[c2]``
    group tiles) can complete into groups with ``k`` jokers or fewer."""
    jokers_by_shape = [GROUP_JOKERS.get((i % 5, i // 5), ()) for i in range(25)]
    out = {}
    for caps in product(range(3), repeat=4):
        per_colour = []
        for c in range(4):
            reach = {(0, 0)}
            for c2 in range(c + 1, 4):
                reach = {
                    (a + (g == 1), b + (g == 2)) for a, b in reach for g in range(caps[c2] + 1)
                }
            masks = []
            for k in range(3):
                mask = 0
                for shape in range(25):
                    n1, n2 = shape % 5, shape // 5
                    if any(
                        n1 + a + n2 + b <= 4
                        and any(j <= k for j in jokers_by_shape[n1 + a + 5 * (n2 + b)])
                        for a, b in reach
                    ):
                        mask |= 1 << shape
                masks.append(mask)
            per_colour.append((masks[0], masks[1], masks[2]))
        out[caps] = tuple(per_colour)
    return out


#: Group shapes still closable, by the group tiles each colour can give (see _viable).
VIABLE: Final = _viable()


#: ``SHORTFALL[a1][a2][s]``: jokers the runs of colour state ``s`` that are too short
#: to stop would need when the next two numbers offer ``a1`` and ``a2`` copies.
SHORTFALL: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(
        tuple(max(0, x1 + x2 - a1) + max(0, x1 - a2) for x1, x2, _ in RUN_STATES) for a2 in range(3)
    )
    for a1 in range(3)
)
