"""The prizes per place (issue #27, 8): a title per place or range of places, read
back in order; places out of range, a place with two prizes, a title too long or with
an invisible character are refused."""

from __future__ import annotations

import pytest

from meldtour.tournament import TournamentError
from meldtour.tournament.prizes import (
    PlacePrize,
    parse_prizes,
    places_text,
    prizes_data,
    prizes_value,
    title_of,
)

BUSAN = [
    (2, 4, "WRC 선발전 출전권 +  보드게임"),
    (1, 1, "부산시장상 + WRC 선발전 출전권 + 트로피"),
    (5, 5, ""),
]


def test_busan_prizes_per_place() -> None:
    prizes = parse_prizes(BUSAN)
    assert prizes == (
        PlacePrize(1, 1, "부산시장상 + WRC 선발전 출전권 + 트로피"),
        PlacePrize(2, 4, "WRC 선발전 출전권 + 보드게임"),
    )
    assert [title_of(prizes, n) for n in (1, 2, 4, 5)] == [
        "부산시장상 + WRC 선발전 출전권 + 트로피",
        "WRC 선발전 출전권 + 보드게임",
        "WRC 선발전 출전권 + 보드게임",
        "",
    ]
    assert [places_text(p) for p in prizes] == ["1", "2–4"]
    assert prizes_value(prizes_data(prizes)) == prizes
    assert prizes_value(None) == ()


@pytest.mark.parametrize(
    ("lines", "code"),
    [
        ([(0, 1, "x")], "prize.places"),
        ([(3, 2, "x")], "prize.places"),
        ([(-1, -1, "x")], "prize.places"),
        ([(1, 3, "a"), (3, 4, "b")], "prize.overlap"),
        ([(1, 1, "x" * 121)], "prize.title"),
        ([(1, 1, "상\u202e")], "registration.invisible_character"),
    ],
)
def test_bad_prizes_are_refused(lines: list[tuple[int, int, str]], code: str) -> None:
    with pytest.raises(TournamentError) as refused:
        parse_prizes(lines)
    assert refused.value.code == code
