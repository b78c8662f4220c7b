"""Melds: runs and groups, with jokers placed by position (docs/rules.md, "Tiles and
melds").

A meld is an *ordered* list of tiles. In a run the numbers go up by one from left to
right and a joker's number is fixed by its position; in a group (3 or 4 tiles of one
number, all colours different) a joker takes the group's number.

>>> Meld.parse(["r4", "r5", "J", "r7"]).value()
22
>>> Meld.parse(["J", "J", "k7"]).reading().kind   # the group 7-7-7 (21) beats the run 5-6-7 (18)
<Kind.GROUP: 'group'>
>>> Meld.parse(["k9", "J", "J"]).value()          # the run 9-10-11
30
>>> Meld.parse(["b6", "r7", "o8"]).why_invalid()
'[b6,r7,o8] is neither a run (one colour) nor a group (one number)'
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .refusal import Refusal, Refused, english, register
from .tiles import JOKER_CODE, TILES, NotationError, Tile, format_tiles, parse_tiles

register(
    {
        "meld.run_one_colour": "a run is one colour",
        "meld.run_past_13": "nothing follows 13 in a run",
        "meld.run_in_order": "the numbers of a run go up by one from left to right",
        "meld.no_number": "a meld needs a numbered tile",
        "meld.run_too_long": "a run has at most 13 tiles",
        "meld.run_below_1": "a run cannot go below 1",
        "meld.group_one_number": "a group is one number",
        "meld.group_colour_twice": "a group has each colour at most once",
        "meld.group_too_long": "a group has at most 4 tiles",
        "meld.too_short": "%(meld)s has %(n)s tiles: a meld needs at least 3",
        "meld.one_tile": "%(meld)s has 1 tile: a meld needs at least 3",
        "meld.not_run": "%(meld)s is not a valid run: %(why)s",
        "meld.not_group": "%(meld)s is not a valid group: %(why)s",
        "meld.not_run_or_group": "%(meld)s is neither a run (one colour) nor a group (one number)",
        "meld.not_declared_run": "%(meld)s is not a valid run",
        "meld.not_declared_group": "%(meld)s is not a valid group",
        "meld.unknown_fields": "unknown meld field(s): %(fields)s",
        "meld.bad_kind": "meld kind %(kind)r is not 'run' or 'group'",
        "board.not_a_list": "a board is a list of melds, got %(board)r",
        "board.meld_not_a_list": "meld %(i)s is not a list of tiles: %(item)r",
        "board.meld": "meld %(i)s: %(why)s",
    }
)


class Kind(enum.Enum):
    RUN = "run"
    GROUP = "group"


@dataclass(frozen=True, slots=True)
class Reading:
    """One valid way to read a meld.

    ``stands_for`` has one entry per joker, left to right: the tiles that joker may
    stand for (one tile in a run; one or more colours of the number in a group).
    ``base`` is the run's first number, or the group's number.
    """

    kind: Kind
    value: int
    base: int
    stands_for: tuple[tuple[Tile, ...], ...]


def _fmt(tiles: Sequence[Tile]) -> str:
    return "[" + ",".join(format_tiles(tiles)) + "]"


def _run_span(tiles: tuple[Tile, ...], wrap: bool) -> tuple[int, int] | str:
    """A run's colour and first number, or the code of why ``tiles`` are no run."""
    n = len(tiles)
    colour = -1
    start = 0
    for i, t in enumerate(tiles):
        if t == JOKER_CODE:
            continue
        c, num = t // 13, t % 13 + 1
        if colour < 0:
            colour, start = c, num - i
        elif c != colour:
            return "meld.run_one_colour"
        else:
            expected = start + i
            if wrap:
                expected = (expected - 1) % 13 + 1
            elif expected > 13:
                return "meld.run_past_13"
            if num != expected:
                return "meld.run_in_order"
    if colour < 0:
        return "meld.no_number"
    if wrap:
        if n > 13:
            return "meld.run_too_long"
        return colour, (start - 1) % 13 + 1
    if start < 1:
        return "meld.run_below_1"
    if start + n - 1 > 13:
        return "meld.run_past_13"
    return colour, start


