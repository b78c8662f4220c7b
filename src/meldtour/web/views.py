"""What the pages show, read from the engine's values (no rules here): division
summaries, the current round, standings with the cut line, a player's day, and the
engine's sheet problems in the reader's language."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from meldtour.application.rounds import current_round
from meldtour.core.refusal import Refused, render
from meldtour.core.rules import PRESETS
from meldtour.tournament import Problem, Tournament, final_ranking, stage_standings
from meldtour.tournament.model import Division, Round, Stage
from meldtour.tournament.round_names import RoundName, round_name
from meldtour.tournament.standings import score_text

from .i18n import N_

Gettext = Callable[[str], str]

STATUS = {
    "registered": N_("registered"),
    "waitlisted": N_("waitlist"),
    "checked_in": N_("present"),
    "no_show": N_("no-show"),
    "dropped": N_("dropped"),
    "withdrawn": N_("withdrawn"),
}
CRITERIA = {
    "wins": N_("wins"),
    "points": N_("points"),
    "score": N_("score"),
    "best_game": N_("best game"),
    "second_best": N_("second-best game"),
    "head_to_head": N_("head to head"),
    "lot": N_("lot"),
    "tied": N_("tied"),
}
TABLE_STATES = {
    "empty": N_("not entered"),
    "draft": N_("draft"),
    "conflict": N_("conflict"),
    "counted": N_("counted"),
}
KINDS = {"seatings": N_("seatings"), "knockout": N_("knockout"), "final": N_("final")}
TEMPLATE_TITLES = {
    "busan-2015": N_("Korea Rummikub Championship, Busan 2015 (three divisions)"),
    "japan-championship": N_("Japanese championship (24 players, final of 4)"),
    "japan-qualifier": N_(
        "Japanese championship qualifier (league scoring, final of 4 with the points carried)"
    ),
    "tokyo-monthly": N_("Tokyo monthly (league scoring: 100 a win plus points, 8 games)"),
    "tohoku": N_(
        "Tohoku event, the championship's Tohoku qualifier (6 games, final of 4 with the"
        " points carried)"
    ),
    "club-night": N_("Club night (league scoring, tables change every 2 games)"),
}


def preset_of(div: Division) -> str | None:
    """The rules preset a division plays, for the link to its rules page."""
    name = div.rules.name
    if name in PRESETS:
        return name
    base = name.split(" ")[0]
    return base if base in PRESETS else None


def family_event(t: Tournament) -> bool:
    """Whether the tournament gives family prizes: some player entered with a family
    (``family:…`` tag). Without one, the pages say nothing of family prizes."""
    return any(r.tag_values("family") for r in t.registrations)


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
    finished = len(div.stages) == len(div.formats) and bool(div.stages) and div.stages[-1].finished
    return DivisionView(
        div,
        counts,
        preset_of(div),
        index,
        stage,
        rnd,
        closed,
        cut_of(div, index) if index >= 0 else None,
        finished,
    )


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


def standings_rows(
    t: Tournament, key: str, _: Gettext, index: int | None = None
) -> tuple[list[Row], int | None, str]:
    """The rows of a stage's standings (the current stage by default), its cut line,
    and the stage's title."""
    div = t.division(key)
    if not div.stages:
        return [], None, ""
    i = len(div.stages) - 1 if index is None else index
    table = stage_standings(t, key, i)
    if not any(s.games for s in table):  # no game counted: no ranks (not "by lot")
        return [], cut_of(div, i), div.stages[i].format.title
    rows = [
        Row(
            s.rank,
            s.player,
            t.name_of(s.player),
            s.wins,
            points_text(s.points),
            score_text(s.score).replace("-", "−"),  # one minus sign, as the points'
            s.games,
            _(CRITERIA.get(str(s.decided_by), str(s.decided_by))),
        )
        for s in table
    ]
    stage = div.stages[i]
    return rows, cut_of(div, i), stage.format.title


def final_rows(t: Tournament, key: str) -> list[tuple[int, int, str, str]]:
    return [(p.place, p.player, p.name, p.stage) for p in final_ranking(t, key)]


def went_out(t: Tournament, key: str) -> dict[int, RoundName]:
    """The knockout round each player of the final ranking went out in, by its name
    (16강전); the final table's players: the final."""
    out: dict[int, RoundName] = {}
    for stage in t.division(key).stages:
        if stage.format.kind != "knockout":
            continue
        for rnd in stage.rounds:
            if rnd.closed and rnd.advanced:
                out.update(
                    (p, round_name(stage, rnd))
                    for p in rnd.seating.players
                    if p not in rnd.advanced
                )
        last = stage.rounds[-1] if stage.rounds else None
        if last is not None and len(last.tables) == 1 and not last.advanced:
            out.update(dict.fromkeys(last.seating.players, RoundName("final", 0)))
    return out


@dataclass(frozen=True)
class Seat:
    stage: str
    round: int
    table: int
    seat: int
    players: list[str]
    games: list[list[str]]
    counted: bool
    name: RoundName  # the round's name in the programme (32강전, round 2)


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
                    out.append(
                        Seat(
                            stage.format.title,
                            rnd.number,
                            table.number,
                            table.players.index(player) + 1,
                            [t.name_of(p) for p in table.players],
                            games,
                            table.counted,
                            round_name(stage, rnd),
                        )
                    )
    return out[::-1]


# ---------------------------------------------------------------------------
# The engine's sheet problems and refusals, in the reader's language: by code, through
# the catalogs (whose message ids are the codes' English templates)


def problem_text(p: Problem, _: Gettext) -> str:
    return render(p.refusal, _) if p.refusal is not None else p.message


def problem_data(p: Problem, _: Gettext) -> dict[str, Any]:
    """A problem for the score form: the cell it is about and the words."""
    c = p.cell
    return {"game": c.game, "seat": c.seat, "field": c.field, "message": problem_text(p, _)}


def refusal_text(refused: BaseException | str, _: Gettext) -> str:
    """An engine or use-case refusal in the reader's language, made from its code and
    arguments (anything else, such as a bare message, as it is)."""
    if isinstance(refused, Refused):
        return render(refused.refusal, _)
    return str(refused)
