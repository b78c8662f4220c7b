"""The turn clock of a table playing with real tiles: the sand timer made a phone.

A game's clock is its turn order (from the seat draw) and the taps made on it, each
with its time in milliseconds from the clock's origin. Everything else — whose turn
it is, the time left, the time-outs, the penalties to offer the score sheet — is
derived from the taps by :func:`replay`, so a record sent twice, or late, or from a
phone that was offline for an hour, means exactly the same thing. The page on the
phone runs the same machine (``web/static/clock.js``); the server replays every
record it is sent and refuses one that is not a possible game.

The rules (docs/rules.md "The table clock (games with real tiles)", seed 004):
a turn has the preset's time (``turn_seconds``); the turn ends at the first beep
(a *time-out*); a player who forgot to start the timer gets ``restart_seconds``
from the moment it is noticed; a quick turn (draw one, put down one tile) needs no
timer — on the phone, the next tap comes at once.

Taps: ``start`` (the first player's time starts), ``next`` (one tap ends the turn and
starts the next player's time), ``forgot`` (the next player is already playing: their
time starts now, with the restart time), ``pause`` and ``resume`` (a referee's call),
``end`` (the game is over) and ``undo`` (the tap before did not happen: a mis-tap;
the time ran on meanwhile, as it did at the table).

>>> from meldtour.core.rules import find_rules
>>> s = ClockSettings.of(find_rules("japan"))
>>> game = GameClock(1, (2, 3, 4, 1), (("start", 0), ("next", 20_000), ("next", 95_000),
...                                    ("forgot", 140_000), ("end", 150_000)))
>>> state = replay(s, game)
>>> state.phase, state.timeouts, [t.seat for t in state.turns]
('over', (3,), [2, 3, 4, 1])
>>> offered_penalties(s, state, seats=4)
(0, 0, 50, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from meldtour.core.refusal import Refused, register
from meldtour.core.rules import RuleSet

TapKind = Literal["start", "next", "forgot", "pause", "resume", "end", "undo"]
Phase = Literal["ready", "running", "paused", "expired", "over"]

TAP_KINDS: Final[tuple[str, ...]] = ("start", "next", "forgot", "pause", "resume", "end", "undo")
#: At most this many taps a game (a game of 4 players is some 150 turns).
MOST_TAPS: Final = 2000
#: A game's clock runs at most 12 hours.
MOST_MS: Final = 12 * 3600 * 1000

register(
    {
        "clock.order": "the turn order must name each of the %(seats)s seats once, got %(order)s",
        "clock.tap_kind": "tap %(n)s: unknown kind %(kind)s",
        "clock.tap_time": "tap %(n)s: its time is before the tap before it, or out of range",
        "clock.nothing_to_undo": "tap %(n)s: there is no tap to undo",
        "clock.tap_phase": "tap %(n)s: %(kind)s is not possible while the clock is %(phase)s",
        "clock.too_many": "a game's clock holds at most %(most)s taps",
        "clock.penalty": "seat %(seat)s: %(points)s penalty points, but the clock offers at "
        "most %(most)s",
    }
)


class ClockError(Refused):
    """A clock record that is not a possible game."""


@dataclass(frozen=True, slots=True)
class ClockSettings:
    """A turn's time, when the warning sounds, the restart time after a forgotten
    start, and the penalty points a time-out may cost (0: none), all from the rules."""

    turn_ms: int
    warning_ms: int
    restart_ms: int
    #: The points of a seat's first time-out (0: none).
    penalty_points: int
    #: The points of a seat's 1st, 2nd, … time-out of a game, by the rule set's penalty
    #: policy (core/penalties.py): what the clock offers, and what its page is served.
    schedule: tuple[int, ...] = ()

    @staticmethod
    def of(rules: RuleSet) -> ClockSettings:
        schedule = rules.penalty_policy.schedule(rules.failed_turn_points)
        return ClockSettings(
            rules.turn_seconds * 1000,
            rules.turn_warning_seconds * 1000,
            rules.restart_seconds * 1000,
            schedule[0] if schedule else 0,
            schedule,
        )

    def points_of(self, timeouts: int) -> int:
        """The points of a seat's first ``timeouts`` time-outs."""
        return sum(self.schedule[:timeouts])


