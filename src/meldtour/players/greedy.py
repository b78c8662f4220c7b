"""The ``greedy`` player: every turn, the solver's play that places the most tiles
(then the most value); it draws only when it cannot play at all."""

from __future__ import annotations

from dataclasses import dataclass

from meldtour.core.moves import Move, Play
from meldtour.core.views import PlayerView
from meldtour.solver import solve

from .base import no_play, seat_of


@dataclass
class GreedyPlayer:
    name: str = "greedy"

    def decide(self, view: PlayerView) -> Move:
        seat = seat_of(view)
        found = solve(view.board, view.rack, view.rules, view.melded[seat])
        if found.placed:
            return Play(seat, found.board)
        return no_play(view)
