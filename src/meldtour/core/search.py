"""A small exact search over meld partitions, for the engine's own questions.

The engine must answer two questions exactly (docs/rules.md: "A turn", "The end of
the game", "Scoring a game"):

* could this rack have made the initial meld? (the −200 rule)
* does this player have any legal play? (a pass under the ``continue`` pool-out rule)

This module answers both with a plain memoised depth-first search: tiles are taken
lowest first (by number, then colour); the lowest tile either stays on the rack (only a
rack tile may) or starts a meld with higher tiles and jokers. It is exact but not fast
on dense boards; the ``meldtour.solver`` package is the fast exact solver, and the
engine accepts any :data:`PlayFinder` in its place.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

from .melds import Meld, analyse
from .tiles import JOKER_CODE, KINDS, TILES, Tile, counts

#: ``finder(board, rack, melded, rules_wrap, initial_meld) -> new board or None``.
PlayFinder = Callable[[Sequence[Meld], Sequence[Tile], bool, bool, int], "tuple[Meld, ...] | None"]

# Tile codes in the order the search takes them: number first, then colour.
_ORDER: tuple[int, ...] = tuple(c * 13 + n for n in range(13) for c in range(4))

Score = tuple[int, int]
_NONE: Score = (-1, -1)


def _melds_with(code: int, a: Sequence[int], wrap: bool) -> list[tuple[int, ...]]:
    """Every meld that holds tile ``code`` and otherwise only later tiles or jokers.

    Later means later in ``_ORDER``: higher colours of the same number (groups), or
    higher numbers of the same colour (runs). Jokers may stand anywhere, including
    before ``code`` in a run.
    """
    c, n = divmod(code, 13)
    n += 1
    jokers = a[JOKER_CODE]
    out: list[tuple[int, ...]] = []
    # Groups of number n: this tile, some higher colours, and jokers.
    others = [k * 13 + n - 1 for k in range(c + 1, 4) if a[k * 13 + n - 1] > 0]
    for mask in range(1 << len(others)):
        chosen = [others[i] for i in range(len(others)) if mask >> i & 1]
        for j in range(min(jokers, 2) + 1):
            size = 1 + len(chosen) + j
            if 3 <= size <= 4:
                out.append((code, *chosen, *([JOKER_CODE] * j)))
    # Runs of colour c through n. Earlier tiles are all used up, so a position before
    # n holds a joker, or (with wrap) a later real tile that comes round.
    starts = range(1, 14) if wrap else range(max(1, n - jokers), n + 1)
    for start in starts:
        _build_run(c, n, code, start, (n - start) % 13, [], jokers, a, wrap, out)
    return out


def _build_run(
    c: int,
    n: int,
    code: int,
    number: int,
    before: int,
    run: list[int],
    jokers: int,
    a: Sequence[int],
    wrap: bool,
    out: list[tuple[int, ...]],
) -> None:
    """Extend ``run`` (which starts ``before`` places ahead of tile ``code``)."""
    i = len(run)
    if i > before and i >= 3:
        out.append(tuple(run))
    if i >= 13 or (not wrap and number > 13):
        return
    if number > 13:
        number = 1
    if number == n:
        if i != before:
            return
        run.append(code)
        _build_run(c, n, code, number + 1, before, run, jokers, a, wrap, out)
        run.pop()
        return
    t = c * 13 + number - 1
    if a[t] > 0:
        run.append(t)
        _build_run(c, n, code, number + 1, before, run, jokers, a, wrap, out)
        run.pop()
    if jokers > 0:
        run.append(JOKER_CODE)
        _build_run(c, n, code, number + 1, before, run, jokers - 1, a, wrap, out)
        run.pop()


def _value(meld: tuple[int, ...], wrap: bool) -> int:
    readings = analyse(tuple(TILES[t] for t in meld), wrap)[0]
    return readings[0].value if readings else -1


@lru_cache(maxsize=4096)
def _solve(
    a: tuple[int, ...], b: tuple[int, ...], wrap: bool, by_value: bool
) -> tuple[Score, tuple[tuple[int, ...], ...]]:
    """Best (score, melds) using every tile of ``b`` and any of ``a - b``.

    The score is (tiles used beyond ``b``, their value) — or (value, tiles) when
    ``by_value`` — and ``_NONE`` when ``b`` cannot all be placed.
    """
    memo: _Memo = {}
    return _go(list(a), list(b), memo, wrap, by_value)


_Memo = dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[Score, tuple[tuple[int, ...], ...]]]


def _go(
    a: list[int], b: list[int], memo: _Memo, wrap: bool, by_value: bool
) -> tuple[Score, tuple[tuple[int, ...], ...]]:
    """:func:`_solve`'s recursion (a function of its own, not a closure: a closure that
    calls itself is a reference cycle per call, freed only by the collector's full
    passes, which a long-running server keeps few)."""
    key = (tuple(a), tuple(b))
    hit = memo.get(key)
    if hit is not None:
        return hit
    code = next((t for t in _ORDER if a[t] > 0), -1)
    if code < 0:
        result: tuple[Score, tuple[tuple[int, ...], ...]] = (
            ((0, 0), ()) if b[JOKER_CODE] == 0 else (_NONE, ())
        )
        memo[key] = result
        return result
    best: tuple[Score, tuple[tuple[int, ...], ...]] = (_NONE, ())
    if a[code] > b[code]:  # leave one rack copy on the rack
        a[code] -= 1
        best = _go(a, b, memo, wrap, by_value)
        a[code] += 1
    for meld in _melds_with(code, a, wrap):
        used_rack = 0
        rack_value = 0
        counts: dict[int, int] = {}
        for t in meld:
            counts[t] = counts.get(t, 0) + 1
        if any(a[t] < k for t, k in counts.items()):
            continue
        taken_b: dict[int, int] = {}
        for t, k in counts.items():
            a[t] -= k
            tb = min(b[t], k)
            taken_b[t] = tb
            b[t] -= tb
            used_rack += k - tb
        mval = _value(meld, wrap)
        # Value of the rack tiles placed: the meld's value minus what its board
        # tiles were worth is not defined with jokers, so count the meld's value
        # share by tile: numbered tiles at face value, jokers at their reading.
        if used_rack:
            rack_value = _rack_share(meld, counts, taken_b, mval)
        sub = _go(a, b, memo, wrap, by_value)
        for t, k in counts.items():
            a[t] += k
            b[t] += taken_b[t]
        if sub[0] == _NONE:
            continue
        s0, s1 = sub[0]
        score = (s0 + rack_value, s1 + used_rack) if by_value else (s0 + used_rack, s1 + rack_value)
        if score > best[0]:
            best = (score, (meld, *sub[1]))
    memo[key] = best
    return best


def _rack_share(
    meld: tuple[int, ...], counts: dict[int, int], taken_b: dict[int, int], mval: int
) -> int:
    """The value of the rack tiles in ``meld``: numbered tiles at face value, each
    rack joker at the number it stands for (the larger roles, when board jokers share
    the meld: tiles are interchangeable, so this only orders equal plays)."""
    share = 0
    for t, k in counts.items():
        if t != JOKER_CODE:
            share += (k - taken_b[t]) * (t % 13 + 1)
    rack_jokers = counts.get(JOKER_CODE, 0) - taken_b.get(JOKER_CODE, 0)
    if rack_jokers:
        readings = analyse(tuple(TILES[t] for t in meld), True)[0]
        reading = next((r for r in readings if r.value == mval), readings[0])
        roles = sorted(options[0] % 13 + 1 for options in reading.stands_for)
        share += sum(roles[len(roles) - rack_jokers :])
    return share


def _counts(tiles: Sequence[int]) -> list[int]:
    vec = [0] * KINDS
    for t in tiles:
        vec[t] += 1
    return vec


def best_rack_melds(rack: Sequence[Tile], wrap: bool = False) -> tuple[int, tuple[Meld, ...]]:
    """The highest total value of new melds made from the rack alone, and those melds."""
    a = tuple(_counts(rack))
    (score, melds) = _solve(a, (0,) * KINDS, wrap, True)
    return score[0], tuple(Meld(tuple(TILES[t] for t in m)) for m in melds)


def can_initial_meld(rack: Sequence[Tile], threshold: int, wrap: bool = False) -> bool:
    """Whether the rack alone holds new melds worth ``threshold`` or more (at least
    one meld: with a threshold of 0 an empty rack of melds is not an initial meld)."""
    value, melds = best_rack_melds(rack, wrap)
    return bool(melds) and value >= threshold


def initial_meld_within_reach(rack: Sequence[Tile], threshold: int, wrap: bool = False) -> bool:
    """False only when the rack surely holds no initial meld worth ``threshold``: the
    values of the tiles that could stand in some run or group of the rack's own tiles
    (each copy counted) fall short of it, or no tile could. A quick test before the exact
    search (the −200 rule asks at every draw before the initial meld, and most racks
    then hold none); with a joker on the rack it does not judge (True).

    >>> from .tiles import parse_tiles
    >>> initial_meld_within_reach(parse_tiles(["r10", "b10", "k10", "o2"]), 30)
    True
    >>> initial_meld_within_reach(parse_tiles(["r1", "r2", "r3", "b13", "o13"]), 30)
    False
    """
    present = counts(rack)
    if present[JOKER_CODE]:
        return True
    total = 0
    for code in range(52):
        copies = present[code]
        if not copies:
            continue
        colour, n = divmod(code, 13)  # n: the number less one
        fit = (present[n] > 0) + (present[13 + n] > 0) + (present[26 + n] > 0) + (
            present[39 + n] > 0
        ) >= 3
        if not fit:
            row = colour * 13
            if wrap:
                a, b = present[row + (n - 2) % 13], present[row + (n - 1) % 13]
                d, e = present[row + (n + 1) % 13], present[row + (n + 2) % 13]
            else:
                a = present[row + n - 2] if n >= 2 else 0
                b = present[row + n - 1] if n >= 1 else 0
                d = present[row + n + 1] if n <= 11 else 0
                e = present[row + n + 2] if n <= 10 else 0
            fit = bool((a and b) or (b and d) or (d and e))
        if fit:
            total += (n + 1) * copies
    return total > 0 and total >= threshold


def best_play(
    board: Sequence[Meld], rack: Sequence[Tile], wrap: bool = False
) -> tuple[int, int, tuple[Meld, ...]]:
    """After the initial meld: (tiles placed, value placed, new board), most tiles first.

    Every board tile is used; (0, 0, board) when no rack tile can be placed.
    """
    b = _counts([t for m in board for t in m.tiles])
    a = [x + y for x, y in zip(b, _counts(rack), strict=True)]
    score, melds = _solve(tuple(a), tuple(b), wrap, False)
    if score == _NONE or score[0] == 0:
        return 0, 0, tuple(board)
    return score[0], score[1], tuple(Meld(tuple(TILES[t] for t in m)) for m in melds)


def default_finder(
    board: Sequence[Meld], rack: Sequence[Tile], melded: bool, wrap: bool, threshold: int
) -> tuple[Meld, ...] | None:
    """A legal play for this position, or None: the engine's default :data:`PlayFinder`."""
    if melded:
        placed, _, new = best_play(board, rack, wrap)
        return new if placed else None
    value, melds = best_rack_melds(rack, wrap)
    return (*board, *melds) if value >= threshold and melds else None
