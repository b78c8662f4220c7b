"""Running a division: stages, rounds, tables and their sheets, standings, awards.

The flow, each step a pure function returning a :class:`~.model.Progress`:

1. :func:`start_stage` takes the checked-in players (first stage) or the players
   above the previous stage's cut line, and plans the seatings;
2. :func:`seat_round` seats the next round and hands out blank score sheets;
3. :func:`enter_table_game`, :func:`submit_table` and :func:`correct_table` fill,
   count and correct a table's sheet;
4. :func:`close_round` closes a round whose sheets are all counted (a knockout fixes
   who advances); after the last round the stage is finished and its lots recorded;
5. :func:`stage_standings`, :func:`final_ranking` and :func:`awards` read the result.

Every draw (seating, lots) is seeded from the tournament's seed, the division and the
stage, so the same actions give the same tournament.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from .model import (
    Division,
    Notice,
    Progress,
    Round,
    Stage,
    Table,
    Tournament,
    TournamentError,
)
from .seating import (
    MAX_TABLE,
    MIN_TABLE,
    Seating,
    SeatingError,
    find_seater,
    plan_seatings,
)
from .sheets import Cell, GameResult, ScoreSheet, correct, enter_game, new_sheet, submit
from .standings import Standing, Standings, rank_players


def _seed(t: Tournament, div: Division, stage: int, what: str) -> str:
    return f"{t.seed}:{div.key}:{stage}:{what}"


def _with_stage(t: Tournament, div: Division, index: int, stage: Stage) -> Tournament:
    stages = (*div.stages[:index], stage, *div.stages[index + 1 :])
    return t.with_division(replace(div, stages=stages))


def current_stage(div: Division) -> tuple[int, Stage]:
    if not div.stages:
        raise TournamentError("division.no_stage_under_way", div=div.name)
    return len(div.stages) - 1, div.stages[-1]


def _groups(t: Tournament, div: Division, players: Sequence[int]) -> dict[int, frozenset[str]]:
    if not div.keep_apart:
        return {}
    out = {}
    for p in players:
        reg = t.registration(p)
        tags = frozenset(x for kind in div.keep_apart for x in reg.tag_values(kind))
        if tags:
            out[p] = tags
    return out


# ---------------------------------------------------------------------------
# Stages and rounds


def start_stage(t: Tournament, division: str, *, seeding: Sequence[int] | None = None) -> Progress:
    """Start the division's next stage with its entrants, and plan its seatings.

    Entrants come in seed order: the previous stage's ranking, or for a first stage
    ``seeding`` (say, the national ranking) and then registration order. Snake
    seating reads this order."""
    div = t.division(division)
    if not div.started:
        raise TournamentError("division.check_in_open", div=div.name)
    index = len(div.stages)
    if index >= len(div.formats):
        raise TournamentError("division.all_stages_played", div=div.name)
    if div.stages and not div.stages[-1].finished:
        raise TournamentError(
            "division.stage_not_finished", div=div.name, stage=div.stages[-1].format.title
        )
    fmt = div.formats[index]
    if index == 0:
        playing = [r.player for r in t.in_division(division, "checked_in")]
        first = [p for p in dict.fromkeys(seeding or ()) if p in set(playing)]
        entrants = tuple(first + [p for p in playing if p not in set(first)])
    else:
        order = stage_ranking(t, division, index - 1)
        playing = [p for p in order if t.registration(p).status == "checked_in"]
        _check_cut(t, division, index - 1, playing, fmt.entrants)
        entrants = tuple(playing[: fmt.entrants] if fmt.entrants else playing)
    if fmt.entrants and index == 0:
        entrants = entrants[: fmt.entrants]
    if len(entrants) < MIN_TABLE:
        raise TournamentError("division.too_few_players", div=div.name, n=len(entrants))
    stage = Stage(fmt, entrants)
    try:
        stage = _plan(t, div, index, stage)
    except SeatingError as exc:
        raise TournamentError("division.seating", div=div.name, reason=exc.refusal) from None
    t = _with_stage(t, div, index, stage)
    return Progress(
        t,
        (
            Notice(
                "stage_started",
                f"{div.name}: {fmt.title} starts with {len(entrants)} players",
                division,
            ),
        ),
    )


def _check_cut(
    t: Tournament, division: str, index: int, playing: Sequence[int], n: int | None
) -> None:
    """Refuse a cut line that splits players sharing a rank (a chain without a lot)."""
    if not n or n >= len(playing) or t.division(division).stages[index].format.kind == "knockout":
        return
    table = stage_standings(t, division, index)
    a, b = table.of(playing[n - 1]), table.of(playing[n])
    if a.rank == b.rank:
        raise TournamentError("stage.cut_splits_tie", n=n, rank=a.rank)


def _players_next(stage: Stage) -> tuple[int, ...]:
    if stage.format.kind == "knockout" and stage.rounds:
        return tuple(p for p in stage.rounds[-1].advanced if p not in stage.dropped)
    return stage.active


def _plan(t: Tournament, div: Division, index: int, stage: Stage, *, draw: str = "") -> Stage:
    """Plan the seatings of the rounds to come from the players still in the stage
    (``draw``: another draw of the same round, seeded by it too)."""
    fmt = stage.format
    players = _players_next(stage)
    number = len(stage.rounds) + 1
    seed = _seed(t, div, index, f"round{number}" + (f"/{draw}" if draw else ""))
    groups = _groups(t, div, players)
    size = fmt.table_size
    if fmt.kind == "knockout":
        if len(players) <= MAX_TABLE:
            if len(players) < MIN_TABLE:
                raise SeatingError("seating.final_table_too_few", n=len(players))
            return replace(stage, plan=(Seating((tuple(players),)),))
        history: tuple[Seating, ...] = ()
        left = 1
    else:
        history = tuple(r.seating for r in stage.rounds)
        left = fmt.seatings - len(stage.rounds)
    if not find_seater(fmt.method).ahead:
        left = min(left, 1)  # seated again from the standings after every round
    plan = plan_seatings(
        players,
        left,
        method=fmt.method,
        table_size=size,
        seed=seed,
        history=history,
        groups=groups or None,
        groups_hard=div.groups_hard,
        standings=_standing_values(t, div, index, stage),
    )
    return replace(stage, plan=plan)


def _standing_values(t: Tournament, div: Division, index: int, stage: Stage) -> dict[int, float]:
    """The stage's standings so far as one number a player, higher first (minus the
    rank, so that wins, league points and the tie-breaks all count): what a seater by
    standings reads. Empty before the first result (a final that carries points
    counts the earlier stages' games)."""
    table = _standings(t, div, index, stage)
    if not any(s.games for s in table):
        return {}
    return {s.player: float(-s.rank) for s in table}


def seat_round(t: Tournament, division: str) -> Progress:
    """Seat the stage's next round; each table gets a blank score sheet."""
    div = t.division(division)
    index, stage = current_stage(div)
    fmt = stage.format
    if stage.finished:
        raise TournamentError("division.stage_finished", div=div.name, stage=fmt.title)
    if stage.rounds and not stage.rounds[-1].closed:
        raise TournamentError("division.round_not_closed", div=div.name, n=len(stage.rounds))
    players = _players_next(stage)
    if not stage.plan or set(stage.plan[0].players) != set(players):
        try:
            stage = _plan(t, div, index, stage)  # a drop or a late entry: plan again
        except SeatingError as exc:
            raise TournamentError("division.seating", div=div.name, reason=exc.refusal) from None
    seating = stage.plan[0]
    number = len(stage.rounds) + 1
    games = fmt.games
    final_table = fmt.kind == "knockout" and len(seating.tables) == 1
    if final_table and fmt.final_games:
        games = fmt.final_games
    tables = tuple(
        Table(k, new_sheet(number, k, players, games))
        for k, players in enumerate(seating.tables, 1)
    )
    stage = replace(stage, rounds=(*stage.rounds, Round(number, tables)), plan=stage.plan[1:])
    t = _with_stage(t, div, index, stage)
    what = "the final table" if final_table else f"{len(tables)} tables"
    return Progress(
        t, (Notice("seated", f"{div.name}: {fmt.title} round {number} seated at {what}", division),)
    )


def unseat_round(t: Tournament, division: str) -> Progress:
    """Take back the seating of the stage's last round, before anything is entered on
    its sheets (to seat it again after a drop or a late entry). The seating goes back
    to the head of the plan, so seating again without a change seats it the same."""
    div = t.division(division)
    index, stage = current_stage(div)
    if not stage.rounds or stage.rounds[-1].closed:
        raise TournamentError("division.no_round_open", div=div.name)
    rnd = stage.rounds[-1]
    if any(x.sheet.entered_by is not None for x in rnd.tables):
        raise TournamentError("division.round_has_sheets", div=div.name, n=rnd.number)
    stage = replace(stage, rounds=stage.rounds[:-1], plan=(rnd.seating, *stage.plan))
    return Progress(
        _with_stage(t, div, index, stage),
        (
            Notice(
                "unseated", f"{div.name}: the seating of round {rnd.number} is taken back", division
            ),
        ),
    )


def _sheet_op(
    t: Tournament,
    division: str,
    round_number: int,
    table: int,
    stage_index: int | None,
) -> tuple[Division, int, Stage, Round, Table]:
    div = t.division(division)
    index = len(div.stages) - 1 if stage_index is None else stage_index
    if not 0 <= index < len(div.stages):
        raise TournamentError("division.no_stage", div=div.name, n=index + 1)
    stage = div.stages[index]
    if not 1 <= round_number <= len(stage.rounds):
        raise TournamentError("division.no_round", div=div.name, n=round_number)
    rnd = stage.rounds[round_number - 1]
    return div, index, stage, rnd, rnd.table(table)


def _put_sheet(
    t: Tournament, div: Division, index: int, stage: Stage, rnd: Round, sheet: ScoreSheet
) -> Tournament:
    tables = tuple(replace(x, sheet=sheet) if x.number == sheet.table else x for x in rnd.tables)
    rounds = tuple(
        replace(rnd, tables=tables) if r.number == rnd.number else r for r in stage.rounds
    )
    return _with_stage(t, div, index, replace(stage, rounds=rounds))


def table_sheet(
    t: Tournament, division: str, round_number: int, table: int, stage: int | None = None
) -> ScoreSheet:
    return _sheet_op(t, division, round_number, table, stage)[4].sheet


def enter_table_game(
    t: Tournament,
    division: str,
    round_number: int,
    table: int,
    game: int,
    points: Sequence[int | None],
    *,
    winner: int | None = None,
    penalties: Sequence[int] | None = None,
    who: str,
    at: str = "",
    stage: int | None = None,
) -> Progress:
    """Enter one game of a table's sheet; the problems found so far come back."""
    div, index, st, rnd, tab = _sheet_op(t, division, round_number, table, stage)
    sheet, problems = enter_game(
        tab.sheet, game, points, winner=winner, penalties=penalties, rules=div.rules, who=who, at=at
    )
    return Progress(_put_sheet(t, div, index, st, rnd, sheet), (), problems)


def submit_table(
    t: Tournament,
    division: str,
    round_number: int,
    table: int,
    *,
    who: str,
    at: str = "",
    why: str = "",
    stage: int | None = None,
) -> Progress:
    """Count a table's sheet if it passes every check; otherwise it stays a draft."""
    div, index, st, rnd, tab = _sheet_op(t, division, round_number, table, stage)
    sheet, problems = submit(tab.sheet, rules=div.rules, who=who, at=at, why=why)
    t = _put_sheet(t, div, index, st, rnd, sheet)
    if problems:
        text = f"round {round_number}, table {table}: kept as a draft ({problems[0]})"
        return Progress(t, (Notice("sheet_draft", text, division),), problems)
    return Progress(
        t, (Notice("sheet_counted", f"round {round_number}, table {table} counted", division),)
    )


def correct_table(
    t: Tournament,
    division: str,
    round_number: int,
    table: int,
    changes: Mapping[Cell, int | None],
    *,
    who: str,
    why: str,
    at: str = "",
    stage: int | None = None,
) -> Progress:
    """Correct cells of a counted sheet, with who and why; the old values are kept."""
    div, index, st, rnd, tab = _sheet_op(t, division, round_number, table, stage)
    if tab.sheet.counted is None:
        raise TournamentError("sheet.correct_counted_only")
    sheet, problems = correct(tab.sheet, changes, rules=div.rules, who=who, why=why, at=at)
    t = _put_sheet(t, div, index, st, rnd, sheet)
    if problems:
        return Progress(
            t,
            (
                Notice(
                    "correction_draft",
                    f"round {round_number}, table {table}: "
                    f"correction kept as a draft ({problems[0]})",
                    division,
                ),
            ),
            problems,
        )
    notices = [
        Notice(
            "corrected",
            f"round {round_number}, table {table}: {c.cell} {c.old} → {c.new} by {c.who} ({c.why})",
            division,
        )
        for c in sheet.corrections[len(tab.sheet.corrections) :]
    ]
    if rnd.closed and st.format.kind == "knockout":
        notices.append(
            Notice(
                "check_advancement",
                f"round {round_number} was closed: check "
                f"that the correction does not change who advanced",
                division,
            )
        )
    return Progress(t, tuple(notices))


def close_round(t: Tournament, division: str) -> Progress:
    """Close the current round once every sheet is counted. A knockout round fixes
    who advances; the last round finishes the stage and records its lots."""
    div = t.division(division)
    index, stage = current_stage(div)
    if not stage.rounds or stage.rounds[-1].closed:
        raise TournamentError("division.no_round_open", div=div.name)
    rnd = stage.rounds[-1]
    missing = [x.number for x in rnd.tables if not x.counted]
    if missing:
        raise TournamentError(
            "division.round_waits", div=div.name, n=rnd.number, tables=", ".join(map(str, missing))
        )
    fmt = stage.format
    notices = []
    lots = dict(stage.lots)
    advanced: tuple[int, ...] = ()
    finished = False
    if fmt.kind == "knockout":
        if len(rnd.tables) == 1:
            finished = True
        else:
            place: dict[int, int] = {}  # the place at the table of each who goes on
            for x in rnd.tables:
                table_rank = rank_players(
                    results_of(x),
                    div.standing_rules,
                    players=x.players,
                    lots=lots,
                    seed=_seed(t, div, index, f"r{rnd.number}t{x.number}"),
                )
                lots.update(table_rank.lots)
                for pos, s in enumerate(table_rank.standings):
                    if pos < fmt.advance and s.player not in stage.dropped:
                        place[s.player] = pos
            # seed order for the next round: table winners first, each place ordered
            # by the round's standings (what snake seeding reads)
            among = rank_players(
                rnd.results(),
                div.standing_rules,
                players=list(place),
                lots=lots,
                seed=_seed(t, div, index, f"adv{rnd.number}"),
            )
            lots.update(among.lots)
            position = {s.player: k for k, s in enumerate(among.standings)}
            advanced = tuple(sorted(place, key=lambda p: (place[p], position[p])))
            notices.append(
                Notice(
                    "advanced",
                    f"{div.name}: {len(advanced)} players advance from round {rnd.number}",
                    division,
                )
            )
    else:
        finished = rnd.number >= fmt.seatings
    rounds = (*stage.rounds[:-1], replace(rnd, closed=True, advanced=advanced))
    stage = replace(stage, rounds=rounds, lots=tuple(sorted(lots.items())))
    if finished:
        stage = replace(stage, finished=True, plan=())
        t = _with_stage(t, div, index, stage)
        if fmt.kind != "knockout":
            st = stage_standings(t, division, index)
            stage = replace(stage, lots=tuple(sorted({**lots, **st.lots}.items())))
            t = _with_stage(t, div, index, stage)
        notices.append(Notice("stage_finished", f"{div.name}: {fmt.title} finished", division))
    else:
        t = _with_stage(t, div, index, stage)
    return Progress(
        t, (Notice("round_closed", f"{div.name}: round {rnd.number} closed", division), *notices)
    )


def results_of(table: Table) -> tuple[GameResult, ...]:
    from .sheets import results

    return results(table.sheet)


# ---------------------------------------------------------------------------
# Standings and ranking


def stage_standings(t: Tournament, division: str, index: int | None = None) -> Standings:
    """A stage's standings (live while it is played). A final that carries points
    counts its entrants' games of the earlier stages too. For a knockout: the
    standings of its latest round's tables taken together."""
    div = t.division(division)
    i = len(div.stages) - 1 if index is None else index
    return _standings(t, div, i, div.stages[i])


def _standings(t: Tournament, div: Division, i: int, stage: Stage) -> Standings:
    games = list(stage.results())
    if stage.format.kind == "final" and stage.format.carry:
        for earlier in div.stages[:i]:
            games = list(earlier.results()) + games
    if stage.format.kind == "knockout" and stage.rounds:
        last = stage.rounds[-1]
        return rank_players(
            last.results(),
            div.standing_rules,
            players=last.seating.players,
            lots=stage.lot_map,
            seed=_seed(t, div, i, "standings"),
        )
    return rank_players(
        games,
        div.standing_rules,
        players=stage.entrants,
        lots=stage.lot_map,
        seed=_seed(t, div, i, "standings"),
    )


def stage_ranking(t: Tournament, division: str, index: int) -> tuple[int, ...]:
    """A stage's players in order of their result in it.

    A knockout ranks its final table first, then the players out in each earlier
    round, by their place at their table (third before fourth), then among equals by
    the round's standings.
    """
    div = t.division(division)
    stage = div.stages[index]
    if stage.format.kind != "knockout":
        return tuple(s.player for s in stage_standings(t, division, index))
    order: list[int] = []
    lots = stage.lot_map
    rule = div.standing_rules
    for rnd in reversed(stage.rounds):
        if len(rnd.tables) == 1 and not rnd.advanced:
            final = rank_players(
                rnd.results(),
                rule,
                players=rnd.seating.players,
                lots=lots,
                seed=_seed(t, div, index, "final"),
            )
            order.extend(s.player for s in final)
            continue
        out = [p for p in rnd.seating.players if p not in rnd.advanced]
        place: dict[int, int] = {}
        for x in rnd.tables:
            tr = rank_players(
                results_of(x),
                rule,
                players=x.players,
                lots=lots,
                seed=_seed(t, div, index, f"r{rnd.number}t{x.number}"),
            )
            for pos, s in enumerate(tr.standings):
                place[s.player] = pos
        among = rank_players(
            rnd.results(),
            rule,
            players=out,
            lots=lots,
            seed=_seed(t, div, index, f"out{rnd.number}"),
        )
        position = {s.player: k for k, s in enumerate(among.standings)}
        order.extend(sorted(out, key=lambda p: (place[p], position[p])))
    seen = set(order)
    order.extend(p for p in stage.entrants if p not in seen)  # never seated (dropped)
    return tuple(order)


@dataclass(frozen=True, slots=True)
class Placing:
    """A player's final place in a division, the stage it was decided in, and the
    standing line behind it (``None`` for a knockout's earlier rounds)."""

    place: int
    player: int
    name: str
    stage: str
    standing: Standing | None


def final_ranking(t: Tournament, division: str) -> tuple[Placing, ...]:
    """The division's ranking: the last stage's order first (a final with carried
    points ranks on all its players' games), then everyone else by the stage they
    went out in (Japan: the finalists take 1–4 on 12 games, the others rank from 5th
    on their 10)."""
    div = t.division(division)
    placed: set[int] = set()
    out: list[Placing] = []
    for i in reversed(range(len(div.stages))):
        stage = div.stages[i]
        lines: dict[int, Standing] = {}
        if stage.format.kind != "knockout":
            lines = {s.player: s for s in stage_standings(t, division, i)}
        for p in stage_ranking(t, division, i):
            if p in placed:
                continue
            placed.add(p)
            out.append(Placing(len(out) + 1, p, t.name_of(p), stage.format.title, lines.get(p)))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Award:
    place: int
    player: int
    name: str
    division: str


def awards(t: Tournament, division: str) -> tuple[Award, ...]:
    """Places 1 to the division's number of prizes, once its last stage is finished;
    a final's every player is placed (four played the Tohoku final: four places,
    though the division gives three prizes)."""
    div = t.division(division)
    if len(div.stages) < len(div.formats) or not div.stages[-1].finished:
        raise TournamentError("division.not_finished", div=div.name)
    last = div.stages[-1]
    places = max(div.prizes, len(last.entrants) if last.format.kind == "final" else 0)
    return tuple(
        Award(p.place, p.player, p.name, division) for p in final_ranking(t, division)[:places]
    )
