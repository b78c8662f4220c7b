"""What the pages show, read from the engine's values (no rules here): division
summaries, the current round, standings with the cut line, a player's day, and the
engine's sheet problems in the reader's language."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from meldtour.core.rules import PRESETS
from meldtour.store.usecases import current_round
from meldtour.tournament import Problem, Tournament, final_ranking, stage_standings
from meldtour.tournament.model import Division, Round, Stage
from meldtour.tournament.standings import score_text

from ..i18n import N_

Gettext = Callable[[str], str]

STATUS = {
    "registered": N_("registered"), "waitlisted": N_("waitlist"),
    "checked_in": N_("present"), "no_show": N_("no-show"), "dropped": N_("dropped"),
    "withdrawn": N_("withdrawn"),
}
CRITERIA = {
    "wins": N_("wins"), "points": N_("points"), "score": N_("score"),
    "best_game": N_("best game"), "second_best": N_("second-best game"),
    "head_to_head": N_("head to head"), "lot": N_("lot"), "tied": N_("tied"),
}
KINDS = {"seatings": N_("seatings"), "knockout": N_("knockout"), "final": N_("final")}
TEMPLATE_TITLES = {
    "busan-2015": N_("Korea Rummikub Championship, Busan 2015 (three divisions)"),
    "japan-championship": N_("Japanese championship (24 players, final of 4)"),
    "club-night": N_("Club night (league scoring, tables change every 2 games)"),
}


def preset_of(div: Division) -> str | None:
    """The rules preset a division plays, for the link to its rules page."""
    name = div.rules.name
    if name in PRESETS:
        return name
    base = name.split(" ")[0]
    return base if base in PRESETS else None


def points_text(value: int | None) -> str:
    if value is None:
        return ""
    return f"+{value}" if value > 0 else str(value).replace("-", "−")


@dataclass(frozen=True)
class DivisionView:
    div: Division
    counts: dict[str, int]
    preset: str | None
    stage_index: int
    stage: Stage | None
    round: Round | None
    round_closed: bool
    cut: int | None
    finished: bool

    @property
    def taken(self) -> int:
        return self.counts.get("registered", 0) + self.counts.get("checked_in", 0)


def cut_of(div: Division, index: int) -> int | None:
    """The cut line of stage ``index``: the entrants of a final that follows it."""
    if index + 1 < len(div.formats):
        nxt = div.formats[index + 1]
        if nxt.kind == "final":
            return nxt.entrants or 4
    return None


def division_view(t: Tournament, key: str) -> DivisionView:
    div = t.division(key)
    counts: dict[str, int] = {}
    for r in t.in_division(key):
        counts[r.status] = counts.get(r.status, 0) + 1
    index, _last, closed = current_round(t, key)
    stage = div.stages[index] if index >= 0 else None
    rnd = stage.rounds[-1] if stage is not None and stage.rounds else None
    finished = len(div.stages) == len(div.formats) and bool(div.stages) \
        and div.stages[-1].finished
    return DivisionView(div, counts, preset_of(div), index, stage, rnd, closed,
                        cut_of(div, index) if index >= 0 else None, finished)


@dataclass(frozen=True)
class Row:
    rank: int
    player: int
    name: str
    wins: int
    points: str
    score: str
    games: int
    decided_by: str


def standings_rows(t: Tournament, key: str, _: Gettext,
                   index: int | None = None) -> tuple[list[Row], int | None, str]:
    """The rows of a stage's standings (the current stage by default), its cut line,
    and the stage's title."""
    div = t.division(key)
    if not div.stages:
        return [], None, ""
    i = len(div.stages) - 1 if index is None else index
    rows = [Row(s.rank, s.player, t.name_of(s.player), s.wins, points_text(s.points),
                score_text(s.score), s.games, _(CRITERIA.get(str(s.decided_by),
                                                            str(s.decided_by))))
            for s in stage_standings(t, key, i)]
    stage = div.stages[i]
    return rows, cut_of(div, i), stage.format.title


def final_rows(t: Tournament, key: str) -> list[tuple[int, int, str, str]]:
    return [(p.place, p.player, p.name, p.stage) for p in final_ranking(t, key)]


@dataclass(frozen=True)
class Seat:
    stage: str
    round: int
    table: int
    seat: int
    players: list[str]
    games: list[list[str]]
    counted: bool


