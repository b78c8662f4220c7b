"""Score sheets: checks naming the cell, drafts kept, corrections audited."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meldtour.core.rules import find_rules
from meldtour.tournament.sheets import (
    check_sheet,
    correct,
    enter_cell,
    enter_game,
    new_sheet,
    penalty_marks,
    rack_limit,
    results,
    submit,
)
from meldtour.tournament.simulate import plausible_game

KRC = find_rules("krc-2015")
JAPAN = find_rules("japan")


def sheet4(games: int = 2):  # type: ignore[no-untyped-def]
    return new_sheet(1, 5, (21, 22, 23, 24), games)


def messages(problems) -> list[str]:  # type: ignore[no-untyped-def]
    return [str(p) for p in problems]


def test_a_good_game_has_no_problem() -> None:
    s, problems = enter_game(sheet4(), 1, (24, -5, -16, -3), rules=KRC, who="ref")
    assert problems == ()
    assert s.games[0].winner == 1  # the one player with the most points


def test_zero_sum_names_the_game_row() -> None:
    _, problems = enter_game(sheet4(), 2, (24, -5, -16, -4), rules=KRC, who="ref")
    assert messages(problems) == ["table 5, game 2: the points add up to -1, not 0"]


def test_loser_with_plus_points_names_the_cell() -> None:
    _, problems = enter_game(sheet4(), 1, (20, 5, -16, -9), winner=1, rules=KRC, who="ref")
    assert "table 5, game 1, seat 2 (player 22) points: a loser cannot score +5" in messages(
        problems
    )


def test_a_minus_no_rack_can_hold() -> None:
    limit = rack_limit(KRC, 4)
    assert limit == 696  # 64 tiles at most: two jokers at 50, then the highest numbers
    _, problems = enter_game(sheet4(), 1, (700, -697, -3, 0), winner=1, rules=KRC, who="ref")
    assert messages(problems) == [
        "table 5, game 1, seat 2 (player 22) points: -697 is more than a rack can hold "
        "(at most −696 under krc-2015 at a table of 4)"
    ]
    # the flat no-meld scores are always possible
    _, problems = enter_game(sheet4(), 1, (300, -100, -200, 0), winner=1, rules=KRC, who="r")
    assert problems == ()


def test_rack_limit_depends_on_the_rules_and_the_table() -> None:
    assert rack_limit(find_rules("korea-official"), 4) == 796  # jokers at 100
    assert rack_limit(KRC, 3) > rack_limit(KRC, 4)  # fewer dealt hands elsewhere


def test_the_winner_must_have_the_most_points() -> None:
    _, problems = enter_game(sheet4(), 1, (10, -10, 0, 0), winner=3, rules=KRC, who="ref")
    assert (
        "table 5, game 1, seat 3 (player 23) points: the winner has fewer points than "
        "seat 1" in messages(problems)
    )
    assert any(
        "seat 1 (player 21) points: a loser cannot score +10" in m for m in messages(problems)
    )


def test_exactly_one_winner() -> None:
    s, problems = enter_game(sheet4(1), 1, (0, 0, 0, 0), rules=KRC, who="ref")
    assert problems == ()  # nothing wrong yet, but no winner can be told from the points
    s, problems = submit(s, rules=KRC, who="ref")
    assert messages(problems) == ["table 5, game 1, winner: no winner is marked"]
    s, problems = enter_cell(s, s.cell(1, 0, "winner"), 2, rules=KRC, who="ref")
    s, problems = submit(s, rules=KRC, who="ref")
    assert problems == () and s.status == "submitted"


def test_penalties_under_japan() -> None:
    s, problems = enter_game(
        sheet4(1), 1, (58, -5, -23, -30), penalties=(0, 50, 0, 0), rules=JAPAN, who="ref"
    )
    assert problems == ()
    s, problems = submit(s, rules=JAPAN, who="ref")
    (g,) = results(s)
    assert g.total(22) == -55 and g.total(21) == 58  # × not added to the winner
    assert penalty_marks(100, JAPAN) == "××"
    _, problems = enter_game(
        sheet4(1), 1, (58, -5, -23, -30), penalties=(0, 30, 0, 0), rules=JAPAN, who="ref"
    )
    assert messages(problems) == [
        "table 5, game 1, seat 2 (player 22) penalty: 30 is not the points of a number of × "
        "(50, 100, 150, 200, …)"
    ]
    _, problems = enter_game(
        sheet4(1), 1, (58, -5, -23, -30), penalties=(0, 50, 0, 0), rules=KRC, who="ref"
    )
    assert messages(problems) == [
        "table 5, game 1, seat 2 (player 22) penalty: krc-2015 gives no penalty points"
    ]


def test_a_failing_sheet_stays_a_draft_and_is_never_lost_nor_counted() -> None:
    s, _ = enter_game(sheet4(), 1, (24, -5, -16, -3), rules=KRC, who="ann", at="13:40")
    s, problems = submit(s, rules=KRC, who="ann")
    assert messages(problems) == [
        "table 5, game 2, winner: no winner is marked",
        "table 5, game 2, seat 1 (player 21) points: no points entered",
        "table 5, game 2, seat 2 (player 22) points: no points entered",
        "table 5, game 2, seat 3 (player 23) points: no points entered",
        "table 5, game 2, seat 4 (player 24) points: no points entered",
    ]
    assert s.status == "draft" and s.counted is None and results(s) == ()
    assert s.games[0].points == (24, -5, -16, -3)  # the draft is kept
    assert (s.entered_by, s.entered_at) == ("ann", "13:40")


def test_corrections_keep_old_value_who_and_why() -> None:
    s, _ = enter_game(sheet4(), 1, (24, -5, -16, -3), rules=KRC, who="ann")
    s, _ = enter_game(s, 2, (-6, -11, 22, -5), rules=KRC, who="ann")
    s, problems = submit(s, rules=KRC, who="ann", at="14:40")
    assert problems == () and s.status == "submitted"
    # a correction that breaks the sum stays a draft: the counted sheet still counts
    bad, problems = correct(s, {s.cell(1, 2): -6}, rules=KRC, who="bo", why="recount")
    assert problems and bad.counted == s.counted and bad.games[0].points[1] == -6
    # the whole correction passes
    fixed, problems = correct(
        s,
        {s.cell(1, 1): 25, s.cell(1, 2): -6},
        rules=KRC,
        who="bo",
        why="rack recounted",
        at="15:02",
    )
    assert problems == ()
    assert [(str(c.cell), c.old, c.new, c.who, c.why, c.at) for c in fixed.corrections] == [
        ("table 5, game 1, seat 1 (player 21) points", 24, 25, "bo", "rack recounted", "15:02"),
        ("table 5, game 1, seat 2 (player 22) points", -5, -6, "bo", "rack recounted", "15:02"),
    ]
    assert results(fixed)[0].points == (25, -6, -16, -3)


def test_a_correction_needs_a_reason() -> None:
    s, _ = enter_game(sheet4(1), 1, (24, -5, -16, -3), rules=KRC, who="ann")
    s, _ = submit(s, rules=KRC, who="ann")
    s2, _ = enter_game(s, 1, (25, -6, -16, -3), rules=KRC, who="bo")
    s3, problems = submit(s2, rules=KRC, who="bo")
    assert messages(problems) == ["table 5, game 1: a correction needs a reason"]
    assert s3.counted == s.counted


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    seats=st.sampled_from([3, 4]),
    preset=st.sampled_from(["krc-2015", "korea-official", "standard", "japan"]),
)
def test_generated_results_always_pass(seed: int, seats: int, preset: str) -> None:
    rules = find_rules(preset)
    game = plausible_game(random.Random(seed), seats, rules)
    s = new_sheet(1, 1, tuple(range(1, seats + 1)), 1)
    s, _ = enter_game(
        s, 1, game.points, winner=game.winner, penalties=game.penalties, rules=rules, who="sim"
    )
    assert check_sheet(s, rules) == ()
    assert sum(game.points) == 0
    assert game.points[game.winner - 1] == max(game.points)


def test_entering_out_of_range_is_an_error() -> None:
    with pytest.raises(ValueError):
        enter_game(sheet4(), 3, (0, 0, 0, 0), rules=KRC, who="x")
    with pytest.raises(ValueError):
        enter_game(sheet4(), 1, (0, 0, 0), rules=KRC, who="x")
