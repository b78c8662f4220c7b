"""The ``club`` player: a good club player, between ``greedy`` and the expert.

It plays like ``greedy`` — every turn the play that puts down the most tiles,
rearranging the table as it needs — but it does not feed a player who is about to go
out: once another player holds ``close`` tiles or fewer, it draws instead of laying,
unless its play empties its own rack (or the pool is empty). That is what people do at
a club table: lay and rearrange freely, and hold back when someone is down to a few
tiles.

Measured (``BENCHMARKS.md``, "Players", "The league"): it beats ``greedy`` head to head
and loses to the expert head to head, so the levels make a ladder.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from meldtour.core.moves import Draw, Move, Play
from meldtour.core.views import PlayerView
from meldtour.solver import solve

from .base import no_play, seat_of


@dataclass
class ClubPlayer:
    name: str = "club"
    seed: int = 0
    #: Another player with this many tiles or fewer is about to go out.
    close: int = 6

    def decide(self, view: PlayerView) -> Move:
        return greedy_unless(view, lambda others: min(others) <= self.close)


def greedy_unless(view: PlayerView, holds: Callable[[list[int]], bool]) -> Move:
    """Greedy's play (as many tiles as it can), but a draw when ``holds`` says so of the
    other players' rack sizes — never when the play goes out, before the initial meld or
    with the pool empty."""
    seat = seat_of(view)
    best = solve(view.board, view.rack, view.rules, view.melded[seat])
    if not best.placed:
        return no_play(view)
    others = [n for s, n in enumerate(view.rack_sizes) if s != seat]
    if (
        best.placed == len(view.rack)
        or not view.melded[seat]
        or not view.pool_left
        or not holds(others)
    ):
        return Play(seat, best.board)
    return Draw(seat)
