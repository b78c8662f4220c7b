"""RULES.md §4: the initial meld (001's examples) and manipulation (002's and 003's)."""

import pytest

from meldtour.core.moves import Fault, check_play
from meldtour.core.rules import find_rules

from .helpers import board, rack

KRC = find_rules("krc-2015")


def initial(rack_text: str, *melds: str, on_table: tuple[str, ...] = ()) -> tuple[bool, str | None]:
    before = board(*on_table)
    v = check_play(before, rack(rack_text), (*before, *board(*melds)), False, KRC)
    return v.legal, v.reason


# 001: 좋은 예 / 나쁜 예 (good and bad initial melds).
@pytest.mark.parametrize(
    "melds",
    [
        ("k8 r8 o8 b8",),  # 검정8, 빨강8, 주홍8, 파랑8
        ("b6 b7 b8 b9",),  # 파랑6, 파랑7, 파랑8, 파랑9
        ("k7 r7 b7", "r4 r5 r6"),  # 검정7, 빨강7, 파랑7 + 빨강4, 빨강5, 빨강6
        ("k9 k10 J",),  # 자신이 가진 조커를 활용: 검정9, 검정10, 조커
    ],
)
def test_001_initial_melds_that_pass(melds: tuple[str, ...]) -> None:
    tiles = " ".join(melds) + " r13 b1"
    assert initial(tiles, *melds) == (True, None)


@pytest.mark.parametrize(
    ("melds", "reason"),
    [
        (("k8 r8 o8",), "worth 24"),  # 24 < 30
        (("b6 r7 o8 k9",), "neither a run"),  # not a set
        (("k4 r4 b4", "r1 r2 r3"), "worth 18"),  # 12 + 6 = 18
    ],
)
def test_001_initial_melds_that_fail(melds: tuple[str, ...], reason: str) -> None:
    legal, why = initial(" ".join(melds), *melds)
    assert not legal and why is not None and reason in why


def test_initial_meld_may_not_touch_the_table_even_to_replace_a_joker() -> None:
    # 001 §3.4: before the initial meld, a tile that would replace a table joker is no use.
    before = board("r5 r6 J")
    after = (*board("r5 r6 r7"), *board("J k11 k12"))
    v = check_play(before, rack("r7 k11 k12"), after, False, KRC)
    assert not v.legal and v.reason is not None
    assert "may not use or move tiles on the table" in v.reason
    # Extending a table meld with your own tile before melding is refused too.
    v = check_play(before, rack("r8 k10 k11 k12"), board("r5 r6 J r8", "k10 k11 k12"), False, KRC)
    assert not v.legal


def test_initial_meld_beside_an_untouched_table_is_fine_in_any_order() -> None:
    before = board("k3 r3 o3", "b1 b2 b3")
    after = (*board("b10 b11 b12"), *board("o3 k3 r3"), *board("b1 b2 b3"))
    assert check_play(before, rack("b10 b11 b12"), after, False, KRC).legal


def test_after_the_initial_meld_any_value_will_do() -> None:
    assert check_play(board("r4 r5 r6"), rack("r7"), board("r4 r5 r6 r7"), True, KRC).legal


def play(before: tuple[str, ...], rack_text: str, after: tuple[str, ...]) -> bool:
    v = check_play(board(*before), rack(rack_text), board(*after), True, KRC)
    assert v.legal, v.reason
    return v.legal


# 002 §5: manipulation after the initial meld.
def test_002_a_extend_runs() -> None:
    play(("r1 r2 r3",), "r4", ("r1 r2 r3 r4",))  # 1-2-3-(4)
    play(("r3 r4 r5",), "r1 r2", ("r1 r2 r3 r4 r5",))  # (1)-(2)-3-4-5
    play(("r1 r2 r3", "r5 r6 r7"), "r4", ("r1 r2 r3 r4 r5 r6 r7",))  # 1-2-3-(4)-5-6-7


def test_002_b_add_a_colour_to_a_group() -> None:
    play(("r1 k1 b1",), "o1", ("r1 k1 b1 o1",))


def test_002_c_use_a_tile_from_another_meld() -> None:
    # 2-3-4 and 5-5-5-5: take the 5 of the run's colour, add your 6.
    play(("b2 b3 b4", "k5 r5 o5 b5"), "b6", ("b2 b3 b4 b5 b6", "k5 r5 o5"))


def test_002_d_e_jokers_and_new_melds() -> None:
    play(("r1 r2 r3",), "J k9 k10", ("r1 r2 r3", "k9 k10 J"))
    play(("r1 r2 r3",), "o4 o5 o6", ("r1 r2 r3", "o4 o5 o6"))


