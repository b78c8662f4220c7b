"""Invariants, by property tests: 106 tiles always; a refused move changes nothing;
replay is deterministic; every finished game sums to zero (penalties apart)."""

from __future__ import annotations

import dataclasses
import pickle
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from meldtour.core.game import IllegalMove, apply, new_game
from meldtour.core.record import read_record, record_of, replay
from meldtour.core.rules import PRESETS, find_rules
from meldtour.core.search import initial_meld_within_reach
from meldtour.core.state import GameState, replace_state
from meldtour.core.tiles import full_set, parse_tiles
from meldtour.solver import finder

from .randomplay import random_move

PRESET = st.sampled_from(sorted(PRESETS))


def _all_tiles(state: GameState) -> Counter[int]:
    tiles = [t for r in state.racks for t in r] + list(state.pool)
    tiles += [t for m in state.board for t in m.tiles]
    return Counter(tiles)


def chaotic_game(preset: str, players: int, seed: int, steps: int) -> GameState:
    rules = find_rules(preset)
    state = new_game(rules, [f"P{i}" for i in range(players)], seed).state
    rng = random.Random(seed)
    for _ in range(steps):
        if state.end is not None:
            break
        move = random_move(state, rng)
        before = pickle.dumps(state)
        try:
            state = apply(state, move, finder=finder).state
        except IllegalMove:
            # A refused move leaves the state byte-for-byte unchanged.
            assert pickle.dumps(state) == before
            continue
        # 106 tiles, always: racks + pool + board are the full set.
        assert _all_tiles(state) == Counter(full_set())
        assert all(m.is_valid() for m in state.board)
    return state


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(PRESET, st.integers(2, 4), st.integers(0, 10**9))
def test_106_tiles_always_and_refusals_change_nothing(preset: str, players: int, seed: int) -> None:
    chaotic_game(preset, players, seed, 150)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(PRESET, st.integers(2, 4), st.integers(0, 10**9))
def test_replay_is_deterministic(preset: str, players: int, seed: int) -> None:
    state = chaotic_game(preset, players, seed, 120)
    again = replay(read_record(record_of(state)), finder=finder)
    # A record holds moves; a draft still on the table when the record is taken is not
    # a move (a time-out carries its board), so the replay has everything but that draft.
    state = dataclasses.replace(state, draft=None)
    assert again == state
    assert repr(again) == repr(state)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(PRESET, st.integers(2, 4), st.integers(0, 10**9))
def test_finished_games_sum_to_zero_apart_from_penalties(
    preset: str, players: int, seed: int
) -> None:
    state = chaotic_game(preset, players, seed, 600)
    if state.end is None:
        return
    assert state.scores is not None and state.winner is not None
    assert sum(state.scores) == 0
    assert state.scores[state.winner] == max(state.scores)


@settings(max_examples=300, deadline=None)
@given(
    st.randoms(use_true_random=False),
    # At most 24 tiles: the core's own search (the reference, exhaustive) grows fast
    # past that with both jokers and runs round the end — 28 tiles of one or two
    # colours with two jokers took it 16–32 s and gigabytes (an example Hypothesis
    # found took one worker to 16 GB). The compiled solver is what games use.
    st.integers(min_value=1, max_value=24),
    st.sampled_from([30, 25, 0]),
    st.booleans(),
)
def test_the_solver_and_the_core_agree_on_could_it_have_melded(
    rng: random.Random, size: int, threshold: int, wrap: bool
) -> None:
    """The −200 rule's question ("could this rack have made the initial meld?") gets
    the same answer from the compiled solver, which the live games pass the engine,
    as from the core's own search, which replays use."""
    from meldtour.core.search import can_initial_meld

    rack = rng.sample(full_set(), size)
    found = finder((), rack, False, wrap, threshold) is not None
    assert found == can_initial_meld(rack, threshold, wrap), rack
    if found:  # the quick test before the search never turns a meld away
        assert initial_meld_within_reach(rack, threshold, wrap), rack


@settings(max_examples=400, deadline=None)
@given(
    st.randoms(use_true_random=False),
    st.integers(min_value=1, max_value=40),
    st.sampled_from([30, 25, 0]),
    st.booleans(),
)
def test_the_quick_test_before_could_it_have_melded_turns_no_meld_away(
    rng: random.Random, size: int, threshold: int, wrap: bool
) -> None:
    """Racks without jokers (the quick test judges only those), up to 40 tiles: where
    the solver finds an initial meld, :func:`initial_meld_within_reach` says it may be
    there; and it is no mere "yes" (most of these racks are turned away by it)."""
    rack = rng.sample(full_set()[:104], size)
    if finder((), rack, False, wrap, threshold) is not None:
        assert initial_meld_within_reach(rack, threshold, wrap), rack


def test_the_quick_test_turns_most_racks_before_the_initial_meld_away() -> None:
    rng = random.Random(7)
    racks = [rng.sample(full_set()[:104], 14) for _ in range(300)]
    none = [r for r in racks if finder((), r, False, False, 30) is None]
    away = [r for r in none if not initial_meld_within_reach(r, 30, False)]
    assert len(none) > 50 and len(away) > len(none) // 3, (len(racks), len(none), len(away))
    # a wrapped run 12-13-1 counts only where runs may wrap
    rack = parse_tiles(["r12", "r13", "r1", "b9"])
    assert initial_meld_within_reach(rack, 25, True)
    assert not initial_meld_within_reach(rack, 25, False)


FIELDS = [f.name for f in dataclasses.fields(GameState)]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    PRESET,
    st.integers(0, 10**9),
    st.integers(0, 60),
    st.lists(st.sampled_from(FIELDS), max_size=6, unique=True),
)
def test_replace_state_is_dataclasses_replace(
    preset: str, seed: int, steps: int, changed: list[str]
) -> None:
    """The referee's fast copy of a state (``replace_state``) gives what
    ``dataclasses.replace`` gives, whatever fields change, and refuses a name that is
    not a field, as it does."""
    state = chaotic_game(preset, 4, seed, steps)
    other = chaotic_game(preset, 4, seed + 1, steps + 3)
    changes = {name: getattr(other, name) for name in changed}
    fast = replace_state(state, **changes)
    assert fast == dataclasses.replace(state, **changes)
    assert all(getattr(fast, n) is changes.get(n, getattr(state, n)) for n in FIELDS)
    assert fast is not state and type(fast) is GameState
    with pytest.raises(TypeError, match="not a field of GameState: colour"):
        replace_state(state, colour=1)
