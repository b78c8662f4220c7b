"""Score sheets: one per table per round, checked cell by cell as they are entered.

A sheet holds, for each game, every seat's points, penalty points (004's ``×``) and
the winner. What is entered is always kept (a draft is never lost); only a sheet that
passes every check is *counted*, and a counted sheet changed later keeps the old
values, who changed them and why.

>>> from meldtour.core.rules import find_rules
>>> krc = find_rules("krc-2015")
>>> sheet = new_sheet(1, 3, (11, 12, 13, 14), games=1)
>>> sheet, problems = enter_game(sheet, 1, (24, -5, -16, -3), winner=1, rules=krc, who="ref")
>>> problems
()
>>> sheet, problems = enter_game(sheet, 1, (24, -5, -16, 3), winner=1, rules=krc, who="ref")
>>> [str(p) for p in problems]
['table 3, game 1, seat 4 (player 14) points: a loser cannot score +3', \
'table 3, game 1: the points add up to +6, not 0']
>>> sheet.counted is None
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Final, Literal

from meldtour.core.penalties import MARK
from meldtour.core.refusal import Refusal, Refused, english
from meldtour.core.rules import RuleSet
from meldtour.core.tiles import JOKER_CODE, full_set

from . import refusals as _refusals  # noqa: F401  (the codes below)

Field = Literal["points", "penalty", "winner"]
SheetStatus = Literal["draft", "submitted"]


@dataclass(frozen=True, slots=True)
class Cell:
    """One cell of a sheet: a game (from 1), a seat (from 1, 0 for the whole game
    row) and a field."""

    table: int
    game: int
    seat: int = 0
    field: Field = "points"
    player: int | None = None

    def __str__(self) -> str:
        where = f"table {self.table}, game {self.game}"
        if not self.seat:
            return f"{where}, winner" if self.field == "winner" else where
        who = f" (player {self.player})" if self.player is not None else ""
        return f"{where}, seat {self.seat}{who} {self.field}"


@dataclass(frozen=True, slots=True)
class Problem:
    """A failed check, naming the cell it is about: ``refusal`` is its code and
    arguments (a ``sheet.*`` code of :mod:`.refusals`), ``message`` its English."""

    cell: Cell
    message: str
    refusal: Refusal | None = field(default=None, compare=False)

    @staticmethod
    def of(cell: Cell, code: str, /, **params: object) -> Problem:
        refusal = Refusal(code, params)
        return Problem(cell, english(refusal), refusal)

    def __str__(self) -> str:
        return f"{self.cell}: {self.message}"


@dataclass(frozen=True, slots=True)
class GameLine:
    """One game on a sheet. ``points`` are game points per seat (``None`` until
    entered), ``penalties`` penalty points per seat (positive numbers, counted as
    minus), ``winner`` the winning seat (from 1)."""

    points: tuple[int | None, ...]
    penalties: tuple[int, ...]
    winner: int | None = None

    @staticmethod
    def blank(seats: int) -> GameLine:
        return GameLine((None,) * seats, (0,) * seats, None)

    @property
    def complete(self) -> bool:
        return self.winner is not None and all(p is not None for p in self.points)

    def totals(self) -> tuple[int, ...]:
        """Points with penalties: what each seat's standing counts from this game."""
        return tuple((p or 0) - q for p, q in zip(self.points, self.penalties, strict=True))


@dataclass(frozen=True, slots=True)
class Correction:
    """A change to a counted sheet: the cell, the old and the new value, who, why, when."""

    cell: Cell
    old: int | None
    new: int | None
    who: str
    why: str
    at: str


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """A table's sheet for one round.

    ``games`` is what has been entered (the draft); ``counted`` the last version that
    passed every check and was submitted, or ``None``. ``entered_by``/``entered_at``
    name the last entry, ``submitted_by``/``submitted_at`` the last submission.
    """

    round: int
    table: int
    players: tuple[int, ...]
    games: tuple[GameLine, ...]
    counted: tuple[GameLine, ...] | None = None
    entered_by: str | None = None
    entered_at: str | None = None
    submitted_by: str | None = None
    submitted_at: str | None = None
    corrections: tuple[Correction, ...] = ()

    @property
    def status(self) -> SheetStatus:
        return "submitted" if self.counted is not None and self.counted == self.games else "draft"

    def cell(self, game: int, seat: int = 0, field: Field = "points") -> Cell:
        player = self.players[seat - 1] if seat else None
        return Cell(self.table, game, seat, field, player)


