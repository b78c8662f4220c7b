from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from meldtour.core.tiles import (
    JOKER,
    TILES,
    Colour,
    NotationError,
    Tile,
    format_tiles,
    full_set,
    parse_tiles,
    sort_key_number,
    tile,
)


def test_the_set_has_106_tiles_two_of_each_and_two_jokers() -> None:
    tiles = full_set()
    assert len(tiles) == 106
    c = Counter(tiles)
    assert c[JOKER] == 2
    assert all(c[t] == 2 for t in TILES if not t.is_joker)
    assert len(c) == 53


def test_notation_round_trips_for_every_tile() -> None:
    for t in TILES:
        assert Tile.parse(str(t)) is t
    assert str(tile(Colour.ORANGE, 13)) == "o13"
    assert Tile.parse("k1").colour is Colour.BLACK and Tile.parse("k1").number == 1
    assert Tile.parse("J").is_joker and Tile.parse("J").colour is None


@pytest.mark.parametrize("bad", ["r0", "r14", "x5", "R5", "r 5", "", "j", "r05", "JJ", "b-1"])
def test_a_bad_tile_string_is_quoted_in_the_error(bad: str) -> None:
    with pytest.raises(NotationError, match=repr(bad).replace("[", r"\[")):
        Tile.parse(bad)


def test_a_rack_must_be_a_list_not_a_string() -> None:
    with pytest.raises(NotationError, match="list of tiles"):
        parse_tiles("r5")  # type: ignore[arg-type]


@given(st.lists(st.sampled_from(TILES), max_size=30))
def test_parse_format_round_trip(tiles: list[Tile]) -> None:
    assert list(parse_tiles(format_tiles(tiles))) == tiles


def test_sort_by_number_puts_jokers_last() -> None:
    tiles = parse_tiles(["J", "b2", "k2", "r1"])
    assert format_tiles(sorted(tiles, key=sort_key_number)) == ["r1", "k2", "b2", "J"]