# 003 "새로운 조합의 방법" 1-5.
def test_003_1_add_tiles_to_make_new_melds() -> None:
    play(("b4 b5 b6", "o8 r8 k8"), "b3 b8", ("b3 b4 b5 b6", "o8 r8 k8 b8"))


def test_003_2_take_a_tile_from_a_group() -> None:
    play(("k4 r4 o4 b4",), "b3 b5 b6", ("b3 b4 b5 b6", "k4 r4 o4"))


def test_003_3_add_then_split_off() -> None:
    play(("b8 b9 b10",), "b11 k8 o8", ("b9 b10 b11", "b8 k8 o8"))


def test_003_4_split_a_run() -> None:
    play(("r4 r5 r6 r7 r8",), "r6", ("r4 r5 r6", "r6 r7 r8"))


def test_003_5_combined_rearrangements() -> None:
    play(("o1 o2 o3 o4", "r1 k1 o1 b1"), "b1", ("o2 o3 o4", "k1 o1 b1", "o1 r1 b1"))
    play(
        ("o5 o6 o7", "r5 r6 r7", "k5 k6 k7 k8 k9"),
        "k10 b5",
        ("k8 k9 k10", "o5 r5 k5 b5", "o6 r6 k6", "o7 r7 k7"),
    )


def test_003_6_move_a_joker_where_you_need_it() -> None:
    # Replace the joker with the tile it stands for and use it again at once.
    play(("r5 r6 J",), "r7 k3 k4", ("r5 r6 r7", "k3 k4 J"))


def test_a_joker_may_leave_a_meld_with_no_replacement_by_default() -> None:
    # RULES.md §4.2: [r5,r6,r7,J] keeps three tiles, so the joker is free (every preset).
    play(("r5 r6 r7 J",), "k2 k3", ("r5 r6 r7", "k2 k3 J"))


def test_joker_retrieval_replace_needs_the_tile_it_stood_for() -> None:
    rules = KRC.replace(joker_retrieval="replace")
    v = check_play(board("r5 r6 r7 J"), rack("k2 k3"), board("r5 r6 r7", "k2 k3 J"), True, rules)
    assert not v.legal and v.reason is not None and "r8" in v.reason
    ok = check_play(
        board("r5 r6 r7 J"), rack("r8 k2 k3"), board("r5 r6 r7 r8", "k2 k3 J"), True, rules
    )
    assert ok.legal, ok.reason
    # Moving a joker to another place where it plays the same role is not freeing it.
    same = check_play(board("r5 r6 J"), rack("r8"), board("r5 r6 J r8"), True, rules)
    assert same.legal, same.reason


@pytest.mark.parametrize(
    ("before", "rack_text", "after", "fault", "reason"),
    [
        (("r4 r5 r6",), "r7", ("r4 r5 r7",), Fault.MALFORMED, "tile r6 was on the board"),
        (("r4 r5 J",), "k1", ("r4 r5 r6",), Fault.MALFORMED, "tile r6 is not on your rack"),
        (("r4 r5 J",), "r6 k9 k10", ("r4 r5 r6", "k9 k10"), Fault.MALFORMED, "joker"),
        (("r4 r5 r6",), "r4", ("r4 r5 r6",), Fault.EMPTY, "no tile from your rack"),
        (("r4 r5 r6",), "r7 r9", ("r4 r5 r6 r7", "r9"), Fault.ILLEGAL, "meld 2"),
        (("r4 r5 r6",), "r7", ("r4 r5 r6 r7 r7",), Fault.MALFORMED, "2 × r7"),
    ],
)
def test_illegal_plays_say_exactly_why(
    before: tuple[str, ...], rack_text: str, after: tuple[str, ...], fault: Fault, reason: str
) -> None:
    v = check_play(board(*before), rack(rack_text), board(*after), True, KRC)
    assert not v.legal and v.fault is fault
    assert v.reason is not None and reason in v.reason, v.reason


def test_the_player_s_own_rack_tiles_only_once_each() -> None:
    v = check_play((), rack("k8 r8 o8 b8"), board("k8 r8 o8 b8", "k8 r8 o8"), False, KRC)
    assert not v.legal


def test_the_core_search_values_two_jokers_by_their_places() -> None:
    # RULES.md §2: [k9,J,J] is the run 9-10-11, worth 30: a legal initial meld.
    from meldtour.core.search import best_rack_melds, can_initial_meld

    assert best_rack_melds(rack("k9 J J"))[0] == 30
    assert can_initial_meld(rack("k9 J J"), 30)
    assert best_rack_melds(rack("J J k7"))[0] == 24  # laid as the run 7-8-9
