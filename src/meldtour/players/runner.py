"""Play whole games with computer players: the referee loop shared by tests,
benchmarks and the self-play lab."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from meldtour.core.game import IllegalMove, apply, new_game
from meldtour.core.rules import RuleSet
from meldtour.core.search import PlayFinder
from meldtour.core.state import GameState
from meldtour.core.views import player_view
from meldtour.solver import finder as solver_finder

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


def play_timed(
    rules: RuleSet,
    players: Sequence[Player],
    seed: int,
    finder: PlayFinder | None = None,
    max_turns: int = 2000,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[GameState, list[tuple[int, float]]]:
    """:func:`play_game`, also returning each decision's (seat, seconds) by ``clock``
    (wall time by default; ``time.process_time`` leaves out the waits of a loaded
    machine).

    ``finder`` defaults to the fast exact solver. A move the rules refuse is a bug in
    the player: it raises with the seat and the reason.
    """
    find = finder or solver_finder
    state = new_game(rules, [p.name for p in players], seed).state
    times: list[tuple[int, float]] = []
    while state.end is None:
        if state.turn_no > max_turns:
            raise RuntimeError(f"game {seed} did not end in {max_turns} turns")
        seat = state.current
        view = player_view(state, seat)
        started = clock()
        move = players[seat].decide(view)
        times.append((seat, clock() - started))
        try:
            state = apply(state, move, finder=find).state
        except IllegalMove as exc:
            raise RuntimeError(
                f"game {seed}: {players[seat].name} (seat {seat}) made a move the rules "
                f"refuse: {exc.reason}"
            ) from exc
    return state, times