def new_sheet(round_number: int, table: int, players: Sequence[int], games: int) -> ScoreSheet:
    """A blank sheet for a table of ``players`` (in seat order) and ``games`` games."""
    if games < 1:
        raise Refused("sheet.needs_game")
    seats = len(players)
    return ScoreSheet(
        round_number, table, tuple(players), tuple(GameLine.blank(seats) for _ in range(games))
    )


# ---------------------------------------------------------------------------
# What a rack can hold


def rack_limit(rules: RuleSet, players: int) -> int:
    """The most a loser can lose in one game at a table of ``players``.

    A loser's rack holds only tiles that were dealt to them or drawn from the pool:
    the other players' dealt tiles are on their racks or on the board, and board tiles
    never go back to a rack. So the rack holds at most ``106 − (players − 1) × hand``
    tiles, and its total is at most that many of the most costly tiles, a joker costing
    the rule set's joker penalty (krc-2015, 4 players: 64 tiles, 696 points). The flat
    no-meld scores (100/200) are always allowed. Scoring from the winner's total when
    the pool runs out only makes a loss smaller.
    """
    hand = rules.hand_size
    most = max(0, len(full_set()) - (players - 1) * hand)
    costs = sorted(
        (rules.joker_penalty if t == JOKER_CODE else t % 13 + 1 for t in full_set()),
        reverse=True,
    )
    return max(sum(costs[:most]), rules.no_meld_penalty, rules.could_meld_penalty)


# ---------------------------------------------------------------------------
# Checks


def check_game(
    sheet: ScoreSheet, game: int, rules: RuleSet, *, complete: bool = False
) -> tuple[Problem, ...]:
    """Check one game of a sheet. Cells not yet entered are skipped unless
    ``complete`` asks for every cell."""
    line = sheet.games[game - 1]
    seats = len(sheet.players)
    problems: list[Problem] = []
    limit = rack_limit(rules, seats)

    def say(seat: int, field: Field, code: str, /, **params: object) -> None:
        problems.append(Problem.of(sheet.cell(game, seat, field), code, **params))

    w = line.winner
    if w is None:
        if complete:
            say(0, "winner", "sheet.no_winner")
    elif not 1 <= w <= seats:
        say(0, "winner", "sheet.winner_seat", n=seats)
        w = None
    for seat in range(1, seats + 1):
        pts = line.points[seat - 1]
        pen = line.penalties[seat - 1]
        if pen < 0:
            say(seat, "penalty", "sheet.negative_penalty")
        elif pen and not rules.failed_turn_points:
            say(seat, "penalty", "sheet.no_penalty_points", rules=rules.name)
        elif pen and rules.penalty_policy.failures(pen, rules.failed_turn_points) is None:
            totals = rules.penalty_policy.totals(rules.failed_turn_points)
            say(
                seat,
                "penalty",
                "sheet.penalty_not_whole",
                pen=pen,
                totals=", ".join(map(str, totals)),
            )
        if pts is None:
            if complete:
                say(seat, "points", "sheet.no_points")
            continue
        if seat != w:
            if pts > 0:
                say(seat, "points", "sheet.loser_scores", pts=f"{pts:+d}")
            elif -pts > limit:
                say(
                    seat,
                    "points",
                    "sheet.rack_limit",
                    pts=f"{pts:+d}",
                    limit=limit,
                    rules=rules.name,
                    seats=seats,
                )
    if w is not None:
        wp = line.points[w - 1]
        others = [(s, p) for s, p in enumerate(line.points, 1) if s != w and p is not None]
        if wp is not None:
            if wp < 0:
                say(w, "points", "sheet.winner_negative", pts=f"{wp:+d}")
            over = [s for s, p in others if p > wp]
            if over:
                say(w, "points", "sheet.winner_fewer", seat=over[0])
    if all(p is not None for p in line.points):
        total = sum(p or 0 for p in line.points)
        expected = 0
        if rules.penalty_to_winner and w is not None:
            expected = sum(q for s, q in enumerate(line.penalties, 1) if s != w)
        if total != expected:
            say(
                0,
                "points",
                "sheet.total_penalties_aside" if any(line.penalties) else "sheet.total",
                total=f"{total:+d}",
                expected=expected,
            )
    return tuple(problems)


