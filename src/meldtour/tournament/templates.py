"""Tournament templates: the seeds' events, ready to run and to edit (domain data: the
store keeps the tournaments made from them, the application layer makes them).

Each template names its tournament, divisions and stages in the language it is made
in (:data:`WORDS`: Korean, Japanese, English), and says where it is played
(:data:`TEMPLATE_ZONES`, for local times).

- ``busan-2015``: the Korea Rummikub Championship, Busan, 5 December 2015 (000):
  general (64: 2 seatings × 4 games, then a 3-game final of the top 4, not carried),
  elementary 1–3 and 4–6 (32 each: one-game knockout tables, top 2 go on);
- ``japan-championship``: 24 players, 5 balanced seatings × 2 games, then a 2-game
  final of the top 4 with points carried (004);
- ``japan-qualifier``: a regional qualifier of the Japanese championship (004: "予選大会で
  勝ち点100点制で決勝ラウンドを設ける場合も、同様に点数を「持ち越し」て"): league scoring,
  4 balanced seatings × 2 games, then a 2-game final of the top 4 with points carried;
- ``tokyo-monthly``: the Tokyo monthly (月例会, 004): league scoring (100 a win plus
  points: 8 games, 3 wins and +156 make 456), 4 balanced seatings × 2 games, no final;
- ``tohoku``: the Tohoku event of 1 August 2009, the championship's Tohoku qualifier
  (004): league scoring, 3 balanced seatings × 2 games (the seed's "6〜8回戦": a fourth
  seating is one edit), then a 2-game final of the top 4 with points carried; the
  winner goes to the championship;
- ``club-night``: a Tokyo-monthly style evening (004): league scoring (100 a win plus
  points), 4 balanced seatings × 2 games, tables of 3 scaled, late entry allowed,
  clubs kept apart where possible.

The league templates scale a table of 3's points by 4/3 (``three_table="scale"``): its
winner takes about three quarters of what a table of 4 gives.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from meldtour.core.rules import RuleSet, find_rules

from .model import Division, StageFormat, Tournament, TournamentError
from .standings import StandingRules

#: The words of each template in each language: the tournament's, its divisions' and
#: stages' names and who may enter, as a director reading ``locale`` expects them.
WORDS: Final[dict[str, dict[str, str]]] = {
    "ko": {
        "busan": "KRC 2015 부산",
        "general": "일반부",
        "lower": "초등 저학년부 (1~3학년)",
        "upper": "초등 고학년부 (4~6학년)",
        "preliminaries": "예선",
        "final": "결승",
        "knockout": "토너먼트",
        "older": "중학생 이상",
        "grades 1-3": "초등학교 1~3학년",
        "grades 4-6": "초등학교 4~6학년",
        "japan": "루미큐브 일본 선수권",
        "japan division": "일본 선수권",
        "club": "클럽 나이트",
        "qualifier": "루미큐브 일본 선수권 지역 예선",
        "qualifier division": "지역 예선",
        "monthly": "루미큐브 도쿄 월례회",
        "monthly division": "월례회",
        "tohoku": "루미큐브 도호쿠 대회",
        "tohoku division": "도호쿠 대회",
    },
    "ja": {
        "busan": "KRC 2015 釜山",
        "general": "一般の部",
        "lower": "小学校低学年の部（1〜3年）",
        "upper": "小学校高学年の部（4〜6年）",
        "preliminaries": "予選",
        "final": "決勝",
        "knockout": "トーナメント",
        "older": "中学生以上",
        "grades 1-3": "小学1〜3年生",
        "grades 4-6": "小学4〜6年生",
        "japan": "ラミィキューブ日本選手権",
        "japan division": "日本選手権",
        "club": "クラブナイト",
        "qualifier": "ラミィキューブ日本選手権 地区予選会",
        "qualifier division": "地区予選",
        "monthly": "ラミィキューブ東京月例会",
        "monthly division": "月例会",
        "tohoku": "ラミィキューブ東北大会",
        "tohoku division": "東北大会",
    },
    "en": {
        "busan": "KRC 2015 Busan",
        "general": "General",
        "lower": "Elementary grades 1-3",
        "upper": "Elementary grades 4-6",
        "preliminaries": "Preliminaries",
        "final": "Final",
        "knockout": "Knockout",
        "older": "Middle school and older",
        "grades 1-3": "Elementary grades 1-3",
        "grades 4-6": "Elementary grades 4-6",
        "japan": "Rummikub Japan Championship",
        "japan division": "Japan Championship",
        "club": "Club night",
        "qualifier": "Rummikub Japan Championship regional qualifier",
        "qualifier division": "Regional qualifier",
        "monthly": "Rummikub Tokyo monthly",
        "monthly division": "Monthly",
        "tohoku": "Rummikub Tohoku event",
        "tohoku division": "Tohoku event",
    },
}

#: Where each template's event is played: its audit log and times are in that zone.
TEMPLATE_ZONES: Final[dict[str, str]] = {
    "busan-2015": "Asia/Seoul",
    "japan-championship": "Asia/Tokyo",
    "japan-qualifier": "Asia/Tokyo",
    "tokyo-monthly": "Asia/Tokyo",
    "tohoku": "Asia/Tokyo",
    "club-night": "Asia/Tokyo",
}


def busan_2015(name: str, date: str, seed: int, locale: str = "en") -> Tournament:
    w = WORDS[locale]
    krc = find_rules("krc-2015")
    general = Division(
        "general",
        w["general"],
        64,
        krc,
        (
            StageFormat("seatings", games=4, seatings=2, name=w["preliminaries"]),
            StageFormat("final", games=3, entrants=4, name=w["final"]),
        ),
        eligibility=w["older"],
    )
    knockout = (StageFormat("knockout", games=1, advance=2, final_games=1, name=w["knockout"]),)
    lower = Division("lower", w["lower"], 32, krc, knockout, eligibility=w["grades 1-3"])
    upper = Division("upper", w["upper"], 32, krc, knockout, eligibility=w["grades 4-6"])
    return Tournament(name or w["busan"], date or "2015-12-05", (general, lower, upper), seed=seed)


def japan_championship(name: str, date: str, seed: int, locale: str = "en") -> Tournament:
    w = WORDS[locale]
    div = Division(
        "open",
        w["japan division"],
        24,
        find_rules("japan"),
        (
            StageFormat(
                "seatings", games=2, seatings=5, seating="balanced", name=w["preliminaries"]
            ),
            StageFormat("final", games=2, entrants=4, carry=True, name=w["final"]),
        ),
    )
    return Tournament(name or w["japan"], date or "2009-08-30", (div,), seed=seed)


def _league() -> tuple[RuleSet, StandingRules]:
    """The Japanese rules with league scoring (004: 勝ち点100点の得点方式): 100 a win
    plus the points, tables of 3 scaled by 4/3."""
    rules = find_rules("japan").replace(match_ranking="league", name="japan (league)")
    return rules, StandingRules(mode="league", three_table="scale")


def _carried_final(w: dict[str, str]) -> StageFormat:
    """004's final round: the top 4, 2 games, the points carried (持ち越し)."""
    return StageFormat("final", games=2, entrants=4, carry=True, name=w["final"])


