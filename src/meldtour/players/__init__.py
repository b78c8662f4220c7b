"""Computer players: each sees only its ``player_view`` and returns a move."""

from __future__ import annotations

from typing import Protocol

from meldtour.core.moves import Move
from meldtour.core.views import PlayerView


class Player(Protocol):
    name: str

    def decide(self, view: PlayerView) -> Move: ...
