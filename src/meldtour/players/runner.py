"""Play whole games with computer players: the referee loop shared by tests,
benchmarks and the self-play lab."""

from __future__ import annotations

from collections.abc import Sequence

from meldtour.core.game import apply, new_game
from meldtour.core.rules import RuleSet
from meldtour.core.search import PlayFinder
from meldtour.core.state import GameState
from meldtour.core.views import player_view

from . import Player


def play_game(
    rules: RuleSet,
    players: Sequence[Player],
    seed: int,
    finder: PlayFinder | None = None,
    max_turns: int = 2000,
) -> GameState:
    """Play one game to its end; each player sees only its own view."""
    state = new_game(rules, [p.name for p in players], seed).state
    while state.end is None:
        if state.turn_no > max_turns:
            raise RuntimeError(f"game {seed} did not end in {max_turns} turns")
        seat = state.current
        move = players[seat].decide(player_view(state, seat))
        state = apply(state, move, finder=finder).state
    return state
