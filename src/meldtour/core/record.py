"""The game record (JSON) and its replay.

A record is what a game needs to be played again exactly: the rules, the players,
the seed (or a deal given by hand) and the moves::

    {"rules": "krc-2015", "players": ["A", "B"], "seed": 7,
     "deal": {"racks": [[...], [...]], "pool": [...], "first": 0},   (optional)
     "moves": [{"seat": 0, "action": "play", "board": [["r4","r5","r6"], ...]}, ...]}

``rules`` is a preset name, a path to a house-rules file (resolved by the adapter
that reads the record), or an object of rule options with an optional ``preset``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .game import IllegalMove, apply, new_game
from .melds import format_board, parse_board
from .moves import ACTIONS, Draw, Move, Pass, Play, Redeal, Timeout
from .rules import PRESETS, RuleSet, find_rules
from .search import PlayFinder
from .state import Deal, GameState
from .tiles import NotationError, format_tiles, parse_tiles


class RecordError(ValueError):
    """A record that cannot be read or replayed; names the move where it stops."""

    def __init__(self, message: str, index: int | None = None) -> None:
        super().__init__(message)
        self.index = index


@dataclass(frozen=True, slots=True)
class Record:
    rules: RuleSet
    players: tuple[str, ...]
    seed: int
    deal: Deal | None
    moves: tuple[Move, ...]


def move_from_json(data: Any, index: int | None = None) -> Move:
    where = f"move {index}: " if index is not None else ""
    if not isinstance(data, Mapping):
        raise RecordError(f"{where}a move is an object with seat and action", index)
    action = data.get("action")
    cls = ACTIONS.get(action) if isinstance(action, str) else None
    if cls is None or action == "draft":
        raise RecordError(
            f"{where}unknown action {action!r}: one of draw, play, timeout, pass, redeal", index)
    seat = data.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise RecordError(f"{where}seat must be a whole number, got {seat!r}", index)
    at = data.get("at")
    if at is not None and (not isinstance(at, int | float) or isinstance(at, bool)):
        raise RecordError(f"{where}at must be a number of seconds, got {at!r}", index)
    try:
        board = parse_board(data["board"]) if "board" in data else None
    except NotationError as exc:
        raise RecordError(f"{where}{exc}", index) from None
    if cls is Play:
        if board is None:
            raise RecordError(f"{where}a play needs the whole board after the turn", index)
        return Play(seat, board, at)
    if cls is Timeout:
        return Timeout(seat, board, at)
    if cls is Draw:
        return Draw(seat, at)
    if cls is Pass:
        return Pass(seat, at)
    return Redeal(seat, at)


def move_to_json(move: Move) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": move.seat, "action": move.action}
    board = getattr(move, "board", None)
    if board is not None:
        out["board"] = format_board(board)
    return out


def read_rules(spec: Any, resolve: Callable[[str], RuleSet] | None = None) -> RuleSet:
    if isinstance(spec, Mapping):
        return RuleSet.from_dict(dict(spec))
    if isinstance(spec, str):
        if spec in PRESETS or resolve is None:
            return find_rules(spec)
        return resolve(spec)
    raise RecordError(f"rules must be a preset name, a file path or an object, got {spec!r}")


def read_record(data: Any, resolve: Callable[[str], RuleSet] | None = None) -> Record:
    """Parse a record; ``resolve`` turns a rules path into a rule set (adapters only)."""
    if not isinstance(data, Mapping):
        raise RecordError("a record is a JSON object with rules, players, seed and moves")
    unknown = set(data) - {"rules", "players", "seed", "deal", "moves"}
    if unknown:
        raise RecordError(f"unknown record field(s): {', '.join(sorted(unknown))}")
    rules = read_rules(data.get("rules", "standard"), resolve)
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RecordError("players must be a list of names")
    if not 2 <= len(players) <= 4:
        raise RecordError(f"a game has 2 to 4 players, not {len(players)}")
    seed = data.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise RecordError(f"seed must be a whole number, got {seed!r}")
    deal = None
    if data.get("deal") is not None:
        d = data["deal"]
        if not isinstance(d, Mapping):
            raise RecordError("deal must be an object with racks, pool and first")
        try:
            racks = tuple(parse_tiles(r) for r in d.get("racks", ()))
            pool = parse_tiles(d.get("pool", ()))
        except NotationError as exc:
            raise RecordError(f"deal: {exc}") from None
        first = d.get("first", 0)
        if not isinstance(first, int) or isinstance(first, bool):
            raise RecordError(f"deal: first must be a seat number, got {first!r}")
        deal = Deal(racks, pool, first)
    raw_moves = data.get("moves", [])
    if not isinstance(raw_moves, list):
        raise RecordError("moves must be a list")
    moves = tuple(move_from_json(m, i) for i, m in enumerate(raw_moves))
    return Record(rules, tuple(players), seed, deal, moves)


def replay(record: Record, finder: PlayFinder | None = None) -> GameState:
    """Play the record's moves; a move the rules refuse stops with its index and why."""
    try:
        state = new_game(record.rules, record.players, record.seed, deal=record.deal).state
    except ValueError as exc:
        raise RecordError(str(exc)) from None
    for i, move in enumerate(record.moves):
        try:
            state = apply(state, move, finder=finder).state
        except IllegalMove as exc:
            raise RecordError(f"move {i} ({move.action} by seat {move.seat}): {exc.reason}",
                              i) from None
    return state


def record_of(state: GameState) -> dict[str, Any]:
    """The record of a game so far; replaying it gives an identical state, but for a
    draft still on the table (a draft is not a move: a time-out carries its board)."""
    rules: Any = state.rules.name
    if PRESETS.get(state.rules.name) != state.rules:
        rules = state.rules.to_dict()
    out: dict[str, Any] = {"rules": rules, "players": list(state.players), "seed": state.seed}
    if state.deal is not None:
        out["deal"] = {"racks": [format_tiles(r) for r in state.deal.racks],
                       "pool": format_tiles(state.deal.pool), "first": state.deal.first}
    out["moves"] = [move_to_json(m) for m in state.history]
    return out
