"""Every refusal of the tournament engine and the store has its words in Korean,
Japanese and English: the pages translate refusals by code (core/refusal.py), and
each code's English template is a message id of the catalogs."""

from __future__ import annotations

import re

import pytest

import meldtour.application
import meldtour.store.backup
import meldtour.store.db
import meldtour.store.games
import meldtour.store.online
import meldtour.store.owners
import meldtour.store.refusals
import meldtour.store.repository
import meldtour.tournament
import meldtour.tournament.ranking
import meldtour.tournament.refusals
import meldtour.tournament.side
import meldtour.tournament.templates
import meldtour.web.director  # noqa: F401  (every module above registers codes)
from meldtour.application import UseCaseError
from meldtour.core.refusal import TEMPLATES, Refusal, render
from meldtour.tournament import TournamentError
from meldtour.tournament.refusals import status
from meldtour.web.i18n import translations
from meldtour.web.views import refusal_text

#: The code prefixes of the tournament engine, the store and the use cases.
PREFIXES = (
    "tournament.",
    "division.",
    "stage.",
    "registration.",
    "seating.",
    "sheet.",
    "standings.",
    "ranking.",
    "poll.",
    "store.",
    "gamelog.",
    "online.",
    "owner.",
    "usecase.",
    "undo.",
    "numbering.",
    "settings.",
    "account.",
)

PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")


def codes() -> list[str]:
    return sorted(c for c in TEMPLATES if c.startswith(PREFIXES))


def test_the_codes_are_many() -> None:
    assert len(codes()) > 100


@pytest.mark.parametrize("locale", ["ko", "ja"])
def test_every_code_has_its_words(locale: str) -> None:
    catalog = translations(locale).messages
    for code in codes():
        english = TEMPLATES[code]
        words = catalog.get(english, "")
        assert words.strip(), (locale, code, english)
        assert sorted(PLACEHOLDER.findall(words)) == sorted(PLACEHOLDER.findall(english)), (
            locale,
            code,
            words,
        )


def test_every_code_has_english_words() -> None:
    catalog = translations("en").messages
    missing = [c for c in codes() if not catalog.get(TEMPLATES[c], "").strip()]
    assert not missing


def test_a_nested_refusal_is_translated_inside_its_reason() -> None:
    ko = translations("ko").gettext
    inner = Refusal("seating.final_table_too_few", {"n": 2})
    exc = TournamentError("division.seating", div="General", reason=inner)
    assert str(exc) == "General: 2 players cannot make a final table"
    assert refusal_text(exc, ko) == "General: 2명으로는 결승 테이블을 만들 수 없습니다"
    row = UseCaseError(
        "usecase.row",
        line=3,
        reason=Refusal("registration.not_playing", {"name": "Kim", "status": status("no_show")}),
    )
    assert str(row) == "row 3: Kim is no_show, not playing"
    assert render(row.refusal, ko) == "3행: Kim 님은 경기 중이 아닙니다 (불참)"


def test_a_use_case_keeps_the_engine_code() -> None:
    engine = TournamentError("division.started", div="General")
    again = UseCaseError.of(engine)
    assert (again.code, dict(again.params), str(again)) == (
        "division.started",
        {"div": "General"},
        "General has started",
    )


def test_no_store_sentence_names_the_command_line() -> None:
    store = [
        c
        for c in codes()
        if c.startswith(("store.", "usecase.", "owner.", "online.", "gamelog.", "sheet."))
    ]
    schema = {"store.not_meldtour_database", "store.no_schema", "store.schema_old"}
    for code in store:
        if code not in schema:  # the schema's words are for whoever runs the server
            words = TEMPLATES[code]
            assert "`meldtour " not in words and " --" not in words and "-t SLUG" not in words, code