@dataclass(frozen=True, slots=True)
class GameClock:
    """One game's record: the game's number on the sheet, the turn order (seats from
    1, as on the sheet) and the taps ``(kind, ms)`` in order."""

    game: int
    order: tuple[int, ...]
    taps: tuple[tuple[str, int], ...] = ()

    @staticmethod
    def of(game: int, order: Sequence[int], taps: Sequence[Sequence[object]]) -> GameClock:
        """From plain values (a JSON upload), checked for shape only (:func:`replay`
        checks the rest)."""
        if len(taps) > MOST_TAPS:
            raise ClockError("clock.too_many", most=MOST_TAPS)
        out: list[tuple[str, int]] = []
        for n, tap in enumerate(taps, 1):
            kind = tap[0] if len(tap) == 2 else None
            if kind not in TAP_KINDS:
                raise ClockError("clock.tap_kind", n=n, kind=str(kind)[:20])
            at = tap[1]
            if type(at) is not int or not 0 <= at <= MOST_MS:
                raise ClockError("clock.tap_time", n=n)
            out.append((str(kind), at))
        return GameClock(game, tuple(int(s) for s in order), tuple(out))

    def extends(self, other: GameClock) -> bool:
        """This record is ``other`` with (maybe) more taps after it."""
        return self.order == other.order and self.taps[: len(other.taps)] == other.taps


@dataclass(frozen=True, slots=True)
class Turn:
    """A turn as the clock saw it: the seat, when its time started, its time (the
    turn's time, or the restart time), when it ended (``None``: still going) and
    whether it timed out."""

    seat: int
    started: int
    allowed: int
    ended: int | None = None
    timed_out: bool = False
    restarted: bool = False


@dataclass(frozen=True, slots=True)
class ClockState:
    """The clock after its taps (and, with ``now``, at that moment)."""

    phase: Phase
    turns: tuple[Turn, ...]
    #: The seat of each time-out, in order.
    timeouts: tuple[int, ...]
    #: Time left in the current turn (ms), when running or paused.
    left: int = 0
    started: int | None = None
    ended: int | None = None

    @property
    def seat(self) -> int | None:
        """Whose turn it is (after a time-out: the player whose turn just ended)."""
        return self.turns[-1].seat if self.turns and self.phase != "over" else None

    def elapsed(self, now: int) -> int:
        """How long the game has run (ms), at ``now`` or until its end."""
        if self.started is None:
            return 0
        return (self.ended if self.ended is not None else max(now, self.started)) - self.started

    def timeouts_of(self, seat: int) -> int:
        return self.timeouts.count(seat)


def _check_order(order: tuple[int, ...], seats: int) -> None:
    if sorted(order) != list(range(1, seats + 1)):
        raise ClockError("clock.order", seats=seats, order=" ".join(map(str, order))[:40])