def check_sheet(sheet: ScoreSheet, rules: RuleSet, *, complete: bool = True) -> tuple[Problem, ...]:
    """Every check on every game of the sheet."""
    out: list[Problem] = []
    for g in range(1, len(sheet.games) + 1):
        out.extend(check_game(sheet, g, rules, complete=complete))
    return tuple(out)


# ---------------------------------------------------------------------------
# Entry, submission and correction


def enter_game(
    sheet: ScoreSheet,
    game: int,
    points: Sequence[int | None],
    *,
    winner: int | None = None,
    penalties: Sequence[int] | None = None,
    rules: RuleSet,
    who: str,
    at: str = "",
) -> tuple[ScoreSheet, tuple[Problem, ...]]:
    """Enter a game's row (``winner`` is a seat from 1; ``None`` means the seat with
    the most points, if there is exactly one). The row is kept whatever the checks say;
    the problems found so far come back with it."""
    if not 1 <= game <= len(sheet.games):
        raise Refused("sheet.no_game", table=sheet.table, games=len(sheet.games), game=game)
    seats = len(sheet.players)
    if len(points) != seats:
        raise Refused("sheet.points_count", table=sheet.table, seats=seats, n=len(points))
    pen = tuple(penalties) if penalties is not None else (0,) * seats
    if len(pen) != seats:
        raise Refused("sheet.penalties_count", table=sheet.table, seats=seats, n=len(pen))
    if winner is None:
        known = [p for p in points if p is not None]
        if known and len(known) == seats:
            top = max(known)
            tops = [s for s, p in enumerate(points, 1) if p == top]
            winner = tops[0] if len(tops) == 1 else None
    line = GameLine(tuple(points), pen, winner)
    games = (*sheet.games[: game - 1], line, *sheet.games[game:])
    sheet = replace(sheet, games=games, entered_by=who, entered_at=at)
    return sheet, check_game(sheet, game, rules)


def enter_cell(
    sheet: ScoreSheet, cell: Cell, value: int | None, *, rules: RuleSet, who: str, at: str = ""
) -> tuple[ScoreSheet, tuple[Problem, ...]]:
    """Enter one cell (points, penalty points or winner; for ``winner`` the value is
    the seat, or ``None``)."""
    line = sheet.games[cell.game - 1]
    if cell.field == "winner":
        line = replace(line, winner=value)
    elif cell.field == "points":
        line = replace(line, points=_put(line.points, cell.seat, value))
    else:
        pen = list(line.penalties)
        if not 1 <= cell.seat <= len(pen):
            raise Refused("sheet.no_seat", seat=cell.seat)
        pen[cell.seat - 1] = value or 0
        line = replace(line, penalties=tuple(pen))
    games = (*sheet.games[: cell.game - 1], line, *sheet.games[cell.game :])
    sheet = replace(sheet, games=games, entered_by=who, entered_at=at)
    return sheet, check_game(sheet, cell.game, rules)


def _put(row: tuple[int | None, ...], seat: int, value: int | None) -> tuple[int | None, ...]:
    if not 1 <= seat <= len(row):
        raise Refused("sheet.no_seat", seat=seat)
    return (*row[: seat - 1], value, *row[seat:])


