"""A game turn by turn: the replay's steps, and each move against the best play.

:func:`steps` replays a record one move at a time and keeps, for every move, the
state before and after it and the events it caused (the replay page steps through
them). :func:`analyse` puts each turn's move beside the best play from the same
board and rack. The core does not import the solver: the caller passes the function
that finds the best play (``meldtour.solver.solve``) and the engine's play finder.

A turn is a *missed play* when the best play would have put down more tiles, or as
many tiles worth more points; ``tiles_left`` and ``points_left`` say how many tiles,
and how many points, the move left on the rack compared with it.

>>> from meldtour.core.record import read_record
>>> record = read_record({"rules": "krc-2015", "players": ["A", "B"], "seed": 3,
...                       "moves": [{"seat": 1, "action": "draw"}]})
>>> [(s.index, s.move.action, len(s.after.pool)) for s in steps(record)]
[(0, 'draw', 77)]
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .game import Event, IllegalMove, apply, new_game
from .melds import Board, Meld
from .moves import Move, Redeal
from .record import Record, RecordError, move_refused
from .refusal import Refused
from .rules import RuleSet
from .search import PlayFinder
from .state import GameState
from .tiles import Tile, format_tiles


class Best(Protocol):
    """What a best-play finder answers (``meldtour.solver.Solution`` has these)."""

    @property
    def placed(self) -> int: ...

    @property
    def value(self) -> int: ...

    @property
    def tiles(self) -> tuple[Tile, ...]: ...

    @property
    def board(self) -> tuple[Meld, ...]: ...


#: ``solve(board, rack, rules, melded)``: the play placing the most tiles, then value.
Solve = Callable[[Board, Sequence[Tile], RuleSet, bool], Best]


@dataclass(frozen=True, slots=True)
class Step:
    """One move of a game: the state before it, the state after it and its events."""

    index: int
    move: Move
    before: GameState
    after: GameState
    events: tuple[Event, ...]


def steps(
    record: Record, finder: PlayFinder | None = None, *, clock: bool = True
) -> Iterator[Step]:
    """The record's moves one by one. ``clock=False`` drops the moves' times: a game
    played online had its clock judged as it was played (and set back after a
    restart), so a later replay need not judge it again. Raises :class:`RecordError`
    naming the move the rules refuse."""
    try:
        state = new_game(record.rules, record.players, record.seed, deal=record.deal).state
    except Refused as exc:
        raise RecordError(exc.refusal) from None
    for i, move in enumerate(record.moves):
        if not clock and move.at is not None:
            move = dataclasses.replace(move, at=None)
        try:
            progress = apply(state, move, finder=finder)
        except IllegalMove as exc:
            raise move_refused(i, move, exc) from None
        yield Step(i, move, state, progress.state, progress.events)
        state = progress.state


def board_value(board: Board, rules: RuleSet) -> int:
    """The value of the valid melds on a board."""
    return sum(m.value(rules.wrap_runs) for m in board if m.is_valid(rules.wrap_runs))


def placed_tiles(before: Board, after: Board) -> list[Tile]:
    """The tiles a move added to the board, sorted."""
    added = Counter(t for m in after for t in m.tiles)
    added.subtract(t for m in before for t in m.tiles)
    return sorted(t for t, k in added.items() for _ in range(max(k, 0)))


@dataclass(frozen=True, slots=True)
class BestPlay:
    placed: int
    value: int
    tiles: tuple[Tile, ...]
    board: Board


@dataclass(frozen=True, slots=True)
class TurnAnalysis:
    turn: int
    seat: int
    player: str
    action: str
    placed: tuple[Tile, ...]
    value: int
    #: The best play from the same board and rack; None for a move that is not a turn
    #: (a redeal demanded out of turn).
    best: BestPlay | None
    missed: bool
    tiles_left: int
    points_left: int

    def to_json(self) -> dict[str, Any]:
        best = (
            None
            if self.best is None
            else {
                "placed": self.best.placed,
                "value": self.best.value,
                "tiles": format_tiles(self.best.tiles),
            }
        )
        return {
            "turn": self.turn,
            "seat": self.seat,
            "player": self.player,
            "action": self.action,
            "placed": format_tiles(self.placed),
            "value": self.value,
            "best": best,
            "missed": self.missed,
            "tiles_left": self.tiles_left,
            "points_left": self.points_left,
        }


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    seat: int
    name: str
    turns: int
    missed: int
    tiles_left: int
    points_left: int

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass(frozen=True, slots=True)
class Analysis:
    turns: tuple[TurnAnalysis, ...]
    players: tuple[PlayerSummary, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "turns": [t.to_json() for t in self.turns],
            "players": [p.to_json() for p in self.players],
        }


def analyse_step(step: Step, solve: Solve) -> TurnAnalysis:
    """One move against the best play from the board and rack before it."""
    before, move, seat = step.before, step.move, step.move.seat
    rules = before.rules
    if isinstance(move, Redeal) or not 0 <= seat < before.seats or seat != before.current:
        return TurnAnalysis(
            step.index, seat, before.players[seat], move.action, (), 0, None, False, 0, 0
        )
    found = solve(before.board, before.racks[seat], rules, before.melded[seat])
    best = BestPlay(found.placed, found.value, tuple(found.tiles), tuple(found.board))
    placed = placed_tiles(before.board, step.after.board)
    value = board_value(step.after.board, rules) - board_value(before.board, rules)
    tiles_left = best.placed - len(placed)
    points_left = best.value - value
    missed = tiles_left > 0 or (tiles_left == 0 and points_left > 0)
    return TurnAnalysis(
        step.index,
        seat,
        before.players[seat],
        move.action,
        tuple(placed),
        value,
        best,
        missed,
        max(tiles_left, 0) if missed else 0,
        max(points_left, 0) if missed else 0,
    )


def summarise(turns: Sequence[TurnAnalysis], players: Sequence[str]) -> tuple[PlayerSummary, ...]:
    out = []
    for seat, name in enumerate(players):
        mine = [t for t in turns if t.seat == seat]
        out.append(
            PlayerSummary(
                seat,
                name,
                len(mine),
                sum(1 for t in mine if t.missed),
                sum(t.tiles_left for t in mine),
                sum(t.points_left for t in mine),
            )
        )
    return tuple(out)


def analyse(
    record: Record, solve: Solve, finder: PlayFinder | None = None, *, clock: bool = True
) -> Analysis:
    """Every move of the record against the best play (see the module's docstring)."""
    turns = tuple(analyse_step(step, solve) for step in steps(record, finder, clock=clock))
    return Analysis(turns, summarise(turns, record.players))


__all__ = [
    "Analysis",
    "Best",
    "BestPlay",
    "PlayerSummary",
    "Solve",
    "Step",
    "TurnAnalysis",
    "analyse",
    "analyse_step",
    "board_value",
    "placed_tiles",
    "steps",
    "summarise",
]
