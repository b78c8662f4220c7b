"""A pasted list's division as a person types it (issue 27 item 3): Busan's
`초등 저학년부` for `초등 저학년부 (1~3학년)`; key or title, width and spaces aside;
refused only when nothing or more than one division fits."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from meldtour.tournament.division_names import bare, fold, match_division

BUSAN = [
    ("general", "일반부"),
    ("lower", "초등 저학년부 (1~3학년)"),
    ("upper", "초등 고학년부 (4~6학년)"),
]


def test_the_title_without_its_bracket() -> None:
    assert match_division(BUSAN, "초등 저학년부") == "lower"
    assert match_division(BUSAN, "초등저학년부") == "lower"
    assert match_division(BUSAN, "초등 고학년부 (4~6학년)") == "upper"
    assert match_division(BUSAN, "초등 고학년부(4～6학년)") == "upper"  # full-width ～
    assert bare("초등 저학년부 (1~3학년)") == "초등 저학년부"


def test_key_title_word_and_prefix() -> None:
    assert match_division(BUSAN, "general") == "general"
    assert match_division(BUSAN, " ＧＥＮＥＲＡＬ ") == "general"
    assert match_division(BUSAN, "일반") == "general"  # the start of the title
    assert match_division(BUSAN, "저학년부") == "lower"  # a word of the title
    assert match_division(BUSAN, "초등 저") == "lower"  # the start, spaces aside
    assert match_division(BUSAN, "upp") == "upper"


def test_nothing_or_two_fits_is_refused() -> None:
    assert match_division(BUSAN, "초등") is None  # both elementary divisions
    assert match_division(BUSAN, "중등부") is None
    assert match_division(BUSAN, "") is None
    assert match_division(BUSAN, "일") is None  # one character is too little to guess


def test_an_exact_title_wins_over_a_longer_one() -> None:
    divs = [("a", "오픈"), ("b", "오픈 시니어")]
    assert match_division(divs, "오픈") == "a"
    assert match_division(divs, "오픈 시") == "b"


@given(st.sampled_from(BUSAN), st.sampled_from(["", " ", "　"]), st.booleans())
def test_every_division_is_found_by_its_own_title_or_key(
    div: tuple[str, str], pad: str, by_key: bool
) -> None:
    key, title = div
    typed = pad + (key.upper() if by_key else title) + pad
    assert match_division(BUSAN, typed) == key
    assert fold(typed) == fold(key if by_key else title)
