"""A knockout round is named by the players entering it (32강전 → 16강전 → 8강전 →
결승전, seed 000), its final by fitting one table; seating rounds keep their number."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from meldtour.core.rules import find_rules
from meldtour.tournament import (
    Division,
    StageFormat,
    Tournament,
    check_in,
    register,
    seat_round,
    start_division,
    start_stage,
)
from meldtour.tournament.round_names import RoundName, knockout_round_name, round_name
from meldtour.tournament.simulate import play_round


def test_32_16_8_then_the_final() -> None:
    assert knockout_round_name(32, 4) == RoundName("of", 32)
    assert knockout_round_name(16, 4) == RoundName("of", 16)
    assert knockout_round_name(8, 4) == RoundName("of", 8)
    assert knockout_round_name(4, 4) == RoundName("final", 4)


def test_a_three_player_table_is_a_final() -> None:
    assert knockout_round_name(3, 4) == RoundName("final", 3)
    assert knockout_round_name(3, 3) == RoundName("final", 3)
    assert knockout_round_name(6, 3) == RoundName("of", 6)


def test_an_empty_round_is_refused() -> None:
    with pytest.raises(ValueError):
        knockout_round_name(0, 4)


@given(st.integers(1, 500), st.integers(3, 5))
def test_the_final_is_the_round_that_fits_one_table(players: int, size: int) -> None:
    name = knockout_round_name(players, size)
    assert (name.kind == "final") == (players <= size)
    assert name.n == players


def knockout(players: int, kind: str = "knockout") -> Tournament:
    fmt = (
        StageFormat(kind, games=1, advance=2, final_games=1, name="토너먼트")
        if kind == "knockout"
        else StageFormat(kind, games=1, seatings=3, name="예선")
    )
    div = Division("kids", "초등부", 64, find_rules("krc-2015"), (fmt,))
    t = Tournament("부산", "2015-08-15", (div,), seed=2015)
    for i in range(players):
        t = register(t, "kids", f"선수{i + 1}").tournament
    for r in t.registrations:
        t = check_in(t, r.player).tournament
    t = start_division(t, "kids").tournament
    return start_stage(t, "kids").tournament


def play_knockout(t: Tournament) -> Tournament:
    """Every round of the division's knockout, seated, played and closed."""
    for n in range(10):
        stage = t.division("kids").stages[-1]
        if stage.finished:
            return t
        t = play_round(t, "kids", seed=n).tournament
    raise AssertionError("the knockout did not finish")


def test_a_32_player_knockout_names_its_rounds_as_the_programme() -> None:
    t = play_knockout(knockout(32))
    stage = t.division("kids").stages[-1]
    names = [round_name(stage, r) for r in stage.rounds]
    assert names == [
        RoundName("of", 32),
        RoundName("of", 16),
        RoundName("of", 8),
        RoundName("final", 4),
    ]
    assert round_name(stage, 2) == RoundName("of", 16)  # by its number too


def test_a_seating_stage_keeps_round_numbers() -> None:
    t = seat_round(knockout(12, "seatings"), "kids").tournament
    stage = t.division("kids").stages[-1]
    assert round_name(stage, stage.rounds[0]) == RoundName("number", 1)