def japan_qualifier(name: str, date: str, seed: int, locale: str = "en") -> Tournament:
    w = WORDS[locale]
    rules, ranking = _league()
    div = Division(
        "qualifier",
        w["qualifier division"],
        32,
        rules,
        (
            StageFormat(
                "seatings", games=2, seatings=4, seating="balanced", name=w["preliminaries"]
            ),
            _carried_final(w),
        ),
        ranking=ranking,
    )
    return Tournament(name or w["qualifier"], date or "", (div,), seed=seed)


def tokyo_monthly(name: str, date: str, seed: int, locale: str = "en") -> Tournament:
    w = WORDS[locale]
    rules, ranking = _league()
    div = Division(
        "monthly",
        w["monthly division"],
        32,
        rules,
        (
            StageFormat(
                "seatings", games=2, seatings=4, seating="balanced", name=w["monthly division"]
            ),
        ),
        ranking=ranking,
        late_entry=True,
        prizes=3,
    )
    return Tournament(name or w["monthly"], date or "", (div,), seed=seed)


def tohoku(name: str, date: str, seed: int, locale: str = "en") -> Tournament:
    w = WORDS[locale]
    rules, ranking = _league()
    div = Division(
        "tohoku",
        w["tohoku division"],
        32,
        rules,
        (
            StageFormat(
                "seatings", games=2, seatings=3, seating="balanced", name=w["preliminaries"]
            ),
            _carried_final(w),
        ),
        ranking=ranking,
    )
    return Tournament(name or w["tohoku"], date or "2009-08-01", (div,), seed=seed)