def submit(
    sheet: ScoreSheet, *, rules: RuleSet, who: str, at: str = "", why: str = ""
) -> tuple[ScoreSheet, tuple[Problem, ...]]:
    """Count the sheet if it passes every check.

    A sheet that fails stays as entered, and what was counted before (if anything)
    still counts. Changing a counted sheet needs a reason (``why``); each changed
    cell is recorded as a :class:`Correction`.
    """
    problems = check_sheet(sheet, rules, complete=True)
    if problems:
        return sheet, problems
    if sheet.counted is None:
        return replace(sheet, counted=sheet.games, submitted_by=who, submitted_at=at), ()
    changes = _diff(sheet, sheet.counted, sheet.games)
    if not changes:
        return sheet, ()
    if not why.strip():
        return sheet, (Problem.of(sheet.cell(changes[0][0].game), "sheet.correction_needs_reason"),)
    corrections = tuple(Correction(c, old, new, who, why, at) for c, old, new in changes)
    return replace(
        sheet,
        counted=sheet.games,
        submitted_by=who,
        submitted_at=at,
        corrections=sheet.corrections + corrections,
    ), ()


def correct(
    sheet: ScoreSheet,
    changes: Mapping[Cell, int | None],
    *,
    rules: RuleSet,
    who: str,
    why: str,
    at: str = "",
) -> tuple[ScoreSheet, tuple[Problem, ...]]:
    """Change cells of a counted sheet and submit again, in one step. When the changed
    sheet fails a check, the changes stay as a draft and the old sheet still counts."""
    for cell, value in changes.items():
        sheet, _ = enter_cell(sheet, cell, value, rules=rules, who=who, at=at)
    return submit(sheet, rules=rules, who=who, at=at, why=why)


def _diff(
    sheet: ScoreSheet, old: tuple[GameLine, ...], new: tuple[GameLine, ...]
) -> list[tuple[Cell, int | None, int | None]]:
    out: list[tuple[Cell, int | None, int | None]] = []
    for g, (a, b) in enumerate(zip(old, new, strict=True), 1):
        if a.winner != b.winner:
            out.append((sheet.cell(g, 0, "winner"), a.winner, b.winner))
        for s in range(1, len(sheet.players) + 1):
            if a.points[s - 1] != b.points[s - 1]:
                out.append((sheet.cell(g, s, "points"), a.points[s - 1], b.points[s - 1]))
            if a.penalties[s - 1] != b.penalties[s - 1]:
                out.append((sheet.cell(g, s, "penalty"), a.penalties[s - 1], b.penalties[s - 1]))
    return out


# ---------------------------------------------------------------------------
# What a counted sheet gives the standings


@dataclass(frozen=True, slots=True)
class GameResult:
    """One counted game: the players in seat order, their game points and penalty
    points (positive), and the winning player."""

    round: int
    table: int
    game: int
    players: tuple[int, ...]
    points: tuple[int, ...]
    penalties: tuple[int, ...]
    winner: int

    def total(self, player: int) -> int:
        i = self.players.index(player)
        return self.points[i] - self.penalties[i]


def results(sheet: ScoreSheet) -> tuple[GameResult, ...]:
    """The counted games of a sheet (none for a sheet that has never passed)."""
    if sheet.counted is None:
        return ()
    out = []
    for g, line in enumerate(sheet.counted, 1):
        assert line.winner is not None
        out.append(
            GameResult(
                sheet.round,
                sheet.table,
                g,
                sheet.players,
                tuple(p or 0 for p in line.points),
                line.penalties,
                sheet.players[line.winner - 1],
            )
        )
    return tuple(out)


#: The ``×`` notation of 004: one mark per failed turn.
PENALTY_MARK: Final = MARK


def penalty_marks(points: int, rules: RuleSet) -> str:
    """Penalty points as ``×`` marks (``××`` for 100 under japan), by the rule set's
    penalty policy (core/penalties.py)."""
    return rules.penalty_policy.marks(points, rules.failed_turn_points)


def penalty_of_marks(text: str, rules: RuleSet) -> int | None:
    """The points of ``×`` marks written on a sheet (``××``: two failed turns), or None
    when the text is not marks alone."""
    return rules.penalty_policy.of_marks(text, rules.failed_turn_points)
