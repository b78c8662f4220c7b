"""Turn the programme's per-number plan into ordered melds, jokers placed.

The runs are replayed exactly as the programme counted them (:mod:`.tables`): at each
number the runs shorter than 3 take a tile first, then runs of 3 or more, then new runs
start. A joker's number is its position. With wrapping runs, the runs open after 13
are joined to the runs that entered 1, and a run longer than 13 is cut in two.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from meldtour.core.melds import Kind, Meld
from meldtour.core.tiles import JOKER, TILES, Tile

from .dp import Plan
from .tables import GROUP_SPLIT, RUN_STATES


@dataclass(slots=True)
class _Run:
    colour: int
    credit: int = 0  # length counted before number 1 (a wrapping run's tail)
    cells: list[tuple[int, bool]] = field(default_factory=list)  # (number, joker)
    next: _Run | None = None  # the run entering 1 that this run goes on into

    @property
    def cls(self) -> int:
        return min(3, self.credit + len(self.cells))


def _meld(tiles: list[Tile], kind: Kind, value: int, wrap: bool) -> Meld:
    """The meld, with its kind declared only when the engine would read it otherwise."""
    meld = Meld(tuple(tiles))
    if not wrap and JOKER not in tiles:
        return meld  # a run or a group without a joker reads only one way
    reading = meld.reading(wrap)
    if reading is not None and reading.kind is kind and reading.value == value:
        return meld
    declared = Meld(tuple(tiles), kind)
    assert declared.is_valid(wrap) and declared.value(wrap) == value, (tiles, kind, value)
    return declared


def _run_meld(colour: int, cells: list[tuple[int, bool]], wrap: bool) -> Meld:
    tiles = [JOKER if joker else TILES[colour * 13 + number - 1] for number, joker in cells]
    return _meld(tiles, Kind.RUN, sum(number for number, _ in cells), wrap)


def _cut(cells: list[tuple[int, bool]]) -> list[list[tuple[int, bool]]]:
    """A run of more than 13 cells as pieces of 3 to 13 (only with wrapping runs)."""
    pieces = []
    while len(cells) > 13:
        size = 13 if len(cells) - 13 >= 3 else len(cells) - 3
        pieces.append(cells[:size])
        cells = cells[size:]
    pieces.append(cells)
    return pieces


def build(plan: Plan, wrap: bool) -> list[Meld]:
    """The melds of ``plan``: runs by colour, then groups by number."""
    runs: list[_Run] = []
    groups: list[Meld] = []
    open_runs: list[list[_Run]] = []
    for c in range(4):
        x1, x2, x3 = RUN_STATES[plan.start[c]]
        heads = [_Run(c, 1) for _ in range(x1)] + [_Run(c, 2) for _ in range(x2)]
        heads += [_Run(c, 3) for _ in range(x3)]
        open_runs.append(heads)
        runs.extend(heads)
    for n in range(13):
        number = n + 1
        row = plan.choices[n]
        code = 0
        for c in range(4):
            g, r, jr = row[c]
            code += g * _POWERS[c]
            before = open_runs[c]
            m = r + jr
            if not m:
                if before:
                    assert all(run.credit + len(run.cells) >= 3 for run in before), (
                        "the plan leaves a run too short"
                    )
                    open_runs[c] = []
                continue
            # The runs shorter than 3 take a tile first, then the longer ones; the
            # rest start new runs. The real tiles go first, then the jokers.
            short = [run for run in before if run.credit + len(run.cells) < 3]
            assert len(short) <= m, "the plan leaves a run too short"
            after = short
            if len(short) < m:
                for run in before:
                    if len(after) == m:
                        break
                    if run.credit + len(run.cells) >= 3:
                        after.append(run)
                while len(after) < m:
                    fresh = _Run(c)
                    runs.append(fresh)
                    after.append(fresh)
            for i, run in enumerate(after):
                run.cells.append((number, i >= r))
            open_runs[c] = after
        jokers = plan.group_jokers[n]
        if not code and not jokers:
            continue
        split = GROUP_SPLIT[_VECTORS[code]][jokers]
        assert split is not None, "the plan's groups cannot be formed"
        for colours in split:
            tiles = [JOKER if c < 0 else TILES[c * 13 + n] for c in colours]
            if -1 in colours:
                # [J,J,x] reads as a group by default; [x,J,J] would read as a run.
                tiles.sort(key=lambda t: t != JOKER)
            groups.append(_meld(tiles, Kind.GROUP, number * len(tiles), wrap))
    if wrap:
        for c in range(4):
            _join(open_runs[c], [run for run in runs if run.colour == c and run.credit])
    return _run_melds(runs, wrap) + groups


#: Group copies per colour (0..2) as one base-3 code, and back.
_POWERS: Final = (1, 3, 9, 27)
_VECTORS: Final = tuple(tuple(code // 3**c % 3 for c in range(4)) for code in range(81))


def _join(tails: list[_Run], heads: list[_Run]) -> None:
    """Match the runs open after 13 with the runs that entered 1 (WRAP_OK's rule)."""
    by_credit: dict[int, list[_Run]] = {1: [], 2: [], 3: []}
    for run in heads:
        by_credit[run.credit].append(run)
    for tail in sorted(tails, key=lambda run: run.cls):
        for k in range(tail.cls, 0, -1):
            if by_credit[k]:
                tail.next = by_credit[k].pop()
                break
        else:
            assert tail.cls == 3, "a run open after 13 is too short"
    assert not any(by_credit.values()), "a run entering 1 has no run before it"


def _run_melds(runs: list[_Run], wrap: bool) -> list[Meld]:
    """Runs in order; a chain of runs joined across 13-1 is one run (cut if too long)."""
    out: list[Meld] = []
    seen: set[int] = set()
    for run in runs:
        if not run.credit:  # a chain starts at a run that began after 1
            _emit(run, seen, out, wrap)
    for run in runs:  # the rest go round in a cycle
        if id(run) not in seen:
            _emit(run, seen, out, wrap)
    return out


def _emit(first: _Run, seen: set[int], out: list[Meld], wrap: bool) -> None:
    """The chain of runs from ``first`` as melds onto ``out``. (A function of its own,
    not a closure: compiled, a closure and its environment make a reference cycle per
    call, garbage only the collector's full passes free.)"""
    cells: list[tuple[int, bool]] = []
    run: _Run | None = first
    while run is not None and id(run) not in seen:
        seen.add(id(run))
        cells.extend(run.cells)
        run = run.next
    if cells:
        out.extend(_run_meld(first.colour, piece, wrap) for piece in _cut(cells))
