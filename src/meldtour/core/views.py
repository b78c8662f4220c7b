"""What one player, or a spectator, may see (boardgame.io's ``playerView``).

A view holds the board, the player's own rack (none for a spectator), the other
players' tile counts and the pool's size — never another rack or the pool's order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .game import Event
from .melds import Board, parse_board
from .rules import RuleSet
from .state import End, GameState
from .tiles import Tile, format_tiles, parse_tiles


@dataclass(frozen=True, slots=True)
class PlayerView:
    rules: RuleSet
    seat: int | None
    players: tuple[str, ...]
    order: tuple[int, ...]
    current: int
    board: Board
    rack: tuple[Tile, ...]
    rack_sizes: tuple[int, ...]
    pool_left: int
    melded: tuple[bool, ...]
    turn_no: int
    deadline: float | None
    draft: Board | None
    penalties: tuple[int, ...]
    end: End | None
    winner: int | None
    scores: tuple[int, ...] | None
    final_racks: tuple[tuple[Tile, ...], ...] | None

    @property
    def my_turn(self) -> bool:
        return self.end is None and self.seat == self.current

    def to_json(self, board: list[Any] | None = None) -> dict[str, Any]:
        """The view as JSON; ``board``, when given, is ``self.board`` as JSON already
        made (every seat's view of one state holds the same board: made once)."""
        return {
            "seat": self.seat,
            "players": list(self.players),
            "order": list(self.order),
            "current": self.current,
            "board": [m.to_json() for m in self.board] if board is None else board,
            "rack": format_tiles(self.rack),
            "rack_sizes": list(self.rack_sizes),
            "pool_left": self.pool_left,
            "melded": list(self.melded),
            "turn_no": self.turn_no,
            "deadline": self.deadline,
            "draft": None if self.draft is None else [m.to_json() for m in self.draft],
            "penalties": [-p for p in self.penalties],
            "end": self.end,
            "winner": self.winner,
            "scores": None if self.scores is None else list(self.scores),
            "final_racks": None
            if self.final_racks is None
            else [format_tiles(r) for r in self.final_racks],
        }


def view_from_json(data: dict[str, Any], rules: RuleSet) -> PlayerView:
    """A view back from :meth:`PlayerView.to_json` (what a remote client receives), for
    a computer player on the far side of a socket. The rules travel separately."""

    def racks(value: Any) -> tuple[tuple[Tile, ...], ...] | None:
        return None if value is None else tuple(parse_tiles(r) for r in value)

    return PlayerView(
        rules=rules,
        seat=data["seat"],
        players=tuple(data["players"]),
        order=tuple(data["order"]),
        current=data["current"],
        board=parse_board(data["board"]),
        rack=parse_tiles(data["rack"]),
        rack_sizes=tuple(data["rack_sizes"]),
        pool_left=data["pool_left"],
        melded=tuple(data["melded"]),
        turn_no=data["turn_no"],
        deadline=data["deadline"],
        draft=None if data["draft"] is None else parse_board(data["draft"]),
        penalties=tuple(-p for p in data["penalties"]),
        end=data["end"],
        winner=data["winner"],
        scores=None if data["scores"] is None else tuple(data["scores"]),
        final_racks=racks(data["final_racks"]),
    )


def player_view(state: GameState, seat: int | None) -> PlayerView:
    """What ``seat`` may see; ``None`` for a spectator (no rack at all).

    The draft of the player to move is shown to that player only. Once the game is
    over every rack is shown, as racks are opened at a real table.
    """
    if seat is not None and not 0 <= seat < state.seats:
        raise ValueError(f"seat {seat} is not a seat of this game")
    own_draft = state.draft if seat is not None and seat == state.current else None
    return PlayerView(
        rules=state.rules,
        seat=seat,
        players=state.players,
        order=state.order,
        current=state.current,
        board=state.board,
        rack=state.racks[seat] if seat is not None else (),
        rack_sizes=tuple(len(r) for r in state.racks),
        pool_left=len(state.pool),
        melded=state.melded,
        turn_no=state.turn_no,
        deadline=state.deadline,
        draft=own_draft,
        penalties=state.penalties,
        end=state.end,
        winner=state.winner,
        scores=state.scores,
        final_racks=state.racks if state.end is not None else None,
    )


def public_view_json(state: GameState, board: list[Any] | None = None) -> dict[str, Any]:
    """The part of every seat's view (:meth:`PlayerView.to_json`) that is the same for
    all of them, in its order: everything but ``seat``, ``rack`` and ``draft``
    (:func:`own_view_json`). ``{**public_view_json(s), **own_view_json(s, seat)}``
    equals ``player_view(s, seat).to_json()`` — made once for a move's every seat
    (``board``: the board as JSON, when already made)."""
    end = state.end
    return {
        "players": list(state.players),
        "order": list(state.order),
        "current": state.current,
        "board": [m.to_json() for m in state.board] if board is None else board,
        "rack_sizes": [len(r) for r in state.racks],
        "pool_left": len(state.pool),
        "melded": list(state.melded),
        "turn_no": state.turn_no,
        "deadline": state.deadline,
        "penalties": [-p for p in state.penalties],
        "end": end,
        "winner": state.winner,
        "scores": None if state.scores is None else list(state.scores),
        "final_racks": None if end is None else [format_tiles(r) for r in state.racks],
    }


def own_view_json(state: GameState, seat: int | None) -> dict[str, Any]:
    """What only ``seat`` sees (``None``: a spectator, no rack): its seat, its rack and,
    on its turn, its own draft; see :func:`public_view_json`."""
    if seat is not None and not 0 <= seat < state.seats:
        raise ValueError(f"seat {seat} is not a seat of this game")
    draft = state.draft if seat is not None and seat == state.current else None
    return {
        "seat": seat,
        "rack": format_tiles(state.racks[seat]) if seat is not None else [],
        "draft": None if draft is None else [m.to_json() for m in draft],
    }


def event_for(event: Event, seat: int | None) -> Event | None:
    """The event as ``seat`` may see it: private data only for its own seat.

    A draft is shown only to its owner (whether others watch drafts live is a table
    option for the live layer, not the referee).
    """
    if event.kind == "draft" and event.seat != seat:
        return None
    if event.private is None or (seat is not None and event.seat == seat):
        return event
    return Event(event.kind, event.seat, event.data, None)
