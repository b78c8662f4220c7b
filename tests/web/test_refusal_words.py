"""Every refusal of the game side (the core, the solver, the computer players, the live
tables, online rounds and the JSON-lines commands) has its words in Korean and
Japanese, with the same named blanks as its English template, and the pages say a
refusal by its code."""

from __future__ import annotations

import importlib
import re

import pytest

from meldtour.core.refusal import TEMPLATES, Refusal
from meldtour.web.i18n import translations

#: The modules that declare the game side's codes.
MODULES = (
    "meldtour.core.game",
    "meldtour.core.record",
    "meldtour.core.analysis",
    "meldtour.solver",
    "meldtour.players.levels",
    "meldtour.live.game",
    "meldtour.live.online",
    "meldtour.cli.jsonlines",
    "meldtour.web.routes.play",
)
#: The game side's code prefixes (the tournament and store side has its own).
PREFIXES = (
    "tile.",
    "meld.",
    "board.",
    "play.",
    "turn.",
    "redeal.",
    "game.",
    "rules.",
    "record.",
    "score.",
    "player.",
    "input.",
    "table.",
    "live.",
)
# A named blank with its conversion: %(n)s, %(seat)r, %(left).1f.
BLANK = re.compile(r"%\((\w+)\)[#0 +-]*\d*(?:\.\d+)?[a-z]")


def codes() -> list[str]:
    for name in MODULES:
        importlib.import_module(name)
    return sorted(c for c in TEMPLATES if c.startswith(PREFIXES))


def test_the_game_side_declares_its_codes() -> None:
    found = codes()
    assert len(found) > 100
    for code in (
        "meld.too_short",
        "meld.not_run_or_group",
        "play.initial_meld_too_low",
        "turn.not_yours",
        "record.seed_not_int",
        "table.taken",
        "live.online.round_closed",
    ):
        assert code in found


@pytest.mark.parametrize("locale", ["ko", "ja"])
def test_every_code_has_its_words(locale: str) -> None:
    messages = translations(locale).messages
    for code in codes():
        template = TEMPLATES[code]
        said = messages.get(template)
        assert said, (locale, code, "untranslated")
        assert sorted(BLANK.findall(said)) == sorted(BLANK.findall(template)), (locale, code)
        assert sorted(m.group(0) for m in BLANK.finditer(said)) == sorted(
            m.group(0) for m in BLANK.finditer(template)
        ), (locale, code)


def test_every_code_has_english_words_on_the_pages() -> None:
    messages = translations("en").messages
    for code in codes():
        assert messages.get(TEMPLATES[code]), code


def test_a_refusal_is_said_by_its_code() -> None:
    from meldtour.web.routes.play import explain, refusal_of

    why = Refusal("meld.not_run", {"meld": "[r4,b5,r6]", "why": Refusal("meld.run_one_colour")})
    refusal = Refusal("board.meld", {"i": 1, "why": why})
    ko = translations("ko").gettext
    assert explain(refusal, ko) == (
        "1번째 세트: [빨강 4, 파랑 5, 빨강 6] 는 올바른 연속(런)이 "
        "아닙니다: 연속은 모두 같은 색이어야 합니다"
    )
    # Over the wire (a cluster's other node): the same words from the code and arguments.
    assert refusal_of(refusal.to_json()) == refusal
    assert (
        explain(Refusal("turn.not_yours", {"current": 1, "seat": 0}), translations("ja").gettext)
        == "あなたの手番ではありません"
    )
