"""Tournament templates: the seeds' events, ready to run and to edit (domain data: the
store keeps the tournaments made from them, the application layer makes them).

- ``busan-2015``: the Korea Rummikub Championship, Busan, 5 December 2015 (000):
  general (64: 2 seatings × 4 games, then a 3-game final of the top 4, not carried),
  elementary 1–3 and 4–6 (32 each: one-game knockout tables, top 2 go on);
- ``japan-championship``: 24 players, 5 balanced seatings × 2 games, then a 2-game
  final of the top 4 with points carried (004);
- ``club-night``: a Tokyo-monthly style evening (004): league scoring (100 a win plus
  points), 4 balanced seatings × 2 games, tables of 3 scaled, late entry allowed,
  clubs kept apart where possible.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from meldtour.core.rules import find_rules

from .model import Division, StageFormat, Tournament, TournamentError
from .standings import StandingRules


def busan_2015(name: str, date: str, seed: int) -> Tournament:
    krc = find_rules("krc-2015")
    general = Division(
        "general", "일반부 General", 64, krc,
        (StageFormat("seatings", games=4, seatings=2, name="preliminaries"),
         StageFormat("final", games=3, entrants=4, name="final")),
        eligibility="middle school and older",
    )
    knockout = (StageFormat("knockout", games=1, advance=2, final_games=1, name="knockout"),)
    lower = Division("lower", "초등 저학년부 Elementary 1-3", 32, krc, knockout,
                     eligibility="elementary grades 1-3")
    upper = Division("upper", "초등 고학년부 Elementary 4-6", 32, krc, knockout,
                     eligibility="elementary grades 4-6")
    return Tournament(name or "KRC 2015 Busan", date or "2015-12-05",
                      (general, lower, upper), seed=seed)


def japan_championship(name: str, date: str, seed: int) -> Tournament:
    div = Division(
        "open", "日本選手権", 24, find_rules("japan"),
        (StageFormat("seatings", games=2, seatings=5, seating="balanced", name="予選"),
         StageFormat("final", games=2, entrants=4, carry=True, name="決勝")),
    )
    return Tournament(name or "ラミィキューブ日本選手権", date or "2009-08-30", (div,), seed=seed)


def club_night(name: str, date: str, seed: int) -> Tournament:
    rules = find_rules("japan").replace(match_ranking="league", name="japan (league)")
    div = Division(
        "club", "Club night", 32, rules,
        (StageFormat("seatings", games=2, seatings=4, seating="balanced", name="club night"),),
        ranking=StandingRules(mode="league", three_table="scale"),
        late_entry=True, keep_apart=("club",), groups_hard=False, prizes=3,
    )
    return Tournament(name or "Club night", date or "", (div,), seed=seed)


TEMPLATES: Final[dict[str, Callable[[str, str, int], Tournament]]] = {
    "busan-2015": busan_2015,
    "japan-championship": japan_championship,
    "club-night": club_night,
}


def from_template(template: str, *, name: str = "", date: str = "", seed: int = 0) -> Tournament:
    try:
        make = TEMPLATES[template]
    except KeyError:
        raise TournamentError("store.unknown_template", template=repr(template),
                         templates=", ".join(TEMPLATES)) from None
    return make(name, date, seed)


__all__ = ["TEMPLATES", "busan_2015", "club_night", "from_template", "japan_championship"]
