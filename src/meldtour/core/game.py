"""The game engine: ``new_game`` and ``apply`` (docs/rules.md, from "Setting up a game"
to "Scoring a game").

The engine is a pure function of (state, move): it returns a new state and the
events that describe the change, or raises :class:`IllegalMove` with the reason and
changes nothing. Randomness comes only from the game's seed.

>>> from meldtour.core.rules import find_rules
>>> start = new_game(find_rules("krc-2015"), ["Ann", "Bo", "Cy", "Di"], seed=7)
>>> state = start.state
>>> [len(r) for r in state.racks], len(state.pool), state.tile_count()
([14, 14, 14, 14], 50, 106)
>>> after = apply(state, Draw(state.current)).state
>>> len(after.pool), after.current == state.order[1]
(49, True)
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .melds import Board, Meld
from .moves import (
    Draft,
    Draw,
    Fault,
    Move,
    Pass,
    Play,
    Redeal,
    Timeout,
    check_play,
    conservation,
    initial_meld_error,
    joker_replacement_error,
    new_melds,
)
from .refusal import Refusal, Refused, register
from .rules import RuleSet
from .scoring import score_game
from .search import PlayFinder, can_initial_meld, default_finder, initial_meld_within_reach
from .shuffle import deal_random
from .state import Deal, End, GameState, replace_state
from .tiles import JOKER_CODE, Tile, format_tiles, full_set

register(
    {
        "game.players_count": "a game has 2 to 4 players, not %(n)s",
        "game.deal_racks": "the deal has %(racks)s racks for %(n)s players",
        "game.deal_first": "the deal's first seat %(first)s is not a seat (0-%(last)s)",
        "game.deal_too_many": "the deal holds more %(tile)s tiles than the set has",
        "game.over": "the game is over (%(end)s)",
        "turn.no_such_seat": "seat %(seat)r is not a seat of this game (0-%(last)s)",
        "turn.not_yours": "it is seat %(current)s's turn, not seat %(seat)s's",
        "turn.clock_left": "the clock has %(left).1f s left",
        "turn.time_ran_out": "the turn's time ran out: the turn ends by time-out",
        "turn.unknown_move": "unknown move %(move)s",
        "turn.pool_empty": "the pool is empty: play at least one tile, or pass",
        "turn.draft_at_timeout": "the draft at the time-out: %(why)s",
        "turn.pool_not_empty": "the pool is not empty: draw a tile instead of passing",
        "turn.can_still_play": "you can still play (for example %(tiles)s): when the pool is "
        "empty every player must put down at least one tile",
        "redeal.none": "these rules have no redeal right",
        "redeal.too_few_doubles": "a redeal needs %(need)s doubles; seat %(seat)s holds %(have)s",
        "redeal.given_deal": "a game with a given deal cannot be dealt again",
        "redeal.before_game": "a redeal may be demanded only before the game starts",
        "redeal.own_turn": "a redeal is demanded on your own first turn",
        "redeal.own_first_turn": "a redeal is demanded on your own first turn, not later",
    }
)


class IllegalMove(Refused):
    """A move the rules refuse; the state is unchanged. ``code`` and ``params`` say
    why (``refusal``), ``reason`` in English; ``move`` is the move refused."""

    def __init__(self, code: str | Refusal, move: Move | None = None, /, **params: Any) -> None:
        if isinstance(code, Refusal):
            params = {**code.params, **params}
            code = code.code
        super().__init__(code, **params)
        self.move = move

    @property
    def reason(self) -> str:
        return str(self)


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened. ``private`` data is for ``seat`` alone (a drawn tile)."""

    kind: str
    seat: int | None = None
    data: Mapping[str, Any] = field(default_factory=dict)
    private: Mapping[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class Progress:
    state: GameState
    events: tuple[Event, ...]


def _rng(seed: int, purpose: str, n: int = 0) -> random.Random:
    return deal_random(seed, purpose, n)


# ---------------------------------------------------------------- setup


def _draw_rank(t: Tile, rules: RuleSet) -> int | None:
    """A seat-order draw's strength; None means draw again."""
    if t == JOKER_CODE:
        return 14 if rules.drawn_joker == "best" else None
    return t.number


def seat_draw(
    n: int, rules: RuleSet, seed: int, deal_no: int = 0
) -> tuple[tuple[int, ...], tuple[tuple[tuple[int, Tile], ...], ...]]:
    """Each player draws a tile; returns the turn order and every round of draws.

    ``highest_starts``: the highest draw starts and play goes clockwise (000–003).
    ``order_by_draw``: the whole turn order follows the draws, highest first (004).
    A joker is the best draw or is drawn again (``drawn_joker``); ties are drawn
    again by the tied players only.
    """
    draws = _SeatDraws(_rng(seed, "seat-draw", deal_no), rules)
    if rules.seat_draw == "order_by_draw":
        order = draws.resolve(list(range(n)), whole=True)
    else:
        first = draws.resolve(list(range(n)), whole=False)[0]
        order = [(first + i) % n for i in range(n)]
    return tuple(order), tuple(draws.rounds)


@dataclass
class _SeatDraws:
    """The draws of one seat-order draw, round by round (methods, not nested closures:
    a closure that calls itself is a reference cycle, left for the collector)."""

    rng: random.Random
    rules: RuleSet
    rounds: list[tuple[tuple[int, Tile], ...]] = field(default_factory=list)

    def rank(self, players: list[int]) -> list[list[int]]:
        """Order ``players`` by draws into tie groups, best group first."""
        pending = list(players)
        ranks: dict[int, int] = {}
        while pending:
            tiles = list(full_set())
            self.rng.shuffle(tiles)
            drawn = tuple(zip(pending, tiles, strict=False))
            self.rounds.append(drawn)
            pending = []
            for seat, t in drawn:
                r = _draw_rank(t, self.rules)
                if r is None:
                    pending.append(seat)
                else:
                    ranks[seat] = r
        groups: dict[int, list[int]] = {}
        for seat in players:
            groups.setdefault(ranks[seat], []).append(seat)
        return [groups[r] for r in sorted(groups, reverse=True)]

    def resolve(self, players: list[int], whole: bool) -> list[int]:
        out: list[int] = []
        for group in self.rank(players):
            if len(group) > 1:
                group = self.resolve(group, whole)
            out.extend(group)
            if not whole:
                break
        return out


def doubles(rack: Sequence[Tile]) -> int:
    """Pairs of identical numbered tiles on a rack (two jokers are not a double)."""
    return sum(1 for t, k in Counter(rack).items() if k >= 2 and t != JOKER_CODE)


def _deal(
    rules: RuleSet, n: int, seed: int, deal_no: int, order: Sequence[int]
) -> tuple[tuple[tuple[Tile, ...], ...], tuple[Tile, ...]]:
    tiles = list(full_set())
    _rng(seed, "deal", deal_no).shuffle(tiles)
    racks: list[tuple[Tile, ...]] = [()] * n
    h = rules.hand_size
    for i, seat in enumerate(order):
        racks[seat] = tuple(tiles[i * h : (i + 1) * h])
    return tuple(racks), tuple(tiles[n * h :])


def new_game(
    rules: RuleSet,
    players: Sequence[str],
    seed: int,
    *,
    deal: Deal | None = None,
    now: float | None = None,
) -> Progress:
    """Start a game: the seat-order draw, the shuffle and the deal of 14 each.

    With ``deal`` the given racks, pool and starting seat replace the draw, shuffle
    and deal (the turn order is then clockwise from that seat).
    """
    n = len(players)
    if not 2 <= n <= 4:
        raise Refused("game.players_count", n=n)
    names = tuple(str(p) for p in players)
    events: list[Event] = []
    draws: tuple[tuple[tuple[int, Tile], ...], ...] = ()
    if deal is not None:
        if len(deal.racks) != n:
            raise Refused("game.deal_racks", racks=len(deal.racks), n=n)
        if not 0 <= deal.first < n:
            raise Refused("game.deal_first", first=deal.first, last=n - 1)
        have = Counter(t for r in deal.racks for t in r) + Counter(deal.pool)
        over = have - Counter(full_set())
        if over:
            t = next(iter(over))
            raise Refused("game.deal_too_many", tile=str(t))
        order = tuple((deal.first + i) % n for i in range(n))
        racks, pool = deal.racks, deal.pool
    else:
        order, draws = seat_draw(n, rules, seed)
        events.append(
            Event(
                "seat_draw",
                None,
                {
                    "rounds": [[[s, str(t)] for s, t in r] for r in draws],
                    "order": list(order),
                },
            )
        )
        racks, pool = _deal(rules, n, seed, 0, order)
    state = GameState(
        rules=rules,
        players=names,
        seed=seed,
        order=order,
        racks=racks,
        pool=pool,
        board=(),
        melded=(False,) * n,
        could_meld=(False,) * n,
        turns_taken=(0,) * n,
        turn_started=now,
        penalties=(0,) * n,
        penalty_marks=(0,) * n,
        deal=deal,
        seat_draws=draws,
    )
    events.append(_deal_event(state))
    events.extend(
        Event("rack", s, {"tiles": len(racks[s])}, {"rack": format_tiles(racks[s])})
        for s in range(n)
    )
    return Progress(state, tuple(events))


def _deal_event(state: GameState) -> Event:
    return Event(
        "deal",
        None,
        {"order": list(state.order), "deal_no": state.deal_no, "pool": len(state.pool)},
    )


# ---------------------------------------------------------------- apply


def apply(
    state: GameState,
    move: Move,
    *,
    finder: PlayFinder | None = None,
) -> Progress:
    """Apply ``move``; raise :class:`IllegalMove` (state unchanged) if the rules refuse it.

    ``finder`` answers "is there a legal play?" for a pass under the ``continue``
    pool-out rule, and "could this rack have made the initial meld?" on a draw (the
    −200 rule); by default the core's own exact search (any exact finder gives the
    same answers: the live games pass the compiled solver, five times faster here).
    """
    if state.end is not None:
        raise IllegalMove("game.over", move, end=state.end)
    seats = state.seats
    if not isinstance(move.seat, int) or not 0 <= move.seat < seats:
        raise IllegalMove("turn.no_such_seat", move, seat=move.seat, last=seats - 1)
    if isinstance(move, Redeal):
        return _redeal(state, move)
    if move.seat != state.current:
        raise IllegalMove("turn.not_yours", move, current=state.current, seat=move.seat)
    deadline = state.deadline
    timed = move.at is not None and deadline is not None
    if isinstance(move, Timeout):
        if timed and move.at is not None and deadline is not None and move.at < deadline:
            raise IllegalMove("turn.clock_left", move, left=deadline - move.at)
        return _timeout(state, move, finder)
    if timed and move.at is not None and deadline is not None and move.at > deadline:
        raise IllegalMove("turn.time_ran_out", move)
    if isinstance(move, Draft):
        return _draft(state, move)
    if isinstance(move, Draw):
        return _draw_turn(state, move, finder)
    if isinstance(move, Play):
        return _play(state, move)
    if isinstance(move, Pass):
        return _pass(state, move, finder)
    raise IllegalMove("turn.unknown_move", move, move=repr(move))


def _set(seq: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return (*seq[:i], value, *seq[i + 1 :])


def _remove(rack: tuple[Tile, ...], tiles: Sequence[Tile]) -> tuple[Tile, ...]:
    out = list(rack)
    for t in tiles:
        out.remove(t)
    return tuple(out)


def _take(state: GameState, seat: int, k: int, events: list[Event], why: str) -> GameState:
    """Seat draws k tiles (or what is left); the one who empties the pool is noted."""
    k = min(k, len(state.pool))
    if k == 0:
        return state
    drawn = state.pool[:k]
    pool = state.pool[k:]
    events.append(
        Event(
            "draw",
            seat,
            {"count": k, "why": why, "pool": len(pool)},
            {"tiles": format_tiles(drawn)},
        )
    )
    state = replace_state(
        state, pool=pool, racks=_set(state.racks, seat, state.racks[seat] + drawn)
    )
    if not pool:
        state = replace_state(state, last_taker=seat)
        events.append(Event("pool_empty", seat, {"rule": state.rules.pool_out}))
        if state.rules.pool_out == "one_more_round":
            # Everyone, starting with the next player, has one more turn, ending with
            # the one who took the last tile. The count includes the current turn.
            state = replace_state(state, final_turns=state.seats + 1)
    return state


def _record(state: GameState, move: Move) -> GameState:
    return replace_state(state, history=(*state.history, _untimed(move)))


def _untimed(move: Move) -> Move:
    """The move as the record keeps it: without its time (``dataclasses.replace``
    spelled out for the moves a game records: 0.4 µs a move against 1.1)."""
    if move.at is None:
        return move
    if isinstance(move, (Draw, Pass, Redeal)):
        return type(move)(move.seat)
    if isinstance(move, (Play, Draft)):
        return type(move)(move.seat, move.board)
    return dataclasses.replace(move, at=None)


def _finish_turn(
    state: GameState, seat: int, events: list[Event], at: float | None, played: bool
) -> GameState:
    """End ``seat``'s turn: check for the game's end (docs/rules.md, "The end
    of the game"), then pass the turn on.

    With the pool empty, a turn in which no tile was put down is "idle": under
    ``continue`` it ends the game (the player could not play); under any rule a full
    round of idle turns ends it, so every game ends.
    """
    state = replace_state(
        state,
        draft=None,
        turn_no=state.turn_no + 1,
        turns_taken=_set(state.turns_taken, seat, state.turns_taken[seat] + 1),
    )
    if not state.racks[seat]:
        return _end(state, "out", seat, events)
    rules = state.rules
    if not state.pool:
        emptied_now = any(e.kind == "pool_empty" for e in events)
        if rules.pool_out == "immediate" and emptied_now:
            return _end(state, "pool", None, events)
        idle = 0 if played or emptied_now else state.idle_turns + 1
        state = replace_state(state, idle_turns=idle)
        if rules.pool_out == "continue" and idle > 0:
            return _end(state, "blocked", None, events)
        if state.final_turns is not None:
            left = state.final_turns - 1
            state = replace_state(state, final_turns=left)
            if left <= 0:
                return _end(state, "pool", None, events)
        if idle >= state.seats:
            return _end(state, "blocked", None, events)
    state = replace_state(state, turn=(state.turn + 1) % len(state.order), turn_started=at)
    events.append(
        Event("turn", state.current, {"turn_no": state.turn_no, "deadline": state.deadline})
    )
    return state


def _end(state: GameState, end: End, winner: int | None, events: list[Event]) -> GameState:
    result = score_game(
        state.racks,
        winner,
        state.melded,
        state.could_meld,
        state.first,
        state.rules,
        order=state.order,
        penalties=state.penalties,
    )
    state = replace_state(state, end=end, winner=result.winner, scores=result.scores, draft=None)
    events.append(
        Event(
            "game_end",
            None,
            {
                "end": end,
                "winner": result.winner,
                "scores": list(result.scores),
                "penalties": list(result.penalties),
                "totals": list(result.totals),
                "racks": [format_tiles(r) for r in state.racks],
            },
        )
    )
    return state


def _note_voluntary_draw(
    state: GameState, seat: int, finder: PlayFinder | None = None
) -> GameState:
    """A draw while the rack held a legal initial meld marks the player (the −200 rule)."""
    if state.melded[seat] or state.could_meld[seat]:
        return state
    rack, rules = state.racks[seat], state.rules
    if not initial_meld_within_reach(rack, rules.initial_meld, rules.wrap_runs):
        return state  # most racks before the initial meld: no exact search needed
    if finder is None:
        could = can_initial_meld(rack, rules.initial_meld, rules.wrap_runs)
    else:  # an initial meld from the rack alone: a play onto an empty board
        could = finder((), rack, False, rules.wrap_runs, rules.initial_meld) is not None
    if could:
        return replace_state(state, could_meld=_set(state.could_meld, seat, True))
    return state


def _draw_turn(state: GameState, move: Draw, finder: PlayFinder | None = None) -> Progress:
    seat = move.seat
    if not state.pool:
        raise IllegalMove("turn.pool_empty", move)
    events: list[Event] = []
    state = _note_voluntary_draw(state, seat, finder)
    state = _record(state, move)
    state = _take(state, seat, 1, events, "draw")
    state = _finish_turn(state, seat, events, move.at, played=False)
    return Progress(state, tuple(events))


def _apply_play(
    state: GameState, seat: int, board: Board, placed: Sequence[Tile], events: list[Event]
) -> GameState:
    rack = _remove(state.racks[seat], placed)
    state = replace_state(state, board=tuple(board), racks=_set(state.racks, seat, rack))
    if not state.melded[seat]:
        state = replace_state(state, melded=_set(state.melded, seat, True))
        events.append(Event("initial_meld", seat, {}))
    events.append(
        Event(
            "play",
            seat,
            {
                "board": [m.to_json() for m in board],
                "placed": format_tiles(placed),
                "rack": len(state.racks[seat]),
            },
        )
    )
    return state


def _play(state: GameState, move: Play) -> Progress:
    seat = move.seat
    verdict = check_play(
        state.board, state.racks[seat], move.board, state.melded[seat], state.rules
    )
    events: list[Event] = []
    if not verdict.legal:
        assert verdict.refusal is not None
        if verdict.fault is Fault.ILLEGAL and state.rules.illegal_end == "penalise":
            # 004: ending a turn with an illegal board is a failed turn.
            state = _record(state, move)
            # The others learn only that the turn ended on an illegal board (as at a
            # real table whose drafts are hidden); the player is told why, by code.
            events.append(
                Event(
                    "illegal_end", seat, {}, {"reason": verdict.reason, **verdict.refusal.to_json()}
                )
            )
            state, played = _fail_turn(state, seat, move.board, events)
            state = _finish_turn(state, seat, events, move.at, played=played)
            return Progress(state, tuple(events))
        raise IllegalMove(verdict.refusal, move)
    move = dataclasses.replace(move, board=_shared(state.board, move.board))
    state = _record(state, move)
    state = _apply_play(state, seat, move.board, verdict.placed, events)
    state = _finish_turn(state, seat, events, move.at, played=True)
    return Progress(state, tuple(events))


def _shared(board: Board, new: Board) -> Board:
    """``new``, each meld that is also on ``board`` (the same tiles, in the same order)
    being ``board``'s meld itself: a play changes a few melds, so a game's boards —
    and its history, which keeps every play's board — share the rest rather than hold
    a copy of each meld per turn (a live game's memory grew with its length)."""
    old: dict[Meld, list[Meld]] = {}
    for m in board:
        old.setdefault(m, []).append(m)
    return tuple(old[m].pop() if old.get(m) else m for m in new)


def _draft(state: GameState, move: Draft) -> Progress:
    error, _ = conservation(state.board, state.racks[move.seat], move.board)
    if error is not None:
        raise IllegalMove(error, move)
    state = replace_state(state, draft=tuple(move.board))
    return Progress(state, (Event("draft", move.seat, {"melds": len(move.board)}),))


def _untouched(state: GameState, draft: Board) -> bool:
    """True when the draft holds no rack tile and the board's melds as they were."""
    wrap = state.rules.wrap_runs
    old = Counter(m.key(wrap) for m in state.board)
    return Counter(m.key(wrap) for m in draft) == old


def _timeout(state: GameState, move: Timeout, finder: PlayFinder | None) -> Progress:
    """Time ran out (docs/rules.md, "The clock and failed turns"): a legal draft
    stands; an untouched board is a draw; anything else is a failed turn."""
    seat = move.seat
    draft = move.board if move.board is not None else state.draft
    if draft is not None:
        error, _ = conservation(state.board, state.racks[seat], draft)
        if error is not None:
            raise IllegalMove("turn.draft_at_timeout", move, why=error)
    state = _record(state, dataclasses.replace(move, board=draft))
    events: list[Event] = [Event("timeout", seat, {})]
    if draft is None or _untouched(state, draft) or _no_rack_tile_valid(state, seat, draft):
        if state.pool:
            state = _note_voluntary_draw(state, seat, finder)
            state = _take(state, seat, 1, events, "timeout")
        state = _finish_turn(state, seat, events, move.at, played=False)
        return Progress(state, tuple(events))
    verdict = check_play(state.board, state.racks[seat], draft, state.melded[seat], state.rules)
    if verdict.legal:
        state = _apply_play(state, seat, draft, verdict.placed, events)
        state = _finish_turn(state, seat, events, move.at, played=True)
        return Progress(state, tuple(events))
    state, played = _fail_turn(state, seat, draft, events)
    state = _finish_turn(state, seat, events, move.at, played=played)
    return Progress(state, tuple(events))


def _no_rack_tile_valid(state: GameState, seat: int, draft: Board) -> bool:
    """A draft that only rearranged the board into valid melds: an ordinary draw."""
    _, placed = conservation(state.board, state.racks[seat], draft)
    wrap = state.rules.wrap_runs
    return not placed and all(m.is_valid(wrap) for m in draft)


def _fail_turn(
    state: GameState, seat: int, draft: Board, events: list[Event]
) -> tuple[GameState, bool]:
    """A failed turn (docs/rules.md, "The clock and failed turns"): keep the completed
    melds or revert, then the penalty."""
    rules = state.rules
    kept = _kept_board(state, seat, draft) if rules.failed_turn == "keep_completed" else None
    placed: tuple[Tile, ...] = ()
    if kept is not None:
        _, placed = conservation(state.board, state.racks[seat], kept)
        events.append(
            Event(
                "failed_turn",
                seat,
                {
                    "consequence": "keep_completed",
                    "returned": len(_tiles(draft)) - len(_tiles(kept)),
                },
            )
        )
        if placed:
            state = _apply_play(state, seat, kept, placed, events)
        elif not _untouched(state, kept):
            # Complete melds rearranged from the board stay as rearranged, even with
            # none of the player's tiles in them (docs/rules.md, "The clock and failed
            # turns").
            state = replace_state(state, board=kept)
    else:
        events.append(Event("failed_turn", seat, {"consequence": "revert"}))
    n = state.penalty_marks[seat] + 1  # this player's n-th failed turn of the game
    points = rules.failed_turn_penalty(n)  # the rule set's penalty policy (core/penalties.py)
    if points:
        state = replace_state(
            state,
            penalties=_set(state.penalties, seat, state.penalties[seat] + points),
            penalty_marks=_set(state.penalty_marks, seat, n),
        )
        events.append(Event("penalty", seat, {"points": -points, "n": n}))
    return _take(state, seat, rules.failed_turn_draw, events, "penalty"), bool(placed)


def _tiles(board: Board) -> list[Tile]:
    return [t for m in board for t in m.tiles]


def _kept_board(state: GameState, seat: int, draft: Board) -> Board | None:
    """Under ``keep_completed``: the board of the draft's complete melds, if allowed.

    Every tile that was on the board at the start of the turn must be in a complete
    meld; before the initial meld the completed melds stay only if they are the
    player's own and worth the threshold. Otherwise None (the board is reverted).
    """
    wrap = state.rules.wrap_runs
    valid = tuple(m for m in draft if m.is_valid(wrap))
    error, _ = conservation(state.board, state.racks[seat], valid)
    if error is not None:
        return None
    if not state.melded[seat]:
        fresh = new_melds(state.board, valid, wrap)
        if fresh is None or not fresh:
            return None
        if initial_meld_error(state.board, valid, state.rules) is not None:
            return None
    elif (
        state.rules.joker_retrieval == "replace"
        and joker_replacement_error(state.board, valid, wrap) is not None
    ):
        return None
    return valid


def _pass(state: GameState, move: Pass, finder: PlayFinder | None) -> Progress:
    seat = move.seat
    rules = state.rules
    if state.pool:
        raise IllegalMove("turn.pool_not_empty", move)
    if rules.pool_out == "continue":
        find = finder or default_finder
        play = find(
            state.board, state.racks[seat], state.melded[seat], rules.wrap_runs, rules.initial_meld
        )
        if play is not None:
            verdict = check_play(state.board, state.racks[seat], play, state.melded[seat], rules)
            if verdict.legal:
                raise IllegalMove(
                    "turn.can_still_play", move, tiles=", ".join(format_tiles(verdict.placed))
                )
    events: list[Event] = [Event("pass", seat, {})]
    state = _record(state, move)
    state = _finish_turn(state, seat, events, move.at, played=False)
    return Progress(state, tuple(events))


def _redeal(state: GameState, move: Redeal) -> Progress:
    """The redeal right (docs/rules.md, "Setting up a game"): three or more doubles, in
    the rule set's window."""
    seat = move.seat
    rules = state.rules
    if rules.redeal == "none":
        raise IllegalMove("redeal.none", move)
    have = doubles(state.racks[seat])
    if have < rules.redeal_doubles:
        raise IllegalMove(
            "redeal.too_few_doubles", move, need=rules.redeal_doubles, seat=seat, have=have
        )
    if state.deal is not None:
        raise IllegalMove("redeal.given_deal", move)
    if rules.redeal == "before_game":
        if state.turn_no > 0 or state.turns_taken != (0,) * state.seats:
            raise IllegalMove("redeal.before_game", move)
    else:
        if seat != state.current:
            raise IllegalMove("redeal.own_turn", move)
        if state.turns_taken[seat] > 0:
            raise IllegalMove("redeal.own_first_turn", move)
    deal_no = state.deal_no + 1
    racks, pool = _deal(rules, state.seats, state.seed, deal_no, state.order)
    events: list[Event] = [Event("redeal", seat, {"doubles": have})]
    state = _record(state, move)
    state = replace_state(
        state,
        racks=racks,
        pool=pool,
        board=(),
        melded=(False,) * state.seats,
        could_meld=(False,) * state.seats,
        turn=0,
        turns_taken=(0,) * state.seats,
        draft=None,
        last_taker=None,
        final_turns=None,
        deal_no=deal_no,
        turn_started=move.at if move.at is not None else state.turn_started,
    )
    events.append(_deal_event(state))
    events.extend(
        Event("rack", s, {"tiles": len(racks[s])}, {"rack": format_tiles(racks[s])})
        for s in range(state.seats)
    )
    return Progress(state, tuple(events))


__all__ = [
    "Deal",
    "Draft",
    "Draw",
    "Event",
    "IllegalMove",
    "Pass",
    "Play",
    "Progress",
    "Redeal",
    "Timeout",
    "apply",
    "doubles",
    "new_game",
    "seat_draw",
]