def _run_reading(tiles: tuple[Tile, ...], wrap: bool) -> Reading | Refusal:
    span = _run_span(tiles, wrap)
    if isinstance(span, str):
        return Refusal(span)
    colour, start = span
    n = len(tiles)
    if wrap:
        numbers = [(start - 1 + i) % 13 + 1 for i in range(n)]
    else:
        numbers = list(range(start, start + n))
    stands: list[tuple[Tile, ...]] = []
    for i, t in enumerate(tiles):
        if t == JOKER_CODE:
            stands.append((TILES[colour * 13 + numbers[i] - 1],))
    return Reading(Kind.RUN, sum(numbers), start, tuple(stands))


def _group_span(tiles: tuple[Tile, ...]) -> tuple[int, int] | str:
    """A group's number and its colours (a bit each), or the code of why ``tiles`` are
    no group."""
    number = 0
    seen = 0
    for t in tiles:
        if t == JOKER_CODE:
            continue
        c, num = t // 13, t % 13 + 1
        if number == 0:
            number = num
        elif num != number:
            return "meld.group_one_number"
        if seen & (1 << c):
            return "meld.group_colour_twice"
        seen |= 1 << c
    if number == 0:
        return "meld.no_number"
    if len(tiles) > 4:
        return "meld.group_too_long"
    return number, seen


def _group_reading(tiles: tuple[Tile, ...]) -> Reading | Refusal:
    span = _group_span(tiles)
    if isinstance(span, str):
        return Refusal(span)
    number, seen = span
    n = len(tiles)
    missing = tuple(TILES[c * 13 + number - 1] for c in range(4) if not seen & (1 << c))
    jokers = n - bin(seen).count("1")
    return Reading(Kind.GROUP, number * n, number, (missing,) * jokers)


def valid_tiles(tiles: tuple[Tile, ...], wrap: bool = False) -> bool:
    """Whether ``tiles`` read as a run or a group — ``bool(analyse(tiles, wrap)[0])``
    without making the readings: the computer players try thousands of tile lists a
    decision, nearly all of them invalid, and most new (the cache rarely holds them)."""
    if len(tiles) < 3:
        return False
    return not isinstance(_group_span(tiles), str) or not isinstance(_run_span(tiles, wrap), str)


