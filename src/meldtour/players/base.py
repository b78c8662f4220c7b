"""What every computer player shares: the move when it has nothing it wants to play.

A player who does not play draws while the pool has tiles. With the pool empty it
passes — except under the ``continue`` rule, where a pass is refused while any legal
play exists: then it puts down the solver's best play.
"""

from __future__ import annotations

from meldtour.core.moves import Draw, Move, Pass, Play
from meldtour.core.views import PlayerView
from meldtour.solver import solve


def seat_of(view: PlayerView) -> int:
    """The seat the view belongs to; a spectator's view cannot be played from."""
    if view.seat is None:
        raise ValueError("a spectator's view has no rack: a player needs its own seat")
    return view.seat


def no_play(view: PlayerView) -> Move:
    """Draw, or pass with an empty pool (playing when the rules insist)."""
    seat = seat_of(view)
    if view.pool_left:
        return Draw(seat)
    if view.rules.pool_out == "continue":
        found = solve(view.board, view.rack, view.rules, view.melded[seat])
        if found.placed:
            return Play(seat, found.board)
    return Pass(seat)
