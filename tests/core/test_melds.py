"""RULES.md §2: runs and groups, jokers by position."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meldtour.core.melds import Kind, Meld, analyse, parse_board, valid_tiles
from meldtour.core.tiles import JOKER, TILES, NotationError, Tile


def m(text: str, kind: Kind | None = None) -> Meld:
    return Meld(Meld.of(*text.split()).tiles, kind)


@pytest.mark.parametrize(
    "text",
    [
        "r4 r5 r6",
        "b9 b10 b11 b12",
        "k1 k2 k3",
        "o11 o12 o13",
        "k8 r8 o8",
        "k8 r8 o8 b8",
        "b8 k8 r8",  # any colour order in a group
        "J r5 r6",
        "r4 J r6",
        "r4 r5 J",
        "J J r6",  # jokers anywhere in a run
        "k7 J b7",
        "k7 J J",
        "k7 r7 J o7",  # and in a group, even a group of four
        "J r2 r3 r4",
        "r10 r11 r12 J",  # runs that start or end with a joker
        "k1 k2 k3 k4 k5 k6 k7 k8 k9 k10 k11 k12 k13",
    ],
)
def test_valid_melds(text: str) -> None:
    assert m(text).is_valid(), m(text).why_invalid()


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("r4 r5", "at least 3"),
        ("k8 r8 k8", "each colour at most once"),  # a group with two tiles of one colour
        ("k8 r8 o8 b8 J", "at most 4"),
        ("b6 r7 o8 k9", "neither a run"),
        ("r12 r13 r1", "nothing follows 13"),  # no 12-13-1
        ("r12 r13 J J", "nothing follows 13"),
        ("J r1 r2", "below 1"),
        ("r6 r5 r4", "go up by one"),  # a run goes up from left to right
        ("r4 r6 r7", "go up by one"),
        ("r4 J r7", "go up by one"),  # jokers cannot be placed consistently
        ("r4 b5 r6", "neither"),
    ],
)
def test_invalid_melds_say_why(text: str, reason: str) -> None:
    why = m(text).why_invalid()
    assert why is not None and reason in why


def test_joker_number_is_fixed_by_position() -> None:
    r = m("J r5 r6").reading()
    assert r is not None and r.kind is Kind.RUN and r.value == 4 + 5 + 6
    assert [str(t) for t in r.stands_for[0]] == ["r4"]
    assert m("r4 r5 J r7").value() == 22


def test_group_joker_may_be_either_missing_colour() -> None:
    r = m("k7 J b7").reading()
    assert r is not None and r.kind is Kind.GROUP and r.value == 21
    assert sorted(str(t) for t in r.stands_for[0]) == ["o7", "r7"]


def test_two_jokers_read_both_ways_and_count_the_larger() -> None:
    both = m("J J k7")
    assert {r.kind for r in both.readings()} == {Kind.RUN, Kind.GROUP}
    assert both.value() == 21  # group 7-7-7 beats run 5-6-7
    assert m("J J k7", Kind.RUN).value() == 18  # unless the player says it is a run
    assert m("k9 J J").value() == 30  # run 9-10-11 beats group 27


def test_a_declared_kind_that_does_not_fit_is_invalid() -> None:
    why = m("r4 r5 r6", Kind.GROUP).why_invalid()
    assert why is not None and "group" in why


def test_wrap_runs_only_with_the_american_option() -> None:
    assert not m("r12 r13 r1").is_valid()
    assert m("r12 r13 r1").is_valid(wrap=True)
    assert m("r13 J r2").value(wrap=True) == 13 + 1 + 2


def test_boards_parse_with_errors_that_name_the_meld() -> None:
    assert len(parse_board([["r4", "r5", "r6"], {"kind": "run", "tiles": ["J", "J", "k7"]}])) == 2
    with pytest.raises(NotationError, match="meld 2: bad tile 'x'"):
        parse_board([["r4", "r5", "r6"], ["x"]])
    with pytest.raises(NotationError, match="list of melds"):
        parse_board("r4")


# near-runs and near-groups as well as any tiles: most lists of random tiles are invalid
# in their first two tiles, and the interesting cases are the near misses
_RUN = st.tuples(st.integers(0, 3), st.integers(0, 12), st.integers(1, 15)).map(
    lambda a: [TILES[a[0] * 13 + (a[1] + i) % 13] for i in range(a[2])]
)
_GROUP = st.tuples(st.integers(0, 12), st.lists(st.integers(0, 3), max_size=6)).map(
    lambda a: [TILES[c * 13 + a[0]] for c in a[1]]
)
_BASE = st.one_of(_RUN, _GROUP, st.lists(st.sampled_from([*TILES, JOKER]), max_size=8))
TILE_LISTS = st.one_of(
    _BASE,
    st.tuples(_BASE, st.lists(st.integers(0, 15), max_size=3)).map(
        lambda a: [JOKER if i in a[1] else t for i, t in enumerate(a[0])]
    ),
    st.tuples(_BASE, st.lists(st.integers(0, 15), max_size=2)).map(
        lambda a: [*a[0][: a[1][0]], JOKER, *a[0][a[1][0] :]] if a[1] else a[0]
    ),
)


@settings(max_examples=3000, deadline=None)
@given(TILE_LISTS, st.booleans())
def test_the_quick_validity_is_the_readings_one(tiles: list[Tile], wrap: bool) -> None:
    """``valid_tiles`` (the computer players' quick test) says what ``analyse`` says."""
    t = tuple(tiles)
    assert valid_tiles(t, wrap) == bool(analyse(t, wrap)[0]), (t, wrap)
