"""The tournament's value types: Tournament → Division → Stage → Round → Table.

Everything here is immutable. The functions of :mod:`.registration` and
:mod:`.stages` take a :class:`Tournament` and return a :class:`Progress`: the new
tournament and the :class:`Notice` list of what happened (registered, waitlisted,
seated, sheet counted ...). A notice is a tournament happening, never a game event.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Final, Literal, NamedTuple

from meldtour.core.refusal import Refused
from meldtour.core.rules import RuleSet

from . import refusals as _refusals  # noqa: F401  (the codes below)
from .seating import MAX_TABLE, MIN_TABLE, SEATERS, Seating, SeatingMethod
from .sheets import GameResult, Problem, ScoreSheet, results
from .standings import StandingRules

StageKind = Literal["seatings", "knockout", "final"]
#: A seating method: a name in :data:`~.seating.SEATERS`.
StageSeating = SeatingMethod
Status = Literal["registered", "waitlisted", "checked_in", "no_show", "dropped", "withdrawn"]

#: Statuses of a player who takes part once the division has started.
PLAYING: Final = frozenset({"checked_in"})


class TournamentError(Refused):
    """An action the tournament's state does not allow: a code and its arguments
    (:mod:`.refusals`)."""


@dataclass(frozen=True, slots=True)
class StageFormat:
    """How a stage is played. Every number is editable: "the order, the number of games
    and the prizes may change on the day" (000).

    - ``seatings``: ``seatings`` rounds, each a new seating with ``games`` games at each
      table (Busan general 2 × 4, Japan championship 5 × 2, Tohoku 3–4 × 2);
    - ``knockout``: tables of 4, ``games`` games, the top ``advance`` of each table go
      on, seated again, until the players fit one final table, which plays
      ``final_games`` (Busan elementary: 1 game, top 2, 32 → 16 → 8 → 4);
    - ``final``: the top ``entrants`` of the previous stage, ``games`` games; with
      ``carry`` the earlier stages' games count too (Japan: 10 + 2 games).

    ``seed_ranking``: the circuit's ranking a ``by-ranking`` seating seeds by (its key;
    empty: the first ranking defined, the one the ranking page shows first).
    """

    kind: StageKind
    games: int = 1
    seatings: int = 1
    advance: int = 2
    entrants: int | None = None
    carry: bool = False
    seating: StageSeating = "random"
    table_size: int = 4
    final_games: int | None = None
    name: str = ""
    seed_ranking: str = ""

    def __post_init__(self) -> None:
        if self.kind not in ("seatings", "knockout", "final"):
            raise TournamentError("stage.unknown_format", kind=repr(self.kind))
        if self.games < 1 or self.seatings < 1:
            raise TournamentError("stage.needs_seating_and_game")
        if self.table_size not in (MIN_TABLE, MAX_TABLE):
            raise TournamentError("stage.table_size")
        if self.kind == "knockout" and not 1 <= self.advance < self.table_size:
            raise TournamentError("stage.knockout_advance", n=self.table_size - 1)
        if self.entrants is not None and self.entrants < MIN_TABLE:
            raise TournamentError("stage.too_few_entrants")
        if self.seating not in SEATERS:
            raise TournamentError("stage.unknown_seating", seating=repr(self.seating))
        if self.seating == "snake" and self.kind != "knockout":
            raise TournamentError("stage.snake_not_knockout")

    @property
    def title(self) -> str:
        return self.name or self.kind

    @property
    def method(self) -> SeatingMethod:
        return self.seating


@dataclass(frozen=True, slots=True)
class Registration:
    """A player's entry in one division. ``player`` is the registration number, the
    player's id throughout the tournament. ``tags`` name groups such as
    ``family:kim`` or ``club:busan``; ``generation`` (1 = the eldest) serves the
    three-generation family prize."""

    player: int
    name: str
    division: str
    tags: frozenset[str] = frozenset()
    generation: int | None = None
    status: Status = "registered"
    late: bool = False

    def tag_values(self, kind: str) -> frozenset[str]:
        """The tags of one kind (``family`` gives ``{"family:kim"}``)."""
        return frozenset(t for t in self.tags if t.split(":", 1)[0] == kind)


@dataclass(frozen=True, slots=True)
class Table:
    """One table of a round: its players in seat order and its score sheet."""

    number: int
    sheet: ScoreSheet

    @property
    def players(self) -> tuple[int, ...]:
        return self.sheet.players

    @property
    def counted(self) -> bool:
        return self.sheet.counted is not None


@dataclass(frozen=True, slots=True)
class Round:
    """One seating of a stage and its tables. ``advanced`` (knockout) lists the
    players who went on, fixed when the round was closed."""

    number: int
    tables: tuple[Table, ...]
    closed: bool = False
    advanced: tuple[int, ...] = ()

    @property
    def seating(self) -> Seating:
        return Seating(tuple(t.players for t in self.tables))

    @property
    def complete(self) -> bool:
        return all(t.counted for t in self.tables)

    def results(self) -> tuple[GameResult, ...]:
        return tuple(g for t in self.tables for g in results(t.sheet))

    def table(self, number: int) -> Table:
        for t in self.tables:
            if t.number == number:
                return t
        raise TournamentError("stage.no_table", n=self.number, table=number)


@dataclass(frozen=True, slots=True)
class Stage:
    """A stage being played: who entered (in seed order), its rounds, the seatings
    planned for rounds to come, the players out of it (dropped), and the lots drawn."""

    format: StageFormat
    entrants: tuple[int, ...]
    rounds: tuple[Round, ...] = ()
    plan: tuple[Seating, ...] = ()
    dropped: frozenset[int] = frozenset()
    lots: tuple[tuple[int, int], ...] = ()
    finished: bool = False

    @property
    def active(self) -> tuple[int, ...]:
        return tuple(p for p in self.entrants if p not in self.dropped)

    def results(self) -> tuple[GameResult, ...]:
        return tuple(g for r in self.rounds for g in r.results())

    @property
    def lot_map(self) -> Mapping[int, int]:
        return dict(self.lots)


@dataclass(frozen=True, slots=True)
class Division:
    """A division: its cap, eligibility note and rules, its stage formats, and the
    stages played so far. ``keep_apart`` names the tag kinds balanced seating keeps
    apart (``family``, ``club``), as a hard or a soft constraint."""

    key: str
    name: str
    cap: int
    rules: RuleSet
    formats: tuple[StageFormat, ...]
    eligibility: str = ""
    ranking: StandingRules | None = None
    keep_apart: tuple[str, ...] = ()
    groups_hard: bool = True
    late_entry: bool = False
    prizes: int = 4
    started: bool = False
    stages: tuple[Stage, ...] = ()

    def __post_init__(self) -> None:
        if self.cap < 1:
            raise TournamentError("division.cap_too_small", key=self.key)
        if not self.formats:
            raise TournamentError("division.no_formats", key=self.key)
        for i, f in enumerate(self.formats):
            if f.kind == "final" and i == 0:
                raise TournamentError("division.final_first", key=self.key)

    @property
    def standing_rules(self) -> StandingRules:
        if self.ranking is not None:
            return self.ranking
        return StandingRules(mode=self.rules.match_ranking, win_points=self.rules.league_win_points)


@dataclass(frozen=True, slots=True)
class Tournament:
    """The day: its divisions and registrations. ``seed`` makes every draw (seating,
    lots, prize draws) repeatable."""

    name: str
    date: str
    divisions: tuple[Division, ...]
    seed: int = 0
    registrations: tuple[Registration, ...] = ()

    def division(self, key: str) -> Division:
        for d in self.divisions:
            if d.key == key:
                return d
        raise TournamentError(
            "tournament.no_division", key=repr(key), keys=", ".join(d.key for d in self.divisions)
        )

    def registration(self, player: int) -> Registration:
        for r in self.registrations:
            if r.player == player:
                return r
        raise TournamentError("tournament.no_registration", n=player)

    def name_of(self, player: int) -> str:
        return self.registration(player).name

    def in_division(self, key: str, *statuses: Status) -> tuple[Registration, ...]:
        return tuple(
            r
            for r in self.registrations
            if r.division == key and (not statuses or r.status in statuses)
        )

    def with_division(self, division: Division) -> Tournament:
        return replace(
            self, divisions=tuple(division if d.key == division.key else d for d in self.divisions)
        )

    def with_registration(self, reg: Registration) -> Tournament:
        return replace(
            self,
            registrations=tuple(reg if r.player == reg.player else r for r in self.registrations),
        )


@dataclass(frozen=True, slots=True)
class Notice:
    """A tournament happening, for the log and the screens."""

    what: str
    text: str
    division: str | None = None
    player: int | None = None


class Progress(NamedTuple):
    """What an action returns: the new tournament, what happened, and the problems of
    a score sheet that was not counted."""

    tournament: Tournament
    notices: tuple[Notice, ...] = ()
    problems: tuple[Problem, ...] = ()
