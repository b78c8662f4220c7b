"""The game state: one immutable value holding everything the referee knows."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, Literal

from .melds import Board
from .moves import Move
from .rules import RuleSet
from .tiles import Tile, format_tiles

End = Literal["out", "pool", "blocked"]


@dataclass(frozen=True, slots=True)
class Deal:
    """A deal given by hand (teaching positions, reports): racks by seat, the pool in
    draw order and the starting seat. Tiles it leaves out are out of play."""

    racks: tuple[tuple[Tile, ...], ...]
    pool: tuple[Tile, ...]
    first: int


@dataclass(frozen=True, slots=True)
class GameState:
    """Everything about one game. Seats are the players' positions clockwise.

    ``order`` lists the seats in turn order (``order[0]`` starts); ``turn`` indexes it.
    The pool is drawn from the front and its order is secret. ``draft`` is the board
    the player to move has on the table during the turn (online play), or None.
    ``could_meld[s]`` records that seat s drew voluntarily while its rack held a legal
    initial meld (the −200 rule). Times are seconds on the adapter's clock, or None
    where no clock is kept (records, tests).
    """

    rules: RuleSet
    players: tuple[str, ...]
    seed: int
    order: tuple[int, ...]
    racks: tuple[tuple[Tile, ...], ...]
    pool: tuple[Tile, ...]
    board: Board
    melded: tuple[bool, ...]
    could_meld: tuple[bool, ...]
    turn: int = 0
    turn_no: int = 0
    turns_taken: tuple[int, ...] = ()
    draft: Board | None = None
    turn_started: float | None = None
    penalties: tuple[int, ...] = ()
    penalty_marks: tuple[int, ...] = ()
    last_taker: int | None = None
    final_turns: int | None = None
    idle_turns: int = 0
    deal_no: int = 0
    deal: Deal | None = None
    end: End | None = None
    winner: int | None = None
    scores: tuple[int, ...] | None = None
    history: tuple[Move, ...] = ()
    seat_draws: tuple[tuple[tuple[int, Tile], ...], ...] = ()

    @property
    def seats(self) -> int:
        return len(self.players)

    @property
    def current(self) -> int:
        """The seat whose turn it is."""
        return self.order[self.turn]

    @property
    def first(self) -> int:
        """The starting seat."""
        return self.order[0]

    @property
    def is_over(self) -> bool:
        return self.end is not None

    @property
    def deadline(self) -> float | None:
        if self.turn_started is None:
            return None
        return self.turn_started + self.rules.turn_seconds

    def tile_count(self) -> int:
        """Tiles in play: racks, pool and board (106 unless a deal left some out)."""
        return (
            sum(len(r) for r in self.racks) + len(self.pool) + sum(len(m.tiles) for m in self.board)
        )

    def summary(self) -> dict[str, Any]:
        """The referee's view as JSON-ready data (everything; not for players)."""
        return {
            "board": [m.to_json() for m in self.board],
            "racks": [format_tiles(r) for r in self.racks],
            "pool_left": len(self.pool),
            "penalties": [-p for p in self.penalties],
            "scores": list(self.scores) if self.scores is not None else None,
            "winner": self.winner,
            "end": self.end,
        }


def _replacer() -> Callable[..., GameState]:
    """``dataclasses.replace`` for :class:`GameState`, twice as fast (3.9 µs against
    8.2): a move makes four to six new states, and a game server makes hundreds of
    moves a second (BENCHMARKS.md, "Server"). The same values: each field is the
    change given for it or the state's own; a name that is not a field is refused."""
    names = [f.name for f in fields(GameState)]
    slots = {name: GameState.__dict__[name] for name in names}  # the slots' descriptors
    scope: dict[str, Any] = {"_new": object.__new__, "_cls": GameState}
    lines = ["def replace_state(state, /, **changes):", "    new = _new(_cls)"]
    for i, name in enumerate(names):
        scope[f"_set{i}"], scope[f"_get{i}"] = slots[name].__set__, slots[name].__get__
        lines.append(
            f"    _set{i}(new, changes.pop({name!r}) if {name!r} in changes else _get{i}(state))"
        )
    lines += [
        "    if changes:",
        "        raise TypeError('not a field of GameState: ' + ', '.join(changes))",
        "    return new",
    ]
    exec("\n".join(lines), scope)  # the code is made here from the class's own fields
    replace: Callable[..., GameState] = scope["replace_state"]
    return replace


#: ``replace_state(state, **changes)``: a new state with ``changes`` (see :func:`_replacer`).
replace_state = _replacer()
