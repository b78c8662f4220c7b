"""The beginner's extension of the table's melds: the cheap test that skips a tile which
shares neither number nor colour with a meld changes nothing it decides."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from meldtour.core.melds import Meld
from meldtour.core.tiles import JOKER, TILES, Tile
from meldtour.players.beginner import _may_join, extend_melds

ANY = st.sampled_from(TILES)


def extended_by_readings(
    board: tuple[Meld, ...], rack: list[Tile], wrap: bool
) -> tuple[tuple[Meld, ...], list[Tile]]:
    """The extension as it was, every tile tried on every meld by its readings."""
    melds, left, changed = list(board), list(rack), True
    while changed and left:
        changed = False
        for t in list(left):
            for i, m in enumerate(melds):
                for new in (Meld((*m.tiles, t)), Meld((t, *m.tiles))):
                    if new.is_valid(wrap):
                        melds[i], changed = new, True
                        left.remove(t)
                        break
                else:
                    continue
                break
    return tuple(melds), left


@given(st.lists(ANY, min_size=2, max_size=5), ANY, st.booleans())
def test_a_tile_the_cheap_test_skips_makes_no_valid_meld(
    tiles: list[Tile], t: Tile, wrap: bool
) -> None:
    meld = Meld(tuple(tiles))
    if not _may_join(meld, t):
        assert not Meld((*meld.tiles, t)).is_valid(wrap)
        assert not Meld((t, *meld.tiles)).is_valid(wrap)


@st.composite
def valid_melds(draw: st.DrawFn) -> Meld:
    """A run (a colour, 3–6 numbers in a row) or a group (a number, 3–4 colours), with a
    joker in place of one tile now and then."""
    if draw(st.booleans()):
        colour = draw(st.integers(0, 3))
        length = draw(st.integers(3, 6))
        start = draw(st.integers(0, 13 - length))
        tiles = [TILES[colour * 13 + start + i] for i in range(length)]
    else:
        number = draw(st.integers(0, 12))
        colours = draw(st.lists(st.integers(0, 3), min_size=3, max_size=4, unique=True))
        tiles = [TILES[c * 13 + number] for c in colours]
    if draw(st.booleans()):
        tiles[draw(st.integers(0, len(tiles) - 1))] = JOKER
    return Meld(tuple(tiles))


@settings(max_examples=300)
@given(st.lists(valid_melds(), max_size=6), st.lists(ANY, max_size=14), st.booleans())
def test_the_extension_is_the_one_by_readings(
    board: list[Meld], rack: list[Tile], wrap: bool
) -> None:
    assert all(m.is_valid(False) for m in board)
    assert extend_melds(tuple(board), rack, wrap) == extended_by_readings(tuple(board), rack, wrap)