def player_day(t: Tournament, player: int) -> list[Seat]:
    """Every table the player sat at, newest first, with the points entered."""
    reg = t.registration(player)
    div = t.division(reg.division)
    out: list[Seat] = []
    for stage in div.stages:
        for rnd in stage.rounds:
            for table in rnd.tables:
                if player in table.players:
                    sheet = table.sheet.counted or table.sheet.games
                    games = [[points_text(p) for p in line.points] for line in sheet]
                    out.append(Seat(stage.format.title, rnd.number, table.number,
                                    table.players.index(player) + 1,
                                    [t.name_of(p) for p in table.players], games,
                                    table.counted))
    return out[::-1]


# ---------------------------------------------------------------------------
# The engine's sheet problems, in the reader's language

_PROBLEMS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^no winner is marked$"), N_("mark the winner")),
    (re.compile(r"^no points entered$"), N_("enter the points")),
    (re.compile(r"^the winner must be one of seats 1-(?P<n>\d+)$"),
     N_("the winner must be one of seats 1-%(n)s")),
    (re.compile(r"^write a penalty as a positive number of points$"),
     N_("write a penalty as a positive number of points")),
    (re.compile(r"^(?P<rules>.+) gives no penalty points$"),
     N_("%(rules)s gives no penalty points")),
    (re.compile(r"^(?P<pen>\d+) is not a whole number of × \((?P<each>\d+) each\)$"),
     N_("%(pen)s is not a whole number of × (%(each)s each)")),
    (re.compile(r"^a loser cannot score (?P<pts>[+-]\d+)$"),
     N_("a loser cannot score %(pts)s")),
    (re.compile(r"^(?P<pts>[+-]\d+) is more than a rack can hold \(at most −(?P<limit>\d+) .*\)$"),
     N_("%(pts)s is more than a rack can hold (at most −%(limit)s)")),
    (re.compile(r"^the winner cannot score (?P<pts>[+-]\d+)$"),
     N_("the winner cannot score %(pts)s")),
    (re.compile(r"^the winner has fewer points than seat (?P<seat>\d+)$"),
     N_("the winner has fewer points than seat %(seat)s")),
    (re.compile(r"^the points add up to (?P<total>[+-]\d+), not (?P<expected>-?\d+)"),
     N_("the points add up to %(total)s, not %(expected)s")),
]


def problem_text(message: str, _: Gettext) -> str:
    for pattern, text in _PROBLEMS:
        m = pattern.match(message)
        if m:
            return _(text) % m.groupdict()
    return message


def problem_data(p: Problem, _: Gettext) -> dict[str, Any]:
    """A problem for the score form: the cell it is about and the words."""
    c = p.cell
    return {"game": c.game, "seat": c.seat, "field": c.field,
            "message": problem_text(p.message, _)}


# ---------------------------------------------------------------------------
# The engine's and the store's refusals, in the reader's language