def club_night(name: str, date: str, seed: int, locale: str = "en") -> Tournament:
    w = WORDS[locale]
    rules = find_rules("japan").replace(match_ranking="league", name="japan (league)")
    div = Division(
        "club",
        w["club"],
        32,
        rules,
        (StageFormat("seatings", games=2, seatings=4, seating="balanced", name=w["club"]),),
        ranking=StandingRules(mode="league", three_table="scale"),
        late_entry=True,
        keep_apart=("club",),
        groups_hard=False,
        prizes=3,
    )
    return Tournament(name or w["club"], date or "", (div,), seed=seed)


#: The circuits a ranking belongs to, in the order the default rankings are listed.
CIRCUITS: Final = ("korea", "japan", "club", "open")

#: Which circuit's ranking each template's divisions count for when no ranking says
#: otherwise, and at which level: Busan's 일반부 for the Korean one (seed 000: only
#: the general division counts), not the children's knockouts (``None``); the Japanese
#: championship for the Japanese one; club nights for a club ranking of their own.
TEMPLATE_CIRCUITS: Final[dict[str, dict[str, tuple[str, str] | None]]] = {
    "busan-2015": {"general": ("korea", "national"), "lower": None, "upper": None},
    "japan-championship": {"open": ("japan", "national")},
    "japan-qualifier": {"qualifier": ("japan", "regional")},
    "tokyo-monthly": {"monthly": ("japan", "monthly")},
    "tohoku": {"tohoku": ("japan", "regional")},
    "club-night": {"club": ("club", "monthly")},
}


def default_circuit(template: str, division: str, rules: str) -> tuple[str, str] | None:
    """The circuit and level a division counts for by default: its template's word
    (``None``: no ranking), else by its rules (``krc…`` Korean, ``japan…`` Japanese,
    any other the open circuit), at the national level.

    >>> default_circuit("busan-2015", "lower", "krc-2015") is None
    True
    >>> default_circuit("", "open", "japan")
    ('japan', 'national')
    """
    said = TEMPLATE_CIRCUITS.get(template, {})
    if division in said:
        return said[division]
    if rules.startswith("krc"):
        return ("korea", "national")
    if rules.startswith("japan"):
        return ("japan", "national")
    return ("open", "national")


TEMPLATES: Final[dict[str, Callable[[str, str, int, str], Tournament]]] = {
    "busan-2015": busan_2015,
    "japan-championship": japan_championship,
    "japan-qualifier": japan_qualifier,
    "tokyo-monthly": tokyo_monthly,
    "tohoku": tohoku,
    "club-night": club_night,
}


def from_template(
    template: str, *, name: str = "", date: str = "", seed: int = 0, locale: str = "en"
) -> Tournament:
    """A tournament from ``template``, its names in ``locale`` (``ko``, ``ja``, ``en``:
    the director's language when it is made)."""
    if locale not in WORDS:
        locale = "en"
    try:
        make = TEMPLATES[template]
    except KeyError:
        raise TournamentError(
            "store.unknown_template", template=repr(template), templates=", ".join(TEMPLATES)
        ) from None
    return make(name, date, seed, locale)


__all__ = [
    "CIRCUITS",
    "TEMPLATES",
    "TEMPLATE_CIRCUITS",
    "TEMPLATE_ZONES",
    "WORDS",
    "busan_2015",
    "club_night",
    "default_circuit",
    "from_template",
    "japan_championship",
    "japan_qualifier",
    "tohoku",
    "tokyo_monthly",
]