@lru_cache(maxsize=1 << 16)
def analyse(
    tiles: tuple[Tile, ...], wrap: bool = False
) -> tuple[tuple[Reading, ...], Refusal | None]:
    """Every valid reading of ``tiles`` (largest value first) and, if none, why not."""
    if len(tiles) < 3:
        if len(tiles) == 1:
            return (), Refusal("meld.one_tile", {"meld": _fmt(tiles)})
        return (), Refusal("meld.too_short", {"meld": _fmt(tiles), "n": len(tiles)})
    run = _run_reading(tiles, wrap)
    group = _group_reading(tiles)
    found = tuple(
        sorted((r for r in (run, group) if isinstance(r, Reading)), key=lambda r: -r.value)
    )
    if found:
        return found, None
    assert isinstance(run, Refusal) and isinstance(group, Refusal)
    numbered = [t for t in tiles if t != JOKER_CODE]
    if len({t // 13 for t in numbered}) == 1:
        return (), Refusal("meld.not_run", {"meld": _fmt(tiles), "why": run})
    if len({t % 13 for t in numbered}) == 1:
        return (), Refusal("meld.not_group", {"meld": _fmt(tiles), "why": group})
    return (), Refusal("meld.not_run_or_group", {"meld": _fmt(tiles)})


@dataclass(frozen=True, slots=True)
class Meld:
    """An ordered list of tiles on the table, with an optional declared kind.

    The kind matters only for a meld that reads both ways (``[J,J,7]``); without it
    the reading with the larger value counts (docs/rules.md, "Tiles and melds").
    """

    tiles: tuple[Tile, ...]
    kind: Kind | None = None

    @staticmethod
    def parse(data: Sequence[str] | Mapping[str, Any]) -> Meld:
        """From ``["r4","r5","J"]`` or ``{"kind": "run", "tiles": [...]}``."""
        if isinstance(data, Mapping):
            unknown = set(data) - {"kind", "tiles"}
            if unknown:
                raise NotationError("meld.unknown_fields", fields=", ".join(sorted(unknown)))
            kind_text = data.get("kind")
            try:
                kind = None if kind_text is None else Kind(kind_text)
            except ValueError:
                raise NotationError("meld.bad_kind", kind=kind_text) from None
            return Meld(parse_tiles(data.get("tiles", ())), kind)
        return Meld(parse_tiles(data))

    @staticmethod
    def of(*texts: str) -> Meld:
        return Meld(parse_tiles(texts))

    def readings(self, wrap: bool = False) -> tuple[Reading, ...]:
        found = analyse(self.tiles, wrap)[0]
        if self.kind is not None:
            found = tuple(r for r in found if r.kind is self.kind)
        return found

    def reading(self, wrap: bool = False) -> Reading | None:
        """The reading that counts: the declared kind, else the larger value."""
        found = self.readings(wrap)
        return found[0] if found else None

    def is_valid(self, wrap: bool = False) -> bool:
        return bool(self.readings(wrap))

    def why_invalid(self, wrap: bool = False) -> str | None:
        refusal = self.refusal(wrap)
        return None if refusal is None else english(refusal)

    def refusal(self, wrap: bool = False) -> Refusal | None:
        """Why the meld is not valid, as a refusal (its code and arguments), or None."""
        found, reason = analyse(self.tiles, wrap)
        if found and self.kind is not None and not self.readings(wrap):
            return Refusal(f"meld.not_declared_{self.kind.value}", {"meld": _fmt(self.tiles)})
        return None if found else reason

    def value(self, wrap: bool = False) -> int:
        r = self.reading(wrap)
        if r is None:
            refusal = self.refusal(wrap)
            assert refusal is not None
            raise Refused(refusal.code, **refusal.params)
        return r.value

    def key(self, wrap: bool = False) -> tuple[Tile, ...]:
        """A canonical form: a group's colour order does not matter, a run's does. Which
        readings a meld has follows the rules (``wrap``: runs past 13): ``[J,J,k1]`` is
        only a group where runs do not wrap, so ``[J,k1,J]`` is the same meld.

        >>> Meld.of("J", "J", "k1").key() == Meld.of("J", "k1", "J").key()
        True
        >>> Meld.of("J", "J", "k1").key(True) == Meld.of("J", "k1", "J").key(True)
        False
        """
        readings = analyse(self.tiles, wrap)[0]
        if readings and all(r.kind is Kind.GROUP for r in readings):
            return tuple(sorted(self.tiles))
        return self.tiles

    def to_json(self) -> list[str] | dict[str, Any]:
        if self.kind is None:
            return format_tiles(self.tiles)
        return {"kind": self.kind.value, "tiles": format_tiles(self.tiles)}

    def __str__(self) -> str:
        return _fmt(self.tiles)

    def __repr__(self) -> str:
        args = ", ".join(repr(str(t)) for t in self.tiles)
        return f"Meld.of({args})" if self.kind is None else f"Meld({self.tiles!r}, {self.kind})"

    def __len__(self) -> int:
        return len(self.tiles)


Board = tuple[Meld, ...]


def parse_board(data: Any) -> Board:
    """A board is a list of melds; the error names the meld that cannot be read."""
    if not isinstance(data, list | tuple):
        raise NotationError("board.not_a_list", board=data)
    melds = []
    for i, item in enumerate(data):
        if not isinstance(item, list | tuple | Mapping):
            raise NotationError("board.meld_not_a_list", i=i + 1, item=item)
        try:
            melds.append(Meld.parse(item))
        except NotationError as exc:
            raise NotationError("board.meld", i=i + 1, why=exc.refusal) from None
    return tuple(melds)


def format_board(board: Iterable[Meld]) -> list[list[str] | dict[str, Any]]:
    return [m.to_json() for m in board]


def board_tiles(board: Iterable[Meld]) -> list[Tile]:
    return [t for m in board for t in m.tiles]