_D = r"(?P<div>.+?)"
_REFUSALS: list[tuple[re.Pattern[str], str]] = [(re.compile(p), m) for p, m in [
    (rf"^{_D} has started: registration is closed$",
     N_("%(div)s has started: registration is closed")),
    (rf"^{_D} has started: drop the player instead$",
     N_("%(div)s has started: drop the player instead")),
    (rf"^{_D} has started: its settings are fixed$",
     N_("%(div)s has started: its settings are fixed")),
    (rf"^{_D} has started: nobody enters now$", N_("%(div)s has started: nobody enters now")),
    (rf"^{_D} has started and takes no late entries$",
     N_("%(div)s has started and takes no late entries")),
    (rf"^{_D} has already started$", N_("%(div)s has already started")),
    (rf"^{_D} is past its first stage: too late to enter$",
     N_("%(div)s is past its first stage: too late to enter")),
    (rf"^{_D} is finished: too late to vote$", N_("%(div)s is finished: too late to vote")),
    (rf"^{_D} has played all its stages$", N_("%(div)s has played all its stages")),
    (rf"^{_D} has no stage under way$", N_("%(div)s has no stage under way")),
    (rf"^{_D}: close check-in \(start the division\) first$",
     N_("%(div)s: close check-in (start the division) first")),
    (rf"^{_D}: no round is open$", N_("%(div)s: no round is open")),
    (rf"^{_D}: there is no round (?P<n>\d+)$", N_("%(div)s: there is no round %(n)s")),
    (rf"^{_D} has no stage (?P<n>\d+)$", N_("%(div)s has no stage %(n)s")),
    (r"^round (?P<n>\d+) has no table (?P<table>\d+)$",
     N_("round %(n)s has no table %(table)s")),
    (rf"^{_D}: no round is seated$", N_("%(div)s: no round is seated")),
    (rf"^{_D}: round (?P<n>\d+) is not closed$", N_("%(div)s: round %(n)s is not closed")),
    (rf"^{_D}: round (?P<n>\d+) has score sheets entered: it stays seated$",
     N_("%(div)s: round %(n)s has score sheets entered: it stays seated")),
    (rf"^{_D}: round (?P<n>\d+) still waits for the sheets of table\(s\) (?P<tables>.+)$",
     N_("%(div)s: round %(n)s still waits for the sheets of tables %(tables)s")),
    (rf"^{_D}: the seating of round (?P<n>\d+) is locked$",
     N_("%(div)s: the seating of round %(n)s is locked")),
    (rf"^{_D}: the vote is already open$", N_("%(div)s: the vote is already open")),
    (rf"^{_D}: the vote opens once the first stage has started$",
     N_("%(div)s: the vote opens once the first stage has started")),
    (rf"^{_D}: no vote is open$", N_("%(div)s: no vote is open")),
    (rf"^{_D}: (?P<n>\d+) players are too few for a table$",
     N_("%(div)s: %(n)s players are too few for a table")),
    (rf"^{_D}: (?P<n>\d+) players cannot make a final table$",
     N_("%(div)s: %(n)s players cannot make a final table")),
    (rf"^{_D}: the (?P<stage>.+) is not finished$", N_("%(div)s: the %(stage)s is not finished")),
    (r"^(?:.+: )?the (?P<stage>.+) is finished(?:: .*)?$",
     N_("the %(stage)s is finished: advance to start the next stage")),
    (r"^round (?P<n>\d+) of the (?P<stage>.+) is already seated$",
     N_("round %(n)s of the %(stage)s is already seated")),
    (rf"^{_D} is not finished$", N_("%(div)s is not finished")),
    (r"^(?P<name>.+) is (?P<status>\w+), not playing$",
     N_("%(name)s is not playing (%(status)s)")),
    (r"^(?P<name>.+) is (?P<status>\w+), not registered$",
     N_("%(name)s is not registered (%(status)s)")),
    (r"^(?P<name>.+) is (?P<status>\w+): only registered players check in$",
     N_("%(name)s is %(status)s: only registered players check in")),
    (r"^a registration needs a name$", N_("a registration needs a name")),
    (r"^no player (?P<who>.+)$", N_("no player %(who)s")),
    (r"^no registration number (?P<n>\d+)$", N_("no registration number %(n)s")),
    (r"^(?P<n>\d+) players are called (?P<name>.+): use their numbers \((?P<numbers>.+)\)$",
     N_("%(n)s players are called %(name)s: use their numbers (%(numbers)s)")),
    (r"^player (?P<n>\d+) is not a finalist$", N_("player %(n)s is not a finalist")),
    (r"^the vote is not open$", N_("the vote is not open")),
    (r"^the vote closed at the end of the first final game$", N_("the vote is closed")),
    (r"^a tournament needs a name$", N_("a tournament needs a name")),
    (r"^a division needs a name$", N_("a division needs a name")),
    (r"^there is already a division (?P<key>.+)$", N_("there is already a division %(key)s")),
    (r"^a division key is lower-case letters, digits, '-' and '_', not (?P<key>.+)$",
     N_("a division key is lower-case letters, digits, '-' and '_', not %(key)s")),
    (r"^division (?P<key>.+): the cap must be at least 1$",
     N_("division %(key)s: the cap must be at least 1")),
    (r"^division (?P<key>.+): a final needs a stage before it$",
     N_("division %(key)s: a final needs a stage before it")),
    (r"^a stage has at least one seating and one game$",
     N_("a stage has at least one seating and one game")),
    (r"^tables seat 3 or 4 players$", N_("tables seat 3 or 4 players")),
    (r"^a stage needs at least 3 entrants$", N_("a stage needs at least 3 entrants")),
    (r"^a knockout advances 1 to (?P<n>\d+) players a table$",
     N_("a knockout advances 1 to %(n)s players a table")),
    (r"^snake seeding is for knockout stages$", N_("snake seeding is for knockout stages")),
    (r"^the cut after place (?P<n>\d+) splits players tied at rank (?P<rank>\d+).*$",
     N_("the cut after place %(n)s splits players tied at rank %(rank)s: break the tie "
        "(add a lot to the tie-break chain) first")),
]]


def refusal_text(message: str, _: Gettext) -> str:
    """An engine or use-case refusal in the reader's language (the English text when
    no pattern knows it)."""
    for pattern, text in _REFUSALS:
        m = pattern.match(message)
        if m:
            values = {k: (_(STATUS[v]) if k == "status" and v in STATUS else v)
                      for k, v in m.groupdict().items()}
            return _(text) % values
    return message
