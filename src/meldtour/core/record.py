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
from .refusal import Refusal, Refused, register
from .rules import PRESETS, RuleSet, find_rules
from .search import PlayFinder
from .state import Deal, GameState
from .tiles import NotationError, format_tiles, parse_tiles

register(
    {
        "record.move_not_object": "a move is an object with seat and action",
        "record.unknown_action": "unknown action %(action)r: one of draw, play, timeout, pass, "
        "redeal",
        "record.seat_not_int": "seat must be a whole number, got %(seat)r",
        "record.at_not_number": "at must be a number of seconds, got %(at)r",
        "record.play_needs_board": "a play needs the whole board after the turn",
        "record.at_move": "move %(index)s: %(why)s",
        "record.bad_rules": "rules must be a preset name, a file path or an object, got %(rules)r",
        "record.not_object": "a record is a JSON object with rules, players, seed and moves",
        "record.unknown_fields": "unknown record field(s): %(fields)s",
        "record.players_not_names": "players must be a list of names",
        "record.seed_not_int": "seed must be a whole number, got %(seed)r",
        "record.deal_not_object": "deal must be an object with racks, pool and first",
        "record.deal": "deal: %(why)s",
        "record.deal_first_not_int": "deal: first must be a seat number, got %(first)r",
        "record.moves_not_list": "moves must be a list",
        "record.move_refused": "move %(index)s (%(action)s by seat %(seat)s): %(why)s",
    }
)


class RecordError(Refused):
    """A record that cannot be read or replayed; names the move where it stops
    (``index``). Made from a code and its arguments, or from another refusal."""

    def __init__(self, code: str | Refusal, index: int | None = None, /, **params: Any) -> None:
        if isinstance(code, Refusal):
            params = {**code.params, **params}
            code = code.code
        super().__init__(code, **params)
        self.index = index


def _at(index: int | None, code: str, **params: Any) -> RecordError:
    """A refusal of move ``index`` of a record (named when there is an index)."""
    if index is None:
        return RecordError(code, None, **params)
    return RecordError("record.at_move", index, index=index, why=Refusal(code, params))


@dataclass(frozen=True, slots=True)
class Record:
    rules: RuleSet
    players: tuple[str, ...]
    seed: int
    deal: Deal | None
    moves: tuple[Move, ...]


def move_from_json(data: Any, index: int | None = None) -> Move:
    if not isinstance(data, Mapping):
        raise _at(index, "record.move_not_object")
    action = data.get("action")
    cls = ACTIONS.get(action) if isinstance(action, str) else None
    if cls is None or action == "draft":
        raise _at(index, "record.unknown_action", action=action)
    seat = data.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise _at(index, "record.seat_not_int", seat=seat)
    at = data.get("at")
    if at is not None and (not isinstance(at, int | float) or isinstance(at, bool)):
        raise _at(index, "record.at_not_number", at=at)
    try:
        board = parse_board(data["board"]) if "board" in data else None
    except NotationError as exc:
        raise _at(index, exc.code, **exc.params) from None
    if cls is Play:
        if board is None:
            raise _at(index, "record.play_needs_board")
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
    raise RecordError("record.bad_rules", rules=spec)


def read_record(data: Any, resolve: Callable[[str], RuleSet] | None = None) -> Record:
    """Parse a record; ``resolve`` turns a rules path into a rule set (adapters only)."""
    if not isinstance(data, Mapping):
        raise RecordError("record.not_object")
    unknown = set(data) - {"rules", "players", "seed", "deal", "moves"}
    if unknown:
        raise RecordError("record.unknown_fields", fields=", ".join(sorted(unknown)))
    rules = read_rules(data.get("rules", "standard"), resolve)
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RecordError("record.players_not_names")
    if not 2 <= len(players) <= 4:
        raise RecordError("game.players_count", n=len(players))
    seed = data.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise RecordError("record.seed_not_int", seed=seed)
    deal = None
    if data.get("deal") is not None:
        d = data["deal"]
        if not isinstance(d, Mapping):
            raise RecordError("record.deal_not_object")
        try:
            racks = tuple(parse_tiles(r) for r in d.get("racks", ()))
            pool = parse_tiles(d.get("pool", ()))
        except NotationError as exc:
            raise RecordError("record.deal", why=exc.refusal) from None
        first = d.get("first", 0)
        if not isinstance(first, int) or isinstance(first, bool):
            raise RecordError("record.deal_first_not_int", first=first)
        deal = Deal(racks, pool, first)
    raw_moves = data.get("moves", [])
    if not isinstance(raw_moves, list):
        raise RecordError("record.moves_not_list")
    moves = tuple(move_from_json(m, i) for i, m in enumerate(raw_moves))
    return Record(rules, tuple(players), seed, deal, moves)


def replay(record: Record, finder: PlayFinder | None = None) -> GameState:
    """Play the record's moves; a move the rules refuse stops with its index and why."""
    try:
        state = new_game(record.rules, record.players, record.seed, deal=record.deal).state
    except Refused as exc:
        raise RecordError(exc.refusal) from None
    for i, move in enumerate(record.moves):
        try:
            state = apply(state, move, finder=finder).state
        except IllegalMove as exc:
            raise move_refused(i, move, exc) from None
    return state


def move_refused(index: int, move: Move, exc: IllegalMove) -> RecordError:
    """Move ``index`` of a record, refused by the rules."""
    return RecordError(
        "record.move_refused",
        index,
        index=index,
        action=move.action,
        seat=move.seat,
        why=exc.refusal,
    )


def record_of(state: GameState) -> dict[str, Any]:
    """The record of a game so far; replaying it gives an identical state, but for a
    draft still on the table (a draft is not a move: a time-out carries its board)."""
    rules: Any = state.rules.name
    if PRESETS.get(state.rules.name) != state.rules:
        rules = state.rules.to_dict()
    out: dict[str, Any] = {"rules": rules, "players": list(state.players), "seed": state.seed}
    if state.deal is not None:
        out["deal"] = {
            "racks": [format_tiles(r) for r in state.deal.racks],
            "pool": format_tiles(state.deal.pool),
            "first": state.deal.first,
        }
    out["moves"] = [move_to_json(m) for m in state.history]
    return out
