"""100 complete seeded games per preset with the trivial computer player."""

from __future__ import annotations

from collections import Counter

import pytest

from meldtour.core.record import read_record, record_of, replay
from meldtour.core.rules import PRESETS, find_rules
from meldtour.core.tiles import full_set
from meldtour.players.runner import play_game
from meldtour.players.trivial import TrivialPlayer
from meldtour.solver import finder


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_100_complete_games_per_preset(preset: str) -> None:
    rules = find_rules(preset)
    ends: Counter[str] = Counter()
    for seed in range(100):
        players = [TrivialPlayer(f"T{i}", finder) for i in range(2 + seed % 3)]
        state = play_game(rules, players, seed, finder=finder)
        assert state.end is not None and state.scores is not None
        ends[state.end] += 1
        tiles = [t for r in state.racks for t in r] + list(state.pool)
        tiles += [t for m in state.board for t in m.tiles]
        assert Counter(tiles) == Counter(full_set())
        assert sum(state.scores) == 0
        assert state.scores[state.winner or 0] == max(state.scores)
        if seed % 10 == 0:
            assert replay(read_record(record_of(state)), finder=finder) == state
    # Games end only in the ways the preset allows.
    assert sum(ends.values()) == 100
    if rules.pool_out == "continue":
        assert set(ends) <= {"out", "blocked"}
    else:
        assert set(ends) <= {"out", "pool", "blocked"}
