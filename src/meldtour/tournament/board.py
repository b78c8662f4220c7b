"""What the director's screens read from a division: the state of each table of a
round (empty, draft, conflict, counted) with its totals and what is missing, the next
sensible step, and for knockouts the bracket (who advanced from each table, stage by
stage) and the round each player went out in."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Literal

from .model import Round, Tournament, TournamentError
from .round_names import RoundName, round_name
from .stages import _seed, close_round, results_of, start_stage
from .standings import rank_players

TableState = Literal["empty", "draft", "conflict", "counted"]
Step = Literal[
    "register", "check_in", "close_check_in", "seat", "scores", "close_round", "advance", "awards"
]


@dataclass(frozen=True, slots=True)
class TableBoard:
    """One table of a round: its state, its players and each one's total so far
    (points less penalties over the games entered; ``None``: nothing entered)."""

    number: int
    state: TableState
    players: tuple[int, ...]
    totals: tuple[int | None, ...]
    games: int
    entered: int


@dataclass(frozen=True, slots=True)
class RoundBoard:
    tables: tuple[TableBoard, ...]

    @property
    def missing(self) -> tuple[int, ...]:
        """The tables whose sheet is not counted (or waits on a conflict)."""
        return tuple(x.number for x in self.tables if x.state != "counted")

    def count(self, state: TableState) -> int:
        return sum(1 for x in self.tables if x.state == state)


def round_board(rnd: Round, conflicts: Collection[int] = ()) -> RoundBoard:
    """The round's tables as the director watches them. ``conflicts`` are the tables
    where a device's save was refused since the sheet was last saved (another device
    saved first, or the sheet was counted): the director looks at them."""
    out = []
    for x in rnd.tables:
        sheet = x.sheet
        lines = sheet.counted if sheet.counted is not None else sheet.games
        entered = sum(1 for g in lines if any(p is not None for p in g.points))
        seats = len(sheet.players)
        totals: tuple[int | None, ...] = tuple(
            sum(g.totals()[s] for g in lines if g.points[s] is not None)
            if any(g.points[s] is not None for g in lines)
            else None
            for s in range(seats)
        )
        state: TableState
        if x.number in conflicts or (sheet.counted is not None and sheet.counted != sheet.games):
            state = "conflict"
        elif sheet.counted is not None:
            state = "counted"
        elif sheet.entered_by is not None:
            state = "draft"
        else:
            state = "empty"
        out.append(TableBoard(x.number, state, sheet.players, totals, len(lines), entered))
    return RoundBoard(tuple(out))


def next_step(t: Tournament, division: str) -> Step:
    """The next sensible step of a division, for the page's main button."""
    div = t.division(division)
    if not div.started:  # the desk while players are still to check in
        present = len(t.in_division(division, "checked_in"))
        waiting = len(t.in_division(division, "registered"))
        if not present and not waiting:  # nobody to check in yet: register players first
            return "register"
        return "close_check_in" if present >= 3 and not waiting else "check_in"
    if not div.stages or not div.stages[-1].rounds:
        return "seat"
    stage = div.stages[-1]
    rnd = stage.rounds[-1]
    if not rnd.closed:
        return "close_round" if rnd.complete else "scores"
    if stage.finished:
        return "advance" if len(div.stages) < len(div.formats) else "awards"
    return "seat"


@dataclass(frozen=True, slots=True)
class Preview:
    """What a step would do, for the question before it: players and tables."""

    players: int
    tables: int
    advancing: int = 0  # a knockout round: the players who go on
    finishes: bool = False  # the round closes its stage


def close_preview(t: Tournament, division: str) -> Preview | None:
    """Closing the current round: its players and tables, who goes on (knockout), and
    whether it finishes the stage; ``None`` when it cannot be closed now."""
    try:
        after = close_round(t, division).tournament
    except TournamentError:
        return None
    stage = after.division(division).stages[-1]
    rnd = stage.rounds[-1]
    return Preview(len(rnd.seating.players), len(rnd.tables), len(rnd.advanced), stage.finished)


def advance_preview(t: Tournament, division: str) -> Preview | None:
    """Starting the next stage (closing the round before if it is complete): its
    entrants and the tables of its first round; ``None`` when it cannot start now."""
    div = t.division(division)
    try:
        if div.stages and div.stages[-1].rounds and not div.stages[-1].rounds[-1].closed:
            t = close_round(t, division).tournament
        after = start_stage(t, division).tournament
    except TournamentError:
        return None
    stage = after.division(division).stages[-1]
    tables = len(stage.plan[0].tables) if stage.plan else 0
    return Preview(len(stage.entrants), tables)


# ---------------------------------------------------------------------------
# The bracket


@dataclass(frozen=True, slots=True)
class BracketSeat:
    player: int
    place: int | None  # the place at the table (None: no game counted yet)
    advanced: bool | None  # None while the round is open (or at the final table)


@dataclass(frozen=True, slots=True)
class BracketTable:
    number: int
    seats: tuple[BracketSeat, ...]
    counted: bool


@dataclass(frozen=True, slots=True)
class BracketRound:
    number: int
    tables: tuple[BracketTable, ...]
    closed: bool
    final: bool
    name: RoundName


@dataclass(frozen=True, slots=True)
class BracketStage:
    index: int
    title: str
    advance: int
    rounds: tuple[BracketRound, ...]


def bracket(t: Tournament, division: str) -> tuple[BracketStage, ...]:
    """The division's knockout stages, round by round: each table's players in the
    order they finished at it, and who went on."""
    div = t.division(division)
    out = []
    for i, stage in enumerate(div.stages):
        if stage.format.kind != "knockout":
            continue
        lots = stage.lot_map
        rounds = []
        for rnd in stage.rounds:
            final = len(rnd.tables) == 1 and not rnd.advanced
            tables = []
            for x in rnd.tables:
                played = bool(results_of(x))
                seats: list[BracketSeat] = []
                if played:
                    what = "final" if final else f"r{rnd.number}t{x.number}"
                    ranked = rank_players(
                        results_of(x),
                        div.standing_rules,
                        players=x.players,
                        lots=lots,
                        seed=_seed(t, div, i, what),
                    )
                    for pos, s in enumerate(ranked.standings, 1):
                        went = (s.player in rnd.advanced) if rnd.closed and not final else None
                        seats.append(BracketSeat(s.player, pos, went))
                else:
                    seats = [BracketSeat(p, None, None) for p in x.players]
                tables.append(BracketTable(x.number, tuple(seats), x.counted))
            rounds.append(
                BracketRound(rnd.number, tuple(tables), rnd.closed, final, round_name(stage, rnd))
            )
        out.append(BracketStage(i, stage.format.title, stage.format.advance, tuple(rounds)))
    return tuple(out)


def knocked_out(t: Tournament, division: str) -> dict[int, int]:
    """The knockout round each player went out in (a closed round they did not
    advance from), by player; the final table's players are not in it."""
    div = t.division(division)
    out: dict[int, int] = {}
    for stage in div.stages:
        if stage.format.kind != "knockout":
            continue
        for rnd in stage.rounds:
            if rnd.closed and rnd.advanced:
                for p in rnd.seating.players:
                    if p not in rnd.advanced:
                        out[p] = rnd.number
    return out


__all__ = [
    "BracketRound",
    "BracketSeat",
    "BracketStage",
    "BracketTable",
    "Preview",
    "RoundBoard",
    "Step",
    "TableBoard",
    "TableState",
    "advance_preview",
    "bracket",
    "close_preview",
    "knocked_out",
    "next_step",
    "round_board",
]
