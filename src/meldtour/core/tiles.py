"""Tiles, colours and the 106-tile set, with their notation (docs/rules.md,
"Tiles and melds").

A tile is written as its colour letter and number (``k1`` … ``b13``) or ``J`` for a
joker. Two identical tiles are written the same: the notation carries no identity.

>>> Tile.parse("r7")
Tile('r7')
>>> str(Tile.parse("J"))
'J'
>>> Tile.parse("r7").number, Tile.parse("r7").colour
(7, Colour.RED)
>>> len(full_set())
106
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from typing import Final

from .refusal import Refusal, Refused, english, register

register(
    {
        "tile.bad_colour": "unknown colour letter %(letter)r",
        "tile.bad": "bad tile %(text)r: write a colour letter k, r, o or b and a number 1-13 "
        "(like 'r7'), or J for a joker",
        "tile.not_a_list_string": "expected a list of tiles, got the string %(text)r",
        "tile.not_a_list": "expected a list of tiles, got %(got)r",
        "tile.too_many_jokers": "%(n)s jokers: the set has two",
        "tile.too_many": "three or more %(tile)s tiles: the set has two of each",
    }
)


class NotationError(Refused):
    """A tile, meld or board string that cannot be read."""


class Colour(enum.IntEnum):
    """The four tile colours, by their notation letter."""

    BLACK = 0  # k (검정)
    RED = 1  # r (빨강)
    ORANGE = 2  # o (주홍/주황, "yellow" in many sets)
    BLUE = 3  # b (파랑)

    @property
    def letter(self) -> str:
        return COLOUR_LETTERS[self]

    @classmethod
    def from_letter(cls, letter: str) -> Colour:
        try:
            return cls(COLOUR_LETTERS.index(letter))
        except ValueError:
            raise NotationError("tile.bad_colour", letter=letter) from None

    def __repr__(self) -> str:
        return f"Colour.{self.name}"


COLOUR_LETTERS: Final = "krob"
NUMBERS: Final = range(1, 14)
JOKER_CODE: Final = 52
#: Number of distinct tile kinds (52 numbered tiles and the joker).
KINDS: Final = 53


class Tile(int):
    """One tile kind, as a small int: ``colour * 13 + number - 1``, and 52 for the joker.

    Tiles are singletons (``Tile.parse`` and ``tile()`` return the same object), so
    they hash and compare as fast as ints and can index count vectors directly.
    """

    __slots__ = ()

    @property
    def is_joker(self) -> bool:
        return int(self) == JOKER_CODE

    @property
    def number(self) -> int:
        """The printed number, 1–13; 0 for the joker."""
        return 0 if int(self) == JOKER_CODE else int(self) % 13 + 1

    @property
    def colour(self) -> Colour | None:
        """The tile's colour; ``None`` for the joker."""
        return None if int(self) == JOKER_CODE else Colour(int(self) // 13)

    @staticmethod
    def parse(text: str) -> Tile:
        """Read ``k1`` … ``b13`` or ``J``; the error quotes the bad string."""
        try:
            return _BY_TEXT[text]
        except (KeyError, TypeError):
            raise NotationError("tile.bad", text=text) from None

    def __str__(self) -> str:
        return _TEXT[int(self)]

    def __repr__(self) -> str:
        return f"Tile({_TEXT[int(self)]!r})"


_TEXT: Final[list[str]] = [f"{c}{n}" for c in "krob" for n in NUMBERS] + ["J"]
TILES: Final[tuple[Tile, ...]] = tuple(int.__new__(Tile, code) for code in range(KINDS))
_BY_TEXT: Final[dict[str, Tile]] = {text: TILES[code] for code, text in enumerate(_TEXT)}
JOKER: Final[Tile] = TILES[JOKER_CODE]


def tile(colour: Colour | int, number: int) -> Tile:
    """The numbered tile of this colour and number."""
    if not 1 <= number <= 13:
        raise ValueError(f"tile number {number} is outside 1-13")
    return TILES[int(colour) * 13 + number - 1]


def parse_tiles(texts: Iterable[str]) -> tuple[Tile, ...]:
    """Read a list of tile strings (a rack, or one meld's tiles)."""
    if isinstance(texts, str):
        raise NotationError("tile.not_a_list_string", text=texts)
    try:
        items = list(texts)
    except TypeError:
        raise NotationError("tile.not_a_list", got=texts) from None
    return tuple(Tile.parse(t) for t in items)


def format_tiles(tiles: Iterable[Tile]) -> list[str]:
    return [_TEXT[int(t)] for t in tiles]


def full_set() -> tuple[Tile, ...]:
    """The 106 tiles: 1–13 in four colours, two copies each, and two jokers."""
    return (*tuple(TILES[code] for code in range(52) for _ in range(2)), JOKER, JOKER)


def counts(tiles: Iterable[int]) -> list[int]:
    """A count vector indexed by tile code (length 53)."""
    vec = [0] * KINDS
    for t in tiles:
        vec[t] += 1
    return vec


def from_counts(vec: Sequence[int]) -> tuple[Tile, ...]:
    """The sorted tiles of a count vector."""
    return tuple(TILES[code] for code, n in enumerate(vec) for _ in range(n))


def over_the_set(tiles: Iterable[int]) -> str | None:
    """Why these tiles cannot all exist in one 106-tile set, or None if they can.

    >>> over_the_set(parse_tiles(["r5", "r5", "r5"]))
    'three or more r5 tiles: the set has two of each'
    """
    refusal = beyond_the_set(tiles)
    return None if refusal is None else english(refusal)


def beyond_the_set(tiles: Iterable[int]) -> Refusal | None:
    """Why these tiles cannot all exist in one 106-tile set (a refusal), or None."""
    vec = counts(tiles)
    for code, n in enumerate(vec):
        if code == JOKER_CODE and n > 2:
            return Refusal("tile.too_many_jokers", {"n": n})
        if code != JOKER_CODE and n > 2:
            return Refusal("tile.too_many", {"tile": _TEXT[code]})
    return None


def value(tiles: Iterable[Tile], joker_value: int = 0) -> int:
    """The sum of the printed numbers, with ``joker_value`` for each joker."""
    return sum(joker_value if t == JOKER_CODE else t % 13 + 1 for t in tiles)


def sort_key_colour(t: Tile) -> tuple[int, int]:
    """Rack order by colour, then number; jokers last."""
    return (int(t), 0)


def sort_key_number(t: Tile) -> tuple[int, int]:
    """Rack order by number, then colour; jokers last."""
    return (99, 0) if t == JOKER_CODE else (t % 13, t // 13)
