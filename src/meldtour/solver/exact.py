"""The solver's public face: the best play for a board, a rack and a rule set.

>>> from meldtour.core.melds import parse_board
>>> from meldtour.core.rules import find_rules
>>> from meldtour.core.tiles import parse_tiles
>>> rules = find_rules("krc-2015")
>>> s = solve(parse_board([["r4", "r5", "r6"]]), parse_tiles(["r7", "k2", "b9"]), rules, True)
>>> s.placed, s.value, [str(m) for m in s.board], [str(t) for t in s.rack_left]
(1, 7, ['[r4,r5,r6,r7]'], ['k2', 'b9'])
>>> s = solve((), parse_tiles(["k9", "k10", "J", "r2"]), rules, False)
>>> s.placed, s.value, [str(m) for m in s.board]
(3, 30, ['[k9,k10,J]'])
>>> solve((), parse_tiles(["k8", "r8", "o8"]), rules, False).placed   # worth 24 < 30
0
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from meldtour.core.melds import Meld
from meldtour.core.moves import joker_replacement_error
from meldtour.core.refusal import Refused, register
from meldtour.core.rules import RuleSet
from meldtour.core.tiles import JOKER_CODE, KINDS, Tile

from .build import build
from .dp import BIG, Problem, solve_problem

register(
    {
        "tile.set_jokers": "more than two jokers: not a tile set",
        "tile.set_copies": "more than two copies of a tile: not a tile set",
        "tile.set_size": "more tiles than a tile set holds",
        "board.meld_invalid": "board meld %(i)s: %(why)s",
    }
)


@dataclass(frozen=True, slots=True)
class Solution:
    """The best play: how many rack tiles it places, and the board after it.

    ``value`` is the value the play adds to the board: the numbers of the tiles placed,
    a joker counting the number it stands for (when a board joker moves, its change of
    number counts too). Before the initial meld it is the value of the new melds.
    ``placed == 0`` means no play: ``board`` is then the board as it was.
    """

    placed: int
    value: int
    board: tuple[Meld, ...]
    tiles: tuple[Tile, ...]
    rack_left: tuple[Tile, ...]


def _counts(tiles: Sequence[int]) -> list[int]:
    vec = [0] * KINDS
    for t in tiles:
        vec[t] += 1
    return vec


def _drop_isolated(avail: list[list[int]], need: list[list[int]], jokers: int) -> None:
    """Leave out rack copies that no meld could hold, whatever the rest does.

    A tile fits a group only if two other colours of its number (or jokers) are there,
    and a run only if a stretch of three numbers around it is there (or jokers).
    Repeated until nothing changes: leaving a tile out can strand its neighbours.
    """
    changed = True
    while changed:
        changed = False
        for n in range(13):
            row = avail[n]
            for c in range(4):
                if row[c] <= need[n][c]:
                    continue
                colours = sum(1 for x in row if x)
                if colours + jokers >= 3:
                    continue
                fits = False
                for lo in range(max(0, n - 2), min(n, 10) + 1):
                    gaps = sum(1 for k in range(lo, lo + 3) if k != n and not avail[k][c])
                    if gaps <= jokers:
                        fits = True
                        break
                if not fits:
                    row[c] = need[n][c]
                    changed = True


def _problem(
    board_tiles: Sequence[int], rack: Sequence[int], threshold: int | None, wrap: bool
) -> Problem:
    need = _counts(board_tiles)
    have = _counts(rack)
    avail_rows = [[need[c * 13 + n] + have[c * 13 + n] for c in range(4)] for n in range(13)]
    need_rows = [[need[c * 13 + n] for c in range(4)] for n in range(13)]
    jokers = need[JOKER_CODE] + have[JOKER_CODE]
    if jokers > 2:
        raise Refused("tile.set_jokers")
    if not wrap:
        _drop_isolated(avail_rows, need_rows, jokers)
    for n in range(13):
        for c in range(4):
            if avail_rows[n][c] > 2:
                raise Refused("tile.set_copies")
    return Problem(
        tuple(map(tuple, avail_rows)),
        tuple(map(tuple, need_rows)),
        jokers,
        need[JOKER_CODE],
        threshold,
        wrap,
    )


def _minus(a: Sequence[Tile], b: Sequence[Tile]) -> tuple[Tile, ...]:
    left = _counts(b)
    out = []
    for t in a:
        if left[t]:
            left[t] -= 1
        else:
            out.append(t)
    return tuple(out)


def _all_tiles(melds: Sequence[Meld]) -> list[Tile]:
    return [t for m in melds for t in m.tiles]


def _board_checked(
    board: Sequence[Meld], rack: Sequence[Tile], wrap: bool
) -> tuple[list[Tile], int]:
    """The board's tiles and value, refused when the tiles are more than a set or a
    meld is not valid."""
    old_tiles = _all_tiles(board)
    if len(old_tiles) + len(rack) > 106:
        raise Refused("tile.set_size")
    old_value = 0
    for i, m in enumerate(board):
        reading = m.reading(wrap)
        if reading is None:
            raise Refused("board.meld_invalid", i=i + 1, why=m.refusal(wrap))
        old_value += reading.value
    return old_tiles, old_value


def solve_tiles(
    board: Sequence[Meld], rack: Sequence[Tile], melded: bool, wrap: bool, threshold: int
) -> Solution:
    """:func:`solve` with the two rule options it needs given directly."""
    board = tuple(board)
    rack = tuple(rack)
    none = Solution(0, 0, board, (), rack)
    if not melded:
        # First without the threshold (no value dimension in the states: much
        # cheaper). Its optimum places the most tiles, then the most value; when that
        # value reaches the threshold it is the optimum with the threshold too.
        free = _problem((), rack, None, wrap)
        plan = solve_problem(free, BIG * 3)
        if plan is None:
            return none  # no meld at all
        if plan.score % BIG < threshold:
            plan = solve_problem(replace(free, threshold=threshold), BIG * 3)
            if plan is None:
                return none
        fresh = build(plan, wrap)
        tiles = tuple(sorted(_all_tiles(fresh)))
        # The plan's score counts each tile (BIG) and the value of its melds (below
        # BIG), a joker as the number it stands for, as the melds built read it.
        value = plan.score % BIG
        assert plan.score // BIG == len(tiles)
        return Solution(len(tiles), value, board + tuple(fresh), tiles, _minus(rack, tiles))
    old_tiles, old_value = _board_checked(board, rack, wrap)
    p = _problem(old_tiles, rack, None, wrap)
    if all(a == b for a, b in zip(p.avail, p.need, strict=True)) and (p.jokers == p.need_jokers):
        return none  # no rack tile can go anywhere
    as_is = BIG * len(old_tiles) + old_value
    # Placing one tile beats any arrangement of the board alone.
    plan = solve_problem(p, BIG * (len(old_tiles) + 1))
    if plan is None:
        return none
    new_board = tuple(build(plan, wrap))
    tiles = tuple(sorted(_minus(_all_tiles(new_board), old_tiles)))
    value = plan.score - as_is - BIG * len(tiles)
    assert plan.score // BIG == len(old_tiles) + len(tiles)
    return Solution(len(tiles), value, new_board, tiles, _minus(rack, tiles))


def solve(board: Sequence[Meld], rack: Sequence[Tile], rules: RuleSet, melded: bool) -> Solution:
    """The play that places the most rack tiles, then adds the most value.

    After the initial meld (``melded``) the new board uses every board tile. Before
    it, the play is new melds from the rack alone worth ``rules.initial_meld`` or
    more, most tiles first, with the board untouched. Exact and deterministic.

    Under ``joker_retrieval = "replace"`` (no preset has it) the result is legal but
    exact only when the free optimum already keeps each board joker's role: if it
    does not, the melds holding board jokers stay as they are and the rest is solved.
    """
    found = solve_tiles(board, rack, melded, rules.wrap_runs, rules.initial_meld)
    if not (melded and found.placed and rules.joker_retrieval == "replace"):
        return found
    if joker_replacement_error(board, found.board, rules.wrap_runs) is None:
        return found
    held = tuple(m for m in board if JOKER_CODE in m.tiles)
    rest = tuple(m for m in board if JOKER_CODE not in m.tiles)
    part = solve_tiles(rest, rack, True, rules.wrap_runs, rules.initial_meld)
    if not part.placed:
        return Solution(0, 0, tuple(board), (), tuple(rack))
    return Solution(part.placed, part.value, held + part.board, part.tiles, part.rack_left)


def goes_out(board: Sequence[Meld], rack: Sequence[Tile], rules: RuleSet) -> bool:
    """Whether a player who has melded can put the whole ``rack`` down on ``board``
    this turn: ``solve(board, rack, rules, True).placed == len(rack)``, asked
    with the floor at every tile placed, so that the search stops as soon as no plan
    can reach it instead of finding the best partial play (the computer players ask it
    of sampled racks, and the answer is nearly always no)."""
    rack = tuple(rack)
    if not rack or rules.joker_retrieval == "replace":
        return solve(board, rack, rules, True).placed == len(rack)
    wrap = rules.wrap_runs
    old_tiles, _value = _board_checked(board, rack, wrap)
    p = _problem(old_tiles, rack, None, wrap)
    return solve_problem(p, BIG * (len(old_tiles) + len(rack))) is not None


def finder(
    board: Sequence[Meld], rack: Sequence[Tile], melded: bool, wrap: bool, threshold: int
) -> tuple[Meld, ...] | None:
    """The engine's :data:`meldtour.core.search.PlayFinder`: the best new board, or None."""
    s = solve_tiles(board, rack, melded, wrap, threshold)
    return s.board if s.placed else None


__all__ = ["Solution", "finder", "goes_out", "solve", "solve_tiles"]