def replay(
    settings: ClockSettings, game: GameClock, *, seats: int | None = None, now: int | None = None
) -> ClockState:
    """The clock after the game's taps, and at ``now`` if given (a turn whose time ran
    out by then has timed out). Refuses (:class:`ClockError`) taps out of time order or
    impossible where they come (``next`` while paused, anything after ``end``)."""
    order = game.order
    _check_order(order, seats if seats is not None else len(order))
    phase: Phase = "ready"
    turns: list[Turn] = []
    timeouts: list[int] = []
    index = 0  # the current turn's place in the order
    since = 0  # when the running time was last (re)started
    left = 0  # time left at ``since``
    started: int | None = None
    ended: int | None = None
    last = 0

    def expire(at: int) -> None:
        nonlocal phase, left
        if phase == "running" and at >= since + left:
            beep = since + left
            turns[-1] = _end(turns[-1], beep, timed_out=True)
            timeouts.append(turns[-1].seat)
            phase, left = "expired", 0

    def begin(at: int, allowed: int, restarted: bool = False) -> None:
        nonlocal phase, since, left
        turns.append(Turn(order[index], at, allowed, restarted=restarted))
        phase, since, left = "running", at, allowed

    # An undo takes back the tap before it (not the start): the taps that count.
    effective: list[tuple[int, str, int]] = []
    for n, (kind, at) in enumerate(game.taps, 1):
        if at < last:
            raise ClockError("clock.tap_time", n=n)
        last = at
        if kind != "undo":
            effective.append((n, kind, at))
        elif not effective or effective[-1][1] == "start":
            raise ClockError("clock.nothing_to_undo", n=n)
        else:
            effective.pop()
    for n, kind, at in effective:
        expire(at)
        allowed_in: dict[str, tuple[str, ...]] = {
            "start": ("ready",),
            "next": ("running", "expired"),
            "forgot": ("running", "expired"),
            "pause": ("running",),
            "resume": ("paused",),
            "end": ("running", "expired", "paused"),
        }
        if phase not in allowed_in[kind]:
            raise ClockError("clock.tap_phase", n=n, kind=kind, phase=phase)
        if kind == "start":
            started = at
            begin(at, settings.turn_ms)
        elif kind in ("next", "forgot"):
            if phase == "running":
                turns[-1] = _end(turns[-1], at)
            index = (index + 1) % len(order)
            if kind == "next":
                begin(at, settings.turn_ms)
            else:
                begin(at, settings.restart_ms, restarted=True)
        elif kind == "pause":
            left -= at - since
            phase = "paused"
        elif kind == "resume":
            since = at
            phase = "running"
        else:  # end
            if phase in ("running", "paused"):
                turns[-1] = _end(turns[-1], at)
            phase, ended, left = "over", at, 0
    if now is not None and now >= last:
        expire(now)
        if phase == "running":
            left = since + left - now
    return ClockState(phase, tuple(turns), tuple(timeouts), left, started, ended)


def _end(turn: Turn, at: int, *, timed_out: bool = False) -> Turn:
    return Turn(turn.seat, turn.started, turn.allowed, at, timed_out, turn.restarted)


def offered_penalties(
    settings: ClockSettings, state: ClockState, *, seats: int
) -> tuple[int, ...] | None:
    """The penalty points the clock offers the sheet, per seat (one failed turn's
    points for each time-out), or ``None`` when the rules give no points for one. A
    time-out is a failed turn only if the board was not legal at the beep (004), which
    the phone cannot see: the scorer confirms each one."""
    if not settings.penalty_points:
        return None
    return tuple(settings.points_of(state.timeouts_of(s)) for s in range(1, seats + 1))


def check_penalties(
    settings: ClockSettings, state: ClockState, penalties: Sequence[int]
) -> tuple[int, ...]:
    """The penalties a scorer confirmed (per seat), checked against the clock: each a
    whole number of failed turns, none more than the seat's time-outs."""
    offered = offered_penalties(settings, state, seats=len(penalties)) or (0,) * len(penalties)
    for seat, (points, most) in enumerate(zip(penalties, offered, strict=True), 1):
        whole = {settings.points_of(k) for k in range(state.timeouts_of(seat) + 1)}
        if points < 0 or points > most or points not in whole:
            raise ClockError("clock.penalty", seat=seat, points=points, most=most)
    return tuple(penalties)


__all__ = [
    "MOST_MS",
    "MOST_TAPS",
    "TAP_KINDS",
    "ClockError",
    "ClockSettings",
    "ClockState",
    "GameClock",
    "Turn",
    "check_penalties",
    "offered_penalties",
    "replay",
]
