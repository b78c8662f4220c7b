"""The players' interface, hidden information, determinism and decision time."""

from __future__ import annotations

import dataclasses
import gc
import random

import pytest

from meldtour.core.game import apply, new_game
from meldtour.core.moves import Draw, Pass, Play
from meldtour.core.rules import PRESETS, find_rules
from meldtour.core.state import GameState
from meldtour.core.tiles import parse_tiles
from meldtour.core.views import PlayerView, player_view
from meldtour.players import Player
from meldtour.players.levels import DESCRIPTIONS, LEVELS, make_player
from meldtour.players.runner import play_timed
from meldtour.solver import finder

KRC = find_rules("krc-2015")


def test_levels_and_their_sentences() -> None:
    assert set(LEVELS) == {"beginner", "greedy", "club", "expert"} == set(DESCRIPTIONS)
    for level, sentence in DESCRIPTIONS.items():
        # One sentence a player reads: starts with a capital, ends with one full stop.
        assert sentence[0].isupper() and sentence.endswith(".")
        assert sentence.count(". ") == 0, level
        player: Player = make_player(level, f"{level} bot", seed=3)
        assert player.name == f"{level} bot"
    assert make_player("greedy").name == "greedy"
    with pytest.raises(ValueError, match=r"unknown player level 'grandmaster'.*beginner"):
        make_player("grandmaster")


def test_a_spectator_view_cannot_be_played() -> None:
    state = new_game(KRC, ["a", "b"], 1).state
    for level in LEVELS:
        with pytest.raises(ValueError, match="spectator"):
            make_player(level).decide(player_view(state, None))


class Spy:
    """Wraps a player: checks every view it is given, then asks the player."""

    def __init__(self, inner: Player, states: list[GameState]) -> None:
        self.inner = inner
        self.name = inner.name
        self.states = states

    def decide(self, view: PlayerView) -> Play | Draw | Pass:
        state = self.states[-1]
        seat = view.seat
        assert seat is not None and isinstance(view, PlayerView)
        # The view holds the own rack and nothing that reaches the state.
        assert view.rack == state.racks[seat]
        assert all(r is not view.rack for s, r in enumerate(state.racks) if s != seat)
        referents = gc.get_referents(view)
        assert not any(isinstance(x, GameState) for x in referents)
        assert state.pool not in referents
        for f in dataclasses.fields(view):
            value = getattr(view, f.name)
            assert not isinstance(value, GameState)
            if f.name == "final_racks":
                assert value is None
        move = self.inner.decide(view)
        assert isinstance(move, Play | Draw | Pass)
        return move


def _shuffled_hidden(state: GameState, seat: int, rng: random.Random) -> GameState:
    """The same game as ``seat`` sees it, with the other racks and the pool re-dealt."""
    hidden = [t for s, r in enumerate(state.racks) if s != seat for t in r] + list(state.pool)
    rng.shuffle(hidden)
    racks = list(state.racks)
    at = 0
    for s, r in enumerate(state.racks):
        if s != seat:
            racks[s] = tuple(hidden[at : at + len(r)])
            at += len(r)
    return dataclasses.replace(state, racks=tuple(racks), pool=tuple(hidden[at:]))


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_players_see_only_their_view(level: str) -> None:
    """Every view a player gets hides the rest, and re-dealing what it cannot see (the
    other racks, the pool order) never changes its move."""
    rng = random.Random(5)
    for seed in range(3):
        states: list[GameState] = []
        players = [Spy(make_player(level, f"p{i}", seed=i), states) for i in range(4)]
        state = new_game(KRC, [p.name for p in players], seed).state
        while state.end is None:
            states.append(state)
            seat = state.current
            move = players[seat].decide(player_view(state, seat))
            twin = _shuffled_hidden(state, seat, rng)
            assert player_view(twin, seat) == player_view(state, seat)
            twin_player = make_player(level, f"p{seat}", seed=seat)
            assert twin_player.decide(player_view(twin, seat)) == move
            state = apply(state, move, finder=finder).state


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_every_level_plays_whole_games_under_every_preset(level: str) -> None:
    for preset in sorted(PRESETS):
        rules = find_rules(preset)
        for seed in range(3):
            n = 2 + seed % 3
            others = ["greedy", "beginner", "expert", "club"]
            names = [level] + [others[(seed + i) % 4] for i in range(n - 1)]
            players = [make_player(lv, f"{lv}{i}", seed=i) for i, lv in enumerate(names)]
            state, _ = play_timed(rules, players, 100 + seed)
            assert state.end is not None and state.scores is not None
            assert sum(state.scores) == 0


def test_decisions_are_deterministic() -> None:
    for level in LEVELS:
        runs = []
        for _ in range(2):
            players = [make_player(level, f"p{i}", seed=i) for i in range(3)]
            state, _ = play_timed(KRC, players, 42)
            runs.append(state.history)
        assert runs[0] == runs[1], level


def test_greedy_plays_the_solvers_best_and_beginner_never_rearranges() -> None:
    from meldtour.core.melds import parse_board

    board = parse_board([["r4", "r5", "r6"], ["k9", "r9", "b9"]])
    state = new_game(KRC, ["a", "b"], 0).state
    state = dataclasses.replace(
        state,
        board=board,
        melded=(True, True),
        turn=state.order.index(0),
        racks=(parse_tiles(["r3", "r7", "o9", "k1", "k2", "k3", "b13"]), state.racks[1]),
    )
    view = player_view(state, 0)
    greedy = make_player("greedy").decide(view)
    beginner = make_player("beginner").decide(view)
    assert isinstance(greedy, Play) and isinstance(beginner, Play)
    for move in (greedy, beginner):
        apply(state, move, finder=finder)  # both legal
    # The beginner kept the table's melds where they were and only extended them.
    assert [str(m) for m in beginner.board[:2]] == ["[r3,r4,r5,r6,r7]", "[k9,r9,b9,o9]"]
    assert "[k1,k2,k3]" in [str(m) for m in beginner.board]


def test_decision_time_p99_under_a_second() -> None:
    for level in LEVELS:
        times: list[float] = []
        for seed in range(4):
            players = [make_player(level, f"{level}{i}", seed=i) for i in range(4)]
            _, t = play_timed(KRC, players, 300 + seed)
            times.extend(x for _, x in t)
        times.sort()
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
        assert p99 < 1.0, (level, p99)
