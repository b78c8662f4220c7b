"""The table clock's machine (docs/rules.md "The table clock (games with real tiles)",
seed 004): one tap a turn, the turn ends at the first beep, a forgotten start
restarts with the preset's time, a pause keeps the time left; time-outs are offered
as penalties only where the rules give points."""

from __future__ import annotations

import pytest

from meldtour.core.rules import RulesError, RuleSet, find_rules
from meldtour.tournament.clock import (
    MOST_TAPS,
    ClockError,
    ClockSettings,
    GameClock,
    check_penalties,
    offered_penalties,
    replay,
)

JAPAN = ClockSettings.of(find_rules("japan"))
KOREA = ClockSettings.of(find_rules("korea-official"))


def test_settings_come_from_the_preset() -> None:
    assert (JAPAN.turn_ms, JAPAN.warning_ms, JAPAN.restart_ms, JAPAN.penalty_points) == (
        60_000,
        10_000,
        30_000,
        50,
    )
    assert (KOREA.turn_ms, KOREA.penalty_points) == (40_000, 0)
    house = RuleSet.from_toml('preset = "japan"\nrestart_seconds = 20\n')
    assert ClockSettings.of(house).restart_ms == 20_000
    with pytest.raises(RulesError, match="restart_seconds must be positive"):
        find_rules("japan").replace(restart_seconds=0)


def test_one_tap_a_turn_and_the_time_left() -> None:
    clock = GameClock(1, (3, 1, 2), (("start", 0), ("next", 12_000)))
    state = replay(JAPAN, clock, now=20_000)
    assert state.phase == "running" and state.seat == 1 and state.left == 52_000
    assert [t.seat for t in state.turns] == [3, 1] and state.turns[0].ended == 12_000
    assert state.timeouts == () and state.elapsed(20_000) == 20_000


def test_the_turn_ends_at_the_first_beep() -> None:
    clock = GameClock(1, (1, 2, 3, 4), (("start", 0),))
    assert replay(JAPAN, clock, now=59_999).phase == "running"
    at_beep = replay(JAPAN, clock, now=60_000)
    assert at_beep.phase == "expired" and at_beep.timeouts == (1,)
    assert at_beep.turns[0].ended == 60_000 and at_beep.turns[0].timed_out
    # The next tap, however late, starts the next player's full time.
    later = replay(JAPAN, GameClock(1, (1, 2, 3, 4), (("start", 0), ("next", 75_000))), now=80_000)
    assert later.seat == 2 and later.left == 55_000 and later.timeouts == (1,)


def test_a_forgotten_start_restarts_with_the_preset_s_time() -> None:
    taps = (("start", 0), ("next", 5_000), ("forgot", 40_000))
    state = replay(JAPAN, GameClock(1, (1, 2, 3), taps), now=41_000)
    assert state.seat == 3 and state.left == 29_000 and state.turns[-1].restarted
    expired = replay(JAPAN, GameClock(1, (1, 2, 3), taps), now=70_000)
    assert expired.phase == "expired" and expired.timeouts == (3,)


def test_an_undo_takes_back_a_mis_tap_and_the_time_ran_on() -> None:
    taps = (("start", 0), ("next", 50_000), ("undo", 55_000))
    state = replay(JAPAN, GameClock(1, (1, 2, 3), taps), now=56_000)
    assert state.seat == 1 and state.left == 4_000 and len(state.turns) == 1
    late = replay(JAPAN, GameClock(1, (1, 2, 3), (*taps[:2], ("undo", 65_000))), now=65_000)
    assert late.phase == "expired" and late.timeouts == (1,)
    reopened = replay(
        JAPAN, GameClock(1, (1, 2, 3), (("start", 0), ("end", 9), ("undo", 10))), now=10
    )
    assert reopened.phase == "running" and reopened.ended is None


def test_a_pause_keeps_the_time_left() -> None:
    taps = (("start", 0), ("pause", 50_000), ("resume", 400_000))
    state = replay(JAPAN, GameClock(1, (1, 2, 3), taps), now=405_000)
    assert state.phase == "running" and state.left == 5_000 and state.timeouts == ()


def test_time_outs_are_offered_as_penalties_only_where_the_rules_give_points() -> None:
    taps = (
        ("start", 0),
        ("next", 70_000),
        ("next", 71_000),
        ("next", 200_000),
        ("next", 201_000),
        ("end", 202_000),
    )
    order = (2, 4, 1, 3)
    state = replay(JAPAN, GameClock(1, order, taps))
    assert state.phase == "over" and state.timeouts == (2, 1)
    assert offered_penalties(JAPAN, state, seats=4) == (50, 50, 0, 0)
    assert check_penalties(JAPAN, state, (50, 0, 0, 0)) == (50, 0, 0, 0)
    for wrong in ((100, 0, 0, 0), (0, 0, 50, 0), (25, 0, 0, 0), (-50, 0, 0, 0)):
        with pytest.raises(ClockError):
            check_penalties(JAPAN, state, wrong)
    korea = replay(KOREA, GameClock(1, order, taps))
    assert offered_penalties(KOREA, korea, seats=4) is None and len(korea.timeouts) == 2


@pytest.mark.parametrize(
    ("order", "taps", "code"),
    [
        ((1, 2, 2), (), "clock.order"),
        ((1, 2), (), "clock.order"),
        ((1, 2, 3), (("next", 0),), "clock.tap_phase"),
        ((1, 2, 3), (("start", 0), ("resume", 5)), "clock.tap_phase"),
        ((1, 2, 3), (("start", 0), ("end", 5), ("next", 6)), "clock.tap_phase"),
        ((1, 2, 3), (("start", 0), ("pause", 5), ("next", 6)), "clock.tap_phase"),
        ((1, 2, 3), (("start", 10), ("next", 5)), "clock.tap_time"),
        ((1, 2, 3), (("start", 0), ("undo", 5)), "clock.nothing_to_undo"),
        ((1, 2, 3), (("start", 0), ("next", 5), ("undo", 6), ("undo", 7)), "clock.nothing_to_undo"),
    ],
)
def test_an_impossible_record_is_refused_naming_the_tap(
    order: tuple[int, ...], taps: tuple[tuple[str, int], ...], code: str
) -> None:
    with pytest.raises(ClockError) as caught:
        replay(JAPAN, GameClock(1, order, taps), seats=3)
    assert caught.value.code == code


def test_plain_values_are_checked_for_shape() -> None:
    with pytest.raises(ClockError, match="unknown kind"):
        GameClock.of(1, (1, 2, 3), [["jump", 0]])
    with pytest.raises(ClockError, match="tap 2: its time"):
        GameClock.of(1, (1, 2, 3), [["start", 0], ["next", -1]])
    with pytest.raises(ClockError, match="tap 1: its time"):
        GameClock.of(1, (1, 2, 3), [["start", True]])
    with pytest.raises(ClockError, match="at most"):
        GameClock.of(1, (1, 2, 3), [["start", 0]] * (MOST_TAPS + 1))
    a = GameClock.of(1, (1, 2, 3), [["start", 0], ["next", 10]])
    assert a.extends(GameClock(1, (1, 2, 3), (("start", 0),)))
    assert not GameClock(1, (1, 2, 3), (("start", 0),)).extends(a)
